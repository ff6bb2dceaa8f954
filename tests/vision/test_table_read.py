"""A whole-table photo read: its 13-21 cards found at the table's finer scale and split into groups."""

from collections import Counter

import numpy as np
import pytest

from scorer.cards import Card
from training.synth.table_scene import TablePlan, render_table
from vision.config import RecognizerConfig, for_the_table
from vision.detections import Detections, Expected
from vision.merge import merge_indices
from vision.pipeline import default_recognizer
from vision.table_read import (
    combined,
    in_doubt,
    least_sure_aside,
    placed_by_indices,
    read_table,
    table_cards,
    table_reader,
)


def test_a_table_holds_every_hand_the_crib_and_the_starter():
    assert (table_cards(2), table_cards(3), table_cards(4)) == (13, 17, 21)
    assert table_cards(2, five_card=True) == 11


def test_the_tables_settings_read_finer_than_a_hands():
    hand, table = RecognizerConfig(), for_the_table(RecognizerConfig())
    assert table.min_long_side > hand.min_long_side
    assert table.large_photo_detector_size > hand.large_photo_detector_size


def test_the_table_reader_shares_the_models_and_leaves_the_hands_settings_alone():
    shipped = default_recognizer()
    reader = table_reader(shipped)
    assert reader.detector is shipped.detector
    assert shipped.config == RecognizerConfig()
    assert reader.config == for_the_table(RecognizerConfig())


@pytest.mark.slow
def test_a_render_of_a_two_player_table_reads_into_three_groups_and_the_starter():
    rendered = render_table(7, 0, TablePlan(2, "row", "pack"), deck="proc-slab")
    reading = read_table(rendered.jpeg, players=2)
    cards = reading.detections.cards
    assert Counter(map(str, cards)) == Counter(c["card"] for c in rendered.label["cards"])
    groups = {frozenset(str(cards[r]) for r in group.rows) for group in reading.layout.groups}
    assert groups == {frozenset(map(str, group)) for group in rendered.truth.groups}
    assert str(cards[reading.layout.starter]) == str(rendered.truth.starter)


def _cards(*rows: tuple[str, float, list[list[float]]]) -> Detections:
    """Cards as (name, confidence, index boxes): each card's box the union of its indices."""
    boxes = [np.array(ix, np.float32) for _, _, ix in rows]
    return Detections(xyxy=[[b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()] for b in boxes],
                      confidence=[c for _, c, _ in rows], cards=[Card.parse(n) for n, _, _ in rows],
                      indices=boxes)


def _index(x: float, y: float, size: float = 40) -> list[float]:
    return [x, y, x + size / 2, y + size]


def test_a_card_beyond_the_tables_number_is_the_least_sure_set_aside():
    cards = _cards(("5H", 0.99, [_index(0, 0)]), ("KD", 0.72, [_index(100, 0)]),
                   ("5C", 0.98, [_index(200, 0)]))
    kept, aside = least_sure_aside(cards, 2)
    assert [str(c) for c in kept.cards] == ["5H", "5C"] and [str(c) for c in aside.cards] == ["KD"]


def test_far_too_many_cards_are_not_set_aside_but_left_for_the_layout_to_refuse():
    cards = _cards(*((card, 0.99, [_index(100 * i, 0)]) for i, card in enumerate("5H KD 5C 2S 3S".split())))
    kept, aside = least_sure_aside(cards, 2)
    assert len(kept) == 5 and len(aside) == 0


def test_a_table_of_its_number_sets_nothing_aside():
    cards = _cards(("5H", 0.99, [_index(0, 0)]), ("KD", 0.72, [_index(100, 0)]))
    assert len(least_sure_aside(cards, 2)[1]) == 0


def test_an_index_a_table_away_from_its_cards_other_corners_is_not_one_of_them():
    corners = [_index(0, 0), _index(160, 200), _index(0, 200)]
    cards = _cards(("2H", 0.99, [*corners, _index(2000, 0)]),
                   ("JH", 0.99, [_index(2000, 60), _index(2160, 260)]))
    placed = placed_by_indices(cards)
    assert placed.xyxy[0].tolist() == [0, 0, 180, 240]
    assert len(placed.indices[0]) == 3


