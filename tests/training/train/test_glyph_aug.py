"""Glyph-shape augmentation: the glyph changes shape and weight, but stays where it was and what it was."""

from __future__ import annotations

import cv2
import numpy as np

from training.train.glyph_aug import GlyphWarp, elastic, stroke_weight


def _glyph(side: int = 96) -> np.ndarray:
    """A dark 'L' on light paper, the size of an index glyph in a crop."""
    img = np.full((side, side, 3), 235, np.uint8)
    s = side // 8
    cv2.rectangle(img, (3 * s, 2 * s), (4 * s, 6 * s), (20, 20, 20), -1)
    cv2.rectangle(img, (3 * s, 5 * s), (5 * s, 6 * s), (20, 20, 20), -1)
    return img


def _ink(img: np.ndarray) -> np.ndarray:
    return img[..., 0] < 128


def test_nothing_changes_when_neither_change_is_drawn():
    img = _glyph()
    out = GlyphWarp(elastic_p=0.0, stroke_p=0.0)(img, np.random.default_rng(0))
    assert out is img


def test_the_elastic_warp_bends_the_glyph_but_moves_it_no_further_than_its_amplitude():
    img = _glyph()
    out = elastic(img, 0.04, 5, np.random.default_rng(1))
    assert out.shape == img.shape and out.dtype == np.uint8
    assert (out != img).any()
    ys, xs = np.nonzero(_ink(img))
    ys2, xs2 = np.nonzero(_ink(out))
    assert abs(xs.mean() - xs2.mean()) <= 0.04 * 96 + 1 and abs(ys.mean() - ys2.mean()) <= 0.04 * 96 + 1
    assert 0.7 < _ink(out).sum() / _ink(img).sum() < 1.3


def test_the_same_seed_gives_the_same_warp():
    img = _glyph()
    a = GlyphWarp(elastic_p=1.0, stroke_p=1.0)(img, np.random.default_rng(7))
    b = GlyphWarp(elastic_p=1.0, stroke_p=1.0)(img, np.random.default_rng(7))
    assert np.array_equal(a, b)


def test_bolder_strokes_hold_more_ink_and_lighter_ones_less():
    img = _glyph()
    assert _ink(stroke_weight(img, 3, bolder=True)).sum() > _ink(img).sum()
    assert _ink(stroke_weight(img, 3, bolder=False)).sum() < _ink(img).sum()


def test_small_crops_keep_their_stroke_weight():
    small = _glyph(40)  # a pixel there is a third of a stroke
    out = GlyphWarp(elastic_p=0.0, stroke_p=1.0, stroke_min_side=64)(small, np.random.default_rng(0))
    assert np.array_equal(out, small)
    big = _glyph(96)
    assert not np.array_equal(GlyphWarp(elastic_p=0.0, stroke_p=1.0)(big, np.random.default_rng(0)), big)
