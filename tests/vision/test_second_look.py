"""Second looks: the detector sees the photo at other sizes too, and what it finds there is either
another reading of an index the main look found or an index the main look missed."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from training.eval.afar import afar_jpeg
from vision.config import MODELS_DIR, RecognizerConfig
from vision.detections import Detections, box_iou
from vision.merge import group_looks
from vision.pipeline import Recognizer
from vision.second_look import in_doubt, second_look_window

IOU, CONFIDENCE = 0.5, 0.3


def boxes(*rows: tuple[float, float, float, float, float]) -> Detections:
    """Boxes as (x0, y0, x1, y1, detector score)."""
    a = np.array(rows, np.float32).reshape(-1, 5)
    return Detections(xyxy=a[:, :4], confidence=a[:, 4])


def test_a_box_on_a_main_box_is_another_reading_of_that_index():
    read, groups = group_looks(boxes((0, 0, 10, 20, 0.8)), boxes((1, 1, 11, 21, 0.9)), IOU, CONFIDENCE)
    assert groups == [[0, 1]]
    assert len(read) == 2


def test_the_main_box_leads_its_index_even_when_a_second_look_scores_higher():
    read, groups = group_looks(boxes((0, 0, 10, 20, 0.2)), boxes((1, 1, 11, 21, 0.9)), IOU, CONFIDENCE)
    assert tuple(read.xyxy[groups[0][0]]) == (0, 0, 10, 20)


def test_a_box_only_a_second_look_found_is_a_new_index():
    read, groups = group_looks(boxes((0, 0, 10, 20, 0.8)), boxes((50, 0, 60, 20, 0.4)), IOU, CONFIDENCE)
    assert groups == [[0], [1]]
    assert tuple(read.xyxy[1]) == (50, 0, 60, 20)


def test_a_faint_box_only_a_second_look_found_is_dropped():
    read, groups = group_looks(boxes((0, 0, 10, 20, 0.8)), boxes((50, 0, 60, 20, 0.2)), IOU, CONFIDENCE)
    assert groups == [[0]]
    assert len(read) == 1


def test_two_second_looks_at_one_missed_index_are_one_new_index_led_by_the_surer():
    read, groups = group_looks(Detections.empty(), boxes((51, 1, 61, 21, 0.35), (50, 0, 60, 20, 0.6)),
                               IOU, CONFIDENCE)
    assert len(groups) == 1 and len(groups[0]) == 2
    assert tuple(read.xyxy[groups[0][0]]) == (50, 0, 60, 20)


def test_a_faint_box_on_a_new_index_still_counts_as_a_reading_of_it():
    _, groups = group_looks(Detections.empty(), boxes((50, 0, 60, 20, 0.6), (51, 1, 61, 21, 0.1)),
                            IOU, CONFIDENCE)
    assert [len(g) for g in groups] == [2]


def test_a_box_touching_a_main_index_and_a_new_one_joins_the_main():
    main = boxes((0, 0, 10, 20, 0.8))
    # the first is new (IoU 0.43 with main); the second overlaps it more (0.82) than main (0.54)
    others = boxes((4, 0, 14, 20, 0.7), (3, 0, 13, 20, 0.5))
    _, groups = group_looks(main, others, IOU, CONFIDENCE)
    assert groups[0] == [0, 2]
    assert groups[1] == [1]


def test_a_box_beside_the_main_ones_is_not_taken_for_them():
    main = boxes((0, 0, 10, 20, 0.8), (12, 0, 22, 20, 0.8))
    _, groups = group_looks(main, boxes((6, 0, 16, 20, 0.9)), IOU, CONFIDENCE)  # IoU 0.25 with each
    assert groups == [[0], [1], [2]]


def test_no_boxes_no_indices():
    read, groups = group_looks(Detections.empty(), Detections.empty(), IOU, CONFIDENCE)
    assert groups == [] and len(read) == 0


WHOLE = {"min_long_side": 1600}
"""The sample photos (2844-3159 px) decoded whole, as the forced second looks here expect: decoded at
half they would be read again whole first (``fine_long_side``; tests/vision/test_decode_scale.py)."""


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    image = cv2.imread("sample_images/row-on-a-wood-table.jpg")
    assert image is not None
    return image


def test_the_main_look_comes_first_unchanged(photo):
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_sizes=(608, 736)))
    read, groups = recognizer.find_indices(photo)
    main = recognizer.detect_indices(photo)
    assert np.array_equal(read.xyxy[: len(main)], main.xyxy)
    assert [g[0] for g in groups[: len(main)]] == list(range(len(main)))
    assert len(read) > len(main)  # the other looks' boxes are read too


def test_a_second_look_at_the_main_size_adds_nothing(photo):
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_sizes=(608,)))
    read, groups = recognizer.find_indices(photo)
    assert recognizer.detector_size(photo) == 608
    assert groups == [[i] for i in range(len(read))]


def test_no_second_look_sizes_take_one_look(photo):
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_sizes=()))
    read, groups = recognizer.find_indices(photo)
    assert len(read) == len(recognizer.detect_indices(photo))
    assert groups == [[i] for i in range(len(read))]


# -- second looks only where the main look leaves doubt ------------------------------------------

def test_no_card_read_is_doubt():
    assert in_doubt(Detections.empty(), RecognizerConfig())


def five(*confidences: float) -> Detections:
    """Five cards in a row, read at ``confidences``."""
    return boxes(*((20 * i, 0, 20 * i + 10, 20, c) for i, c in enumerate(confidences)))


def test_a_card_read_below_the_line_is_doubt_and_five_cards_above_it_are_not():
    config = RecognizerConfig(second_look_below=0.999)
    assert not in_doubt(five(0.9995, 1.0, 1.0, 1.0, 1.0), config)
    assert in_doubt(five(0.98, 1.0, 1.0, 1.0, 1.0), config)


def test_fewer_cards_than_a_show_is_doubt_however_sure():
    four_sure = five(1.0, 1.0, 1.0, 1.0, 1.0)[:4]
    assert in_doubt(four_sure, RecognizerConfig(second_look_below=0.999, second_look_fewer_than=5))
    assert not in_doubt(four_sure, RecognizerConfig(second_look_fewer_than=4))


def _looks_taken(recognizer: Recognizer, path: str) -> tuple[list[str], list[int]]:
    """The cards read from the photo at ``path``, and the sizes the detector looked at."""
    sizes: list[int] = []
    detect = recognizer.detect_indices

    def counting(img: np.ndarray, size: int | None = None, window=None, scale: float = 1.0) -> Detections:
        sizes.append(size or recognizer.detector_size(img, scale))
        return detect(img, size, window, scale)

    recognizer.detect_indices = counting
    cards = [str(c) for c in recognizer.recognize(path).card_list]
    return cards, sizes


def test_a_photo_whose_cards_all_read_surely_gets_one_look():
    recognizer = Recognizer(MODELS_DIR)
    cards, sizes = _looks_taken(recognizer, "sample_images/row-with-starter-below.jpg")
    assert sizes == [608]
    one_look = Recognizer(MODELS_DIR, RecognizerConfig(second_look_sizes=()))
    assert cards == [str(c) for c in one_look.recognize("sample_images/row-with-starter-below.jpg").card_list]


def test_a_photo_with_a_doubtful_card_gets_the_second_looks_and_reads_as_looking_always():
    # This sample's five cards read at 0.999 or more: a line just over 1 puts it in doubt.
    line = float(np.nextafter(np.float32(1), np.float32(2)))
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_below=line, **WHOLE))
    cards, sizes = _looks_taken(recognizer, "sample_images/starter-on-the-deck.jpg")
    assert sizes == [608, 736]  # a phone photo: main look at 608, then again at 736 only
    always = Recognizer(MODELS_DIR, RecognizerConfig(second_look_below=2.0, **WHOLE))
    expected = always.recognize("sample_images/starter-on-the-deck.jpg")
    assert cards == [str(c) for c in expected.card_list]
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_below=line, **WHOLE))
    got = recognizer.recognize("sample_images/starter-on-the-deck.jpg")
    assert np.allclose(got.confidence, expected.confidence) and np.allclose(got.xyxy, expected.xyxy)


# -- second looks made cheaper: only the region of the cards, only the unsure indices read ---------

def test_a_look_through_a_window_sees_what_the_whole_look_sees_there(photo):
    recognizer = Recognizer(MODELS_DIR)
    h, w = photo.shape[:2]
    window = (w // 5, h // 5, 4 * w // 5, 4 * h // 5)
    whole = recognizer.detect_indices(photo, 736)
    seen = recognizer.detect_indices(photo, 736, window)
    inside = ((whole.xyxy[:, 0] > window[0] + w / 10) & (whole.xyxy[:, 2] < window[2] - w / 10)
              & (whole.xyxy[:, 1] > window[1] + h / 10) & (whole.xyxy[:, 3] < window[3] - h / 10))
    assert inside.sum() >= 3
    overlap = box_iou(whole.xyxy[inside], seen.xyxy).max(axis=1)
    assert np.median(overlap) > 0.98 and overlap.min() > 0.7
    grid = 32 * max(h, w) / 736  # the window is cut on the detector's stride grid
    assert (seen.xyxy[:, :2] >= np.array(window[:2]) - grid).all()
    assert (seen.xyxy[:, 2:] <= np.array(window[2:]) + grid).all()


def test_the_window_is_the_boxes_grown_by_their_median_height():
    img = np.zeros((1000, 2000, 3), np.uint8)
    around = boxes((500, 400, 520, 440, 0.9), (700, 400, 720, 450, 0.9), (900, 400, 920, 430, 0.9))
    window = second_look_window(img, around.xyxy, RecognizerConfig(second_look_window=2))
    assert window == (420, 320, 1000, 530)  # median height 40


def test_a_window_that_takes_in_the_whole_photo_or_has_nothing_to_go_round_is_the_whole_photo():
    config = RecognizerConfig(second_look_window=4)
    img = np.zeros((100, 200, 3), np.uint8)
    assert second_look_window(img, boxes((40, 10, 60, 50, 0.9)).xyxy, config) is None
    assert second_look_window(img, Detections.empty().xyxy, config) is None
    big, one = np.zeros((1000, 2000, 3), np.uint8), boxes((500, 400, 520, 440, 0.9)).xyxy
    assert second_look_window(big, one, RecognizerConfig(second_look_window=0)) is None


def _rows_read(recognizer: Recognizer, path: str) -> list[int]:
    """How many index boxes each classifier call read while recognizing the photo at ``path``."""
    rows: list[int] = []
    classify = recognizer.classify

    def counting(img: np.ndarray, indices: Detections) -> np.ndarray:
        rows.append(len(indices))
        return classify(img, indices)

    recognizer.classify = counting
    recognizer.recognize(path)
    return rows


def test_a_second_look_reads_only_the_boxes_on_unsure_indices_and_the_new_ones():
    path = "sample_images/starter-on-the-deck.jpg"
    every_config = RecognizerConfig(second_look_below=2.0, second_reading_below=2.0, **WHOLE)
    every = _rows_read(Recognizer(MODELS_DIR, every_config), path)
    only_new = Recognizer(MODELS_DIR,
                          RecognizerConfig(second_look_below=2.0, second_reading_below=0.0, **WHOLE))
    img = cv2.imread(path)
    read, groups = only_new.find_indices(img)
    main = only_new.detect_indices(img)
    new_indices = sum(len(g) for g in groups[len(main):])
    assert _rows_read(only_new, path) == [len(main), new_indices]
    assert every == [len(main), len(read) - len(main)] and every[1] > new_indices


def _windows_seen(recognizer: Recognizer, path: str) -> dict[int, tuple[int, int, int, int] | None]:
    """The window the detector saw the photo at ``path`` through, per size it looked at."""
    seen: dict[int, tuple[int, int, int, int] | None] = {}
    detect = recognizer.detect_indices

    def recording(img: np.ndarray, size: int | None = None, window=None, scale: float = 1.0) -> Detections:
        seen[size or recognizer.detector_size(img, scale)] = window
        return detect(img, size, window, scale)

    recognizer.detect_indices = recording
    recognizer.recognize(path)
    return seen


def _from_afar(path: str, frac: float = 0.3) -> bytes:
    """The sample photo taken from farther away: ``frac`` of a 12 MP frame's width (training.eval.afar)."""
    return afar_jpeg(Path(path), frac)


