"""Real index crops for the classifier, from a labelled photo set with whole-card boxes.

``../shared/photos/poker-cards-4-train`` labels whole cards, not corner indices. Our own
detector finds the indices; each index whose centre lies in exactly one labelled card
box takes that card's identity (an index in two boxes, where cards overlap, is skipped:
it could belong to either). Index boxes in no card box become ``none`` crops, the real
clutter the classifier must reject.

Roboflow mirrored some of these photos ("flip" augmentation), and a mirrored index is not
a card. A card's two indices sit on its top-left/bottom-right diagonal; mirrored, on the
other one. So each clearly upright or sideways card votes on whether its photo is mirrored
(:func:`mirror_votes`); when the cards do not settle it, the current classifier reads the
photo both ways and the reading that explains the labels better wins. A mirrored photo is
flipped back before cropping.

The photos are read from ``../shared`` at training time and never copied into the project:

    python -m training.data.real_crops --photos ../shared/photos/poker-cards-4-train --out data/realcls \\
        --models runs/export

``--middle-none N`` also cuts ``none`` crops from the middle of the labelled cards, where their pips
and court figures are (:func:`middle_boxes`); with ``--copies 0`` those and the detector's clutter
are all it writes.
"""

from __future__ import annotations

import argparse
import re
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from training.data import yolo
from vision.detections import Detections
from vision.classify import cut_square, square_crop_box
from vision.config import MODELS_DIR, RecognizerConfig
from vision.pipeline import Recognizer

HARVEST_SETTINGS = {"crop_margins": (0.2, 0.3), "square_input": True, "second_opinion_below": 0.97,
                    "second_opinion_turns": False, "large_photo_detector_size": None, "second_look_sizes": (),
                    "nest_cover": 0.0, "white_percentile": None}
"""How the recognizer read photos when the recipe (``training.recipe``) harvests the real crops and scenes
the shipped models trained on: kept, so a retrain labels the same photos the same way."""

NONE_CLASS = "none"
_CLASS_ROW = re.compile(r"^\s*(\d+) '[^']+'\s+(\S+)(?:\s+(\d+) '[^']+'\s+(\S+))?\s*$")


def class_names(source_md: Path) -> dict[int, Card]:
    """Label class id -> card, read from the set's ``SOURCE.md`` table (``0 '10 of clubs' 10C ...``)."""
    names: dict[int, Card] = {}
    for line in source_md.read_text().splitlines():
        m = _CLASS_ROW.match(line)
        if not m:
            continue
        for cid, code in ((m.group(1), m.group(2)), (m.group(3), m.group(4))):
            if cid is not None:
                names[int(cid)] = Card.parse(code)
    if len(names) != 52:
        raise ValueError(f"{source_md}: expected 52 class names, found {len(names)}")
    return names


def class_table(photos: Path) -> Path:
    """The SOURCE.md that holds a set's class table: its own, or the one it points to
    (``../poker-cards-4/SOURCE.md``)."""
    source = photos / "SOURCE.md"
    text = source.read_text()
    if not any(_CLASS_ROW.match(line) for line in text.splitlines()) and "../poker-cards-4/SOURCE.md" in text:
        return photos.parent / "poker-cards-4" / "SOURCE.md"
    return source


def set_class_names(photos: Path) -> dict[int, Card]:
    """The set's class table, by class id."""
    return class_names(class_table(photos))


def read_card_boxes(label: Path, size: tuple[int, int], names: dict[int, Card]) -> list[tuple[Card, np.ndarray]]:
    """The labelled cards of one photo with their whole-card boxes in pixels (xyxy)."""
    classes, boxes = yolo.read_boxes(label, *size)
    return [(names[c], box.astype(np.float32)) for c, box in zip(classes, boxes, strict=True)]


