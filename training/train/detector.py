"""Train the corner-index detector (one class: ``index``) and export it to ONNX.

Why indices and not whole cards: in a fan or an overlapping row only a corner
index of most cards shows, and indices look alike across deck designs (a rank
over a suit), so they transfer from synthetic decks to real ones better than
whole faces. Two indices of one card are merged later by identity.

    python -m training.train.detector --data data/synth/yolo/data.yaml --epochs 30 [--resume]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from training.train.common import (
    add_common_args,
    common_train_args,
    export_unless_told_not,
    scaled_model_yaml,
    train_or_resume,
)

# Slim YOLO11 (depth 0.33, width 0.125): ~9x cheaper per image than YOLO11n at 640 on
# the 2-core CPU, and plenty for one class of small, high-contrast objects.
DEFAULT_DEPTH, DEFAULT_WIDTH = 0.33, 0.125


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.detector", description=__doc__.splitlines()[0])
    add_common_args(p, imgsz=480, epochs=30, batch=16)
    p.add_argument("--mosaic", type=float, default=0.5,
                   help="mosaic probability (cards cut by tiles add hard cases)")
    a = p.parse_args(argv)
    depth, width = a.depth or DEFAULT_DEPTH, a.width or DEFAULT_WIDTH
    run_dir = Path(a.project) / (a.name or "detector")
    yaml_path = scaled_model_yaml("yolo11.yaml", depth, width, 1024, nc=1,
                                  out=run_dir.parent / f"{run_dir.name}.yaml")
    best = train_or_resume(
        yaml_path, run_dir, a.resume, a.init,
        **common_train_args(a),
        # A mirrored index is not a card: never flip. Rotation/perspective come from the synth engine.
        fliplr=0.0, flipud=0.0, mosaic=a.mosaic, close_mosaic=max(1, a.epochs // 10),
        degrees=0.0, scale=0.4, translate=0.1, hsv_h=0.02, hsv_s=0.5, hsv_v=0.4,
        patience=100, cos_lr=True,
    )
    export_unless_told_not(a, best, "detect", depth, width, "detector.onnx")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
