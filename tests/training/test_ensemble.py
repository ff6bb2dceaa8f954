"""Two classifiers joined into one file that puts out the mean of their readings (training.ensemble)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
import onnxruntime as ort  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from training.ensemble import join, main  # noqa: E402

NAMES = ["AS", "KH", "none"]


def _softmax_model(path: Path, seed: int, rows: int = 48, classes: int = len(NAMES)) -> Path:
    """softmax(x @ W): a stand-in classifier named as an Ultralytics export names its ends."""
    w = numpy_helper.from_array(np.random.default_rng(seed).normal(0, 0.5, (rows, classes)).astype(np.float32), "W")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["images", "W"], ["logits"]),
         helper.make_node("Softmax", ["logits"], ["output0"], axis=1)],
        "cls",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", rows])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", classes])],
        [w],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    path.with_suffix(".json").write_text(json.dumps({"imgsz": 96, "names": NAMES[:classes]}))
    return path


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    assert [i.name for i in session.get_inputs()] == ["images"]
    return session.run(None, {"images": x})[0]


def test_the_joined_file_reads_the_mean_of_the_two_readings(tmp_path):
    a, b = _softmax_model(tmp_path / "a.onnx", 0), _softmax_model(tmp_path / "b.onnx", 1)
    join(a, b, tmp_path / "ab.onnx")
    x = np.random.default_rng(2).normal(size=(5, 48)).astype(np.float32)
    ra, rb, rab = _run(a, x), _run(b, x), _run(tmp_path / "ab.onnx", x)
    assert not np.allclose(ra, rb)  # two different readers, or the test proves nothing
    assert np.allclose(rab, (ra + rb) / 2, atol=1e-6)
    assert np.allclose(rab.sum(axis=1), 1.0, atol=1e-5)  # still probabilities


def test_the_geometric_pair_reads_the_normalized_geometric_mean(tmp_path):
    a, b = _softmax_model(tmp_path / "a.onnx", 0), _softmax_model(tmp_path / "b.onnx", 1)
    join(a, b, tmp_path / "geo.onnx", geometric=True)
    x = np.random.default_rng(2).normal(size=(5, 48)).astype(np.float32)
    ra, rb, geo = _run(a, x), _run(b, x), _run(tmp_path / "geo.onnx", x)
    expected = np.sqrt(ra * rb)
    assert np.allclose(geo, expected / expected.sum(axis=1, keepdims=True), atol=1e-5)
    join(a, b, tmp_path / "mean.onnx")
    assert not np.allclose(geo, _run(tmp_path / "mean.onnx", x))


def test_halved_the_pair_weighs_what_one_did_and_names_its_members(tmp_path, capsys):
    a, b = _softmax_model(tmp_path / "a.onnx", 0, rows=512), _softmax_model(tmp_path / "b.onnx", 1, rows=512)
    out = tmp_path / "out" / "ab.onnx"
    assert main([str(a), str(b), str(out), "--half"]) == 0
    assert out.stat().st_size < 1.2 * a.stat().st_size
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["names"] == NAMES and meta["weights"] == "float16"
    assert meta["ensemble"] == [str(a), str(b)]
    x = np.random.default_rng(3).normal(size=(4, 512)).astype(np.float32)
    assert np.allclose(_run(out, x), (_run(a, x) + _run(b, x)) / 2, atol=1e-2)
    assert "MB" in capsys.readouterr().out


def test_classifiers_of_different_classes_are_refused_without_a_traceback(tmp_path, capsys):
    a, b = _softmax_model(tmp_path / "a.onnx", 0), _softmax_model(tmp_path / "b.onnx", 1, classes=2)
    assert main([str(a), str(b), str(tmp_path / "ab.onnx")]) == 2
    assert "differ" in capsys.readouterr().err
    assert not (tmp_path / "ab.onnx").exists()


def test_a_missing_member_is_refused_without_a_traceback(tmp_path, capsys):
    a = _softmax_model(tmp_path / "a.onnx", 0)
    assert main([str(a), str(tmp_path / "nothing.onnx"), str(tmp_path / "ab.onnx")]) == 2
    assert "no such model" in capsys.readouterr().err


def test_a_file_that_is_not_a_model_is_refused_without_a_traceback(tmp_path, capsys):
    a = _softmax_model(tmp_path / "a.onnx", 0)
    (tmp_path / "notes.onnx").write_text("these are not weights")
    (tmp_path / "notes.json").write_text(json.dumps({"imgsz": 96, "names": NAMES}))
    assert main([str(a), str(tmp_path / "notes.onnx"), str(tmp_path / "ab.onnx")]) == 2
    assert "not an ONNX model" in capsys.readouterr().err


def test_a_joined_pair_is_not_fine_tuned_as_one_network(tmp_path, capsys):
    from training.onnx_init import main as onnx_init

    a, b = _softmax_model(tmp_path / "a.onnx", 0), _softmax_model(tmp_path / "b.onnx", 1)
    assert main([str(a), str(b), str(tmp_path / "ab.onnx")]) == 0
    assert onnx_init([str(tmp_path / "ab.onnx"), str(tmp_path / "ab.pt")]) == 2
    assert "fine-tune each" in capsys.readouterr().err
    assert not (tmp_path / "ab.pt").exists()
