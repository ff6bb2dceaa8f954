"""Labelled photos read again blurred, as a phone held by hand in lamplight takes them.

The real photos here are sharp. A blurred one is made from each: a Gaussian of ``sigma`` pixels
of the photo as stored (a defocused lens; on `poker-cards-4`'s 640 px photos 1.5 leaves every
index easy to name by eye), then saved again as a JPEG, as a phone would. Nothing is written to
disk: ``cribcount eval --blur 1.5`` reads ``../shared`` photos blurred in memory (docs/experiments,
"Blurred photos").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from training.eval.light import made_jpeg, reading_made
from vision.detections import Detections

MAX_SIGMA = 10.0
"""Past this a 640 px photo's indices are smudges: no measurement of reading."""


def blurred(img: np.ndarray, sigma: float) -> np.ndarray:
    """``img`` (BGR uint8) through a defocus blur: a Gaussian of ``sigma`` px."""
    check_sigma(sigma)
    return cv2.GaussianBlur(img, (0, 0), sigma)


def blurred_jpeg(path: Path, sigma: float, quality: int = 90) -> bytes:
    """The photo at ``path`` blurred (:func:`blurred`), as JPEG bytes
    (:func:`training.eval.light.made_jpeg`)."""
    return made_jpeg(path, lambda img, rng: blurred(img, sigma), quality)


def read_blurred(recognize: Callable[..., Detections], sigma: float) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading each photo blurred by
    ``sigma`` px."""
    check_sigma(sigma)
    return reading_made(recognize, lambda path: blurred_jpeg(path, sigma))


def check_sigma(sigma: float) -> None:
    """Raise ``ValueError`` unless ``sigma`` is a blur this module makes (the CLI names its flag)."""
    if not 0 < sigma <= MAX_SIGMA:
        raise ValueError(f"give a Gaussian's sigma in pixels, 0 < SIGMA <= {MAX_SIGMA:g}, e.g. 1.5")
