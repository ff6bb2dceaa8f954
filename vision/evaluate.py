"""Measure the recognizer on labelled photos: per-card and whole-hand accuracy, false cards, confusions.

The one evaluation of the project: ``cribcount eval`` prints it, and the lab
(``python -m training eval``, its comparisons and sweeps) builds on these public names.

A labelled set is a folder with ``images/`` (or the photos beside) and ``cards.csv``
(``file,cards``; cards like ``9H 10H JH``), the format of ``../shared/photos``. A
folder of synthetic scenes with JSON labels (the lab's renders) works too: its cards
are read from the JSON files. A synthetic card whose indices are both mostly hidden
(``readable`` false: under another card, out of frame, or too small, narrow or blurred for a person
to name, as the renderer judged it) is *optional*: reading it right is neither
required nor a false card, since no person could read it either; reading it wrong is a
false card.

Per-card accuracy = labelled cards read correctly / labelled cards; a photo is
*fully right* when the set of cards read equals the labelled set (nothing missed,
nothing extra). False cards are cards read that are not in the photo.

Each rate comes with a 95% interval from resampling the photos (a card's neighbours in one
photo share its light and deck, so photos, not cards, are the independent draws). On a
150-photo set "fully right" near 75% spans about ±7 points: a gain of a few points on one
such set is weak evidence for a model, and wants a second set before it is believed.
"""

from __future__ import annotations

import csv
import json
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from scorer.cards import Card, parse_cards
from vision.decode import ImageError
from vision.detections import CHECK_BELOW, Detections

if TYPE_CHECKING:
    from vision.annotate import CardAnnotator

__all__ = ["IMAGE_SUFFIXES", "EvalReport", "LabelledPhoto", "PhotoResult", "evaluate", "failure_sheet",
           "load_labelled", "per_photo_counts", "ratio_interval"]

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp"}
"""The photo files of a labelled set's folder (the lab lists its training photos by them)."""


@dataclass(frozen=True)
class LabelledPhoto:
    """One photo and the cards a person reads in it."""

    path: Path
    cards: frozenset[Card]
    optional: frozenset[Card] = frozenset()
    """Cards in the photo that need not be read (no index readable); never counted as false."""
    deck: str | None = None
    """The deck design, where the label names it (synthetic scenes): the report breaks down by it."""
    layout: str | None = None
    """How the cards lie (``row``, ``spread``, ``overlap``, ``fan``, ``crib``, ``pegging``), where the
    label names it (synthetic scenes): the report breaks down by it."""


@dataclass(frozen=True)
class PhotoResult:
    """What the recognizer read in one labelled photo, and how long it took."""

    photo: LabelledPhoto
    read: tuple[Card, ...]
    detections: Detections
    seconds: float

    @property
    def correct(self) -> frozenset[Card]:
        return self.photo.cards & frozenset(self.read)

    @property
    def missed(self) -> frozenset[Card]:
        return self.photo.cards - frozenset(self.read)

    @property
    def extra(self) -> frozenset[Card]:
        return frozenset(self.read) - self.photo.cards - self.photo.optional

    @property
    def fully_right(self) -> bool:
        return not self.missed and not self.extra

    @property
    def unmarked_false(self) -> frozenset[Card]:
        """False cards read without a mark for the player to check
        (:attr:`~vision.detections.Detection.to_check`).

        The product shows every card it read and marks the doubtful ones; a card missed leaves the
        show short (the count refuses it, or a card made up in its place is marked), and a false
        card read below the check line is marked. A false card read above it is a wrong count the
        player has no reason to doubt: the error this product can least afford."""
        extra = self.extra
        return frozenset(d.card for d in self.detections if d.card in extra and not d.to_check)

    @property
    def marked_right(self) -> int:
        """Right cards marked for the player to check: what a higher check line costs."""
        correct = self.correct
        return sum(1 for d in self.detections if d.card in correct and d.to_check)


