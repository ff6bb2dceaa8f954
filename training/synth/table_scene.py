"""The whole table at the show, rendered: every hand, the crib and the starter in one 12 MP photo.

A table layout seats 2, 3 or 4 players round the table, each hand lying in front of its player
(a row, a fan or an overlapping pile, turned to face that player), the crib beside the dealer's
hand and the starter on top of the face-down pack in the middle or set apart from it; a cribbage
board and coins may lie about. Groups are pushed apart until a card width or more of table lies
between any two (RULES.md: one player's cards lie together and apart from the others'). The
camera of :mod:`training.synth.scene` is then widened to frame the whole table, so the indices
come out as small as a phone makes them. The truth (which cards make each group, which is the
starter) travels with the photo, for :mod:`training.eval.table_eval`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from scorer.cards import Card
from training.synth import props
from training.synth.decks import load_deck
from training.synth.export import choose_deck
from training.synth.layouts import Item, SceneSpec, _rot, pick_cards
from training.synth.photo import develop, jpeg
from training.synth.scene import Camera, _item_corners, _project, labels, render

HAND_STYLES = ("row", "fan", "pile")
"""How a hand lies: cards side by side, turned about a pivot, or overlapping left to right."""
TABLE_STYLES = (*HAND_STYLES, "mixed")
"""A table's hands all in one style, or each drawn on its own (``mixed``)."""
STARTER_PLACES = ("pack", "apart")
"""The starter on top of the face-down pack, or alone with the pack elsewhere or put away."""
PHOTO_SIZE = (4032, 3024)
"""A 12 MP phone photo, landscape (most renders) or portrait."""
MIN_GROUP_GAP = 1.0
"""Card widths of table at least between two groups, and between a group and the starter."""
_FRAME_MARGIN = 0.04


@dataclass(frozen=True)
class TablePlan:
    """What a table render shows: drawn from the seed, or named for a measurement by layout."""

    players: int
    style: str
    """One of :data:`TABLE_STYLES`."""
    starter_place: str
    """One of :data:`STARTER_PLACES`."""

    @property
    def name(self) -> str:
        """The layout's name in reports, e.g. ``2p-fan-pack``."""
        return f"{self.players}p-{self.style}-{self.starter_place}"


@dataclass(frozen=True)
class TableTruth:
    """Which cards lie together (each hand, then the crib) and which is the starter."""

    groups: tuple[tuple[Card, ...], ...]
    starter: Card


@dataclass(frozen=True)
class TableRender:
    """One rendered whole-table photo: the JPEG, its truth and its labels (as a synth scene's)."""

    plan: TablePlan
    jpeg: bytes
    truth: TableTruth
    label: dict


def draw_plan(rng: np.random.Generator, players: int | None = None) -> TablePlan:
    """A table to render: ``players`` (else 2-4), its hands' style and where the starter lies."""
    players = int(rng.integers(2, 5)) if players is None else players
    style = TABLE_STYLES[int(rng.integers(len(TABLE_STYLES)))]
    return TablePlan(players, style, STARTER_PLACES[int(rng.integers(2))])


# --------------------------------------------------------------------------- one group of cards


def _hand(rng: np.random.Generator, cards: list[Card], style: str, aspect: float) -> list[Item]:
    """A hand lying face up, centred on the origin, read from below (its player's side)."""
    n = len(cards)
    if style == "row":
        gap = rng.uniform(0.05, 0.35)
        places = [((i - (n - 1) / 2) * (1 + gap), rng.normal(0, 0.04), rng.normal(0, 0.05)) for i in range(n)]
    elif style == "pile":
        dx, dy = rng.uniform(0.28, 0.45), rng.normal(0, 0.04)
        places = [((i - (n - 1) / 2) * dx, i * dy, rng.normal(0, 0.03)) for i in range(n)]
    elif style == "fan":
        step, radius = rng.uniform(0.15, 0.28), aspect * rng.uniform(0.55, 0.75)
        places = []
        for i in range(n):
            a = (i - (n - 1) / 2) * step
            x, y = _rot(a) @ np.array([0.0, -radius])
            places.append((float(x), float(y + radius), a))
    else:
        raise ValueError(f"a hand lies as {', '.join(HAND_STYLES)}, not {style!r}")
    return [Item("face", (float(x), float(y)), float(a), (1.0, aspect), card, lift=0.01 * i)
            for i, ((x, y, a), card) in enumerate(zip(places, cards, strict=True))]


def _placed(items: list[Item], centre: np.ndarray, angle: float) -> list[Item]:
    """``items`` (laid out about the origin) turned by ``angle`` and moved to ``centre``."""
    turn = _rot(angle)
    for it in items:
        it.center = tuple(turn @ np.array(it.center) + centre)
        it.angle += angle
    return items


def _corners(items: list[Item]) -> np.ndarray:
    return np.concatenate([_item_corners(it) for it in items])


