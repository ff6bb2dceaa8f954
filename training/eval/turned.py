"""Labelled photos read again turned, as a player sitting at another side of the table takes them.

The real photos here were mostly taken square to the cards' row; a player may hold the phone at
any angle to it. A turned photo is made from each: turned anticlockwise by ``degrees``, a quarter
turn exactly (pixels moved, nothing resampled), any other angle on a canvas grown to hold the whole
photo, the corners it uncovers filled with the table's colour (:func:`training.eval.afar.table_colour`;
mirroring the edges in would add mirrored cards), then saved again as a JPEG. Nothing is written
to disk: ``cribcount eval --turn 45`` reads ``../shared`` photos so made in memory
(docs/experiments, "Cards at an angle"); ``--turn 0`` reads them saved again only, the control.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from training.eval.afar import table_colour
from training.eval.light import made_jpeg, reading_made
from vision.detections import Detections


def turned(img: np.ndarray, degrees: float) -> np.ndarray:
    """``img`` (BGR uint8) turned anticlockwise by ``degrees``, on a canvas that holds all of it."""
    check_degrees(degrees)
    quarters, rest = divmod(degrees % 360, 90)
    if rest == 0:
        return np.ascontiguousarray(np.rot90(img, int(quarters)))
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(math.cos(math.radians(degrees))), abs(math.sin(math.radians(degrees)))
    nw, nh = math.ceil(w * cos + h * sin), math.ceil(w * sin + h * cos)
    m[:, 2] += (nw - w) / 2, (nh - h) / 2
    return cv2.warpAffine(img, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=tuple(float(v) for v in table_colour(img)))


def turned_jpeg(path: Path, degrees: float, quality: int = 92) -> bytes:
    """The photo at ``path`` turned (:func:`turned`), as JPEG bytes
    (:func:`training.eval.light.made_jpeg`)."""
    return made_jpeg(path, lambda img, rng: turned(img, degrees), quality)


def read_turned(recognize: Callable[..., Detections], degrees: float) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading each photo turned by
    ``degrees``."""
    check_degrees(degrees)
    return reading_made(recognize, lambda path: turned_jpeg(path, degrees))


def check_degrees(degrees: float) -> None:
    """Raise ``ValueError`` unless ``degrees`` is a turn this module makes (the CLI names its flag)."""
    if not -360 <= degrees <= 360:  # NaN fails this too
        raise ValueError("give degrees anticlockwise, -360 <= DEG <= 360, e.g. 45")
