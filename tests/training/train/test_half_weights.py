"""Weights stored as 16-bit floats: half the file, the same float32 model at run time
(training.train.half_weights)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from training.train.half_weights import MIN_ELEMENTS, half_weights, main

onnx = pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
# After the skip: onnx comes only with the train extra.
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

pytestmark = pytest.mark.train


def _dense_model(path: Path, rows: int = 64, cols: int = 32) -> Path:
    """y = x @ W + b: one weight big enough to halve, one bias too small to."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.normal(0, 0.5, (rows, cols)).astype(np.float32), "W")
    b = numpy_helper.from_array(rng.normal(0, 0.5, (cols,)).astype(np.float32), "b")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["xw"]), helper.make_node("Add", ["xw", "b"], ["y"])],
        "dense",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [None, rows])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, cols])],
        [w, b],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.save(model, str(path))
    return path


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": x})[0]


def test_halved_weights_give_the_same_outputs_from_half_the_file(tmp_path):
    src = _dense_model(tmp_path / "dense.onnx")
    before, after = half_weights(src, tmp_path / "half.onnx")
    assert after < 0.6 * before
    x = np.random.default_rng(1).normal(size=(4, 64)).astype(np.float32)
    full, half = _run(src, x), _run(tmp_path / "half.onnx", x)
    assert half.dtype == np.float32
    assert np.allclose(full, half, atol=2e-2)  # weights rounded to 11 significant bits
    assert not np.array_equal(full, half)  # and rounded they were


def test_small_tensors_stay_float32(tmp_path):
    src = _dense_model(tmp_path / "dense.onnx")
    half_weights(src, tmp_path / "half.onnx")
    kinds = {t.name: t.data_type for t in onnx.load(str(tmp_path / "half.onnx")).graph.initializer}
    assert kinds == {"W__f16": TensorProto.FLOAT16, "b": TensorProto.FLOAT}


def test_a_model_with_nothing_to_halve_is_refused(tmp_path):
    src = _dense_model(tmp_path / "tiny.onnx", rows=4, cols=4)
    assert 4 * 4 < MIN_ELEMENTS
    with pytest.raises(ValueError, match="no float32 weights"):
        half_weights(src, tmp_path / "half.onnx")


def test_the_command_copies_the_sidecar_and_says_so(tmp_path, capsys):
    src = _dense_model(tmp_path / "dense.onnx")
    src.with_suffix(".json").write_text(json.dumps({"imgsz": 96, "names": ["AS"]}))
    assert main([str(src), str(tmp_path / "out" / "half.onnx")]) == 0
    meta = json.loads((tmp_path / "out" / "half.json").read_text())
    assert meta == {"imgsz": 96, "names": ["AS"], "weights": "float16"}
    assert "MB ->" in capsys.readouterr().out


def test_the_command_reports_a_missing_model_without_a_traceback(tmp_path, capsys):
    assert main([str(tmp_path / "nothing.onnx"), str(tmp_path / "half.onnx")]) == 2
    assert "is not a file" in capsys.readouterr().err


def test_a_fine_tune_from_a_halved_model_reads_its_weights_under_their_own_names(tmp_path):
    from training.train.onnx_init import _onnx_weights

    src = _dense_model(tmp_path / "dense.onnx")
    half_weights(src, tmp_path / "half.onnx")
    full, halved = _onnx_weights(src), _onnx_weights(tmp_path / "half.onnx")
    assert halved.keys() == full.keys() == {"W", "b"}
    assert halved["W"].dtype == np.float32
    assert np.allclose(halved["W"], full["W"], atol=1e-3)
    assert np.array_equal(halved["b"], full["b"])


def test_a_file_that_is_not_a_model_is_refused_without_a_traceback(tmp_path, capsys):
    (tmp_path / "notes.onnx").write_text("these are not weights")
    assert main([str(tmp_path / "notes.onnx"), str(tmp_path / "half.onnx")]) == 2
    assert "not an ONNX model" in capsys.readouterr().err