def test_a_photo_taken_from_afar_reads_its_cards_with_a_zoomed_look():
    # 0.27 of the frame: this release's detector reads all five at 0.3 without the zoomed look.
    far = _from_afar("sample_images/row-on-a-wood-table.jpg", 0.27)
    read = Recognizer(MODELS_DIR).recognize(far)
    assert sorted(map(str, read.cards)) == sorted("2H AC 7D 2S 5D".split())
    assert read.confidence.min() >= 0.85
    # The whole-photo looks alone see the indices too small and miss some of the five.
    without = Recognizer(MODELS_DIR, RecognizerConfig(zoom_look_span=None)).recognize(far)
    assert len(without) < 5


def test_the_zoomed_look_is_taken_only_where_it_enlarges_the_cards(photo):
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(second_look_below=2.0, **WHOLE))
    sizes = []
    detect = recognizer.detect_indices

    def spy(img, size=None, window=None, scale=1.0):
        sizes.append((img.shape[:2], size))
        return detect(img, size, window, scale)
    recognizer.detect_indices = spy
    recognizer.recognize(photo)  # the cards fill the frame: no zoomed look
    assert all(shape == photo.shape[:2] for shape, _ in sizes)
    sizes.clear()
    data = _from_afar("sample_images/row-on-a-wood-table.jpg")
    far = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    recognizer.recognize(far)  # read at half size, 2000 x 1500, as its JPEG decodes with WHOLE
    zoomed = [(shape, size) for shape, size in sizes if shape != (1500, 2000)]
    assert len(zoomed) == 1 and zoomed[0][1] == 608 and max(zoomed[0][0]) < 1000  # the cards' region only
