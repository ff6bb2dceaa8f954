"""What lies on the table: a hand in one of the layouts people photograph, the starter, the deck and props.

Positions are on the table plane in card widths; :mod:`training.synth.scene` puts a camera over
them and renders. Every draw comes from the scene's generator, in a fixed order, so a seed fixes
the layout.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from scorer.cards import Card
from training.synth import props
from training.synth.decks import load_deck

SCENE_TYPES = ("row", "spread", "overlap", "fan", "crib", "pegging")
# Tidy rows and loose spreads are how people photograph a hand; the rest keep the model honest.
SCENE_WEIGHTS = (0.26, 0.2, 0.16, 0.14, 0.12, 0.12)


@dataclass
class Item:
    """One thing on the table: a card face or back, or a prop."""

    kind: str
    """``face``, ``back``, ``board``, ``coin`` or ``finger``."""
    center: tuple[float, float]
    """Table units (a card is 1 wide)."""
    angle: float
    """Radians, counter-clockwise on the table."""
    size: tuple[float, float] = (1.0, 1.4)
    card: Card | None = None
    is_starter: bool = False
    lift: float = 0.0
    """Height above the table in card widths (cards held in the hand, stacked decks): sets the shadow."""
    image: np.ndarray | None = None
    """Props carry their own BGRA image; faces and backs come from the deck."""
    bend: float = 0.0
    """Bow of a card that is not flat, as a fraction of its width (0: flat)."""
    bend_axis: int = 0
    """0: the long edges bow (shift across the width), 1: the short edges bow."""
    back_index: int = 0


@dataclass(frozen=True)
class TableProps:
    """What may lie on the table besides the cards, where a render asks for other than the usual
    (the defaults render what the shipped models trained on, byte for byte)."""

    board_chance: float = 0.3
    """The chance a scene holds a cribbage board."""
    numbered_boards: bool = False
    """Boards print their counts, START and 121 (:func:`props.cribbage_board`)."""


USUAL_TABLE = TableProps()
"""The table the shipped models trained on: the default wherever a render takes a table."""


@dataclass
class SceneSpec:
    deck: str
    scene_type: str
    items: list[Item] = field(default_factory=list)


def _rot(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


def pick_cards(rng: np.random.Generator, n: int) -> list[Card]:
    return [Card.from_index(int(i)) for i in rng.choice(52, size=n, replace=False)]


# --- layouts ---------------------------------------------------------------------------

def _starter_and_deck(rng, items: list[Item], starter: Card | None, hand_xy: np.ndarray, aspect: float,
                      deck_p: float = 0.6) -> None:
    """Place the starter apart from the hand: above it, beside it, or on top of the face-down deck."""
    lo, hi = hand_xy.min(axis=0), hand_xy.max(axis=0)
    mode = rng.choice(["above", "beside", "deck"], p=[0.35, 0.3, 0.35])
    has_deck = mode == "deck" or rng.random() < deck_p * 0.5
    if mode == "above":
        pos = np.array([rng.uniform(lo[0], hi[0]), lo[1] - aspect * rng.uniform(1.1, 1.6)])
    elif mode == "beside":
        side = rng.choice([-1, 1])
        pos = np.array([(hi[0] + rng.uniform(1.3, 2.0)) if side > 0 else (lo[0] - rng.uniform(1.3, 2.0)),
                        rng.uniform(lo[1], hi[1])])
    else:
        pos = np.array([rng.uniform(lo[0] - 0.5, hi[0] + 0.5), lo[1] - aspect * rng.uniform(1.15, 1.7)])
    deck_pos = pos.copy()
    if has_deck and mode != "deck":
        deck_pos = pos + np.array([rng.choice([-1, 1]) * rng.uniform(1.3, 1.8), rng.uniform(-0.3, 0.3)])
    if has_deck:
        base_a = rng.normal(0, 0.15)
        for k in range(int(rng.integers(3, 7))):
            jitter = rng.normal(0, 0.012, 2)
            items.append(Item("back", tuple(deck_pos + jitter + np.array([0, -0.006 * k])),
                              base_a + rng.normal(0, 0.02), (1.0, aspect), lift=0.02 + 0.01 * k))
    if starter is not None:
        a = rng.normal(0, 0.25) if mode != "deck" else rng.normal(0, 0.12)
        items.append(Item("face", tuple(pos + rng.normal(0, 0.04, 2)), a, (1.0, aspect), starter, True,
                          lift=0.08 if mode == "deck" else 0.0))


def layout_row(rng, cards, starter, aspect) -> list[Item]:
    gap = rng.uniform(0.05, 0.45)
    items = []
    xy = []
    for i, c in enumerate(cards):
        p = np.array([i * (1 + gap), rng.normal(0, 0.04)])
        xy.append(p)
        items.append(Item("face", tuple(p), rng.normal(0, 0.05), (1.0, aspect), c))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


def layout_spread(rng, cards, starter, aspect) -> list[Item]:
    items, xy = [], []
    for c in cards:
        for _ in range(30):
            p = rng.uniform([0, 0], [3.8, 2.6])
            if all(np.linalg.norm(p - q) > 1.05 for q in xy):
                break
        xy.append(p)
        a = rng.normal(0, 0.45) if rng.random() < 0.8 else rng.uniform(-math.pi, math.pi)
        items.append(Item("face", tuple(p), a, (1.0, aspect), c))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


def layout_overlap(rng, cards, starter, aspect) -> list[Item]:
    """Cards overlapping left to right so only each card's left index shows."""
    dx = rng.uniform(0.2, 0.45)
    dy = rng.normal(0, 0.04)
    items, xy = [], []
    for i, c in enumerate(cards):
        p = np.array([i * dx, i * dy + rng.normal(0, 0.015)])
        xy.append(p)
        items.append(Item("face", tuple(p), rng.normal(0, 0.03), (1.0, aspect), c, lift=0.01 * i))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


