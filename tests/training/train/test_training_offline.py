"""Training (from scratch, and on from an exported model), export and inference run with the network off.

A few synthetic scenes (one procedural deck, so no system art is needed), one epoch of
each model at a tiny image size, ONNX export, then the torch-free runtime on a scene.
The training and export steps run in a child process whose sockets refuse anything but
loopback (and, where the kernel allows it, inside a fresh network namespace with
``unshare -n``), so a hidden download, settings sync, font fetch or AMP-check weight
pull fails the test instead of quietly succeeding on a connected machine.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("ultralytics", reason="the train extra (torch, ultralytics) is not installed")
pytest.importorskip("PIL", reason="the synth extra is not installed")

from training.train.offline import PROJECT_ROOT

pytestmark = pytest.mark.train

# Installed into the child as sitecustomize: any connection off the loopback raises,
# and is written to a log the test reads back.
_GUARD = textwrap.dedent("""
    import os, socket
    _LOG = os.environ["NET_GUARD_LOG"]
    _LOCAL = ("127.", "::1", "localhost", "/")

    def _refuse(what):
        with open(_LOG, "a") as f:
            f.write(repr(what) + "\\n")
        raise OSError(101, "network is off in this test: " + repr(what))

    def _host(address):
        return str(address[0] if isinstance(address, tuple) else address)

    _connect = socket.socket.connect
    def connect(self, address):
        if not _host(address).startswith(_LOCAL):
            _refuse(address)
        return _connect(self, address)
    socket.socket.connect = connect

    _getaddrinfo = socket.getaddrinfo
    def getaddrinfo(host, *a, **k):
        if host is not None and not str(host).startswith(_LOCAL):
            _refuse(host)
        return _getaddrinfo(host, *a, **k)
    socket.getaddrinfo = getaddrinfo
