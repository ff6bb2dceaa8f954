"""Where a face's indices are: image analysis of a deck's faces, checked by eye on ``--deck-sheet``.

Each face has two index boxes (the rank+suit glyph group in the top-left corner and its rotated
copy in the bottom-right), as fractions of the face. Procedural decks know theirs; SVG decks are
measured here once, when the cache is built (:func:`training.synth.decks.build_deck`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from scorer.cards import JACK, Card


def _ink_mask(face: np.ndarray, zone: tuple[int, int]) -> np.ndarray:
    """Pixels in the top-left zone that stand out from the paper (ink of any colour)."""
    zh, zw = zone
    roi = face[:zh, :zw]
    rgb = roi[:, :, :3].astype(np.int16)
    # Stay clear of the card's edge: outlines and anti-aliased rounded corners are not ink.
    k = max(3, int(face.shape[1] * 0.025))
    opaque = cv2.erode((face[:, :, 3] > 200).astype(np.uint8), np.ones((k, k), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)[:zh, :zw] > 0
    paper = np.median(rgb[opaque], axis=0) if opaque.any() else np.array([255, 255, 255])
    diff = np.abs(rgb - paper).sum(axis=2)
    return (diff > 110) & opaque


def _components(ink: np.ndarray, min_area: int) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of ink blobs; blobs a pixel or two apart count as one glyph."""
    if not ink.any():
        return []
    joined = cv2.dilate(ink.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out = []
    for j in range(1, n):
        x, y, w, h, _a = stats[j]
        m = ink[y:y + h, x:x + w] & (lab[y:y + h, x:x + w] == j)
        if m.sum() < min_area:
            continue
        ys, xs = np.nonzero(m)
        out.append((x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1))
    return out


def _index_group(comps: list[tuple[int, int, int, int]], min_h: float, max_h: float,
                 suit_gap: float = 0.8, two_glyphs: bool = False) -> tuple[int, int, int, int] | None:
    """The rank glyph(s) nearest the corner plus the suit right under them.

    A second digit joins when it is as tall and top-aligned (the 0 of 10); the suit joins
    when it sits below within ``suit_gap`` rank heights and is centred under the rank.
    Pips and court pictures fail both tests, so they stay out.
    """
    # A glyph, not a rule: tall enough and not a hairline.
    cands = [c for c in comps if min_h <= c[3] - c[1] <= max_h and 0.2 * min_h <= c[2] - c[0] <= max_h]
    if not cands:
        return None
    seed = min(cands, key=lambda c: c[0] + c[1])
    x0, y0, x1, y1 = seed
    h = y1 - y0
    for c in sorted(comps, key=lambda c: c[0]) if two_glyphs else ():
        if c == seed:
            continue
        ch = c[3] - c[1]
        if 0.7 * h <= ch <= 1.3 * h and abs(c[1] - y0) < 0.2 * h and 0 <= c[0] - x1 < 0.35 * h:
            x1, y1 = max(x1, c[2]), max(y1, c[3])
            break  # "10" has two glyphs, never three: what follows is a pip
    suits = [c for c in comps if c[1] >= y1 - 0.1 * h and c[1] - y1 < suit_gap * h
             and 0.2 * h <= c[3] - c[1] <= 1.15 * h and x0 - 0.3 * h <= (c[0] + c[2]) / 2 <= x1 + 0.3 * h]
    if suits:
        s = min(suits, key=lambda c: c[1])
        x0, x1, y1 = min(x0, s[0]), max(x1, s[2]), max(y1, s[3])
        # A suit drawn in two blobs (a club's stem) : take what else lies inside its rows.
        for c in comps:
            if c[1] >= s[1] - 2 and c[3] <= s[3] + 0.3 * h and x0 - 2 <= c[0] and c[2] <= x1 + 2:
                y1 = max(y1, c[3])
    return x0, y0, x1, y1


def find_index_boxes(faces: Sequence[np.ndarray], params: dict | None = None) -> np.ndarray:
    """Index boxes of 52 faces as ``(52, 2, 4)`` fractions ``x0 y0 x1 y1`` (top-left, bottom-right).

    Ink shared by most faces of a kind (frames, borders) is ignored; then the rank glyph
    nearest the corner and the suit under it form the index (:func:`_index_group`).
    Boxes far from the deck's median shape fall back to that median.
    """
    params = params or {}
    h, w = faces[0].shape[:2]
    zone = (int(h * params.get("zone_h", 0.30)), int(w * params.get("zone_w", 0.30)))
    min_area = int(w * w * 0.0002)
    min_h = w * params.get("min_h", 0.04)
    courts = np.array([Card.from_index(i).rank >= JACK for i in range(52)])
    boxes = np.zeros((52, 2, 4), np.float64)
    fallbacks: list[str] = []
    for corner in range(2):
        views = [f if corner == 0 else f[::-1, ::-1] for f in faces]
        inks = np.stack([_ink_mask(v, zone) for v in views])
        if "common" in params:
            # Frames drawn on every face of a kind: ignore them. Off by default, since the
            # cores of the four suit glyphs overlap and would be erased too.
            for group in (courts, ~courts):
                common = inks[group].mean(axis=0) > params["common"]
                common = cv2.dilate(common.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
                inks[group] &= ~common
        raw = np.zeros((52, 4))
        for i in range(52):
            b = _index_group(_components(inks[i], min_area), min_h, w * params.get("max_h", 0.2),
                             params.get("suit_gap", 0.8), two_glyphs=Card.from_index(i).rank == 10)
            if b is not None:
                raw[i] = b
        found = raw[:, 2] > 0
        if found.sum() < 13:
            raise ValueError(f"index finder: only {found.sum()} of 52 corners found; tune this deck's params")
        med = np.median(raw[found], axis=0)
        mh = med[3] - med[1]
        single = found & np.array([Card.from_index(i).rank != 10 for i in range(52)])
        mw = np.median(raw[single, 2] - raw[single, 0]) if single.any() else med[2] - med[0]
        for i in range(52):
            x0, y0, x1, y1 = raw[i]
            max_w = (2.3 if Card.from_index(i).rank == 10 else 1.5) * mw
            ok = (x1 > 0 and 0.75 * mh < y1 - y0 < 1.3 * mh and abs(y0 - med[1]) < 0.3 * mh
                  and abs(x0 - med[0]) < 0.5 * mh and x1 - x0 < max_w)
            if not ok:
                fallbacks.append(f"{Card.from_index(i)}{'/br' if corner else ''}")
                # Something joined the index (a court's big pip) or nothing was found:
                # the deck's usual box, as wide as this card's rank needs.
                box_w = max_w / 1.5 * 1.1 if Card.from_index(i).rank == 10 else mw
                raw[i] = (med[0], med[1], med[0] + box_w, med[3])
        fr = raw / np.array([w, h, w, h])
        if corner == 1:  # back to the unrotated face
            fr = np.stack([1 - fr[:, 2], 1 - fr[:, 3], 1 - fr[:, 0], 1 - fr[:, 1]], axis=1)
        boxes[:, corner] = fr
    find_index_boxes.last_fallbacks = fallbacks  # type: ignore[attr-defined]
    return boxes


def apply_overrides(boxes: np.ndarray, params: dict) -> np.ndarray:
    """Per-deck fixed boxes (``box_tl``: fractions) where image analysis can't be trusted."""
    if "box_tl" in params:
        x0, y0, x1, y1 = params["box_tl"]
        boxes[:, 0] = (x0, y0, x1, y1)
        boxes[:, 1] = (1 - x1, 1 - y1, 1 - x0, 1 - y0)
    return boxes
