"""``none`` crops from where the detector fires on labelled synthetic scenes but no index is.

Why: the classifier learns ``none`` from crops drawn at random around faces and objects
(:func:`training.synth.export.classifier_crops`) and at back corners, but the detector fires at
particular places: a pip's shoulder, a court figure's crown, a back's pattern, a board hole. On
the held-out tuning renders, 98 of the 1,753 detector boxes that touch no index read as a card
at 0.5 or more, and such boxes are a third of the false cards. A rendered scene's label says
exactly where every index is, covered or not, so each detection that overlaps none of them is
a ``none`` the detector itself chose: the mistakes the classifier must learn to reject.
Tried once (one epoch of the first classifier with 5,255 such crops added) and not shipped: no
fewer false cards on the tuning sets (docs/experiments, "Decks it trained on read no better").

    python -m training.data.mined_crops --scenes data/rpA data/rpS --out data/minedA --models models

With ``--cards`` the detector's boxes that do land on a legible index are cropped too, filed
under the card the label names: the boxes the classifier reads at run time, a suit cut off or a
neighbour's index taken in, where the training crops are cut at the labelled box and jittered.
A third of the crops the second classifier (``cls96W7``) trained on came this way
(docs/experiments, "A wider second classifier").

    python -m training.data.mined_crops --scenes data/rpA data/rpAv data/oldA data/rp3 data/rp3v --out data/detboxM \
        --models runs/round5 --cards --per-scene 3 --seed 911

Scenes are read as saved by ``cribcount synth`` (``yolo/images/<split>/*.jpg`` with their
``.json`` labels); crops go to the scene's own split.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from training.data.real_crops import NONE_CLASS, jittered_box, write_crop
from training.synth.export import saved_scenes
from vision.detections import box_iou, box_overlaps
from vision.decode import ImageError, read_photo
from vision.config import MODELS_DIR, RecognizerConfig
from vision.pipeline import Recognizer

# A detection sharing more than this fraction of its own area, or of an index's, with any index
# (covered or not) is near enough to one that it may show part of it: not a clean ``none``.
MAX_SHARED = 0.05
# A detection overlapping a legible index at least this much (IoU) shows that index (``--cards``).
MIN_IOU_ON_INDEX = 0.3
# Nor one centred this near (a fraction of the card's sides) to a corner of a face-up card: some
# decks print an index in all four corners and the labels name two.
CORNER_ZONE = 0.3


def index_boxes(label: dict) -> np.ndarray:
    """Every index box in a scene label, in its pixels: visible, covered and face-down alike."""
    boxes = [idx["box_xyxy"] for card in label.get("cards", []) for idx in card.get("indices", [])]
    return np.asarray(boxes, np.float32).reshape(-1, 4)


def off_index(found: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Per found box: whether it shares at most :data:`MAX_SHARED` of its area, and of every
    index's, with the indices."""
    if len(found) == 0 or len(indices) == 0:
        return np.ones(len(found), bool)
    shared, area_f, area_i = box_overlaps(found, indices)
    frac = shared / np.maximum(np.minimum(area_f[:, None], area_i[None, :]), 1e-6)
    return (frac <= MAX_SHARED).all(axis=1)


def in_face_corners(centres: np.ndarray, label: dict) -> np.ndarray:
    """Per point: whether it lies within :data:`CORNER_ZONE` of a corner of a face-up card."""
    hit = np.zeros(len(centres), bool)
    if len(centres) == 0:
        return hit
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    for card in label.get("cards", []):
        if not card.get("face_up", True) or len(card.get("corners", [])) != 4:
            continue
        to_unit = cv2.getPerspectiveTransform(np.asarray(card["corners"], np.float32), unit)
        uv = cv2.perspectiveTransform(centres.reshape(-1, 1, 2).astype(np.float32), to_unit).reshape(-1, 2)
        inside = ((uv >= -0.05) & (uv <= 1.05)).all(axis=1)
        near = (np.minimum(uv, 1 - uv) < CORNER_ZONE).all(axis=1)
        hit |= inside & near
    return hit


def clean_none(found: np.ndarray, label: dict, scale: float) -> np.ndarray:
    """Per found box (photo pixels): whether it is off every index and every face-up corner.

    ``scale`` is :attr:`Photo.scale`, label (original) pixels per decoded photo pixel: 2 for a
    photo decoded at half size."""
    centres = np.stack([(found[:, 0] + found[:, 2]) / 2, (found[:, 1] + found[:, 3]) / 2], axis=1) * scale
    return off_index(found, index_boxes(label) / scale) & ~in_face_corners(centres, label)