def assign(index_xyxy: np.ndarray, cards: list[tuple[Card, np.ndarray]]) -> Card | None | bool:
    """The card whose box holds the index centre at a corner; ``None`` (clutter) when no box does
    or the centre is in the middle of one card (a pip or court figure the detector took for an
    index: the false cards real photos showed); ``False`` when several boxes hold it or it is
    between corner and middle (a detection we cannot vouch for either way)."""
    cx, cy = (index_xyxy[0] + index_xyxy[2]) / 2, (index_xyxy[1] + index_xyxy[3]) / 2
    inside = _holding(cx, cy, cards)
    if not inside:
        return None
    if len(inside) > 1:
        return False
    card, b = inside[0]
    if _at_a_corner(cx, cy, b):
        return card
    return None if _in_the_middle(cx, cy, b) else False


def _holding(x: float, y: float, cards: list[tuple[Card, np.ndarray]]) -> list[tuple[Card, np.ndarray]]:
    """The labelled cards whose box holds (x, y)."""
    return [(c, b) for c, b in cards if b[0] <= x <= b[2] and b[1] <= y <= b[3]]


def _at_a_corner(x: float, y: float, box: np.ndarray) -> bool:
    """Whether (x, y) lies where a card's index can be: near its corners, not among its pips.

    A card tilted about 45 degrees fills its box as a diamond, its corners at the middles of
    the box's edges; otherwise the indices sit in the box's corner regions.
    """
    w, h = box[2] - box[0], box[3] - box[1]
    u, v = _offsets(x, y, box)
    if max(w, h) < 1.15 * min(w, h):
        return max(u, v) > 0.6
    return u > 0.45 and v > 0.45


def _in_the_middle(x: float, y: float, box: np.ndarray) -> bool:
    """Whether (x, y) lies in the middle third of the box each way, where no index is, whatever the tilt."""
    return max(_offsets(x, y, box)) < 1 / 3


def _offsets(x: float, y: float, box: np.ndarray) -> tuple[float, float]:
    """How far (x, y) is from the box centre, as fractions of its half-width and half-height."""
    return (abs(x - (box[0] + box[2]) / 2) / ((box[2] - box[0]) / 2),
            abs(y - (box[1] + box[3]) / 2) / ((box[3] - box[1]) / 2))


def mirrored_better(rec: Recognizer, img: np.ndarray, boxes: np.ndarray, cards: list[Card]) -> bool:
    """True when the crops, mirrored, read as their labelled cards more surely than as they are."""
    cls = {c: i for i, c in enumerate(rec.class_cards)}

    def score(image: np.ndarray, bxs: np.ndarray) -> float:
        probs = rec.classify(image, Detections(xyxy=bxs, confidence=np.ones(len(bxs), np.float32)))
        return float(sum(np.log(max(probs[k, cls[c]], 1e-6)) for k, c in enumerate(cards)))

    w = img.shape[1]
    flipped_boxes = boxes.copy()
    flipped_boxes[:, [0, 2]] = w - boxes[:, [2, 0]]
    return score(np.ascontiguousarray(img[:, ::-1]), flipped_boxes) > score(img, boxes)


def mirror_votes(cards: list[tuple[Card, np.ndarray]], indices: list[tuple[np.ndarray, Card]]) -> int:
    """Cards saying "mirrored" minus cards saying "as taken", from where their indices sit.

    Upright (portrait) card: indices on the top-left/bottom-right diagonal; turned a quarter
    either way (landscape): on the other diagonal. Mirroring swaps the diagonals. Cards near
    square (tilted about 45 degrees) say nothing.
    """
    votes = 0
    for card, box in cards:
        w, h = box[2] - box[0], box[3] - box[1]
        if max(w, h) < 1.25 * min(w, h):
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for ib, owner in indices:
            if owner != card:
                continue
            dx, dy = (ib[0] + ib[2]) / 2 - cx, (ib[1] + ib[3]) / 2 - cy
            main_diagonal = dx * dy > 0
            as_taken = main_diagonal if h > w else not main_diagonal
            votes += -1 if as_taken else 1
    return votes


