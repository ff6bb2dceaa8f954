"""The whole table read from one photo: 13-21 cards found and read, then split into groups.

A whole-table photo holds every hand, the crib and the starter, so its indices are two or three
times smaller than a one-hand photo's. :func:`read_table` reads it with the table's settings
(:func:`vision.config.for_the_table`: decoded at half size, not a quarter, the detector seeing it
at 1024 px, and at full size again where the indices are still small), told how many cards the
table holds so that one read short of the line makes up the number (:class:`~vision.detections.
Expected`), then splits the cards into the hands, the crib and the starter
(:func:`vision.table.find_groups`). The CLI and the service call it with their loaded recognizer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from os import PathLike

import numpy as np

from vision.config import for_the_table
from vision.decode import Photo, open_photo
from vision.detections import CHECK_BELOW, Detections, Expected, box_overlaps
from vision.pipeline import Recognizer, default_recognizer
from vision.table import TableLayout, find_groups, table_cards

__all__ = [
    "CLOSER_DETECTOR_PX", "TableReading", "closer_reader", "combined", "in_doubt",
    "least_sure_aside", "read_table", "read_table_cards", "read_table_photo", "table_cards", "table_reader",
]


@dataclass(frozen=True)
class TableReading:
    """A whole-table photo read: its cards and how they lie in groups."""

    detections: Detections
    """Every card found, boxes in the photo's own pixels."""
    layout: TableLayout
    """The cards split into the hands, the crib and the starter (rows of ``detections``)."""
    photo_size: tuple[int, int]
    """(width, height) of the upright photo, for drawing on it."""


def table_reader(recognizer: Recognizer | None = None) -> Recognizer:
    """``recognizer``'s models (default: the shipped ones, loaded once) with the table's settings;
    a caller that decodes the photo itself decodes it at ``.config.min_long_side``."""
    recognizer = recognizer or default_recognizer()
    return recognizer.configured(for_the_table(recognizer.config))


MAX_SET_ASIDE = 2
"""The most cards a table's reading sets aside beyond its number: a misread neighbour's index or a pip
now and then (one on the composites of docs/experiments/51-whole-table.md). More than that is not a
misreading but another table, or the wrong number of players: nothing is set aside, and the layout
refuses the count (:class:`~vision.table.TableLayoutError`) rather than rule on cards thrown away."""


def least_sure_aside(detections: Detections, cards: int) -> tuple[Detections, Detections]:
    """The table's ``cards`` surest cards, and those beyond its number set aside, the least sure first
    to go: as :func:`vision.roles.surest` sets one card aside from a show, since a card read beyond
    the number is mostly a second reading of a neighbour's index or a pip, read less surely than
    the cards on the table (docs/experiments/51-whole-table.md). The kept cards stay in photo order.
    Beyond :data:`MAX_SET_ASIDE` too many, nothing is set aside."""
    if not cards < len(detections) <= cards + MAX_SET_ASIDE:
        return detections, Detections.empty()
    kept = np.zeros(len(detections), bool)
    kept[np.argsort(-detections.confidence, kind="stable")[:cards]] = True
    return detections[kept], detections[~kept]


CLOSER_DETECTOR_PX = 1536
"""The long side the detector sees a table in doubt at, decoded at full size. On eight renders the
first look read short or wrong (14 cards missed or misread), alone it missed or misread 9 (at
1024 px, 12); combined with the first look it took the renders a person could read whole from 88%
to 91% cards right (docs/experiments/51-whole-table.md)."""


def in_doubt(cards: Detections, number: int) -> bool:
    """Whether a table's reading calls for the closer look: not the table's ``number`` of cards (short,
    or one to set aside: a card misread, or a false one surer than a true one), or a card the player
    would be asked to check (read below :data:`~vision.detections.CHECK_BELOW`)."""
    return len(cards) != number or bool((cards.confidence < CHECK_BELOW).any())


