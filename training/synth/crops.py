"""Classifier crops cut from a rendered photo: readable indices as their card, and ``none`` from
what a detector may take for one (partly hidden indices, faces, props, table, the corners of backs).

Every crop draws from the scene's own crop generator, in a fixed order, so the same seed cuts the
same crops (:func:`training.synth.export.back_corner_crops_of` relies on it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from training.synth.legibility import MIN_LEGIBLE_INDEX_PX

if TYPE_CHECKING:
    from training.synth.export import Sample

NONE_CLASS = "none"
# Classifier: a crop is the card's class only when the index is mostly in view, "none" when barely.
CLS_CARD_VISIBLE = 0.7
CLS_NONE_VISIBLE = 0.3
CROP_MAX_PX = 160


def square_crop(img: np.ndarray, box, rng: np.random.Generator) -> np.ndarray | None:
    """The box grown by 10-40% a side (jittered), squared on its short side, capped at 160 px."""
    H, W = img.shape[:2]
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if w < 3 or h < 3:
        return None
    m = rng.uniform(0.1, 0.4, 4)
    x0, x1 = x0 - m[0] * w, x1 + m[1] * w
    y0, y1 = y0 - m[2] * h, y1 + m[3] * h
    side = max(x1 - x0, y1 - y0)
    cx = (x0 + x1) / 2 + rng.uniform(-0.08, 0.08) * side
    cy = (y0 + y1) / 2 + rng.uniform(-0.08, 0.08) * side
    sx0, sy0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    s = int(round(side))
    if s < 6:
        return None
    pad = max(0, -sx0, -sy0, sx0 + s - W, sy0 + s - H)
    src = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REFLECT_101) if pad else img
    crop = src[sy0 + pad:sy0 + pad + s, sx0 + pad:sx0 + pad + s]
    if s > CROP_MAX_PX:
        crop = cv2.resize(crop, (CROP_MAX_PX, CROP_MAX_PX), interpolation=cv2.INTER_AREA)
    return crop


def classifier_crops(sample: Sample, rng: np.random.Generator,
                     back_corners: bool = False) -> list[tuple[str, np.ndarray]]:
    """(class, crop) pairs: readable indices as their card, and ``none`` from everything else
    (with ``back_corners``, also from the corners of card backs: :func:`back_corner_boxes`)."""
    out, sizes = index_and_clutter_crops(sample, rng)
    # Last, and only when asked, so the crops above stay what they were for the same seed (the
    # shipped models trained on crops without them; their retraining renders the same bytes).
    return out + back_corner_crops(sample, sizes, rng) if back_corners else out


def index_and_clutter_crops(sample: Sample, rng: np.random.Generator
                             ) -> tuple[list[tuple[str, np.ndarray]], list[tuple[float, float]]]:
    """:func:`classifier_crops` without the back corners, and the index sizes they were cut at."""
    lab, img = sample.label, sample.image
    H, W = img.shape[:2]
    out = []
    sizes = []
    for card in lab["cards"]:
        for idx in card["indices"]:
            vf = idx["visible_fraction"]
            b = idx["box_xyxy"]
            if max(b[2] - b[0], b[3] - b[1]) < MIN_LEGIBLE_INDEX_PX:  # no crop either way
                continue
            if vf >= CLS_CARD_VISIBLE:
                c = square_crop(img, idx["box_xyxy"], rng)
                if c is not None:
                    out.append((card["card"], c))
                    sizes.append((b[2] - b[0], b[3] - b[1]))
            elif vf < CLS_NONE_VISIBLE and idx["visible_box_xyxy"] and vf > 0.02:
                c = square_crop(img, idx["box_xyxy"], rng)
                if c is not None:
                    out.append((NONE_CLASS, c))
    if not sizes:
        sizes = [(W * 0.03, W * 0.06)]
    n_pos = sum(1 for c, _ in out if c != NONE_CLASS)
    # About one "none" for every three readable indices, from the things a detector may mistake.
    n_none = max(1, n_pos // 3)
    sources = []
    for card in lab["cards"]:
        if card["visible_fraction"] > 0.5:
            (cx0, cy0, cx1, cy1) = card["box_xyxy"]
            sources.append(("face", (cx0 + cx1) / 2, (cy0 + cy1) / 2, 0.25 * (cx1 - cx0)))
    for obj in lab["objects"]:
        if obj["visible_fraction"] > 0.3:
            (ox0, oy0, ox1, oy1) = obj["box_xyxy"]
            sources.append((obj["kind"], (ox0 + ox1) / 2, (oy0 + oy1) / 2, 0.3 * (ox1 - ox0)))
    for _ in range(n_none):
        bw, bh = sizes[int(rng.integers(len(sizes)))]
        k = rng.uniform(0.7, 1.6)
        if sources and rng.random() < 0.75:
            _kind, cx, cy, spread = sources[int(rng.integers(len(sources)))]
            cx += rng.uniform(-1, 1) * spread
            cy += rng.uniform(-1, 1) * spread
        else:
            cx, cy = rng.uniform(0, W), rng.uniform(0, H)  # mostly table
            if _near_index(lab, cx, cy):
                continue
        box = (cx - bw * k / 2, cy - bh * k / 2, cx + bw * k / 2, cy + bh * k / 2)
        if _near_index(lab, cx, cy):
            continue
        c = square_crop(img, box, rng)
        if c is not None:
            out.append((NONE_CLASS, c))
    return out, sizes


def back_corner_crops(sample: Sample, sizes: list[tuple[float, float]],
                       rng: np.random.Generator) -> list[tuple[str, np.ndarray]]:
    crops = (square_crop(sample.image, box, rng) for box in back_corner_boxes(sample.label, sizes, rng))
    return [(NONE_CLASS, c) for c in crops if c is not None]


# Where an index sits on a face, as a fraction of the card's two edges from its corner.
INDEX_CORNER_OFFSET = 0.11
MAX_BACK_CORNERS = 3


def back_corner_boxes(lab: dict, sizes: list[tuple[float, float]], rng: np.random.Generator) -> list[tuple]:
    """Index-sized boxes at a random corner of a few card backs, where a face's index would be.

    Why: the detector fires on a back's corner (a patterned field's edge where an index would be),
    and the ``none`` crops drawn around a back's middle rarely show one: held-out decks' backs read
    as a red ace or three at 0.99. Corners under a readable index are skipped."""
    boxes = []
    # Backs lie in piles, mostly hidden; whatever covers a corner (another back, a face's body) is
    # not an index either. A few per scene: a pile's backs share their corners.
    backs = [o for o in lab["objects"] if o["kind"] == "back" and o["visible_fraction"] > 0.02]
    for j in rng.permutation(len(backs))[:MAX_BACK_CORNERS]:
        q = np.asarray(backs[j]["corners"], np.float64)  # the card's corners in order round the card
        i = int(rng.integers(4))
        a, b, d = q[i], q[(i + 1) % 4], q[(i - 1) % 4]
        cx, cy = a + INDEX_CORNER_OFFSET * (b - a) + INDEX_CORNER_OFFSET * (d - a)
        bw, bh = sizes[int(rng.integers(len(sizes)))]
        k = rng.uniform(0.8, 1.3)
        if _near_index(lab, cx, cy):
            continue
        boxes.append((cx - bw * k / 2, cy - bh * k / 2, cx + bw * k / 2, cy + bh * k / 2))
    return boxes


def _near_index(lab: dict, x: float, y: float) -> bool:
    """True when (x, y) falls on a readable index: a 'none' crop must not show one in its middle."""
    for card in lab["cards"]:
        for idx in card["indices"]:
            if idx["visible_fraction"] < CLS_NONE_VISIBLE:
                continue
            x0, y0, x1, y1 = idx["box_xyxy"]
            w, h = x1 - x0, y1 - y0
            if x0 - w <= x <= x1 + w and y0 - h <= y <= y1 + h:
                return True
    return False
