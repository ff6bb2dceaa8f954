"""`training.compare`: model sets paired on the same photos, sets pooled, photos read as shows."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from eval_support import _photo, _reader, _synth_scene, csv_set  # noqa: F401 - csv_set: a fixture

from training.compare import compare, compare_by_deck, deck_comparison_table, pooled, read_as_shows
from vision.detections import Detections, Expected
from vision.evaluate import evaluate, load_labelled


def test_comparison_pairs_the_photos_and_counts_the_photos_fixed_and_broken(csv_set):
    photos = load_labelled(csv_set)
    old = evaluate(photos, _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4C", "c.jpg": "9H 10H JH QH"}), "x")
    new = evaluate(photos, _reader({"a.jpg": "5H 5D 5S", "b.jpg": "AS 2S 3S 4S", "c.jpg": "9H 10H JH QH KH"}), "x")
    diff = compare(new, old, "old models")
    assert diff.card_delta == pytest.approx(1 / 13)  # 4S and KH found, JC lost
    assert diff.hand_delta == pytest.approx(1 / 3)
    assert (diff.fixed, diff.broken, diff.false_delta) == (2, 1, -1)
    lo, hi = diff.card_delta_95
    assert lo < diff.card_delta < hi
    assert "photos fixed 2, broken 1" in diff.table()
    same = compare(old, old, "itself")
    assert same.card_delta_95 == same.hand_delta_95 == (0.0, 0.0)  # paired: nothing differs, nothing varies


def test_a_gain_on_one_deck_and_a_loss_on_another_show_apart_deck_by_deck(tmp_path):
    # Pooled, the two cancel; by deck, one design is mended and the other broken.
    for name, deck, cards in (("s1", "gnome-plastic", ["2C", "3C"]), ("s2", "gnome-plastic", ["4C", "5C"]),
                              ("s3", "kde-standard", ["6D", "7D"]), ("s4", "kde-standard", ["8D", "9D"])):
        _synth_scene(tmp_path, name, cards, deck=deck)
    photos = load_labelled(tmp_path)
    old = evaluate(photos, _reader({"s1.jpg": "2S 3C", "s2.jpg": "4C 5C", "s3.jpg": "6D 7D", "s4.jpg": "8D 9D"}), "x")
    new = evaluate(photos, _reader({"s1.jpg": "2C 3C", "s2.jpg": "4C 5C", "s3.jpg": "6D", "s4.jpg": "8D 9D"}), "x")
    assert compare(new, old, "shipped").card_delta == 0.0
    decks = compare_by_deck(new, old, "shipped")
    assert list(decks) == ["gnome-plastic", "kde-standard"]
    gnome, kde = decks["gnome-plastic"], decks["kde-standard"]
    assert gnome.card_delta == pytest.approx(1 / 4) and (gnome.fixed, gnome.broken, gnome.false_delta) == (1, 0, -1)
    assert kde.card_delta == pytest.approx(-1 / 4) and (kde.fixed, kde.broken, kde.false_delta) == (0, 1, 0)
    table = deck_comparison_table(decks)
    assert "against shipped, by deck" in table
    assert "gnome-plastic" in table and "+25.00" in table and "-25.00" in table


def test_a_set_of_one_deck_or_none_has_no_deck_by_deck_comparison(csv_set):
    photos = load_labelled(csv_set)
    report = evaluate(photos, _reader({"a.jpg": "5H", "b.jpg": "AS", "c.jpg": "9H"}), "x")
    assert compare_by_deck(report, report, "itself") == {}
    assert deck_comparison_table({}) == ""


def test_several_sets_pool_into_one_report_of_all_their_photos(csv_set):
    photos = load_labelled(csv_set)
    first = evaluate(photos[:1], _reader({"a.jpg": "5H 5D 5S JC"}), "one")
    second = evaluate(photos[1:], _reader({"b.jpg": "AS 2S 3S", "c.jpg": "9H 10H JH QH KH"}), "two")
    both = pooled([first, second], "all 2 sets")
    assert both.name == "all 2 sets" and len(both.results) == 3
    assert both.card_accuracy == pytest.approx(12 / 13)


def test_comparison_refuses_reports_on_different_photos(csv_set):
    photos = load_labelled(csv_set)
    reader = _reader({"a.jpg": "5H", "b.jpg": "AS", "c.jpg": "9H"})
    with pytest.raises(ValueError, match="same photos"):
        compare(evaluate(photos, reader, "x"), evaluate(photos[:2], reader, "x"), "other")


def test_as_shows_photos_of_four_or_five_cards_are_read_as_holding_that_many(tmp_path):
    for name in ("four.jpg", "five.jpg", "three.jpg", "seven.jpg"):
        _photo(tmp_path / "images" / name)
    (tmp_path / "cards.csv").write_text("file,cards\nfour.jpg,5H 5D 5S JC\nfive.jpg,AS 2S 3S 4S 5S\n"
                                        "three.jpg,9H 10H JH\nseven.jpg,AH 2H 3H 4H 5H 6H 7H\n")
    told = {}

    def recognize(path: Path, expected: Expected | None) -> Detections:
        told[Path(path).name] = expected
        return Detections.empty()

    photos = load_labelled(tmp_path)
    evaluate(photos, read_as_shows(recognize, photos), "shows")
    assert told == {"four.jpg": Expected(4), "five.jpg": Expected(5), "three.jpg": None, "seven.jpg": None}

