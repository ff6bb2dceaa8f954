"""Where the shipped models live and the settings the recognizer reads them with.

Each field says in a line what it does; how each value was chosen (and what else was measured
and left off) is in the experiment log, ``docs/experiments/README.md``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

from vision.decode import DECODE_LONG_SIDE

_HERE = Path(__file__).resolve().parent
MODELS_DIR = Path(os.environ.get("CRIBCOUNT_MODELS") or next(
    (d for d in (_HERE / "models", _HERE.parent / "models") if (d / "detector.onnx").is_file()),
    _HERE.parent / "models"))
"""The shipped ONNX models: ``models/`` of a checkout, ``vision/models`` in a wheel (or
``$CRIBCOUNT_MODELS``)."""

CLASSIFIER_FILES = ("classifier.onnx", "classifier2.onnx", "classifier3.onnx")
"""The first classifier, and the others (when present) asked about the indices it is unsure of."""


@dataclass(frozen=True)
class RecognizerConfig:
    """Thresholds and sizes of the pipeline preprocess -> detect -> classify -> merge."""

    # preprocess
    min_long_side: int = DECODE_LONG_SIDE
    """Decode JPEGs at the smallest DCT scale keeping this long side (12 MP at a quarter) ..."""
    fine_long_side: int = 1600
    """... and one decoded under this again at twice the size where its indices are small, or its doubt
    would zoom in on a small region (:meth:`Recognizer.read_finer`) ..."""
    small_index_px: float = 16.0
    """... shorter than this (the median of the boxes the detector is sure of), or none is found."""
    white_percentile: float | None = 99.0
    """Balance a dim or tinted photo so this percentile of each channel lands on ``white_target``
    (the cards are the photo's white); ``None``: read photos as decoded."""
    white_target: float = 235.0
    white_max_gain: float = 3.0
    """The most any channel is scaled up."""
    white_min_change: float = 0.25
    """Balance only a photo at least this far off (every gain ≥ 1 + this, or the gains this far apart)."""

    # detect
    index_confidence: float = 0.05
    """Detector score to keep an index box (low: the classifier rejects clutter as ``none``)."""
    nms_iou: float = 0.5
    """Boxes overlapping more than this are one index: the less sure box is dropped."""
    square_input: bool = False
    """Pad the detector's input to a square, not just to its stride (how the harvesters read)."""
    large_photo_detector_size: int | None = 608
    """A photo at least twice this on its long side is shown to the detector at this size (not 480)."""
    second_look_sizes: tuple[int, ...] = (608, 736)
    """Other sizes the detector looks at a photo in doubt again at; () for one look."""
    second_look_below: float = 0.999
    """A photo is in doubt when a card reads below this (above 1: always look again) ..."""
    second_look_fewer_than: int = 5
    """... or when fewer cards than this are read (a show is five)."""
    second_look_window: float = 4.0
    """The second looks see the cards' region grown by this many index heights (0: the whole photo)."""
    zoom_look_span: int | None = 608
    """Also look at the cards' region alone, scaled to this long side, where that enlarges it enough."""
    zoom_look_gain: float = 1.5
    """... at least this many times over the largest whole-photo look."""
    second_look_iou: float = 0.5
    """A second look's box on a main box (IoU this or more) is another reading of that index."""
    second_look_confidence: float = 0.3
    """A box only a second look found is a new index when the detector scored it this or more."""
    second_reading_below: float = 0.99
    """A main-look index read this surely keeps its reading: second looks' boxes on it are not read."""

    # classify
    crop_margins: tuple[float, ...] = (0.1, 0.2)
    """Each index is cut grown by each margin (a fraction of its size), squared, and the readings averaged."""
    wider_crops_below: float | None = 0.99
    """... but an index whose tightest crop reads this surely is read from that crop alone (None: every
    margin for every index): the wider crops change no sure reading, and they are half the reads."""
    second_opinion_below: float = 0.9
    """An index the first classifier reads below this is also read by the others, and turned."""
    second_opinion_turns: bool = True
    """Also read such an index's tightest crop turned a quarter, a half and three quarters."""

    # merge
    card_confidence: float = 0.7
    """Probability a card needs after its indices' readings are combined."""
    sure_index_confidence: float = 0.5
    """... and one of its indices must read it this surely on its own."""
    nest_cover: float = 0.5
    """Boxes read as different cards are one place when they nest and share this much of the smaller."""
    show_fill_floor: float = 0.65
    """Reading a show, a card short of the line makes up the number when it reads at least this."""
    corners_apart: float | None = None
    """Indices read as one card but farther apart than this many index sizes are two cards, the one
    read less surely taking its next likeliest card; None: one card, wherever its indices lie."""


TABLE_FILL_FLOOR = 0.5
"""Reading a whole table, a card short of the line makes up the table's number when it is likelier than
not: a table names its number of cards (13-21), so a card read at 0.5-0.65 (small clubs, mostly) is
likelier the one missing than nothing; it is marked to check
(docs/experiments/54-a-table-makes-up-its-number.md)."""


CORNERS_APART = 6.0
"""Index sizes: the most empty space between one card's two corner indices (their boxes' long side;
measured on the renders' labels, 2.0-5.0 from the 5th to the 95th percentile, 6.05 at most)."""


def for_the_table(config: RecognizerConfig) -> RecognizerConfig:
    """``config`` for a whole-table photo (13-21 cards at the show, :mod:`vision.table_read`): a 12 MP
    photo decoded at half its size, not a quarter, and shown to the detector at 1024 px, not 608, so
    that its smaller indices are found and read; one whose indices are still small is read again at
    full size (``fine_long_side``); a card short of the line makes up the number from
    :data:`TABLE_FILL_FLOOR`. A one-hand photo is read as ever: these settings are used only where the
    player said the photo holds the table (docs/experiments/51-whole-table.md)."""
    return replace(config, min_long_side=2000, fine_long_side=4000, large_photo_detector_size=1024,
                   show_fill_floor=TABLE_FILL_FLOOR, corners_apart=CORNERS_APART)
