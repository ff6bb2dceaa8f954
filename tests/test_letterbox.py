"""The detector's input: the photo scaled to its size on the long side and padded, to a square or,
for the recognizer, only to the detector's stride; either way a pixel maps back to where it was.
A phone-size photo is shown to the detector larger than the size it trained at."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.recognizer import DETECTOR_STRIDE, MODELS_DIR, Recognizer, RecognizerConfig, _letterbox


def _photo(h: int, w: int) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[h // 4 : h // 4 + 40, w // 3 : w // 3 + 40] = 255  # a white square to find again
    return img


@pytest.mark.parametrize(("h", "w", "stride", "shape"), [
    (3000, 4000, None, (480, 480)),
    (3000, 4000, DETECTOR_STRIDE, (384, 480)),   # 4:3 landscape: 480x360, padded to 384 rows
    (4000, 3000, DETECTOR_STRIDE, (480, 384)),   # portrait
    (1000, 1000, DETECTOR_STRIDE, (480, 480)),
])
def test_the_canvas_is_square_or_padded_to_the_stride(h, w, stride, shape):
    canvas, r, _ = _letterbox(_photo(h, w), 480, stride)
    assert canvas.shape[:2] == shape
    assert r == pytest.approx(480 / max(h, w))


@pytest.mark.parametrize("stride", [None, DETECTOR_STRIDE])
def test_a_point_maps_back_to_the_photo(stride):
    canvas, r, (left, top) = _letterbox(_photo(3000, 4000), 480, stride)
    ys, xs = np.nonzero(canvas[..., 0] > 200)
    assert (xs.min() - left) / r == pytest.approx(4000 // 3, abs=1 / r)
    assert (ys.min() - top) / r == pytest.approx(3000 // 4, abs=1 / r)


def _centres(xyxy: np.ndarray) -> np.ndarray:
    return (xyxy[:, :2] + xyxy[:, 2:]) / 2


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer(MODELS_DIR)


@pytest.fixture(scope="module")
def plain() -> Recognizer:
    """Every photo at the detector's training size, as before phone photos were shown larger."""
    return Recognizer(MODELS_DIR, RecognizerConfig(large_photo_detector_size=None))


@pytest.mark.parametrize(("h", "w", "size"), [
    (1500, 2000, 608),   # a 12 MP photo as decoded: at least twice 608 on its long side
    (2432, 1000, 608),
    (608, 1215, 480),    # smaller: the size the detector trained at (its sidecar's)
    (640, 640, 480),
])
def test_a_phone_size_photo_is_shown_to_the_detector_at_608(recognizer, h, w, size):
    assert recognizer.det_size == 480
    assert recognizer.detector_size(_photo(h, w)) == size


def test_without_a_large_photo_size_every_photo_is_shown_at_the_training_size(plain):
    assert plain.detector_size(_photo(3000, 4000)) == 480


def test_a_large_photo_size_below_the_training_size_never_shrinks_the_view():
    smaller = Recognizer(MODELS_DIR, RecognizerConfig(large_photo_detector_size=320))
    assert smaller.detector_size(_photo(3000, 4000)) == 480


def test_a_phone_size_photo_still_yields_boxes_in_its_own_pixels(recognizer, plain):
    """The boxes found at 608 land on the photo's own pixels, as those found at 480 do: each sure
    box at 608 lies on a box found at 480 (sure or not: one index can score either side of 0.5 at
    the two sizes)."""
    sample = sorted((Path(__file__).resolve().parent.parent / "sample_images").glob("*.jpg"))[0]
    image = cv2.imread(str(sample))
    assert max(image.shape[:2]) >= 1216
    large = recognizer.detect_indices(image)
    small = plain.detect_indices(image)
    sure_large = large.xyxy[large.confidence > 0.5]
    assert len(sure_large) >= 5
    gaps = np.linalg.norm(_centres(sure_large)[:, None] - _centres(small.xyxy)[None], axis=2).min(axis=1)
    heights = sure_large[:, 3] - sure_large[:, 1]
    assert np.all(gaps < heights / 2)
