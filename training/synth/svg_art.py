"""SVG card art to pixels: each face cut out of an installed deck by ``rsvg-convert``.

Kept apart from the registry (:mod:`training.synth.decks`) and the cache (:mod:`training.synth.deck_store`)
because it is the one slow step: a design's 53 elements are 53 ``rsvg-convert`` runs.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scorer.cards import Card

if TYPE_CHECKING:
    from training.synth.decks import DeckSpec


# Cut a window around the card once a whole element would be this many times its area.
WINDOW_GAIN = 4


def _rsvg(path: str, element: str | None, zoom: float,
          window: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """``rsvg-convert``'s PNG of an element, or of the ``(x0, y0, x1, y1)`` px window of that PNG."""
    cmd = ["rsvg-convert", "-z", f"{zoom:.5f}", "-b", "none"]
    if element:
        cmd += ["-i", element]
    if window:
        x0, y0, x1, y1 = window
        cmd += [f"--page-width={x1 - x0}px", f"--page-height={y1 - y0}px", f"--left={-x0}px", f"--top={-y0}px"]
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


def _cut_out(path: str, element: str | None, zoom: float) -> np.ndarray:
    """One card at ``zoom``, trimmed to its bounds: the same pixels as trimming the element's whole PNG.

    Why a window: many decks' elements reach far past their card (kde-penguins' 2 of hearts renders
    8356 x 15842 px for a 523 x 698 card, 22 s), so where the card sits is found at zoom 1 and only
    a window around it is rendered. Shifting by whole pixels leaves every pixel as it was; a card
    that touches the window's edge is rendered whole instead.
    """
    if element is None:  # a file per card: the card is the whole drawing
        return _trim_alpha(_rsvg(path, element, zoom))
    small = _rsvg(path, element, 1.0)
    ys, xs = np.nonzero(small[:, :, 3])
    if len(xs) == 0:
        return _trim_alpha(_rsvg(path, element, zoom))
    m = int(np.ceil(2 * zoom)) + 2
    x0, y0 = max(0, int(xs.min() * zoom) - m), max(0, int(ys.min() * zoom) - m)
    x1, y1 = int(np.ceil((xs.max() + 1) * zoom)) + m, int(np.ceil((ys.max() + 1) * zoom)) + m
    if small.shape[0] * small.shape[1] * zoom * zoom < WINDOW_GAIN * (x1 - x0) * (y1 - y0):
        return _trim_alpha(_rsvg(path, element, zoom))
    img = _rsvg(path, element, zoom, (x0, y0, x1, y1))
    a = img[:, :, 3] > 8
    if a[-1].any() or a[:, -1].any() or (y0 > 0 and a[0].any()) or (x0 > 0 and a[:, 0].any()):
        return _trim_alpha(_rsvg(path, element, zoom))
    return _trim_alpha(img)


def render_svg_deck(spec: DeckSpec, width: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Faces (Card.index order) and backs, BGRA, each resized to the deck's common size."""
    def source(card_or_back: Card | str) -> tuple[str, str | None]:
        if spec.ids in ("files", "numbered"):
            name = "back.svg" if card_or_back == "back" else spec.element_id(card_or_back)
            folder = Path(spec.path)
            backs_in = folder.parent if spec.ids == "files" else folder
            return str((backs_in if name == "back.svg" else folder) / name), None
        return spec.path, "back" if card_or_back == "back" else spec.element_id(card_or_back)

    probe_path, probe_id = source(Card.parse("AS"))
    probe = _trim_alpha(_rsvg(probe_path, probe_id, 1.0))
    zoom = width * 1.02 / probe.shape[1]
    faces = []
    for i in range(52):
        p, e = source(Card.from_index(i))
        faces.append(_cut_out(p, e, zoom))
    h = int(round(np.median([f.shape[0] * width / f.shape[1] for f in faces])))
    faces = [cv2.resize(f, (width, h), interpolation=cv2.INTER_AREA) for f in faces]
    backs = []
    try:
        p, e = source("back")
        b = _cut_out(p, e, zoom)
        if abs(b.shape[0] / b.shape[1] - h / width) < 0.08:
            backs.append(cv2.resize(b, (width, h), interpolation=cv2.INTER_AREA))
    except RuntimeError:
        pass
    return faces, backs

