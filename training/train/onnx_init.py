"""A trainable Ultralytics checkpoint rebuilt from a shipped ONNX model (training only).

Training checkpoints (``runs/**.pt``) are not committed, so a fresh checkout holds only the
shipped ONNX models. Retraining those from scratch takes about nine CPU hours; fine-tuning
the shipped models on new data takes one. This module makes the second possible: it builds
the network from the architecture in the ONNX sidecar (``.json``: task, depth, width,
classes) and loads the ONNX weights into it by name (the export keeps PyTorch's parameter
names).

The export fused every BatchNorm into the convolution before it, so each Conv+BN pair comes
back with its BatchNorm *recalibrated* rather than left as identity: with batch statistics a
training-mode identity BN would renormalize every layer and throw the trained network away
on the first step. For each fused convolution ``y = W x + b`` we measure the mean ``m`` and
variance ``v`` of ``W x`` per channel on calibration images (in eval mode, where the rebuilt
network is exactly the ONNX one), then set the BN to running stats ``(m, v)``, scale
``sqrt(v + eps)`` and shift ``b + m``. In eval mode that is ``W x + b`` again, exactly; in
training mode, batch statistics near ``(m, v)`` give nearly the same, so a fine-tune starts
where the shipped model is.

    python -m training.train.onnx_init models/classifier.onnx runs/init/classifier.pt --calib data/clsft
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from training.train.offline import prepare_offline
from vision.evaluate import IMAGE_SUFFIXES

ARCHITECTURES = {"classify": "yolo11-cls.yaml", "detect": "yolo11.yaml"}
MAX_CHANNELS = 1024
CALIB_IMAGES = 128
CALIB_CHUNK = 16


def _onnx_weights(path: Path) -> dict[str, np.ndarray]:
    """The model's weights by name, as float32 also where they are stored halved
    (training.train.half_weights)."""
    import onnx
    from onnx import numpy_helper

    from training.train.half_weights import HALF_SUFFIX

    weights = {}
    for t in onnx.load(str(path)).graph.initializer:
        arr = numpy_helper.to_array(t)
        if t.name.endswith(HALF_SUFFIX):
            weights[t.name.removesuffix(HALF_SUFFIX)] = arr.astype(np.float32)
        else:
            weights[t.name] = arr.copy()
    return weights


def training_images(data: str | Path) -> list[Path]:
    """The training images a dataset names: a classify folder's ``train/`` (any depth), or the
    ``train`` entry of a detect ``data.yaml`` (a folder of images or a ``.txt`` list of them)."""
    import yaml

    data = Path(data)
    if data.is_dir():
        root = data / "train" if (data / "train").is_dir() else data
        return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    cfg = yaml.safe_load(data.read_text())
    train = Path(cfg.get("path") or data.parent) / cfg["train"]
    if train.suffix == ".txt":
        return [Path(line) for line in train.read_text().split() if line]
    return sorted(p for p in train.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)


def _calibration_batch(files: list[Path], imgsz: int, n: int, seed: int) -> np.ndarray:
    """(n, 3, imgsz, imgsz) float RGB in [0, 1]: up to ``n`` of ``files``, letterboxed to a square (as
    Ultralytics trains; one shape, so they stack into one batch); random noise when there are no files."""
    import cv2

    from vision.detect import letterbox as _letterbox
    from vision.sessions import to_tensor as _to_tensor

    rng = np.random.default_rng(seed)
    if not files:
        return rng.random((n, 3, imgsz, imgsz), dtype=np.float32)
    batch = []
    for i in rng.choice(len(files), size=min(n, len(files)), replace=False):
        img = cv2.imread(str(files[i]))
        if img is None:
            raise ValueError(f"{files[i]}: not an image")
        batch.append(_to_tensor(_letterbox(img, imgsz)[0]))
    return np.concatenate(batch)


def rebuild(onnx_path: Path, calib: list[Path] | None = None, seed: int = 0, n_calib: int = CALIB_IMAGES):
    """The Ultralytics model (``ultralytics.YOLO``) with the ONNX model's weights and recalibrated
    BatchNorms."""
    meta = json.loads(onnx_path.with_suffix(".json").read_text())
    if "ensemble" in meta:
        raise ValueError(f"{onnx_path}: two classifiers joined in one file; "
                         f"fine-tune each of {meta['ensemble']}")
    prepare_offline()
    import torch
    from ultralytics import YOLO
    from ultralytics.nn.modules import Conv

    from training.train.common import scaled_model_yaml

    names = meta["names"]
    with tempfile.TemporaryDirectory() as tmp:
        yaml_path = scaled_model_yaml(ARCHITECTURES[meta["task"]], meta["depth"], meta["width"], MAX_CHANNELS,
                                      nc=len(names), out=Path(tmp) / f"{onnx_path.stem}.yaml")
        yolo = YOLO(str(yaml_path), task=meta["task"])
    net = yolo.model
    weights = _onnx_weights(onnx_path)
    state = net.state_dict()
    convs = {name: m for name, m in net.named_modules() if isinstance(m, Conv) and hasattr(m, "bn")}
    loaded: set[str] = set()
    with torch.no_grad():
        for name, m in convs.items():
            w, b = weights[f"{name}.conv.weight"], weights[f"{name}.conv.bias"]
            m.conv.weight.copy_(torch.from_numpy(w))
            # Eval-mode identity first (exactly the fused conv), so calibration sees the ONNX network.
            m.bn.weight.fill_(1.0)
            m.bn.bias.copy_(torch.from_numpy(b))
            m.bn.running_mean.zero_()
            m.bn.running_var.fill_(1.0 - m.bn.eps)
            loaded |= {f"{name}.conv.weight", f"{name}.conv.bias"}
        for key, value in weights.items():  # plain layers: the head's Linear / Conv2d, the DFL
            if key in loaded or key not in state:
                continue
            state[key].copy_(torch.from_numpy(value).reshape(state[key].shape))
            loaded.add(key)
    bns = {f"{name}.bn.{p}" for name in convs for p in ("weight", "bias")}
    missing = [k for k, _ in net.named_parameters() if k not in loaded and k not in bns]
    if missing:
        raise ValueError(f"{onnx_path}: no ONNX weights for {missing[:5]}: "
                         "not the architecture its sidecar names")

    # Calibrate: per-channel mean and variance of each conv's output (before its bias), over
    # the calibration images in chunks (sums of x and x^2 per channel).
    sums: dict[str, list] = {name: [0.0, 0.0, 0] for name in convs}

    def record(name: str, out) -> None:
        acc = sums[name]
        acc[0] = acc[0] + out.sum(dim=(0, 2, 3)).double()
        acc[1] = acc[1] + (out.double() ** 2).sum(dim=(0, 2, 3))
        acc[2] += out.numel() // out.shape[1]

    hooks = [m.conv.register_forward_hook(lambda mod, inp, out, name=name: record(name, out))
             for name, m in convs.items()]
    x = _calibration_batch(calib or [], int(meta["imgsz"]), n_calib, seed)
    net.eval()
    with torch.no_grad():
        for chunk in range(0, len(x), CALIB_CHUNK):
            net(torch.from_numpy(x[chunk : chunk + CALIB_CHUNK]))
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for name, m in convs.items():
            total, total_sq, count = sums[name]
            mean = total / count
            var = (total_sq / count - mean**2).clamp(min=0)
            m.bn.running_mean.copy_(mean.float())
            m.bn.running_var.copy_(var.float())
            m.bn.weight.copy_(torch.sqrt(var.float() + m.bn.eps))
            m.bn.bias.add_(mean.float())
    net.names = dict(enumerate(names))
    return yolo


def save_checkpoint(yolo, out: Path, onnx_path: Path) -> Path:
    """Write ``out`` in the form Ultralytics loads (``YOLO(out)``, ``--init out``)."""
    import torch

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": yolo.model, "train_args": {"task": yolo.task}, "epoch": -1,
                "date": None, "version": None, "rebuilt_from": str(onnx_path)}, out)
    return out


def max_difference(onnx_path: Path, yolo, imgsz: int, seed: int = 1) -> float:
    """Largest absolute difference between the ONNX model's and the rebuilt model's outputs on noise."""
    import onnxruntime as ort
    import torch

    x = np.random.default_rng(seed).random((4, 3, imgsz, imgsz), dtype=np.float32)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    ref = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    yolo.model.eval()
    with torch.no_grad():
        out = yolo.model(torch.from_numpy(x))
    out = out[0] if isinstance(out, (list, tuple)) else out
    return float(np.abs(out.numpy() - ref).max())


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.onnx_init",
                                description=__doc__.splitlines()[0])
    p.add_argument("onnx", type=Path, help="shipped model (its .json sidecar beside it)")
    p.add_argument("out", type=Path, help="checkpoint to write (.pt), for --init")
    p.add_argument("--calib", default=None,
                   help="training data to recalibrate BatchNorm on "
                        "(classify folder or detect data.yaml); default: noise")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args(argv)
    try:
        yolo = rebuild(a.onnx, training_images(a.calib) if a.calib else [], a.seed)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    imgsz = int(json.loads(a.onnx.with_suffix(".json").read_text())["imgsz"])
    diff = max_difference(a.onnx, yolo, imgsz)
    save_checkpoint(yolo, a.out, a.onnx)
    print(f"wrote {a.out} from {a.onnx}: largest output difference from the ONNX model {diff:.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
