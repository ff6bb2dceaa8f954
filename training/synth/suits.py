"""Suits for the decks the engine draws: rank fonts found on the system, the four suit shapes (a
font's glyphs, or drawn from parameters so randomized decks get suits no font has), where pips sit
and their inks. Kept apart from :mod:`training.synth.procedural`, which lays out whole cards.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scorer.cards import Suit

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/share/texmf/fonts"))
# Fallback when a font package is missing: DejaVu ships with fonts-dejavu-core.
FALLBACK_FONT = "DejaVuSans-Bold.ttf"


@functools.cache
def _font_file(name: str) -> str:
    for d in FONT_DIRS:
        hits = sorted(d.rglob(name))
        if hits:
            return str(hits[0])
    return ""


def find_font(spec_params: dict) -> str:
    """The deck's rank font file: its first choice, else an alternative, else DejaVu Sans Bold."""
    for name in (spec_params.get("font", ""), *spec_params.get("alt_fonts", ()), FALLBACK_FONT):
        # Type 1 fonts (.t1) don't load in FreeType via PIL everywhere: prefer OTF/TTF twins.
        if name.endswith(".t1"):
            for ext in (".otf", ".ttf"):
                f = _font_file(name[:-3] + ext)
                if f:
                    return f
            continue
        f = _font_file(name)
        if f:
            return f
    raise FileNotFoundError("no usable font (install fonts-dejavu-core)")

# --- suit shapes, drawn in a unit box -----------------------------------------------------

SUIT_CHARS = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}


@functools.lru_cache(maxsize=4096)
def _glyph_mask(font_file: str, suit: Suit, height: int) -> Image.Image:
    """The suit character of ``font_file`` as an antialiased mask, trimmed, ``height`` px tall."""
    probe = ImageFont.truetype(font_file, 200)
    ch = SUIT_CHARS[suit]
    _, top, _, bottom = probe.getbbox(ch)
    font = probe.font_variant(size=max(4, round(200 * height / max(1, bottom - top))))
    left, top, right, bottom = font.getbbox(ch)
    mask = Image.new("L", (right - left + 2, bottom - top + 2), 0)
    ImageDraw.Draw(mask).text((1 - left, 1 - top), ch, font=font, fill=255)
    return mask.crop(mask.getbbox() or (0, 0, 1, 1))


def _heart_curve() -> tuple[np.ndarray, np.ndarray]:
    """The classic heart curve in the unit box: x in -1..1, y from -1 (lobes) to 1 (point)."""
    t = np.linspace(0, 2 * np.pi, 90)
    hx = 16 * np.sin(t) ** 3 / 17
    hy = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 17
    return hx, (hy - hy.min()) / (hy.max() - hy.min()) * 2 - 1


_HEART_X, _HEART_Y = _heart_curve()  # the same for every heart and spade drawn: computed once


def _ellipse(draw: ImageDraw.ImageDraw, P, corner: tuple[float, float], opposite: tuple[float, float],
             fill) -> None:
    """The ellipse in the unit-box rectangle between two corners, mapped by ``P`` (which may flip)."""
    (x0, y0), (x1, y1) = P(*corner), P(*opposite)
    draw.ellipse([min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)], fill=fill)


