"""Classify: each corner index cut from the photo and read as one of 52 cards or ``none``.

The first classifier reads the tightest crop of every index, and the wider crops of those it is
unsure of; an index still unsure gets second opinions: its tightest crop read turned a quarter, a
half and three quarters, and every crop read by the other classifiers (when shipped).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from vision.config import CLASSIFIER_FILES, RecognizerConfig
from vision.detections import Detections
from vision.sessions import run, session, sidecar, to_tensor

NONE_CLASS = "none"
"""The class of a crop that is no card's index (clutter, a pip, a card's edge)."""


@dataclass(frozen=True)
class Classifier:
    """One ONNX classifier and its input size."""

    session: object
    size: int

    def read(self, batch: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities for a (N, 3, size, size) batch of crops (:func:`to_tensor`)."""
        return run(self.session, batch)


def load_classifiers(models_dir: Path) -> tuple[list[Classifier], list[Card | None]]:
    """The shipped classifiers (the first required, the others where present) and the card each
    class names (``None``: not a card). Raises ``ValueError`` when their classes differ."""
    classifiers: list[Classifier] = []
    names: list[str] = []
    for i, file in enumerate(CLASSIFIER_FILES):
        path = models_dir / file
        if i and not path.exists():
            continue  # only the first classifier is required
        clf, meta = session(path), sidecar(path)
        if names and meta["names"] != names:
            raise ValueError(f"{path}: its classes differ from {CLASSIFIER_FILES[0]}'s; "
                             "they cannot be averaged")
        names = meta["names"]
        classifiers.append(Classifier(clf, int(meta["imgsz"])))
    return classifiers, [None if n == NONE_CLASS else Card.parse(n) for n in names]


def classify(classifiers: list[Classifier], img: np.ndarray, indices: Detections, config: RecognizerConfig,
             classes: int) -> np.ndarray:
    """(N, classes) probabilities per index: the first classifier's mean over the crop margins;
    where it is unsure, the geometric mean of that and its readings turned, averaged with the others'."""
    if not len(indices):
        return np.zeros((0, classes), np.float32)
    crops = Crops(img, indices.xyxy, config.crop_margins)
    first, *others = classifiers
    views, probs = first_reading(first, crops, config)
    unsure = np.flatnonzero(probs.max(axis=1) < config.second_opinion_below)
    if len(unsure) and (others or config.second_opinion_turns):
        probs[unsure] = second_opinions(first, others, crops, unsure, views[:, unsure], probs[unsure], config)
    return probs.astype(np.float32)


def first_reading(first: Classifier, crops: Crops, config: RecognizerConfig) -> tuple[np.ndarray, np.ndarray]:
    """The first classifier's readings of every index, (margins, N, classes), and their mean (N,
    classes): the tightest crop, and the wider ones only where the tightest leaves doubt (unread
    margins are zeros). Every index asked for second opinions has every margin read (their
    geometric mean needs them)."""
    margins, n = config.crop_margins, len(crops.xyxy)
    wider_if_unsure = config.wider_crops_below is not None
    views = crops.read(first, np.arange(n), range(1 if wider_if_unsure else len(margins)))
    probs = views.mean(axis=0)
    if wider_if_unsure and len(margins) > 1:
        doubt = np.flatnonzero(probs.max(axis=1) < max(config.wider_crops_below, config.second_opinion_below))
        views = np.concatenate([views, np.zeros((len(margins) - 1, n, probs.shape[1]), views.dtype)])
        if len(doubt):
            views[1:, doubt] = crops.read(first, doubt, range(1, len(margins)))
            probs[doubt] = views[:, doubt].mean(axis=0)
    return views, probs


def second_opinions(first: Classifier, others: list[Classifier], crops: Crops, rows: np.ndarray,
                    views: np.ndarray, probs: np.ndarray, config: RecognizerConfig) -> np.ndarray:
    """(len(rows), classes): the readings of unsure indices ``rows`` made again. The first classifier's
    ``views`` and ``probs`` of them, and with ``second_opinion_turns`` its tightest crops read turned
    (the geometric mean of every view), weighed as much as the other classifiers' together."""
    mine, weight = probs, 1
    if config.second_opinion_turns:
        turned = crops.read(first, rows, range(1), (1, 2, 3))
        mine = geometric_mean(np.concatenate([views, turned]))
        weight = max(len(others), 1)
    theirs = [crops.read(clf, rows, range(len(config.crop_margins))).mean(axis=0) for clf in others]
    return (weight * mine + sum(theirs)) / (weight + len(theirs))


def geometric_mean(readings: np.ndarray) -> np.ndarray:
    """(K, N, classes) probabilities -> (N, classes): the normalised geometric mean over K. Unlike
    the plain mean, one reading that rules a class out pulls it down: readings that disagree make
    an unsure result rather than a confident wrong one."""
    logp = np.log(np.clip(readings, 1e-6, 1)).mean(axis=0)
    p = np.exp(logp - logp.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class Crops:
    """The index crops of one photo, each cut once, when first read: a classifier of one input size
    reads an index's crop at a margin again turned, or among its wider crops."""

    img: np.ndarray
    xyxy: np.ndarray
    """The index boxes, (N, 4) in ``img`` pixels."""
    margins: tuple[float, ...]
    cut: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict, repr=False)
    """(input size, margin, index) -> its crop."""

    def read(self, clf: Classifier, rows: np.ndarray, cuts: range,
             turns: tuple[int, ...] = (0,)) -> np.ndarray:
        """(turns x cuts, rows, classes): ``clf``'s readings of the crops at margins ``cuts``, turned."""
        picked = np.array([self.crop(clf.size, m, i) for m in cuts for i in rows.tolist()])
        batch = to_tensor(np.concatenate([np.rot90(picked, k, axes=(1, 2)) for k in turns]))
        return clf.read(batch).reshape(len(turns) * len(cuts), len(rows), -1)

    def crop(self, size: int, margin: int, index: int) -> np.ndarray:
        """The crop of index ``index`` grown by margin number ``margin``, at ``size`` px."""
        key = (size, margin, index)
        if key not in self.cut:
            box = square_crop_box(self.xyxy[index], self.margins[margin])
            self.cut[key] = cut_square(self.img, box, size)
        return self.cut[key]


def square_crop_box(xyxy: np.ndarray, margin: float) -> np.ndarray:
    """The training crop rule: grow each side by ``margin`` x size, then grow the short side to a square."""
    x0, y0, x1, y1 = xyxy
    side = max(x1 - x0, y1 - y0) * (1 + 2 * margin)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], np.float32)


def cut_square(img: np.ndarray, box: np.ndarray, size: int) -> np.ndarray:
    """Cut ``box`` (it may leave the image: padded by edge replication) and resize it to ``size``."""
    x0, y0, x1, y1 = box
    interp = cv2.INTER_AREA if (x1 - x0) > size else cv2.INTER_LINEAR
    m = cv2.getAffineTransform(np.float32([[x0, y0], [x1, y0], [x0, y1]]),
                               np.float32([[0, 0], [size, 0], [0, size]]))
    return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
