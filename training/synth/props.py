"""Things on a cribbage table besides the cards: a board with pegs, coins and fingers.

Each prop is an RGBA image (BGRA order, like the card faces) with its size in table units
(a card is 1 unit wide), placed in a scene exactly like a card.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.synth.suits import find_font
from training.synth.surfaces import texture

PX_PER_UNIT = 160


# Faces a board's numerals are printed or burnt in: plain sans and serif, as on most boards.
BOARD_FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "LiberationSans-Regular.ttf",
               "LiberationSerif-Bold.ttf", "FreeSans.ttf", "NimbusRoman-Regular.otf", "OpenSans-Bold.ttf")


def cribbage_board(rng: np.random.Generator,
                   numerals: bool = False) -> tuple[np.ndarray, tuple[float, float]]:
    """A wooden board: three tracks of peg holes, a few coloured pegs, and with ``numerals`` the
    counts printed beside the holes (5, 10, ...), START and 121. Returns (BGRA, size in units).

    Numerals are drawn last, from the same generator, so a board without them is the board it
    always was for the same seed (the shipped models trained on those bytes)."""
    length_u = rng.uniform(4.0, 6.0)
    width_u = rng.uniform(1.1, 1.8)
    w, h = int(length_u * PX_PER_UNIT), int(width_u * PX_PER_UNIT)
    wood = texture("wood", int(rng.integers(12)))
    tile = cv2.resize(wood, (w, h)).astype(np.float32) * rng.uniform(0.7, 1.2)
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = tile.clip(0, 255).astype(np.uint8)
    mask = np.zeros((h, w), np.uint8)
    r = int(min(h, w) * rng.uniform(0.05, 0.25))
    cv2.rectangle(mask, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(mask, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img[:, :, 3] = mask
    # Bevel: darker rim.
    rim = cv2.GaussianBlur(255 - mask, (0, 0), h * 0.03).astype(np.float32) / 255
    img[:, :, :3] = (img[:, :, :3] * (1 - 0.5 * rim[..., None])).astype(np.uint8)
    tracks = 3
    hole_r = max(2, int(h * 0.022))
    holes_per_row = 30 + int(rng.integers(0, 2)) * 30
    margin = w * 0.08
    peg_colours = [(40, 40, 200), (200, 80, 30), (40, 160, 40), (230, 230, 230), (30, 200, 230)]
    peg_spots = []
    for t in range(tracks):
        for row in range(2):
            y = h * (0.18 + t * 0.3 + row * 0.1)
            xs = np.linspace(margin, w - margin, holes_per_row)
            for i, x in enumerate(xs):
                gx = x + (i // 5) * 0  # groups of five are spaced by the linspace anyway
                cv2.circle(img, (int(gx), int(y)), hole_r, (25, 20, 15, 255), -1, cv2.LINE_AA)
                if rng.random() < 0.012:
                    peg_spots.append((gx, y, t))
    for k in range(int(rng.integers(2, 5))):
        if k >= len(peg_spots):
            x = rng.uniform(margin, w - margin)
            y = h * (0.18 + int(rng.integers(3)) * 0.3)
            t = 0
        else:
            x, y, t = peg_spots[k]
        c = peg_colours[(t + k) % len(peg_colours)]
        pr = int(hole_r * 1.9)
        cv2.circle(img, (int(x + pr * 0.5), int(y + pr * 0.6)), pr, (15, 15, 15, 255), -1, cv2.LINE_AA)
        cv2.circle(img, (int(x), int(y)), pr, c + (255,), -1, cv2.LINE_AA)
        cv2.circle(img, (int(x - pr * 0.35), int(y - pr * 0.35)), max(1, pr // 3),
                   tuple(min(255, v + 90) for v in c) + (255,), -1, cv2.LINE_AA)
    if numerals:
        img = _print_numerals(img, rng, margin, holes_per_row)
    return img, (length_u, width_u)


def _print_numerals(img: np.ndarray, rng: np.random.Generator, margin: float,
                    holes_per_row: int) -> np.ndarray:
    """Counts beside every fifth hole of each track, START and 121 at the ends.

    Why: a "5" or "15" printed on a board is a rank glyph without a suit, a little smaller than a
    card's index; the detector fires on it, and on real tables the board is often in the photo.
    """
    h, w = img.shape[:2]
    path = find_font({"font": str(rng.choice(BOARD_FONTS))})  # else the decks' fallback face
    font = ImageFont.truetype(path, max(6, int(h * rng.uniform(0.05, 0.11))))
    ink = ((int(rng.integers(215, 250)),) * 3 if rng.random() < 0.4
           else tuple(int(v) for v in rng.integers(10, 60, 3)))
    # Numbered along each street (1-30 or 1-60 a row, or on through the next street), printed
    # just outside each track's outer row of holes.
    on_through = rng.random() < 0.5
    pil = Image.fromarray(img[..., [2, 1, 0, 3]].copy(), "RGBA")
    draw = ImageDraw.Draw(pil)
    xs = np.linspace(margin, w - margin, holes_per_row)
    for t in range(3):
        y = h * (0.105 + t * 0.3)
        for i in range(4, holes_per_row, 5):
            n = i + 1 + (holes_per_row * (t % 2) if on_through else 0)
            draw.text((float(xs[i]), y), str(n), font=font, fill=ink + (255,), anchor="mm")
    # START and 121 stand across the ends, where no holes are, read along the board's short side.
    for text, x, turn in (("START", margin * 0.5, Image.Transpose.ROTATE_90),
                          ("121", w - margin * 0.5, Image.Transpose.ROTATE_270)):
        x0, y0, x1, y1 = font.getbbox(text)
        layer = Image.new("RGBA", (x1 - x0 + 2, y1 - y0 + 2))
        ImageDraw.Draw(layer).text((1 - x0, 1 - y0), text, font=font, fill=ink + (255,))
        layer = layer.transpose(turn)
        pil.alpha_composite(layer, (int(x - layer.width / 2), int(h / 2 - layer.height / 2)))
    out = np.array(pil)[..., [2, 1, 0, 3]]
    out[..., 3] = img[..., 3]  # the board's outline stays its own
    return np.ascontiguousarray(out)


def coin(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float]]:
    """A coin: copper, brass or silver disc with a rim and a worn relief."""
    d_u = rng.uniform(0.28, 0.5)
    n = int(d_u * PX_PER_UNIT)
    metals = [(60, 110, 180), (70, 160, 200), (185, 185, 180), (120, 140, 150)]
    c = np.array(metals[int(rng.integers(len(metals)))], np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    r = n / 2
    d = np.hypot(xx - r, yy - r) / r
    shade = 0.75 + 0.35 * ((xx - yy) / n)
    grain = np.random.default_rng(int(rng.integers(2**31))).random((n, n)).astype(np.float32)
    relief = cv2.GaussianBlur(grain, (0, 0), n * 0.04)
    v = shade * (0.85 + 0.3 * relief) * np.where(d > 0.85, 0.8, 1.0)
    img = np.zeros((n, n, 4), np.uint8)
    img[:, :, :3] = (c * v[..., None]).clip(0, 255).astype(np.uint8)
    img[:, :, 3] = (np.clip((1 - d) * r, 0, 1) * 255).astype(np.uint8)
    return img, (d_u, d_u)


SKINS = [(150, 180, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (45, 60, 95), (170, 195, 235)]


def palm(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float]]:
    """The heel of a hand holding a fan: a soft-edged oval in skin tone, lit from one side."""
    # Palm and wrist together: long enough to run out of the photo like an arm does.
    w_u, h_u = rng.uniform(1.0, 1.35), rng.uniform(2.6, 3.6)
    w, h = int(w_u * PX_PER_UNIT), int(h_u * PX_PER_UNIT)
    c = np.array(SKINS[int(rng.integers(len(SKINS)))], np.float32) * rng.uniform(0.85, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = (xx / w - 0.5) * 2, (yy / h - 0.5) * 2
    # Round at the fingers' end, straight-sided towards the wrist.
    d = u ** 2 + np.where(v < -0.6, ((v + 0.6) / 0.4) ** 2, 0)
    shade = 0.72 + 0.3 * np.sqrt(np.clip(1 - d, 0, 1)) + 0.08 * u
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = (c * shade[..., None]).clip(0, 255).astype(np.uint8)
    img[:, :, 3] = (np.clip((1 - d) * 12, 0, 1) * 255).astype(np.uint8)
    return img, (w_u, h_u)


def finger(rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float]]:
    """A finger or thumb seen from above: a rounded capsule in skin tone with a nail."""
    # A finger is ~0.7 in wide next to a 2.5 in card; the visible length varies.
    len_u = rng.uniform(0.9, 1.6)
    wid_u = rng.uniform(0.24, 0.32)
    w, h = int(wid_u * PX_PER_UNIT), int(len_u * PX_PER_UNIT)
    c = np.array(SKINS[int(rng.integers(len(SKINS)))], np.float32) * rng.uniform(0.85, 1.1)
    mask = np.zeros((h, w), np.uint8)
    rr = w // 2
    cv2.rectangle(mask, (0, rr), (w - 1, h - 1), 255, -1)
    cv2.circle(mask, (rr, rr), rr, 255, -1, cv2.LINE_AA)
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    shade = 0.7 + 0.35 * np.sqrt(np.clip(1 - xx ** 2, 0, 1)) * np.ones((h, 1), np.float32)
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :, :3] = (c * shade[..., None]).clip(0, 255).astype(np.uint8)
    # Nail at the tip; knuckle creases.
    nail = np.zeros((h, w), np.uint8)
    cv2.ellipse(nail, (rr, int(rr * 1.3)), (int(rr * 0.62), int(rr * 0.85)), 0, 0, 360, 255, -1, cv2.LINE_AA)
    nc = np.minimum(c * 1.12 + 15, 255)
    img[:, :, :3] = np.where(nail[..., None] > 128, nc, img[:, :, :3]).astype(np.uint8)
    for frac in (0.45, 0.75):
        y = int(h * frac)
        groove = tuple(int(v * 0.75) for v in c) + (255,)
        cv2.line(img, (int(w * 0.2), y), (int(w * 0.8), y + 2), groove, 1, cv2.LINE_AA)
    img[:, :, 3] = mask
    return img, (wid_u, len_u)