def split_of(filename: str, val_every: int) -> str:
    """``val`` for about one source photo in ``val_every``, else ``train``.

    Roboflow's augmented copies of one photo share the name before ``_jpg.rf.``; they all go
    to the same split, or the val figure would be measured on near-copies of training crops.
    """
    source = filename.split("_jpg.rf.")[0]
    return "val" if val_every > 0 and zlib.crc32(source.encode()) % val_every == 0 else "train"


@dataclass(frozen=True)
class UprightPhoto:
    """A labelled photo the right way round, with its detected indices and who owns each."""

    image: np.ndarray
    cards: list[tuple[Card, np.ndarray]]
    found: Detections
    owners: list[Card | None | bool]
    """Per detected index: :func:`assign`'s answer."""
    mirrored: bool
    decided_by_layout: bool


def upright(rec: Recognizer, img: np.ndarray, cards: list[tuple[Card, np.ndarray]]) -> UprightPhoto:
    """Detect the indices, decide whether the photo was mirrored (flipping it and its boxes
    back when it was), and assign each index to the labelled card it belongs to."""
    h, w = img.shape[:2]
    found = rec.detect_indices(img)
    owners = [assign(b, cards) for b in found.xyxy]
    labelled = [(b, c) for b, c in zip(found.xyxy, owners) if isinstance(c, Card)]
    votes = mirror_votes(cards, labelled)
    by_layout = abs(votes) > 1
    mirrored = votes > 1 if by_layout else bool(labelled) and mirrored_better(
        rec, img, np.stack([b for b, _ in labelled]), [c for _, c in labelled])
    if mirrored:
        img = np.ascontiguousarray(img[:, ::-1])
        cards = [(c, np.array([w - b[2], b[1], w - b[0], b[3]], np.float32)) for c, b in cards]
        found = rec.detect_indices(img)
        owners = [assign(b, cards) for b in found.xyxy]
    return UprightPhoto(img, cards, found, owners, mirrored, by_layout)


def labelled_photos(photos: Path) -> Iterator[tuple[Path, np.ndarray, list[tuple[Card, np.ndarray]]]]:
    """(image path, image, labelled card boxes) for each readable photo of a set, in name order."""
    names = set_class_names(photos)
    for img_path in sorted((photos / "images").glob("*.jpg")):
        label = photos / "labels" / f"{img_path.stem}.txt"
        img = cv2.imread(str(img_path))
        if img is None or not label.exists():
            continue
        h, w = img.shape[:2]
        yield img_path, img, read_card_boxes(label, (w, h), names)


