"""``python -m training recipe MODEL``: how each shipped model is made from nothing, one command a model.

    python -m training recipe detector|classifier|classifier2|classifier3 [--root DIR] [--tiny]

Each runs the lab's own commands in order (printing each, as one would type it), renders its
data (:mod:`training.data.sources`), harvests real crops and scenes, packs, trains and writes the
model with its sidecar into ``ROOT/models``. A step whose output is there is skipped, and an
interrupted training run goes on from its ``last.pt``: run it again to resume. ``--tiny`` renders a
few scenes, reads a few real photos and trains one epoch a run: minutes, to prove the commands
still run (the lab tests do); its models are not models.

The harvests vouch for what they keep with the shipped models (``--harvest-with``), as the
first classifier's pack was made: the long chain that first made them, each harvest read with
the models of its day and every model since dropped, is history (``docs/experiments/``; the
script that replayed it is named in ``training/README.md``).
"""

from __future__ import annotations

import argparse
import importlib
import shlex
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from training.data.real_crops import class_table
from training.data.sources import RENDERS, crop_sources
from training.train.offline import PROJECT_ROOT

PHOTOS = PROJECT_ROOT.parent / "shared" / "photos" / "poker-cards-4-train"
"""The real training photos, read where they lie (never poker-cards-4, the validation set)."""
THIRD_PARENT = ("6d90e92", "models/classifier.onnx")
"""The third classifier is the first classifier of the release before (``cls96U0c``) fine-tuned with
camera blur: its start is that file, at the commit that last shipped it."""
TINY_PHOTOS = 8


@dataclass(frozen=True)
class Plan:
    """Where a recipe reads and writes, and at what scale."""

    root: Path
    tiny: bool = False
    photos: Path = PHOTOS
    harvest_with: Path = PROJECT_ROOT / "models"
    third_parent: Path | None = None

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def runs(self) -> Path:
        return self.root / "runs"

    def epochs(self, full: int) -> str:
        return "1" if self.tiny else str(full)

    def export(self, name: str) -> Path:
        return self.runs / "export" / f"{name}.onnx"


def run(module: str, args: Sequence[object]) -> None:
    """One lab command, printed as it would be typed, run in this process; a failure stops the recipe."""
    argv = [str(a) for a in args]
    print(f"\n$ python -m {module} {shlex.join(argv)}", flush=True)
    code = importlib.import_module(module).main(argv)
    if code:
        raise RuntimeError(f"python -m {module} failed (exit {code})")


def render(plan: Plan, *names: str) -> None:
    """Draw each named render unless it is done (its ``yolo/data.yaml``, written last, is there)."""
    for name in names:
        out = plan.data / name
        if not (out / "yolo" / "data.yaml").is_file():
            run("training.synth.cli", ["--out", out, *RENDERS[name].args(plan.tiny)])
        (out / "cls" / "train").mkdir(parents=True, exist_ok=True)  # a val-only render has no train crops


def train(plan: Plan, kind: str, name: str, data: Path, args: Sequence[object]) -> Path:
    """A training run named ``name`` (resumable), exported to ``runs/export/NAME.onnx`` unless it is."""
    out = plan.export(name)
    if not out.is_file():
        run(f"training.train.{kind}", ["--data", data, "--project", plan.runs, "--name", name, "--resume",
                                       "--export-to", out, *args])
    return out


def photos(plan: Plan) -> Path:
    """The real training photos; at tiny scale the first few, linked into a set of their own."""
    if not plan.tiny:
        return plan.photos
    small = plan.data / "photos-tiny"
    if not (small / "SOURCE.md").is_file():
        for sub in ("images", "labels"):
            (small / sub).mkdir(parents=True, exist_ok=True)
        for image in sorted((plan.photos / "images").glob("*.jpg"))[:TINY_PHOTOS]:
            (small / "images" / image.name).symlink_to(image)
            (small / "labels" / f"{image.stem}.txt").symlink_to(plan.photos / "labels" / f"{image.stem}.txt")
        shutil.copyfile(class_table(plan.photos), small / "SOURCE.md")
    return small


def harvest(plan: Plan) -> tuple[Path, Path, Path]:
    """``none`` crops where the detector fires off the indices of the numbered-board renders, real index
    crops vouched for by the photos' whole-card labels, and the real cards' middles as ``none``."""
    render(plan, "nbT", "nbV")
    mined, real, mid = plan.data / "nbM", plan.data / "realcls4", plan.data / "realmid4"
    models, real_photos = plan.harvest_with, photos(plan)
    if not (mined / "train").is_dir():
        run("training.data.mined_crops", ["--scenes", plan.data / "nbT", plan.data / "nbV", "--out", mined,
                                          "--models", models, "--per-scene", 4, "--seed", 5011])
    if not (real / "train").is_dir():
        run("training.data.real_crops", ["--photos", real_photos, "--out", real, "--models", models,
                                         "--copies", 2, "--index-confidence", 0.1])
    if not (mid / "train").is_dir():
        run("training.data.real_crops", ["--photos", real_photos, "--out", mid, "--models", models,
                                         "--copies", 0, "--middle-none", 4, "--seed", 19])
    return mined, real, mid


