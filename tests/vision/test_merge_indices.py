"""Corner indices become cards: a deck holds each card once, so indices read alike are one card."""

import numpy as np
import pytest

from scorer.cards import Card
from vision.detections import Detections, Expected
from vision.merge import merge_indices

CLASSES: list[Card | None] = [Card.parse("5H"), Card.parse("5S"), Card.parse("JC"), None]


def indices(*boxes: tuple[float, float, float, float]) -> Detections:
    return Detections(xyxy=np.array(boxes, np.float32), confidence=np.full(len(boxes), 0.4))


def probs(*rows: list[float]) -> np.ndarray:
    return np.array(rows, np.float32)


def test_two_indices_read_as_one_card_are_one_detection_spanning_both():
    found = merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)),
                          probs([0.9, 0.05, 0.03, 0.02], [0.8, 0.1, 0.05, 0.05]), CLASSES, 0.5)
    assert found.card_list == [Card.parse("5H")]
    assert tuple(found.xyxy[0]) == (0, 0, 100, 150)
    assert len(found.indices[0]) == 2


def test_a_cards_indices_are_listed_surest_read_first():
    found = merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)),
                          probs([0.6, 0.3, 0.05, 0.05], [0.95, 0.02, 0.02, 0.01]), CLASSES, 0.5)
    assert found.indices[0].tolist() == [[90, 130, 100, 150], [0, 0, 10, 20]]


def test_a_sharp_corner_outweighs_a_blurred_one():
    found = merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)),
                          probs([0.95, 0.02, 0.02, 0.01], [0.45, 0.4, 0.1, 0.05]), CLASSES, 0.5)
    assert found.card_list == [Card.parse("5H")]
    assert found.confidence[0] > 0.95


def test_an_index_likelier_not_a_card_is_dropped():
    found = merge_indices(indices((0, 0, 10, 20)), probs([0.3, 0.1, 0.1, 0.5]), CLASSES, 0.2)
    assert len(found) == 0


def test_a_doubtful_reading_is_dropped_rather_than_guessed():
    found = merge_indices(indices((0, 0, 10, 20)), probs([0.4, 0.35, 0.15, 0.1]), CLASSES, 0.5)
    assert len(found) == 0


def test_the_detector_score_does_not_lower_a_clear_reading():
    found = merge_indices(indices((0, 0, 10, 20)), probs([0.97, 0.01, 0.01, 0.01]), CLASSES, 0.9)
    assert found.card_list == [Card.parse("5H")] and found.confidence[0] > 0.9


def test_cards_come_left_to_right():
    found = merge_indices(indices((200, 0, 210, 20), (0, 0, 10, 20), (100, 0, 110, 20)),
                          probs([0.9, 0, 0.1, 0], [0, 0.9, 0.1, 0], [0.1, 0, 0.9, 0]), CLASSES, 0.5)
    assert [str(c) for c in found.card_list] == ["5S", "JC", "5H"]


def test_no_indices_no_cards():
    assert len(merge_indices(Detections.empty(), np.zeros((0, 4), np.float32), CLASSES, 0.5)) == 0


def test_one_place_holds_one_index_so_a_nested_box_read_otherwise_gives_way():
    # A box on the 5 of hearts' index, and a wider one around it (a pip taken in) read as the 5 of spades.
    # The small box lies wholly inside the wide one: one place however the share is counted.
    for nest_cover in (0.0, 0.5):
        readings = probs([0.95, 0.03, 0.01, 0.01], [0.1, 0.85, 0.03, 0.02])
        boxes = indices((10, 10, 20, 30), (5, 5, 30, 40))
        found = merge_indices(boxes, readings, CLASSES, 0.5, 0.0, nest_cover)
        assert found.card_list == [Card.parse("5H")]


def test_indices_side_by_side_in_a_fan_are_both_read():
    found = merge_indices(indices((10, 10, 20, 30), (18, 10, 28, 30)),
                          probs([0.95, 0.03, 0.01, 0.01], [0.1, 0.85, 0.03, 0.02]), CLASSES, 0.5)
    assert sorted(map(str, found.card_list)) == ["5H", "5S"]


def test_nested_boxes_read_as_the_same_card_are_one_card():
    found = merge_indices(indices((10, 10, 20, 30), (5, 5, 30, 40)),
                          probs([0.95, 0.03, 0.01, 0.01], [0.8, 0.1, 0.05, 0.05]), CLASSES, 0.5)
    assert found.card_list == [Card.parse("5H")] and len(found.indices[0]) == 2


