"""Merge classifier crop sets into one Ultralytics classify folder, by hard links.

The classifier trains on crops from several sources at once: the 640 px detector scenes
(small, blurry indices), the phone-size scenes (sharp ones), and real crops harvested from
``poker-cards-4-train`` (:mod:`training.data.real_crops`). Each source is a folder with
``train/`` and ``val/`` class folders; a source can be repeated in the train split to weigh
it up (the real crops are few next to the synthetic ones). Links, not copies: the merged
set costs no disk and is rebuilt in seconds.

    python -m training.data.cls_data --out data/clsft det=data/det/cls hires=data/hires/cls:2 real=data/realcls:3
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

SPLITS = ("train", "val")


@dataclass(frozen=True)
class Source:
    """One crop set: ``name`` prefixes its files, ``repeat`` copies go into train."""

    name: str
    root: Path
    repeat: int = 1

    @classmethod
    def parse(cls, spec: str) -> Source:
        """``name=path[:repeat]``, as given on the command line."""
        if "=" not in spec:
            raise ValueError(f"{spec!r}: expected name=path[:repeat]")
        name, rest = spec.split("=", 1)
        path, _, repeat = rest.partition(":")
        return cls(name=name, root=Path(path), repeat=int(repeat) if repeat else 1)


def merge(out: Path, sources: list[Source]) -> dict[str, int]:
    """Link every source's crops into ``out/{train,val}/<class>/``; returns files per split.

    Validation crops are linked once whatever the repeat, so the val figure is not skewed. A
    source may hold one split only (scenes rendered ``--split val`` write ``val/`` alone).
    """
    if out.exists():
        shutil.rmtree(out)
    counts = dict.fromkeys(SPLITS, 0)
    for src in sources:
        if not any((src.root / split).is_dir() for split in SPLITS):
            raise FileNotFoundError(f"{src.root} holds neither train/ nor val/: not a crop set")
        for split in SPLITS:
            for class_dir in sorted(p for p in (src.root / split).glob("*") if p.is_dir()):
                dest = out / split / class_dir.name
                dest.mkdir(parents=True, exist_ok=True)
                copies = src.repeat if split == "train" else 1
                for f in sorted(class_dir.iterdir()):
                    for r in range(copies):
                        suffix = "" if r == 0 else str(r + 1)
                        os.link(f, dest / f"{src.name}{suffix}_{f.name}")
                        counts[split] += 1
    # Ultralytics wants the same classes in train and val.
    for split in SPLITS:
        other = SPLITS[1 - SPLITS.index(split)]
        for class_dir in (out / split).iterdir():
            (out / other / class_dir.name).mkdir(parents=True, exist_ok=True)
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.cls_data", description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=Path, help="merged folder to (re)build")
    p.add_argument("sources", nargs="+", help="name=folder[:repeat], each folder holding train/ and val/")
    a = p.parse_args(argv)
    try:
        counts = merge(a.out, [Source.parse(s) for s in a.sources])
    except (ValueError, FileNotFoundError) as e:
        print(f"cls_data: {e}", file=sys.stderr)
        return 2
    print(f"{a.out}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