def every_crop(plan: Plan) -> list[str]:
    """The crop sources of the first two classifiers: every render's crops and the harvests."""
    render(plan, "det", "det2", "hires", "hires2", "hires3", "rp", "rpv", "old")
    return crop_sources(plan.data, *harvest(plan))


def detector(plan: Plan) -> Path:
    """``detector.onnx``: a slim YOLO11 from scratch, 47 epochs at 480 px, on the 640 px renders,
    close-ups cut from the phone-size ones, renders of every training deck and the real scenes
    three times, packed at 480 px (docs/experiments/33)."""
    render(plan, "det", "hires", "det608", "det640")
    data = plan.data
    if not (data / "closeups" / "data.yaml").is_file():
        run("training.data.close_ups", [data / "hires" / "yolo", "--out", data / "closeups", "--per-scene", 2,
                                        "--seed", 5])
    if not (data / "realdetShip" / "images" / "train").is_dir():
        run("training.data.real_scenes", ["--photos", photos(plan), "--out", data / "realdetShip",
                                          "--models", plan.harvest_with])
    run("training.data.det_data", ["--out", data / "detS", "--seed", 3, f"{data}/det/yolo@3400/150",
                                   f"{data}/closeups@2009/50", f"{data}/det608/yolo@1200/0",
                                   f"{data}/det640/yolo@600/0", f"{data}/realdetShip*3"])
    if not (data / "detSpack" / "data.yaml").is_file():
        run("training.data.scene_pack", [data / "detS", "--out", data / "detSpack", "--max-side", 480,
                                         "--quality", 80])
    return train(plan, "detector", "det480S", data / "detSpack" / "data.yaml",
                 ["--epochs", plan.epochs(47), "--imgsz", 480, "--depth", 0.33, "--width", 0.125,
                  "--lr0", 0.002, "--warmup-epochs", 1, "--seed", 71])


def classifier2(plan: Plan) -> Path:
    """``classifier2.onnx``: a wider YOLO11-cls from scratch with camera blur, 40 epochs on every crop
    source, then one epoch with more ``none`` crops (docs/experiments/24 and 36)."""
    data = plan.data
    render(plan, "rp2")
    run("training.data.cls_data", ["--out", data / "clsG", *every_crop(plan), f"rp2={data / 'rp2' / 'cls'}"])
    if not (data / "clsGpack" / "train").is_dir():
        run("training.data.crop_pack", [data / "clsG", "--out", data / "clsGpack", "--half", "det_",
                                        "--half", "rp_", "--drop", "rp2_", "--none", 8000,
                                        "--val-fraction", 0.15, "--seed", 7,
                                        "--max-side", 96])
    if not (data / "clsGft" / "train").is_dir():
        drops = [arg for source in ("det_", "det2_", "rp_", "rp2_", "old_") for arg in ("--drop", source)]
        run("training.data.crop_pack", [data / "clsG", "--out", data / "clsGft", *drops, "--none", 20000,
                                        "--val-fraction", 0.15, "--seed", 8, "--max-side", 96])
    wide = ["--imgsz", 96, "--depth", 0.5, "--width", 0.375, "--blur-aug"]
    train(plan, "classifier", "cls96G", data / "clsGpack",
          ["--epochs", plan.epochs(40), "--batch", 256, "--lr0", 0.002, "--warmup-epochs", 1, "--seed", 93,
           *wide])
    return train(plan, "classifier", "cls96Gft", data / "clsGft",
                 ["--epochs", 1, "--batch", 128, "--lr0", 0.0003, "--warmup-epochs", 0.1, "--seed", 95, *wide,
                  "--init", plan.runs / "cls96G" / "weights" / "best.pt"])


def classifier(plan: Plan) -> Path:
    """``classifier.onnx``: a YOLO11-cls from scratch with camera blur and the chunky clubs, 30 epochs;
    fine-tuned 2 epochs with those clubs cleaned and weighted; the two averaged (docs/experiments/38-46)."""
    data = plan.data
    render(plan, "rp3", "rp3v")
    chunky = [f"chunky={data / 'rp3' / 'cls'}", f"chunkyv={data / 'rp3v' / 'cls'}"]
    run("training.data.cls_data", ["--out", data / "clsH", *every_crop(plan), *chunky])
    if not (data / "clsHpack" / "train").is_dir():
        run("training.data.crop_pack", [data / "clsH", "--out", data / "clsHpack", "--half", "det_",
                                        "--half", "rp_", "--none", 8000, "--val-fraction", 0.15, "--seed", 7,
                                        "--max-side", 96])
    if not (data / "clsJpack" / "train").is_dir():
        run("training.data.chunky_clubs", [data / "clsHpack", "--out", data / "clsJpack",
                                           "--scenes", data / "rp3", data / "rp3v"])
    first = ["--imgsz", 96, "--depth", 0.5, "--width", 0.25, "--blur-aug"]
    train(plan, "classifier", "cls96H", data / "clsHpack",
          ["--epochs", plan.epochs(30), "--batch", 256, "--lr0", 0.002, "--warmup-epochs", 1, "--seed", 93,
           *first])
    best = plan.runs / "cls96H" / "weights" / "best.pt"
    train(plan, "classifier", "cls96J", data / "clsJpack",
          ["--epochs", plan.epochs(2), "--batch", 128, "--lr0", 0.0003, "--warmup-epochs", 0.1, "--seed", 97,
           *first, "--init", best])
    out = plan.export("classifier-soupHJ")
    if not out.is_file():
        run("training.train.soup", [best, plan.runs / "cls96J" / "weights" / "best.pt", "--out", out])
    return out


