"""The latency benchmark's photo: 12 megapixels, shaped like a phone photo, not squashed; a bad one
is a clear error."""

import cv2
import numpy as np
import pytest

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


def test_a_photo_that_is_missing_or_not_an_image_is_a_clear_error(tmp_path, capsys):
    from vision.bench import main

    (tmp_path / "notes.jpg").write_text("not a photo")
    for photo, message in ((tmp_path / "missing.jpg", "no photo at"), (tmp_path / "notes.jpg", "not an image")):
        with pytest.raises(SystemExit) as exit_:
            main(["--photo", str(photo), "--runs", "1"])
        assert exit_.value.code == 2 and message in capsys.readouterr().err
