"""Train the index classifier (52 cards + ``none``) and export it to ONNX.

Input is a square crop around one detected corner index, cut from the
full-resolution photo; the card may lie at any angle, so the crops of the
training set already come in every rotation (the synth engine renders them).

    python -m vision.train_classifier --data data/synth/cls --epochs 20 [--resume]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.train_common import add_common_args, export_unless_told_not, pick_device, scaled_model_yaml, train_or_resume

# YOLO11-cls at width 0.25 ("n") on 64 px crops: an index is ~20-60 px tall in a phone photo.
DEFAULT_DEPTH, DEFAULT_WIDTH = 0.5, 0.25


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train_classifier", description=__doc__.splitlines()[0])
    add_common_args(p, imgsz=64, epochs=20, batch=128)
    a = p.parse_args(argv)
    depth, width = a.depth or DEFAULT_DEPTH, a.width or DEFAULT_WIDTH
    classes = sorted(d.name for d in (Path(a.data) / "train").iterdir() if d.is_dir())
    run_dir = Path(a.project) / (a.name or "classifier")
    yaml_path = scaled_model_yaml("yolo11-cls.yaml", depth, width, 1024, nc=len(classes),
                                  out=run_dir.parent / f"{run_dir.name}.yaml")
    best = train_or_resume(
        yaml_path, run_dir, a.resume, a.init,
        data=a.data, imgsz=a.imgsz, epochs=a.epochs, batch=a.batch, workers=a.workers,
        device=pick_device(a.device), seed=a.seed, fraction=a.fraction, optimizer=a.optimizer, lr0=a.lr0,
        warmup_epochs=a.warmup_epochs,
        # Never mirror (a flipped index is not a card); colour matters (red vs black suits).
        fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.4, erasing=0.2,
        scale=0.25,  # random-resized-crop keeps 75-100% of the crop: the index must stay in view
        auto_augment="randaugment", patience=100, cos_lr=True,
    )
    export_unless_told_not(a, best, "classify", depth, width, "classifier.onnx")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
