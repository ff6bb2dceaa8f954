"""Why the recognizer missed each card of a synthetic set: which stage lost it.

    python -m training.miss_reasons data/evalphone [data/eval12345 ...] [--models DIR]

For every required card of a rendered set (``cribcount synth`` labels) that the recognizer did not
read, the detector looks at the whole photo at its main size and at every second-look size, every
box is read by the classifiers, and the boxes whose centre lies on the card's visible indices say
where the card was lost:

- ``no box``: no box on any of its visible indices, at any size;
- ``read none``: its boxes read "not a card";
- ``misread``: its boxes read other cards;
- ``below the line``: read right at the top, but never at the card line (0.7);
- ``read right, not output``: some box read it at the card line or more, yet the recognizer did
  not output it (put out by a neighbour's surer reading, averaged down by a second look, or found
  only by a look the recognizer did not take there).

The last is the recognizer's own doing, the others the models'. Each set prints its counts, then a
line per missed card with its photo, deck and its best few boxes (detector score, reading).
(docs/experiments, "One place, one index, measured by area", is where it was first used.)
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np

from vision.detections import Detections
from training.compare import rendered_sets_from_args
from vision.image_io import read_photo
from vision.recognizer import Recognizer
from training.synth.scene import READABLE_VISIBLE_FRACTION

REASONS = ("no box", "read none", "misread", "below the line", "read right, not output")


def boxes_on(quads: list[np.ndarray], xyxy: np.ndarray) -> np.ndarray:
    """Indices of the boxes ``xyxy`` (N, 4) whose centre lies in the bounding box of any quad (4, 2)."""
    if not len(xyxy) or not quads:
        return np.zeros(0, int)
    cx, cy = (xyxy[:, 0] + xyxy[:, 2]) / 2, (xyxy[:, 1] + xyxy[:, 3]) / 2
    on = np.zeros(len(xyxy), bool)
    for q in quads:
        (x0, y0), (x1, y1) = q.min(axis=0), q.max(axis=0)
        on |= (cx >= x0) & (cx <= x1) & (cy >= y0) & (cy <= y1)
    return np.flatnonzero(on)


def miss_reason(card: str, readings: list[tuple[str, float]], card_line: float) -> str:
    """Which stage lost ``card``, from what its boxes read: (class name, probability) per box, the
    top class of each (``-`` for "not a card")."""
    if not readings:
        return "no box"
    right = [p for name, p in readings if name == card]
    if any(p >= card_line for p in right):
        return "read right, not output"
    if right:
        return "below the line"
    if all(name == "-" for name, _ in readings):
        return "read none"
    return "misread"


def missed_cards(rec: Recognizer, label_path: Path, read: set[str]) -> list[tuple[str, str, list]]:
    """(card, reason, its boxes' (detector score, reading, probability) surest first) for each
    required card of one labelled render that is not in ``read``."""
    lab = json.loads(label_path.read_text())
    missed = [c for c in lab["cards"] if c.get("face_up", True) and c.get("readable", True) and c["card"] not in read]
    if not missed:
        return []
    photo = read_photo(label_path.parent / lab["image"], min_long_side=rec.config.min_long_side)
    img, scale = rec.balanced(photo.image), photo.scale
    sizes = [rec.detector_size(img, scale), *rec.second_look_sizes(img, scale)]
    boxes = Detections.merge([rec.detect_indices(img, s) for s in sizes])
    probs = rec.classify(img, boxes)
    names = [str(c) if c else "-" for c in rec.class_cards]
    out = []
    for c in missed:
        quads = [np.asarray(i["quad"], np.float64) / scale for i in c["indices"] if i["visible_fraction"] >= READABLE_VISIBLE_FRACTION]
        on = boxes_on(quads, boxes.xyxy)
        seen = sorted(((float(boxes.confidence[k]), names[int(probs[k].argmax())], float(probs[k].max())) for k in on),
                      reverse=True)
        out.append((c["card"], miss_reason(c["card"], [(n, p) for _, n, p in seen], rec.config.card_confidence), seen))
    return out


def main(argv: list[str] | None = None) -> int:
    rec, sets = rendered_sets_from_args("python -m training.miss_reasons", __doc__.splitlines()[0], argv)
    for folder, photos in sets:
        counts: Counter[str] = Counter()
        lines = []
        for ph in photos:
            read = {str(c) for c in rec.recognize(ph.path).cards}
            for card, reason, seen in missed_cards(rec, ph.path.with_suffix(".json"), read):
                counts[reason] += 1
                boxes = ", ".join(f"{d:.2f}: {n} {q:.2f}" for d, n, q in seen[:4])
                lines.append(f"    {ph.path.name} {ph.deck or ''} {card}: {reason} [{boxes}]")
        print(f"{folder}: {sum(counts.values())} cards missed in {len(photos)} photos")
        for reason in REASONS:
            print(f"  {reason:24s} {counts[reason]}")
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