def _gap(a: list[Item], b: list[Item]) -> float:
    """Table between two groups' boxes (0 where the boxes overlap): their bounding boxes' distance."""
    ca, cb = _corners(a), _corners(b)
    dx = max(cb[:, 0].min() - ca[:, 0].max(), ca[:, 0].min() - cb[:, 0].max(), 0.0)
    dy = max(cb[:, 1].min() - ca[:, 1].max(), ca[:, 1].min() - cb[:, 1].max(), 0.0)
    return float(math.hypot(dx, dy))


# --------------------------------------------------------------------------- the table


def _seat_angle(seat: int, players: int) -> float:
    """Where a player sits, as an angle from the table's middle: seat 0 at the bottom (y down)."""
    return math.pi / 2 + 2 * math.pi * seat / players


def _groups_at(local: list[list[Item]], places: list[tuple[np.ndarray, float]]) -> list[list[Item]]:
    """Fresh copies of each group's ``local`` items moved to its (centre, angle)."""
    from copy import copy

    return [_placed([copy(it) for it in items], centre, angle)
            for items, (centre, angle) in zip(local, places, strict=True)]


def _places(plan: TablePlan, dealer: int, crib_side: float, reach: float,
            jitter: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """Each hand's (centre, angle) round the table ``reach`` card widths out, then the crib's,
    beside the dealer's hand on the side ``crib_side`` (+1 or -1)."""
    places = []
    for seat in range(plan.players):
        theta = _seat_angle(seat, plan.players)
        out = np.array([math.cos(theta), math.sin(theta)])
        places.append((out * reach + jitter[seat], theta - math.pi / 2 + jitter[seat, 0] * 0.1))
    theta = _seat_angle(dealer, plan.players)
    out, along = np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])
    crib = out * reach * 0.55 + along * crib_side * reach * 0.75
    places.append((crib, theta - math.pi / 2))
    return places


def _spread(plan: TablePlan, local: list[list[Item]], starter: list[Item],
            rng: np.random.Generator) -> list[list[Item]]:
    """The groups placed round the table, pushed out until :data:`MIN_GROUP_GAP` lies between any
    two and between each and the starter (in the middle)."""
    dealer, side = int(rng.integers(plan.players)), float(rng.choice([-1.0, 1.0]))
    jitter = rng.normal(0, 0.15, (plan.players, 2))
    reach = 2.5
    for _ in range(40):
        groups = _groups_at(local, _places(plan, dealer, side, reach, jitter))
        pairs = [(a, b) for i, a in enumerate(groups) for b in groups[i + 1:]]
        pairs += [(g, starter) for g in groups]
        if min(_gap(a, b) for a, b in pairs) >= MIN_GROUP_GAP:
            return groups
        reach *= 1.08
    raise ValueError(f"no table of {plan.players} found with its groups apart")


def _middle(rng: np.random.Generator, plan: TablePlan, starter: Card,
            aspect: float) -> tuple[list[Item], list[Item]]:
    """The starter (alone or on top of the pack, in the middle) and the face-down pack."""
    on_pack = plan.starter_place == "pack"
    away = _rot(rng.uniform(0, 2 * math.pi)) @ np.array([rng.uniform(1.5, 2.0), 0.0])
    pack_at = np.zeros(2) if on_pack else away
    pack = []
    if on_pack or rng.random() < 0.6:
        base = rng.normal(0, 0.15)
        pack = [Item("back", tuple(pack_at + rng.normal(0, 0.012, 2) + np.array([0, -0.006 * k])),
                     base + rng.normal(0, 0.02), (1.0, aspect), lift=0.02 + 0.01 * k) for k in range(5)]
    card = Item("face", tuple(rng.normal(0, 0.04, 2)), float(rng.normal(0, 0.2)), (1.0, aspect), starter,
                True, lift=0.08 if on_pack else 0.0)
    return [card], pack


def _clutter(rng: np.random.Generator, items: list[Item]) -> list[Item]:
    """A cribbage board beside the table (most tables have one) and a few coins where no card lies."""
    corners = _corners([it for it in items if it.kind in ("face", "back")])
    lo, hi = corners.min(axis=0), corners.max(axis=0)
    extra: list[Item] = []
    if rng.random() < 0.7:
        img, size = props.cribbage_board(rng)
        y = hi[1] + size[1] * 0.8 if rng.random() < 0.5 else lo[1] - size[1] * 0.8
        extra.append(Item("board", (float(rng.uniform(lo[0], hi[0])), float(y)), rng.normal(0, 0.1), size,
                          image=img, lift=0.15))
    boxes = [(c.min(axis=0) - 0.3, c.max(axis=0) + 0.3) for c in (_item_corners(it) for it in items)]
    for _ in range(int(rng.integers(0, 5))):
        p = rng.uniform(lo, hi)
        if not any((a <= p).all() and (p <= b).all() for a, b in boxes):
            img, size = props.coin(rng)
            extra.append(Item("coin", tuple(p), rng.uniform(0, 6.28), size, image=img, lift=0.02))
    return extra


