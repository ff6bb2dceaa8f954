"""The latency benchmark's photo: 12 megapixels, shaped like a phone photo, not squashed; a bad one
is a clear error."""

import cv2
import numpy as np
import pytest

from benchmarks.vision import make_12mp_jpeg


def test_a_square_photo_is_cut_to_4_by_3_not_stretched(tmp_path):
    src = np.full((600, 600, 3), 255, np.uint8)
    cv2.circle(src, (300, 300), 100, (0, 0, 0), -1)
    cv2.imwrite(str(tmp_path / "square.png"), src)
    made = make_12mp_jpeg(tmp_path / "square.png", tmp_path / "12mp.jpg")
    big = cv2.imread(str(made), cv2.IMREAD_GRAYSCALE)
    assert big.shape == (3000, 4000)
    ys, xs = np.nonzero(big < 128)
    width, height = xs.max() - xs.min(), ys.max() - ys.min()
    assert abs(width - height) < 0.03 * height  # the circle is still round


def test_a_photo_that_is_missing_or_not_an_image_is_a_clear_error(tmp_path, capsys):
    from benchmarks.vision import main

    (tmp_path / "notes.jpg").write_text("not a photo")
    bad = ((tmp_path / "missing.jpg", "no photo at"), (tmp_path / "notes.jpg", "not an image"))
    for photo, message in bad:
        with pytest.raises(SystemExit) as exit_:
            main(["--photo", str(photo), "--runs", "1"])
        assert exit_.value.code == 2 and message in capsys.readouterr().err


def test_a_photo_read_surely_is_one_look_and_looking_always_is_two():
    from benchmarks.vision import looks_taken
    from vision.config import MODELS_DIR, RecognizerConfig
    from vision.pipeline import Recognizer

    data = open("sample_images/row-with-starter-below.jpg", "rb").read()  # five cards, each at 0.999+
    assert looks_taken(Recognizer(MODELS_DIR), data) == 1
    assert looks_taken(Recognizer(MODELS_DIR, RecognizerConfig(second_look_below=2.0)), data) == 2


def test_a_photo_read_again_decoded_finer_counts_that_look():
    from pathlib import Path

    from benchmarks.vision import looks_taken
    from training.eval.afar import afar_jpeg
    from vision.config import MODELS_DIR
    from vision.pipeline import Recognizer

    far = afar_jpeg(Path("sample_images/row-on-a-wood-table.jpg"), 0.27)  # indices too small at a quarter
    assert looks_taken(Recognizer(MODELS_DIR), far) >= 2


def test_a_latency_percentile_is_one_of_the_times_measured_and_none_is_nan():
    from benchmarks.figures import percentile

    times = [30.0, 10.0, 20.0, 40.0, 50.0]
    assert (percentile(times, 0.5), percentile(times, 0.9), percentile(times, 0.0)) == (30.0, 50.0, 10.0)
    assert np.isnan(percentile([], 0.99))
