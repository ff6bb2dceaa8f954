"""A whole-table photo read: its 13-21 cards found at the table's finer scale and split into groups."""

from collections import Counter

import pytest

from training.synth.table_scene import TablePlan, render_table
from vision.config import RecognizerConfig, for_the_table
from vision.pipeline import default_recognizer
from vision.table_read import read_table, table_cards, table_reader


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
