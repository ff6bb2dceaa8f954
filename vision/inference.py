"""The ONNX models and what they take: sessions, the detector's letterbox, the classifiers' crops."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.image_io import to_long_side

DETECTOR_STRIDE = 32
"""The detector's largest stride: its input sides must be multiples of it."""


class ModelMissingError(FileNotFoundError):
    """The shipped ONNX models are not where they should be."""


def session(path: Path):  # noqa: ANN201 - onnxruntime is imported here only
    """An onnxruntime CPU session for the model file ``path``, loaded once per process and file
    version: recognizers with other settings share it (onnxruntime's ``run`` is thread-safe)."""
    if not path.exists():
        raise ModelMissingError(f"model file {path} is missing; see models/README.md to retrain")
    stat = path.stat()
    return _session(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _session(path: str, _mtime_ns: int, _size: int):  # noqa: ANN202
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle sessions' threads spin waiting for work and take the cores from the busy one.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def sidecar(path: Path) -> dict:
    """The ``.json`` beside a model: its input size (``imgsz``) and, for a classifier, its class ``names``."""
    return json.loads(path.with_suffix(".json").read_text())


@dataclass(frozen=True)
class Classifier:
    """One ONNX classifier and its input size."""

    session: object
    size: int

    def read(self, batch: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities for a (N, 3, size, size) batch of crops (:func:`to_tensor`)."""
        return self.session.run(None, {self.session.get_inputs()[0].name: batch})[0]


def letterbox(img: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, float, tuple[int, int]]:
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


def to_tensor(bgr: np.ndarray) -> np.ndarray:
    """A BGR uint8 image (H, W, 3), or a stack of them (N, H, W, 3), as the models' (N, 3, H, W) RGB
    float input in 0..1 (a stack in one pass, not one crop at a time)."""
    rgb_first = (bgr[None] if bgr.ndim == 3 else bgr)[..., ::-1].transpose(0, 3, 1, 2)
    return np.divide(np.ascontiguousarray(rgb_first), 255.0, dtype=np.float32)


def square_crop_box(xyxy: np.ndarray, margin: float) -> np.ndarray:
    """The training crop rule: grow each side by ``margin`` x size, then grow the short side to a square."""
    x0, y0, x1, y1 = xyxy
    side = max(x1 - x0, y1 - y0) * (1 + 2 * margin)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], np.float32)


def cut_square(img: np.ndarray, box: np.ndarray, size: int) -> np.ndarray:
    """Cut ``box`` (it may leave the image: padded by edge replication) and resize it to ``size``."""
    x0, y0, x1, y1 = box
    interp = cv2.INTER_AREA if (x1 - x0) > size else cv2.INTER_LINEAR
    m = cv2.getAffineTransform(np.float32([[x0, y0], [x1, y0], [x0, y1]]),
                               np.float32([[0, 0], [size, 0], [0, size]]))
    return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def crop_batch(img: np.ndarray, xyxy: np.ndarray, margin: float, size: int) -> np.ndarray:
    """(N, 3, size, size): each index box grown by ``margin`` and squared, cut at ``size``."""
    crops = [cut_square(img, square_crop_box(b, margin), size) for b in xyxy]
    return to_tensor(np.array(crops, np.uint8).reshape(-1, size, size, 3))
