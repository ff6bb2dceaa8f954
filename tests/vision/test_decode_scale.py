"""A big photo is read decoded at a quarter, and again at half only where that leaves doubt or its indices
are small."""

from pathlib import Path

import numpy as np
import pytest

from benchmarks.vision import make_12mp_jpeg
from training.eval.afar import afar_jpeg
from vision.config import MODELS_DIR, RecognizerConfig
from vision.decode import decode_photo
from vision.detections import Detections
from vision.pipeline import Recognizer
from vision.second_look import second_look_window, too_small

SAMPLE = Path("sample_images/row-on-a-wood-table.jpg")


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer(MODELS_DIR)


def boxes(*heights: float, confidence: float = 0.9) -> Detections:
    xyxy = np.array([[10, 10, 30, 10 + h] for h in heights], np.float32).reshape(-1, 4)
    return Detections(xyxy=xyxy, confidence=np.full(len(heights), confidence, np.float32))


QUARTER = 4.0
"""Photo pixels per pixel of a 12 MP photo decoded at a quarter."""


def quarter_of_12_mp() -> np.ndarray:
    return np.zeros((750, 1000, 3), np.uint8)


def sure_cards(n: int = 5) -> Detections:
    return boxes(*[30] * n).with_(confidence=np.ones(n, np.float32))


SHIPPED = RecognizerConfig()


def test_indices_shorter_than_the_line_are_too_small():
    assert too_small(boxes(10, 12, 14), SHIPPED)
    assert not too_small(boxes(20, 22, 60), SHIPPED)


def test_no_index_the_detector_is_sure_of_is_too_small():
    assert too_small(Detections.empty(), SHIPPED)
    assert too_small(boxes(40, 40, confidence=0.1), SHIPPED)


def readings(n: int, card: float = 0.999) -> np.ndarray:
    """(n, 53) readings: each index the card ``n`` ... at ``card``, the rest spread."""
    probs = np.full((n, 53), (1 - card) / 52, np.float32)
    probs[np.arange(n), np.arange(n)] = card
    return probs


def test_five_sure_cards_on_tall_indices_are_read_where_they_are(recognizer):
    tall = boxes(30, 30, 32)
    assert not recognizer.read_finer(quarter_of_12_mp(), tall, readings(3), sure_cards(), QUARTER)


def test_small_indices_are_read_finer(recognizer):
    assert recognizer.read_finer(quarter_of_12_mp(), boxes(10, 12), readings(2), sure_cards(), QUARTER)


def test_doubt_is_read_finer_where_the_second_looks_would_zoom_in(recognizer):
    cards_in_a_corner = boxes(30, 30, 30)  # 20 px wide, 40 px tall: a small region of the frame
    window = second_look_window(quarter_of_12_mp(), cards_in_a_corner.xyxy, SHIPPED)
    assert recognizer.zoom_window(quarter_of_12_mp(), window, QUARTER) is not None
    four = sure_cards(4)  # a show is five
    assert recognizer.read_finer(quarter_of_12_mp(), cards_in_a_corner, readings(3), four, QUARTER)


def test_doubt_over_cards_that_fill_the_frame_takes_its_second_looks_where_it_is(recognizer):
    spread = Detections(xyxy=np.float32([[20, 20, 45, 50], [900, 680, 925, 710]]),
                        confidence=np.float32([0.9, 0.9]))
    assert not recognizer.read_finer(quarter_of_12_mp(), spread, readings(2), sure_cards(4), QUARTER)


def test_a_photo_decoded_at_the_fine_size_is_read_there(recognizer):
    fine = np.zeros((1500, 2000, 3), np.uint8)
    assert not recognizer.read_finer(fine, boxes(8, 8), readings(2), sure_cards(2))


def _main_look(recognizer: Recognizer, data: bytes):
    photo = decode_photo(data)
    img = recognizer.balanced(photo.image)
    return photo, img, recognizer.main_look(img, photo.scale)


def test_a_phone_photo_of_the_cards_is_read_at_a_quarter(recognizer, tmp_path):
    data = make_12mp_jpeg(SAMPLE, tmp_path / "12mp.jpg").read_bytes()
    photo, img, (indices, probs, cards) = _main_look(recognizer, data)
    assert photo.scale == 4.0 and not recognizer.read_finer(img, indices, probs, cards, photo.scale)
    assert sorted(map(str, recognizer.recognize_photo(photo).cards)) == sorted("2H AC 7D 2S 5D".split())


def test_a_photo_from_afar_is_read_again_at_half(recognizer):
    far = afar_jpeg(SAMPLE, 0.27)
    photo, img, (indices, probs, cards) = _main_look(recognizer, far)
    assert photo.scale == 4.0 and too_small(indices, SHIPPED)
    assert recognizer.read_finer(img, indices, probs, cards, 4.0)
    half = photo.finer()
    assert half.scale == 2.0
    assert recognizer.recognize_photo(photo).cards == recognizer.recognize_photo(half).cards
