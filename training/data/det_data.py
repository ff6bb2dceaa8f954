"""Mix YOLO scene sets into one detector training set: image lists, with samples and repeats.

Fine-tuning the detector on a mix (some of the original renders so it keeps what it knew,
renders of decks it has not seen, and the few real photos of :mod:`training.data.real_scenes`
repeated to weigh them up) needs no copies: Ultralytics reads a ``.txt`` list of image
paths, and each image's labels sit beside it in ``labels/``. A source is written
``PATH[@TRAIN[/VAL]][*REPEAT]``: take TRAIN (and VAL) images at random from its
``images/train`` (``images/val``) instead of all of them, and list the train ones REPEAT
times. The draws are seeded, so a mix is the same list every time.

    python -m training.data.det_data --out data/detmix data/det/yolo@1200/150 data/det2/yolo@1200/100 data/realdet*4
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path

_SPEC = re.compile(r"^(?P<path>[^@*]+)(?:@(?P<train>\d+)(?:/(?P<val>\d+))?)?(?:\*(?P<repeat>\d+))?$")


@dataclass(frozen=True)
class SceneSource:
    """One YOLO scene set (``images/train``, ``images/val`` with ``labels/`` beside) and how much of it to use."""

    root: Path
    train: int | None = None
    """Images drawn from ``images/train``; ``None``: all."""
    val: int | None = None
    """Images drawn from ``images/val``; ``None``: all."""
    repeat: int = 1

    @classmethod
    def parse(cls, spec: str) -> SceneSource:
        m = _SPEC.match(spec)
        if not m:
            raise ValueError(f"{spec!r}: expected PATH[@TRAIN[/VAL]][*REPEAT], e.g. data/det/yolo@1200/150 or data/realdet*4")
        take = {k: int(m.group(k)) if m.group(k) else None for k in ("train", "val")}
        repeat = int(m.group("repeat") or 1)
        if repeat < 1:
            raise ValueError(f"{spec!r}: REPEAT must be at least 1")
        return cls(Path(m.group("path")), take["train"], take["val"], repeat)

    def images(self, split: str) -> list[Path]:
        folder = self.root / "images" / split
        if not folder.is_dir():
            raise ValueError(f"{folder}: no such folder (a YOLO scene set has images/train and images/val)")
        return sorted(p.resolve() for p in folder.glob("*.jpg"))


def mix(sources: list[SceneSource], seed: int) -> tuple[list[Path], list[Path]]:
    """(train list, val list). Every source's train draw comes before any val draw, in source order."""
    rng = random.Random(seed)

    def draw(images: list[Path], n: int | None) -> list[Path]:
        if n is None or n >= len(images):
            return images
        return rng.sample(images, n)

    # A draw of 0 reads no folder: a train-only scene set (rendered with ``--split train``) can
    # still give its images while the val images come from its sibling (``PATH@N/0``).
    train: list[Path] = []
    for s in sources:
        if s.train != 0:
            train += draw(s.images("train"), s.train) * s.repeat
    val: list[Path] = []
    for s in sources:
        if s.val != 0:
            val += draw(s.images("val"), s.val)
    return train, val


def write(out: Path, train: list[Path], val: list[Path]) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    (out / "train.txt").write_text("".join(f"{p}\n" for p in train))
    (out / "val.txt").write_text("".join(f"{p}\n" for p in val))
    data = out / "data.yaml"
    data.write_text(f"# Written by training.data.det_data.\npath: {out.resolve()}\ntrain: train.txt\nval: val.txt\n"
                    "names:\n  0: index\n")
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.det_data", description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=Path, help="folder for train.txt, val.txt and data.yaml")
    p.add_argument("sources", nargs="+", help="PATH[@TRAIN[/VAL]][*REPEAT]")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--val-from", type=Path, help="use this val.txt (another mix's) instead of drawing one")
    a = p.parse_args(argv)
    try:
        sources = [SceneSource.parse(s) for s in a.sources]
        train, val = mix(sources, a.seed)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if a.val_from:
        val = [Path(line) for line in a.val_from.read_text().split()]
    data = write(a.out, train, val)
    print(f"{data}: train {len(train)}, val {len(val)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
