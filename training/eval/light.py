"""Labelled photos read again in made light: dim, warm (tungsten), or both.

The independent check of the recognizer names "other decks, tables and light", and the only real
photos here were taken in one light. A photo in another light is made from each: its pixels
scaled, per channel, with sensor noise for a dim one, then saved again as a JPEG, as a phone
would. Nothing is written to disk: ``cribcount eval --light dim`` reads ``../shared`` photos
relit in memory (docs/experiments, "Dim and warm light").
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.decode import ImageError
from vision.detections import Detections, Expected


@dataclass(frozen=True)
class Light:
    """How a photo's channels change in this light: ``out = in * gain + offset`` (BGR), then noise."""

    gain: tuple[float, float, float]
    offset: tuple[float, float, float] = (0.0, 0.0, 0.0)
    noise: float = 0.0
    """Standard deviation of the Gaussian sensor noise, in levels of 255."""


DIM = Light(gain=(0.4, 0.4, 0.4), noise=4.0)
WARM = Light(gain=(0.7, 1.0, 1.1), offset=(0.0, 0.0, 10.0))
LIGHTS: dict[str, tuple[Light, ...]] = {"dim": (DIM,), "warm": (WARM,), "dim-warm": (DIM, WARM)}
"""The made lights, each applied in order: a dim room (1.3 stops darker, with sensor noise),
tungsten light with no white balance (blue down, red up), and both."""


def relit(img: np.ndarray, lights: tuple[Light, ...], rng: np.random.Generator) -> np.ndarray:
    """``img`` (BGR uint8) as taken in ``lights``, applied in order."""
    out = img.astype(np.float32)
    for light in lights:
        out = out * np.float32(light.gain) + np.float32(light.offset)
        if light.noise:
            out += rng.normal(0.0, light.noise, out.shape).astype(np.float32)
        out = np.clip(out, 0, 255)
    return out.astype(np.uint8)


def made_jpeg(path: Path, make: Callable[[np.ndarray, np.random.Generator], np.ndarray],
              quality: int) -> bytes:
    """The photo at ``path`` made over by ``make`` (its pixels and a generator for its noise), as
    JPEG bytes, as a phone would save it; the noise is drawn from the file's name, so every reading
    of it is the same photo."""
    img = cv2.imread(str(path))
    if img is None:
        raise ImageError(f"{path}: not an image OpenCV can read")
    rng = np.random.default_rng(zlib.crc32(path.name.encode()))
    _, data = cv2.imencode(".jpg", make(img, rng), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return data.tobytes()


def relit_jpeg(path: Path, light: str, quality: int = 92) -> bytes:
    """The photo at ``path`` in the made light named ``light`` (:data:`LIGHTS`), as JPEG bytes."""
    return made_jpeg(path, lambda img, rng: relit(img, LIGHTS[light], rng), quality)


def reading_made(recognize: Callable[..., Detections],
                 jpeg_of: Callable[[Path], bytes]) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading, for each path, the
    photo ``jpeg_of`` makes of it in memory instead."""
    def read(path: Path, expected: Expected | None = None) -> Detections:
        return recognize(jpeg_of(Path(path)), expected)
    return read


def in_light(recognize: Callable[..., Detections], light: str) -> Callable[..., Detections]:
    """``recognize`` (a path, and optionally what the photo holds) reading each photo relit in ``light``."""
    check_light(light)
    return reading_made(recognize, lambda path: relit_jpeg(path, light))


def check_light(light: str) -> None:
    """Raise ``ValueError`` unless ``light`` names a light this module makes (:data:`LIGHTS`)."""
    if light not in LIGHTS:
        raise ValueError(f"no light {light!r}: one of {', '.join(LIGHTS)}")
