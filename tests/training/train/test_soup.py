"""Model soups: the mean of fine-tunes' weights, only of one network (training.train.soup)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the train extra (torch, ultralytics) is not installed")
pytest.importorskip("ultralytics", reason="the train extra (torch, ultralytics) is not installed")

import torch

from training.train.soup import architecture, average_checkpoints, main

pytestmark = pytest.mark.train


def _checkpoint(folder: Path, name: str, seed: int, width: float = 0.25) -> Path:
    """An untrained classifier saved the way Ultralytics saves one (half precision, no EMA)."""
    from ultralytics.nn.tasks import ClassificationModel

    from training.synth.export import CLASS_NAMES
    from training.train.common import scaled_model_yaml
    from training.train.offline import prepare_offline

    prepare_offline()
    cfg = scaled_model_yaml("yolo11-cls.yaml", 0.5, width, 1024, len(CLASS_NAMES), folder / f"{name}.yaml")
    torch.manual_seed(seed)
    net = ClassificationModel(str(cfg), nc=len(CLASS_NAMES), verbose=False)
    net.names = dict(enumerate(CLASS_NAMES))
    path = folder / f"{name}.pt"
    torch.save({"model": net.half(), "ema": None, "train_args": {"imgsz": 32}}, path)
    return path


def _weights(checkpoint: dict) -> dict[str, torch.Tensor]:
    return {k: v.float() for k, v in checkpoint["model"].state_dict().items()}


def test_a_soup_holds_the_mean_of_its_ingredients_weights(tmp_path):
    a, b = _checkpoint(tmp_path, "a", 0), _checkpoint(tmp_path, "b", 1)
    wa, wb = _weights(torch.load(a, weights_only=False)), _weights(torch.load(b, weights_only=False))
    soup = average_checkpoints([a, b])
    ws = _weights(soup)
    name = "model.0.conv.weight"
    assert not torch.equal(wa[name], wb[name])
    assert torch.allclose(ws[name], (wa[name] + wb[name]) / 2, atol=1e-3)  # stored in half precision
    assert soup["soup"] == [str(a), str(b)]


def test_a_soup_of_a_network_with_itself_is_that_network(tmp_path):
    a = _checkpoint(tmp_path, "a", 0)
    wa = _weights(torch.load(a, weights_only=False))
    ws = _weights(average_checkpoints([a, a]))
    assert all(torch.equal(ws[k], wa[k]) for k in wa)


def test_the_sidecar_names_the_architecture(tmp_path):
    soup = average_checkpoints([_checkpoint(tmp_path, "a", 0), _checkpoint(tmp_path, "b", 1)])
    assert architecture(soup) == {"task": "classify", "depth": 0.5, "width": 0.25}


def test_networks_of_different_shapes_do_not_mix(tmp_path):
    with pytest.raises(ValueError, match="not the same network"):
        average_checkpoints([_checkpoint(tmp_path, "a", 0), _checkpoint(tmp_path, "wide", 0, width=0.5)])


def test_one_checkpoint_is_no_soup(tmp_path):
    with pytest.raises(ValueError, match="at least two"):
        average_checkpoints([_checkpoint(tmp_path, "a", 0)])


def test_the_command_names_a_missing_checkpoint(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "nowhere.pt"), str(tmp_path / "nor.pt"), "--out", str(tmp_path / "soup.onnx")])
    assert stop.value.code == 2
    assert "no such checkpoint" in capsys.readouterr().err