def layout_fan(rng, cards, starter, aspect) -> list[Item]:
    """A fan held in one hand: cards turned about a pivot near their bottom, a thumb over it."""
    n = len(cards)
    step = rng.uniform(0.12, 0.25)
    radius = aspect * rng.uniform(0.55, 0.75)
    pivot = np.array([0.0, aspect * 0.6])
    lift = rng.uniform(0.3, 1.0)
    items, xy = [], []
    for i, c in enumerate(cards):
        a = (i - (n - 1) / 2) * step
        center = pivot + _rot(a) @ np.array([0.0, -radius])
        xy.append(center)
        items.append(Item("face", tuple(center), a, (1.0, aspect), c, lift=lift + 0.01 * i))
    # The thumb lies across the front card near the pivot; the palm shows below.
    palm, palm_size = props.palm(rng)
    pa = rng.normal(0, 0.25)
    palm_at = tuple(pivot + _rot(pa) @ np.array([0, palm_size[1] * 0.42]))
    items.insert(0, Item("finger", palm_at, pa, palm_size, image=palm, lift=lift * 0.8))
    thumb, tsize = props.finger(rng)
    ta = rng.uniform(0.6, 1.2) * rng.choice([-1, 1])
    items.append(Item("finger", tuple(pivot + np.array([0.05, -aspect * 0.12])), ta, tsize, image=thumb,
                      lift=lift + 0.1))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


def layout_crib(rng, cards, starter, aspect) -> list[Item]:
    """The crib being counted: a loose pile, cards pushed apart enough to read most indices."""
    items, xy = [], []
    base = rng.uniform(-0.3, 0.3)
    for i, c in enumerate(cards):
        p = np.array([i * rng.uniform(0.15, 0.5), rng.normal(0, 0.25)])
        xy.append(p)
        items.append(Item("face", tuple(p), base + rng.normal(0, 0.3), (1.0, aspect), c, lift=0.01 * i))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


