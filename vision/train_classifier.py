"""Train the index classifier (52 cards + ``none``) and export it to ONNX.

Input is a square crop around one detected corner index, cut from the
full-resolution photo; the card may lie at any angle, so the crops of the
training set already come in every rotation (the synth engine renders them).

    python -m vision.train_classifier --data data/synth/cls --epochs 20 [--resume] [--glyph-aug]

``--glyph-aug`` also bends the glyphs and changes their stroke weight (``vision.glyph_aug``), so that
a few hundred deck designs stand for many more; give it again with ``--resume``.
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
    p.add_argument("--glyph-aug", action="store_true",
                   help="elastic warp and stroke weight on training crops (vision.glyph_aug)")
    a = p.parse_args(argv)
    depth, width = a.depth or DEFAULT_DEPTH, a.width or DEFAULT_WIDTH
    classes = sorted(d.name for d in (Path(a.data) / "train").iterdir() if d.is_dir())
    run_dir = Path(a.project) / (a.name or "classifier")
    yaml_path = scaled_model_yaml("yolo11-cls.yaml", depth, width, 1024, nc=len(classes),
                                  out=run_dir.parent / f"{run_dir.name}.yaml")
    best = train_or_resume(
        yaml_path, run_dir, a.resume, a.init, trainer=glyph_aug_trainer(a.seed) if a.glyph_aug else None,
        data=a.data, imgsz=a.imgsz, epochs=a.epochs, batch=a.batch, workers=a.workers,
        device=pick_device(a.device), seed=a.seed, fraction=a.fraction, optimizer=a.optimizer, lr0=a.lr0,
        warmup_epochs=a.warmup_epochs,
        # Never mirror (a flipped index is not a card); colour matters (red vs black suits).
        fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.4, erasing=0.2,
        scale=0.25,  # random-resized-crop keeps 75-100% of the crop: the index must stay in view
        auto_augment="randaugment", patience=100, cos_lr=True,
    )
    export_unless_told_not(a, best, "classify", depth, width, "classifier.onnx", glyph_aug=a.glyph_aug)
    return 0


def glyph_aug_trainer(seed: int):
    """Ultralytics' classification trainer with :class:`vision.glyph_aug.GlyphWarp` put before its own
    training transforms (validation crops are left as they are)."""
    import numpy as np
    from PIL import Image
    from torchvision import transforms
    from ultralytics.models.yolo.classify import ClassificationTrainer

    from vision.glyph_aug import GlyphWarp

    class _PilGlyphWarp:
        def __init__(self) -> None:
            self.warp, self.rng = GlyphWarp(), np.random.default_rng(seed)

        def __call__(self, im: Image.Image) -> Image.Image:
            return Image.fromarray(self.warp(np.asarray(im), self.rng))

    class GlyphAugTrainer(ClassificationTrainer):
        def build_dataset(self, img_path: str, mode: str = "train", batch=None):
            ds = super().build_dataset(img_path, mode, batch)
            if mode == "train":
                ds.torch_transforms = transforms.Compose([_PilGlyphWarp(), ds.torch_transforms])
            return ds

    return GlyphAugTrainer


if __name__ == "__main__":
    raise SystemExit(main())
