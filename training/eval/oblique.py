"""Labelled photos read again as if taken at a slant, as a seated player takes them across the table.

The real photos here were mostly taken from above the cards; a player at the table often holds the
phone lower, pitched towards the far side, so the cards nearer the top of the frame come out
smaller and foreshortened. A slanted photo is made from each: the view of a camera pitched by
``degrees`` more than the one that took it (a pinhole whose focal length is 0.75 of the photo's long
side, a phone's main camera), so the top edge narrows and its cards shrink; the warped photo is
scaled back to its long side, the corners it uncovers filled with the table's colour
(:func:`training.eval.afar.table_colour`), then saved again as a JPEG. Nothing is written to disk:
``cribcount eval --oblique 30`` reads ``../shared`` photos so made in memory (docs/experiments,
"Photos at a slant"); ``--oblique 0`` reads them saved again only, the control.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from training.eval.afar import table_colour
from training.eval.light import made_jpeg, reading_made
from vision.detections import Detections

FOCAL_OF_LONG_SIDE = 0.75
"""The pinhole's focal length over the photo's long side: about 70 degrees across, a phone's main camera."""
MAX_DEGREES = 60.0
"""The most slant made: beyond it the far cards of a 4:3 photo shrink to a sliver of the frame."""


def slant_homography(width: int, height: int, degrees: float) -> tuple[np.ndarray, tuple[int, int]]:
    """3x3 homography from a photo ``width`` x ``height`` to the same view pitched by ``degrees``
    (far side up), translated and scaled so the result's bounding box starts at the origin and
    keeps the photo's long side; and that box's size (width, height), the canvas to warp onto."""
    check_slant(degrees)
    f = FOCAL_OF_LONG_SIDE * max(width, height)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    t = -math.radians(degrees)  # the far (top) side tips away from the camera
    pitch = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    h = k @ pitch @ np.linalg.inv(k)
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    seen = cv2.perspectiveTransform(corners[None], h)[0]
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    scale = max(width, height) / max(hi - lo)
    fit = np.array([[scale, 0, -lo[0] * scale], [0, scale, -lo[1] * scale], [0, 0, 1]])
    out_w, out_h = np.ceil((hi - lo) * scale).astype(int)
    return fit @ h, (int(out_w), int(out_h))


def slanted(img: np.ndarray, degrees: float) -> np.ndarray:
    """``img`` (BGR uint8) seen by a camera pitched ``degrees`` further (:func:`slant_homography`),
    on a canvas of its own long side, what lies outside the photo the table's colour."""
    h, w = img.shape[:2]
    m, size = slant_homography(w, h, degrees)
    return cv2.warpPerspective(img, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                               borderValue=tuple(float(v) for v in table_colour(img)))


def read_slanted(recognize: Callable[..., Detections], degrees: float) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading each photo slanted by
    ``degrees`` (:func:`slanted`), saved again as a JPEG (:func:`training.eval.light.made_jpeg`)."""
    check_slant(degrees)
    return reading_made(recognize, lambda path: made_jpeg(path, lambda img, rng: slanted(img, degrees), 92))


def check_slant(degrees: float) -> None:
    """Raise ``ValueError`` unless ``degrees`` is a slant this module makes (the CLI names its flag)."""
    if not 0 <= degrees <= MAX_DEGREES:  # NaN fails this too
        raise ValueError(f"give the camera's further pitch in degrees, 0 <= DEG <= {MAX_DEGREES:g}, e.g. 30")
