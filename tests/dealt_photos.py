"""Photos of dealt cards for the discard tests: drawn ones for the recognizer double, real ones for
the models.

The real photos are read at run time from ``../shared/photos/poker-cards-4`` (labelled, validation
only; never copied into the repository). None of them shows six cards, so :func:`real_six_cards`
makes one: a photo of five hearts with a card cut from another photo of the same deck and table
(its labelled box) laid in the empty corner.
"""

from __future__ import annotations

import csv
from pathlib import Path

import cv2
from support import ROOT, DrawnPhoto, draw_table

from scorer.cards import parse_cards

REAL_SET = ROOT.parent / "shared" / "photos" / "poker-cards-4"
FIVE_HEARTS = "9H 10H JH QH KH"
DONOR = "AS 2S 3S 4S"
"""The ace of spades, the leftmost card of this photo, is cut out and laid beside the five hearts."""
SIX_CARDS = parse_cards("9H 10H JH QH KH AS")


def fanned(cards: str, size: tuple[int, int] = (1600, 1200)) -> DrawnPhoto:
    """Dealt cards overlapping a little in an arc, as a hand is held."""
    n = len(cards.split())
    return draw_table(cards, [(330 + 190 * i, 560 - 40 * min(i, n - 1 - i)) for i in range(n)], size=size)


def real_reason() -> str | None:
    """Why the real-photo checks cannot run here, or None."""
    from vision.config import MODELS_DIR

    if not (MODELS_DIR / "detector.onnx").is_file():
        return f"{MODELS_DIR / 'detector.onnx'} is not there"
    if not (REAL_SET / "cards.csv").is_file():
        return f"{REAL_SET} is not there"
    return None


def _photo_of(cards: str) -> Path:
    with (REAL_SET / "cards.csv").open(newline="") as f:
        return REAL_SET / "images" / next(r["file"] for r in csv.DictReader(f) if r["cards"] == cards)


def real_five_cards() -> Path:
    """A real photo of 9H 10H JH QH KH (four in a row, one below)."""
    return _photo_of(FIVE_HEARTS)


def real_six_cards(out: Path) -> Path:
    """The five hearts' photo with the donor photo's ace of spades laid in its empty lower right;
    written to ``out``."""
    photo = cv2.imread(str(real_five_cards()))
    donor_path = _photo_of(DONOR)
    donor = cv2.imread(str(donor_path))
    labels = REAL_SET / "labels" / (donor_path.stem + ".txt")
    boxes = sorted((list(map(float, line.split()))[1:] for line in labels.read_text().splitlines()),
                   key=lambda b: b[0])
    cx, cy, w, h = boxes[0]
    dh, dw = donor.shape[:2]
    crop = donor[int((cy - h / 2) * dh):int((cy + h / 2) * dh), int((cx - w / 2) * dw):int((cx + w / 2) * dw)]
    ph, pw = photo.shape[:2]
    x, y = int(0.66 * pw), int(0.56 * ph)
    crop = crop[:ph - y, :pw - x]
    photo[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    cv2.imwrite(str(out), photo)
    return out
