"""Store an ONNX model's weights as 16-bit floats, computing in 32 bits as before.

The models must fit 30 MB together (models/README.md). A wider classifier is 13 MB of 32-bit
weights, so two of them and the rest do not fit; stored as 16-bit floats they take half. Each
large float32 weight becomes a float16 initializer with a ``Cast`` back to float32 in front of
the nodes that used it: onnxruntime folds those casts into constants when it loads the model, so
the network runs in float32 exactly as before, on weights rounded to 11 significant bits (a
change in the last digits of a reading, measured in docs/experiments). Nothing at run time
needs to know: the file is still a float32-in, float32-out model.

    python -m training.train.half_weights runs/export/classifier-96GNft.onnx models/classifier3.onnx

The model's ``.json`` sidecar is copied beside the output with ``"weights": "float16"`` added.
Only the training tools use this module (it needs the ``onnx`` package of the ``train`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HALF_SUFFIX = "__f16"
"""Appended to a halved weight's name (``training.train.onnx_init`` reads it back under the old name)."""

MIN_ELEMENTS = 1024
"""Smaller tensors (biases, shapes, scalars) stay float32: they weigh nothing, and some are
read by ops that want float32 inputs as they are."""


def load_model(path: Path):
    """The ONNX model in ``path``; ValueError when the file is not one."""
    import onnx

    try:
        return onnx.load(str(path))
    except Exception as e:  # protobuf's DecodeError and friends: the file is not a model
        raise ValueError(f"{path}: not an ONNX model ({type(e).__name__})") from e


def half_weights(src: Path, dst: Path) -> tuple[int, int]:
    """Write ``src`` to ``dst`` with its large float32 initializers stored as float16.

    Returns (bytes before, bytes after) of the model file."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = load_model(src)
    graph = model.graph
    casts = []
    renamed: dict[str, str] = {}  # an initializer's name -> the cast output that replaces it
    graph_inputs = {i.name for i in graph.input}  # overridable at run time: left as they are
    for init in graph.initializer:
        if init.data_type != TensorProto.FLOAT or init.name in graph_inputs:
            continue
        arr = numpy_helper.to_array(init)
        if arr.size < MIN_ELEMENTS:
            continue
        if np.abs(arr).max(initial=0.0) >= np.finfo(np.float16).max:
            raise ValueError(f"{src}: weight {init.name} does not fit a 16-bit float")
        old, stored = init.name, f"{init.name}{HALF_SUFFIX}"
        init.CopyFrom(numpy_helper.from_array(arr.astype(np.float16), stored))
        renamed[old] = f"{stored}__f32"
        casts.append(helper.make_node("Cast", [stored], [renamed[old]], to=TensorProto.FLOAT,
                                      name=f"{stored}__cast"))
    if not renamed:
        raise ValueError(f"{src}: no float32 weights of {MIN_ELEMENTS} or more elements to store")
    for node in graph.node:
        for i, name in enumerate(node.input):
            if name in renamed:
                node.input[i] = renamed[name]
    nodes = list(casts) + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    dst.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(dst))
    return src.stat().st_size, dst.stat().st_size


def _copy_sidecar(src: Path, dst: Path) -> None:
    side = src.with_suffix(".json")
    if side.is_file():
        meta = json.loads(side.read_text())
        meta["weights"] = "float16"
        dst.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.half_weights",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("src", type=Path, help="ONNX model with float32 weights")
    p.add_argument("dst", type=Path, help="where to write the model with float16 weights")
    a = p.parse_args(argv)
    if not a.src.is_file():
        print(f"error: {a.src} is not a file", file=sys.stderr)
        return 2
    try:
        before, after = half_weights(a.src, a.dst)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    _copy_sidecar(a.src, a.dst)
    print(f"wrote {a.dst}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