def layout_pegging(rng, cards, starter, aspect) -> list[Item]:
    """Played cards: two players' overlapping rows facing each other (6-9 cards)."""
    items, xy = [], []
    half = (len(cards) + 1) // 2
    dx = rng.uniform(0.3, 0.7)
    for i, c in enumerate(cards):
        row = 0 if i < half else 1
        k = i if row == 0 else i - half
        p = np.array([k * dx, row * aspect * rng.uniform(1.4, 2.2)])
        xy.append(p)
        a = (math.pi if row == 1 else 0.0) + rng.normal(0, 0.06)
        items.append(Item("face", tuple(p), a, (1.0, aspect), c, lift=0.01 * k))
    _starter_and_deck(rng, items, starter, np.array(xy), aspect)
    return items


LAYOUTS = {"row": layout_row, "spread": layout_spread, "overlap": layout_overlap, "fan": layout_fan,
           "crib": layout_crib, "pegging": layout_pegging}


def _add_props(rng, items: list[Item], aspect: float, scene_type: str, table: TableProps) -> None:
    pts = np.array([it.center for it in items])
    lo, hi = pts.min(axis=0) - 0.8, pts.max(axis=0) + 0.8
    if rng.random() < table.board_chance:
        img, size = props.cribbage_board(rng, numerals=table.numbered_boards)
        side = rng.choice([-1, 1])
        y = (hi[1] + size[1] * 0.7) if side > 0 else (lo[1] - size[1] * 0.7)
        items.insert(0, Item("board", (float(rng.uniform(lo[0], hi[0])), float(y)), rng.normal(0, 0.2), size,
                             image=img, lift=0.15))
    for _ in range(int(rng.random() < 0.25) * int(rng.integers(1, 5))):
        img, size = props.coin(rng)
        p = rng.uniform(lo - 0.5, hi + 0.5)
        items.insert(int(rng.integers(0, len(items) + 1)), Item("coin", tuple(p), rng.uniform(0, 6.28), size,
                                                                 image=img, lift=0.02))
    if scene_type != "fan" and rng.random() < 0.15:
        # A finger pointing at or holding down a card, entering from the near side.
        target = items[int(rng.integers(len(items)))]
        img, size = props.finger(rng)
        a = rng.uniform(-0.6, 0.6) + math.pi
        off = _rot(a) @ np.array([0.0, -size[1] * 0.45])
        tip = (target.center[0] + off[0], target.center[1] + aspect * 0.5 + off[1])
        items.append(Item("finger", tip, a, size, image=img, lift=0.3))


def make_scene(rng: np.random.Generator, deck: str, scene_type: str | None = None,
               table: TableProps = TableProps()) -> SceneSpec:
    """Choose a layout and cards; place cards, starter, deck and props on the table plane."""
    art = load_deck(deck)
    if scene_type is None:
        weights = np.array(SCENE_WEIGHTS) / sum(SCENE_WEIGHTS)
        scene_type = SCENE_TYPES[int(rng.choice(len(SCENE_TYPES), p=weights))]
    if scene_type == "pegging":
        n_hand, with_starter = int(rng.integers(6, 10)), False
    else:
        n_hand = 4 if rng.random() < 0.85 else int(rng.integers(5, 7))
        with_starter = rng.random() < 0.85
    drawn = pick_cards(rng, n_hand + 1)
    hand, starter = drawn[:n_hand], (drawn[n_hand] if with_starter else None)
    items = LAYOUTS[scene_type](rng, hand, starter, art.aspect)
    _add_props(rng, items, art.aspect, scene_type, table)
    # Any rotation of the whole table.
    a = rng.uniform(-math.pi, math.pi) if rng.random() < 0.6 else rng.normal(0, 0.3)
    pts = np.array([it.center for it in items])
    c = (pts.min(axis=0) + pts.max(axis=0)) / 2
    R = _rot(a)
    for it in items:
        it.center = tuple(R @ (np.array(it.center) - c))
        it.angle += a
        if it.kind in ("face", "back") and rng.random() < 0.45:
            # Cards are rarely flat: a slight bow, more for cards held in the hand.
            it.bend = float(rng.normal(0, 0.012 if it.lift < 0.2 else 0.025))
            it.bend_axis = int(rng.random() < 0.3)
    return SceneSpec(deck, scene_type, items)
