"""Photo -> Detections with cards (ONNX Runtime + OpenCV; no torch).

Pipeline: decode upright at reduced scale (:mod:`vision.image_io`) -> the
detector finds corner indices on a letterboxed copy -> each index is cut as a
square crop from the decoded (not letterboxed) photo and read by the
classifier (52 cards + ``none``) -> indices read as the same card are merged
into one detection (a deck holds each card once), their evidence combined.

>>> from vision import recognize  # doctest: +SKIP
>>> [str(d.card) for d in recognize("sample_images/hand.jpg")]  # doctest: +SKIP
['5H', '5D', '5S', 'JC', '5C']
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, replace
from functools import lru_cache
from os import PathLike
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from vision.detections import Detections, Expected, box_iou, box_overlaps
from vision.image_io import LOCAL, Photo, decode_photo, photo_from_array, read_photo, to_long_side, white_balanced

MODELS_DIR = Path(os.environ.get("CRIBCOUNT_MODELS", Path(__file__).resolve().parent.parent / "models"))
NONE_CLASS = "none"


class ModelMissingError(FileNotFoundError):
    """The shipped ONNX models are not where they should be."""


@dataclass(frozen=True)
class RecognizerConfig:
    """Thresholds, named for the measurement behind them (models/HISTORY.md)."""

    index_confidence: float = 0.05
    """Detector score to keep an index box (low: the classifier rejects clutter as ``none``)."""
    nms_iou: float = 0.5
    """Two index boxes overlapping more than this (IoU) are one: the detector's less sure box is
    dropped. Measured for this detector (``det480S``) among 0.4, 0.5, 0.55, 0.6, 0.65 and 0.7 and
    left at 0.5: a box kept beside a surer one at the same index is read too, and the readings of one
    place multiply (:func:`merge_indices`). At 0.6 the tuning sets read 21 photos more fully right
    and 7 fewer, +0.25 points of cards, but the validation sets only 5 more and 3 fewer, and the
    real photos (`poker-cards-4`, as taken, blurred, dim and warm) gained three false cards read
    0.72-0.78, each two nested readings of one index multiplied past the card line
    (models/HISTORY.md, "The thresholds asked again for the detector from scratch")."""
    card_confidence: float = 0.7
    """Classifier probability a card needs, after merging its indices."""
    sure_index_confidence: float = 0.5
    """A card also needs one of its indices read at this or more on its own: two unsure corners
    can otherwise combine past ``card_confidence`` when their second guesses differ (on a real
    tuning photo a heart court card's blurred corners read 4H at 0.34 and 0.22, with 5H and AH
    next, and combined to a false 4H at 0.95). On the tuning sets, with this release's
    classifiers, it dropped 3 of the real photos' 4 false cards and 1-5 on each set of renders,
    for 0-2 cards found fewer a set (models/HISTORY.md)."""
    nest_cover: float = 0.5
    """Two boxes read as different cards are one place, where only the surer reading counts
    (:func:`merge_indices`), when the centre of one lies inside the other and they share at least
    this fraction of the smaller box. Without the share, boxes on two neighbouring indices of a
    tight fan or overlap counted as one place, and a card read right at 0.97 gave way to its
    neighbour. Chosen on the tuning sets among 0.3, 0.5, 0.7 and none (0: the last release): at 0.5
    the renders read 7 cards more and no false card more, the real tuning photos one false card
    more (a club pip beside an index); the validation sets read 7 photos more fully right and 1
    fewer (models/HISTORY.md, "One place, one index, measured by area")."""
    crop_margins: tuple[float, ...] = (0.1, 0.2)
    """Crop = index box grown by this fraction of its size on each side, then squared (as in
    training, which jitters it 10-40%). Each index is read at every margin and the readings
    averaged: on real photos two margins cut false cards by a third at no loss; the tight 0.1
    takes in less of a neighbouring index than 0.3 did (tuning sets: more cards and photos fully
    right, fewer false cards; models/HISTORY.md)."""
    square_input: bool = False
    """Pad the detector's input to a square instead of to the next multiple of its stride."""
    large_photo_detector_size: int | None = 608
    """A photo at least twice this on its long side (any phone photo: a 12 MP one decodes at
    2000 px) is shown to the detector at this size rather than at the size it trained at (480;
    never below that): brought down to 480, a phone photo's indices are 10-30 px, boxed a few
    pixels off, and a box that cuts off the suit or takes in a neighbour is misread. On the
    held-out phone-size tuning renders (800 of them, two seeds) 608 read about 1 point more cards
    and 4 points more scenes fully right, 576 and 640 about the same; the phone-size validation
    renders gained 1 point of cards and 1.3 of scenes. Smaller photos stay at 480: at 608 the
    real tuning photos (640 px) lost one photo to a false card (models/HISTORY.md). ``None``:
    always the training size."""
    second_look_sizes: tuple[int, ...] = (608, 736)
    """Sizes at which the detector looks at the photo again, besides its main one
    (:meth:`Recognizer.detector_size`); what it finds there is grouped with the main boxes
    (:func:`group_looks`). At another size it boxes an index a few pixels differently, a second
    reading of it, and it finds some indices the main look missed (about a quarter of the missed
    cards on the seed-780 tuning renders had an index with no box). With the classifiers that
    first shipped with it, on the tuning sets against one look (real / renders / two phone-size
    sets): per card +0.0 / +0.6 / +0.6 / +0.1 points, photos fully right +1.3 / +1.2 / +2.5 / +0.3,
    false cards -1 / +7 / -2 / -4. A phone photo (main look 608) gets one more look, at 736; a
    small one two. Looking only at sizes up to the photo's own long side lost the real tuning
    photos (640 px) two photos fully right. The earlier release left it off: with its
    classifiers it broke two real validation photos with false cards; it costs about 35 ms
    on a 12 MP photo (models/HISTORY.md, "Second looks at other sizes")."""
    second_look_below: float = 0.999
    """Look again (``second_look_sizes``) only when the main look leaves doubt: a card read below
    this, or fewer cards than ``second_look_fewer_than``. On this project's two-core machine the
    second looks took a 12 MP photo from about 90 to 170-190 ms, over the 150 ms budget, and
    a photo whose five cards all read at 0.999 or more gains nothing from them. On the tuning sets
    (real photos, small and phone-size renders) reading again only the doubtful photos read exactly
    as looking again at every one; with the line on confidence alone, four of five validation
    sets lost a photo whose missed card left no doubt among the others (models/HISTORY.md, "Second
    looks only where in doubt"). Above 1: always look again."""
    second_look_fewer_than: int = 5
    """A photo where the main look read fewer cards than this is in doubt: a show is five cards
    (the hand and the starter), so a card may be missing (4 cards, the starter named apart, also
    look again)."""
    second_look_window: float = 4.0
    """The second looks see only the region of the main look's boxes that may be cards (not read
    ``none`` at ``second_reading_below``), grown by this many times their median height (a card is
    about four indices tall); 0: the whole photo. The window is cut from the photo as the detector
    sees it, on its stride grid, so inside it the detector reads the very pixels of the whole look
    and boxes the same. On the tuning sets this read the real photos and the phone-size renders
    exactly as whole looks, the small renders three cards more (no false one); twice the height
    changed six photos, as many for the worse as the better (models/HISTORY.md, "Cheaper second
    looks")."""
    close_look_sizes: tuple[int, ...] = ()
    """Sizes (long side) at which the detector also looks, where the main look leaves doubt, at the
    region of the unsure indices (read below ``second_reading_below``) and the doubtful cards'
    indices (below ``second_look_below``) only, grown by ``close_look_window`` times their median
    height; its boxes are grouped with the others (:func:`group_looks`). Off: at 864 it read
    every tuning set better (0.2-0.5 points of cards, a photo more in 100-300) but the validation
    sets mixed (the phone-size renders 0.4 points of cards fewer) and a photo in doubt took about
    70 ms more (models/HISTORY.md, "Cheaper second looks")."""
    close_look_window: float = 2.0
    """How far round the unsure indices the close looks see, in times their median height."""
    zoom_look_span: int | None = 608
    """With the second looks, also show the detector the region round the cards alone (the second
    looks' window), scaled so that its long side is this many pixels, where that enlarges it
    ``zoom_look_gain`` times or more over the largest whole-photo look. Why: in a photo taken from
    afar the cards are a small part of the frame, and their indices are too small in every look
    at the whole photo, however sharp the pixels. `poker-cards-4` made so (`cribcount eval
    --from-afar 0.35`: 0.35 of a 12 MP frame's width) read 97.2% of cards and 74 of 88 photos
    fully right, 4 false; with this look 99.0%, 83 and 2 (at 0.25: 84.6%, 53 -> 95.4%, 76). The
    sample photos so shown read 2-3 of 5 cards, now 5.
    On the tuning sets: real photos the same, the renders +0.1 to +0.4 points of cards, 2 photos
    more, no false card more; read once on the validation sets: 6 photos more fully right of
    788, false cards as many (16 -> 17, 13 -> 12), `poker-cards-4` the same; the 12 MP benchmark
    the same (models/HISTORY.md, Photos from afar). ``None``: no such look."""
    zoom_look_gain: float = 1.5
    """How much larger than in the largest whole-photo look the cards must come out for the zoomed
    look to be taken: below that it would see nothing the others did not."""
    second_look_iou: float = 0.5
    """A second look's box on a main box (IoU this or more) is another reading of that index."""
    second_look_confidence: float = 0.3
    """A box only a second look found is a new index when the detector scored it this or more (the
    main look keeps boxes from 0.05, ``index_confidence``). Lower, the extra boxes find a few more
    cards and as many more false ones: at 0.05 the seed-780 tuning renders read 0.2 points more
    cards with 55 false cards against 43 (models/HISTORY.md)."""
    faint_box_confidence: float | None = None
    """A box only a second look found, scored below ``second_look_confidence`` but at this or more,
    is read too, and kept as a new index where it reads as a card at ``faint_box_reading`` or more
    and no firmer box nests with it (:func:`nested`); ``None``: such boxes are dropped unread. Why:
    in a fan the detector scores some clear indices 0.1-0.2 at the second-look sizes only, and they
    read right at 0.97-1.0. Measured at 0.05 and left off: the tuning sets read 6 photos more fully
    right of 1,778 (none broken, +0.0 to +0.3 points of cards, 2 false cards more), the validation
    sets 2 fixed and 1 broken of 788, one false card more: every interval reaches zero. Without the
    nesting rule it read the tuning renders up to 0.6 points better, but made a false 5C of a box
    round a real 3C's index and the pip beside it (models/HISTORY.md, Faint boxes)."""
    faint_box_reading: float = 0.9
    second_reading_below: float = 0.99
    """A main-look index read at this or more (as a card or as ``none``) keeps its reading: the
    second looks' boxes on it are not read (averaged with a reading that sure they change nothing:
    the tuning sets read the same at 0.99 and 0.999 as reading every box; at 0.9, 14 photos
    changed: a few more cards and more false ones). Above 1: every box a second look finds is read."""
    second_opinion_below: float = 0.9
    """An index whose first-classifier reading is below this also goes to the other classifiers
    (when there are any), and the readings are averaged; above 1: always. Asking below 0.9 (20%
    of the indices on the real tuning photos) read the real tuning photos as asking below 0.97
    did and the held-out renders better, in less time; with this release's classifiers 0.8 read
    the real tuning photos worse and 0.95 the renders (models/HISTORY.md)."""
    second_opinion_turns: bool = True
    """An index asked again (``second_opinion_below``) is also read by the first classifier on its
    first (tightest) crop turned a quarter, a half and three quarters; that reading, the geometric mean
    over the turns and margins, then counts as much as the other classifiers' together. A card
    lies on the table at any angle and the synthetic training scenes turn it so, yet the first
    classifier read some clear clubs as spades at one angle and as clubs a quarter turn away;
    where the turns disagree the geometric mean is unsure. On the tuning renders this read 0.3-0.7
    points more cards, 2.3-2.5 more scenes fully right and 8-10 false cards fewer, and the real
    tuning photos the same, for three more crops per unsure index; turning both margins read no
    better for twice that (models/HISTORY.md)."""
    second_opinion_tilts: tuple[float, ...] = ()
    """Angles (degrees) at which an index asked again is also read by the first classifier on its
    tightest crop cut tilted (:func:`cut_square`), those readings joining the geometric mean of its
    turned ones. Empty: off. A small tilt moved some readings far (a clear A♣ at 40° in a phone-size
    render read 0.58 cut 15° one way and 0.98 the other), and the mean over tilts is steadier: at
    -20, -10, 10 and 20 the eight tuning sets read 16 photos fixed and 6 broken, 11 false cards
    fewer, cards within a fifth of a point; but the validation sets 5 fixed and 6 broken, one of
    them the only `poker-cards-4` photo to lose a card (models/HISTORY.md, "Small tilts"). Measured,
    left off."""
    wider_margin: float | None = None
    """An index asked again (``second_opinion_below``) is also read by every classifier on one
    wider crop, grown by this fraction a side (0.4: the widest margin the classifiers trained at);
    that reading replaces the tight crops' where it is surer by ``wider_surer_by`` and names one of
    their two likeliest classes (:func:`prefer_wider`). ``None``: off. In fans and overlaps the
    detector sometimes boxes only the rank of an index, and the tight crops then cut the suit off (a
    box on the Q of a QS read QC at 0.6 on a phone-size tuning render, its wider crop QS at 0.9).
    Measured at 0.4 and left off: on the tuning sets it read 0.3-0.9 points more cards and up to
    2.7 more photos in 100 fully right on the renders, but on the validation sets it fixed 7 photos
    and broke 8, and false cards rose on eight sets of nine (models/HISTORY.md, "Wider crops")."""
    wider_surer_by: float = 0.2
    """How much surer the wider crop's reading must be than the tight crops' to replace it."""
    show_fill_floor: float = 0.65
    """Reading a photo the player said holds so many cards (a show: :class:`~vision.detections.Expected`),
    a card short of the line makes up the number when the combined reading of its indices is at
    least this (of one card more than expected, the count sets the least sure aside:
    :func:`vision.starter.surest`). Both together, on the tuning sets' shows (the 612 photos of 4
    or 5 cards in view among the real tuning photos and three sets of held-out renders), read 541
    fully right against 521 and 25 false cards against 35. Lower, more photos come right and more
    false cards with them (0.55: 545 and 36); at 0.7, the line itself, the number is only kept
    down (535 and 21). Of the cards made up at 0.65, 19 of 24 were right; of those set aside, 15
    of 17 were false. A photo of four cards whose starter was not named is read as five, a card
    made up, one time in 40. The validation sets' 631 shows gained less: 3 photos fully right (2
    of them real), with 3 false cards more on the renders and 2 fewer on the real photos; 5 of
    the 11 cards made up were right (models/HISTORY.md, "Reading a show as a show")."""
    min_long_side: int = 1600
    """Decode JPEGs at the smallest DCT scale that keeps this many pixels on the long side."""
    white_percentile: float | None = 99.0
    """Before anything reads it, a photo taken in dim or tinted light has each channel scaled so
    that this percentile lands on ``white_target`` (:func:`vision.image_io.white_balanced`: the
    cards are the photo's white), by at most ``white_max_gain``; ``None``: every photo as decoded.
    A card game is often played in the evening under warm or dim light, which the renders hold
    little of: the real tuning photos made dim (×0.4, with noise) read 80.8% of cards and 48 of 78
    photos fully right, dim and warm 73.8% and 45; balanced, 98.2% / 70 and 95.7% / 65, the
    photos as taken and the renders about the same (models/HISTORY.md, "Dim and warm light")."""
    white_target: float = 235.0
    white_max_gain: float = 3.0
    white_min_change: float = 0.25
    """Only a photo this far off is balanced: every channel's gain at least 1 + this (dim), or the
    largest gain that much over the smallest (tinted). 0.25 and 0.3 read the tuning sets within a
    photo or two. Balancing any photo with one gain 0.3 off 1 kept the same real gains but balanced
    renders the models read well as they are (4 photos broken, 1 fixed), and put a benchmark
    photo in doubt; balancing every photo broke 15 of 600 renders."""


