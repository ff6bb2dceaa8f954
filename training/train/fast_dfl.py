"""Rewrite an exported detector's box decoding (DFL) so onnxruntime runs it several times faster.

The Ultralytics export decodes each box side as the expectation of a 16-bin distribution:
``Reshape (b, 4, 16, a) -> Transpose (b, 16, 4, a) -> Softmax(axis=1) -> Conv 1x1 [0..15]``.
onnxruntime's CPU Softmax over a non-last axis transposes the tensor to and fro inside the
kernel: on a 608x480 input that one node took 7.5 of the detector's 52 ms (single thread,
``docs/experiments``). The same arithmetic with the bins last is
``Transpose (b, 4, a, 16) -> Softmax(axis=-1) -> MatMul [0..15]``: the readings agree to float
rounding (the sum's order; on the shipped detector, to the bit), and the model's inputs,
outputs and weights (by name, as ``training.train.onnx_init`` loads them) are unchanged.

    python -m training.train.fast_dfl models/detector.onnx models/detector.onnx

Only the training tools use this module (it needs the ``onnx`` package of the ``train`` extra).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


class NotADflDetector(ValueError):
    """The model has no DFL block of the exported shape (or it was rewritten already)."""


def rewrite_dfl(model):
    """``model`` with its ``Transpose -> Softmax(axis=1) -> Conv`` DFL replaced by the bins-last form."""
    from onnx import helper, numpy_helper

    graph = model.graph
    by_output = {o: n for n in graph.node for o in n.output}
    softmax = next((n for n in graph.node if n.op_type == "Softmax" and "dfl" in n.name
                    and any(at.name == "axis" and at.i == 1 for at in n.attribute)), None)
    transpose = by_output.get(softmax.input[0]) if softmax is not None else None
    conv = (next((n for n in graph.node if n.op_type == "Conv" and softmax.output[0] in n.input), None)
            if softmax else None)
    if transpose is None or transpose.op_type != "Transpose" or conv is None or \
            [list(at.ints) for at in transpose.attribute if at.name == "perm"] != [[0, 2, 1, 3]]:
        raise NotADflDetector("no DFL block Transpose(0, 2, 1, 3) -> Softmax(axis=1) -> Conv "
                              "(not a YOLO detector, or rewritten already)")
    weight = next(i for i in graph.initializer if i.name == conv.input[1])
    bins = numpy_helper.to_array(weight)
    if bins.shape[:2] != (1, bins.size) or len(conv.input) > 2:
        raise NotADflDetector(f"the DFL Conv is not a bias-free 1x1 projection (weight {bins.shape})")
    name = transpose.name
    # The projection keeps its weight (the name training.train.onnx_init loads it by), reshaped to (16, 1)
    # in the graph: onnxruntime folds that into a constant when it loads the model.
    bins_shape = numpy_helper.from_array(np.array([-1, 1], np.int64), f"{weight.name}__bins_last_shape")
    graph.initializer.append(bins_shape)
    new = [
        helper.make_node("Transpose", [transpose.input[0]], [f"{name}_bins_last"], name=f"{name}_bins_last",
                         perm=[0, 1, 3, 2]),
        helper.make_node("Softmax", [f"{name}_bins_last"], [f"{softmax.name}_last"],
                         name=f"{softmax.name}_last", axis=-1),
        helper.make_node("Reshape", [weight.name, bins_shape.name], [f"{weight.name}__bins_last"],
                         name=f"{conv.name}_bins_last"),
        helper.make_node("MatMul", [f"{softmax.name}_last", f"{weight.name}__bins_last"], [conv.output[0]],
                         name=f"{conv.name}_matmul"),
    ]
    at = list(graph.node).index(transpose)
    for old in (transpose, softmax, conv):
        graph.node.remove(old)
    for i, node in enumerate(new):
        graph.node.insert(at + i, node)
    replaced = (conv.output[0], softmax.output[0], transpose.output[0])
    stale = [v for v in graph.value_info if v.name in replaced]
    for v in stale:  # shapes recorded for the old layout
        graph.value_info.remove(v)
    return model


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.fast_dfl", description=__doc__.splitlines()[0])
    p.add_argument("model", type=Path, help="an exported YOLO detector (.onnx)")
    p.add_argument("out", type=Path, help="where to write the rewritten model (may be the same file)")
    a = p.parse_args(argv)
    import onnx

    from training.train.half_weights import load_model

    try:
        model = rewrite_dfl(load_model(a.model))
    except (ValueError, OSError) as e:
        print(f"error: {a.model}: {e}", file=sys.stderr)
        return 2
    onnx.checker.check_model(model)
    onnx.save(model, str(a.out))
    print(f"{a.out}: DFL rewritten bins-last")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
