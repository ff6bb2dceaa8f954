"""Photo -> Detections with cards: the stages in order, the models loaded once (ONNX Runtime; no torch).

:meth:`Recognizer.recognize_photo` reads top to bottom: the decoded photo (:mod:`vision.decode`; a
12 MP JPEG at a quarter of its size) is white-balanced when dim or tinted (:mod:`vision.balance`);
the detector boxes the cards' corner indices (:mod:`vision.detect`); each index is read as one of 52
cards or ``none`` (:mod:`vision.classify`); indices read as the same card become one card
(:mod:`vision.merge`). A photo decoded small is read again decoded at twice the size where its
indices are small, or where its doubt is over a small part of the frame (:meth:`Recognizer.read_finer`);
a photo still in doubt gets second looks (:mod:`vision.second_look`).

>>> from vision import recognize
>>> sorted(str(d.card) for d in recognize("sample_images/starter-below-the-row.jpg"))
['5S', '8D', '9C', '9H', '9S']
"""

from __future__ import annotations

from copy import copy
from dataclasses import replace
from functools import lru_cache
from os import PathLike
from pathlib import Path

import numpy as np

from vision.balance import balanced
from vision.classify import classify, load_classifiers
from vision.config import MODELS_DIR, RecognizerConfig
from vision.decode import Photo, open_photo
from vision.detect import Window, detect_indices, detector_size
from vision.detections import Detections, Expected
from vision.merge import merge_indices
from vision.second_look import (
    in_doubt,
    look_at_other_sizes,
    maybe_cards,
    other_sizes,
    read_groups,
    second_look_window,
    too_small,
    zoom_window,
)
from vision.sessions import session, sidecar

__all__ = ["Recognizer", "always_looking_again", "default_recognizer", "in_photo_pixels", "recognize"]