def closer_reader(reader: Recognizer) -> Recognizer:
    """``reader``'s models as the closer look reads: the photo at full size, the detector seeing it at
    :data:`CLOSER_DETECTOR_PX`."""
    return reader.configured(replace(reader.config, large_photo_detector_size=CLOSER_DETECTOR_PX))


def _same_place(a: Detections, b: Detections) -> np.ndarray:
    """Per card of ``a``: whether one of its indices lies where an index of ``b`` does (they share half
    the smaller box): one place holds one index, so they are two readings of one card."""
    if not len(b):
        return np.zeros(len(a), bool)
    theirs = np.concatenate([np.asarray(i, np.float32).reshape(-1, 4) for i in b.indices])
    out = []
    for mine in a.indices:
        shared, area_a, area_b = box_overlaps(np.asarray(mine, np.float32).reshape(-1, 4), theirs)
        out.append(bool((shared >= 0.5 * np.minimum(area_a[:, None], area_b[None, :])).any()))
    return np.array(out, bool)


def combined(closer: Detections, coarse: Detections, number: int) -> Detections:
    """The closer look's cards, and the coarse look's cards it did not read anywhere else, the surest
    first, up to the table's ``number``: a card read at both scales keeps the finer reading, as does
    a place read as two different cards, and where the closer look reads the table's number, a card
    only the coarse look read (at a quarter of the pixels) is the one too many."""
    fresh = np.array([card not in closer.cards for card in coarse.cards], bool)
    fresh &= ~_same_place(coarse, closer)
    room = max(number - len(closer), 0)
    keep = np.zeros(len(coarse), bool)
    keep[[i for i in np.argsort(-coarse.confidence, kind="stable") if fresh[i]][:room]] = True
    both = Detections.merge([closer, coarse[keep]])
    return both[np.argsort(both.xyxy[:, 0], kind="stable")] if len(both) else both


def read_table_cards(photo: Photo, players: int, *, five_card: bool = False,
                     reader: Recognizer | None = None) -> Detections:
    """The cards of a decoded whole-table photo, read by ``reader`` (a :func:`table_reader`) told the
    table's number, so that cards short of the line make up a number short, and those beyond it are
    set aside (:func:`least_sure_aside`). A reading :func:`in_doubt` (short, a card too many, or one to
    check) is read again closer, at full size (:func:`closer_reader`), and the two readings
    :func:`combined`. Each card's box is round its own corners: the table's settings take indices read
    alike as one card only within a card's reach (:attr:`~vision.config.RecognizerConfig.corners_apart`)."""
    reader = reader or table_reader()
    number = table_cards(players, five_card=five_card)
    read = reader.recognize_photo(photo, Expected(number))
    cards, _ = least_sure_aside(read, number)
    if photo.finer is None or not in_doubt(read, number):
        return cards
    closer = closer_reader(reader).recognize_photo(photo.finer(), Expected(number))
    return least_sure_aside(combined(closer, cards, number), number)[0]


def read_table_photo(photo: Photo, players: int, *, five_card: bool = False,
                     reader: Recognizer | None = None) -> TableReading:
    """A decoded whole-table photo read into its cards (:func:`read_table_cards`) and groups; raises
    :class:`~vision.table.TableLayoutError` when the cards found are not the table's number."""
    detections = read_table_cards(photo, players, five_card=five_card, reader=reader)
    layout = find_groups(detections, players=players, five_card=five_card)
    return TableReading(detections, layout, photo.original_size)


def read_table(image: str | PathLike | bytes | np.ndarray, players: int, *, five_card: bool = False,
               recognizer: Recognizer | None = None) -> TableReading:
    """Read a whole-table photo (path, bytes, BGR array or Pillow image; one's own, as
    :func:`vision.decode.open_photo` takes it) into its cards and groups.

    Raises :class:`~vision.decode.ImageError` for a photo that cannot be read and
    :class:`~vision.table.TableLayoutError` when the cards found are not the table's number.
    """
    reader = table_reader(recognizer)
    photo = open_photo(image, min_long_side=reader.config.min_long_side)
    return read_table_photo(photo, players, five_card=five_card, reader=reader)
