"""White balance on the cards: a photo taken in dim or warm light is brought back to the light the
models trained in, with the cards as the white patch; a photo in good light is left alone."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.balance import channel_percentiles, white_balanced
from vision.config import MODELS_DIR, RecognizerConfig
from vision.pipeline import Recognizer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "row-on-a-wood-table.jpg"


def table_with_cards(card_bgr: tuple[int, int, int], table_bgr: tuple[int, int, int] = (40, 70, 110),
                     card_share: float = 0.1) -> np.ndarray:
    """A 400x600 photo: a plain table with white cards covering ``card_share`` of it, each card
    with a black index mark."""
    img = np.empty((400, 600, 3), np.uint8)
    img[:] = table_bgr
    width = int(600 * card_share)
    img[:, 100:100 + width] = card_bgr
    img[20:40, 105:115] = 0
    return img


def test_channel_percentiles_find_the_cards_white():
    img = table_with_cards((235, 235, 235))
    np.testing.assert_allclose(channel_percentiles(img, 99), [235, 235, 235], atol=1)
    np.testing.assert_allclose(channel_percentiles(img, 50), [40, 70, 110], atol=1)


def test_a_photo_in_good_light_is_left_as_it_is():
    img = table_with_cards((232, 236, 238))
    assert white_balanced(img, 99, min_change=0.3) is img


def test_a_dim_photo_is_brought_back_to_the_cards_white():
    dim = (table_with_cards((235, 235, 235)).astype(np.float32) * 0.4).astype(np.uint8)
    out = white_balanced(dim, 99, target=235, min_change=0.3)
    np.testing.assert_allclose(out[200, 120], [235, 235, 235], atol=3)
    assert out[30, 110].max() == 0  # black stays black: the index keeps its contrast


def test_a_warm_cast_is_taken_out():
    warm = table_with_cards((150, 200, 235))  # BGR: tungsten light, little blue
    out = white_balanced(warm, 99, target=235, min_change=0.3)
    np.testing.assert_allclose(out[200, 120], [235, 235, 235], atol=3)


def test_a_dark_photo_is_lifted_no_more_than_the_gain_allows():
    dark = table_with_cards((30, 30, 30), table_bgr=(5, 5, 5))
    out = white_balanced(dark, 99, target=235, max_gain=3.0, min_change=0.3)
    np.testing.assert_allclose(out[200, 120], [90, 90, 90], atol=1)


def test_an_overexposed_photo_is_not_darkened_when_the_change_is_small():
    bright = table_with_cards((255, 255, 255))  # the cards clipped: the gain would be 235/255
    assert white_balanced(bright, 99, target=235, min_change=0.3) is bright


@pytest.mark.skipif(not (MODELS_DIR / "detector.onnx").exists(), reason="the shipped models are not there")
def test_a_dim_noisy_photo_reads_its_five_cards_surely_once_balanced():
    img = cv2.imread(str(SAMPLE))
    noise = np.random.default_rng(0).normal(0, 3, img.shape)
    dim = np.clip(img.astype(np.float32) * 0.25 + noise, 0, 255).astype(np.uint8)
    balanced = Recognizer(MODELS_DIR, RecognizerConfig()).recognize(dim)
    assert sorted(str(c) for c in balanced.cards) == ["2H", "2S", "5D", "7D", "AC"]
    assert balanced.confidence.min() >= 0.99
    as_decoded = Recognizer(MODELS_DIR, replace(RecognizerConfig(), white_percentile=None))
    assert as_decoded.balanced(dim) is dim and Recognizer(MODELS_DIR).balanced(dim) is not dim


def test_made_light_is_the_same_photo_each_time_and_darker(tmp_path):
    from training.eval.light import DIM, LIGHTS, WARM, in_light, relit, relit_jpeg

    assert LIGHTS["dim-warm"] == (DIM, WARM)
    first, again = relit_jpeg(SAMPLE, "dim"), relit_jpeg(SAMPLE, "dim")
    assert first == again  # the noise is drawn from the file's name
    dim = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
    assert dim.mean() < 0.5 * cv2.imread(str(SAMPLE)).mean()
    warm = relit(table_with_cards((235, 235, 235)), LIGHTS["warm"], np.random.default_rng(0))
    b, g, r = warm[200, 120]
    assert b < g < r  # tungsten: blue down, red up
    with pytest.raises(ValueError, match="no light"):
        in_light(lambda *a: None, "candle")


