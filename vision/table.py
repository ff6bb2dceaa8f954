"""The table at the show: one photo's cards split into the hands, the crib and the starter.

A whole-table photo holds every hand, the crib (4 cards each; 3 a hand in five-card cribbage) and
the starter, often on top of the pack: 13 cards for two players, 17 for three, 21 for four. One
player's cards lie together (a row, a fan, an overlapping pile) and apart from the others', and
the starter lies alone. :func:`find_groups` reads that from the boxes alone (no model): gaps
between boxes are measured in card sizes, and the starter is the card whose removal leaves the
tightest split of the rest into groups of the right sizes (single-linkage merging, capped at a
group's size). Where the layout is unclear (two groups touching, a card far from its group, no
split fitting) the :class:`TableLayout` says so, and :func:`move_card` is the player's one-tap fix.
:func:`suggest_roles` names the groups from the seat the player names, as a suggestion only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from scorer.referee import CRIB, Role, seats
from scorer.show import hand_size
from vision.detections import Detections, box_gaps

__all__ = [
    "CardGroup", "RoleSuggestion", "TableLayout", "TableLayoutError", "find_groups", "group_sizes",
    "move_card", "suggest_roles", "table_cards",
]

TOUCHING = 0.1
"""Card sizes: a group whose nearest other card lies less than this beyond its own loosest link
touches that card's group, and the split is a guess."""
LOOSE = 1.0
"""Card sizes: a group held together by a gap wider than this has a card lying apart from it."""
CLEAR = 0.5
"""Card sizes: a group whose nearest other card lies this much beyond its own loosest link is sure."""
# Weight of the starter's own gap against the split's loosest link: a lone card is the likelier starter.
_APART_WEIGHT = 0.5
# A gap beyond two card sizes says no more about being alone.
_APART_CAP = 2.0

Box = tuple[float, float, float, float]


class TableLayoutError(ValueError):
    """The photo cannot be split as a table: the wrong number of cards, or a bad fix."""


@dataclass(frozen=True)
class CardGroup:
    """One player's hand or the crib, as cards lying together."""

    rows: tuple[int, ...]
    """Rows of the :class:`~vision.detections.Detections`, in photo order (left to right)."""
    xyxy: Box
    """The box around the group's cards, in photo pixels."""
    confidence: float
    """0..1: how clearly the group stands apart (1.0 for a group the player fixed)."""


@dataclass(frozen=True)
class TableLayout:
    """The cards of a whole-table photo split into groups and the starter."""

    players: int
    """2, 3 or 4."""
    five_card: bool
    """Five-card cribbage: hands of 3, the crib of 4."""
    groups: tuple[CardGroup, ...]
    """The hands and the crib, which is which not yet known (see :func:`suggest_roles`)."""
    starter: int | None
    """The starter's row; None when the player moved it into a group and named no other."""
    reasons: tuple[str, ...]
    """Why the split is unclear, in a player's words; empty when it is clear."""
    boxes: tuple[Box, ...]
    """Every card's box by row, so a fix is checked without the photo."""
    fixed: tuple[int, ...] = ()
    """Rows the player moved: their groups are the player's word, not the layout's."""

    @property
    def ambiguous(self) -> bool:
        """Whether the player should check the groups before they are counted."""
        return bool(self.reasons)

    def group_of(self, row: int) -> int | None:
        """The group holding ``row``; None for the starter."""
        return next((g for g, group in enumerate(self.groups) if row in group.rows), None)


def group_sizes(players: int, *, five_card: bool = False) -> tuple[int, ...]:
    """Cards in each group at the show: every hand, then the crib.

    >>> group_sizes(2), group_sizes(2, five_card=True), sum(group_sizes(4)) + 1
    ((4, 4, 4), (3, 3, 4), 21)
    """
    hands = seats(players)
    return tuple(hand_size(five_card=five_card) for _ in hands) + (hand_size(crib=True),)


def table_cards(players: int, *, five_card: bool = False) -> int:
    """How many cards a table at the show holds: every hand, the crib and the starter.

    >>> table_cards(2), table_cards(3), table_cards(4), table_cards(2, five_card=True)
    (13, 17, 21, 11)
    """
    return sum(group_sizes(players, five_card=five_card)) + 1


