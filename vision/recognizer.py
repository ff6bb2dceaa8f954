"""Photo -> Detections with cards (ONNX Runtime + OpenCV; no torch).

:meth:`Recognizer.recognize_photo` reads top to bottom:

1. **preprocess**: the decoded photo (:mod:`vision.image_io`; a 12 MP JPEG at a quarter of its
   size), white-balanced when dim or tinted;
2. **detect**: the detector boxes the cards' corner indices on a letterboxed copy;
3. **classify**: each index is cut from the photo and read as one of 52 cards or ``none`` (cut
   wider too where that reading is unsure); an index the first classifier is unsure of is also read
   turned and by the others;
4. **merge**: indices read as the same card become one card (:mod:`vision.merge`).

A photo decoded small is read again decoded at twice the size where its indices are small, or where
that first look leaves doubt over a small part of the frame (:meth:`Recognizer.read_finer`). Where
the first look leaves doubt (a card below 0.999, or fewer than five), the detector looks again at
other sizes over the cards' region (and zoomed on it), and only the new or unsure indices are read
again before merging.

>>> from vision import recognize
>>> sorted(str(d.card) for d in recognize("sample_images/starter-below-the-row.jpg"))
['5S', '8D', '9C', '9H', '9S']
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from os import PathLike
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from vision.config import CLASSIFIER_FILES, MODELS_DIR, RecognizerConfig
from vision.detections import Detections, Expected
from vision.image_io import LOCAL, Photo, decode_photo, photo_from_array, read_photo, white_balanced
from vision.inference import (DETECTOR_STRIDE, Classifier, ModelMissingError, cut_square, letterbox, session,
                              sidecar, square_crop_box, to_tensor)
from vision.merge import geometric_mean, group_looks, merge_indices

__all__ = ["MODELS_DIR", "ModelMissingError", "Recognizer", "RecognizerConfig", "default_recognizer", "recognize"]

NONE_CLASS = "none"


class Recognizer:
    """The ONNX models, loaded once; call :meth:`recognize` per photo."""

    def __init__(self, models_dir: str | Path = MODELS_DIR, config: RecognizerConfig | None = None) -> None:
        models_dir = Path(models_dir)
        self.config = config or RecognizerConfig()
        self.detector = session(models_dir / "detector.onnx")
        self.det_size = int(sidecar(models_dir / "detector.onnx")["imgsz"])
        self.classifiers: list[Classifier] = []
        names: list[str] = []
        for i, file in enumerate(CLASSIFIER_FILES):
            path = models_dir / file
            if i and not path.exists():
                continue  # only the first classifier is required
            clf, meta = session(path), sidecar(path)
            if names and meta["names"] != names:
                raise ValueError(f"{path}: its classes differ from {CLASSIFIER_FILES[0]}'s; they cannot be averaged")
            names = meta["names"]
            self.classifiers.append(Classifier(clf, int(meta["imgsz"])))
        self.class_cards: list[Card | None] = [None if n == NONE_CLASS else Card.parse(n) for n in names]
        self.none_classes = [i for i, c in enumerate(self.class_cards) if c is None]

    # -- the pipeline -------------------------------------------------------------------------------
    def recognize(self, image: str | Path | bytes | np.ndarray, expected: Expected | None = None) -> Detections:
        """Cards in a photo given as a path, encoded bytes, a BGR array or a Pillow image."""
        size = self.config.min_long_side
        if isinstance(image, (bytes, bytearray)):
            photo = decode_photo(bytes(image), min_long_side=size, limits=LOCAL)
        elif isinstance(image, (str, PathLike)):
            photo = read_photo(image, min_long_side=size)
        else:
            photo = photo_from_array(image, min_long_side=size)
        return self.recognize_photo(photo, expected)

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        """Cards in a decoded photo, boxes in its original pixels. With ``expected`` (a show: the
        player said how many cards it holds) cards short of the line make up the number."""
        img, scale = self.balanced(photo.image), photo.scale
        main, main_probs, cards = self.main_look(img, scale)
        if photo.finer is not None and self.read_finer(img, main, main_probs, cards, scale):
            return self.recognize_photo(photo.finer(), expected)
        if self.second_looks_for(img, cards, scale):
            boxes, probs = self.look_again(img, main, main_probs, scale)
            cards = self.merge_by_card(boxes, probs, expected)
        elif expected is not None:
            cards = self.merge_by_card(main, main_probs, expected)
        return in_photo_pixels(cards, photo.scale)

    def read_finer(self, img: np.ndarray, indices: Detections, probs: np.ndarray, cards: Detections,
                   scale: float = 1.0) -> bool:
        """Whether a photo decoded small (``img``, under ``fine_long_side``) is read again decoded finer,
        given its main look (``indices``, their readings ``probs``, the ``cards``): where the indices
        are too small, or the cards leave doubt and the second looks would zoom in (finer pixels help)."""
        if max(img.shape[:2]) >= self.config.fine_long_side:
            return False
        if self.too_small(indices):
            return True
        if not self.in_doubt(cards):
            return False
        window = self.second_look_window(img, indices.xyxy[self.maybe_cards(probs)])
        return self.zoom_window(img, window, scale) is not None

    def too_small(self, indices: Detections) -> bool:
        """Whether the indices are shorter than ``small_index_px`` (the median of those scored
        ``second_look_confidence`` or more), or there are none."""
        sure = indices.xyxy[indices.confidence >= self.config.second_look_confidence]
        return not len(sure) or float(np.median(sure[:, 3] - sure[:, 1])) < self.config.small_index_px

    def balanced(self, img: np.ndarray) -> np.ndarray:
        """Preprocess: the photo white-balanced on its cards where it is dim or tinted."""
        cfg = self.config
        if cfg.white_percentile is None:
            return img
        return white_balanced(img, cfg.white_percentile, cfg.white_target, cfg.white_max_gain, cfg.white_min_change)

    def main_look(self, img: np.ndarray, scale: float = 1.0) -> tuple[Detections, np.ndarray, Detections]:
        """Detect, classify and merge once: the index boxes, their readings and the cards they make.
        ``scale``: the photo's pixels per pixel of ``img`` (decoded smaller), as in :meth:`detector_size`."""
        main = self.detect_indices(img, scale=scale)
        probs = self.classify(img, main)
        return main, probs, self.merge_by_card(main, probs)

    def look_again(self, img: np.ndarray, main: Detections, main_probs: np.ndarray,
                   scale: float = 1.0) -> tuple[Detections, np.ndarray]:
        """The second looks: index boxes at other sizes grouped with the main ones, each index read
        once (the mean of its looks' readings). Main boxes keep their readings; only new boxes, and
        boxes on unsure main ones, are read."""
        cfg = self.config
        maybe_card = self.maybe_cards(main_probs)
        sure = main_probs.max(axis=1) >= cfg.second_reading_below
        boxes, groups = self.find_indices(img, main, main.xyxy[maybe_card], scale)
        groups = [g[:1] if g[0] < len(main) and sure[g[0]] else g for g in groups]
        new = np.array(sorted(i for g in groups for i in g if i >= len(main)), int)
        probs = np.zeros((len(boxes), main_probs.shape[1]), np.float32)
        probs[: len(main)] = main_probs
        probs[new] = self.classify(img, boxes[new])
        if len(boxes) != len(groups):
            boxes = boxes[[g[0] for g in groups]]
            probs = np.stack([probs[g].mean(axis=0) for g in groups])
        return boxes, probs

    def maybe_cards(self, probs: np.ndarray) -> np.ndarray:
        """Which indices' readings (N, classes) may be cards: not read as ``none`` surely."""
        return probs[:, self.none_classes].max(axis=1, initial=0) < self.config.second_reading_below

    # -- detect -------------------------------------------------------------------------------------
    def detector_size(self, img: np.ndarray, scale: float = 1.0) -> int:
        """The long side the detector sees ``img`` at: 608 for a phone photo, else its training size.
        A phone photo is one that was at least twice that on its long side as taken: ``img`` times
        ``scale``, the photo's pixels per pixel of ``img`` (a big JPEG is decoded at 1/2, 1/4 or 1/8)."""
        large = self.config.large_photo_detector_size
        if large and max(img.shape[:2]) * scale >= 2 * large:
            return max(large, self.det_size)
        return self.det_size

    def detect_indices(self, img: np.ndarray, size: int | None = None,
                       window: tuple[int, int, int, int] | None = None, scale: float = 1.0) -> Detections:
        """Corner-index boxes in ``img`` pixels, the detector seeing ``img`` at ``size`` (default
        :meth:`detector_size`); with ``window`` (x0, y0, x1, y1) only that part, at the same scale."""
        cfg = self.config
        stride = None if cfg.square_input else DETECTOR_STRIDE
        canvas, r, (left, top) = letterbox(img, size or self.detector_size(img, scale), stride)
        if window is not None:
            # Cut on the stride grid, so the detector sees the very pixels of the whole look.
            step = stride or DETECTOR_STRIDE
            ch, cw = canvas.shape[:2]
            cx0 = max(0, int((window[0] * r + left) // step) * step)
            cy0 = max(0, int((window[1] * r + top) // step) * step)
            cx1 = min(cw, -int(-(window[2] * r + left) // step) * step)
            cy1 = min(ch, -int(-(window[3] * r + top) // step) * step)
            canvas = canvas[cy0:cy1, cx0:cx1]
            left, top = left - cx0, top - cy0
        out = self.detector.run(None, {self.detector.get_inputs()[0].name: to_tensor(canvas)})[0][0]
        boxes_cxcywh, scores = out[:4].T, out[4:].max(axis=0)
        keep = scores >= cfg.index_confidence
        boxes_cxcywh, scores = boxes_cxcywh[keep], scores[keep]
        if not len(scores):
            return Detections.empty()
        xywh = np.column_stack([boxes_cxcywh[:, 0] - boxes_cxcywh[:, 2] / 2,
                                boxes_cxcywh[:, 1] - boxes_cxcywh[:, 3] / 2,
                                boxes_cxcywh[:, 2], boxes_cxcywh[:, 3]])
        kept = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), cfg.index_confidence, cfg.nms_iou)
        kept = np.array(kept, dtype=int).reshape(-1)
        xyxy = np.column_stack([xywh[kept, 0], xywh[kept, 1], xywh[kept, 0] + xywh[kept, 2],
                                xywh[kept, 1] + xywh[kept, 3]])
        xyxy = (xyxy - np.array([left, top, left, top], np.float32)) / r
        h, w = img.shape[:2]
        xyxy = np.clip(xyxy, 0, [w, h, w, h]).astype(np.float32)
        return Detections(xyxy=xyxy, confidence=scores[kept])

    def in_doubt(self, cards: Detections) -> bool:
        """Whether the main look's cards call for a second look: a card unsure, or too few cards."""
        cfg = self.config
        return len(cards) < max(cfg.second_look_fewer_than, 1) or float(cards.confidence.min()) < cfg.second_look_below

    def second_look_sizes(self, img: np.ndarray, scale: float = 1.0) -> list[int]:
        """The sizes the detector looks at ``img`` again at: the configured ones but its main size."""
        main_size = self.detector_size(img, scale)
        return [s for s in self.config.second_look_sizes if s != main_size]

    def second_looks_for(self, img: np.ndarray, cards: Detections, scale: float = 1.0) -> list[int]:
        """The second looks' sizes given the main look's ``cards``: none unless they leave doubt."""
        sizes = self.second_look_sizes(img, scale)
        return sizes if sizes and self.in_doubt(cards) else []

    def second_look_window(self, img: np.ndarray, xyxy: np.ndarray) -> tuple[int, int, int, int] | None:
        """The part of ``img`` a second look sees: the region of the boxes ``xyxy`` (N, 4) grown by
        ``second_look_window`` times their median height; ``None``: all of it."""
        pad_heights = self.config.second_look_window
        if not pad_heights or not len(xyxy):
            return None
        h, w = img.shape[:2]
        pad = pad_heights * float(np.median(xyxy[:, 3] - xyxy[:, 1]))
        x0, y0 = xyxy[:, :2].min(axis=0) - pad
        x1, y1 = xyxy[:, 2:].max(axis=0) + pad
        box = (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1))))
        return None if box == (0, 0, w, h) else box

    def find_indices(self, img: np.ndarray, main: Detections | None = None, around: np.ndarray | None = None,
                     scale: float = 1.0) -> tuple[Detections, list[list[int]]]:
        """Index boxes of the main look (``main``, or taken now) and the second looks, which see the
        region round the boxes ``around`` (default ``main``'s), grouped by index (:func:`group_looks`)."""
        cfg = self.config
        if main is None:
            main = self.detect_indices(img, scale=scale)
        window = self.second_look_window(img, main.xyxy if around is None else around)
        sizes = self.second_look_sizes(img, scale)
        others = [self.detect_indices(img, s, window) for s in sizes]
        zoom = self.zoom_window(img, window, scale)
        if zoom is not None:  # cards small in the frame: their region alone, enlarged
            x0, y0, x1, y1 = zoom
            zoomed = self.detect_indices(np.ascontiguousarray(img[y0:y1, x0:x1]), cfg.zoom_look_span)
            others.append(zoomed.with_(xyxy=zoomed.xyxy + np.float32([x0, y0, x0, y0])))
        return group_looks(main, Detections.merge(others), cfg.second_look_iou, cfg.second_look_confidence)

    def zoom_window(self, img: np.ndarray, window: tuple[int, int, int, int] | None,
                    scale: float = 1.0) -> tuple[int, int, int, int] | None:
        """``window`` where the second looks also see it alone, scaled to ``zoom_look_span``: where that
        enlarges it ``zoom_look_gain`` times over the largest whole-photo look; else ``None``."""
        cfg = self.config
        if not cfg.zoom_look_span or window is None:
            return None
        x0, y0, x1, y1 = window
        largest = max([*self.second_look_sizes(img, scale), self.detector_size(img, scale)]) / max(img.shape[:2])
        w, h = x1 - x0, y1 - y0
        return window if min(w, h) >= 8 and cfg.zoom_look_span / max(w, h) >= cfg.zoom_look_gain * largest else None

    # -- classify -----------------------------------------------------------------------------------
    def classify(self, img: np.ndarray, indices: Detections) -> np.ndarray:
        """(N, classes) probabilities per index: the first classifier's mean over the crop margins;
        where it is unsure, the geometric mean of that and its readings turned, averaged with the others'."""
        n = len(indices)
        if not n:
            return np.zeros((0, len(self.class_cards)), np.float32)
        cfg = self.config
        margins = cfg.crop_margins
        crops: dict[tuple[int, int, int], np.ndarray] = {}  # (input size, margin, index) -> its crop

        def read(clf: Classifier, rows: np.ndarray, cuts: range, turns: tuple[int, ...] = (0,)) -> np.ndarray:
            """(turns x cuts, rows, classes): ``clf``'s readings of the crops at margins ``cuts``, turned."""
            keys = [(clf.size, m, i) for m in cuts for i in rows.tolist()]
            for size, m, i in keys:
                if (size, m, i) not in crops:  # each crop cut once, when first read
                    crops[size, m, i] = cut_square(img, square_crop_box(indices.xyxy[i], margins[m]), size)
            picked = np.array([crops[k] for k in keys])
            batch = to_tensor(np.concatenate([np.rot90(picked, k, axes=(1, 2)) for k in turns]))
            return clf.read(batch).reshape(len(turns) * len(cuts), len(rows), -1)

        first, *others = self.classifiers
        first_views = read(first, np.arange(n), range(1 if cfg.wider_crops_below is not None else len(margins)))
        probs = first_views.mean(axis=0)
        if cfg.wider_crops_below is not None and len(margins) > 1:  # the wider crops only where the tightest leaves doubt
            # Every index asked for second opinions has every margin read (their geometric mean needs them).
            doubt = np.flatnonzero(probs.max(axis=1) < max(cfg.wider_crops_below, cfg.second_opinion_below))
            first_views = np.concatenate([first_views, np.zeros((len(margins) - 1, n, probs.shape[1]), first_views.dtype)])
            if len(doubt):
                first_views[1:, doubt] = read(first, doubt, range(1, len(margins)))
                probs[doubt] = first_views[:, doubt].mean(axis=0)
        unsure = np.flatnonzero(probs.max(axis=1) < cfg.second_opinion_below)
        if len(unsure) and (others or cfg.second_opinion_turns):
            mine, weight = probs[unsure], 1
            if cfg.second_opinion_turns:  # the tightest crop turned: the geometric mean of every view
                turned = read(first, unsure, range(1), (1, 2, 3))
                mine = geometric_mean(np.concatenate([first_views[:, unsure], turned]))
                weight = max(len(others), 1)
            theirs = [read(clf, unsure, range(len(margins))).mean(axis=0) for clf in others]
            probs[unsure] = (weight * mine + sum(theirs)) / (weight + len(theirs))
        return probs.astype(np.float32)

    # -- merge --------------------------------------------------------------------------------------
    def merge_by_card(self, indices: Detections, probs: np.ndarray, expected: Expected | None = None) -> Detections:
        """One detection per card, made up to ``expected``'s number where it is given (:func:`merge_indices`)."""
        cfg = self.config
        return merge_indices(indices, probs, self.class_cards, cfg.card_confidence, cfg.sure_index_confidence,
                             cfg.nest_cover, expected, cfg.show_fill_floor)


def in_photo_pixels(cards: Detections, scale: float) -> Detections:
    """``cards`` found on a photo decoded ``scale`` times smaller, with boxes in the photo's own pixels."""
    if scale == 1 or not len(cards):
        return cards
    return cards.with_(xyxy=cards.xyxy * scale, quad=cards.quad * scale,
                       indices=tuple(i * scale for i in cards.indices))


def always_looking_again(config: RecognizerConfig) -> RecognizerConfig:
    """``config`` taking the second looks at every photo, not only where the main look leaves doubt."""
    return replace(config, second_look_below=float("inf"))


@lru_cache(maxsize=1)
def default_recognizer() -> Recognizer:
    """The shipped models, loaded once per process."""
    return Recognizer()


def recognize(image: str | Path | bytes | np.ndarray) -> Detections:
    """Cards in a photo (path, bytes, BGR array or Pillow image) with the shipped models."""
    return default_recognizer().recognize(image)
