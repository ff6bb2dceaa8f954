"""Preprocess: a dim or tinted photo white-balanced on its cards before the detector sees it.

The cards are the white of a photo of cards, so each channel's high percentile is brought to a
white target (white patch balance): the light the models trained in.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import RecognizerConfig


def channel_percentiles(img: np.ndarray, q: float, step: int = 4) -> np.ndarray:
    """Per channel of a BGR uint8 image, the value below which ``q`` percent of its pixels lie,
    from every ``step``-th row and column (a histogram: a millisecond on a 12 MP photo)."""
    sample = np.ascontiguousarray(img[::step, ::step])
    out = np.empty(img.shape[2], np.float64)
    for c in range(img.shape[2]):
        cum = np.cumsum(cv2.calcHist([sample], [c], None, [256], [0, 256]).ravel())
        out[c] = float(np.searchsorted(cum, cum[-1] * q / 100.0))
    return out


def white_balanced(img: np.ndarray, percentile: float = 99.0, target: float = 235.0,
                   max_gain: float = 3.0, min_change: float = 0.25) -> np.ndarray:
    """``img`` with each channel scaled so that its ``percentile`` lands on ``target``: the cards are
    the white of a photo of cards (white patch balance), so a dim or yellow-lit photo is brought to the
    light the models trained in. Only a photo clearly off is balanced, dim (every gain ≥ ``1 +
    min_change``) or tinted (the largest gain that much over the smallest): balancing the moderate
    casts of the training renders cost as many photos as it fixed. Gains lie in 1/1.25..``max_gain``,
    so dark wood with a few small cards is not pushed to glare (docs/experiments, "Dim and warm light").
    """
    gains = np.clip(target / np.maximum(channel_percentiles(img, percentile), 1.0), 1 / 1.25, max_gain)
    if gains.min() < 1 + min_change and gains.max() < (1 + min_change) * gains.min():
        return img
    lut = np.clip(np.arange(256)[:, None] * gains[None, :], 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(img, lut)


def balanced(img: np.ndarray, config: RecognizerConfig) -> np.ndarray:
    """The photo white-balanced on its cards where it is dim or tinted, as ``config`` says
    (``white_percentile`` ``None``: as decoded)."""
    if config.white_percentile is None:
        return img
    return white_balanced(img, config.white_percentile, config.white_target, config.white_max_gain,
                          config.white_min_change)
