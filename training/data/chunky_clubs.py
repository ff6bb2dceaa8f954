"""A crop pack with the chunky-club designs' black crops cleaned and weighted, for the first classifier.

    python -m training.data.chunky_clubs .devdata/clsHpack --out .devdata/clsJpack --scenes data/rp3 data/rp3v \\
        [--source chunky] [--repeat 3] [--club-top -0.4] [--keep-clubs-from PX] [--zip-parts 5]

The chunky-club decks (:data:`training.synth.procedural.RANDOM_CHUNKY_DECKS`) were drawn to teach
clubs whose lobes fuse into a round head, the outline nearest a spade's. Some of them draw a top lobe
that hardly rises above the side ones (``club_top`` above -0.4), and at the sizes the scenes render
them those clubs are round blobs on a foot: a person reads them as spades too, and the first
classifier learnt the family poorly (docs/experiments, "Chunky clubs cleaned and weighted"). The
pack written here is the one read (``src``) with those designs' club crops left out, and every
other chunky club and spade crop repeated ``repeat`` times, so what is left of the family counts
for more. ``--keep-clubs-from PX`` keeps (and repeats) those designs' club crops cut PX or more
across: a crop's side follows the index's size in the scene (up to the pack's 96 px), and from about
80 px most of those clubs show their top lobe (docs/experiments, "`cls96H`'s own recipe on the
cleaned pack"). Everything else, val included, is kept as it is. Files are hard links into
``src`` (the same bytes, no re-encoding); ``--zip-parts`` writes the parts a lent GPU is sent.

A crop is traced to its design by its name: the crop-set source prefix ``training.data.cls_data`` gave it
(``chunky_``), then the scene it was cut from (``s305-train-000007``), whose label beside the
rendered scene (``<scenes>/yolo/images/<split>/<scene>.json``) names the deck.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections import Counter
from pathlib import Path

from training.data.crop_pack import write_zips
from training.synth.export import saved_scenes

AMBIGUOUS_CLUB_TOP = -0.4
"""A chunky design whose club's top lobe sits above this (in half-heights of the suit, -1 the top)
hardly rises over its side lobes: its clubs are left out of the pack."""
BLACK_SUITS = ("C", "S")


def ambiguous_designs(club_top: float = AMBIGUOUS_CLUB_TOP) -> frozenset[str]:
    """The chunky-club decks whose top lobe sits above ``club_top``."""
    from training.synth.procedural import RANDOM_CHUNKY_DECKS

    return frozenset(d.name for d in RANDOM_CHUNKY_DECKS if d.params["suit_shape"]["club_top"] > club_top)


def scene_decks(scene_dirs: list[Path]) -> dict[str, str]:
    """Scene name -> the deck it was rendered with, from the labels of each rendered set."""
    decks: dict[str, str] = {}
    for root in scene_dirs:
        found = {} if not (root / "yolo" / "images").is_dir() else {
            path.stem: label["deck"] for path, label in saved_scenes(root)}
        if not found:
            raise FileNotFoundError(f"{root} holds no scene labels (yolo/images/<split>/*.json): not a rendered set")
        decks.update(found)
    return decks


def copies(name: str, cls: str, *, source: str, decks: dict[str, str], ambiguous: frozenset[str],
           repeat: int, side: int = 0, keep_clubs_from: int = 0) -> int:
    """How many times the pack holds the train crop ``name`` of class ``cls`` (``side`` px across):
    0 for a club of an ambiguous chunky design, unless ``keep_clubs_from`` is set and the crop is
    that big; ``repeat`` for every other chunky club and spade (the ambiguous designs' spades among
    them, as the run measured had it), else 1."""
    prefix = f"{source}_"
    if not name.startswith(prefix) or not cls.endswith(BLACK_SUITS):
        return 1
    scene = name[len(prefix):].rsplit("_", 1)[0]
    if scene not in decks:
        raise ValueError(f"{name}: scene {scene} is not in the rendered sets given (--scenes)")
    small = not keep_clubs_from or side < keep_clubs_from
    return 0 if cls.endswith("C") and decks[scene] in ambiguous and small else repeat


def crop_side(path: Path) -> int:
    """A square crop's side in pixels. Read with OpenCV, not PIL: a process that has imported
    Ultralytics has PIL's ``Image.open`` patched to try installing a HEIF plugin on a bad file."""
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ValueError(f"{path}: not an image OpenCV can read")
    return int(image.shape[1])


