"""Detect: the corner indices boxed in a photo, as preprocess -> inference -> postprocess.

Preprocess letterboxes the photo (scaled to the detector's size, padded to its stride) and may cut
it to a window; inference runs the ONNX detector; postprocess decodes its raw output, keeps the
boxes scored high enough, drops a box on an index already boxed (NMS) and maps the boxes back to
the photo's pixels (:meth:`~vision.detections.Detections.from_onnx`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.config import RecognizerConfig
from vision.detections import Detections
from vision.sessions import run, to_tensor

DETECTOR_STRIDE = 32
"""The detector's largest stride: its input sides must be multiples of it."""

Window = tuple[int, int, int, int]
"""A part of a photo, (x0, y0, x1, y1) in its pixels."""


def detector_size(img: np.ndarray, trained_size: int, config: RecognizerConfig, scale: float = 1.0) -> int:
    """The long side the detector sees ``img`` at: 608 for a phone photo, else ``trained_size``.
    A phone photo is one that was at least twice that on its long side as taken: ``img`` times
    ``scale``, the photo's pixels per pixel of ``img`` (a big JPEG is decoded at 1/2, 1/4 or 1/8)."""
    large = config.large_photo_detector_size
    if large and max(img.shape[:2]) * scale >= 2 * large:
        return max(large, trained_size)
    return trained_size


def detect_indices(detector: object, img: np.ndarray, size: int, config: RecognizerConfig,
                   window: Window | None = None) -> Detections:
    """Corner-index boxes in ``img`` pixels, the ``detector`` session seeing ``img`` at ``size``;
    with ``window`` only that part, at the same scale."""
    stride = None if config.square_input else DETECTOR_STRIDE
    canvas, r, pad = letterbox(img, size, stride)
    if window is not None:
        canvas, pad = cut_on_grid(canvas, window, r, pad, stride or DETECTOR_STRIDE)
    output = run(detector, to_tensor(canvas))[0]
    kept = non_max_suppression(output, config.index_confidence, config.nms_iou)
    if not len(kept):
        return Detections.empty()
    return in_image_pixels(Detections.from_onnx(output[:, kept]), r, pad, img.shape)


# -- preprocess -------------------------------------------------------------------------------------
def to_long_side(img: np.ndarray, size: int) -> np.ndarray:
    """``img`` scaled so its long side is ``size`` px: area-averaged when it shrinks (every source
    pixel counts, no aliasing of thin glyph strokes), bilinear when it grows."""
    h, w = img.shape[:2]
    r = size / max(h, w)
    return cv2.resize(img, (max(1, round(w * r)), max(1, round(h * r))),
                      interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)


def letterbox(img: np.ndarray, size: int,
              stride: int | None = None) -> tuple[np.ndarray, float, tuple[int, int]]:
    """``img`` scaled to ``size`` on its long side and padded grey: to a square, or with ``stride``
    only to the next multiple of it (a fifth less work for a 4:3 photo; the detector takes any size).
    Returns the canvas, the scale and the (left, top) padding."""
    r = size / max(img.shape[:2])
    resized = to_long_side(img, size)
    nh, nw = resized.shape[:2]
    cw, ch = (-(-nw // stride) * stride, -(-nh // stride) * stride) if stride else (size, size)
    canvas = np.full((ch, cw, 3), 114, np.uint8)
    top, left = (ch - nh) // 2, (cw - nw) // 2
    canvas[top : top + nh, left : left + nw] = resized
    return canvas, r, (left, top)


def cut_on_grid(canvas: np.ndarray, window: Window, r: float, pad: tuple[int, int],
                step: int) -> tuple[np.ndarray, tuple[int, int]]:
    """The part of a letterboxed ``canvas`` (scale ``r``, padding ``pad``) over ``window`` of the photo,
    cut on the ``step`` grid so the detector sees the very pixels of the whole look; and its padding."""
    left, top = pad
    ch, cw = canvas.shape[:2]
    cx0 = max(0, int((window[0] * r + left) // step) * step)
    cy0 = max(0, int((window[1] * r + top) // step) * step)
    cx1 = min(cw, -int(-(window[2] * r + left) // step) * step)
    cy1 = min(ch, -int(-(window[3] * r + top) // step) * step)
    return canvas[cy0:cy1, cx0:cx1], (left - cx0, top - cy0)


# -- postprocess ------------------------------------------------------------------------------------
def non_max_suppression(output: np.ndarray, min_confidence: float, iou: float) -> np.ndarray:
    """The columns of the detector's raw ``output`` (4 + classes, N) kept: scored ``min_confidence``
    or more, and not overlapping a surer kept box more than ``iou`` (one index, one box); surest first."""
    candidates = np.flatnonzero(output[4:].max(axis=0) >= min_confidence)
    if not len(candidates):
        return candidates
    cx, cy, w, h = output[:4, candidates]
    xywh = np.column_stack([cx - w / 2, cy - h / 2, w, h])
    scores = output[4:, candidates].max(axis=0)
    kept = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), min_confidence, iou)
    return candidates[np.array(kept, dtype=int).reshape(-1)]


def in_image_pixels(found: Detections, r: float, pad: tuple[int, int], shape: tuple[int, ...]) -> Detections:
    """Boxes ``found`` on a canvas (``img`` scaled ``r`` and padded ``pad``) in ``img``'s pixels,
    clipped to its ``shape``: new boxes, their corners and indices made from them."""
    left, top = pad
    xyxy = (found.xyxy - np.array([left, top, left, top], np.float32)) / r
    h, w = shape[:2]
    return Detections(xyxy=np.clip(xyxy, 0, [w, h, w, h]).astype(np.float32), confidence=found.confidence)
