"""Labelled photos read again as if taken from farther away: the cards a small part of a 12 MP frame.

The real photos here fill their frames with cards; a player standing over the table may not. A
photo from afar is made from each: the photo scaled into the middle of a 4000x3000 frame of its own
table colour, saved as a JPEG, so that its cards are a small part of every look the detector takes
at the whole photo while keeping about the pixels they had (the frame decodes at half size).
Nothing is written to disk: ``cribcount eval --from-afar 0.35`` reads ``../shared`` photos so made
in memory (docs/experiments, "Photos from afar").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from training.eval.light import made_jpeg, reading_made
from vision.detections import Detections

FRAME = (4000, 3000)
"""(width, height) of the made photo: a 12 MP phone photo."""


def from_afar(img: np.ndarray, frac: float, rng: np.random.Generator,
              frame: tuple[int, int] = FRAME) -> np.ndarray:
    """``img`` (BGR uint8) scaled to ``frac`` of the frame's width (less where its height would
    not fit) in the middle of a ``frame`` of its own table colour: the median of its border, with
    a little sensor noise so the table is not flat."""
    check_frac(frac)
    h, w = img.shape[:2]
    fw, fh = frame
    s = min(frac * fw / w, fh / h)
    small = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))),
                       interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
    noise = rng.normal(0.0, 3.0, (fh, fw, 3)).astype(np.float32)
    canvas = np.clip(table_colour(img) + noise, 0, 255).astype(np.uint8)
    y, x = (fh - small.shape[0]) // 2, (fw - small.shape[1]) // 2
    canvas[y:y + small.shape[0], x:x + small.shape[1]] = small
    return canvas


def table_colour(img: np.ndarray) -> np.ndarray:
    """The colour of the table ``img`` (BGR) was taken on: the median of its 5 px border, where a
    photo of cards shows the table rather than the cards. Float32, (3,)."""
    border = np.concatenate([img[:5].reshape(-1, 3), img[-5:].reshape(-1, 3),
                             img[:, :5].reshape(-1, 3), img[:, -5:].reshape(-1, 3)])
    return np.median(border, axis=0).astype(np.float32)


def afar_jpeg(path: Path, frac: float, quality: int = 90) -> bytes:
    """The photo at ``path`` taken from afar (:func:`from_afar`), as JPEG bytes (:func:`made_jpeg`)."""
    return made_jpeg(path, lambda img, rng: from_afar(img, frac, rng), quality)


def read_from_afar(recognize: Callable[..., Detections], frac: float) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading each photo taken from
    afar, its width ``frac`` of a 12 MP frame's."""
    check_frac(frac)
    return reading_made(recognize, lambda path: afar_jpeg(path, frac))


def check_frac(frac: float) -> None:
    """Raise ``ValueError`` unless ``frac`` is a photo from afar this module makes (the CLI names its
    flag)."""
    if not 0 < frac <= 1:
        raise ValueError("give a fraction of the frame's width, 0 < F <= 1, e.g. 0.35")