@dataclass
class EvalReport:
    """Every photo's result on one set, and the figures over them (filled in by :func:`evaluate`)."""

    name: str
    results: list[PhotoResult] = field(default_factory=list)

    @property
    def cards(self) -> int:
        return sum(len(r.photo.cards) for r in self.results)

    @property
    def card_accuracy(self) -> float:
        return sum(len(r.correct) for r in self.results) / max(1, self.cards)

    @property
    def hand_accuracy(self) -> float:
        return sum(r.fully_right for r in self.results) / max(1, len(self.results))

    @property
    def false_cards(self) -> int:
        return sum(len(r.extra) for r in self.results)

    @property
    def unmarked_false_cards(self) -> int:
        return sum(len(r.unmarked_false) for r in self.results)

    @property
    def wrong_unmarked(self) -> int:
        """Photos read with a false card and nothing marking it: a wrong count given as sure."""
        return sum(bool(r.unmarked_false) for r in self.results)

    @property
    def marked_right(self) -> int:
        return sum(r.marked_right for r in self.results)

    def intervals(self, draws: int = 2000, seed: int = 0) -> dict[str, tuple[float, float]]:
        """95% intervals of ``card_accuracy`` and ``hand_accuracy`` (bootstrap over photos).

        The seed is fixed, so a report prints the same interval every time it is measured."""
        if not self.results:
            return {"card_accuracy": (0.0, 0.0), "hand_accuracy": (0.0, 0.0)}  # as the rates of no photos
        correct, cards, right = per_photo_counts(self)
        return {"card_accuracy": ratio_interval(correct, cards, draws, seed),
                "hand_accuracy": ratio_interval(right, np.ones_like(right), draws, seed)}

    def confusions(self) -> Counter[tuple[str, str]]:
        """(labelled, read) pairs for photos where a card was swapped for another of the same photo slot.

        A missed card and an extra card in one photo are paired nearest-first by rank/suit
        similarity; unpaired misses read as ``-`` and unpaired extras come from ``-``.
        """
        pairs: Counter[tuple[str, str]] = Counter()
        for r in self.results:
            missed, extra = sorted(r.missed), sorted(r.extra)
            while missed and extra:
                m = missed.pop(0)
                e = min(extra, key=lambda c: (c.rank != m.rank) + (c.suit != m.suit))
                extra.remove(e)
                pairs[(str(m), str(e))] += 1
            pairs.update((str(m), "-") for m in missed)
            pairs.update(("-", str(e)) for e in extra)
        return pairs

    def table(self) -> str:
        ms = sorted(r.seconds * 1000 for r in self.results) or [math.nan]
        ci = {k: f"(95%: {100 * lo:.1f}-{100 * hi:.1f})" for k, (lo, hi) in self.intervals().items()}
        lines = [
            f"{self.name}",
            f"  photos              {len(self.results)}",
            f"  labelled cards      {self.cards}",
            f"  per-card accuracy   {100 * self.card_accuracy:.2f}%  {ci['card_accuracy']}",
            f"  photos fully right  {100 * self.hand_accuracy:.2f}%  {ci['hand_accuracy']}",
            f"  false cards         {self.false_cards}",
            f"  false, not marked   {self.unmarked_false_cards} (in {self.wrong_unmarked} photos; read at"
            f" {CHECK_BELOW:.0%} or more, nothing marks them to check)",
            f"  right, marked       {self.marked_right} of {sum(len(r.correct) for r in self.results)}"
            " right cards marked to check",
            f"  median ms / photo   {ms[len(ms) // 2]:.0f}",
        ]
        conf = self.confusions().most_common(15)
        if conf:
            lines.append("  confusions (labelled -> read, count): "
                         + ", ".join(f"{a}->{b} x{n}" for (a, b), n in conf))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        ci = self.intervals()
        return {"name": self.name, "photos": len(self.results), "cards": self.cards,
                "card_accuracy": self.card_accuracy, "hand_accuracy": self.hand_accuracy,
                "card_accuracy_95": list(ci["card_accuracy"]), "hand_accuracy_95": list(ci["hand_accuracy"]),
                "false_cards": self.false_cards, "unmarked_false_cards": self.unmarked_false_cards,
                "wrong_unmarked": self.wrong_unmarked, "marked_right": self.marked_right,
                "confusions": [[a, b, n] for (a, b), n in self.confusions().most_common()]}


