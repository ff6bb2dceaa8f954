"""The recognizer read from the labels' own index boxes: what a perfect detector would give.

    python -m training.oracle_boxes data/tune780 [data/tune781 ...] [--models DIR]

For a rendered set (``cribcount synth`` labels), every index of a face-up card that is mostly in
view (:data:`training.synth.scene.READABLE_VISIBLE_FRACTION`, the share that makes a card required)
is boxed where the label puts it, the bounding box of its quad, and the recognizer's classifiers
and merging read those boxes as they read the detector's. Set beside the recognizer itself, the
difference is what the detector (and the second looks) lose; what the label boxes still miss is
the classifier's. Each set prints both, by the standard figures and by layout and the cards'
angle in the photo: in a fan, a crib pile or an overlapping row a turned card is missed far more
often than an upright one, and this is how that was told apart from the reading of turned glyphs
(docs/experiments, "Cards at an angle").
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.detections import Detections, Expected
from training.compare import rendered_sets_from_args
from api.evaluate import EvalReport, evaluate
from vision.image_io import read_photo
from vision.recognizer import Recognizer, in_photo_pixels
from training.synth.scene import READABLE_VISIBLE_FRACTION

SPARSE_LAYOUTS = frozenset({"row", "spread"})
"""Scene types whose cards lie apart; the others (fan, overlap, pegging, crib) overlap them."""
TURNED_FROM = 15.0
"""A card this many degrees or more from upright or sideways counts as turned."""


def index_box(index: dict) -> np.ndarray:
    """An index's label box: (4,) xyxy, the bounding box of its quad, in the label's pixels."""
    q = np.asarray(index["quad"], np.float32)
    return np.concatenate([q.min(axis=0), q.max(axis=0)])


def label_boxes(label: dict, min_visible: float = READABLE_VISIBLE_FRACTION) -> np.ndarray:
    """(N, 4) xyxy, in the label's (the photo's own) pixels: the bounding box of each index of a
    face-up card at least ``min_visible`` in view, as a detector that missed nothing would box it."""
    boxes = [index_box(i) for c in label["cards"] if c.get("face_up", True)
             for i in c["indices"] if i["visible_fraction"] >= min_visible]
    return np.array(boxes, np.float32).reshape(-1, 4)


def card_angle(card: dict) -> float:
    """How far a labelled card lies from upright or sideways in the photo, 0-45 degrees: the
    angle of its top edge (its first two corners), folded."""
    (x0, y0), (x1, y1) = card["corners"][:2]
    a = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 90
    return min(a, 90 - a)


def layout_and_angle(label: dict, card: dict) -> str:
    """The group a required card's reading is counted in: apart or overlapping, upright or turned."""
    layout = "apart" if label.get("scene_type") in SPARSE_LAYOUTS else "overlapping"
    return f"{layout}, {'turned' if card_angle(card) >= TURNED_FROM else 'upright'}"


def reading_label_boxes(rec: Recognizer) -> Callable[..., Detections]:
    """A ``recognize`` (a path, and optionally what the photo holds) that reads the photo's label
    boxes (:func:`label_boxes`, from the JSON beside it) instead of detecting indices: decoded,
    balanced, classified and merged as :meth:`Recognizer.recognize` does its own boxes."""
    def read(path: Path, expected: Expected | None = None) -> Detections:
        label = json.loads(Path(path).with_suffix(".json").read_text())
        photo = read_photo(path, min_long_side=rec.config.min_long_side)
        img = rec.balanced(photo.image)
        boxes = label_boxes(label) / photo.scale
        if not len(boxes):
            return Detections.empty()
        indices = Detections(xyxy=boxes, confidence=np.ones(len(boxes), np.float32))
        return in_photo_pixels(rec.merge_by_card(indices, rec.classify(img, indices), expected), photo.scale)
    return read


def by_layout_and_angle(report: EvalReport) -> dict[str, tuple[int, int]]:
    """(cards read right, required cards) per :func:`layout_and_angle` group, over a report on renders."""
    right, total = Counter(), Counter()
    for result in report.results:
        label = json.loads(result.photo.path.with_suffix(".json").read_text())
        read = {str(c) for c in result.read}
        for card in label["cards"]:
            if card.get("face_up", True) and card.get("readable", True):
                group = layout_and_angle(label, card)
                total[group] += 1
                right[group] += card["card"] in read
    return {g: (right[g], total[g]) for g in sorted(total)}


def main(argv: list[str] | None = None) -> int:
    rec, sets = rendered_sets_from_args("python -m training.oracle_boxes", __doc__.splitlines()[0], argv)
    for folder, photos in sets:
        reports = [("the recognizer", evaluate(photos, rec.recognize, folder)),
                   ("from the label boxes", evaluate(photos, reading_label_boxes(rec), folder))]
        print(f"{folder}: {len(photos)} photos, {reports[0][1].cards} required cards")
        for name, report in reports:
            print(f"  {name:22s} per card {report.card_accuracy:7.2%}   fully right {report.hand_accuracy:7.2%}   "
                  f"false cards {report.false_cards}")
        groups = [by_layout_and_angle(report) for _, report in reports]
        for group in groups[0]:
            cells = "   ".join(f"{g[group][0] / g[group][1]:7.2%}" for g in groups)
            print(f"    {group:22s} {groups[0][group][1]:5d} cards   {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
