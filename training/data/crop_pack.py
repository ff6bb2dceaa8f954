"""A smaller copy of a classifier crop set, re-encoded as WebP: what one call to a lent GPU carries.

A lent accelerator is sent the working tree and at most 64 MiB with it per call; a crop set of
50,000 JPEG crops is about 200 MB. The pack keeps every crop of the sources named in full, half
of those named ``--half`` (a source repeated by :mod:`training.data.cls_data` keeps one copy: ``--drop``
the copy), ``--none`` of the ``none`` class at most, and ``--val-fraction`` of the val split,
drawn with one seeded generator in a fixed order, so the same set and arguments give the same
pack. WebP at quality 75 is a third of the JPEGs' bytes; the training reads it as it reads JPEG.
``--max-side`` shrinks a crop larger than the classifier's input to it first (area averaging): the
training resizes every crop to that size anyway, and a 160 px crop costs two and a half 96 px ones.

    python -m training.data.crop_pack data/clsNB --out data/clsNBpack --half real_ --drop real2_ \\
        --none 6000 --val-fraction 0.25 --seed 7 [--zip | --zip-parts N] [--max-side 96]
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

import cv2

from vision.detect import to_long_side


def pick(files: list[Path], split: str, cls: str, rng: random.Random, *, half: tuple[str, ...],
         drop: tuple[str, ...], none: int, val_fraction: float) -> list[Path]:
    """Which of one class folder's crops (sorted) the pack keeps."""
    if split == "val":
        # At least one crop of a class that has any: a tiny set (RETRAIN_TINY) must not pack an empty
        # val class, which Ultralytics refuses. A pack of a real set keeps the share as it was.
        share = int(len(files) * val_fraction)
        return rng.sample(files, max(share, 1) if files and val_fraction > 0 else share)
    if cls == "none":
        return rng.sample(files, min(none, len(files)))
    halved = [f for f in files if f.name.startswith(half)]
    kept = [f for f in files if not f.name.startswith(half + drop)]
    return kept + rng.sample(halved, len(halved) // 2)


def pack(src: Path, out: Path, *, half: tuple[str, ...] = (), drop: tuple[str, ...] = (), none: int = 6000,
         val_fraction: float = 0.25, quality: int = 75, seed: int = 7,
         max_side: int | None = None) -> tuple[int, int]:
    """Write the pack of ``src`` (train/ and val/ class folders) to ``out``; returns (crops, bytes)."""
    if not (src / "train").is_dir():
        raise FileNotFoundError(f"{src}/train is missing: not a crop set")
    if out.exists():
        shutil.rmtree(out)
    rng = random.Random(seed)
    n = size = 0
    for split in ("train", "val"):
        for cdir in sorted(p for p in (src / split).iterdir() if p.is_dir()):
            dest = out / split / cdir.name
            dest.mkdir(parents=True, exist_ok=True)
            for f in pick(sorted(cdir.iterdir()), split, cdir.name, rng, half=half, drop=drop, none=none,
                          val_fraction=val_fraction):
                img = cv2.imread(str(f))
                if img is None:
                    raise ValueError(f"{f}: not an image")
                if max_side and max(img.shape[:2]) > max_side:
                    img = to_long_side(img, max_side)
                data = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, quality])[1].tobytes()
                (dest / f"{f.stem}.webp").write_bytes(data)
                n, size = n + 1, size + len(data)
    return n, size


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.crop_pack", description=__doc__.splitlines()[0])
    p.add_argument("src", type=Path, help="crop set (train/ and val/ class folders)")
    p.add_argument("--out", required=True, type=Path, help="pack folder to (re)write")
    p.add_argument("--half", action="append", default=[], help="keep half the crops whose names start so")
    p.add_argument("--drop", action="append", default=[], help="keep none of the crops whose names start so")
    p.add_argument("--none", type=int, default=6000, help="at most this many none crops")
    p.add_argument("--val-fraction", type=float, default=0.25, help="this share of each val class")
    p.add_argument("--quality", type=int, default=75, help="WebP quality")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--max-side", type=int, default=None, help="shrink larger crops to this many px (area)")
    p.add_argument("--zip", action="store_true", help="also write OUT.zip (stored, not compressed: WebP is)")
    p.add_argument("--zip-parts", type=int, default=1, help="write OUT.1.zip ... OUT.N.zip instead, every Nth crop each")
    a = p.parse_args(argv)
    if a.zip_parts < 1 or (a.max_side is not None and a.max_side < 1):
        p.error("--zip-parts and --max-side must be 1 or more")
    try:
        n, size = pack(a.src, a.out, half=tuple(a.half), drop=tuple(a.drop), none=a.none,
                       val_fraction=a.val_fraction, quality=a.quality, seed=a.seed,
                       max_side=a.max_side)
    except (FileNotFoundError, ValueError) as e:
        print(f"crop_pack: {e}", file=sys.stderr)
        return 2
    if a.zip or a.zip_parts > 1:
        for z in write_zips(a.out, a.zip_parts):
            print(f"{z}: {z.stat().st_size / 1e6:.1f} MB")
    print(f"{a.out}: {n} crops, {size / 1e6:.1f} MB")
    return 0


def write_zips(out: Path, parts: int = 1, pattern: str = "*.webp") -> list[Path]:
    """The pack as ``OUT.zip`` (stored, not compressed: WebP is), or as ``OUT.1.zip`` ... ``OUT.N.zip``
    holding every Nth file matching ``pattern`` each, when one call to a lent GPU cannot carry the
    whole pack beside the working tree; unzipped into one folder, the parts are the pack again."""
    import zipfile

    names = [out.with_suffix(".zip")] if parts <= 1 else [out.with_suffix(f".{i}.zip") for i in range(1, parts + 1)]
    zips = [zipfile.ZipFile(name, "w", zipfile.ZIP_STORED) for name in names]
    try:
        for i, f in enumerate(sorted(f for f in out.rglob(pattern) if f.is_file())):
            zips[i % len(zips)].write(f, Path(out.name) / f.relative_to(out))
    finally:
        for z in zips:
            z.close()
    return names


if __name__ == "__main__":
    raise SystemExit(main())
