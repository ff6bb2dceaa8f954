"""Labelled photo sets for the evaluation tests (runtime and lab): tiny photos and a fake reader."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import parse_cards
from vision.detections import Detections


def _photo(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), np.full((120, 160, 3), 90, np.uint8))


def _synth_scene(folder: Path, name: str, cards: list[str], **label) -> None:
    """A rendered scene's photo and JSON label, every card face up and readable, ``label`` added."""
    _photo(folder / f"{name}.jpg")
    label = {"image": f"{name}.jpg", **label,
             "cards": [{"card": c, "face_up": True, "readable": True} for c in cards]}
    (folder / f"{name}.json").write_text(json.dumps(label))


def _reader(answers: dict[str, str]):
    """A recognizer that reads each photo as the cards given for its file name."""
    def recognize(path: Path) -> Detections:
        cards = parse_cards(answers[Path(path).name])
        boxes = np.array([[10 + 20 * k, 10, 25 + 20 * k, 40] for k in range(len(cards))], np.float32)
        return Detections(xyxy=boxes.reshape(-1, 4), confidence=np.ones(len(cards)), cards=tuple(cards))
    return recognize