def classifier3(plan: Plan) -> Path:
    """``classifier3.onnx``: the release before's first classifier fine-tuned 4 epochs with camera blur
    on the numbered-board renders and the harvests, packed small (docs/experiments/17)."""
    data = plan.data
    mined, real, mid = harvest(plan)
    if not (data / "clsNBpack" / "train").is_dir():
        run("training.data.cls_data", ["--out", data / "clsNB", f"nb={data / 'nbT' / 'cls'}",
                                       f"nbv={data / 'nbV' / 'cls'}", f"mined={mined}:2", f"real={real}:2",
                                       f"mid={mid}"])
        run("training.data.crop_pack", [data / "clsNB", "--out", data / "clsNBpack", "--half", "real_",
                                        "--drop", "real2_", "--none", 6000, "--val-fraction", 0.25,
                                        "--seed", 7])
    return train(plan, "classifier", "cls96blur", data / "clsNBpack",
                 ["--epochs", plan.epochs(4), "--imgsz", 96, "--batch", 256, "--lr0", 0.0003,
                  "--warmup-epochs", 0.1, "--seed", 71, "--blur-aug", "--init", third_parent(plan)])


def third_parent(plan: Plan) -> Path:
    """The third classifier's start: ``--third-parent``, else the file at the commit that shipped it."""
    if plan.third_parent is not None:
        return plan.third_parent
    out = plan.runs / "parent" / "classifier-96U0c.onnx"
    if not out.is_file():
        commit, path = THIRD_PARENT
        out.parent.mkdir(parents=True, exist_ok=True)
        for suffix in (".onnx", ".json"):
            spec = f"{commit}:{Path(path).with_suffix(suffix)}"
            git = ["git", "-C", str(PROJECT_ROOT), "show", spec]
            blob = subprocess.run(git, capture_output=True, check=False)
            if blob.returncode:
                raise ValueError(f"the third classifier's start is {path} at commit {commit}, which this "
                                 "checkout's history lacks: name it with --third-parent")
            out.with_suffix(suffix).write_bytes(blob.stdout)
    return out


MODELS: dict[str, Callable[[Plan], Path]] = {
    "detector": detector, "classifier": classifier, "classifier2": classifier2, "classifier3": classifier3}


def ship(model: Path, models_dir: Path, name: str) -> None:
    """The export and its sidecar, as ``models_dir/NAME.onnx`` and ``NAME.json``."""
    models_dir.mkdir(parents=True, exist_ok=True)
    for suffix in (".onnx", ".json"):
        shutil.copyfile(model.with_suffix(suffix), (models_dir / name).with_suffix(suffix))
    print(f"\n{name}: {model} -> {models_dir / name}.onnx")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training recipe", description=__doc__.splitlines()[0])
    p.add_argument("model", choices=sorted(MODELS), help="which shipped model to make")
    p.add_argument("--root", type=Path, default=PROJECT_ROOT,
                   help="where data/, runs/ and models/ are (default: this checkout)")
    p.add_argument("--tiny", action="store_true",
                   help="a few scenes and photos, one epoch: checks the commands")
    p.add_argument("--photos", type=Path, default=PHOTOS, help="the real training photos (whole-card labels)")
    p.add_argument("--harvest-with", type=Path, default=PROJECT_ROOT / "models",
                   help="the models the harvests read with (default: the shipped ones)")
    p.add_argument("--third-parent", type=Path, default=None,
                   help="the third classifier's start (.onnx with its .json)")
    a = p.parse_args(argv)
    if a.tiny and a.root.resolve() == PROJECT_ROOT:
        p.error("--tiny makes models that are not models: give it a --root of its own")
    if not (a.photos / "images").is_dir():
        p.error(f"{a.photos}: no real training photos there (images/, labels/, SOURCE.md)")
    plan = Plan(a.root.resolve(), a.tiny, a.photos.resolve(), a.harvest_with.resolve(), a.third_parent)
    ship(MODELS[a.model](plan), plan.root / "models", a.model)
    return 0
