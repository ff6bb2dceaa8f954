"""What a phone camera does to a scene: uneven light, glare on glossy cards, white balance
and exposure, focus and motion blur, sensor noise, and JPEG (sometimes twice)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


def depth_of_field_weight(row_fraction, band_centre: float):
    """How much of the full depth-of-field blur a row gets (0 on the sharp band, 1 far from it);
    ``row_fraction`` is the row as a fraction of the height, a number or an array."""
    return np.clip(np.abs(row_fraction - band_centre) * 2.2, 0, 1)


@dataclass(frozen=True)
class Focus:
    """How much a developed photo is blurred, in px: the blur's standard deviation (a
    Gaussian's sigma; a motion streak of length L spreads like L / sqrt(12)). A depth-of-field
    blur is sharp on one band of rows and grows away from it, so ``at`` takes the row.

    Kept so that the labels can say whether a person could still read an index (see
    :func:`training.synth.scene.legible`): blur is drawn relative to the photo's size, and a
    small index in a blurred photo can be a smudge that no one could name.
    """

    sigma_px: float = 0.0
    band_centre: float | None = None
    """Depth of field only: the sharp row, as a fraction of the height."""

    def at(self, y: float, height: int) -> float:
        """The blur at row ``y`` of a photo ``height`` px tall."""
        if self.band_centre is None:
            return self.sigma_px
        return self.sigma_px * float(depth_of_field_weight(y / height, self.band_centre))


SHARP = Focus()
"""No blur anywhere: the focus of a photo that was not blurred."""


def _low_freq(rng: np.random.Generator, W: int, H: int) -> np.ndarray:
    """A smooth light field around 1: a linear gradient, a vignette and a few broad blobs."""
    ys, xs = np.mgrid[0:H:8, 0:W:8].astype(np.float32)
    xs /= W
    ys /= H
    a = rng.uniform(0, 2 * math.pi)
    grad = (xs - 0.5) * math.cos(a) + (ys - 0.5) * math.sin(a)
    field = 1 + grad * rng.uniform(0.0, 0.5)
    cx, cy = rng.uniform(0.2, 0.8, 2)
    r2 = (xs - cx) ** 2 + (ys - cy) ** 2
    field *= 1 - rng.uniform(0.0, 0.3) * np.clip(r2 / 0.5, 0, 1)
    for _ in range(int(rng.integers(0, 3))):
        bx, by = rng.uniform(0, 1, 2)
        s = rng.uniform(0.1, 0.4)
        field *= 1 + rng.uniform(-0.25, 0.25) * np.exp(-((xs - bx) ** 2 + (ys - by) ** 2) / (2 * s * s))
    return cv2.resize(field, (W, H), interpolation=cv2.INTER_LINEAR)


def motion_kernel(rng: np.random.Generator, length: float) -> np.ndarray:
    """A straight streak ``length`` px long at a random angle, normalised: a camera moved while the
    shutter was open (also :mod:`training.train.blur_aug`)."""
    n = max(3, int(length) | 1)
    k = np.zeros((n, n), np.float32)
    a = rng.uniform(0, math.pi)
    c = n // 2
    dx, dy = math.cos(a) * c, math.sin(a) * c
    cv2.line(k, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1,
             cv2.LINE_AA)
    return k / k.sum()


def develop(rng: np.random.Generator, img: np.ndarray, card_mask: np.ndarray) -> tuple[np.ndarray, Focus]:
    """BGR float 0..255 scene -> uint8 BGR photo (before JPEG), and the blur put in it."""
    H, W = img.shape[:2]
    scale = max(W, H) / 1000.0  # blur and noise sizes are set for a ~1000 px photo
    out = img * _low_freq(rng, W, H)[..., None]  # (float32 throughout: cheaper than float64)
    # Glare: a soft bright patch where the light reflects off the glossy cards.
    if rng.random() < 0.35:
        gx, gy = rng.uniform(0.15, 0.85) * W, rng.uniform(0.15, 0.85) * H
        sx, sy = rng.uniform(0.05, 0.3) * W, rng.uniform(0.03, 0.2) * H
        ys, xs = np.mgrid[0:H:4, 0:W:4].astype(np.float32)
        a = rng.uniform(0, math.pi)
        u = (xs - gx) * math.cos(a) + (ys - gy) * math.sin(a)
        v = -(xs - gx) * math.sin(a) + (ys - gy) * math.cos(a)
        blob = np.exp(-(u ** 2 / (2 * sx * sx) + v ** 2 / (2 * sy * sy)))
        blob = cv2.resize(blob, (W, H))
        strength = rng.uniform(40, 160)
        out += (blob * (0.25 + 0.75 * card_mask) * strength)[..., None]
    # White balance and exposure.
    wb = np.array([rng.uniform(0.8, 1.15), rng.uniform(0.92, 1.05), rng.uniform(0.82, 1.2)], np.float32)
    # Phones expose for the scene: mostly bright, sometimes dim.
    out *= wb * (rng.uniform(0.95, 1.3) if rng.random() < 0.7 else rng.uniform(0.7, 1.0))
    # Tone curve (gamma, then contrast) as one 8-bit lookup: the same maths, far cheaper.
    gamma = rng.uniform(0.8, 1.2)
    c = rng.uniform(0.8, 1.15)
    lut = np.clip((255 * (np.arange(256) / 255) ** gamma - 128) * c + 128, 0, 255).astype(np.uint8)
    out = cv2.LUT(np.clip(out, 0, 255).astype(np.uint8), lut)
    # Focus: defocus blur, sometimes motion. Drawn in proportion to the photo, it can blur a small
    # index past reading: the labels say so from the Focus returned (training.synth.scene.legible).
    r = rng.random()
    focus = Focus()
    if r < 0.55:
        sigma = rng.uniform(0.3, 1.3) * scale
        out = cv2.GaussianBlur(out, (0, 0), sigma)
        focus = Focus(sigma)
    elif r < 0.75:
        length = rng.uniform(2, 7) * scale
        out = cv2.filter2D(out, -1, motion_kernel(rng, length))
        focus = Focus(length / math.sqrt(12))
    elif r < 0.85:
        # Depth of field: sharp band, blur growing away from it (a tilted phone).
        sigma = rng.uniform(1.0, 2.5) * scale
        blurred = cv2.GaussianBlur(out, (0, 0), sigma)
        ys = np.linspace(0, 1, H, dtype=np.float32)[:, None, None]
        centre = rng.uniform(0.3, 0.7)
        band = depth_of_field_weight(ys, centre)
        out = (out * (1 - band) + blurred * band).astype(np.uint8)
        focus = Focus(sigma, centre)
    # Sensor noise: shot noise (grows with signal) plus read noise, some of it colour.
    # Drawn at half size and enlarged: demosaicing and denoising leave phone noise ~2 px grainy.
    sigma = rng.uniform(1.0, 7.0)
    hh, hw = (H + 1) // 2, (W + 1) // 2
    grain = rng.standard_normal((hh, hw, 3), dtype=np.float32)
    chroma = np.float32(rng.uniform(0.0, 0.6))
    grain = grain[:, :, :1] + chroma * grain  # mostly luminance, some colour
    noise = cv2.resize(grain, (W, H), interpolation=cv2.INTER_LINEAR) * np.float32(sigma * 1.4)
    shot = cv2.LUT(out, np.sqrt(np.maximum(np.arange(256), 1) / 128).astype(np.float32).reshape(1, 256))
    noisy = out.astype(np.float32) + noise * shot
    if rng.random() < 0.3:
        # Phone sharpening halos.
        blur = cv2.GaussianBlur(noisy, (0, 0), 1.2 * scale)
        noisy += (noisy - blur) * np.float32(rng.uniform(0.3, 1.0))
    return np.clip(noisy, 0, 255).astype(np.uint8), focus


def jpeg(rng: np.random.Generator, img: np.ndarray) -> bytes:
    """Encode as a phone would, sometimes re-compressed once more (shared, re-saved)."""
    q = int(rng.integers(70, 96))
    data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])[1]
    if rng.random() < 0.35:
        again = cv2.imdecode(data, cv2.IMREAD_COLOR)
        data = cv2.imencode(".jpg", again, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 90))])[1]
    return data.tobytes()
