"""Shared training plumbing for `train_detector` and `train_classifier` (Ultralytics).

Only ``vision/train_*.py`` import Ultralytics/torch; the runtime never does.
Models are built from Ultralytics' packaged architecture YAMLs with our own
compound scale (depth, width) and trained from scratch (``pretrained=False``):
no weights are ever downloaded.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
from pathlib import Path

from training.train.offline import PROJECT_ROOT, prepare_offline

MODELS_DIR = PROJECT_ROOT / "models"


def scaled_model_yaml(base: str, depth: float, width: float, max_channels: int, nc: int, out: Path) -> Path:
    """Write ``out``: Ultralytics' packaged ``base`` architecture at our own scale and class count."""
    prepare_offline()  # before the first import: Ultralytics probes DNS at import unless told it is offline
    import ultralytics
    import yaml

    matches = sorted(Path(ultralytics.__file__).parent.glob(f"cfg/models/**/{base}"))
    if not matches:
        raise FileNotFoundError(f"Ultralytics ships no architecture named {base}")
    cfg = yaml.safe_load(matches[0].read_text())
    cfg["scales"] = {"c": [depth, width, max_channels]}
    cfg["scale"] = "c"
    cfg["nc"] = nc
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return out


def pick_device(requested: str | None) -> str:
    """``requested`` if given, else the first CUDA GPU when one is lent, else the CPU."""
    if requested:
        return requested
    import torch

    return "0" if torch.cuda.is_available() else "cpu"


def add_common_args(p: argparse.ArgumentParser, *, imgsz: int, epochs: int, batch: int) -> None:
    p.add_argument("--data", required=True,
                   help="dataset (detect: data.yaml; classify: folder with train/val)")
    # Absolute: Ultralytics puts a relative project under its own runs folder (runs/classify/runs/NAME),
    # where resuming and exporting would not find the run.
    p.add_argument("--project", type=lambda s: str(Path(s).resolve()), default=str(PROJECT_ROOT / "runs"),
                   help="where runs and checkpoints go")
    p.add_argument("--name", required=False, help="run name (a folder under --project)")
    p.add_argument("--imgsz", type=int, default=imgsz, help="training image size in px")
    p.add_argument("--epochs", type=int, default=epochs, help="total epochs")
    # A lent GPU is lent for minutes: Ultralytics' time mode re-plans the epochs (and the cosine
    # schedule with them) after each one, so the run ends annealed inside the lease.
    p.add_argument("--hours", type=_positive_hours, default=None,
                   help="train for this long instead of --epochs (the schedule is fitted to it)")
    p.add_argument("--batch", type=int, default=batch, help="batch size")
    p.add_argument("--workers", type=int, default=2,
                   help="data-loader processes on a GPU "
                        "(on the CPU Ultralytics loads in the training process)")
    p.add_argument("--device", default=None, help="cpu, 0, ... (default: GPU if lent, else CPU)")
    p.add_argument("--depth", type=float, required=False, help="compound depth multiple")
    p.add_argument("--width", type=float, required=False, help="compound width multiple")
    p.add_argument("--resume", action="store_true", help="continue the run's last.pt checkpoint")
    p.add_argument("--init", default=None,
                   help="fine-tune from these weights: our own .pt checkpoint, or a shipped .onnx "
                        "(rebuilt, training.train.onnx_init)")
    p.add_argument("--fraction", type=float, default=1.0, help="use this fraction of the training set")
    p.add_argument("--export-to", default=None, help="ONNX path to write when done (default under models/)")
    p.add_argument("--no-export", action="store_true", help="train only")
    p.add_argument("--seed", type=int, default=0)
    # Ultralytics' "auto" optimizer picks AdamW at lr 0.002 * 5 / (4 + classes) for short runs:
    # 0.00018 for 53 classes, far too timid to train a classifier from scratch in a few epochs.
    p.add_argument("--optimizer", default="AdamW", help="SGD, Adam, AdamW, ... (default AdamW)")
    p.add_argument("--lr0", type=float, default=0.002, help="initial learning rate")
    p.add_argument("--warmup-epochs", type=float, default=3.0,
                   help="epochs of learning-rate warm-up (short fine-tunes from our own weights need less)")


def common_train_args(a: argparse.Namespace) -> dict:
    """What :func:`add_common_args` read, in the words of Ultralytics' ``train()``: every model trains
    with the same ones, its own augmentations beside them."""
    return {"data": a.data, "imgsz": a.imgsz, "epochs": a.epochs, "batch": a.batch, "workers": a.workers,
            "device": pick_device(a.device), "seed": a.seed, "fraction": a.fraction,
            "optimizer": a.optimizer, "lr0": a.lr0, "warmup_epochs": a.warmup_epochs, "time": a.hours}