class Recognizer:
    """The ONNX models, loaded once; call :meth:`recognize` per photo."""

    def __init__(self, models_dir: str | Path = MODELS_DIR, config: RecognizerConfig | None = None) -> None:
        models_dir = Path(models_dir)
        self.config = config or RecognizerConfig()
        self.detector = session(models_dir / "detector.onnx")
        self.det_size = int(sidecar(models_dir / "detector.onnx")["imgsz"])
        self.classifiers, self.class_cards = load_classifiers(models_dir)
        self.none_classes = [i for i, c in enumerate(self.class_cards) if c is None]

    def configured(self, config: RecognizerConfig) -> Recognizer:
        """This recognizer's models (loaded once, shared) read with other settings, such as
        :func:`vision.config.for_the_table`'s."""
        other = copy(self)
        other.config = config
        return other

    def recognize(self, image: str | PathLike | bytes | np.ndarray,
                  expected: Expected | None = None) -> Detections:
        """Cards in a photo given as a path, encoded bytes, a BGR array or a Pillow image."""
        return self.recognize_photo(open_photo(image, min_long_side=self.config.min_long_side), expected)

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        """Cards in a decoded photo, boxes in its original pixels. With ``expected`` (a show: the
        player said how many cards it holds) cards short of the line make up the number."""
        img, scale = self.balanced(photo.image), photo.scale
        indices, probs, cards = self.main_look(img, scale)
        if photo.finer is not None and self.read_finer(img, indices, probs, cards, scale):
            return self.recognize_photo(photo.finer(), expected)
        if self.second_looks_for(img, cards, scale):
            indices, probs = self.look_again(img, indices, probs, scale)
            cards = self.merge_by_card(indices, probs, expected)
        elif expected is not None:
            cards = self.merge_by_card(indices, probs, expected)
        return in_photo_pixels(cards, scale)

    def main_look(self, img: np.ndarray, scale: float = 1.0) -> tuple[Detections, np.ndarray, Detections]:
        """Detect, classify and merge once: the index boxes, their readings and the cards they make.
        ``scale``: the photo's pixels per pixel of ``img`` (decoded smaller), as in :meth:`detector_size`."""
        indices = self.detect_indices(img, scale=scale)
        probs = self.classify(img, indices)
        return indices, probs, self.merge_by_card(indices, probs)

    def read_finer(self, img: np.ndarray, indices: Detections, probs: np.ndarray, cards: Detections,
                   scale: float = 1.0) -> bool:
        """Whether a photo decoded small (``img``, under ``fine_long_side``) is read again decoded finer,
        given its main look (``indices``, their readings ``probs``, the ``cards``): where the indices
        are too small, or the cards leave doubt and the second looks would zoom in (finer pixels help)."""
        cfg = self.config
        if max(img.shape[:2]) >= cfg.fine_long_side:
            return False
        if too_small(indices, cfg):
            return True
        if not in_doubt(cards, cfg):
            return False
        around = indices.xyxy[maybe_cards(probs, self.none_classes, cfg)]
        return self.zoom_window(img, second_look_window(img, around, cfg), scale) is not None

    def second_looks_for(self, img: np.ndarray, cards: Detections, scale: float = 1.0) -> list[int]:
        """The second looks' sizes given the main look's ``cards``: none unless they leave doubt."""
        sizes = self.second_look_sizes(img, scale)
        return sizes if sizes and in_doubt(cards, self.config) else []

    def look_again(self, img: np.ndarray, main: Detections, main_probs: np.ndarray,
                   scale: float = 1.0) -> tuple[Detections, np.ndarray]:
        """The second looks round the indices that may be cards, each index read once
        (:func:`~vision.second_look.read_groups`)."""
        around = main.xyxy[maybe_cards(main_probs, self.none_classes, self.config)]
        boxes, groups = self.find_indices(img, main, around, scale)
        return read_groups(self.classify, img, main, main_probs, boxes, groups, self.config)

    def find_indices(self, img: np.ndarray, main: Detections | None = None, around: np.ndarray | None = None,
                     scale: float = 1.0) -> tuple[Detections, list[list[int]]]:
        """Index boxes of the main look (``main``, or taken now) and the second looks, which see the
        region round the boxes ``around`` (default ``main``'s), grouped by index."""
        main = self.detect_indices(img, scale=scale) if main is None else main
        window = second_look_window(img, main.xyxy if around is None else around, self.config)
        sizes, zoom = self.second_look_sizes(img, scale), self.zoom_window(img, window, scale)
        return look_at_other_sizes(self.detect_indices, img, main, window, sizes, zoom,
                                               self.config)

    def zoom_window(self, img: np.ndarray, window: Window | None, scale: float = 1.0) -> Window | None:
        """``window`` where the second looks also see it alone (:func:`~vision.second_look.zoom_window`)."""
        sizes = [*self.second_look_sizes(img, scale), self.detector_size(img, scale)]
        return zoom_window(img, window, sizes, self.config)

    # -- the stages, with this recognizer's models and settings --------------------------------------
    def balanced(self, img: np.ndarray) -> np.ndarray:
        """Preprocess: the photo white-balanced on its cards where it is dim or tinted."""
        return balanced(img, self.config)

    def detector_size(self, img: np.ndarray, scale: float = 1.0) -> int:
        """The long side the detector sees ``img`` at (:func:`vision.detect.detector_size`)."""
        return detector_size(img, self.det_size, self.config, scale)

    def second_look_sizes(self, img: np.ndarray, scale: float = 1.0) -> list[int]:
        """The sizes the detector looks at ``img`` again at: the configured ones but its main size."""
        return other_sizes(self.detector_size(img, scale), self.config)

    def detect_indices(self, img: np.ndarray, size: int | None = None, window: Window | None = None,
                       scale: float = 1.0) -> Detections:
        """Corner-index boxes in ``img`` pixels, the detector seeing ``img`` at ``size`` (default
        :meth:`detector_size`); with ``window`` (x0, y0, x1, y1) only that part, at the same scale."""
        size = size or self.detector_size(img, scale)
        return detect_indices(self.detector, img, size, self.config, window)

    def classify(self, img: np.ndarray, indices: Detections) -> np.ndarray:
        """(N, classes) probabilities per index (:func:`vision.classify.classify`)."""
        return classify(self.classifiers, img, indices, self.config, len(self.class_cards))

    def merge_by_card(self, indices: Detections, probs: np.ndarray,
                      expected: Expected | None = None) -> Detections:
        """One detection per card, made up to ``expected``'s number where it is given
        (:func:`~vision.merge.merge_indices`)."""
        cfg = self.config
        return merge_indices(indices, probs, self.class_cards, cfg.card_confidence, cfg.sure_index_confidence,
                             cfg.nest_cover, expected, cfg.show_fill_floor, cfg.corners_apart)


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


def recognize(image: str | PathLike | bytes | np.ndarray) -> Detections:
    """Cards in a photo (path, bytes, BGR array or Pillow image) with the shipped models."""
    return default_recognizer().recognize(image)
