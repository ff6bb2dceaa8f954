"""Whole-table photos tiled from real photos of single hands, for :mod:`training.eval.table_eval`.

No real photo of a whole table is labelled yet, but ``poker-cards-4`` holds real photos of hands
of four (each labelled in ``cards.csv``, its cards' boxes in ``labels/``). A composite lays one
photo per group (every hand and the crib) in a grid on one 12 MP canvas, table-coloured between
the tiles, and the starter in a cell of its own: one card cut by its label box from a photo of
five. Tiles are chosen with disjoint cards, so no card repeats on the table; each tile's cards are
one group, as one player's cards lie together. Real pixels, real decks, real light: only the
arrangement is made up (and the tiles enlarged about 1.7 times, so their indices are about the
size a whole-table photo gives them).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import Card
from training.data.real_crops import read_card_boxes, set_class_names
from training.data.yolo import label_of
from training.synth.table_scene import PHOTO_SIZE, TableTruth

GRIDS = {2: (2, 2), 3: (3, 2), 4: (3, 2)}
"""Columns and rows of tiles for each number of players: a cell per group and one for the starter."""
TILE_FILL = 0.78
"""A tile's share of its cell's width or height, so a band of table lies between two groups."""


@dataclass(frozen=True)
class Composite:
    """One tiled whole-table photo with its truth."""

    name: str
    players: int
    image: np.ndarray
    """BGR, 12 MP."""
    truth: TableTruth
    boxes: tuple[tuple[Card, tuple[float, float, float, float]], ...]
    """Every card's box on the canvas (from the tiles' labels), to tell which card a detection is."""


@dataclass(frozen=True)
class _Tile:
    path: Path
    cards: tuple[Card, ...]


def _tiles(folder: Path) -> list[_Tile]:
    """The labelled photos of ``folder`` (``cards.csv``, ``images/``)."""
    with (folder / "cards.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    return [_Tile(folder / "images" / r["file"], tuple(Card.parse(c) for c in r["cards"].split()))
            for r in rows]


def _choose(rng: np.random.Generator, tiles: list[_Tile], players: int) -> tuple[list[_Tile], list[_Tile]]:
    """A photo of four for each hand and the crib, no two sharing a card, and the photos of five to cut
    the starter from that share none with them, in a drawn order. Raises ``ValueError`` where the
    set holds too few."""
    fours = [t for t in tiles if len(t.cards) == 4]
    by_set: dict[frozenset[Card], list[_Tile]] = {}
    for t in fours:
        by_set.setdefault(frozenset(t.cards), []).append(t)
    if len(by_set) < players + 1:
        raise ValueError(f"a table of {players} needs {players + 1} photos of four with no card in "
                         f"common; the set has {len(by_set)}")
    sets = [list(by_set.values())[i] for i in rng.permutation(len(by_set))[: players + 1]]
    hands = [group[int(rng.integers(len(group)))] for group in sets]
    used = {c for t in hands for c in t.cards}
    fives = [t for t in tiles if len(t.cards) == 5 and not used & set(t.cards)]
    if not fives:
        raise ValueError("no photo of five shares no card with the hands: no starter to cut")
    return hands, [fives[i] for i in rng.permutation(len(fives))]


def _table_colour(images: list[np.ndarray]) -> np.ndarray:
    """The median colour of the tiles' edges: the table the photos were taken on."""
    edges = np.concatenate([np.concatenate([im[0], im[-1], im[:, 0], im[:, -1]]) for im in images])
    return np.median(edges, axis=0).astype(np.uint8)


def _loneliest(cards: list[tuple[Card, np.ndarray]]) -> tuple[Card, np.ndarray]:
    """The card of a photo whose box overlaps the others' least: cut out, it brings no other index."""
    return cards[min(range(len(cards)), key=lambda k: _overlap(cards, k))]


def _overlap(cards: list[tuple[Card, np.ndarray]], k: int) -> float:
    """How much of other cards' boxes card ``k``'s box covers (px²)."""
    x0, y0, x1, y1 = cards[k][1]
    return sum(max(0.0, min(x1, b[2]) - max(x0, b[0])) * max(0.0, min(y1, b[3]) - max(y0, b[1]))
               for j, (_, b) in enumerate(cards) if j != k)


