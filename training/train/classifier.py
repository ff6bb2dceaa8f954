"""Train the index classifier (52 cards + ``none``) and export it to ONNX.

Input is a square crop around one detected corner index, cut from the
full-resolution photo; the card may lie at any angle, so the crops of the
training set already come in every rotation (the synth engine renders them).

    python -m training.train.classifier --data data/synth/cls --epochs 20 [--resume] [--glyph-aug]

``--glyph-aug`` also bends the glyphs and changes their stroke weight (``training.train.glyph_aug``), so that
a few hundred deck designs stand for many more; ``--blur-aug`` blurs crops in proportion to
themselves, as far as a person could still read them (``training.train.blur_aug``). Give them again with
``--resume``.
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

# YOLO11-cls at width 0.25 ("n") on 64 px crops: an index is ~20-60 px tall in a phone photo.
DEFAULT_DEPTH, DEFAULT_WIDTH = 0.5, 0.25


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.train.classifier",
                                description=__doc__.splitlines()[0])
    add_common_args(p, imgsz=64, epochs=20, batch=128)
    p.add_argument("--glyph-aug", action="store_true",
                   help="elastic warp and stroke weight on training crops (training.train.glyph_aug)")
    p.add_argument("--blur-aug", action="store_true",
                   help="defocus and motion blur on training crops, up to the legible limit "
                        "(training.train.blur_aug)")
    a = p.parse_args(argv)
    depth, width = a.depth or DEFAULT_DEPTH, a.width or DEFAULT_WIDTH
    classes = sorted(d.name for d in (Path(a.data) / "train").iterdir() if d.is_dir())
    run_dir = Path(a.project) / (a.name or "classifier")
    yaml_path = scaled_model_yaml("yolo11-cls.yaml", depth, width, 1024, nc=len(classes),
                                  out=run_dir.parent / f"{run_dir.name}.yaml")
    best = train_or_resume(
        yaml_path, run_dir, a.resume, a.init,
        trainer=crop_aug_trainer(a.seed, glyph=a.glyph_aug, blur=a.blur_aug),
        **common_train_args(a),
        # Never mirror (a flipped index is not a card); colour matters (red vs black suits).
        fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.4, erasing=0.2,
        scale=0.25,  # random-resized-crop keeps 75-100% of the crop: the index must stay in view
        auto_augment="randaugment", patience=100, cos_lr=True,
    )
    export_unless_told_not(a, best, "classify", depth, width, "classifier.onnx", glyph_aug=a.glyph_aug,
                           blur_aug=a.blur_aug)
    return 0


def crop_aug_trainer(seed: int, *, glyph: bool, blur: bool):
    """Ultralytics' classification trainer with our own crop augmentations put before its training
    transforms (validation crops are left as they are): :class:`training.train.glyph_aug.GlyphWarp` and then
    :class:`training.train.blur_aug.CameraBlur` (a blurred photo blurs whatever glyph the deck printed).
    ``None`` when neither is asked for: Ultralytics' own trainer."""
    if not (glyph or blur):
        return None
    import numpy as np
    from PIL import Image
    from torchvision import transforms
    from ultralytics.models.yolo.classify import ClassificationTrainer

    from training.train.blur_aug import CameraBlur
    from training.train.glyph_aug import GlyphWarp

    augs = [aug for aug, on in ((GlyphWarp(), glyph), (CameraBlur(), blur)) if on]

    class _OnPil:
        def __init__(self) -> None:
            self.augs, self.rng = augs, np.random.default_rng(seed)

        def __call__(self, im: Image.Image) -> Image.Image:
            out = np.asarray(im)
            for aug in self.augs:
                out = aug(out, self.rng)
            return Image.fromarray(out)

    class CropAugTrainer(ClassificationTrainer):
        def build_dataset(self, img_path: str, mode: str = "train", batch=None):
            ds = super().build_dataset(img_path, mode, batch)
            if mode == "train":
                ds.torch_transforms = transforms.Compose([_OnPil(), ds.torch_transforms])
            return ds

    return CropAugTrainer


if __name__ == "__main__":
    raise SystemExit(main())