def make_table_scene(rng: np.random.Generator, deck: str, plan: TablePlan) -> tuple[SceneSpec, TableTruth]:
    """Cards dealt and laid out for ``plan``'s show, props about, the whole table turned."""
    aspect = load_deck(deck).aspect
    drawn = pick_cards(rng, 4 * (plan.players + 1) + 1)
    hands = [drawn[4 * g: 4 * g + 4] for g in range(plan.players + 1)]  # the hands, then the crib
    styles = [plan.style if plan.style != "mixed" else HAND_STYLES[int(rng.integers(3))] for _ in hands]
    local = [_hand(rng, cards, style, aspect) for cards, style in zip(hands, styles, strict=True)]
    starter, pack = _middle(rng, plan, drawn[-1], aspect)
    groups = _spread(plan, local, starter, rng)
    items = [*pack, *(it for g in groups for it in g), *starter]
    items = [*_clutter(rng, items), *items]
    turn = rng.uniform(-math.pi, math.pi) if rng.random() < 0.3 else rng.normal(0, 0.15)
    _placed(items, np.zeros(2), turn)
    truth = TableTruth(tuple(tuple(cards) for cards in hands), drawn[-1])
    return SceneSpec(deck, plan.name, items), truth


def table_camera(rng: np.random.Generator, size: tuple[int, int], items: list[Item]) -> Camera:
    """A phone held over the middle of the table, tilted 0-30 degrees from straight down, far enough
    up that every card and the pack fill 85-100% of the frame: a whole-table photo, its indices
    small. (:func:`~training.synth.scene.make_camera` frames one hand from close by: a table seen
    from there runs past the horizon.) The photo is mirrored as that camera's is, for the same reason."""
    W, H = size
    f = (max(W, H) / 2) / math.tan(math.radians(rng.uniform(50, 70)) / 2)
    tilt = math.radians(rng.uniform(0, 30))
    table = _corners([it for it in items if it.kind in ("face", "back")])
    target = (table.min(axis=0) + table.max(axis=0)) / 2
    dist = f * float((table.max(axis=0) - table.min(axis=0)).max()) / min(W, H)
    K = np.array([[f, 0, W / 2], [0, f, H / 2], [0, 0, 1]])
    d = np.array([0, math.sin(tilt), -math.cos(tilt)])
    B = np.array([[1, 0, 0], [0, -math.cos(tilt), -math.sin(tilt)], d])
    t = -B @ (np.array([target[0], target[1], 0.0]) - dist * d)
    seen = np.array([[-1.0, 0, W], [0, 1, 0], [0, 0, 1]]) @ K @ np.c_[B[:, 0], B[:, 1], t]
    cards = _project(seen, table)
    lo, hi = cards.min(axis=0), cards.max(axis=0)
    room = 1 - 2 * _FRAME_MARGIN
    s = min(W * room / (hi[0] - lo[0]), H * room / (hi[1] - lo[1])) * rng.uniform(0.85, 1.0)
    mid = (lo + hi) / 2
    fit = np.array([[s, 0, W / 2 - s * mid[0]], [0, s, H / 2 - s * mid[1]], [0, 0, 1.0]]) @ seen
    return Camera(fit / fit[2, 2], 90 - math.degrees(tilt), (W, H))


def render_table(seed: int, number: int, plan: TablePlan | None = None, deck: str | None = None,
                 split: str = "test", retakes: int = 0) -> TableRender:
    """One whole-table photo, a pure function of its arguments (held-out decks unless told). With
    ``retakes``, a photo in which a person could not read every card (blurred past reading: the
    labels' ``readable``) is developed again from the same scene, up to that many times, as a player
    takes a blurred photo again: the develop step draws its blur in proportion to the photo, up
    to 5 px at 12 MP, and left 40 of 72 table renders with a card no one could name
    (docs/experiments/51-whole-table.md)."""
    rng = np.random.default_rng([seed, 80, number])
    deck = deck or choose_deck(rng, split)
    plan = plan or draw_plan(rng)
    spec, truth = make_table_scene(rng, deck, plan)
    size = PHOTO_SIZE if rng.random() < 0.7 else PHOTO_SIZE[::-1]
    cam = table_camera(rng, size, spec.items)
    rendered = render(rng, spec, cam)
    take = 0
    while True:
        photo, focus = develop(rng, rendered.image, rendered.card_mask)
        found = labels(spec, cam, rendered, focus)
        if take == retakes or all(card["readable"] for card in found["cards"]):
            break
        take += 1
        rng = np.random.default_rng([seed, 80, number, take])
    label = {"width": size[0], "height": size[1], "deck": deck, "layout": plan.name, "seed": seed,
             "number": number, "retakes": take, **found,
             "groups": [[str(c) for c in g] for g in truth.groups], "starter": str(truth.starter)}
    return TableRender(plan, jpeg(rng, photo), truth, label)