def legible_index_boxes(label: dict) -> tuple[np.ndarray, list[str]]:
    """The label's legible indices of face-up cards at least half in view (their visible part, in
    label pixels), and the card each belongs to."""
    boxes, cards = [], []
    for card in label.get("cards", []):
        if not card.get("face_up", True):
            continue
        for idx in card.get("indices", []):
            if idx.get("visible_box_xyxy") is None or idx.get("visible_fraction", 0) < 0.5 or not idx.get("legible", True):
                continue
            boxes.append(idx["visible_box_xyxy"])
            cards.append(card["card"])
    return np.asarray(boxes, np.float32).reshape(-1, 4), cards


def card_at(found: np.ndarray, label: dict, scale: float) -> list[str | None]:
    """Per found box (photo pixels; ``scale`` as in :func:`clean_none`): the card of the legible index
    it overlaps most, when at IoU :data:`MIN_IOU_ON_INDEX` or more, else ``None``."""
    boxes, cards = legible_index_boxes(label)
    if len(found) == 0 or len(boxes) == 0:
        return [None] * len(found)
    iou = box_iou(found, boxes / scale)
    best = iou.argmax(axis=1)
    return [cards[j] if iou[i, j] >= MIN_IOU_ON_INDEX else None for i, j in enumerate(best)]


def labelled_scenes(folders: list[Path]) -> Iterator[tuple[Path, dict]]:
    """(image, label) for every saved scene under the folders (:func:`saved_scenes`)."""
    for folder in folders:
        images = folder / "yolo" / "images"
        if not images.is_dir():
            raise FileNotFoundError(f"{images}: no such folder (render scenes with `cribcount synth --out {folder}`)")
        for label_path, label in saved_scenes(folder):
            yield label_path.with_suffix(".jpg"), label


def harvest(folders: list[Path], out: Path, rec: Recognizer, per_scene: int, seed: int,
            cards: bool = False) -> dict[str, int]:
    """Write up to ``per_scene`` off-index detections per scene (the detector's surest first) and,
    with ``cards``, every detection on a legible index (:func:`card_at`)."""
    counts = {"scenes": 0, "detections": 0, "off index": 0, "none crops": 0}
    if cards:
        counts["card crops"] = 0
    for image_path, label in labelled_scenes(folders):
        try:
            photo = read_photo(image_path, min_long_side=rec.config.min_long_side)
        except ImageError as e:
            print(f"skipped: {e}", file=sys.stderr)
            continue
        found = rec.detect_indices(photo.image)
        counts["scenes"] += 1
        counts["detections"] += len(found)
        far = clean_none(found.xyxy, label, photo.scale)
        counts["off index"] += int(far.sum())
        named = card_at(found.xyxy, label, photo.scale) if cards else [None] * len(found)
        # Each scene's own draws, so a crop does not depend on which scenes came before it.
        rng = np.random.default_rng([seed, zlib.crc32(image_path.name.encode())])
        split = label.get("split", image_path.parent.name)
        nones = 0
        for k in np.argsort(-found.confidence, kind="stable"):
            if named[k] is not None:
                cls = str(Card.parse(named[k]))
                counts["card crops"] += 1
            elif far[k] and nones < per_scene:
                cls = NONE_CLASS
                nones += 1
                counts["none crops"] += 1
            else:
                continue
            write_crop(photo.image, jittered_box(found.xyxy[k], rng), out / split / cls / f"{image_path.stem}_{int(k):02d}.jpg")
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.mined_crops", description=__doc__.splitlines()[0])
    p.add_argument("--scenes", required=True, type=Path, nargs="+", help="folders written by `cribcount synth`")
    p.add_argument("--out", required=True, type=Path, help="crop set to write (train/ and val/ class folders)")
    p.add_argument("--models", type=Path, default=MODELS_DIR, help="folder with the detector to mine with")
    p.add_argument("--per-scene", type=int, default=4, help="at most this many none crops per scene")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cards", action="store_true",
                   help="also crop the detections on legible indices, filed under the label's card")
    a = p.parse_args(argv)
    if a.per_scene < 1:
        print("--per-scene must be at least 1", file=sys.stderr)
        return 2
    try:
        rec = Recognizer(a.models, RecognizerConfig())
        counts = harvest(a.scenes, a.out, rec, a.per_scene, a.seed, cards=a.cards)
    except (FileNotFoundError, ValueError) as e:
        print(f"mined_crops: {e}", file=sys.stderr)
        return 2
    print(", ".join(f"{k} {v}" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
