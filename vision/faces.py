"""The middles of whole card faces, cut square from rendered scenes: a second witness to the indices.

Every reading the recognizer makes is of a corner index, and on the held-out renders most misses
are indices too small, blurred or covered to read surely. A card lying flat and apart shows its
suit again in pips several times the index's size, and a number card its rank in their count.
This cuts, for every face-up card of a rendered set mostly in view, the middle of its face
(:data:`MIDDLE`: the corner indices left out), rectified upright by the label's four corners and
shrunk to a square, filed by card as a classifier's folder (``train/5H/...``, ``val/5H/...``):
training data for a face classifier from the training decks' renders, and a test of one from the
held-out decks' (models/HISTORY.md, "The card's face as a second witness"). The corners come from
the labels, so what it measures is a reader of faces found perfectly; the recognizer does not use
one: faces found by a plain contour round the indices are those of cards already read, and joined
to the indices they changed nothing (models/HISTORY.md, "The card's face found on the table").

    python -m vision.faces --out data/faceC --val-fraction 0.1 data/faceR data/faceS
"""

from __future__ import annotations

import argparse
import json
import zlib
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

MIDDLE = (0.2, 0.8, 0.06, 0.94)
"""The part of the upright face kept (x0, x1, y0, y1 as fractions of its width and height): the
columns of the corner indices cut off, the pips' full height kept."""
FACE_PX = (96, 144)
"""The upright face's size before its middle is cut (a card's 2.5 x 3.5 inches, about)."""


def face_middle(img: np.ndarray, corners: Sequence[Sequence[float]], size: int = 64) -> np.ndarray:
    """The middle of the card whose corners (top-left, top-right, bottom-right, bottom-left of the
    card as printed, in ``img`` pixels) are given: rectified upright, cut to :data:`MIDDLE`, and
    shrunk to ``size`` x ``size``."""
    w, h = FACE_PX
    src = np.float32(corners).reshape(4, 2)
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    face = cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA)
    x0, x1, y0, y1 = MIDDLE
    middle = face[round(y0 * h):round(y1 * h), round(x0 * w):round(x1 * w)]
    return cv2.resize(middle, (size, size), interpolation=cv2.INTER_AREA)


def cut_faces(folder: str | Path, out: str | Path, *, val_fraction: float = 0.0, min_visible: float = 0.95,
              min_width: float = 24.0, size: int = 64) -> int:
    """Write the face middles of a rendered set (``cribcount synth`` labels) under ``out``, filed
    ``train/<card>/`` or ``val/<card>/`` (a scene goes to val by a hash of its name, about
    ``val_fraction`` of them). A card counts when it is face up, at least ``min_visible`` of it in
    view, and ``min_width`` px wide or more. Returns how many were written."""
    written = 0
    for label in sorted(Path(folder).rglob("*.json")):
        data = json.loads(label.read_text())
        if "cards" not in data or "image" not in data:
            continue
        split = "val" if zlib.crc32(label.stem.encode()) % 1000 < val_fraction * 1000 else "train"
        img = None
        for k, card in enumerate(data["cards"]):
            corners = np.float32(card.get("corners", np.zeros((4, 2))))
            if (not card.get("face_up", True) or card.get("visible_fraction", 0.0) < min_visible
                    or np.linalg.norm(corners[0] - corners[1]) < min_width):
                continue
            if img is None:
                img = cv2.imread(str(label.parent / data["image"]))
            path = Path(out) / split / card["card"] / f"{label.stem}_{k}.png"
            path.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(path), face_middle(img, corners, size))
            written += 1
    return written


def read_faces(weights: str | Path, folder: str | Path) -> dict[str, dict[str, float]]:
    """A face classifier's readings (an Ultralytics checkpoint: training extra only) of the face
    middles under ``folder`` (filed by card, as :func:`cut_faces` writes them), apart for number
    cards (ace to ten: pips) and courts (figures): how many, and the share read right as a card,
    by suit, by rank, and of those read at 0.9 or more how many and the share right."""
    from ultralytics import YOLO

    from vision.offline import prepare_offline

    prepare_offline()
    model = YOLO(str(weights))
    files = sorted(Path(folder).rglob("*.png"))
    tally: dict[str, dict[str, float]] = {kind: dict.fromkeys(("faces", "card", "suit", "rank", "sure", "sure_right"), 0)
                                          for kind in ("number", "court")}
    for i in range(0, len(files), 256):
        batch = files[i:i + 256]
        for path, result in zip(batch, model.predict([str(f) for f in batch], imgsz=64, verbose=False, device="cpu")):
            truth, read = path.parent.name, model.names[int(result.probs.top1)]
            t = tally["court" if truth[:-1] in ("J", "Q", "K") else "number"]
            t["faces"] += 1
            t["card"] += read == truth
            t["suit"] += read[-1] == truth[-1]
            t["rank"] += read[:-1] == truth[:-1]
            if float(result.probs.top1conf) >= 0.9:
                t["sure"] += 1
                t["sure_right"] += read == truth
    for t in tally.values():
        for key in ("card", "suit", "rank"):
            t[key] /= max(t["faces"], 1)
        t["sure_right"] /= max(t["sure"], 1)
    return tally


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.faces", description=__doc__.split("\n\n")[0])
    p.add_argument("folders", nargs="+", help="rendered sets (cribcount synth output)")
    p.add_argument("--out", required=True, help="the classifier folder to write (train/ and val/ by card)")
    p.add_argument("--val-fraction", type=float, default=0.0, help="about this share of scenes go to val/")
    p.add_argument("--min-visible", type=float, default=0.95, help="the least share of a card in view")
    p.add_argument("--read-with", metavar="WEIGHTS",
                   help="then read the faces written with this face classifier (an Ultralytics .pt) and print "
                        "how many it reads right, number cards and courts apart")
    a = p.parse_args(argv)
    for folder in a.folders:
        if not Path(folder).is_dir():
            p.error(f"{folder} is not a folder")
    if a.read_with and not Path(a.read_with).is_file():
        p.error(f"{a.read_with}: no such file")
    n = sum(cut_faces(f, a.out, val_fraction=a.val_fraction, min_visible=a.min_visible) for f in a.folders)
    print(f"{n} face middles written to {a.out}")
    if a.read_with:
        for kind, t in read_faces(a.read_with, a.out).items():
            print(f"  {kind:<7}{t['faces']:>6.0f} faces: card {100 * t['card']:.1f}%, suit {100 * t['suit']:.1f}%, "
                  f"rank {100 * t['rank']:.1f}%; read at 0.9 or more {t['sure']:.0f}, "
                  f"{100 * t['sure_right']:.1f}% of them right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
