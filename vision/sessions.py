"""The ONNX models as loaded: one onnxruntime session per file, its sidecar, and the input they take.

Every stage that runs a model (:mod:`vision.detect`, :mod:`vision.classify`) gets its session here;
onnxruntime is imported here only, and only when a model is first loaded.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np


class ModelMissingError(FileNotFoundError):
    """The shipped ONNX models are not where they should be."""


def session(path: Path):  # an onnxruntime InferenceSession: onnxruntime is imported here only
    """An onnxruntime CPU session for the model file ``path``, loaded once per process and file
    version: recognizers with other settings share it (onnxruntime's ``run`` is thread-safe)."""
    if not path.exists():
        raise ModelMissingError(f"model file {path} is missing; see models/README.md to retrain")
    stat = path.stat()
    return _session(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)
def _session(path: str, _mtime_ns: int, _size: int):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle sessions' threads spin waiting for work and take the cores from the busy one.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def sidecar(path: Path) -> dict:
    """The ``.json`` beside a model: its input size (``imgsz``) and, for a classifier, its class ``names``."""
    return json.loads(path.with_suffix(".json").read_text())


def to_tensor(bgr: np.ndarray) -> np.ndarray:
    """A BGR uint8 image (H, W, 3), or a stack of them (N, H, W, 3), as the models' (N, 3, H, W) RGB
    float input in 0..1 (a stack in one pass, not one crop at a time)."""
    rgb_first = (bgr[None] if bgr.ndim == 3 else bgr)[..., ::-1].transpose(0, 3, 1, 2)
    return np.divide(np.ascontiguousarray(rgb_first), 255.0, dtype=np.float32)


def run(model: object, tensor: np.ndarray) -> np.ndarray:
    """The first output of ``model`` (an onnxruntime session, or a test's stand-in) for its one input."""
    return model.run(None, {model.get_inputs()[0].name: tensor})[0]
