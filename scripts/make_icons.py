"""Draw the page's app icons and favicon (api/static/icons/) from the same shapes as api/static/icon.svg.

A card on the table's felt with a red heart: the manifest's 192 and 512 px PNGs (full-bleed felt, so
a phone's mask may round the corners) and a favicon.ico of 16, 32 and 48 px. Drawn at 4x and shrunk,
which anti-aliases the edges. Run ``.venv/bin/python scripts/make_icons.py`` after changing a shape.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parent.parent / "api" / "static" / "icons"
FELT = "#0b5d3b"
PAPER = "#fbfaf6"
RED = "#c21d1d"
OVERSAMPLE = 4


def draw_icon(size_px: int, *, rounded: bool) -> Image.Image:
    """The icon at ``size_px``, drawn on icon.svg's 64-unit grid."""
    big = size_px * OVERSAMPLE
    unit = big / 64
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=12 * unit if rounded else 0, fill=FELT)
    draw.rounded_rectangle((17 * unit, 9 * unit, 47 * unit, 55 * unit), radius=4 * unit, fill=PAPER)
    # The heart: two lobes (circles of radius 5.5 about (26.5, 30) and (37.5, 30)) over a point at (32, 44).
    for cx in (26.5, 37.5):
        draw.ellipse(((cx - 5.5) * unit, 24.5 * unit, (cx + 5.5) * unit, 35.5 * unit), fill=RED)
    draw.polygon([(21.4 * unit, 31.5 * unit), (42.6 * unit, 31.5 * unit), (32 * unit, 44 * unit)], fill=RED)
    return img.resize((size_px, size_px), Image.Resampling.LANCZOS)


def main() -> None:
    ICONS.mkdir(exist_ok=True)
    for size_px in (192, 512):
        draw_icon(size_px, rounded=False).save(ICONS / f"icon-{size_px}.png", optimize=True)
    draw_icon(48, rounded=True).save(ICONS / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    print(f"icons written to {ICONS}")


if __name__ == "__main__":
    main()