# --------------------------------------------------------------------------- geometry


def _card_size(boxes: np.ndarray) -> float:
    """The typical card (or index) size in pixels: the unit every gap is measured in."""
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return max(float(np.sqrt(np.median(areas))), 1e-6)


def _gaps(boxes: np.ndarray) -> np.ndarray:
    """(N, N) empty space between every two boxes in card sizes: 0 where they overlap or touch."""
    gaps = box_gaps(boxes) / _card_size(boxes)
    np.fill_diagonal(gaps, np.inf)
    return gaps


@dataclass(frozen=True)
class _Split:
    groups: tuple[tuple[int, ...], ...]
    loosest: float
    """The widest gap any group needed to hold together (card sizes)."""
    fits: bool
    """Whether the groups have exactly the sizes the table needs."""


def _capped_linkage(gaps: np.ndarray, edges: list[tuple[int, int]], rows: list[int],
                    sizes: tuple[int, ...]) -> _Split:
    """Single-linkage merging of ``rows`` closest first, never past the largest group size."""
    parent = {r: r for r in rows}
    members = {r: [r] for r in rows}
    loosest = 0.0
    merges_left = len(rows) - len(sizes)
    cap = max(sizes)

    def root(r: int) -> int:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    for i, j in edges:
        if merges_left == 0:
            break
        if i not in parent or j not in parent:
            continue
        a, b = root(i), root(j)
        if a == b or len(members[a]) + len(members[b]) > cap:
            continue
        parent[b] = a
        members[a] += members.pop(b)
        loosest = max(loosest, float(gaps[i, j]))
        merges_left -= 1
    groups = tuple(tuple(sorted(m)) for m in members.values())
    return _Split(groups, loosest, sorted(len(g) for g in groups) == sorted(sizes))


def _best_split(gaps: np.ndarray, sizes: tuple[int, ...]) -> tuple[int, _Split]:
    """The starter and the split of the rest: the fitting split with the tightest groups, a lone
    starter preferred; a split that does not fit only when none does."""
    n = len(gaps)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    edges = sorted(pairs, key=lambda p: gaps[p])
    best: tuple[tuple[bool, float], int, _Split] | None = None
    for starter in range(n):
        rest = [r for r in range(n) if r != starter]
        split = _capped_linkage(gaps, edges, rest, sizes)
        apart = min(float(gaps[starter].min()), _APART_CAP)
        key = (not split.fits, split.loosest - _APART_WEIGHT * apart)
        if best is None or key < best[0]:
            best = (key, starter, split)
    assert best is not None
    return best[1], best[2]


# --------------------------------------------------------------------------- assessing a split


def _box_around(boxes: np.ndarray, rows: tuple[int, ...]) -> Box:
    part = boxes[list(rows)]
    x0, y0 = part[:, :2].min(axis=0)
    x1, y1 = part[:, 2:].max(axis=0)
    return (float(x0), float(y0), float(x1), float(y1))


def _loosest_link(gaps: np.ndarray, rows: tuple[int, ...]) -> float:
    """The widest gap single linkage needs to hold ``rows`` together (0 for one card)."""
    inside, outside = [rows[0]], list(rows[1:])
    widest = 0.0
    while outside:
        sub = gaps[np.ix_(inside, outside)]
        k = int(np.argmin(sub.min(axis=0)))
        widest = max(widest, float(sub[:, k].min()))
        inside.append(outside.pop(k))
    return widest


def _assess(layout: TableLayout) -> TableLayout:
    """Each group's confidence and the reasons the split is unclear, from the boxes alone."""
    boxes = np.asarray(layout.boxes, np.float32)
    gaps = _gaps(boxes)
    sizes = group_sizes(layout.players, five_card=layout.five_card)
    reasons: list[str] = []
    found = sorted(len(g.rows) for g in layout.groups)
    if found != sorted(sizes):
        reasons.append(f"the groups hold {_sizes_said(found)} cards, a table of {layout.players} needs "
                       f"{_sizes_said(sorted(sizes))}: {_odd_sizes(found, sizes)} would be formed")
    owner = {row: g for g, group in enumerate(layout.groups) for row in group.rows}
    groups = []
    for g, group in enumerate(layout.groups):
        confidence, reason = _group_clearness(g, group.rows, gaps, owner, layout)
        groups.append(replace(group, xyxy=_box_around(boxes, group.rows), confidence=confidence))
        if reason and reason not in reasons:
            reasons.append(reason)
    return replace(layout, groups=tuple(groups), reasons=tuple(reasons))