""")


def _unshare_works() -> bool:
    tool = shutil.which("unshare")
    if not tool:
        return False
    try:
        return subprocess.run([tool, "-n", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.fixture(scope="module")
def offline_env(tmp_path_factory) -> tuple[dict, Path, list[str]]:
    guard_dir = tmp_path_factory.mktemp("net-guard")
    (guard_dir / "sitecustomize.py").write_text(_GUARD)
    log = guard_dir / "attempts.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(guard_dir), str(PROJECT_ROOT)])
    env["NET_GUARD_LOG"] = str(log)
    env["CUDA_VISIBLE_DEVICES"] = ""
    # A config dir of its own, so the test proves prepare_offline() sets it up from nothing.
    env["YOLO_CONFIG_DIR"] = str(tmp_path_factory.mktemp("yolo-config"))
    for proxy in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        env.pop(proxy, None)
    prefix = ["unshare", "-n"] if _unshare_works() else []
    return env, log, prefix


@pytest.fixture(scope="module")
def tiny_set(tmp_path_factory) -> Path:
    """Eight tiny scenes of one procedural deck: six to train on, two to validate."""
    from training.synth import decks as deckmod
    from training.synth.export import render_dataset

    out = tmp_path_factory.mktemp("tiny-synth")
    old = os.environ.get("CRIBCOUNT_CACHE")
    os.environ["CRIBCOUNT_CACHE"] = str(tmp_path_factory.mktemp("synth-cache"))
    deckmod._LOADED.clear()
    try:
        for split, n in (("train", 6), ("val", 2)):
            render_dataset(out, n, seed=5, split=split, size="320", workers=1, progress=False,
                           decks=["proc-classic"])
    finally:
        if old is None:
            os.environ.pop("CRIBCOUNT_CACHE", None)
        else:
            os.environ["CRIBCOUNT_CACHE"] = old
        deckmod._LOADED.clear()
    return out


def _train(module: str, args: list[str], env: dict, prefix: list[str]) -> None:
    cmd = [*prefix, sys.executable, "-m", module, *args]
    proc = subprocess.run(cmd, env=env, cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"{module} failed offline:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"


@pytest.mark.slow
def test_training_export_and_inference_run_with_the_network_off(tiny_set, offline_env, tmp_path):
    env, log, prefix = offline_env
    models = tmp_path / "models"
    common = ["--epochs", "1", "--workers", "0", "--device", "cpu", "--project", str(tmp_path / "runs")]

    _train("training.train.detector",
           ["--data", str(tiny_set / "yolo" / "data.yaml"), "--imgsz", "160", "--batch", "4",
            "--export-to", str(models / "detector.onnx"), *common], env, prefix)
    _train("training.train.classifier",
           ["--data", str(tiny_set / "cls"), "--imgsz", "32", "--batch", "16",
            "--export-to", str(models / "classifier.onnx"), *common], env, prefix)

    # A fine-tune that starts from an exported model (training.train.onnx_init rebuilds a checkpoint from it),
    # with the glyph-shape and camera-blur augmentations (their own trainer class).
    _train("training.train.classifier",
           ["--data", str(tiny_set / "cls"), "--imgsz", "32", "--batch", "16", "--name", "classifier-ft",
            "--init", str(models / "classifier.onnx"), "--export-to", str(models / "classifier2.onnx"),
            "--glyph-aug", "--blur-aug", *common],
           env, prefix)
    assert (tmp_path / "runs" / "classifier-ft-init.pt").exists()
    sidecar = json.loads((models / "classifier2.json").read_text())
    assert sidecar["glyph_aug"] is True and sidecar["blur_aug"] is True

    # A soup of the two (training.train.soup): one network with their weights averaged, as a third classifier.
    _train("training.train.soup",
           [str(tmp_path / "runs" / run / "weights" / "last.pt") for run in ("classifier", "classifier-ft")]
           + ["--out", str(models / "classifier3.onnx"), "--checkpoint", str(tmp_path / "soup.pt")],
           env, prefix)
    assert len(json.loads((models / "classifier3.json").read_text())["soup"]) == 2

    attempts = log.read_text().splitlines() if log.exists() else []
    assert attempts == [], f"training tried to reach the network: {attempts}"
    assert (tmp_path / "runs" / "detector" / "weights" / "last.pt").exists(), "no checkpoint to resume from"

    # The runtime: onnxruntime + OpenCV only, on the exported models (the fine-tune second, the soup third).
    detector_meta = json.loads((models / "detector.json").read_text())
    classifier_meta = json.loads((models / "classifier.json").read_text())
    assert detector_meta["imgsz"] == 160 and detector_meta["names"] == ["index"]
    assert len(classifier_meta["names"]) == 53 and "none" in classifier_meta["names"]

    from vision.detections import Detections
    from vision.pipeline import Recognizer

    photo = next((tiny_set / "yolo" / "images" / "val").glob("*.jpg"))
    found = Recognizer(models).recognize(photo)
    assert isinstance(found, Detections)  # one epoch on six images: what it finds does not matter here


@pytest.mark.parametrize("model", ["classifier.onnx", "detector.onnx"])
def test_a_shipped_model_rebuilds_into_a_checkpoint_that_computes_the_same(model, tmp_path):
    from ultralytics import YOLO

    from training.train.onnx_init import max_difference, rebuild, save_checkpoint

    onnx_path = PROJECT_ROOT / "models" / model
    imgsz = json.loads(onnx_path.with_suffix(".json").read_text())["imgsz"]
    tolerance = 1e-5 if model.startswith("classifier") else 1e-2  # probabilities; pixels of a 480 px input
    rebuilt = rebuild(onnx_path, n_calib=8)
    assert max_difference(onnx_path, rebuilt, imgsz) < tolerance
    reloaded = YOLO(str(save_checkpoint(rebuilt, tmp_path / "init.pt", onnx_path)))
    assert max_difference(onnx_path, reloaded, imgsz) < tolerance


@pytest.mark.parametrize("glyph,blur", [(True, False), (False, True), (True, True)])
def test_the_crop_aug_trainer_changes_training_crops_only(tiny_set, tmp_path, glyph, blur):
    from training.train.classifier import crop_aug_trainer
    from training.train.offline import prepare_offline

    prepare_offline()
    overrides = {"model": "yolo11n-cls.yaml", "data": str(tiny_set / "cls"), "imgsz": 32, "device": "cpu",
                 "workers": 0, "project": str(tmp_path), "name": "aug", "plots": False}
    trainer = crop_aug_trainer(seed=0, glyph=glyph, blur=blur)(overrides=overrides)
    train = trainer.build_dataset(str(tiny_set / "cls" / "train"), "train")
    val = trainer.build_dataset(str(tiny_set / "cls" / "val"), "val")
    ours = train.torch_transforms.transforms[0]
    assert [type(a).__name__ for a in ours.augs] == ["GlyphWarp"] * glyph + ["CameraBlur"] * blur
    assert all(type(t).__name__ != "_OnPil" for t in val.torch_transforms.transforms)
    assert train[0]["img"].shape == (3, 32, 32)


def test_no_crop_augmentation_keeps_ultralytics_own_trainer():
    from training.train.classifier import crop_aug_trainer

    assert crop_aug_trainer(seed=0, glyph=False, blur=False) is None


def test_training_on_the_cpu_computes_on_every_core(tiny_set, tmp_path):
    import torch

    from training.train.common import cpu_count, use_every_core
    from training.train.offline import prepare_offline

    prepare_offline()
    from ultralytics import YOLO
    from ultralytics.models.yolo.classify import ClassificationTrainer

    model = YOLO("yolo11n-cls.yaml")
    use_every_core(model)
    torch.set_num_threads(1)
    # Ultralytics' own choice on picking the CPU is cpu_count - 1 threads; the callback must win.
    overrides = {"model": "yolo11n-cls.yaml", "data": str(tiny_set / "cls"), "imgsz": 32, "device": "cpu",
                 "project": str(tmp_path), "name": "cores", "plots": False}
    ClassificationTrainer(overrides=overrides, _callbacks=model.callbacks)
    assert torch.get_num_threads() == cpu_count()


@pytest.mark.parametrize("command", ["training.train.classifier", "training.train.detector"])
def test_hours_hands_ultralytics_a_time_budget_and_no_budget_without_it(command, tiny_set, tmp_path,
                                                                        monkeypatch):
    import importlib

    module = importlib.import_module(command)
    seen = []
    monkeypatch.setattr(module, "train_or_resume", lambda *a, **k: seen.append(k) or tmp_path / "best.pt")
    data = tiny_set / ("cls" if command.endswith("classifier") else "yolo/data.yaml")
    common = ["--data", str(data), "--project", str(tmp_path), "--no-export", "--device", "cpu"]
    module.main([*common, "--hours", "0.25"])
    module.main(common)
    assert seen[0]["time"] == 0.25 and seen[1]["time"] is None


@pytest.mark.parametrize("hours", ["0", "-1", "soon"])
def test_hours_that_are_no_time_to_train_are_refused(hours, capsys):
    from training.train.classifier import main

    with pytest.raises(SystemExit) as stop:
        main(["--data", "anywhere", "--hours", hours])
    assert stop.value.code == 2 and "--hours" in capsys.readouterr().err


def test_a_relative_project_folder_is_where_the_run_is_looked_for(tmp_path, monkeypatch):
    # Ultralytics puts a relative project under its own runs folder (runs/classify/runs/NAME), so a
    # run given --project runs trained there, and its export looked for it in runs/NAME.
    import argparse

    from training.train.common import add_common_args

    monkeypatch.chdir(tmp_path)
    p = argparse.ArgumentParser()
    add_common_args(p, imgsz=96, epochs=1, batch=8)
    assert p.parse_args(["--data", "d", "--project", "runs"]).project == str((tmp_path / "runs").resolve())
