"""Photo -> cards: decode, detect the corner indices, classify them, merge them into cards.

``vision.recognize(photo)`` is the entry point; :mod:`vision.pipeline` runs the stages in order
(:mod:`vision.decode`, :mod:`vision.balance`, :mod:`vision.detect`, :mod:`vision.classify`,
:mod:`vision.merge`, :mod:`vision.second_look`) and :mod:`vision.roles` reads the show from the
layout (:mod:`vision.starter`: which card is the starter).
"""

from __future__ import annotations

from os import PathLike

import numpy as np

from vision.detections import Detection, Detections

__all__ = ["Detection", "Detections", "recognize"]


def recognize(image: str | PathLike | bytes | np.ndarray) -> Detections:
    """Cards in a photo (path, bytes, BGR array or Pillow image) with the shipped models; see
    :mod:`vision.pipeline`, imported here only when first called, so ``import vision`` loads no
    onnxruntime."""
    from vision.pipeline import recognize as _recognize

    return _recognize(image)