def _group_clearness(g: int, rows: tuple[int, ...], gaps: np.ndarray, owner: dict[int, int],
                     layout: TableLayout) -> tuple[float, str]:
    """A group's confidence and, when unclear, why: it touches another group, or a card lies apart."""
    others = [r for r in range(len(gaps)) if r not in rows]
    inner = _loosest_link(gaps, rows)
    near = min(others, key=lambda r: float(gaps[list(rows), r].min()))
    # The player's word settles a group they put a card in, or took the nearest card from.
    if near in layout.fixed or any(row in layout.fixed for row in rows):
        return 1.0, ""
    outer = float(gaps[list(rows), near].min())
    confidence = float(np.clip((outer - inner) / CLEAR, 0.0, 1.0))
    if outer - inner < TOUCHING:
        other = "the starter" if near not in owner else f"group {owner[near] + 1}"
        return confidence, f"group {g + 1} touches {other}: their cards lie as close as a group's own"
    if inner > LOOSE:
        return confidence, f"a card of group {g + 1} lies apart from the rest of it"
    return confidence, ""


def _sizes_said(sizes: list[int]) -> str:
    return "+".join(map(str, sizes))


def _odd_sizes(found: list[int], sizes: tuple[int, ...]) -> str:
    """The groups the table does not expect, 'a group of 5' or 'groups of 3 and 5'."""
    expected = list(sizes)
    odd = []
    for size in found:
        if size in expected:
            expected.remove(size)
        else:
            odd.append(str(size))
    if len(odd) == 1:
        return f"a group of {odd[0]}"
    return f"groups of {', '.join(odd[:-1])} and {odd[-1]}"


# --------------------------------------------------------------------------- public


def find_groups(detections: Detections, *, players: int, five_card: bool = False) -> TableLayout:
    """Split a whole-table photo's cards into the hands, the crib and the starter.

    Raises :class:`TableLayoutError` unless the photo holds every hand, the crib and the starter.

    >>> boxes = [[x, y, x + 50, y + 70] for y in (0, 200, 400) for x in (0, 60, 120, 180)]
    >>> layout = find_groups(Detections(xyxy=boxes + [[400, 200, 450, 270]], confidence=[0.9] * 13),
    ...                      players=2)
    >>> [group.rows for group in layout.groups], layout.starter, layout.ambiguous
    ([(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)], 12, False)
    """
    sizes = group_sizes(players, five_card=five_card)
    if five_card and players != 2:
        raise TableLayoutError(f"five-card cribbage is a two-player game, not {players}")
    expected = table_cards(players, five_card=five_card)
    if len(detections) != expected:
        raise TableLayoutError(f"a table of {players} at the show holds {expected} cards (every hand, "
                               f"the crib and the starter), found {len(detections)}")
    boxes = detections.xyxy.astype(np.float32)
    starter, split = _best_split(_gaps(boxes), sizes)
    centres = detections.center
    groups = tuple(CardGroup(tuple(sorted(rows, key=lambda r: centres[r, 0])), (0, 0, 0, 0), 0.0)
                   for rows in sorted(split.groups, key=lambda rows: float(centres[list(rows), 1].mean())))
    layout = TableLayout(players, five_card, groups, starter, (), tuple(tuple(map(float, b)) for b in boxes))
    return _assess(layout)


