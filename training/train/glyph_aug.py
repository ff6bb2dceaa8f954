"""Glyph-shape augmentation for the index classifier's training crops.

Why: the classifier reads decks it has never seen, and what differs between decks is the shape of
the rank and suit glyphs (a font's 4, a designer's club). The synthetic decks give a few hundred
designs, each with one fixed shape per glyph; ordinary augmentation (crop, colour, erasing) changes
the photo but never the glyph. Two cheap changes do:

- an elastic warp: a smooth random displacement field (a coarse grid of random offsets, upsampled
  with cubic interpolation) bends strokes and changes proportions the way one font differs from
  another, while the glyph stays the same character;
- stroke weight: a grey-level erosion (dark ink grows) or dilation (dark ink shrinks) by a kernel
  that scales with the crop, so bold and light faces are both seen. Small crops are left alone:
  at 30 px one pixel is a third of a stroke.

Pure numpy + OpenCV (no torch), so it is tested without the training extra; the trainer wraps it
for PIL images (``training.train.classifier --glyph-aug``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class GlyphWarp:
    """Random elastic warp and stroke-weight change of one crop (H×W×3 uint8, any size)."""

    elastic_p: float = 0.5
    # Largest displacement, as a fraction of the crop's side (drawn uniformly up to it).
    elastic_amplitude: float = 0.04
    # Grid of random offsets across the crop: 5 cells make bends at the scale of a glyph's parts.
    elastic_grid: int = 5
    stroke_p: float = 0.3
    # Crops at least this many px on their short side get a 2 px kernel; twice this, 3 px.
    stroke_min_side: int = 64

    def __call__(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        out = img
        if rng.random() < self.elastic_p:
            out = elastic(out, rng.uniform(0.0, self.elastic_amplitude), self.elastic_grid, rng)
        side = min(out.shape[:2])
        if side >= self.stroke_min_side and rng.random() < self.stroke_p:
            k = 3 if side >= 2 * self.stroke_min_side else 2
            out = stroke_weight(out, k, bolder=bool(rng.random() < 0.5))
        return out


def elastic(img: np.ndarray, amplitude: float, grid: int, rng: np.random.Generator) -> np.ndarray:
    """Warp by a smooth random field whose largest offset is ``amplitude`` × the crop's side."""
    h, w = img.shape[:2]
    if amplitude <= 0 or h < 4 or w < 4:
        return img
    side = min(h, w)
    coarse = rng.uniform(-1.0, 1.0, (2, grid, grid)).astype(np.float32)
    dx = cv2.resize(coarse[0], (w, h), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(coarse[1], (w, h), interpolation=cv2.INTER_CUBIC)
    peak = max(float(np.abs(dx).max()), float(np.abs(dy).max()), 1e-6)
    scale = amplitude * side / peak
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    return cv2.remap(img, xs + dx * scale, ys + dy * scale, interpolation=cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT_101)


def stroke_weight(img: np.ndarray, k: int, bolder: bool) -> np.ndarray:
    """Dark ink on light paper: erosion (min filter) makes strokes bolder, dilation lighter."""
    kernel = np.ones((k, k), np.uint8)
    return cv2.erode(img, kernel) if bolder else cv2.dilate(img, kernel)
