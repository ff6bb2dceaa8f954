"""The detector's input: the photo scaled to its size on the long side and padded, to a square or,
for the recognizer, only to the detector's stride; either way a pixel maps back to where it was."""

import numpy as np
import pytest

from vision.recognizer import DETECTOR_STRIDE, _letterbox


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
