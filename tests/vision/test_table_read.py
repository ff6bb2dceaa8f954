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


def test_a_table_reads_one_card_in_two_places_a_table_apart_as_two_cards_where_a_hand_reads_one():
    # The seven of spades read surely at one end of the table; at the other, the seven of clubs'
    # corner read as the seven of spades, clubs a close second. A deck holds one seven of spades.
    hand, table = RecognizerConfig(), for_the_table(RecognizerConfig())
    classes = [Card.parse(c) for c in ("7S", "7C")] + [None]
    readings = np.array([[0.99, 0, 0.01], [0.55, 0.4, 0.05]], np.float32)
    boxes = Detections(xyxy=[_index(0, 0), _index(2000, 0)], confidence=[0.9, 0.9])

    def read(cfg: RecognizerConfig) -> list[str]:
        found = merge_indices(boxes, readings, classes, cfg.card_confidence, cfg.sure_index_confidence,
                              cfg.nest_cover, Expected(2), cfg.show_fill_floor, cfg.corners_apart)
        return [str(c) for c in found.cards]

    assert read(hand) == ["7S"] and read(table) == ["7S", "7C"]


def test_a_table_short_of_its_number_or_with_a_card_to_check_is_in_doubt():
    sure = _cards(("5H", 0.99, [_index(0, 0)]), ("5C", 0.99, [_index(100, 0)]))
    unsure = _cards(("5H", 0.99, [_index(0, 0)]), ("5C", 0.9, [_index(100, 0)]))
    assert (in_doubt(sure, 2), in_doubt(sure, 3), in_doubt(unsure, 2)) == (False, True, True)


def test_a_table_read_with_a_card_too_many_is_in_doubt_though_every_card_is_sure():
    # One card beyond the number is set aside by how surely it reads: a false card read surer than a
    # true one puts the true one aside, so the closer look is asked.
    read = _cards(("5H", 0.99, [_index(0, 0)]), ("5C", 0.99, [_index(100, 0)]),
                  ("QC", 0.96, [_index(200, 0)]))
    assert in_doubt(read, 3) is False and in_doubt(read, 2) is True


def test_the_closer_reading_of_a_place_wins_and_the_coarse_look_adds_what_it_missed():
    coarse = _cards(("AS", 0.82, [_index(0, 0)]), ("9C", 0.99, [_index(300, 0)]))
    closer = _cards(("AC", 0.97, [_index(2, 1)]))
    both = combined(closer, coarse, 2)
    assert [str(c) for c in both.cards] == ["AC", "9C"]


def test_where_the_closer_look_reads_the_tables_number_a_card_only_the_coarse_look_read_is_too_many():
    closer = _cards(("5H", 0.99, [_index(0, 0)]), ("8S", 0.72, [_index(100, 0)]))
    coarse = _cards(("5H", 0.99, [_index(0, 0)]), ("QC", 0.95, [_index(300, 300)]))
    assert [str(c) for c in combined(closer, coarse, 2).cards] == ["5H", "8S"]


def test_the_coarse_look_fills_what_the_closer_look_missed_surest_first():
    closer = _cards(("5H", 0.99, [_index(0, 0)]))
    coarse = _cards(("KD", 0.7, [_index(100, 0)]), ("2C", 0.9, [_index(200, 0)]))
    assert [str(c) for c in combined(closer, coarse, 2).cards] == ["5H", "2C"]
    assert [str(c) for c in combined(closer, coarse, 3).cards] == ["5H", "KD", "2C"]


def test_a_card_read_in_both_looks_is_kept_once_as_the_closer_look_read_it():
    coarse = _cards(("9C", 0.9, [_index(300, 0)]))
    closer = _cards(("9C", 0.99, [_index(302, 0)]))
    both = combined(closer, coarse, 1)
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

