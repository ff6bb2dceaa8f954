"""Whole-table evaluation: composites tiled from real single-hand photos, and how a reading is judged."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from scorer.cards import Card
from training.eval.table_composite import compose, cut_starter
from training.eval.table_eval import by_deck, judge, summary
from training.synth.table_scene import PHOTO_SIZE, TableTruth
from vision.detections import Detections

REAL = Path(__file__).resolve().parents[3].parent / "shared" / "photos" / "poker-cards-4"
needs_real = pytest.mark.skipif(not (REAL / "cards.csv").is_file(), reason="../shared/photos not here")


@needs_real
@pytest.mark.parametrize(("players", "cards"), [(2, 13), (3, 17), (4, 21)])
def test_a_composite_is_one_12_mp_photo_of_the_tables_cards_none_repeated(players, cards):
    table = compose(REAL, players, np.random.default_rng(players))
    assert table.image.shape == (PHOTO_SIZE[1], PHOTO_SIZE[0], 3)
    on_table = [str(card) for card, _ in table.boxes]
    assert len(on_table) == len(set(on_table)) == cards
    assert len(table.truth.groups) == players + 1
    assert all(len(group) == 4 for group in table.truth.groups)


@needs_real
def test_each_tile_of_a_composite_is_one_group_lying_apart_from_the_others():
    table = compose(REAL, 2, np.random.default_rng(0))
    box = {str(card): b for card, b in table.boxes}
    groups = [[box[str(c)] for c in group] for group in table.truth.groups]
    spans = [(min(b[0] for b in g), max(b[2] for b in g), min(b[1] for b in g), max(b[3] for b in g))
             for g in groups]
    for i, a in enumerate(spans):
        for b in spans[i + 1:]:
            apart_x = a[1] < b[0] or b[1] < a[0]
            apart_y = a[3] < b[2] or b[3] < a[2]
            assert apart_x or apart_y


# Two players' table, drawn by boxes: three rows of four and the starter at the right.
GROUPS = (("AH", "2H", "3H", "4H"), ("5C", "6C", "7C", "8C"), ("9S", "10S", "JS", "QS"))
STARTER = "5D"


def _table(cards: list[str]) -> tuple[Detections, list[tuple[str, tuple[float, float, float, float]]]]:
    boxes = [(x, y, x + 50.0, y + 70.0) for y in (0, 200, 400) for x in (0, 60, 120, 180)]
    boxes.append((400.0, 200.0, 450.0, 270.0))
    truth = [*(c for g in GROUPS for c in g), STARTER]
    detections = Detections(xyxy=boxes, confidence=[0.99] * 13, cards=[Card.parse(c) for c in cards])
    return detections, list(zip(truth, boxes, strict=True))


TRUTH = TableTruth(tuple(tuple(Card.parse(c) for c in g) for g in GROUPS), Card.parse(STARTER))


def test_a_table_read_as_laid_is_right_in_groups_cards_and_counts():
    detections, boxes = _table([*(c for g in GROUPS for c in g), STARTER])
    result = judge(detections, 2, TRUTH, boxes, "render 2p-row", 0.1)
    assert (result.groups_right, result.cards_right, result.counts_right) == (True, True, True)


def test_a_misread_card_is_cards_wrong_but_groups_right():
    misread = ["AH", "2H", "3H", "4H", "5C", "6C", "7C", "8C", "9S", "10S", "JS", "KS", "5D"]
    detections, boxes = _table(misread)
    result = judge(detections, 2, TRUTH, boxes, "render 2p-row", 0.1)
    assert (result.groups_right, result.cards_right) == (True, False)


def test_the_summary_gives_each_layout_its_shares():
    detections, boxes = _table([*(c for g in GROUPS for c in g), STARTER])
    right = judge(detections, 2, TRUTH, boxes, "render 2p-row", 0.2)
    wrong = judge(detections[:12], 2, TRUTH, boxes, "render 2p-row", 0.4)
    row = summary([right, wrong])["render 2p-row"]
    assert (row["photos"], row["groups_right"], row["cards_right"]) == (2, 0.5, 0.5)
    assert row["max_s"] == pytest.approx(0.4)


def test_the_summary_also_gives_each_number_of_players_over_its_styles():
    detections, boxes = _table([*(c for g in GROUPS for c in g), STARTER])
    row = judge(detections, 2, TRUTH, boxes, "render 2p-row", 0.1)
    pile = judge(detections[:12], 2, TRUTH, boxes, "render 2p-pile", 0.1)
    kind = summary([row, pile])["render 2p"]
    assert (kind["photos"], kind["cards_right"]) == (2, 0.5)


def test_a_cut_out_starter_carries_no_part_of_another_cards_box():
    photo = np.full((100, 100, 3), 255, np.uint8)
    cards = [(Card.parse("5H"), np.array([10.0, 10, 60, 80])),
             (Card.parse("JH"), np.array([50.0, 70, 95, 99]))]
    cut, starter = cut_starter(photo, cards, np.array([0, 90, 0], np.uint8))
    assert str(starter) == "5H" and cut.shape == (70, 50, 3)
    assert (cut[60:, 40:] == [0, 90, 0]).all() and (cut[:60, :40] == 255).all()


def test_renders_are_also_counted_by_deck_and_composites_are_not():
    detections, boxes = _table([*(c for g in GROUPS for c in g), STARTER])
    right = replace(judge(detections, 2, TRUTH, boxes, "render 2p-row", 0.1), deck="kde-standard")
    wrong = replace(judge(detections[:12], 2, TRUTH, boxes, "render 2p-fan", 0.1), deck="kde-standard")
    composite = judge(detections, 2, TRUTH, boxes, "composite 2p", 0.1)
    decks = by_deck([right, wrong, composite])
    assert set(decks) == {"kde-standard 2p", "kde-standard all"}
    assert (decks["kde-standard 2p"]["photos"], decks["kde-standard 2p"]["both_right"]) == (2, 0.5)