def test_two_unsure_corners_do_not_make_a_sure_card():
    # Each corner leans to 5H but is unsure, and their second guesses differ: combined, 5H reaches
    # 0.71, yet neither corner reads it at 0.5 on its own.
    corners = probs([0.45, 0.4, 0.1, 0.05], [0.45, 0.1, 0.4, 0.05])
    found = merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)), corners, CLASSES, 0.7)
    assert found.card_list == [Card.parse("5H")]
    assert len(merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)), corners, CLASSES, 0.7, 0.5)) == 0


def test_one_sure_corner_is_enough_for_the_card():
    found = merge_indices(indices((0, 0, 10, 20), (90, 130, 100, 150)),
                          probs([0.55, 0.4, 0.03, 0.02], [0.45, 0.1, 0.4, 0.05]), CLASSES, 0.7, 0.5)
    assert found.card_list == [Card.parse("5H")]


def test_neighbouring_indices_in_a_tight_fan_are_two_places():
    # The 5 of spades' box reaches over the 5 of hearts' centre, as neighbours in a tight fan do,
    # yet the two share less than half of either box: two indices, both read.
    hearts, spades = (10, 10, 30, 50), (18, 20, 38, 60)
    readings = probs([0.9, 0.06, 0.02, 0.02], [0.02, 0.96, 0.01, 0.01])
    found = merge_indices(indices(hearts, spades), readings, CLASSES, 0.5, 0.0, 0.5)
    assert sorted(map(str, found.card_list)) == ["5H", "5S"]
    # Counted by centres alone (the last release), the surer reading took the place.
    assert merge_indices(indices(hearts, spades), readings, CLASSES, 0.5).card_list == [Card.parse("5S")]


# Reading a show: the player said how many cards the photo holds.
SHOW_CLASSES: list[Card | None] = [Card.parse(c) for c in ("5H", "5S", "JC", "9D", "2C")] + [None]


def show_probs(*readings: tuple[str, float]) -> np.ndarray:
    """One index per reading: that card at that probability, the rest on `none`."""
    rows = np.zeros((len(readings), len(SHOW_CLASSES)), np.float32)
    for row, (card, p) in zip(rows, readings, strict=True):
        row[SHOW_CLASSES.index(Card.parse(card))] = p
        row[-1] = 1 - p
    return rows


def spaced(n: int) -> Detections:
    return indices(*[(100 * k, 0, 100 * k + 10, 20) for k in range(n)])


def test_more_cards_than_expected_are_all_read_for_the_count_to_set_one_aside():
    readings = show_probs(("5H", 0.99), ("5S", 0.98), ("JC", 0.97), ("9D", 0.96), ("2C", 0.8))
    found = merge_indices(spaced(5), readings, SHOW_CLASSES, 0.7, expected=Expected(4))
    assert sorted(map(str, found.card_list)) == ["2C", "5H", "5S", "9D", "JC"]


def test_fewer_cards_than_expected_take_the_likeliest_card_short_of_the_line():
    readings = show_probs(("5H", 0.99), ("5S", 0.98), ("JC", 0.97), ("9D", 0.6), ("2C", 0.58))
    assert len(merge_indices(spaced(5), readings, SHOW_CLASSES, 0.7)) == 3
    found = merge_indices(spaced(5), readings, SHOW_CLASSES, 0.7, expected=Expected(4), fill_floor=0.55)
    assert sorted(map(str, found.card_list)) == ["5H", "5S", "9D", "JC"]
    assert found.confidence[found.card_list.index(Card.parse("9D"))] == pytest.approx(0.6, abs=1e-4)
    assert [d.made_up for d in found] == [card == Card.parse("9D") for card in found.cards]


def test_a_card_below_the_floor_does_not_make_up_the_number():
    readings = show_probs(("5H", 0.99), ("5S", 0.98), ("JC", 0.97), ("9D", 0.5))
    found = merge_indices(spaced(4), readings, SHOW_CLASSES, 0.7, expected=Expected(4), fill_floor=0.55)
    assert sorted(map(str, found.card_list)) == ["5H", "5S", "JC"]


def test_a_named_starter_in_view_is_kept_and_not_counted():
    readings = show_probs(("5H", 0.99), ("5S", 0.98), ("JC", 0.97), ("9D", 0.96), ("2C", 0.95))
    named = Expected(4, besides=Card.parse("2C"))
    found = merge_indices(spaced(5), readings, SHOW_CLASSES, 0.7, expected=named)
    assert len(found) == 5
    fewer = merge_indices(spaced(4), readings[:4], SHOW_CLASSES, 0.7, expected=named)
    assert sorted(map(str, fewer.card_list)) == ["5H", "5S", "9D", "JC"]


