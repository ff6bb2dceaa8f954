"""Photos made turned: the same photo as a player at another side of the table takes it."""

import json

import cv2
import numpy as np
import pytest
from support import real_models_reason

from training.eval.cli import main
from training.eval.turned import turned, turned_jpeg


def card_on_felt() -> np.ndarray:
    img = np.full((300, 400, 3), (40, 110, 30), np.uint8)
    img[100:200, 150:250] = 245
    img[100:120, 150:165] = 0  # the card's top-left index, to see where it goes
    return img


def test_a_quarter_turn_moves_pixels_without_resampling_them():
    img = card_on_felt()
    quarter = turned(img, 90)
    assert quarter.shape == (400, 300, 3)
    assert np.array_equal(quarter, np.rot90(img))
    assert np.array_equal(turned(img, -90), turned(img, 270))
    assert np.array_equal(turned(img, 180), img[::-1, ::-1])


def test_a_quarter_turn_is_anticlockwise_so_the_top_left_index_goes_to_the_bottom_left():
    quarter = turned(card_on_felt(), 90)
    ys, xs = np.nonzero(quarter[..., 1] == 0)
    assert ys.min() > 200 and xs.max() < 150  # below the card's middle, left of it


def test_a_turn_of_other_angles_holds_the_whole_photo_on_the_table_s_colour():
    img = card_on_felt()
    diagonal = turned(img, 45)
    side = (300 + 400) / np.sqrt(2)
    assert abs(diagonal.shape[0] - side) <= 2 and abs(diagonal.shape[1] - side) <= 2
    assert np.abs(diagonal[0, 0].astype(int) - (40, 110, 30)).max() <= 1  # a corner it uncovered: felt
    # The index is all there.
    assert (diagonal[..., 1] == 0).sum() == pytest.approx((img[..., 1] == 0).sum(), rel=0.2)
    assert (diagonal > 240).all(axis=2).sum() == pytest.approx((img > 240).all(axis=2).sum(), rel=0.1)


@pytest.mark.parametrize("degrees", [361, -400, float("nan")])
def test_a_turn_outside_its_range_is_refused(degrees):
    with pytest.raises(ValueError):
        turned(card_on_felt(), degrees)


def test_the_turned_photo_is_a_jpeg_of_the_turned_pixels(tmp_path):
    path = tmp_path / "t.png"
    cv2.imwrite(str(path), card_on_felt())
    decoded = cv2.imdecode(np.frombuffer(turned_jpeg(path, 30), np.uint8), cv2.IMREAD_COLOR)
    assert np.abs(decoded.astype(int) - turned(card_on_felt(), 30)).mean() < 2


@pytest.mark.parametrize("args,message", [
    (["--turn", "400"], "--turn"),
    (["--turn", "45", "--light", "dim"], "give one of them"),
    (["--blur", "1.5", "--turn", "45"], "--blur and --turn"),
])
def test_eval_refuses_a_turn_it_cannot_make(capsys, args, message):
    assert main(["sample_images", *args]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_reads_the_sample_photos_turned(capsys):
    assert main(["sample_images", "--turn", "90", "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["name"].endswith("turned 90 degrees") and figures["photos"] == 5
    # A quarter turn: the cards lie as a player across the table sees them.
    assert figures["card_accuracy"] >= 0.9