def middle_boxes(cards: list[tuple[Card, np.ndarray]], found: Detections, owners: list[Card | None | bool],
                 per_card: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Crop boxes (jittered like :func:`jittered_box`) of pips and court figures, never of an index.

    Real photos' false cards are pips read as cards, and the detector offers the classifier only
    a few hundred real pips to learn ``none`` from. The middle of a card that lies alone there
    (no other labelled box over it) holds no index whatever its tilt, so boxes drawn there, at the
    size of this photo's own indices, are real ``none`` crops of the very shapes that fool the
    classifier. A crop that takes in any part of a detected index (one we vouch for, or one in an
    overlap) is dropped: an index labelled ``none`` would teach the classifier to miss cards.
    """
    indices = [b for b, o in zip(found.xyxy, owners) if o is not None]
    sides = [max(b[2] - b[0], b[3] - b[1]) for b, o in zip(found.xyxy, owners) if isinstance(o, Card)]
    if not sides or per_card <= 0:
        return []
    side = float(np.median(sides))
    boxes = []
    for _, b in cards:
        for _ in range(per_card):
            u, v = rng.uniform(-0.25, 0.25, 2)
            cx, cy = (b[0] + b[2]) / 2 + u * (b[2] - b[0]) / 2, (b[1] + b[3]) / 2 + v * (b[3] - b[1]) / 2
            if len(_holding(cx, cy, cards)) != 1:
                continue
            half = side * rng.uniform(0.8, 1.3) / 2
            crop = jittered_box(np.array([cx - half, cy - half, cx + half, cy + half], np.float32), rng)
            if not any(_overlap(crop, i) for i in indices):
                boxes.append(crop)
    return boxes


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def harvest(photos: Path, out: Path, rec: Recognizer, copies: int, seed: int, val_every: int = 10,
            middle_none: int = 0) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    counts = {"photos": 0, "mirrored": 0, "decided by layout": 0, "decided by classifier": 0,
              "cards": 0, "none": 0, "ambiguous": 0, "middle none": 0}
    for img_path, img, cards in labelled_photos(photos):
        up = upright(rec, img, cards)
        img, found, owners = up.image, up.found, up.owners
        counts["decided by layout" if up.decided_by_layout else "decided by classifier"] += 1
        counts["mirrored"] += up.mirrored
        counts["photos"] += 1
        split = split_of(img_path.name, val_every)
        for k, (box, owner) in enumerate(zip(found.xyxy, owners)):
            if owner is False:
                counts["ambiguous"] += 1
                continue
            name = NONE_CLASS if owner is None else str(owner)
            counts["none" if owner is None else "cards"] += 1
            for j in range(copies if owner is not None else 1):
                write_crop(img, jittered_box(box, rng), out / split / name / f"{img_path.stem[:40]}_{k:02d}_{j}.jpg")
        for k, box in enumerate(middle_boxes(up.cards, found, owners, middle_none, rng)):
            counts["middle none"] += 1
            write_crop(img, box, out / split / NONE_CLASS / f"{img_path.stem[:40]}_m{k:02d}.jpg")
    return counts


def write_crop(img: np.ndarray, box: np.ndarray, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(dest), cut_square(img, box, 96), [cv2.IMWRITE_JPEG_QUALITY, 92])


def jittered_box(box: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The runtime crop box with the synth export's jitter (margin 10-40% a side, shifted a little)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    m = rng.uniform(0.1, 0.4, 4)
    grown = np.array([x0 - m[0] * w, y0 - m[2] * h, x1 + m[1] * w, y1 + m[3] * h], np.float32)
    sq = square_crop_box(grown, 0.0)
    shift = rng.uniform(-0.08, 0.08, 2) * (sq[2] - sq[0])
    return sq + np.array([shift[0], shift[1], shift[0], shift[1]], np.float32)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.real_crops", description=__doc__.splitlines()[0])
    p.add_argument("--photos", required=True, type=Path, help="set with images/, labels/ and SOURCE.md")
    p.add_argument("--out", required=True, type=Path, help="folder to write train/ and val/ class folders into (e.g. data/realcls)")
    p.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with detector/classifier .onnx + .json")
    p.add_argument("--index-confidence", type=float, default=RecognizerConfig.index_confidence,
                   help="detector score an index needs (the shipped crops: 0.25 in round 1, 0.1 in round 2)")
    p.add_argument("--copies", type=int, default=3, help="jittered crops per labelled index (0: only none crops)")
    p.add_argument("--middle-none", type=int, default=0,
                   help="also up to N none crops per labelled card from its middle, where its pips are")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--val-every", type=int, default=10, help="one source photo in N goes to val/ (0: none)")
    a = p.parse_args(argv)
    if "poker-cards-4/" in f"{a.photos.resolve()}/":
        print("poker-cards-4 is for validation only; use poker-cards-4-train", file=sys.stderr)
        return 2
    rec = Recognizer(a.models, RecognizerConfig(index_confidence=a.index_confidence, **HARVEST_SETTINGS))
    counts = harvest(a.photos, a.out, rec, a.copies, a.seed, a.val_every, a.middle_none)
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
