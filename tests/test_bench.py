"""The latency benchmark's photo: 12 megapixels, shaped like a phone photo, not squashed."""

import cv2
import numpy as np

from vision.bench import make_12mp_jpeg


def test_a_square_photo_is_cut_to_4_by_3_not_stretched(tmp_path):
    src = np.full((600, 600, 3), 255, np.uint8)
    cv2.circle(src, (300, 300), 100, (0, 0, 0), -1)
    cv2.imwrite(str(tmp_path / "square.png"), src)
    big = cv2.imread(str(make_12mp_jpeg(tmp_path / "square.png", tmp_path / "12mp.jpg")), cv2.IMREAD_GRAYSCALE)
    assert big.shape == (3000, 4000)
    ys, xs = np.nonzero(big < 128)
    width, height = xs.max() - xs.min(), ys.max() - ys.min()
    assert abs(width - height) < 0.03 * height  # the circle is still round
