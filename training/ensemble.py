"""Two classifiers as one ONNX file that averages their readings (training tools only).

A model soup (:mod:`training.soup`) averages two networks' *weights*, and works only for networks
from one start; two classifiers trained apart (the shipped first classifier and one from scratch
on another crop pack) read different things well and average only in what they *say*. This joins
two ONNX classifiers with the same input and classes into one graph: the crop batch goes to both,
and the output is the mean of their two probability vectors, so the recognizer reads the file as
it reads any classifier (float32 crops in, float32 probabilities out) and nothing at run time
needs to know. Pass ``--half`` to store the weights as 16-bit floats (:mod:`training.half_weights`),
so the pair weighs what one classifier did.

    python -m training.ensemble models/classifier.onnx runs/export/classifier-96soupJ0.onnx \\
        runs/candE/classifier.onnx --half

The ``.json`` sidecar of the first is written beside the output with the members named under
``"ensemble"``. Such a file cannot be fine-tuned (:mod:`training.onnx_init` refuses it): fine-tune
its members and join them again.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

PROB_FLOOR = 1e-12
"""Probabilities are floored here before their log (a softmax can round to 0 in float32)."""

PREFIXES = ("m0_", "m1_")
"""Each member's names are prefixed so the two graphs' weights and nodes do not collide."""


def join(first: Path, second: Path, dst: Path, geometric: bool = False) -> None:
    """Write to ``dst`` one model that feeds its input to ``first`` and ``second`` and puts out
    the mean of their outputs, or with ``geometric`` their normalized geometric mean (the softmax
    of their mean log-probabilities: where the two doubt between different cards, sharper than
    the plain mean). Both must take one input and give one output of the same shape."""
    import onnx
    from onnx import compose, helper, numpy_helper

    from training.half_weights import load_model

    models = [load_model(first), load_model(second)]
    for path, model in zip((first, second), models):
        if len(model.graph.input) != 1 or len(model.graph.output) != 1:
            raise ValueError(f"{path}: a classifier has one input and one output")
    shapes = [[d.dim_value for d in m.graph.output[0].type.tensor_type.shape.dim] for m in models]
    if shapes[0][1:] != shapes[1][1:]:
        raise ValueError(f"{second}: its output {shapes[1]} differs from {first}'s {shapes[0]}")
    opset = max(o.version for m in models for o in m.opset_import if o.domain in ("", "ai.onnx"))
    in_name, out_name = models[0].graph.input[0].name, models[0].graph.output[0].name
    nodes, inits, outs = [], [], []
    for prefix, model in zip(PREFIXES, models):
        model = compose.add_prefix(model, prefix)
        g = model.graph
        member_in = g.input[0].name
        for node in g.node:
            node.input[:] = [in_name if n == member_in else n for n in node.input]
        nodes.extend(g.node)
        inits.extend(g.initializer)
        outs.append(g.output[0].name)
    if geometric:
        floor = numpy_helper.from_array(np.array(PROB_FLOOR, dtype=np.float32), "ensemble_floor")
        inits.append(floor)
        logs = []
        for i, out in enumerate(outs):
            nodes.append(helper.make_node("Max", [out, floor.name], [f"{out}_floored"], name=f"ensemble_floor{i}"))
            nodes.append(helper.make_node("Log", [f"{out}_floored"], [f"{out}_log"], name=f"ensemble_log{i}"))
            logs.append(f"{out}_log")
        nodes.append(helper.make_node("Mean", logs, ["ensemble_log_mean"], name="ensemble_mean"))
        nodes.append(helper.make_node("Softmax", ["ensemble_log_mean"], [out_name], axis=1, name="ensemble_softmax"))
    else:
        nodes.append(helper.make_node("Mean", outs, [out_name], name="ensemble_mean"))
    graph = helper.make_graph(nodes, "ensemble", [models[0].graph.input[0]], [models[0].graph.output[0]], inits)
    joined = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    joined.ir_version = models[0].ir_version
    onnx.checker.check_model(joined)
    dst.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(joined, str(dst))


def _first_meta(first: Path, second: Path) -> dict:
    """The first member's sidecar, once the second's names the same classes and input size."""
    metas = [json.loads(p.with_suffix(".json").read_text()) for p in (first, second)]
    if metas[0]["names"] != metas[1]["names"] or metas[0]["imgsz"] != metas[1]["imgsz"]:
        raise ValueError(f"{second}: its classes or input size differ from {first}'s")
    return metas[0]


def _write_sidecar(meta: dict, first: Path, second: Path, dst: Path, half: bool, geometric: bool) -> None:
    meta = dict(meta)
    meta["ensemble"] = [str(first), str(second)]
    meta["ensemble_mean"] = "geometric" if geometric else "arithmetic"
    if half:
        meta["weights"] = "float16"
    dst.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m training.ensemble", description=__doc__.split("\n\n")[0])
    ap.add_argument("first", type=Path, help="a classifier .onnx (its .json sidecar beside it)")
    ap.add_argument("second", type=Path, help="another, with the same classes and input size")
    ap.add_argument("out", type=Path, help="the joined .onnx to write")
    ap.add_argument("--half", action="store_true", help="store the weights as 16-bit floats")
    ap.add_argument("--geometric", action="store_true",
                    help="average the log-probabilities (a normalized geometric mean), not the probabilities")
    args = ap.parse_args(argv)
    try:
        for p in (args.first, args.second):
            if not p.is_file() or not p.with_suffix(".json").is_file():
                raise ValueError(f"{p}: no such model, or no .json sidecar beside it")
        meta = _first_meta(args.first, args.second)
        if args.half:
            from training.half_weights import half_weights

            with tempfile.TemporaryDirectory() as tmp:
                joined = Path(tmp) / "joined.onnx"
                join(args.first, args.second, joined, args.geometric)
                half_weights(joined, args.out)
        else:
            join(args.first, args.second, args.out, args.geometric)
        _write_sidecar(meta, args.first, args.second, args.out, args.half, args.geometric)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
