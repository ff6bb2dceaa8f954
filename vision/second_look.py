"""Second looks: where the main look leaves doubt, the detector looks again at other sizes.

A photo is in doubt when a card reads below ``second_look_below`` or fewer than five are read. The
detector then sees the cards' region again at the other ``second_look_sizes`` (and, where the cards
are small in the frame, that region alone enlarged: the zoom window); its boxes are grouped with
the main look's by index, and only the new or unsure indices are read again. These are the
decisions and the grouping; :class:`vision.pipeline.Recognizer` runs the models.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.config import RecognizerConfig
from vision.detect import Window
from vision.detections import Detections
from vision.merge import group_looks

Detect = Callable[..., Detections]
"""``detect(img, size, window)``: the index boxes the detector sees in ``img`` at ``size``."""
Classify = Callable[[np.ndarray, Detections], np.ndarray]
"""``classify(img, indices)``: (N, classes) readings of the indices."""


def in_doubt(cards: Detections, config: RecognizerConfig) -> bool:
    """Whether the main look's cards call for a second look: a card unsure, or too few cards."""
    few = len(cards) < max(config.second_look_fewer_than, 1)
    return few or float(cards.confidence.min()) < config.second_look_below


def too_small(indices: Detections, config: RecognizerConfig) -> bool:
    """Whether the indices are shorter than ``small_index_px`` (the median of those scored
    ``second_look_confidence`` or more), or there are none."""
    sure = indices.xyxy[indices.confidence >= config.second_look_confidence]
    return not len(sure) or float(np.median(sure[:, 3] - sure[:, 1])) < config.small_index_px


def other_sizes(main_size: int, config: RecognizerConfig) -> list[int]:
    """The sizes the detector looks again at: the configured ones but the main look's."""
    return [s for s in config.second_look_sizes if s != main_size]


def maybe_cards(probs: np.ndarray, none_classes: list[int], config: RecognizerConfig) -> np.ndarray:
    """Which indices' readings (N, classes) may be cards: not read as ``none`` (classes
    ``none_classes``) surely."""
    return probs[:, none_classes].max(axis=1, initial=0) < config.second_reading_below


def second_look_window(img: np.ndarray, xyxy: np.ndarray, config: RecognizerConfig) -> Window | None:
    """The part of ``img`` a second look sees: the region of the boxes ``xyxy`` (N, 4) grown by
    ``second_look_window`` times their median height; ``None``: all of it."""
    pad_heights = config.second_look_window
    if not pad_heights or not len(xyxy):
        return None
    h, w = img.shape[:2]
    pad = pad_heights * float(np.median(xyxy[:, 3] - xyxy[:, 1]))
    x0, y0 = xyxy[:, :2].min(axis=0) - pad
    x1, y1 = xyxy[:, 2:].max(axis=0) + pad
    box = (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1))))
    return None if box == (0, 0, w, h) else box


def zoom_window(img: np.ndarray, window: Window | None, look_sizes: list[int],
                config: RecognizerConfig) -> Window | None:
    """``window`` where the second looks also see it alone, scaled to ``zoom_look_span``: where that
    enlarges it ``zoom_look_gain`` times over the largest of the whole-photo ``look_sizes``; else ``None``."""
    if not config.zoom_look_span or window is None:
        return None
    x0, y0, x1, y1 = window
    largest = max(look_sizes) / max(img.shape[:2])
    w, h = x1 - x0, y1 - y0
    enlarged = config.zoom_look_span / max(w, h) >= config.zoom_look_gain * largest
    return window if min(w, h) >= 8 and enlarged else None


def look_at_other_sizes(detect: Detect, img: np.ndarray, main: Detections, window: Window | None,
                        sizes: list[int], zoom: Window | None,
                        config: RecognizerConfig) -> tuple[Detections, list[list[int]]]:
    """Index boxes of the ``main`` look and of the looks at ``sizes`` over ``window`` (and at
    ``zoom`` alone, enlarged), grouped by index (:func:`~vision.merge.group_looks`)."""
    others = [detect(img, s, window) for s in sizes]
    if zoom is not None:  # cards small in the frame: their region alone, enlarged
        x0, y0, x1, y1 = zoom
        zoomed = detect(np.ascontiguousarray(img[y0:y1, x0:x1]), config.zoom_look_span)
        others.append(zoomed.with_(xyxy=zoomed.xyxy + np.float32([x0, y0, x0, y0])))
    return group_looks(main, Detections.merge(others), config.second_look_iou, config.second_look_confidence)


def read_groups(classify: Classify, img: np.ndarray, main: Detections, main_probs: np.ndarray,
                boxes: Detections, groups: list[list[int]],
                config: RecognizerConfig) -> tuple[Detections, np.ndarray]:
    """Each index read once, the mean of its looks' readings: main boxes keep their readings
    ``main_probs``; only new boxes, and boxes on unsure main ones, are read."""
    sure = main_probs.max(axis=1) >= config.second_reading_below
    groups = [g[:1] if g[0] < len(main) and sure[g[0]] else g for g in groups]
    new = np.array(sorted(i for g in groups for i in g if i >= len(main)), int)
    probs = np.zeros((len(boxes), main_probs.shape[1]), np.float32)
    probs[: len(main)] = main_probs
    probs[new] = classify(img, boxes[new])
    if len(boxes) != len(groups):
        boxes = boxes[[g[0] for g in groups]]
        probs = np.stack([probs[g].mean(axis=0) for g in groups])
    return boxes, probs