def reweigh(src: Path, out: Path, *, decks: dict[str, str], ambiguous: frozenset[str], source: str = "chunky",
            repeat: int = 3, keep_clubs_from: int = 0) -> Counter:
    """Write the cleaned, weighted pack of ``src`` to ``out`` (hard links); returns counts of crops
    ``kept``, ``dropped`` and ``added`` (repeats) in train, and ``val`` crops."""
    if not (src / "train").is_dir():
        raise FileNotFoundError(f"{src}/train is missing: not a crop pack")
    if repeat < 1:
        raise ValueError("repeat must be 1 or more")
    if keep_clubs_from < 0:
        raise ValueError("--keep-clubs-from is a crop size in pixels, 0 or more")
    if out.exists():
        shutil.rmtree(out)
    counts: Counter = Counter()
    for split in ("train", "val"):
        for cdir in sorted(p for p in (src / split).iterdir() if p.is_dir()):
            dest = out / split / cdir.name
            dest.mkdir(parents=True, exist_ok=True)
            for f in sorted(cdir.iterdir()):
                if split == "val":
                    os.link(f, dest / f.name)
                    counts["val"] += 1
                    continue
                n = copies(f.stem, cdir.name, source=source, decks=decks, ambiguous=ambiguous, repeat=repeat)
                if n == 0 and keep_clubs_from:  # an ambiguous design's club: is it big enough to keep?
                    n = copies(f.stem, cdir.name, source=source, decks=decks, ambiguous=ambiguous, repeat=repeat,
                               side=crop_side(f), keep_clubs_from=keep_clubs_from)
                for k in range(n):
                    os.link(f, dest / (f.name if k == 0 else f"{f.stem}_x{k + 1}{f.suffix}"))
                counts["kept" if n else "dropped"] += 1
                counts["added"] += max(n - 1, 0)
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.chunky_clubs", description=__doc__.splitlines()[0])
    p.add_argument("src", type=Path, help="crop pack (train/ and val/ class folders; training.data.crop_pack)")
    p.add_argument("--out", required=True, type=Path, help="pack folder to (re)write, on the same disk")
    p.add_argument("--scenes", nargs="+", type=Path, required=True,
                   help="the rendered sets the source's crops were cut from (their labels name the decks)")
    p.add_argument("--source", default="chunky", help="the crop-set source name the chunky crops carry")
    p.add_argument("--repeat", type=int, default=3, help="copies of each kept chunky club and spade crop")
    p.add_argument("--club-top", type=float, default=AMBIGUOUS_CLUB_TOP,
                   help="leave out the clubs of chunky designs whose top lobe sits above this")
    p.add_argument("--keep-clubs-from", type=int, default=0, metavar="PX",
                   help="keep those designs' club crops PX or more across (0: leave them all out)")
    p.add_argument("--zip-parts", type=int, default=0, help="also write OUT.1.zip ... OUT.N.zip (1: one OUT.zip)")
    a = p.parse_args(argv)
    try:
        counts = reweigh(a.src, a.out, decks=scene_decks(a.scenes), ambiguous=ambiguous_designs(a.club_top),
                         source=a.source, repeat=a.repeat, keep_clubs_from=a.keep_clubs_from)
    except (OSError, ValueError) as e:  # a missing folder, a crop that is not an image
        print(f"chunky_clubs: {e}", file=sys.stderr)
        return 2
    if a.zip_parts:
        for z in write_zips(a.out, a.zip_parts):
            print(f"{z}: {z.stat().st_size / 1e6:.1f} MB")
    print(f"{a.out}: train {counts['kept']} kept, {counts['dropped']} clubs left out, {counts['added']} repeats; "
          f"val {counts['val']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
