"""Camera-blur augmentation for the index classifier's training crops.

Why: a blurred index is the classifier's commonest miss. On the tuning renders, cards read right
at the top but below the card line are mostly blurred hard; and the real tuning photos made soft
(a Gaussian of 1.5 px on a 640 px photo, a card still easy to name by eye) read 96.3% of cards
against 98.8% as taken, with the detector boxing every missed index and the classifier reading it
wrong or unsure (docs/experiments, "Blurred photos"). The renders blur whole scenes, so an index
is blurred in proportion to the photo, mostly lightly; here each crop is blurred in proportion to
itself, up to the blur a person can still read (``training.synth.legibility.MAX_BLUR_PER_INDEX_PX`` of
the index's height), so heavily blurred indices of every design and of the real crops are seen.

Pure numpy + OpenCV, like :mod:`training.train.glyph_aug`; the trainer wraps it for PIL images
(``training.train.classifier --blur-aug``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from training.synth.legibility import MAX_BLUR_PER_INDEX_PX
from training.synth.photo import motion_kernel

INDEX_SHARE = 0.7
"""About how much of a training crop's side its index takes (the crops grow the index box by
10-40% a side, then square it): blur measured on the index is this times blur measured on the crop."""


@dataclass(frozen=True)
class CameraBlur:
    """Random defocus or motion blur of one crop (H×W×3 uint8, any size), in proportion to its side."""

    p: float = 0.4
    motion_share: float = 0.35
    """Of the blurred crops, the share blurred by motion (a streak at a random angle), else defocus."""
    max_blur: float = MAX_BLUR_PER_INDEX_PX * INDEX_SHARE
    """The largest blur (a Gaussian's sigma, or a streak's length / sqrt(12)) as a fraction of the
    crop's side: the blur past which a person could not name the index."""

    def __call__(self, img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if rng.random() >= self.p:
            return img
        sigma = rng.uniform(0.15, 1.0) * self.max_blur * min(img.shape[:2])
        if sigma < 0.3:
            return img
        return blur_as_camera(img, sigma, rng, self.motion_share)


def blur_as_camera(img: np.ndarray, sigma: float, rng: np.random.Generator,
                   motion_share: float) -> np.ndarray:
    """``img`` blurred by ``sigma`` px as a camera blurs: a motion streak at a random angle (its
    length ``sigma`` x sqrt(12), which spreads as far) with chance ``motion_share``, else defocus
    (a Gaussian). Also :func:`training.data.scene_pack.camera_blur`, for whole scenes."""
    if rng.random() < motion_share:
        return cv2.filter2D(img, -1, motion_kernel(rng, sigma * math.sqrt(12)))
    return cv2.GaussianBlur(img, (0, 0), sigma)