def test_a_cards_two_corners_a_card_apart_stay_one_card_where_the_others_show_one_corner():
    # In piles most cards show one index, so their boxes are an index's size; the 9 of spades shows
    # both corners, about four index sizes apart (a card's diagonal), and is not cut to one.
    piled = [(card, 0.99, [_index(400 * i, 400)]) for i, card in enumerate("5H KD 5C 2S".split())]
    cards = _cards(("9S", 0.99, [_index(0, 0), _index(150, 60)]), *piled)
    assert placed_by_indices(cards).xyxy[0].tolist() == [0, 0, 170, 100]


def test_of_two_lone_indices_far_apart_the_larger_places_the_card():
    cards = _cards(("3H", 0.99, [_index(0, 0, 70), _index(2000, 0, 20)]), ("8H", 0.99, [_index(2000, 40)]))
    assert placed_by_indices(cards).xyxy[0].tolist() == [0, 0, 35, 70]


def test_of_two_lone_indices_far_apart_and_alike_the_surer_read_places_the_card():
    # merge_indices lists a card's indices surest-read first: here the one at 2000 (a pack's back
    # read as the 3 of hearts, say) is the second, so the card stays at 0, not stretched across.
    cards = _cards(("3H", 0.99, [_index(0, 0), _index(2000, 0)]), ("8H", 0.99, [_index(2000, 100)]))
    assert placed_by_indices(cards).xyxy[0].tolist() == [0, 0, 20, 40]
    cards = _cards(("3H", 0.99, [_index(2000, 0), _index(0, 0)]), ("8H", 0.99, [_index(2000, 100)]))
    assert placed_by_indices(cards).xyxy[0].tolist() == [2000, 0, 2020, 40]


def test_a_table_short_of_its_number_or_with_a_card_to_check_is_in_doubt():
    sure = _cards(("5H", 0.99, [_index(0, 0)]), ("5C", 0.99, [_index(100, 0)]))
    unsure = _cards(("5H", 0.99, [_index(0, 0)]), ("5C", 0.9, [_index(100, 0)]))
    assert (in_doubt(sure, 2), in_doubt(sure, 3), in_doubt(unsure, 2)) == (False, True, True)


def test_the_closer_reading_of_a_place_wins_and_the_coarse_look_adds_what_it_missed():
    coarse = _cards(("AS", 0.82, [_index(0, 0)]), ("9C", 0.99, [_index(300, 0)]))
    closer = _cards(("AC", 0.97, [_index(2, 1)]))
    both = combined(closer, coarse)
    assert [str(c) for c in both.cards] == ["AC", "9C"]


def test_a_card_read_in_both_looks_is_kept_once_as_the_closer_look_read_it():
    coarse = _cards(("9C", 0.9, [_index(300, 0)]))
    closer = _cards(("9C", 0.99, [_index(302, 0)]))
    both = combined(closer, coarse)
    assert [str(c) for c in both.cards] == ["9C"] and both.confidence[0] == pytest.approx(0.99)


def test_a_table_short_of_its_number_takes_a_card_likelier_than_not_where_a_hand_would_not():
    hand, table = RecognizerConfig(), for_the_table(RecognizerConfig())
    classes = [Card.parse(c) for c in ("5H", "AC")] + [None]
    readings = np.array([[0.99, 0, 0.01], [0, 0.6, 0.4]], np.float32)  # a small ace of clubs, read 60:40
    boxes = Detections(xyxy=[[0, 0, 20, 40], [300, 0, 320, 40]], confidence=[0.9, 0.9])

    def read(cfg: RecognizerConfig) -> list[str]:
        found = merge_indices(boxes, readings, classes, cfg.card_confidence, cfg.sure_index_confidence,
                              cfg.nest_cover, Expected(2), cfg.show_fill_floor)
        return [str(c) for c in found.cards]

    assert read(hand) == ["5H"] and read(table) == ["5H", "AC"]