def test_a_photo_holds_no_fewer_than_no_cards():
    with pytest.raises(ValueError, match="0 or more"):
        Expected(-1)


# Reading a whole table: a card's corners lie at most a card apart (``corners_apart`` index sizes).
TABLE_CLASSES: list[Card | None] = [Card.parse(c) for c in ("7S", "7C", "KD")] + [None]


def test_one_card_read_in_two_places_a_table_apart_is_two_cards_the_less_sure_read_next_likeliest():
    # The seven of spades' two corners read surely; far off, the seven of clubs' corner reads as
    # the seven of spades, its clubs a close second. A deck holds one seven of spades.
    boxes = indices((0, 0, 10, 20), (30, 40, 40, 60), (1000, 0, 1010, 20))
    readings = probs([0.98, 0.01, 0.0, 0.01], [0.97, 0.02, 0.0, 0.01], [0.6, 0.35, 0.0, 0.05])
    found = merge_indices(boxes, readings, TABLE_CLASSES, 0.3, corners_apart=6.0)
    assert [str(c) for c in found.cards] == ["7S", "7C"]
    assert found.indices[0].tolist() == [[0, 0, 10, 20], [30, 40, 40, 60]]
    assert found.confidence[1] == pytest.approx(0.35 / 0.4, abs=1e-3)


def test_without_corners_apart_indices_read_alike_are_one_card_wherever_they_lie():
    boxes = indices((0, 0, 10, 20), (1000, 0, 1010, 20))
    readings = probs([0.98, 0.01, 0.0, 0.01], [0.6, 0.35, 0.0, 0.05])
    assert [str(c) for c in merge_indices(boxes, readings, TABLE_CLASSES, 0.3).cards] == ["7S"]


def test_a_card_read_in_two_places_keeps_the_place_read_surest_not_the_one_with_more_corners():
    # One sure corner of the seven of spades at 1000; two unsure corners at 0 read it too.
    boxes = indices((0, 0, 10, 20), (30, 40, 40, 60), (1000, 0, 1010, 20))
    readings = probs([0.55, 0.4, 0.0, 0.05], [0.55, 0.4, 0.0, 0.05], [0.99, 0.0, 0.0, 0.01])
    found = merge_indices(boxes, readings, TABLE_CLASSES, 0.3, corners_apart=6.0)
    assert [str(c) for c in found.cards] == ["7C", "7S"]
    assert len(found.indices[0]) == 2


def test_the_place_that_gives_way_is_no_card_where_none_is_likelier_than_its_next_card():
    # A back's pattern far off read as the seven of spades, otherwise most like nothing.
    boxes = indices((0, 0, 10, 20), (1000, 0, 1010, 20))
    readings = probs([0.99, 0.0, 0.0, 0.01], [0.5, 0.05, 0.05, 0.4])
    found = merge_indices(boxes, readings, TABLE_CLASSES, 0.3, corners_apart=6.0)
    assert [str(c) for c in found.cards] == ["7S"] and found.indices[0].tolist() == [[0, 0, 10, 20]]


def test_a_card_read_in_three_places_gives_way_twice():
    # 7S at 0 surely; at 500 and 1000 two places misread as it, each then read as the seven of
    # clubs: the surer keeps the clubs, the other takes its third likeliest, the king of diamonds.
    boxes = indices((0, 0, 10, 20), (500, 0, 510, 20), (1000, 0, 1010, 20))
    readings = probs([0.99, 0.0, 0.0, 0.01], [0.6, 0.38, 0.0, 0.02], [0.5, 0.3, 0.19, 0.01])
    found = merge_indices(boxes, readings, TABLE_CLASSES, 0.1, corners_apart=6.0)
    assert [str(c) for c in found.cards] == ["7S", "7C", "KD"]


def test_a_cards_two_corners_four_of_its_index_sizes_apart_stay_one_card_though_other_cards_are_smaller():
    # A card near the camera: its indices twice the size of the far cards', its corners 200 px apart
    # (four of its own index sizes; ten of the far cards').
    near = indices((0, 0, 25, 50), (225, 250, 250, 300), (1000, 0, 1010, 20), (1100, 0, 1110, 20))
    readings = probs([0.98, 0.01, 0.0, 0.01], [0.97, 0.02, 0.0, 0.01], [0.0, 0.99, 0.0, 0.01],
                     [0.0, 0.0, 0.99, 0.01])
    found = merge_indices(near, readings, TABLE_CLASSES, 0.5, corners_apart=6.0)
    assert [str(c) for c in found.cards] == ["7S", "7C", "KD"]
    assert len(found.indices[0]) == 2