def move_card(layout: TableLayout, row: int, to_group: int | None) -> TableLayout:
    """The player's one-tap fix: ``row`` belongs to group ``to_group`` (None: it is the starter).

    Making a card the starter puts the old starter in the card's old group; moving the starter into
    a group leaves the starter unknown until the player names one. The new layout is checked again.

    >>> boxes = [[x, y, x + 50, y + 70] for y in (0, 200, 400) for x in (0, 60, 120, 180)]
    >>> layout = find_groups(Detections(xyxy=boxes + [[400, 200, 450, 270]], confidence=[0.9] * 13),
    ...                      players=2)
    >>> fixed = move_card(layout, 3, None)
    >>> fixed.starter, fixed.groups[0].rows, fixed.ambiguous
    (3, (0, 1, 2, 12), False)
    """
    if not 0 <= row < len(layout.boxes):
        raise TableLayoutError(f"no card {row} in this photo: rows are 0 to {len(layout.boxes) - 1}")
    if to_group is not None and not 0 <= to_group < len(layout.groups):
        raise TableLayoutError(f"no group {to_group}: groups are 0 to {len(layout.groups) - 1}")
    old = layout.group_of(row)
    if to_group == old:
        return layout
    starter = layout.starter
    rows = [list(group.rows) for group in layout.groups]
    if old is not None:
        rows[old].remove(row)
    if to_group is None:
        if starter is not None and old is not None:
            rows[old].append(starter)
        starter = row
    else:
        rows[to_group].append(row)
        if row == starter:
            starter = None
    fixed = {*layout.fixed, row}
    if to_group is None and old is not None and layout.starter is not None:
        fixed.add(layout.starter)  # the old starter, swapped into the card's group on the player's word
    left = [box[0] for box in layout.boxes]
    groups = tuple(CardGroup(tuple(sorted(r, key=lambda k: left[k])), (0, 0, 0, 0), 0.0) for r in rows)
    moved = replace(layout, groups=groups, starter=starter, fixed=tuple(sorted(fixed)))
    checked = _assess(moved)
    if starter is None:
        unknown = "no starter: tap the card that is the starter"
        checked = replace(checked, reasons=(*checked.reasons, unknown))
    return checked


@dataclass(frozen=True)
class RoleSuggestion:
    """Which group is whose, read from the layout: shown to the player, never applied unasked."""

    roles: tuple[Role, ...]
    """The role of each group of the layout, by group."""
    source: Literal["layout"]
    """Where the roles came from: the layout (the player confirms or changes them)."""
    reason: str
    """How they were read, in a player's words."""


def _centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def suggest_roles(layout: TableLayout, *, me: Role) -> RoleSuggestion:
    """Name the groups: the crib the 4-card group nearest the table's centre, ``me`` the hand nearest
    the photo's bottom edge, the other hands clockwise round the table from there (the deal and
    the show go clockwise, to the left).

    >>> boxes = [[x, y, x + 50, y + 70] for y in (0, 200, 400) for x in (0, 60, 120, 180)]
    >>> layout = find_groups(Detections(xyxy=boxes + [[400, 200, 450, 270]], confidence=[0.9] * 13),
    ...                      players=2)
    >>> suggest_roles(layout, me="pone").roles
    ('dealer', 'crib', 'pone')
    """
    order = seats(layout.players)
    if me not in order:
        known = ", ".join(order)
        raise TableLayoutError(f"{me!r} is not a seat at a table of {layout.players}: one of {known}")
    centres = [_centre(group.xyxy) for group in layout.groups]
    middle = np.mean([_centre(box) for box in layout.boxes], axis=0)
    four = [g for g, group in enumerate(layout.groups) if len(group.rows) == hand_size(crib=True)]
    crib = min(four or range(len(centres)), key=lambda g: math.dist(centres[g], middle))
    hands = [g for g in range(len(centres)) if g != crib]
    mine = max(hands, key=lambda g: layout.groups[g].xyxy[3])
    hub = np.mean([centres[g] for g in hands], axis=0)

    def clockwise_from_me(g: int) -> float:
        # With y pointing down the photo, a growing angle turns clockwise as seen from above.
        angle = math.atan2(centres[g][1] - hub[1], centres[g][0] - hub[0])
        start = math.atan2(centres[mine][1] - hub[1], centres[mine][0] - hub[0])
        return (angle - start) % (2 * math.pi)

    roles: list[Role] = [CRIB] * len(centres)
    first = order.index(me)
    for step, g in enumerate(sorted(hands, key=clockwise_from_me)):
        roles[g] = order[(first + step) % len(order)]
    reason = (f"you ({me}) nearest the bottom of the photo, the others clockwise from you, "
              f"the crib the group nearest the middle of the table")
    return RoleSuggestion(tuple(roles), "layout", reason)
