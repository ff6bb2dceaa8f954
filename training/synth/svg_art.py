"""SVG card art to pixels: each face cut out of an installed deck by ``rsvg-convert``.

Kept apart from the registry (:mod:`training.synth.decks`) and the cache (:mod:`training.synth.deck_store`)
because it is the one slow step: each of a design's 53 elements is an ``rsvg-convert`` run that
reads the whole file (0.1-0.3 s). ``svg_windows.json`` says where each card sits in its element,
so a fresh checkout need not find out (:func:`_cut_out`); after a deck package changes, refresh it
with ``python -m training.synth.svg_art`` (decks whose file changed are simply measured again).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scorer.cards import Card

if TYPE_CHECKING:
    from training.synth.decks import DeckSpec


# Cut a window around the card once a whole element would be this many times its area.
WINDOW_GAIN = 4
WINDOWS_FILE = Path(__file__).with_name("svg_windows.json")
Bounds = tuple[int, int, int, int, int, int]
"""Where an element's ink lies in its PNG at zoom 1 (``x0 y0 x1 y1``), and that PNG's width and height."""


def _rsvg(path: str, element: str | None, zoom: float,
          window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """``rsvg-convert``'s PNG of an element, or of the ``(x0, y0, x1, y1)`` px window of that PNG."""
    cmd = ["rsvg-convert", "-z", f"{zoom:.5f}", "-b", "none"]
    if element:
        cmd += ["-i", element]
    if window:
        x0, y0, x1, y1 = window
        cmd += [f"--page-width={x1 - x0}px", f"--page-height={y1 - y0}px",
                f"--left={-x0}px", f"--top={-y0}px"]
    res = subprocess.run([*cmd, path], capture_output=True, check=False)
    if res.returncode != 0 or not res.stdout:
        raise RuntimeError(f"rsvg-convert failed on {path} #{element}: {res.stderr.decode()[:200]}")
    img = cv2.imdecode(np.frombuffer(res.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if img.ndim == 2 or img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA if img.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return img


def _trim_alpha(img: np.ndarray) -> np.ndarray:
    """Cut transparent margins so the face's bounds are the card's bounds."""
    ys, xs = np.nonzero(img[:, :, 3] > 8)
    if len(xs) == 0:
        return img
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _locate(path: str, element: str) -> Bounds | None:
    small = _rsvg(path, element, 1.0)
    ys, xs = np.nonzero(small[:, :, 3])
    if len(xs) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1, small.shape[1], small.shape[0]


def _cut_out(path: str, element: str | None, zoom: float, bounds: Bounds | None = None) -> np.ndarray:
    """One card at ``zoom``, trimmed to its bounds: the same pixels as trimming the element's whole PNG.

    Why a window: many decks' elements reach far past their card (kde-penguins' 2 of hearts renders
    8356 x 15842 px for a 523 x 698 card, 22 s), so only a window around the card is rendered, where
    ``bounds`` (or a render at zoom 1) puts it. Shifting by whole pixels leaves every pixel as it was;
    an empty window, or a card that touches the window's edge, is rendered whole instead.
    """
    if element is None:  # a file per card: the card is the whole drawing
        return _trim_alpha(_rsvg(path, element, zoom))
    bounds = bounds or _locate(path, element)
    if bounds is None:
        return _trim_alpha(_rsvg(path, element, zoom))
    bx0, by0, bx1, by1, w, h = bounds
    m = int(np.ceil(2 * zoom)) + 2
    x0, y0 = max(0, int(bx0 * zoom) - m), max(0, int(by0 * zoom) - m)
    x1, y1 = int(np.ceil(bx1 * zoom)) + m, int(np.ceil(by1 * zoom)) + m
    if w * h * zoom * zoom < WINDOW_GAIN * (x1 - x0) * (y1 - y0):
        return _trim_alpha(_rsvg(path, element, zoom))
    img = _rsvg(path, element, zoom, (x0, y0, x1, y1))
    a = img[:, :, 3] > 8
    if not a.any() or a[-1].any() or a[:, -1].any() or (y0 > 0 and a[0].any()) or (x0 > 0 and a[:, 0].any()):
        return _trim_alpha(_rsvg(path, element, zoom))
    return _trim_alpha(img)


def _file_sha1(path: str) -> str:
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def known_bounds(spec: DeckSpec) -> dict[str, Bounds]:
    """The deck's entry in ``svg_windows.json`` when it was measured on this very file, else nothing."""
    try:
        entry = json.loads(WINDOWS_FILE.read_text()).get(spec.name, {})
    except (OSError, ValueError):
        return {}
    if spec.ids in ("files", "numbered") or entry.get("sha1") != _file_sha1(spec.path):
        return {}
    return {el: tuple(b) for el, b in entry.get("bounds", {}).items()}


def _elements(spec: DeckSpec) -> list[str]:
    return [spec.element_id(Card.from_index(i)) for i in range(52)] + ["back"]


def measure_windows(specs: list[DeckSpec]) -> dict:
    """``svg_windows.json``'s content for the installed single-file decks among ``specs``."""
    out = {}
    for spec in specs:
        if spec.ids in ("files", "numbered") or not spec.available:
            continue
        bounds = {}
        for el in _elements(spec):
            try:
                b = _locate(spec.path, el)
            except RuntimeError:  # a deck without a back
                continue
            if b is not None:
                bounds[el] = b
        out[spec.name] = {"sha1": _file_sha1(spec.path), "bounds": bounds}
        print(f"{spec.name}: {len(bounds)} elements", file=sys.stderr)
    return out


def render_svg_deck(spec: DeckSpec, width: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Faces (Card.index order) and backs, BGRA, each resized to the deck's common size."""
    def source(card_or_back: Card | str) -> tuple[str, str | None]:
        if spec.ids in ("files", "numbered"):
            name = "back.svg" if card_or_back == "back" else spec.element_id(card_or_back)
            folder = Path(spec.path)
            backs_in = folder.parent if spec.ids == "files" else folder
            return str((backs_in if name == "back.svg" else folder) / name), None
        return spec.path, "back" if card_or_back == "back" else spec.element_id(card_or_back)

    known = known_bounds(spec)
    probe_path, probe_id = source(Card.parse("AS"))
    probe = _trim_alpha(_rsvg(probe_path, probe_id, 1.0))
    zoom = width * 1.02 / probe.shape[1]
    faces = []
    for i in range(52):
        p, e = source(Card.from_index(i))
        faces.append(_cut_out(p, e, zoom, known.get(e)))
    h = int(round(np.median([f.shape[0] * width / f.shape[1] for f in faces])))
    faces = [cv2.resize(f, (width, h), interpolation=cv2.INTER_AREA) for f in faces]
    backs = []
    try:
        p, e = source("back")
        b = _cut_out(p, e, zoom, known.get(e))
        if abs(b.shape[0] / b.shape[1] - h / width) < 0.08:
            backs.append(cv2.resize(b, (width, h), interpolation=cv2.INTER_AREA))
    except RuntimeError:
        pass
    return faces, backs



def main() -> int:
    """Measure every installed single-file SVG deck into ``svg_windows.json``."""
    from training.synth.decks import SVG_DECKS

    text = json.dumps(measure_windows(list(SVG_DECKS)), sort_keys=True, separators=(",", ":"))
    WINDOWS_FILE.write_text(text.replace('},"', '},\n"') + "\n")
    print(f"wrote {WINDOWS_FILE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
