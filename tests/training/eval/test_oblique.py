"""Photos made at a slant: the same cards as a seated player takes them, the phone pitched towards
the far side."""

import json

import numpy as np
import pytest
from support import real_models_reason

from training.eval.cli import main
from training.eval.oblique import slanted


def cards_on_felt() -> np.ndarray:
    """A 4:3 photo of felt with a white band across it near the top and another near the bottom."""
    img = np.full((300, 400, 3), (40, 110, 30), np.uint8)
    img[40:80, 20:380] = 245
    img[220:260, 20:380] = 245
    return img


def white_width(img: np.ndarray, rows: slice) -> int:
    """How many columns hold white in ``rows``."""
    return int((img[rows] > 240).all(axis=2).any(axis=0).sum())


def test_no_slant_is_the_photo_itself():
    img = cards_on_felt()
    assert np.array_equal(slanted(img, 0), img)


def test_a_slant_makes_the_far_side_smaller_than_the_near_side():
    img = cards_on_felt()
    out = slanted(img, 30)
    assert max(out.shape[:2]) == pytest.approx(400, abs=1)  # the long side is kept
    ys = np.flatnonzero((out > 240).all(axis=2).any(axis=1))
    far, near = ys[ys < out.shape[0] / 2], ys[ys >= out.shape[0] / 2]
    assert len(far) < len(near)  # the far band is foreshortened
    far_width = white_width(out, slice(far.min(), far.max() + 1))
    assert far_width < white_width(out, slice(near.min(), near.max() + 1))
    assert np.abs(out[0, 0].astype(int) - (40, 110, 30)).max() <= 1  # a corner it uncovered: felt


@pytest.mark.parametrize("degrees", [-1, 61, float("nan")])
def test_a_slant_outside_its_range_is_refused(degrees):
    with pytest.raises(ValueError, match="0 <= DEG <= 60"):
        slanted(cards_on_felt(), degrees)


@pytest.mark.parametrize("args,message", [
    (["--oblique", "70"], "--oblique 70: give the camera's further pitch"),
    (["--oblique", "20", "--turn", "45"], "--turn and --oblique"),
])
def test_eval_refuses_a_slant_it_cannot_make(capsys, args, message):
    assert main(["sample_images", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_reads_the_sample_photos_at_a_slant(capsys):
    assert main(["sample_images", "--oblique", "20", "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["name"].endswith("at a slant (20 degrees)") and figures["photos"] == 5
    assert figures["card_accuracy"] >= 0.9  # phone-size photos of the shows, pitched a little further