def draw_suit(image: Image.Image, suit: Suit, cx: float, cy: float, size: float,
              fill, style: str = "classic", flip: bool = False,
              shape: dict | None = None) -> tuple[float, float, float, float]:
    """Draw a suit symbol on ``image`` centred at (cx, cy), ``size`` tall. Returns its box.

    ``style`` is a pip shape (``classic``, ``fat``, ``slim``, drawn here) or ``font:<file>``:
    the suit character of an installed font, since real decks' suits differ most in shape
    (a club's lobes and stem, a spade's shoulders) and one drawn family taught too little.
    ``shape`` (drawn styles only) bends the drawing: see :func:`random_suit_shape`.
    """
    if style.startswith("font:"):
        mask = _glyph_mask(style[5:], suit, max(4, round(size)))
        if flip:
            mask = mask.rotate(180)
        w, h = mask.size
        x0, y0 = round(cx - w / 2), round(cy - h / 2)
        colour = fill if len(fill) == 4 else (*fill, 255)
        image.paste(Image.new("RGBA", mask.size, colour), (x0, y0), mask)
        return x0, y0, x0 + w, y0 + h
    draw = ImageDraw.Draw(image)
    s = size / 2
    wf = {"classic": 1.0, "fat": 1.12, "slim": 0.86}.get(style, 1.0)
    sx = s * wf
    sgn = -1 if flip else 1

    def P(x, y):
        return (cx + x * sx, cy + sgn * y * s)

    if shape:
        _draw_shaped_suit(draw, suit, P, shape, fill)
        return cx - sx, cy - s, cx + sx, cy + s
    if suit is Suit.DIAMONDS:
        w = 0.72 if style != "fat" else 0.8
        draw.polygon([P(0, -1), P(w, 0), P(0, 1), P(-w, 0)], fill=fill)
        return cx - w * sx, cy - s, cx + w * sx, cy + s
    if suit is Suit.HEARTS or suit is Suit.SPADES:
        # The classic heart curve, normalised to the unit box; a spade is a heart upside down
        # on a flared stem.
        hx, hy = _HEART_X, _HEART_Y
        if suit is Suit.HEARTS:
            draw.polygon([P(x, y) for x, y in zip(hx, hy, strict=True)], fill=fill)
            return cx - sx, cy - s, cx + sx, cy + s
        body = [P(x, -y * 0.78 - 0.22) for x, y in zip(hx, hy, strict=True)]  # point up, body over y -1..0.56
        draw.polygon(body, fill=fill)
        draw.polygon([P(0, 0.1), P(0.34, 1.0), P(-0.34, 1.0)], fill=fill)
        return cx - sx, cy - s, cx + sx, cy + s
    # Clubs: three balls and a stem.
    r = 0.36
    for bx, by in ((0, -0.58), (-0.56, 0.02), (0.56, 0.02)):
        _ellipse(draw, P, (bx - r, by - r), (bx + r, by + r), fill)
    draw.polygon([P(0, -0.2), P(0.3, 1.0), P(-0.3, 1.0)], fill=fill)
    _ellipse(draw, P, (-0.2, -0.2), (0.2, 0.2), fill)
    return cx - 0.92 * sx, cy - s, cx + 0.92 * sx, cy + s


def random_suit_shape(rng: np.random.Generator, fused: bool = False) -> dict:
    """Drawing parameters for one deck's suits, drawn from the range real decks span.

    Held-out decks were misread where their suits left the one drawn family: a club whose
    lobes fuse into a round head over a small flared foot read as a spade. Varying lobe size
    and spacing, stem width and flare, the spade's shoulders and the diamond's sides means no
    single stem or outline tells a club from a spade; only the lobes (a club's round top,
    a spade's point) do.
    """
    r = float(rng.uniform(0.3, 0.42))  # club lobe radius; lobes touch or overlap (a real club is one shape)
    side = float(rng.uniform(-0.1, 0.08))
    spread, rise = rng.uniform(1.15, 1.6), rng.uniform(1.2, 1.6)
    foot, neck = rng.uniform(0.1, 0.38), rng.uniform(0.02, 0.1)
    if fused:
        # Chunky "jumbo" clubs (plastic and casino decks): big lobes merged into one round head
        # with shallow notches, on a short, wide foot, the outline nearest a spade's.
        r = float(rng.uniform(0.36, 0.46))
        side = float(rng.uniform(-0.05, 0.12))
        spread, rise = rng.uniform(0.75, 1.15), rng.uniform(0.9, 1.3)
        foot, neck = rng.uniform(0.2, 0.4), rng.uniform(0.05, 0.14)
    return {
        "club_r": r,
        "club_spread": r * float(spread),  # side lobes' distance from the axis
        "club_top": max(-1 + r, side - r * float(rise)),  # top lobe's centre
        "club_side_y": side,
        "stem_w": float(foot),  # half-width of the foot
        "stem_neck": float(neck),  # half-width where the stem meets the head
        "stem_curve": float(rng.uniform(0.0, 1.0)),  # 0: straight flare, 1: concave (trumpet) flare
        "spade_w": float(rng.uniform(0.85, 1.08)),
        "spade_h": float(rng.uniform(0.7, 0.84)),  # body's share of the height, the stem the rest
        "heart_w": float(rng.uniform(0.86, 1.08)),
        "diamond_w": float(rng.uniform(0.55, 0.85)),
        "diamond_bow": float(rng.choice([0.0, 0.0, rng.uniform(0.05, 0.18)])),  # concave sides
    }


def _stem(P, sh: dict, top: float) -> list:
    """A foot from the head (y=top) to the bottom (y=1), flaring straight or trumpet-like."""
    neck, foot, k = sh["stem_neck"], sh["stem_w"], sh["stem_curve"]
    ts = np.linspace(0, 1, 12)
    half = neck + (foot - neck) * (ts ** (1 + 2.5 * k))
    ys = top + (1 - top) * ts
    return ([P(h, y) for h, y in zip(half, ys, strict=True)]
            + [P(-h, y) for h, y in zip(half[::-1], ys[::-1], strict=True)])


