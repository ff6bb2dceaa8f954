"""A detector mix made small enough to send to a lent GPU: its scenes shrunk and re-encoded as WebP.

A lent accelerator is sent the working tree and at most 64 MiB with it per call, about 30 MB of
data beside the tracked tree; a mix of :mod:`training.data.det_data` lists some 7,000 scenes rendered at
640–2,600 px, near a gigabyte. The detector trains at 480 px, so a scene larger than
``--max-side`` is shrunk to it first (area averaging; YOLO labels are fractions of the image and
stay as they are) and written as WebP at ``--quality``: about 20 KB a scene instead of 60–400.
Each scene is written once, named by the place of its source folder in the mix and its own
name (two sets may both hold ``s11-train-000000``), and the mix's repeats live in the pack's
``train.txt``, whose lines are relative to it (``./images/train/...``: Ultralytics reads a list's
``./`` lines from the list's own folder), so the pack trains wherever it is unpacked.

    python -m training.data.scene_pack data/detS --out .devdata/detSpack --max-side 480 --zip-parts 5
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np

from training.data.crop_pack import write_zips
from training.data.yolo import label_of
from training.train.blur_aug import blur_as_camera
from vision.detect import to_long_side

BLUR_PX = (0.6, 2.0)
"""The blur of a blurred copy (a Gaussian's sigma, or a motion streak's length / sqrt(12)) in px of
the packed scene: up to what a hand-held photo in lamplight shows (`cribcount eval --blur 2`, 2 px on
a 640 px photo, is 1.5 px at 480)."""


def camera_blur(img: np.ndarray, rng: np.random.Generator, motion_share: float = 0.35) -> np.ndarray:
    """The scene blurred as a camera blurs it, by a blur drawn from :data:`BLUR_PX`."""
    return blur_as_camera(img, rng.uniform(*BLUR_PX), rng, motion_share)


def read_list(path: Path) -> list[Path]:
    """The image paths of a mix's ``train.txt`` / ``val.txt``, in order, repeats kept."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such list (a mix written by training.data.det_data has train.txt and val.txt)")
    return [Path(line) for line in path.read_text().split()]


def packed_name(image: Path, folders: dict[Path, int]) -> str:
    """``K_STEM``: K numbers the image's folder in the order the mix first names it."""
    k = folders.setdefault(image.parent, len(folders))
    return f"{k}_{image.stem}"


def pack(mix: Path, out: Path, *, max_side: int = 480, quality: int = 80, blurred: float = 0.0,
         seed: int = 0) -> tuple[int, int, int]:
    """Write the pack of the mix folder ``mix`` to ``out``; returns (scenes, train lines, bytes).

    ``blurred``: the share of training scenes that also get a blurred copy (:func:`camera_blur`,
    drawn with ``seed``), listed as often as the scene itself. The renders blur whole photos, mostly
    lightly; a fine-tune with such copies was measured once and read blurred photos no better
    (docs/experiments, "A detector from scratch with close-ups, on a lent GPU")."""
    lists = {split: read_list(mix / f"{split}.txt") for split in ("train", "val")}
    if out.exists():
        shutil.rmtree(out)
    rng = np.random.default_rng(seed)
    folders: dict[Path, int] = {}
    written: dict[Path, list[str]] = {}
    size = train_lines = 0
    for split, images in lists.items():
        lines = []
        for image in images:
            if image not in written:
                name = packed_name(image, folders)
                img = cv2.imread(str(image))
                if img is None:
                    raise ValueError(f"{image}: not an image")
                if max(img.shape[:2]) > max_side:
                    img = to_long_side(img, max_side)
                copies = [(name, img)]
                if split == "train" and blurred > 0 and rng.random() < blurred:
                    copies.append((f"{name}-blur", camera_blur(img, rng)))
                written[image] = []
                labels = _labels(image)
                for stem, pixels in copies:
                    data = cv2.imencode(".webp", pixels, [cv2.IMWRITE_WEBP_QUALITY, quality])[1].tobytes()
                    for kind, payload in (("images", data), ("labels", labels)):
                        dest = out / kind / split / (f"{stem}.webp" if kind == "images" else f"{stem}.txt")
                        dest.parent.mkdir(parents=True, exist_ok=True)
                        dest.write_bytes(payload)
                    written[image].append(f"./images/{split}/{stem}.webp")
                    size += len(data)
            lines += written[image]
        (out / f"{split}.txt").write_text("".join(f"{line}\n" for line in lines))
        if split == "train":
            train_lines = len(lines)
    # No `path:` line: Ultralytics then reads train/val relative to this file's own folder.
    (out / "data.yaml").write_text("# Written by training.data.scene_pack.\ntrain: train.txt\nval: val.txt\n"
                                   "names:\n  0: index\n")
    return sum(map(len, written.values())), train_lines, size


def _labels(image: Path) -> bytes:
    label = label_of(image)
    # A scene with no index in view has no label file (Ultralytics reads that as a background image).
    return label.read_bytes() if label.is_file() else b""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.scene_pack", description=__doc__.splitlines()[0])
    p.add_argument("mix", type=Path, help="a mix folder written by training.data.det_data (train.txt, val.txt)")
    p.add_argument("--out", required=True, type=Path, help="pack folder to (re)write")
    p.add_argument("--max-side", type=int, default=480, help="shrink larger scenes to this many px (area)")
    p.add_argument("--quality", type=int, default=80, help="WebP quality")
    p.add_argument("--zip-parts", type=int, default=0, help="also write OUT.1.zip ... OUT.N.zip, every Nth file each")
    p.add_argument("--blurred", type=float, default=0.0, help="this share of training scenes also gets a blurred copy")
    p.add_argument("--seed", type=int, default=0, help="seed for which scenes get a blurred copy, and how blurred")
    a = p.parse_args(argv)
    if a.max_side < 32 or a.zip_parts < 0 or not 1 <= a.quality <= 100 or not 0 <= a.blurred <= 1:
        p.error("--max-side must be 32 or more, --zip-parts 0 or more, --quality 1-100, --blurred 0-1")
    try:
        scenes, lines, size = pack(a.mix, a.out, max_side=a.max_side, quality=a.quality, blurred=a.blurred,
                                   seed=a.seed)
    except (FileNotFoundError, ValueError) as e:
        print(f"scene_pack: {e}", file=sys.stderr)
        return 2
    if a.zip_parts:
        for z in write_zips(a.out, a.zip_parts, pattern="*"):
            print(f"{z}: {z.stat().st_size / 1e6:.1f} MB")
    print(f"{a.out}: {scenes} scenes ({lines} train lines), {size / 1e6:.1f} MB of images")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
