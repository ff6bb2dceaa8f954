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

from dataclasses import dataclass
from os import PathLike

import numpy as np

from vision.config import for_the_table
from vision.decode import Photo, open_photo
from vision.detections import Detections, Expected
from vision.pipeline import Recognizer, default_recognizer
from vision.table import TableLayout, find_groups, group_sizes

__all__ = ["TableReading", "read_table", "read_table_photo", "table_cards", "table_reader"]


@dataclass(frozen=True)
class TableReading:
    """A whole-table photo read: its cards and how they lie in groups."""

    detections: Detections
    """Every card found, boxes in the photo's own pixels."""
    layout: TableLayout
    """The cards split into the hands, the crib and the starter (rows of ``detections``)."""
    photo_size: tuple[int, int]
    """(width, height) of the upright photo, for drawing on it."""


def table_cards(players: int, *, five_card: bool = False) -> int:
    """How many cards a table at the show holds: every hand, the crib and the starter.

    >>> table_cards(2), table_cards(3), table_cards(4), table_cards(2, five_card=True)
    (13, 17, 21, 11)
    """
    return sum(group_sizes(players, five_card=five_card)) + 1


def table_reader(recognizer: Recognizer | None = None) -> Recognizer:
    """``recognizer``'s models (default: the shipped ones, loaded once) with the table's settings;
    a caller that decodes the photo itself decodes it at ``.config.min_long_side``."""
    recognizer = recognizer or default_recognizer()
    return recognizer.configured(for_the_table(recognizer.config))


def read_table_photo(photo: Photo, players: int, *, five_card: bool = False,
                     reader: Recognizer | None = None) -> TableReading:
    """A decoded whole-table photo read into its cards and groups by ``reader`` (a
    :func:`table_reader`); raises :class:`~vision.table.TableLayoutError` when the cards found
    are not the table's number."""
    reader = reader or table_reader()
    detections = reader.recognize_photo(photo, Expected(table_cards(players, five_card=five_card)))
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