def _draw_shaped_suit(draw: ImageDraw.ImageDraw, suit: Suit, P, sh: dict, fill) -> None:
    hx, hy = _HEART_X, _HEART_Y
    if suit is Suit.HEARTS:
        draw.polygon([P(x * sh["heart_w"], y) for x, y in zip(hx, hy, strict=True)], fill=fill)
    elif suit is Suit.SPADES:
        bh = sh["spade_h"]
        body = [P(x * sh["spade_w"], -1 + (1 - y) / 2 * 2 * bh) for x, y in zip(hx, hy, strict=True)]
        draw.polygon(body, fill=fill)
        draw.polygon(_stem(P, sh, -1 + 2 * bh - 0.35), fill=fill)
    elif suit is Suit.DIAMONDS:
        w, bow = sh["diamond_w"], sh["diamond_bow"]
        corners = [(0, -1), (w, 0), (0, 1), (-w, 0)]
        pts = []
        for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1], strict=True):
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            # bow the side towards the centre
            cxp, cyp = mx * (1 - bow * 4), my * (1 - bow * 4)
            for u in np.linspace(0, 1, 10, endpoint=False):
                pts.append(P((1 - u) ** 2 * x0 + 2 * u * (1 - u) * cxp + u ** 2 * x1,
                             (1 - u) ** 2 * y0 + 2 * u * (1 - u) * cyp + u ** 2 * y1))
        draw.polygon(pts, fill=fill)
    else:
        r, sp, top, side = sh["club_r"], sh["club_spread"], sh["club_top"], sh["club_side_y"]
        for bx, by in ((0, top), (-sp, side), (sp, side)):
            _ellipse(draw, P, (bx - r, by - r), (bx + r, by + r), fill)
        hub = 0.6 * r
        _ellipse(draw, P, (-hub, side - hub * 0.5), (hub, side + hub * 0.5), fill)
        draw.polygon(_stem(P, sh, side), fill=fill)


# Pip positions as fractions of the pip area (x, y, flipped?); standard French layouts.
_C, _L, _R = 0.5, 0.0, 1.0
PIP_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(_C, 0), (_C, 1)],
    3: [(_C, 0), (_C, 0.5), (_C, 1)],
    4: [(_L, 0), (_R, 0), (_L, 1), (_R, 1)],
    5: [(_L, 0), (_R, 0), (_C, 0.5), (_L, 1), (_R, 1)],
    6: [(_L, 0), (_R, 0), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    7: [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1), (_R, 1)],
    8: [(_L, 0), (_R, 0), (_C, 0.25), (_L, 0.5), (_R, 0.5), (_C, 0.75), (_L, 1), (_R, 1)],
    9: [(_L, 0), (_R, 0), (_L, 1 / 3), (_R, 1 / 3), (_C, 0.5), (_L, 2 / 3), (_R, 2 / 3), (_L, 1), (_R, 1)],
    10: [(_L, 0), (_R, 0), (_C, 1 / 6), (_L, 1 / 3), (_R, 1 / 3), (_L, 2 / 3), (_R, 2 / 3), (_C, 5 / 6),
         (_L, 1), (_R, 1)],
}


def pip_style(p: dict) -> str:
    """The deck's suit drawing: ``font:<file>`` when it names a ``suit_font`` that is installed."""
    if p.get("suit_font"):
        f = _font_file(p["suit_font"])
        if f:
            return f"font:{f}"
    return p.get("pips", "classic")


def deck_suit(image: Image.Image, suit: Suit, cx: float, cy: float, size: float, fill, p: dict,
              flip: bool = False) -> tuple[float, float, float, float]:
    """:func:`draw_suit` as deck ``p`` draws its suits: its style and, for randomized decks, its shape."""
    return draw_suit(image, suit, cx, cy, size, fill, pip_style(p), flip, shape=p.get("suit_shape"))


def suit_colour(suit: Suit, p: dict) -> tuple[int, int, int]:
    """RGB ink of a suit: red/black, or the 4-colour deck's blue diamonds and green clubs."""
    if p.get("four_colour"):
        return {Suit.SPADES: (20, 20, 20), Suit.HEARTS: (210, 25, 30),
                Suit.DIAMONDS: (25, 70, 200), Suit.CLUBS: (20, 130, 45)}[suit]
    return tuple(p.get("red", (200, 20, 30))) if suit.is_red else tuple(p.get("black", (18, 18, 22)))
