"""Real photos as detector training scenes: corner-index boxes vouched for on whole-card labels.

The detector learned its corner indices from renders only; real photos bring what renders
do not (camera blur, glare, patterned cloth, the clutter of a room). ``poker-cards-4-train``
labels whole cards, so the index boxes come from our own detector, run with a low threshold,
and a box is only written when the photo vouches for it:

* an index found at a corner of exactly one labelled card (see
  :func:`training.data.real_crops.assign`) that the classifier reads as that card, or that the
  detector is fairly sure of and the classifier does not rule out;
* an index in the overlap of two cards' boxes that the classifier reads as one of them;
* a box found where a card's other index must be: a card is the same turned half way round,
  so its indices sit mirrored through its centre (the centre of its box).

Everything else the detector fires on (outside the cards, among a card's pips) is left
unlabelled: the background it must learn to keep quiet on. The labels are never invented,
only chosen among detections, so a photo where a card shows no vouched index, a sure
detection cannot be placed, or a visible corner has no detection is left out whole: an
unlabelled index would teach the detector to miss it. A corner under another card's box is
taken as covered. Mirrored photos are flipped back first, as for the crops.

A deck that prints an index in all four corners (as this one does) has two more per card, but
where they sit is only known from the card's orientation, which a whole-card box does not give;
they stay unlabelled where the detector does not already vouch for them.

    python -m training.data.real_scenes --photos ../shared/photos/poker-cards-4-train --out data/realdet
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from training.data.real_crops import HARVEST_SETTINGS, UprightPhoto, labelled_photos, split_of, upright
from training.data.yolo import box_row, write_rows
from vision.config import MODELS_DIR, RecognizerConfig
from vision.detections import Detections
from vision.merge import nested
from vision.pipeline import Recognizer

SURE = 0.25
"""Detector score above which an index we cannot vouch for makes the photo unusable."""


@dataclass(frozen=True)
class IndexLabels:
    """The index boxes vouched for in one photo, or why the photo is left out."""

    boxes: np.ndarray
    """(K, 4) xyxy in image pixels."""
    completed: int
    """How many of ``boxes`` were found where a card's other index must be (not vouched by reading)."""
    problem: str | None = None
    """Why the photo is left out, as ``kind: detail`` (``None``: it is kept)."""


def _left_out(kind: str, detail: str) -> IndexLabels:
    return IndexLabels(np.zeros((0, 4), np.float32), 0, f"{kind}: {detail}")


def _centre(b: np.ndarray) -> np.ndarray:
    return np.array([(b[0] + b[2]) / 2, (b[1] + b[3]) / 2], np.float32)


def _inside(p: np.ndarray, box: np.ndarray) -> bool:
    return bool(box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3])


def _distinct(found: Detections, ks: list[int]) -> list[int]:
    """The detections among ``ks`` that are not a second box on the same index (:func:`nested`:
    a rank-only box beside the rank+suit one), most confident first."""
    nest = nested(found.xyxy)
    kept: list[int] = []
    for k in sorted(ks, key=lambda k: -found.confidence[k]):
        if not nest[k, kept].any():
            kept.append(k)
    return kept


