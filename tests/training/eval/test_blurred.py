"""Photos made blurred: the same photo through a defocus blur, saved again as a JPEG."""

import json

import cv2
import numpy as np
import pytest
from support import real_models_reason

from training.eval.blurred import MAX_SIGMA, blurred, blurred_jpeg
from training.eval.cli import main


def card_on_felt() -> np.ndarray:
    img = np.full((300, 400, 3), (40, 110, 30), np.uint8)
    img[100:200, 150:250] = 245
    return img


def test_a_blurred_photo_softens_the_card_s_edge_and_keeps_its_size_and_middle():
    sharp = card_on_felt()
    soft = blurred(sharp, 2.0)
    assert soft.shape == sharp.shape
    assert soft[150, 200].min() > 240  # the middle of the card, far from its edge, unchanged
    edge = soft[150, 146:154, 1].astype(int)
    assert len(set(edge)) > 4  # a ramp where the sharp photo steps from felt to card
    assert len(set(sharp[150, 146:154, 1])) == 2


@pytest.mark.parametrize("sigma", [0, -1, MAX_SIGMA + 1])
def test_a_blur_outside_its_range_is_refused(sigma):
    with pytest.raises(ValueError):
        blurred(card_on_felt(), sigma)


def test_the_blurred_photo_is_a_jpeg_of_the_blurred_pixels(tmp_path):
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), card_on_felt())
    decoded = cv2.imdecode(np.frombuffer(blurred_jpeg(path, 1.5), np.uint8), cv2.IMREAD_COLOR)
    assert np.abs(decoded.astype(int) - blurred(card_on_felt(), 1.5)).mean() < 2


@pytest.mark.parametrize("args,message", [
    (["--blur", "0"], "--blur"),
    (["--blur", "1.5", "--light", "dim"], "give one of them"),
    (["--blur", "1.5", "--from-afar", "0.3"], "--from-afar and --blur"),
])
def test_eval_refuses_a_blur_it_cannot_make(capsys, args, message):
    assert main(["sample_images", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_reads_the_sample_photos_blurred(capsys):
    assert main(["sample_images", "--blur", "1.5", "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["name"].endswith("blurred (1.5 px)") and figures["photos"] == 5