def per_photo_counts(report: EvalReport) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per photo: cards read right, labelled cards, and 1.0 where the photo is fully right."""
    return (np.array([len(r.correct) for r in report.results], float),
            np.array([len(r.photo.cards) for r in report.results], float),
            np.array([r.fully_right for r in report.results], float))


def ratio_interval(num: np.ndarray, den: np.ndarray, draws: int, seed: int) -> tuple[float, float]:
    """95% interval of sum(num) / sum(den) when the photos are drawn again with replacement (one entry
    per photo: the lab pairs two reports' photos by passing their differences)."""
    picks = np.random.default_rng(seed).integers(0, len(num), (draws, len(num)))
    rates = num[picks].sum(axis=1) / np.maximum(den[picks].sum(axis=1), 1)
    return float(np.percentile(rates, 2.5)), float(np.percentile(rates, 97.5))


def _cards_of(cards: str | list[str], where: str) -> frozenset[Card]:
    """The cards of one label; a card that is not one is a ``ValueError`` naming the label it is in."""
    try:
        return frozenset(parse_cards(cards))
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


def load_labelled(folder: str | Path) -> list[LabelledPhoto]:
    """Photos and their cards from ``cards.csv``, or from synth JSON labels.

    Raises ``ValueError`` for a folder with neither, or a label with a card that is not one."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    if (folder / "cards.csv").exists():
        return _from_cards_csv(folder)
    photos = _from_synth_labels(folder)
    if not photos:
        raise ValueError(f"{folder} has no cards.csv and no synth label files")
    return photos


def _from_cards_csv(folder: Path) -> list[LabelledPhoto]:
    """A real set: ``cards.csv`` (``file,cards``) with the photos in ``images/`` or beside it."""
    images = folder / "images" if (folder / "images").is_dir() else folder
    csv_path = folder / "cards.csv"
    with csv_path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or not {"file", "cards"} <= set(rows[0]):
        raise ValueError(f"{csv_path} needs the columns file,cards")
    return [LabelledPhoto(images / r["file"], _cards_of(r["cards"], f"{csv_path}, {r['file']}"))
            for r in rows]


def _from_synth_labels(folder: Path) -> list[LabelledPhoto]:
    """Rendered scenes: one JSON label per photo; face-down cards are not there to read."""
    photos = []
    for label in sorted(folder.rglob("*.json")):
        data = json.loads(label.read_text())
        if "cards" not in data or "image" not in data:
            continue  # a JSON file that is no scene label
        faces = [c for c in data["cards"] if c.get("face_up", True)]
        required = [c["card"] for c in faces if c.get("readable", True)]
        optional = [c["card"] for c in faces if not c.get("readable", True)]
        photos.append(LabelledPhoto(label.parent / data["image"], _cards_of(required, str(label)),
                                    _cards_of(optional, str(label)), deck=data.get("deck"),
                                    layout=data.get("scene_type")))
    return photos


def evaluate(photos: Iterable[LabelledPhoto], recognize: Callable[[Path], Detections],
             name: str) -> EvalReport:
    """Read every photo and measure. A photo the reader refuses (greyscale, damaged) stops the
    measurement with its name in the message: a figure over the photos that happened to read
    would not be the set's."""
    report = EvalReport(name)
    for photo in photos:
        t = time.perf_counter()
        try:
            dets = recognize(photo.path)
        except ImageError as e:
            named = str(e) if str(e).startswith(str(photo.path)) else f"{photo.path}: {e}"
            raise ImageError(named) from None
        report.results.append(PhotoResult(photo, tuple(dets.card_list), dets, time.perf_counter() - t))
    return report


SHEET_PHOTOS = 48
"""At most this many failures on a sheet: 12 rows of 4 tiles is already a 2000 x 6000 px image."""


def failure_sheet(report: EvalReport, out: str | Path, *, tile_px: int = 480, columns: int = 4) -> int:
    """Write a contact sheet of the photos that were not fully right; returns how many failed.

    ``out`` is a ``.jpg`` or ``.png`` name in an existing folder (the folder is not made: a mistyped
    path is an error, as for ``cribcount count --annotate``); one OpenCV cannot write raises
    ``OSError``."""
    from vision.annotate import CardAnnotator

    failed = [r for r in report.results if not r.fully_right]
    if not failed:
        return 0
    annotator = CardAnnotator()
    tiles = [t for r in failed[:SHEET_PHOTOS] if (t := _sheet_tile(r, annotator, tile_px)) is not None]
    if not tiles:
        return len(failed)  # no photo could be opened again: nothing to draw
    rows = []
    for i in range(0, len(tiles), columns):
        row = tiles[i : i + columns]
        row += [np.full_like(tiles[0], 255)] * (columns - len(row))
        rows.append(np.hstack(row))
    try:
        written = cv2.imwrite(str(out), np.vstack(rows), [cv2.IMWRITE_JPEG_QUALITY, 85])
    except cv2.error as e:  # a name with no image writer (out.txt)
        raise OSError(f"could not write the failures sheet {out}: {e.msg or e}") from None
    if not written:
        raise OSError(f"could not write the failures sheet {out} (is its folder there?)")
    return len(failed)


def _sheet_tile(result: PhotoResult, annotator: CardAnnotator, tile_px: int) -> np.ndarray | None:
    """One photo drawn with its readings, shrunk to ``tile_px``, the missed and extra cards under it."""
    img = cv2.imread(str(result.photo.path))
    if img is None:
        return None
    img = annotator.annotate(img, result.detections)
    s = tile_px / max(img.shape[:2])
    img = cv2.resize(img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA)
    tile = np.full((tile_px + 44, tile_px, 3), 255, np.uint8)
    tile[: img.shape[0], : img.shape[1]] = img
    for k, text in enumerate((f"missed: {' '.join(map(str, sorted(result.missed))) or '-'}",
                              f"extra:  {' '.join(map(str, sorted(result.extra))) or '-'}")):
        cv2.putText(tile, text, (6, tile_px + 18 + 20 * k), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 200), 1,
                    cv2.LINE_AA)
    return tile