def index_labels(up: UprightPhoto, probs: np.ndarray, class_cards: list[Card | None]) -> IndexLabels:
    """Vouch for index boxes in an upright photo (see the module docstring for the rules)."""
    column = {c: i for i, c in enumerate(class_cards) if c is not None}
    found = up.found
    vouched: dict[int, Card] = {}
    for k, owner in enumerate(up.owners):
        read = class_cards[int(probs[k].argmax())]
        sure = found.confidence[k] >= SURE
        if isinstance(owner, Card):
            if read == owner or (sure and probs[k, column[owner]] >= 0.1):
                vouched[k] = owner
            elif sure:
                return _left_out("misread", f"index of {owner} read as {read}")
        elif owner is False and sure:
            holders = [c for c, b in up.cards if _inside(_centre(found.xyxy[k]), b)]
            if read in holders:
                vouched[k] = read
            else:
                return _left_out("unplaced", "a sure index in no clear place")
    kept = _distinct(found, list(vouched))
    vouched = {k: vouched[k] for k in kept}
    boxes = [found.xyxy[k] for k in vouched]
    completed = 0
    for card, cbox in up.cards:
        mine = [found.xyxy[k] for k, c in vouched.items() if c == card]
        if not mine:
            return _left_out("unread card", f"no index of {card}")
        size = max(max(b[2] - b[0], b[3] - b[1]) for b in mine)
        centres = [_centre(b) for b in mine]
        # A card looks the same turned half way round: each index has a twin mirrored through its centre.
        for there in [2 * _centre(cbox) - c for c in centres]:
            if any(np.linalg.norm(there - c) < 0.6 * size for c in centres):
                continue
            near = [k for k in range(len(found)) if k not in vouched
                    and np.linalg.norm(_centre(found.xyxy[k]) - there) < 0.6 * size]
            if near:
                box = found.xyxy[max(near, key=lambda k: found.confidence[k])]
            elif not _inside(there, cbox) or any(_inside(there, b) for c, b in up.cards if c != card):
                continue  # off the card (the photo's perspective), or under another card
            else:
                return _left_out("missed twin", f"other index of {card} not found")
            boxes.append(box)
            centres.append(_centre(box))
            completed += 1
    return IndexLabels(np.stack(boxes).astype(np.float32), completed)


def write_yolo(image: np.ndarray, boxes: np.ndarray, images_dir: Path, labels_dir: Path, stem: str) -> None:
    """One YOLO scene: the image as JPEG and its boxes as class-0 rows (the synthetic scenes' format)."""
    h, w = image.shape[:2]
    images_dir.mkdir(parents=True, exist_ok=True)
    labels_dir.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(images_dir / f"{stem}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    write_rows(labels_dir / f"{stem}.txt", (box_row(0, b, w, h) for b in boxes))


def build(photos: Path, out: Path, rec: Recognizer, val_every: int = 10) -> dict[str, int]:
    counts = {"photos": 0, "kept": 0, "indices": 0, "completed": 0}
    problems: dict[str, int] = {}
    for img_path, img, cards in labelled_photos(photos):
        counts["photos"] += 1
        up = upright(rec, img, cards)
        labels = index_labels(up, rec.classify(up.image, up.found), rec.class_cards)
        if labels.problem:
            kind = labels.problem.split(":")[0]
            problems[kind] = problems.get(kind, 0) + 1
            continue
        split = split_of(img_path.name, val_every)
        write_yolo(up.image, labels.boxes, out / "images" / split, out / "labels" / split, img_path.stem)
        counts["kept"] += 1
        counts["indices"] += len(labels.boxes)
        counts["completed"] += labels.completed
    (out / "data.yaml").write_text(
        "# Written by training.data.real_scenes: corner indices vouched for on real photos.\n"
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: index\n")
    counts.update({f"left out ({k})": v for k, v in sorted(problems.items())})
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.real_scenes", description=__doc__.splitlines()[0])
    p.add_argument("--photos", required=True, type=Path, help="set with images/, labels/ and SOURCE.md")
    p.add_argument("--out", required=True, type=Path, help="folder for the YOLO scenes (e.g. data/realdet)")
    p.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with detector/classifier .onnx + .json")
    p.add_argument("--val-every", type=int, default=10, help="one source photo in N goes to val (the crops' split)")
    a = p.parse_args(argv)
    if "poker-cards-4/" in f"{a.photos.resolve()}/":
        print("poker-cards-4 is for validation only; use poker-cards-4-train", file=sys.stderr)
        return 2
    rec = Recognizer(a.models, RecognizerConfig(index_confidence=0.05, **HARVEST_SETTINGS))
    counts = build(a.photos, a.out, rec, a.val_every)
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