def _positive_hours(text: str) -> float:
    """``--hours``: Ultralytics reads 0 as no time limit and a negative time as one already spent."""
    try:
        hours = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not hours > 0:
        raise argparse.ArgumentTypeError(f"{text}: the time to train must be more than 0 hours")
    return hours


def train_or_resume(model_yaml: Path, run_dir: Path, resume: bool, init: str | None = None, trainer=None,
                    **train_args) -> Path:
    """Train from scratch (or from ``init``, a checkpoint of ours or a shipped ONNX model), or resume
    ``run_dir/weights/last.pt``.

    ``trainer``: an Ultralytics trainer class to use instead of the task's own (a checkpoint does not
    record it, so a resumed run must be given it again). Returns the best checkpoint. ``init`` must
    be a local file: nothing is ever downloaded.
    """
    prepare_offline()
    from ultralytics import YOLO

    last = run_dir / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        use_every_core(model)
        model.train(trainer=trainer, resume=True)
    else:
        if resume:
            print(f"no checkpoint at {last}; starting a new run")
        if init and not Path(init).is_file():
            raise FileNotFoundError(f"--init {init}: no such checkpoint")
        if init and Path(init).suffix == ".onnx":  # a shipped model: rebuild a checkpoint from it
            from training.train.onnx_init import rebuild, save_checkpoint, training_images

            rebuilt = run_dir.parent / f"{run_dir.name}-init.pt"
            from_onnx = rebuild(Path(init), training_images(train_args["data"]), train_args.get("seed", 0))
            save_checkpoint(from_onnx, rebuilt, Path(init))
            init = str(rebuilt)
        # Ultralytics keeps a loaded checkpoint's weights only when pretrained is true.
        model = YOLO(str(init or model_yaml))
        use_every_core(model)
        model.train(trainer=trainer, project=str(run_dir.parent), name=run_dir.name, exist_ok=True,
                    pretrained=bool(init), amp=False, plots=False, **train_args)
    best = run_dir / "weights" / "best.pt"
    return best if best.exists() else last


def use_every_core(model) -> None:
    """Train on the CPU with a thread per core.

    Ultralytics sets torch to ``cpu_count - 1`` threads when it picks the CPU (and loads data in the
    training process there): one thread on a two-core machine, which left half of it idle. On this
    machine the width-0.375 classifier's batch of 128 at 96 px measured 2.0 s on one thread and 1.2 s
    on two. The callbacks run after Ultralytics has picked the device (when a trainer starts, and at
    each epoch, in case something picked it again in between).
    """

    def every_core(trainer) -> None:
        if trainer.device.type == "cpu":
            import torch

            torch.set_num_threads(cpu_count())

    model.add_callback("on_pretrain_routine_start", every_core)
    model.add_callback("on_train_epoch_start", every_core)


def cpu_count() -> int:
    """The cores this process may run on (a container's share, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def export_onnx(checkpoint: Path, out: Path, imgsz: int, metadata: dict) -> Path:
    """Export a checkpoint to ONNX (dynamic batch and size, so the classifier reads all of a photo's crops
    in one call; opset 17, which onnxruntime runs) and write the sidecar JSON the recognizer reads."""
    prepare_offline()
    from ultralytics import YOLO

    model = YOLO(str(checkpoint))
    produced = Path(model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True, opset=17))
    out.parent.mkdir(parents=True, exist_ok=True)
    if produced.resolve() != out.resolve():
        shutil.copyfile(produced, out)
    if metadata.get("task") == "detect":  # the same boxes, decoded faster (training.train.fast_dfl)
        import onnx

        from training.train.fast_dfl import rewrite_dfl

        onnx.save(rewrite_dfl(onnx.load(str(out))), str(out))
    names = model.names if isinstance(model.names, dict) else dict(enumerate(model.names))
    meta = {"imgsz": imgsz, "names": [names[i] for i in sorted(names)], **metadata}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    print(f"exported {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return out


def export_unless_told_not(a: argparse.Namespace, best: Path, task: str, depth: float, width: float,
                           default: str, **recorded) -> None:
    """The end of both training commands: export ``best`` to ``--export-to`` (or ``models/<default>``);
    ``recorded`` goes into the sidecar with how the model was trained."""
    if not a.no_export:
        export_onnx(best, Path(a.export_to or MODELS_DIR / default), a.imgsz,
                    {"task": task, "depth": depth, "width": width, "epochs": a.epochs, "data": a.data,
                     "init": a.init, **recorded})
