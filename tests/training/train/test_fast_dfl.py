"""The detector's box decoding rewritten bins-last: the same boxes, a model rewritten once
(training.train.fast_dfl)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from training.train.fast_dfl import NotADflDetector, main, rewrite_dfl
from vision.config import MODELS_DIR

onnx = pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
# After the skip: onnx comes only with the train extra.
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

pytestmark = pytest.mark.train

ANCHORS = 300


def _dfl_model(path: Path) -> Path:
    """The export's DFL alone: (1, 64, a) logits -> (1, 4, a) expected distances."""
    shape4 = numpy_helper.from_array(np.array([1, 4, 16, ANCHORS], np.int64), "shape4")
    shape3 = numpy_helper.from_array(np.array([1, 4, ANCHORS], np.int64), "shape3")
    bins = numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(1, 16, 1, 1),
                                   "model.23.dfl.conv.weight")
    nodes = [
        helper.make_node("Reshape", ["x", "shape4"], ["r"], name="/model.23/dfl/Reshape"),
        helper.make_node("Transpose", ["r"], ["t"], name="/model.23/dfl/Transpose", perm=[0, 2, 1, 3]),
        helper.make_node("Softmax", ["t"], ["s"], name="/model.23/dfl/Softmax", axis=1),
        helper.make_node("Conv", ["s", "model.23.dfl.conv.weight"], ["c"], name="/model.23/dfl/conv/Conv"),
        helper.make_node("Reshape", ["c", "shape3"], ["y"], name="/model.23/dfl/Reshape_1"),
    ]
    graph = helper.make_graph(nodes, "dfl",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64, ANCHORS])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, ANCHORS])],
                              [shape4, shape3, bins])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def _run(path: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_the_rewritten_decoding_gives_the_same_distances(tmp_path):
    before = _dfl_model(tmp_path / "dfl.onnx")
    assert main([str(before), str(tmp_path / "fast.onnx")]) == 0
    x = np.random.default_rng(0).normal(0, 3, (1, 64, ANCHORS)).astype(np.float32)
    np.testing.assert_allclose(_run(tmp_path / "fast.onnx", x), _run(before, x), rtol=1e-6, atol=1e-5)
    ops = [n.op_type for n in onnx.load(str(tmp_path / "fast.onnx")).graph.node]
    assert "Conv" not in ops and "MatMul" in ops


def test_the_projection_keeps_its_weight_under_its_name(tmp_path):
    model = rewrite_dfl(onnx.load(str(_dfl_model(tmp_path / "dfl.onnx"))))
    names = {i.name for i in model.graph.initializer}
    assert "model.23.dfl.conv.weight" in names  # training.train.onnx_init loads the weights by name


def test_a_model_is_rewritten_once_and_a_classifier_never(tmp_path, capsys):
    model = rewrite_dfl(onnx.load(str(_dfl_model(tmp_path / "dfl.onnx"))))
    with pytest.raises(NotADflDetector):
        rewrite_dfl(model)
    assert main([str(MODELS_DIR / "classifier.onnx"), str(tmp_path / "c.onnx")]) == 2
    assert "no DFL block" in capsys.readouterr().err


def test_the_shipped_detector_is_rewritten():
    with pytest.raises(NotADflDetector):
        rewrite_dfl(onnx.load(str(MODELS_DIR / "detector.onnx")))
