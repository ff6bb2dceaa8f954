"""Scenes like the use: a cribbage hand on a table, seen by a phone.

A layout (:mod:`training.synth.layouts`) puts cards and props on the table plane (units: one
card width); a pinhole camera tilted 0-60 degrees from straight down maps the plane to the photo;
everything is warped with ``cv2.warpPerspective`` in z order, each item casting a shadow on what
lies under it. An id map of who owns each pixel gives every index its visible fraction, and the
legibility limits (:mod:`training.synth.legibility`) say which a person could read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from training.synth.decks import DeckArt, load_deck
from training.synth.layouts import Item, SceneSpec, _rot
from training.synth.legibility import (
    READABLE_VISIBLE_FRACTION,
    index_across,
    index_height,
    legible,
)
from training.synth.photo import SHARP, Focus
from training.synth.surfaces import pick_surface, texture


@dataclass
class Camera:
    homography: np.ndarray
    """Table units -> image px."""
    elevation_deg: float
    size: tuple[int, int]


# --- camera ------------------------------------------------------------------------------

def _item_corners(it: Item) -> np.ndarray:
    w, h = it.size
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ _rot(it.angle).T + np.array(it.center)


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ H.T
    return p[:, :2] / p[:, 2:3]


def make_camera(rng: np.random.Generator, size: tuple[int, int], items: list[Item]) -> Camera:
    """A phone held 30-90 degrees above the table, framing the cards at 12-35% of the width."""
    W, H = size
    fov_long = math.radians(rng.uniform(50, 75))
    f = (max(W, H) / 2) / math.tan(fov_long / 2)
    half_v = math.degrees(math.atan((H / 2) / f))
    max_tilt = max(0.0, min(60.0, 83.0 - half_v))
    # Most photos are taken 45-80 degrees above the table (tilt 10-45), few straight down.
    tilt_deg = rng.uniform(0, 15) if rng.random() < 0.2 else rng.uniform(10, max_tilt)
    tilt = math.radians(min(max_tilt, tilt_deg))
    faces = [it for it in items if it.kind == "face"]
    corners = np.concatenate([_item_corners(it) for it in faces])
    target = (corners.min(axis=0) + corners.max(axis=0)) / 2 + rng.normal(0, 0.3, 2)
    # Card width as a share of the photo width: 12-35%, most often around a quarter.
    frac = 0.12 + 0.23 * rng.beta(1.6, 1.2)
    dist = f / (frac * W)
    K = np.array([[f, 0, W / 2 + rng.normal(0, 0.08) * W],
                  [0, f, H / 2 + rng.normal(0, 0.08) * H],
                  [0, 0, 1]])
    d = np.array([0, math.sin(tilt), -math.cos(tilt)])
    B = np.array([[1, 0, 0], [0, -math.cos(tilt), -math.sin(tilt)], d])
    C = np.array([target[0], target[1], 0.0]) - dist * d
    fit = rng.random() < 0.9
    for _ in range(12):
        C = np.array([target[0], target[1], 0.0]) - dist * d
        t = -B @ C
        Hm = K @ np.c_[B[:, 0], B[:, 1], t]
        proj = _project(Hm, corners)
        lo, hi = proj.min(axis=0), proj.max(axis=0)
        margin = 0.03 * W
        inside = lo[0] >= margin and lo[1] >= margin and hi[0] <= W - margin and hi[1] <= H - margin
        if inside or not fit:
            break
        # Never shrink cards below ~9% of the width to fit everything: crop the scene instead.
        widths = np.linalg.norm(proj[1::4] - proj[0::4], axis=1)
        if np.median(widths) / 1.15 < 0.09 * W:
            break
        dist *= 1.15
    # The layouts and the art are drawn with y pointing down the table (as in an image), but
    # the camera above is right-handed with the table's z up, so it sees that y pointing up: on
    # its own it photographs every card mirrored (a 7 with its bar at the foot, the indices at
    # the top right and bottom left). Mirroring the photo left to right puts that right: a
    # mirrored photo of a mirrored table is a true photo of the real one, and the perspective
    # (far side at the top) is kept. Until this was found every render, so every synthetic
    # training and evaluation scene, showed mirrored cards (models/HISTORY.md, "Mirrored renders").
    mirror = np.array([[-1.0, 0, W], [0, 1, 0], [0, 0, 1]])
    Hm = mirror @ Hm
    return Camera(Hm / Hm[2, 2], 90 - math.degrees(tilt), (W, H))


# --- rendering ---------------------------------------------------------------------------

def _table(rng, cam: Camera) -> np.ndarray:
    W, H = cam.size
    kind, tex, gain = pick_surface(rng)
    # Texture px per card width: the 768 px texture spans 3-10 cards (wood grain, weave, stone).
    units_per_px = 1.0 / rng.uniform(75, 250)
    a = rng.uniform(0, math.pi)
    A = np.eye(3)
    A[:2, :2] = _rot(a) * units_per_px
    A[:2, 2] = rng.uniform(-5, 5, 2)
    M = cam.homography @ A
    img = cv2.warpPerspective(np.asarray(tex), M, (W, H), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT_101).astype(np.float32) * gain
    if rng.random() < 0.3:
        # The table ends somewhere in view: floor or room beyond, darker and out of focus.
        floor = texture(["wood", "stone", "fabric", "painted"][int(rng.integers(4))], int(rng.integers(12)))
        floor = cv2.warpPerspective(np.asarray(floor), M @ np.diag([0.5, 0.5, 1]), (W, H),
                                    borderMode=cv2.BORDER_REFLECT_101).astype(np.float32)
        floor = cv2.GaussianBlur(floor, (0, 0), 2 + W / 400) * rng.uniform(0.35, 0.7)
        # The edge is a line on the table, so a line in the photo: an anti-aliased half-plane.
        Hi = np.linalg.inv(cam.homography)
        ea = rng.uniform(0, math.pi)
        edge = rng.uniform(2.2, 4.5)
        # u - edge = (n . Hi p) / (Hi_3 . p), with p = (x, y, 1); Hi_3 . p > 0 in front of the camera.
        num = [float(v) for v in math.cos(ea) * Hi[0] + math.sin(ea) * Hi[1] - edge * Hi[2]]
        ys, xs = np.mgrid[0:H, 0:W].astype(np.float32)
        lin = num[0] * xs + num[1] * ys + num[2]
        den = float(Hi[2, 0]) * xs + float(Hi[2, 1]) * ys + float(Hi[2, 2])
        grad = math.hypot(num[0], num[1]) + 1e-9
        mask = np.clip(0.5 - (lin / grad) * np.sign(den), 0, 1)[..., None]
        img = img * mask + floor * (1 - mask)
    return img.astype(np.float32, copy=False)


@dataclass
class Rendered:
    image: np.ndarray
    """BGR float32 0..255, before photo effects."""
    idmap: np.ndarray
    """int16: which item owns each pixel (-1 table)."""
    card_mask: np.ndarray
    """float32 0..1: where card faces and backs are (glare lands there)."""
    matrices: list[np.ndarray]
    """Per item: source px -> image px."""
    src_sizes: list[tuple[int, int]]
    bends: list[tuple[float, int]] = field(default_factory=list)
    """Per item: bow in source px and its axis (see :func:`bend_points`)."""


def bend_points(pts: np.ndarray, bend_px: float, axis: int, size: tuple[int, int]) -> np.ndarray:
    """Source px of a flat card -> where they sit on the bowed card (still source px).

    A bow shifts points across one axis by ``bend_px * (1 - t^2)``, t running -1..1 along the
    other: the ends stay, the middle moves most.
    """
    if not bend_px:
        return pts
    sw, sh = size
    out = np.array(pts, np.float64, copy=True)
    if axis == 0:
        out[:, 0] += bend_px * (1 - (2 * out[:, 1] / sh - 1) ** 2)
    else:
        out[:, 1] += bend_px * (1 - (2 * out[:, 0] / sw - 1) ** 2)
    return out


def _warp_bent(src: np.ndarray, M_roi: np.ndarray, size: tuple[int, int], bend_px: float,
               axis: int) -> np.ndarray:
    """Like warpPerspective, for a bowed card: invert the homography per pixel, then undo the bow."""
    w, h = size
    Minv = np.linalg.inv(M_roi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    den = Minv[2, 0] * xs + Minv[2, 1] * ys + Minv[2, 2]
    bx = (Minv[0, 0] * xs + Minv[0, 1] * ys + Minv[0, 2]) / den
    by = (Minv[1, 0] * xs + Minv[1, 1] * ys + Minv[1, 2]) / den
    sh, sw = src.shape[:2]
    if axis == 0:
        bx = bx - bend_px * (1 - (2 * by / sh - 1) ** 2)
    else:
        by = by - bend_px * (1 - (2 * bx / sw - 1) ** 2)
    return cv2.remap(src, bx.astype(np.float32), by.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))


def _soft_shadow(alpha: np.ndarray, off: np.ndarray, blur: float) -> np.ndarray:
    """The item's silhouette shifted by ``off`` px and blurred by ``blur`` px (sigma).

    Wide blurs run on a shrunken copy: a soft shadow has no detail to lose, and a 40 px
    Gaussian on a phone-size photo would cost more than the rest of the scene.
    """
    h, w = alpha.shape
    f = max(1.0, blur / 2.5)
    if f < 1.5:
        S = np.float32([[1, 0, off[0]], [0, 1, off[1]]])
        return cv2.GaussianBlur(cv2.warpAffine(alpha, S, (w, h)), (0, 0), blur)
    sw, sh = max(2, int(round(w / f))), max(2, int(round(h / f)))
    S = np.float32([[sw / w, 0, off[0] * sw / w], [0, sh / h, off[1] * sh / h]])
    small = cv2.warpAffine(alpha, S, (sw, sh), flags=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), blur * sw / w)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _item_source(it: Item, art: DeckArt, px_needed: float) -> np.ndarray:
    if it.kind == "face":
        return art.level(px_needed)[it.card.index]
    if it.kind == "back":
        arr = art.level(px_needed)
        return arr[52 + it.back_index % art.n_backs]
    return it.image


def render(rng: np.random.Generator, spec: SceneSpec, cam: Camera) -> Rendered:
    W, H = cam.size
    art = load_deck(spec.deck)
    canvas = _table(rng, cam)
    idmap = np.full((H, W), -1, np.int16)
    card_mask = np.zeros((H, W), np.float32)
    # One light for the scene: shadows fall the same way, softness from the light's size.
    light_dir = _rot(rng.uniform(0, 2 * math.pi)) @ np.array([1.0, 0.0])
    shadow_strength = rng.uniform(0.25, 0.6)
    softness = rng.uniform(0.2, 1.0)
    matrices, sizes, bends = [], [], []
    # Thickness: the near edge of a card shows as a thin grey line under it.
    edge_colour = np.float32(rng.uniform(120, 200)) * rng.uniform(0.95, 1.05, 3).astype(np.float32)
    for k, it in enumerate(spec.items):
        corners_img = _project(cam.homography, _item_corners(it))
        px_w = float(np.linalg.norm(corners_img[1] - corners_img[0]))
        src = _item_source(it, art, px_w)
        sh, sw = src.shape[:2]
        A = np.eye(3)
        A[:2, :2] = _rot(it.angle) @ np.diag([it.size[0] / sw, it.size[1] / sh])
        A[:2, 2] = np.array(it.center) - A[:2, :2] @ np.array([sw / 2, sh / 2])
        M = cam.homography @ A
        bend_px = it.bend * sw
        matrices.append(M)
        sizes.append((sw, sh))
        bends.append((bend_px, it.bend_axis))
        # Shadow offset grows with the item's height; blur with the light's size.
        unit_px = px_w / max(it.size[0], 1e-6)
        off = light_dir * unit_px * (0.015 + it.lift * 0.35)
        blur = max(0.6, unit_px * (0.01 + it.lift * 0.12) * softness)
        pad = int(abs(off).max() + 3 * blur + 2 + abs(it.bend) * unit_px * 1.5)
        x0, y0 = np.floor(corners_img.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(corners_img.max(axis=0)).astype(int) + pad
        x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if x1c <= x0c or y1c <= y0c:
            continue
        T = np.array([[1, 0, -x0c], [0, 1, -y0c], [0, 0, 1.0]])
        if bend_px:
            warped = _warp_bent(np.ascontiguousarray(src), T @ M, (x1c - x0c, y1c - y0c), bend_px,
                                it.bend_axis)
        else:
            warped = cv2.warpPerspective(np.ascontiguousarray(src), T @ M, (x1c - x0c, y1c - y0c),
                                         flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                         borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3].astype(np.float32) / 255
        if not alpha.any():
            continue
        roi = canvas[y0c:y1c, x0c:x1c]
        shadow = _soft_shadow(alpha, off, blur)
        roi *= (1 - shadow_strength * shadow)[..., None]
        rgb = warped[:, :, :3].astype(np.float32)
        if it.kind in ("face", "back"):
            t = max(0.6, unit_px * 0.006 * (1 - cam.elevation_deg / 100))
            shift_down = np.float32([[1, 0, 0], [0, 1, t]])
            edge = cv2.warpAffine(alpha, shift_down, (alpha.shape[1], alpha.shape[0]))[..., None]
            roi += (edge_colour - roi) * edge
            # Paper is never exactly the same white twice: slight per-card tint, and a card
            # that is not flat catches the light unevenly across its face.
            rgb *= rng.uniform(0.93, 1.03) * rng.uniform(0.98, 1.02, 3)
            ga = rng.uniform(0, 2 * math.pi)
            hh, ww = alpha.shape
            ramp = (np.cos(ga) * (np.arange(ww, dtype=np.float32)[None, :] / ww - 0.5)
                    + np.sin(ga) * (np.arange(hh, dtype=np.float32)[:, None] / hh - 0.5))
            rgb *= (1 + ramp * rng.uniform(0.0, 0.16))[..., None]
        roi[:] = cv2.blendLinear(roi, rgb, 1 - alpha, alpha)
        solid = alpha > 0.5
        idmap[y0c:y1c, x0c:x1c][solid] = k
        if it.kind in ("face", "back"):
            cm = card_mask[y0c:y1c, x0c:x1c]
            cm[:] = np.maximum(cm * (1 - alpha), alpha)
        else:
            cm = card_mask[y0c:y1c, x0c:x1c]
            cm *= 1 - alpha
    return Rendered(canvas, idmap, card_mask, matrices, sizes, bends)


# --- labels -----------------------------------------------------------------------------

def _poly_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))


def _visible(idmap: np.ndarray, k: int, quad: np.ndarray) -> tuple[float, list[float] | None]:
    """Share of the quad's area that shows item ``k`` (0 outside the image), and the box of what shows."""
    H, W = idmap.shape
    area = _poly_area(quad)
    if area < 1:
        return 0.0, None
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1c <= x0c or y1c <= y0c:
        return 0.0, None
    m = np.zeros((y1c - y0c, x1c - x0c), np.uint8)
    cv2.fillConvexPoly(m, np.round((quad - [x0c, y0c]) * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    full = _poly_area(np.clip(quad, [0, 0], [W, H]))
    inside_px = max(int(m.sum()), 1)
    vis = (m > 0) & (idmap[y0c:y1c, x0c:x1c] == k)
    n_vis = int(vis.sum())
    # Pixels count what shows; the border clip scales by how much of the quad lies in frame.
    frac = (n_vis / inside_px) * (full / area)
    if n_vis == 0:
        return 0.0, None
    ys, xs = np.nonzero(vis)
    return float(min(1.0, frac)), [float(x0c + xs.min()), float(y0c + ys.min()), float(x0c + xs.max() + 1),
                                   float(y0c + ys.max() + 1)]


def labels(spec: SceneSpec, cam: Camera, rendered: Rendered, focus: Focus = SHARP) -> dict:
    """Cards (corners, box, indices with visibility and blur), backs and props, in image px."""
    art = load_deck(spec.deck)
    W, H = cam.size
    cards, others = [], []
    for k, it in enumerate(spec.items):
        M = rendered.matrices[k] if k < len(rendered.matrices) else None
        if M is None:
            continue
        sw, sh = rendered.src_sizes[k]
        bend_px, axis = rendered.bends[k]

        def to_image(pts, sw=sw, sh=sh, bend_px=bend_px, axis=axis, M=M):
            return _project(M, bend_points(np.array(pts, np.float64), bend_px, axis, (sw, sh)))

        corners = to_image([[0, 0], [sw, 0], [sw, sh], [0, sh]])
        box = [float(corners[:, 0].min()), float(corners[:, 1].min()), float(corners[:, 0].max()),
               float(corners[:, 1].max())]
        box_clipped = [max(0.0, box[0]), max(0.0, box[1]), min(float(W), box[2]), min(float(H), box[3])]
        if box_clipped[2] <= box_clipped[0] or box_clipped[3] <= box_clipped[1]:
            continue
        if it.kind != "face":
            vis, _ = _visible(rendered.idmap, k, corners)
            others.append({"kind": it.kind, "corners": np.round(corners, 2).tolist(),
                           "box_xyxy": np.round(box_clipped, 2).tolist(), "visible_fraction": round(vis, 3)})
            continue
        indices = []
        for corner in range(2):
            fx0, fy0, fx1, fy1 = art.index_boxes[it.card.index, corner]
            q = to_image([[fx0 * sw, fy0 * sh], [fx1 * sw, fy0 * sh],
                          [fx1 * sw, fy1 * sh], [fx0 * sw, fy1 * sh]])
            vis, vbox = _visible(rendered.idmap, k, q)
            qb = [float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())]
            height, across = index_height(q), index_across(q)
            blur = focus.at(float(q[:, 1].mean()), H)
            indices.append({"corner": "top_left" if corner == 0 else "bottom_right",
                            "quad": np.round(q, 2).tolist(), "box_xyxy": np.round(qb, 2).tolist(),
                            "visible_box_xyxy": np.round(vbox, 2).tolist() if vbox else None,
                            "visible_fraction": round(vis, 3), "occluded": bool(vis < 0.95),
                            "height_px": round(height, 1), "across_px": round(across, 1),
                            "blur_px": round(blur, 2), "legible": legible(height, across, blur)})
        card_vis, _ = _visible(rendered.idmap, k, corners)
        # Readable: a person could name the card from an index in the photo (mostly in view,
        # big, wide and sharp enough).
        readable = any(i["visible_fraction"] >= READABLE_VISIBLE_FRACTION and i["legible"] for i in indices)
        cards.append({"card": str(it.card), "face_up": True, "readable": readable,
                      "is_starter": it.is_starter,
                      "corners": np.round(corners, 2).tolist(), "box_xyxy": np.round(box_clipped, 2).tolist(),
                      "visible_fraction": round(card_vis, 3), "indices": indices})
    return {"cards": cards, "objects": others}
