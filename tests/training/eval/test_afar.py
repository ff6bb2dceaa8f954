"""Photos made as if taken from afar: the same photo, a small part of a 12 MP frame of its table."""

import numpy as np
import pytest

from training.eval.afar import FRAME, from_afar
from training.eval.cli import main


def table_photo() -> np.ndarray:
    img = np.full((300, 400, 3), (40, 110, 30), np.uint8)
    img[100:200, 150:250] = 245  # a card in the middle of green felt
    return img


def test_a_photo_from_afar_is_a_12_mp_frame_with_the_photo_in_its_middle():
    made = from_afar(table_photo(), 0.25, np.random.default_rng(0))
    assert made.shape == (FRAME[1], FRAME[0], 3)
    # 0.25 of 4000 px: the 400 px photo at 1000 x 750, centred; the card its middle third.
    assert made[1500, 2000].min() > 230
    assert made[1500, 1500:2500].mean(axis=0)[1] < 245 and made[1500, 1700].min() < 200


def test_the_frame_round_it_is_the_photo_s_own_table_with_a_little_noise():
    made = from_afar(table_photo(), 0.25, np.random.default_rng(0))
    corner = made[:200, :200].reshape(-1, 3).astype(float)
    assert np.allclose(corner.mean(axis=0), (40, 110, 30), atol=1)
    assert 1 < corner.std(axis=0).mean() < 5


def test_a_tall_photo_is_fitted_to_the_frame_s_height():
    made = from_afar(np.full((900, 300, 3), 200, np.uint8), 1.0, np.random.default_rng(0))
    assert made.shape == (FRAME[1], FRAME[0], 3)


@pytest.mark.parametrize("frac", [0, -0.5, 1.5])
def test_a_fraction_outside_the_frame_is_refused(frac):
    with pytest.raises(ValueError):
        from_afar(table_photo(), frac, np.random.default_rng(0))


@pytest.mark.parametrize("args,message", [
    (["--from-afar", "1.5"], "--from-afar"),
    (["--from-afar", "0.3", "--light", "dim"], "give one of them"),
])
def test_eval_refuses_from_afar_it_cannot_make(capsys, args, message):
    assert main(["sample_images", *args]) == 2
    assert message in capsys.readouterr().err
