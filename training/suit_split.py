"""How well the classifiers tell one deck's clubs from its spades, read at the labels' own boxes.

    python -m training.suit_split data/tune780 [data/tune781 ...] --deck gnome-plastic \
        [--models models runs/candX ...]

Half of what the held-out renders miss is one design's clubs read as spades (docs/experiments,
"Chunky clubs cleaned and weighted"). Whether a new first classifier mends that is measured here,
apart from the detector and the show: every black index of the deck's face-up cards that is in
view and legible (as a label makes a card required) is cut where the label boxes it, and for each
models folder the script prints how often the right suit is likelier than the other black suit,
read by the first classifier alone (its crop margins averaged) and as the recognizer reads it
(:meth:`vision.recognizer.Recognizer.classify`: turns and the other classifiers on unsure
indices), and how often the card is the likeliest class outright.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from vision.inference import crop_batch
from vision.recognizer import MODELS_DIR, ModelMissingError, Recognizer
from vision.detections import Detections
from vision.image_io import read_photo
from training.oracle_boxes import index_box
from training.synth.export import saved_scenes
from training.synth.scene import READABLE_VISIBLE_FRACTION

OTHER_BLACK = {"C": "S", "S": "C"}


def black_indices(label: dict, deck: str) -> list[tuple[str, np.ndarray]]:
    """(card, xyxy box in the label's pixels) of every index of a face-up club or spade of ``deck``
    that is at least :data:`READABLE_VISIBLE_FRACTION` in view and legible; none for another deck."""
    if label.get("deck") != deck:
        return []
    return [(c["card"], index_box(i)) for c in label["cards"] if c.get("face_up", True) and c["card"][-1] in OTHER_BLACK
            for i in c["indices"] if i["visible_fraction"] >= READABLE_VISIBLE_FRACTION and i.get("legible", True)]


@dataclass
class SuitTally:
    """Per black index read: its suit, and whether each reading put it right."""

    clubs: list[bool] = field(default_factory=list)
    first: list[bool] = field(default_factory=list)
    as_read: list[bool] = field(default_factory=list)
    top1: list[bool] = field(default_factory=list)

    def add(self, card: str, first: np.ndarray, as_read: np.ndarray, index: dict[str, int]) -> None:
        """One index of ``card``: the first classifier's and the recognizer's class probabilities."""
        right, wrong = index[card], index[card[:-1] + OTHER_BLACK[card[-1]]]
        self.clubs.append(card[-1] == "C")
        self.first.append(bool(first[right] > first[wrong]))
        self.as_read.append(bool(as_read[right] > as_read[wrong]))
        self.top1.append(int(np.argmax(as_read)) == right)

    def figures(self) -> dict[str, float]:
        """Shares right (0-1): clubs and spades by the first classifier alone, all of them alone,
        as read, and the card outright; NaN where there is nothing to count."""
        first, clubs = np.array(self.first, bool), np.array(self.clubs, bool)

        def share(v: np.ndarray) -> float:
            return float(v.mean()) if v.size else float("nan")

        return {"indices": float(len(self.first)), "clubs alone": share(first[clubs]),
                "spades alone": share(first[~clubs]), "alone": share(first),
                "as read": share(np.array(self.as_read, bool)), "card top-1": share(np.array(self.top1, bool))}


def tally(rec: Recognizer, folders: list[Path], deck: str) -> SuitTally:
    """Read every black index of ``deck`` in the rendered ``folders`` with ``rec``'s classifiers."""
    index = {str(c): i for i, c in enumerate(rec.class_cards) if c is not None}
    out = SuitTally()
    first_clf = rec.classifiers[0]
    for folder in folders:
        for js, label in saved_scenes(folder):
            items = black_indices(label, deck)
            if not items:
                continue
            image = js.parent / label.get("image", "")  # as api.evaluate.load_labelled finds it
            if not image.is_file():
                raise FileNotFoundError(f"{js}: the label's photo is missing beside it")
            photo = read_photo(image, min_long_side=rec.config.min_long_side)
            img = rec.balanced(photo.image)
            xyxy = np.stack([box for _, box in items]) / photo.scale
            as_read = rec.classify(img, Detections(xyxy=xyxy, confidence=np.ones(len(xyxy), np.float32)))
            first = np.mean([first_clf.read(crop_batch(img, xyxy, m, first_clf.size))
                             for m in rec.config.crop_margins], axis=0)
            for (card, _), f, r in zip(items, first, as_read):
                out.add(card, f, r, index)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.suit_split", description=__doc__.splitlines()[0])
    p.add_argument("folders", nargs="+", type=Path, help="rendered sets (cribcount synth output, JSON labels)")
    p.add_argument("--deck", required=True, help="the design whose black indices to read, e.g. gnome-plastic")
    p.add_argument("--models", nargs="+", default=[str(MODELS_DIR)], help="models folders to read with")
    a = p.parse_args(argv)
    for folder in a.folders:
        if not (folder / "yolo" / "images").is_dir():
            p.error(f"{folder}: not a rendered set (no yolo/images/)")
    print("| models | indices | clubs alone | spades alone | alone | as read | card top-1 |")
    print("|---|---|---|---|---|---|---|")
    for models in a.models:
        try:
            rec = Recognizer(models)
        except ModelMissingError as e:
            print(f"suit_split: {e}", file=sys.stderr)
            return 2
        try:
            f = tally(rec, a.folders, a.deck).figures()
        except FileNotFoundError as e:
            print(f"suit_split: {e}", file=sys.stderr)
            return 2
        if not f["indices"]:
            print(f"suit_split: no legible black index of {a.deck} in those sets", file=sys.stderr)
            return 2
        print(f"| {models} | {int(f['indices'])} | " + " | ".join(
            f"{100 * f[k]:.1f}%" for k in ("clubs alone", "spades alone", "alone", "as read", "card top-1")) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
