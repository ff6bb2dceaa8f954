"""Camera-blur augmentation: a crop blurred in proportion to itself, never past what a person could read."""

from __future__ import annotations

import numpy as np
from test_glyph_aug import _glyph

from training.synth.legibility import MAX_BLUR_PER_INDEX_PX
from training.train.blur_aug import INDEX_SHARE, CameraBlur


def _edge_spread(img: np.ndarray) -> float:
    """How many pixels of the glyph's edge are neither paper nor ink: grows with the blur."""
    g = img[..., 0].astype(int)
    return float(((g > 40) & (g < 215)).sum())


def test_a_crop_not_drawn_for_blur_is_left_as_it_is():
    img = _glyph()
    assert CameraBlur(p=0.0)(img, np.random.default_rng(0)) is img


def test_a_drawn_crop_is_blurred_and_keeps_its_size_and_colours():
    img = _glyph()
    out = CameraBlur(p=1.0)(img, np.random.default_rng(1))
    assert out.shape == img.shape and out.dtype == np.uint8
    assert _edge_spread(out) > _edge_spread(img)
    assert out.min() >= img.min() and out.max() <= img.max()  # a blur only averages


def test_the_blur_scales_with_the_crop_so_a_small_crop_is_blurred_as_much_relatively():
    rng = np.random.default_rng(2)
    big = np.mean([_edge_spread(CameraBlur(p=1.0, motion_share=0.0)(_glyph(96), rng)) for _ in range(40)])
    small = np.mean([_edge_spread(CameraBlur(p=1.0, motion_share=0.0)(_glyph(48), rng)) for _ in range(40)])
    assert 3.0 < big / small < 5.5  # edge pixels grow with side x blur: twice the side, about four times


def test_the_largest_blur_is_the_legible_limit_of_the_index_inside_the_crop():
    assert CameraBlur().max_blur == MAX_BLUR_PER_INDEX_PX * INDEX_SHARE
    # At that limit the ink of a stroke an eighth of the crop wide still reaches near-black.
    side = 96
    sigma = CameraBlur().max_blur * side
    assert sigma < side / 8 / 2


def _elongation(img: np.ndarray) -> float:
    """Of a blurred dot: the ratio of its ink's spread along its longest and shortest axes."""
    ink = 255.0 - img[..., 0].astype(float)
    ys, xs = np.mgrid[: img.shape[0], : img.shape[1]]
    w = ink / ink.sum()
    mx, my = (w * xs).sum(), (w * ys).sum()
    cov = np.cov(np.stack([xs.ravel() - mx, ys.ravel() - my]), aweights=w.ravel())
    lo, hi = np.linalg.eigvalsh(cov)
    return float(np.sqrt(hi / lo))


def test_defocus_spreads_a_dot_evenly_and_motion_streaks_it():
    dot = np.full((96, 96, 3), 255, np.uint8)
    dot[47:49, 47:49] = 0
    rng = np.random.default_rng(4)
    defocus = [_elongation(CameraBlur(p=1.0, motion_share=0.0)(dot, rng)) for _ in range(20)]
    motion = [_elongation(CameraBlur(p=1.0, motion_share=1.0)(dot, rng)) for _ in range(20)]
    assert max(defocus) < 1.1
    assert np.median(motion) > 2.0