def _session(path: Path):
    import onnxruntime as ort

    if not path.exists():
        raise ModelMissingError(f"model file {path} is missing; see models/README.md to retrain")
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Each session has its own thread pool, whose threads spin a while after a run waiting for
    # more: with a detector and three classifiers run one after another on two cores, the idle
    # pools' spinning took the cores from the busy one (benchmark 162-176 ms with spinning,
    # see models/HISTORY.md).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


DETECTOR_STRIDE = 32
"""The detector's largest stride: its input sides must be multiples of it."""


def _letterbox(img: np.ndarray, size: int, stride: int | None = None) -> tuple[np.ndarray, float, tuple[int, int]]:
    """``img`` scaled to ``size`` on its long side and padded grey: to a square, or with ``stride``
    only to the next multiple of it (a 4:3 photo at 480 -> 480x384, not 480x480: a fifth less
    work for the detector, whose ONNX takes any size; the tuning sets read the same)."""
    r = size / max(img.shape[:2])
    resized = to_long_side(img, size)
    nh, nw = resized.shape[:2]
    cw, ch = (-(-nw // stride) * stride, -(-nh // stride) * stride) if stride else (size, size)
    canvas = np.full((ch, cw, 3), 114, np.uint8)
    top, left = (ch - nh) // 2, (cw - nw) // 2
    canvas[top : top + nh, left : left + nw] = resized
    return canvas, r, (left, top)


def _to_tensor(bgr: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(bgr[..., ::-1].transpose(2, 0, 1))[None].astype(np.float32) / 255.0


def square_crop_box(xyxy: np.ndarray, margin: float) -> np.ndarray:
    """The training crop rule: grow each side by ``margin`` x size, then grow the short side to a square."""
    x0, y0, x1, y1 = xyxy
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    side = max(w, h) * (1 + 2 * margin)
    return np.array([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2], np.float32)


def cut_square(img: np.ndarray, box: np.ndarray, size: int, tilt: float = 0.0) -> np.ndarray:
    """Cut ``box`` (may leave the image: padded by edge replication) and resize to ``size``; with
    ``tilt`` (degrees) the square is cut turned clockwise that much about its centre, so the glyphs
    in the crop come out turned anticlockwise (a tilt of 90 is :func:`numpy.rot90` of the plain crop,
    to half a pixel)."""
    x0, y0, x1, y1 = box
    interp = cv2.INTER_AREA if (x1 - x0) > size else cv2.INTER_LINEAR
    if not tilt:
        src = np.float32([[x0, y0], [x1, y0], [x0, y1]])
        dst = np.float32([[0, 0], [size, 0], [0, size]])
        m = cv2.getAffineTransform(src, dst)
        return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    # Each crop pixel (u, v) samples the photo at the box's centre + R((u, v) - size / 2) * scale,
    # R the crop's axes turned clockwise (y down) in the photo.
    a = math.radians(tilt)
    scale = (x1 - x0) / size
    c, s = math.cos(a) * scale, math.sin(a) * scale
    cx, cy, h = (x0 + x1) / 2, (y0 + y1) / 2, size / 2
    m = np.float32([[c, -s, cx - (c - s) * h], [s, c, cy - (s + c) * h]])
    return cv2.warpAffine(img, m, (size, size), flags=interp | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def crop_batch(img: np.ndarray, xyxy: np.ndarray, margin: float, size: int, tilt: float = 0.0) -> np.ndarray:
    """(N, 3, size, size): each index box grown by ``margin`` and squared (:func:`square_crop_box`),
    cut at ``size`` (and ``tilt``: :func:`cut_square`), as the classifiers take their input."""
    return np.concatenate([_to_tensor(cut_square(img, square_crop_box(b, margin), size, tilt)) for b in xyxy])


def geometric_mean(readings: np.ndarray) -> np.ndarray:
    """(K, N, classes) probabilities -> (N, classes): the normalised geometric mean over K. Unlike
    the plain mean, one reading that rules a class out pulls it down: readings that disagree make
    an unsure result rather than a confident wrong one."""
    logp = np.log(np.clip(readings, 1e-6, 1)).mean(axis=0)
    p = np.exp(logp - logp.max(axis=1, keepdims=True))
    return p / p.sum(axis=1, keepdims=True)


def prefer_wider(tight: np.ndarray, wide: np.ndarray, surer_by: float) -> np.ndarray:
    """(N, classes) readings of N indices from tight crops and from wider ones -> per index the
    wider reading where it is surer by ``surer_by`` and its top class is one of the tight reading's
    two likeliest, else the tight one (:attr:`RecognizerConfig.wider_margin`)."""
    top_two = np.argsort(-tight, axis=1)[:, :2]
    take = (wide.max(axis=1) > tight.max(axis=1) + surer_by) & (top_two == wide.argmax(axis=1)[:, None]).any(axis=1)
    return np.where(take[:, None], wide, tight)


def nested(xyxy: np.ndarray, min_cover: float = 0.0) -> np.ndarray:
    """(N, N): whether boxes i and j nest, the centre of one inside the other: two boxes on one
    index (one place holds one index), however differently sized. With ``min_cover``, they must
    also share at least that fraction of the smaller box: in a tight fan the boxes on two
    neighbouring indices overlap enough for a centre to fall inside the other box, yet share
    little of either (:attr:`RecognizerConfig.nest_cover`)."""
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    inside = ((centres[:, None, 0] >= xyxy[None, :, 0]) & (centres[:, None, 0] <= xyxy[None, :, 2])
              & (centres[:, None, 1] >= xyxy[None, :, 1]) & (centres[:, None, 1] <= xyxy[None, :, 3]))
    nest = inside | inside.T
    if min_cover > 0:
        shared, area_a, area_b = box_overlaps(xyxy, xyxy)
        nest &= shared >= min_cover * np.maximum(np.minimum(area_a[:, None], area_b[None, :]), 1e-6)
    return nest


def _outread(xyxy: np.ndarray, best: np.ndarray, sure: np.ndarray, is_card: np.ndarray,
             min_cover: float = 0.0) -> np.ndarray:
    """Per index: whether a surer reading of a different card sits in the same place (:func:`nested`)."""
    n = len(best)
    surer = (sure[None, :] > sure[:, None]) | ((sure[None, :] == sure[:, None]) & (np.arange(n)[None, :] > np.arange(n)[:, None]))
    rival = nested(xyxy, min_cover) & (best[:, None] != best[None, :]) & is_card[None, :] & surer
    return is_card & rival.any(axis=1)


def merge_indices(indices: Detections, probs: np.ndarray, class_cards: list[Card | None],
                  card_confidence: float, sure_index_confidence: float = 0.0,
                  nest_cover: float = 0.0, expected: Expected | None = None,
                  fill_floor: float = 0.0) -> Detections:
    """One detection per card: indices read as the same card are its two corners.

    ``probs`` (N, classes) are the classifier's readings of the N indices; ``class_cards`` names
    the classes (``None`` for "not a card"). An index goes to the card it most likely shows,
    unless "not a card" is likelier. A card's indices combine by summing log-probabilities,
    so a clear reading of one corner outweighs a blurred other corner; the card is kept when
    the combined probability reaches ``card_confidence`` and one of its indices alone reads it
    at ``sure_index_confidence`` or more. Sorted left to right, as a player
    reads a row.

    One place holds one index: boxes that nest (the centre of one inside the other, sharing at
    least ``nest_cover`` of the smaller box) but read as different cards are the detector's second
    guesses at one index, half of it cut by an overlapping card or a pip beside it taken in, so
    only the surest reading among them counts.

    With ``expected`` (the player said how many cards the photo holds, :class:`Expected`), where
    fewer cards pass the line the likeliest of those short of it (at ``fill_floor`` or more) make
    up the number (``made_up`` on their rows); a card ``expected.besides`` names is not counted.
    Of more cards than expected none is dropped here: the count sets the least sure aside and says
    so (:func:`vision.starter.surest`).
    """
    none = [i for i, c in enumerate(class_cards) if c is None]
    card_probs = probs.copy()
    card_probs[:, none] = 0
    best = card_probs.argmax(axis=1)
    is_card = card_probs[np.arange(len(best)), best] > probs[:, none].max(axis=1, initial=0)
    is_card &= ~_outread(indices.xyxy, best, card_probs.max(axis=1), is_card, nest_cover)
    groups: dict[int, list[int]] = {}
    for i in np.flatnonzero(is_card):
        groups.setdefault(int(best[i]), []).append(int(i))
    rows, short = [], []
    for cls, members in groups.items():
        logp = np.log(np.clip(probs[members], 1e-6, 1)).sum(axis=0)
        joint = np.exp(logp - logp.max())
        joint /= joint.sum()
        # The detector's score already gated each index (index_confidence); multiplying it in
        # again would punish real photos twice, where it runs lower than on synthetic ones.
        p_card = float(joint[cls])
        boxes = indices.xyxy[members]
        union = np.array([boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max()])
        row = (class_cards[cls], p_card, union, boxes)
        passed = p_card >= card_confidence and probs[members, cls].max() >= sure_index_confidence
        (rows if passed else short).append(row)
    made_up = _making_up(rows, short, expected, fill_floor) if expected is not None else []
    rows = [(*r, False) for r in rows] + [(*r, True) for r in made_up]
    if not rows:
        return Detections.empty()
    rows.sort(key=lambda r: (r[2][0], r[2][1]))
    return Detections(
        xyxy=np.stack([r[2] for r in rows]),
        confidence=np.array([r[1] for r in rows]),
        cards=tuple(r[0] for r in rows),
        indices=tuple(r[3] for r in rows),
        data={"made_up": np.array([r[4] for r in rows])} if expected is not None else {},
    )


def _making_up(kept: list[tuple], short: list[tuple], expected: Expected, floor: float) -> list[tuple]:
    """The rows (card, confidence, ...) of ``short`` that bring ``kept`` up to ``expected.cards``: the
    likeliest, at ``floor`` or more; ``expected.besides`` neither counted nor taken."""
    counted = sum(r[0] != expected.besides for r in kept)
    likeliest = sorted((r for r in short if r[0] != expected.besides and r[1] >= floor), key=lambda r: -r[1])
    return likeliest[: max(expected.cards - counted, 0)]


def faint_new_indices(groups: list[list[int]], confidence: np.ndarray, n_main: int, line: float) -> np.ndarray:
    """Per group of :func:`group_looks`: whether it is a new index (not led by one of the ``n_main``
    main boxes) whose leading box the detector scored below ``line`` (``confidence`` per box)."""
    return np.array([g[0] >= n_main and confidence[g[0]] < line for g in groups], bool)


def group_looks(main: Detections, others: Detections, iou: float,
                confidence: float) -> tuple[Detections, list[list[int]]]:
    """The indices of several looks at one photo: ``main``'s boxes, each a group of its own, and
    ``others`` (the detector's boxes at other sizes) taken surest first: a box overlapping a main
    box at ``iou`` or more joins its group (another reading of that index), else one overlapping an
    earlier new group's first box joins that, else, scored ``confidence`` or more, it starts a new
    group (an index the main look missed); the rest are dropped. Main boxes win over new ones, so
    a second look never moves an index the main look found.

    Returns the boxes to read (``main``'s, then the kept ``others``) and, per group, its rows in
    those boxes, the group's leading box first.
    """
    n = len(main)
    groups = [[i] for i in range(n)]
    if not len(others):
        return main, groups
    xyxy, conf = list(main.xyxy), list(main.confidence)
    for j in np.argsort(-others.confidence, kind="stable"):
        leaders = np.array([xyxy[g[0]] for g in groups], np.float32).reshape(-1, 4)
        on = box_iou(others.xyxy[j : j + 1], leaders)[0]
        if n and on[:n].max() >= iou:
            group = int(on[:n].argmax())
        elif len(on) and on.max() >= iou:
            group = int(on.argmax())
        elif others.confidence[j] >= confidence:
            group = len(groups)
            groups.append([])
        else:
            continue
        groups[group].append(len(xyxy))
        xyxy.append(others.xyxy[j])
        conf.append(others.confidence[j])
    boxes = Detections(xyxy=np.array(xyxy, np.float32).reshape(-1, 4), confidence=np.array(conf, np.float32))
    return boxes, groups


CLASSIFIER_FILES = ("classifier.onnx", "classifier2.onnx", "classifier3.onnx")
"""The classifier, and optional others trained on other data, asked about the indices the first
is unsure of (:attr:`RecognizerConfig.second_opinion_below`): their readings are averaged. The
first is fine-tuned on the most deck designs; the second, a wider network, trained from scratch
on the first's crops plus crops at the detector's own boxes; a third, when present, is read too
(the release that fixed the mirrored renders ships none: its third had seen only mirrored cards
and, fine-tuned, read worse than none; models/HISTORY.md)."""


def with_second_looks(config: RecognizerConfig, *, always: bool = False, whole: bool = False) -> RecognizerConfig:
    """``config`` with the second looks the evaluation and the benchmark compare against
    (``--always-look-again``, ``--whole-second-looks``): taken at every photo, not only where the
    main look leaves doubt (``always``); over the whole photo, every box they find read again (``whole``,
    an earlier release's)."""
    if always:
        config = replace(config, second_look_below=math.inf)
    if whole:
        config = replace(config, second_look_window=0.0, second_reading_below=math.inf)
    return config


HARVEST_SETTINGS = {"crop_margins": (0.2, 0.3), "square_input": True, "second_opinion_below": 0.97,
                    "second_opinion_turns": False, "large_photo_detector_size": None, "second_look_sizes": (),
                    "wider_margin": None, "nest_cover": 0.0, "white_percentile": None}
"""How the recognizer read photos when ``scripts/retrain.sh`` harvested the real crops and scenes
the shipped models trained on: the harvesters keep these, so a retrain labels the same photos the
same way whatever the runtime's own settings have become since."""


@dataclass(frozen=True)
class Classifier:
    """One ONNX classifier and its input size (from the ``.json`` sidecar)."""

    session: object
    size: int

    def read(self, batch: np.ndarray) -> np.ndarray:
        """(N, classes) probabilities for a (N, 3, size, size) batch of crops (:func:`_to_tensor`)."""
        return self.session.run(None, {self.session.get_inputs()[0].name: batch})[0]


class Recognizer:
    """The ONNX models, loaded once; call :meth:`recognize` per photo."""

    def __init__(self, models_dir: str | Path = MODELS_DIR, config: RecognizerConfig | None = None) -> None:
        models_dir = Path(models_dir)
        self.config = config or RecognizerConfig()
        self.detector = _session(models_dir / "detector.onnx")
        det_meta = json.loads((models_dir / "detector.json").read_text())
        self.det_size = int(det_meta["imgsz"])
        self.classifiers: list[Classifier] = []
        names: list[str] = []
        for i, file in enumerate(CLASSIFIER_FILES):
            path = models_dir / file
            if i and not path.exists():
                continue
            session = _session(path)
            meta = json.loads(path.with_suffix(".json").read_text())
            if names and meta["names"] != names:
                raise ValueError(f"{path}: its classes differ from {CLASSIFIER_FILES[0]}'s; they cannot be averaged")
            names = meta["names"]
            self.classifiers.append(Classifier(session, int(meta["imgsz"])))
        self.class_cards: list[Card | None] = [None if n == NONE_CLASS else Card.parse(n) for n in names]
        self.none_classes = [i for i, c in enumerate(self.class_cards) if c is None]

    # -- stages ---------------------------------------------------------------------------------
    def detector_size(self, img: np.ndarray) -> int:
        """The long side the detector sees ``img`` at (:attr:`RecognizerConfig.large_photo_detector_size`)."""
        large = self.config.large_photo_detector_size
        if large and max(img.shape[:2]) >= 2 * large:
            return max(large, self.det_size)
        return self.det_size

    def detect_indices(self, img: np.ndarray, size: int | None = None,
                       window: tuple[int, int, int, int] | None = None) -> Detections:
        """Corner-index boxes in ``img`` pixels (cards not read yet), the detector seeing ``img`` at
        ``size`` on its long side (default: :meth:`detector_size`); with ``window`` (x0, y0, x1, y1)
        it sees only that part of ``img``, at the same scale."""
        stride = None if self.config.square_input else DETECTOR_STRIDE
        canvas, r, (left, top) = _letterbox(img, size or self.detector_size(img), stride)
        if window is not None:
            # Cut the window from the letterboxed photo on the detector's stride grid, so that it
            # sees the very pixels it would see there in the whole photo.
            step = stride or DETECTOR_STRIDE
            ch, cw = canvas.shape[:2]
            cx0 = max(0, int((window[0] * r + left) // step) * step)
            cy0 = max(0, int((window[1] * r + top) // step) * step)
            cx1 = min(cw, -int(-(window[2] * r + left) // step) * step)
            cy1 = min(ch, -int(-(window[3] * r + top) // step) * step)
            canvas = canvas[cy0:cy1, cx0:cx1]
            left, top = left - cx0, top - cy0
        out = self.detector.run(None, {self.detector.get_inputs()[0].name: _to_tensor(canvas)})[0][0]
        boxes_cxcywh, scores = out[:4].T, out[4:].max(axis=0)
        keep = scores >= self.config.index_confidence
        boxes_cxcywh, scores = boxes_cxcywh[keep], scores[keep]
        if not len(scores):
            return Detections.empty()
        xywh = np.column_stack([boxes_cxcywh[:, 0] - boxes_cxcywh[:, 2] / 2,
                                boxes_cxcywh[:, 1] - boxes_cxcywh[:, 3] / 2,
                                boxes_cxcywh[:, 2], boxes_cxcywh[:, 3]])
        kept = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), self.config.index_confidence, self.config.nms_iou)
        kept = np.array(kept, dtype=int).reshape(-1)
        xyxy = np.column_stack([xywh[kept, 0], xywh[kept, 1], xywh[kept, 0] + xywh[kept, 2],
                                xywh[kept, 1] + xywh[kept, 3]])
        xyxy = (xyxy - np.array([left, top, left, top], np.float32)) / r
        h, w = img.shape[:2]
        xyxy = np.clip(xyxy, 0, [w, h, w, h]).astype(np.float32)
        return Detections(xyxy=xyxy, confidence=scores[kept])

    def find_indices(self, img: np.ndarray, main: Detections | None = None, around: np.ndarray | None = None,
                     close: np.ndarray | None = None) -> tuple[Detections, list[list[int]]]:
        """Index boxes from the main look (``main``, when it was taken already) and the second looks
        (which see the region round the boxes ``around``, (N, 4) xyxy, default ``main``'s:
        :meth:`second_look_window`), and the close looks at the region of the boxes ``close`` (none
        when not given), grouped by index (:func:`group_looks`)."""
        cfg = self.config
        if main is None:
            main = self.detect_indices(img)
        window = self.second_look_window(img, main.xyxy if around is None else around)
        sizes = self.second_look_sizes(img)
        others = [self.detect_indices(img, s, window) for s in sizes]
        if cfg.zoom_look_span and window is not None:
            x0, y0, x1, y1 = window
            largest = max([*sizes, self.detector_size(img)]) / max(img.shape[:2])
            w, h = x1 - x0, y1 - y0
            if min(w, h) >= 8 and cfg.zoom_look_span / max(w, h) >= cfg.zoom_look_gain * largest:
                zoomed = self.detect_indices(np.ascontiguousarray(img[y0:y1, x0:x1]), cfg.zoom_look_span)
                others.append(zoomed.with_(xyxy=zoomed.xyxy + np.float32([x0, y0, x0, y0])))
        if close is not None and len(close) and cfg.close_look_sizes:
            near = self.second_look_window(img, close, cfg.close_look_window)
            others += [self.detect_indices(img, s, near) for s in cfg.close_look_sizes]
        floor = cfg.second_look_confidence
        if cfg.faint_box_confidence is not None:  # faint boxes are read too: keep them from their own floor
            floor = min(floor, cfg.faint_box_confidence)
        return group_looks(main, Detections.merge(others), cfg.second_look_iou, floor)

    def second_look_window(self, img: np.ndarray, xyxy: np.ndarray,
                           pad_heights: float | None = None) -> tuple[int, int, int, int] | None:
        """The part of ``img`` a second look sees: the region of the boxes ``xyxy`` (N, 4) and around
        it ``pad_heights`` (default ``second_look_window``) times their median height; ``None``: all of it."""
        if pad_heights is None:
            pad_heights = self.config.second_look_window
        if not pad_heights or not len(xyxy):
            return None
        h, w = img.shape[:2]
        pad = pad_heights * float(np.median(xyxy[:, 3] - xyxy[:, 1]))
        x0, y0 = xyxy[:, :2].min(axis=0) - pad
        x1, y1 = xyxy[:, 2:].max(axis=0) + pad
        box = (max(0, int(x0)), max(0, int(y0)), min(w, int(np.ceil(x1))), min(h, int(np.ceil(y1))))
        return None if box == (0, 0, w, h) else box

    def second_look_sizes(self, img: np.ndarray) -> list[int]:
        """The sizes the detector looks at ``img`` again at: the configured ones but its main size."""
        main_size = self.detector_size(img)
        return [s for s in self.config.second_look_sizes if s != main_size]

    def balanced(self, img: np.ndarray) -> np.ndarray:
        """The decoded photo as the models read it: white-balanced on its cards
        (:attr:`RecognizerConfig.white_percentile`), or as it is."""
        cfg = self.config
        if cfg.white_percentile is None:
            return img
        return white_balanced(img, cfg.white_percentile, cfg.white_target, cfg.white_max_gain, cfg.white_min_change)

    def main_look(self, img: np.ndarray) -> tuple[Detections, np.ndarray, Detections]:
        """The main look's index boxes, their readings, and the cards they make (boxes in ``img`` pixels)."""
        main = self.detect_indices(img)
        probs = self.classify(img, main)
        return main, probs, self.merge_by_card(main, probs)

    def second_looks_for(self, img: np.ndarray, cards: Detections) -> list[int]:
        """The sizes the detector looks at ``img`` again at, given the main look's ``cards``: none
        unless they leave doubt (:meth:`in_doubt`). One rule for the reading and the benchmark's
        count of looks (:func:`vision.bench.looks_taken`)."""
        sizes = self.second_look_sizes(img)
        return sizes if sizes and self.in_doubt(cards) else []

    def in_doubt(self, cards: Detections) -> bool:
        """Whether the main look's cards call for a second look (:attr:`RecognizerConfig.second_look_below`)."""
        cfg = self.config
        return len(cards) < max(cfg.second_look_fewer_than, 1) or float(cards.confidence.min()) < cfg.second_look_below

    def classify(self, img: np.ndarray, indices: Detections) -> np.ndarray:
        """Class probabilities (N, classes) for each index, averaged over the crop margins, and
        for indices the first classifier is unsure of (``second_opinion_below``) over its reading
        turned and tilted (``second_opinion_turns``, ``second_opinion_tilts``) and the other
        classifiers, or from a wider crop where that reads surer (``wider_margin``, :meth:`wider_reading`)."""
        n = len(indices)
        if not n:
            return np.zeros((0, len(self.class_cards)), np.float32)
        cfg = self.config
        margins = cfg.crop_margins
        batches: dict[int, np.ndarray] = {}

        def read(clf: Classifier, rows: np.ndarray, cuts: range, turns: tuple[int, ...] = (0,)) -> np.ndarray:
            """(turns x cuts, rows, classes): ``clf``'s reading of each row's index cut at the margins
            numbered ``cuts``, each crop turned ``k`` quarters for each ``k`` in ``turns``."""
            if clf.size not in batches:  # crops in (margin, index) order, cut once per input size
                batches[clf.size] = np.concatenate([crop_batch(img, indices.xyxy, m, clf.size) for m in margins])
            picked = batches[clf.size][(np.array(cuts)[:, None] * n + rows[None, :]).ravel()]
            batch = np.concatenate([np.rot90(picked, k, axes=(2, 3)) for k in turns])
            out = clf.read(batch)
            return out.reshape(len(turns) * len(cuts), len(rows), -1)

        first, *others = self.classifiers
        first_views = read(first, np.arange(n), range(len(margins)))
        probs = first_views.mean(axis=0)
        unsure = np.flatnonzero(probs.max(axis=1) < cfg.second_opinion_below)
        if len(unsure) and (others or cfg.second_opinion_turns or cfg.second_opinion_tilts):
            mine, weight = probs[unsure], 1
            views = [first_views[:, unsure]]
            if cfg.second_opinion_turns:  # the tightest crop only: half the cost, as good
                views.append(read(first, unsure, range(1), (1, 2, 3)))
            if cfg.second_opinion_tilts:
                views.append(self.tilted_readings(img, indices.xyxy[unsure], margins[0]))
            if len(views) > 1:  # read again turned or tilted: the geometric mean of every view
                mine = geometric_mean(np.concatenate(views))
                weight = max(len(others), 1)
            theirs = [read(clf, unsure, range(len(margins))).mean(axis=0) for clf in others]
            probs[unsure] = (weight * mine + sum(theirs)) / (weight + len(theirs))
            if cfg.wider_margin is not None:
                probs[unsure] = self.wider_reading(img, indices.xyxy[unsure], probs[unsure], weight)
        return probs.astype(np.float32)

    def tilted_readings(self, img: np.ndarray, xyxy: np.ndarray, margin: float) -> np.ndarray:
        """(tilts, N, classes): the first classifier's readings of the indices ``xyxy`` on crops
        grown by ``margin`` and cut tilted by each of :attr:`RecognizerConfig.second_opinion_tilts`."""
        tilts, first = self.config.second_opinion_tilts, self.classifiers[0]
        batch = np.concatenate([crop_batch(img, xyxy, margin, first.size, t) for t in tilts])
        return first.read(batch).reshape(len(tilts), len(xyxy), -1)

    def wider_reading(self, img: np.ndarray, xyxy: np.ndarray, tight: np.ndarray, weight: float) -> np.ndarray:
        """``tight`` (N, classes), the readings of the unsure indices ``xyxy``, with each replaced by
        its wider crop's reading (:attr:`RecognizerConfig.wider_margin`, every classifier averaged, the
        first counting ``weight`` times) where that one is surer by ``wider_surer_by`` and names one of
        the tight reading's two likeliest classes: the wider view settles what a box cut off (the suit
        beside or under a rank), it does not bring in a card the tight crops did not consider."""
        cfg = self.config
        views = []
        for clf in self.classifiers:
            views.append(clf.read(crop_batch(img, xyxy, cfg.wider_margin, clf.size)))
        wide = (weight * views[0] + sum(views[1:])) / (weight + len(views) - 1)
        return prefer_wider(tight, wide, cfg.wider_surer_by)

    def merge_by_card(self, indices: Detections, probs: np.ndarray, expected: Expected | None = None) -> Detections:
        """One detection per card, made up to ``expected``'s number where it is given (see :func:`merge_indices`)."""
        cfg = self.config
        return merge_indices(indices, probs, self.class_cards, cfg.card_confidence, cfg.sure_index_confidence,
                             cfg.nest_cover, expected, cfg.show_fill_floor)

    # -- whole pipeline ---------------------------------------------------------------------------
    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        """Cards in a decoded photo, boxes in original-image pixels: the main look, then the second
        looks where it leaves doubt (:meth:`in_doubt`). With ``expected``, cards short of the line
        make up the number the player said the photo holds (:func:`merge_indices`)."""
        img, cfg = self.balanced(photo.image), self.config
        main, main_probs, cards = self.main_look(img)
        boxes, probs = main, main_probs
        looked_again = bool(self.second_looks_for(img, cards))
        if looked_again:
            maybe_card = main_probs[:, self.none_classes].max(axis=1, initial=0) < cfg.second_reading_below
            sure = main_probs.max(axis=1) >= cfg.second_reading_below
            close = None
            if cfg.close_look_sizes:  # round the unsure indices and the doubtful cards' indices
                doubtful = [cards.indices[k] for k in np.flatnonzero(cards.confidence < cfg.second_look_below)]
                close = np.concatenate([main.xyxy[~sure], *doubtful]).reshape(-1, 4)
            boxes, groups = self.find_indices(img, main, main.xyxy[maybe_card], close)
            # The main boxes lead and keep their readings; only the new boxes are read, and of
            # those on a main box only the ones whose main reading is unsure.
            groups = [g[:1] if g[0] < len(main) and sure[g[0]] else g for g in groups]
            new = np.array(sorted(i for g in groups for i in g if i >= len(main)), int)
            probs = np.zeros((len(boxes), main_probs.shape[1]), np.float32)
            probs[: len(main)] = main_probs
            probs[new] = self.classify(img, boxes[new])
            faint = faint_new_indices(groups, boxes.confidence, len(main), cfg.second_look_confidence)
            if len(boxes) != len(groups):  # one reading per index: the mean of its looks', at the leading box
                boxes = boxes[[g[0] for g in groups]]
                probs = np.stack([probs[g].mean(axis=0) for g in groups])
            if faint.any():  # a faint new index stays only where it reads surely as a card and no firmer box is
                sure_card = np.delete(probs, self.none_classes, axis=1).max(axis=1) >= cfg.faint_box_reading
                crowded = (nested(boxes.xyxy, cfg.nest_cover) & ~faint[None, :]).any(axis=1)
                keep = ~faint | (sure_card & ~crowded)
                boxes, probs = boxes[keep], probs[keep]
        if looked_again or expected is not None:
            cards = self.merge_by_card(boxes, probs, expected)
        return in_photo_pixels(cards, photo.scale)

    def recognize(self, image: str | Path | bytes | np.ndarray, expected: Expected | None = None) -> Detections:
        """Cards in a photo given as a path, encoded bytes, a BGR array or a Pillow image
        (``expected``: see :meth:`recognize_photo`)."""
        size = self.config.min_long_side
        if isinstance(image, (bytes, bytearray)):
            photo = decode_photo(bytes(image), min_long_side=size, limits=LOCAL)
        elif isinstance(image, (str, PathLike)):
            photo = read_photo(image, min_long_side=size)
        else:
            photo = photo_from_array(image, min_long_side=size)
        return self.recognize_photo(photo, expected)


def in_photo_pixels(cards: Detections, scale: float) -> Detections:
    """``cards`` found on a photo decoded ``scale`` times smaller, with their boxes in the photo's own pixels."""
    if scale == 1 or not len(cards):
        return cards
    return cards.with_(xyxy=cards.xyxy * scale, quad=cards.quad * scale,
                       indices=tuple(i * scale for i in cards.indices))


@lru_cache(maxsize=1)
def default_recognizer() -> Recognizer:
    """The shipped models, loaded once per process."""
    return Recognizer()


def recognize(image: str | Path | bytes | np.ndarray) -> Detections:
    """Cards in a photo (path, bytes, BGR array or Pillow image) with the shipped models: a sequence of ``Detection``."""
    return default_recognizer().recognize(image)