def _starter_photo(fives: list[_Tile],
                   names: dict[int, Card]) -> tuple[_Tile, np.ndarray, list[tuple[Card, np.ndarray]]]:
    """The first of ``fives`` holding a card whose box overlaps no other's (a clean cut), else the first;
    with its image and its cards' boxes."""
    first = None
    for five in fives:
        image = cv2.imread(str(five.path))
        cards = read_card_boxes(label_of(five.path), image.shape[1::-1], names)
        if min(_overlap(cards, k) for k in range(len(cards))) == 0:
            return five, image, cards
        first = first or (five, image, cards)
    return first


def cut_starter(image: np.ndarray, cards: list[tuple[Card, np.ndarray]],
                 table: np.ndarray) -> tuple[np.ndarray, Card]:
    """The loneliest card of a photo of five cut out by its box, the parts of its box that other cards'
    boxes cover painted the table's colour: a neighbour's index peeking into the cut was read as a
    card too many on 9 of 60 composites (docs/experiments/51-whole-table.md)."""
    starter, (x0, y0, x1, y1) = _loneliest(cards)
    left, top = int(x0), int(y0)
    cut = image[top: int(np.ceil(y1)), left: int(np.ceil(x1))].copy()
    for card, (a0, b0, a1, b1) in cards:
        if card != starter:
            cut[max(int(b0) - top, 0): max(int(np.ceil(b1)) - top, 0),
                max(int(a0) - left, 0): max(int(np.ceil(a1)) - left, 0)] = table
    return cut, starter


def _paste(canvas: np.ndarray, image: np.ndarray, scale: float, cell: tuple[int, int, int, int],
           rng: np.random.Generator) -> tuple[float, float]:
    """``image`` enlarged ``scale`` times onto ``cell`` (x0, y0, w, h) of ``canvas``, about its middle;
    returns where its top left landed."""
    tile = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    x0, y0, w, h = cell
    th, tw = tile.shape[:2]
    left = int(x0 + (w - tw) / 2 + rng.uniform(-0.3, 0.3) * (w - tw) / 2)
    top = int(y0 + (h - th) / 2 + rng.uniform(-0.3, 0.3) * (h - th) / 2)
    canvas[top: top + th, left: left + tw] = tile
    return float(left), float(top)


def compose(folder: Path, players: int, rng: np.random.Generator, name: str = "composite") -> Composite:
    """One whole-table composite of ``players`` from the labelled photos in ``folder``."""
    names = set_class_names(folder)
    hands, fives = _choose(rng, _tiles(folder), players)
    _, five_image, five_cards = _starter_photo(fives, names)
    images = [*(cv2.imread(str(t.path)) for t in hands), five_image]
    cols, rows = GRIDS[players]
    W, H = PHOTO_SIZE
    cw, ch = W // cols, H // rows
    scale = min(cw, ch) * TILE_FILL / max(max(im.shape[:2]) for im in images)
    canvas = np.empty((H, W, 3), np.uint8)
    canvas[:] = _table_colour(images)
    cells = [(c * cw, r * ch, cw, ch) for r in range(rows) for c in range(cols)]
    order = rng.permutation(len(cells))
    boxes: list[tuple[Card, tuple[float, float, float, float]]] = []
    for tile, image, k in zip(hands, images, order, strict=False):
        left, top = _paste(canvas, image, scale, cells[k], rng)
        for card, box in read_card_boxes(label_of(tile.path), (image.shape[1], image.shape[0]), names):
            boxes.append((card, tuple(float(v) for v in box * scale + [left, top, left, top])))
    cut, starter = cut_starter(images[-1], five_cards, canvas[0, 0])
    left, top = _paste(canvas, cut, scale, cells[order[len(hands)]], rng)
    boxes.append((starter, (left, top, left + cut.shape[1] * scale, top + cut.shape[0] * scale)))
    truth = TableTruth(tuple(t.cards for t in hands), starter)
    return Composite(name, players, canvas, truth, tuple(boxes))
