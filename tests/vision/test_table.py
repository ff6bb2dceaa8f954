"""The table at the show: a whole-table photo's cards split into hands, crib and starter from
the boxes alone, on layouts like real tables (rows, fans, piles, hands along every side)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from scorer.referee import TableError
from vision.detections import Detections
from vision.table import TableLayoutError, find_groups, group_sizes, move_card, suggest_roles

CARD_W, CARD_H = 1.0, 1.4
"""A card in card widths (poker size: 2.5 x 3.5 in)."""

Card = tuple[float, float, float]
"""A card laid on the table: centre x, centre y (card widths, y down the photo), turn in degrees."""


# --------------------------------------------------------------------------- laying out tables


def row(x: float, y: float, n: int = 4, pitch: float = 1.15, turn: float = 0.0) -> list[Card]:
    """``n`` cards side by side, centred on (x, y), along the direction ``turn`` degrees."""
    dx, dy = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    start = -(n - 1) / 2
    return [(x + (start + k) * pitch * dx, y + (start + k) * pitch * dy, turn) for k in range(n)]


def fan(x: float, y: float, n: int = 4) -> list[Card]:
    """``n`` cards fanned in a hand: a third of a card apart, turned -15..15 degrees."""
    return [(x + (k - (n - 1) / 2) * 0.35, y + abs(k - (n - 1) / 2) * 0.08, -15 + 30 * k / (n - 1))
            for k in range(n)]


def pile(x: float, y: float, rng: np.random.Generator, n: int = 4) -> list[Card]:
    """``n`` cards dropped in an untidy pile: overlapping, a fifth of a card apart at most."""
    return [(x + rng.uniform(-0.2, 0.2), y + rng.uniform(-0.2, 0.2), rng.uniform(-20, 20)) for _ in range(n)]


def box_of(card: Card, turn: float, scale: float, shift: np.ndarray) -> list[float]:
    """The photo box (xyxy pixels) of a card after the whole table is turned and scaled."""
    x, y, own = card
    t = math.radians(turn)
    cx = (x * math.cos(t) - y * math.sin(t)) * scale + shift[0]
    cy = (x * math.sin(t) + y * math.cos(t)) * scale + shift[1]
    a = math.radians(own + turn)
    half_w = (abs(math.cos(a)) * CARD_W + abs(math.sin(a)) * CARD_H) * scale / 2
    half_h = (abs(math.sin(a)) * CARD_W + abs(math.cos(a)) * CARD_H) * scale / 2
    return [cx - half_w, cy - half_h, cx + half_w, cy + half_h]


def photo(groups: list[list[Card]], starter: Card, *, turn: float = 0.0, scale: float = 100.0,
          jitter: float = 0.0, rng: np.random.Generator | None = None, shuffle: bool = False):
    """Detections of a laid-out table, and the true groups (as sets of rows) and starter row."""
    rng = rng or np.random.default_rng(0)
    cards = [card for group in groups for card in group] + [starter]
    owner = [g for g, group in enumerate(groups) for _ in group] + [-1]
    # Jittered cards also lie a few degrees askew.
    tilt = 6.0 if jitter else 0.0
    cards = [(x + rng.uniform(-jitter, jitter), y + rng.uniform(-jitter, jitter),
              t + rng.uniform(-tilt, tilt)) for x, y, t in cards]
    order = rng.permutation(len(cards)) if shuffle else np.arange(len(cards))
    boxes = np.array([box_of(cards[i], turn, scale, np.array([3000.0, 3000.0])) for i in order])
    owner_by_row = np.asarray(owner)[order]
    truth = {frozenset(int(k) for k in np.flatnonzero(owner_by_row == g)) for g in range(len(groups))}
    starter_row = int(np.flatnonzero(owner_by_row == -1)[0])
    return Detections(xyxy=boxes, confidence=np.full(len(cards), 0.9)), truth, starter_row


def found(layout) -> set[frozenset[int]]:
    return {frozenset(group.rows) for group in layout.groups}


# --------------------------------------------------------------------------- table kinds, drawn at random


def two_rows(rng: np.random.Generator, size: int = 4) -> tuple[list[list[Card]], Card]:
    """Two players: pone's row nearest the camera, the crib beside the middle, the dealer's row
    across; the starter on the pack off to one side."""
    pitch = rng.uniform(1.05, 1.3)
    groups = [row(0, 3.2, size, pitch), row(-0.5, 0, 4, pitch), row(0, -3.2, size, pitch)]
    return groups, (rng.choice([-1, 1]) * rng.uniform(4.0, 5.0), rng.uniform(-0.8, 0.8), 0.0)


def two_fans(rng: np.random.Generator) -> tuple[list[list[Card]], Card]:
    """Two players holding their hands fanned on the table, the crib fanned between them."""
    return [fan(0, 3, 4), fan(rng.uniform(-1, 1), 0), fan(0, -3)], (3.5, rng.uniform(-0.5, 0.5), 0.0)


def two_piles(rng: np.random.Generator) -> tuple[list[list[Card]], Card]:
    """Every hand and the crib an untidy overlapping pile; the starter on the pack between them."""
    return [pile(0, 3, rng), pile(-1, 0, rng), pile(0, -3, rng)], (2.2, rng.uniform(-0.5, 0.5), 0.0)


def sides(rng: np.random.Generator, players: int) -> tuple[list[list[Card]], Card]:
    """Hands along the table's sides (bottom, left, top, right), each facing its player; the crib
    in a row in the middle, the starter on the pack beside it."""
    pitch = rng.uniform(1.05, 1.25)
    around = [row(0, 4.5, 4, pitch), row(-5, 0, 4, pitch, 90), row(0, -4.5, 4, pitch, 180),
              row(5, 0, 4, pitch, 270)]
    hands = around[:players] if players == 4 else [around[0], around[1], around[3]]
    return hands + [row(0, 0, 4, pitch)], (rng.uniform(-1.5, 1.5), 2.2, 0.0)


KINDS = {
    "two players, rows": (2, False, two_rows),
    "two players, fans": (2, False, two_fans),
    "two players, piles": (2, False, two_piles),
    "three players, sides": (3, False, lambda rng: sides(rng, 3)),
    "four players, sides": (4, False, lambda rng: sides(rng, 4)),
    "five-card cribbage, rows": (2, True, lambda rng: two_rows(rng, 3)),
}


def random_table(kind: str, rng: np.random.Generator):
    """One table of ``kind``: jittered, photographed from any side of the table and up to 20 degrees
    askew, at any scale, the rows shuffled."""
    players, five_card, lay = KINDS[kind]
    groups, starter = lay(rng)
    turn = 90 * rng.integers(4) + rng.uniform(-20, 20)
    detections, truth, starter_row = photo(groups, starter, turn=turn,
                                           scale=rng.uniform(40, 200), jitter=0.06, rng=rng, shuffle=True)
    return detections, players, five_card, truth, starter_row


@pytest.mark.parametrize("kind", list(KINDS))
def test_groups_and_starter_are_right_on_nineteen_tables_in_twenty(kind: str) -> None:
    rng = np.random.default_rng(80)
    right = 0
    for _ in range(200):
        detections, players, five_card, truth, starter_row = random_table(kind, rng)
        layout = find_groups(detections, players=players, five_card=five_card)
        right += found(layout) == truth and layout.starter == starter_row
    assert right >= 190


# --------------------------------------------------------------------------- layouts, one rule each


def test_two_players_three_rows_and_the_starter_on_the_pack() -> None:
    detections, truth, starter = photo([row(0, 3.2), row(-0.5, 0), row(0, -3.2)], (4.5, 0, 0))
    layout = find_groups(detections, players=2)
    assert (found(layout), layout.starter, layout.ambiguous) == (truth, starter, False)
    assert all(group.confidence == 1.0 for group in layout.groups)


def test_the_starter_on_the_pack_close_beside_the_crib_is_still_the_lone_card() -> None:
    # The crib's right edge at x = 2.2, the starter's left edge at 2.7: half a card apart.
    detections, truth, starter = photo([row(0, 3.2), row(0, 0), row(0, -3.2)], (3.2, 0.3, 0))
    layout = find_groups(detections, players=2)
    assert (found(layout), layout.starter) == (truth, starter)


def test_fanned_hands_overlap_within_a_hand_and_stay_apart_from_the_others() -> None:
    detections, truth, starter = photo([fan(0, 3), fan(0.5, 0), fan(0, -3)], (3.5, 0, 0))
    layout = find_groups(detections, players=2)
    assert (found(layout), layout.starter, layout.ambiguous) == (truth, starter, False)


def test_untidy_piles_are_one_group_each() -> None:
    rng = np.random.default_rng(3)
    detections, truth, starter = photo([pile(0, 3, rng), pile(-1, 0, rng), pile(0, -3, rng)], (2.2, 0, 0))
    assert found(find_groups(detections, players=2)) == truth


@pytest.mark.parametrize("turn", [0, 90, 180, 270, 15])
def test_hands_along_the_four_sides_in_a_photo_taken_from_any_side(turn: float) -> None:
    hands = [row(0, 4.5), row(-5, 0, turn=90), row(0, -4.5, turn=180), row(5, 0, turn=270)]
    detections, truth, starter = photo(hands + [row(0, 0)], (0.5, 2.2, 0), turn=turn)
    layout = find_groups(detections, players=4)
    assert (found(layout), layout.starter, layout.ambiguous) == (truth, starter, False)


def test_three_players_seventeen_cards() -> None:
    hands = [row(0, 4.5), row(-5, 0, turn=90), row(5, 0, turn=270)]
    detections, truth, starter = photo(hands + [row(0, 0)], (0.5, 2.2, 0))
    layout = find_groups(detections, players=3)
    assert (found(layout), layout.starter) == (truth, starter)
    assert len(layout.groups) == 4


def test_five_card_cribbage_hands_of_three_and_a_crib_of_four() -> None:
    detections, truth, starter = photo([row(0, 3.2, 3), row(0, 0), row(0, -3.2, 3)], (4.5, 0, 0))
    layout = find_groups(detections, players=2, five_card=True)
    assert (found(layout), layout.starter) == (truth, starter)
    assert sorted(len(group.rows) for group in layout.groups) == [3, 3, 4]


def test_two_groups_touching_end_to_end_are_ambiguous() -> None:
    # Pone's row runs straight on into the crib's at the row's own pitch: nothing says where one ends.
    detections, _, _ = photo([row(-2.3, 3.2), row(2.3, 3.2), row(0, -3.2)], (0, 0, 0))
    layout = find_groups(detections, players=2)
    assert layout.ambiguous
    assert any("touches" in reason for reason in layout.reasons)
    assert min(group.confidence for group in layout.groups) < 0.5


def test_a_group_box_holds_its_cards() -> None:
    detections, _, _ = photo([row(0, 3.2), row(-0.5, 0), row(0, -3.2)], (4.5, 0, 0))
    layout = find_groups(detections, players=2)
    for group in layout.groups:
        x0, y0, x1, y1 = group.xyxy
        part = detections.xyxy[list(group.rows)]
        assert (x0, y0, x1, y1) == tuple(float(v) for v in (*part[:, :2].min(0), *part[:, 2:].max(0)))


@pytest.mark.parametrize(("players", "cards"), [(2, 12), (3, 13), (4, 17)])
def test_the_wrong_number_of_cards_for_the_table_is_a_clear_error(players: int, cards: int) -> None:
    detections = Detections(xyxy=[[k * 100, 0, k * 100 + 60, 80] for k in range(cards)],
                            confidence=[0.9] * cards)
    with pytest.raises(TableLayoutError, match=f"holds {sum(group_sizes(players)) + 1} cards"):
        find_groups(detections, players=players)


def test_five_card_cribbage_is_for_two_players() -> None:
    detections = Detections(xyxy=[[k * 100, 0, k * 100 + 60, 80] for k in range(15)], confidence=[0.9] * 15)
    with pytest.raises(TableLayoutError, match="two-player game"):
        find_groups(detections, players=3, five_card=True)


# --------------------------------------------------------------------------- the player's fix


def clear_layout():
    detections, _, _ = photo([row(0, 3.2), row(-0.5, 0), row(0, -3.2)], (4.5, 0, 0))
    return find_groups(detections, players=2)


def test_tapping_a_card_as_the_starter_swaps_it_with_the_old_starter() -> None:
    layout = clear_layout()
    card, old = layout.groups[0].rows[0], layout.starter
    fixed = move_card(layout, card, None)
    assert fixed.starter == card
    assert old in fixed.groups[0].rows and card not in fixed.groups[0].rows
    assert not fixed.ambiguous and fixed.groups[0].confidence == 1.0


def test_moving_a_card_to_another_group_leaves_groups_of_3_and_5_until_it_moves_back() -> None:
    layout = clear_layout()
    card = layout.groups[0].rows[0]
    moved = move_card(layout, card, 1)
    assert moved.reasons == ("the groups hold 3+4+5 cards, a table of 2 needs 4+4+4: groups of 3 and 5 "
                             "would be formed",)
    back = move_card(moved, card, 0)
    assert not back.ambiguous
    assert found(back) == found(layout)


def test_moving_the_starter_into_a_group_leaves_the_starter_to_be_named() -> None:
    layout = clear_layout()
    moved = move_card(layout, layout.starter, 2)
    assert moved.starter is None
    assert "no starter: tap the card that is the starter" in moved.reasons


@pytest.mark.parametrize(("row_", "group", "error"), [(13, 0, "no card 13"), (0, 3, "no group 3")])
def test_a_fix_that_names_no_card_or_group_is_a_clear_error(row_: int, group: int, error: str) -> None:
    with pytest.raises(TableLayoutError, match=error):
        move_card(clear_layout(), row_, group)


# --------------------------------------------------------------------------- roles suggested


def test_two_players_me_nearest_the_camera_the_crib_in_the_middle() -> None:
    suggestion = suggest_roles(clear_layout(), me="dealer")
    assert suggestion.roles == ("pone", "crib", "dealer")  # groups from the top of the photo down
    assert suggestion.source == "layout"


def test_four_players_are_named_clockwise_from_me() -> None:
    hands = [row(0, 4.5), row(-5, 0, turn=90), row(0, -4.5, turn=180), row(5, 0, turn=270)]
    detections, _, _ = photo(hands + [row(0, 0)], (0.5, 2.2, 0))
    layout = find_groups(detections, players=4)
    roles = dict(zip((_side(group.xyxy) for group in layout.groups), suggest_roles(layout, me="pone").roles,
                     strict=True))
    # Pone sits on the dealer's left: clockwise from pone, the dealer's partner, pone's partner, the dealer.
    assert roles == {"bottom": "pone", "left": "dealer's partner", "top": "pone's partner", "right": "dealer",
                     "middle": "crib"}


def _side(xyxy) -> str:
    x, y = (xyxy[0] + xyxy[2]) / 2 - 3000, (xyxy[1] + xyxy[3]) / 2 - 3000
    if abs(x) < 100 and abs(y) < 100:
        return "middle"
    if abs(x) > abs(y):
        return "left" if x < 0 else "right"
    return "top" if y < 0 else "bottom"


def test_a_seat_not_at_the_table_is_a_clear_error() -> None:
    with pytest.raises(TableLayoutError, match="'second' is not a seat at a table of 2"):
        suggest_roles(clear_layout(), me="second")


def test_a_table_of_five_players_is_a_clear_error() -> None:
    with pytest.raises(TableError, match="2, 3 or 4 players"):
        group_sizes(5)
