"""Finding the starter from the layout, and splitting a photo's cards into hand and starter."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cards import Card, parse_cards
from vision.detections import Detections, Expected
from vision.roles import CardCountError, assign_roles, show_in_view, surest
from vision.starter import SURE, find_starter

CARD_W, CARD_H = 100.0, 140.0


def card_indices(cx: float, cy: float, turned: bool = False, corners: int = 2) -> np.ndarray:
    """Corner-index boxes of a card centred at (cx, cy): tall glyph boxes in two diagonal corners."""
    w, h = (CARD_H, CARD_W) if turned else (CARD_W, CARD_H)
    iw, ih = (36, 14) if turned else (14, 36)
    x0, y0 = cx - w / 2, cy - h / 2
    boxes = [[x0 + 4, y0 + 4, x0 + 4 + iw, y0 + 4 + ih],
             [x0 + w - 4 - iw, y0 + h - 4 - ih, x0 + w - 4, y0 + h - 4]]
    return np.array(boxes[:corners], np.float32)


def layout(centers, cards="5H 5D 5S JC 5C", turned=(), corners: int = 2) -> Detections:
    """Detections for cards centred at ``centers``; rows in ``turned`` lie a quarter turn round."""
    indices = [card_indices(x, y, i in turned, corners) for i, (x, y) in enumerate(centers)]
    xyxy = np.array([[b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()] for b in indices])
    return Detections(xyxy=xyxy, confidence=np.full(len(centers), 0.9), cards=parse_cards(cards),
                      indices=tuple(indices))


ROW = [(100, 300), (220, 300), (340, 300), (460, 300)]


def test_card_above_the_row_is_the_starter():
    guess = find_starter(layout(ROW + [(280, 80)]))
    assert guess.index == 4
    assert guess.confidence > 0.9
    assert guess.reason == "set apart above the row of the other four"


def test_card_below_the_row_is_the_starter_wherever_it_is_listed():
    guess = find_starter(layout([(280, 520)] + ROW))
    assert guess.index == 0
    assert "below the row" in guess.reason
    assert guess.sure


def test_card_beside_the_row_with_a_wide_gap_is_the_starter():
    guess = find_starter(layout(ROW + [(760, 300)]))
    assert guess.index == 4
    assert guess.sure
    assert guess.reason == "set apart from the other four"


def test_five_evenly_spaced_cards_do_not_settle_the_starter():
    guess = find_starter(layout(ROW + [(580, 300)]))
    assert guess.confidence < SURE
    assert not guess.sure
    assert "check the starter" in guess.reason


def test_card_turned_a_quarter_in_the_row_is_the_starter():
    guess = find_starter(layout(ROW + [(600, 300)], turned={4}))
    assert guess.index == 4
    assert guess.sure
    assert guess.reason == "turned differently from the other four"


def test_starter_apart_from_a_two_by_two_block():
    block = [(100, 100), (220, 100), (100, 260), (220, 260)]
    guess = find_starter(layout(block + [(600, 180)]))
    assert guess.index == 4 and guess.sure


def test_card_beside_a_column_is_the_starter():
    column = [(300, 100), (300, 260), (300, 420), (300, 580)]
    guess = find_starter(layout(column + [(560, 340)]))
    assert guess.index == 4
    assert guess.reason == "set apart beside the column of the other four"


def test_one_corner_per_card_is_enough():
    guess = find_starter(layout(ROW + [(280, 80)], corners=1))
    assert guess.index == 4 and guess.sure


def test_probabilities_sum_to_one():
    guess = find_starter(layout(ROW + [(280, 80)]))
    assert len(guess.probabilities) == 5
    assert sum(guess.probabilities) == pytest.approx(1.0)
    assert max(guess.probabilities) == guess.confidence


@settings(max_examples=40, deadline=None)
@given(
    jitter=st.lists(st.tuples(st.floats(-12, 12), st.floats(-12, 12)), min_size=5, max_size=5),
    scale=st.floats(0.3, 8.0),
    lift=st.floats(1.4, 3.0),
    along=st.floats(0.0, 1.0),
    position=st.integers(0, 4),
)
def test_a_card_lifted_off_a_ragged_row_is_found_at_any_scale(jitter, scale, lift, along, position):
    row = [(x + dx, y + dy) for (x, y), (dx, dy) in zip(ROW, jitter, strict=False)]
    starter = (100 + 360 * along + jitter[4][0], 300 - lift * CARD_H)
    centers = [(x * scale, y * scale) for x, y in row]
    centers.insert(position, (starter[0] * scale, starter[1] * scale))
    dets = layout(centers)
    # Card boxes scale with the photo too.
    dets = dets.with_(indices=tuple((ind - np.tile(c, 2)) * scale + np.tile(c, 2)
                                    for ind, c in zip(dets.indices, dets.center, strict=True)))
    guess = find_starter(dets)
    assert guess.index == position
    assert guess.sure


def test_find_starter_needs_five_cards():
    with pytest.raises(ValueError, match="needs 5 cards, got 4"):
        find_starter(layout(ROW, cards="5H 5D 5S JC"))


# -- roles -------------------------------------------------------------------------------------------


def test_roles_from_the_layout():
    roles = assign_roles(layout(ROW + [(280, 80)]))
    assert roles.starter == Card.parse("5C")
    assert roles.hand == parse_cards("5H 5D 5S JC")
    assert roles.source == "layout"
    assert roles.detections.is_starter.tolist() == [False, False, False, False, True]


def test_a_named_starter_overrides_the_layout():
    roles = assign_roles(layout(ROW + [(280, 80)]), starter=Card.parse("JC"))
    assert roles.starter == Card.parse("JC")
    assert roles.hand == parse_cards("5H 5D 5S 5C")
    assert (roles.source, roles.confidence) == ("given", 1.0)
    assert roles.detections.is_starter.tolist() == [False, False, False, True, False]


def test_four_cards_and_a_named_starter():
    roles = assign_roles(layout(ROW, cards="5H 5D 5S JC"), starter=Card.parse("5C"))
    assert roles.hand == parse_cards("5H 5D 5S JC")
    assert roles.starter == Card.parse("5C")
    assert not roles.detections.is_starter.any()


def test_one_card_too_many_sets_the_least_sure_aside():
    dets = layout(ROW + [(280, 80), (600, 300)], cards="5H 5D 5S JC 5C 9D")
    dets = dets.with_(confidence=np.array([0.99, 0.98, 0.97, 0.96, 0.95, 0.75]))
    roles = assign_roles(dets)
    assert roles.set_aside.card_list == [Card.parse("9D")]
    assert roles.hand == parse_cards("5H 5D 5S JC") and roles.starter == Card.parse("5C")


def test_five_cards_besides_a_named_starter_set_the_least_sure_aside():
    dets = layout(ROW + [(280, 80)]).with_(confidence=np.array([0.99, 0.7, 0.97, 0.96, 0.95]))
    roles = assign_roles(dets, starter=Card.parse("KD"))
    assert roles.set_aside.card_list == [Card.parse("5D")]
    assert roles.hand == parse_cards("5H 5S JC 5C") and roles.starter == Card.parse("KD")


def test_a_named_starter_in_view_is_never_set_aside():
    dets = layout(ROW + [(280, 80)]).with_(confidence=np.array([0.99, 0.98, 0.97, 0.96, 0.5]))
    kept, aside = surest(dets, show_in_view(Card.parse("5C")))
    assert len(kept) == 5 and len(aside) == 0


def test_two_cards_too_many_are_not_a_show_misread_and_nothing_is_set_aside():
    dets = layout([(120 * i, 300) for i in range(7)], cards="AH 2H 3H 4H 5H 6H 7H")
    kept, aside = surest(dets, show_in_view())
    assert len(kept) == 7 and len(aside) == 0


@pytest.mark.parametrize("cards,starter,message", [
    ("", None, "no cards seen"),
    ("5H 5D 5S JC", None, r"4 cards seen \(5H 5D 5S JC\): name the starter"),
    ("5H 5D 5S JC", "JC", "the starter JC is one of the 4 cards seen"),
    ("5H", None, r"1 card seen \(5H\); a show is 4 cards and the starter"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H", None, r"9 cards seen \(AH 2H 3H 4H 5H 6H 7H 8H 9H\)"),
    ("AH 2H 3H 4H 5H 6H 7H", None, r"7 cards seen \(AH 2H 3H 4H 5H 6H 7H\)"),
    ("AH 2H 3H 4H 5H 6H", "KD", r"6 cards seen \(AH 2H 3H 4H 5H 6H\)"),
    ("AH 2H 3H", "KD", "with the starter named, 4 are enough"),
])
def test_photos_that_are_not_a_show_say_what_was_seen(cards, starter, message):
    cards = parse_cards(cards)
    dets = layout([(120 * i, 300) for i in range(len(cards))], cards=" ".join(map(str, cards))) \
        if cards else Detections.empty()
    with pytest.raises(CardCountError, match=message) as err:
        assign_roles(dets, starter=Card.parse(starter) if starter else None)
    assert err.value.cards == cards


def test_an_unread_card_is_shown_as_a_question_mark():
    dets = layout(ROW + [(280, 80)])
    dets = dets.with_(cards=dets.cards[:4] + (None,))
    with pytest.raises(CardCountError, match=r"5 cards seen \(5H 5D 5S JC \?\)"):
        assign_roles(dets)


def test_a_card_tilted_just_past_45_degrees_is_not_called_turned():
    dets = layout(ROW + [(580, 300)])
    # Nearly square index boxes, just wider than tall: what a 50-degree tilt gives.
    nearly_square = np.array([[540, 240, 561, 260], [599, 340, 620, 360]], np.float32)
    dets = dets.with_(indices=dets.indices[:4] + (nearly_square,))
    assert not find_starter(dets).sure


def test_a_show_is_five_cards_or_four_besides_a_named_starter():
    assert show_in_view() == Expected(5)
    assert show_in_view(Card.parse("5C")) == Expected(4, besides=Card.parse("5C"))
