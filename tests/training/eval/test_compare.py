"""`training.eval.compare`: model sets paired on the same photos, sets pooled, photos read as shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_support import _photo, _reader, _synth_scene

from training.eval.compare import (
    breakdown_dict,
    breakdown_table,
    by_cards_in_view,
    by_deck,
    by_layout,
    compare,
    compare_by_deck,
    deck_comparison_table,
    pooled,
    read_as_shows,
)
from vision.detections import Detections, Expected
from vision.evaluate import evaluate, load_labelled


def test_comparison_pairs_the_photos_and_counts_the_photos_fixed_and_broken(csv_set):
    photos = load_labelled(csv_set)
    old = evaluate(photos, _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4C",
                                    "c.jpg": "9H 10H JH QH"}), "x")
    new = evaluate(photos, _reader({"a.jpg": "5H 5D 5S", "b.jpg": "AS 2S 3S 4S",
                                    "c.jpg": "9H 10H JH QH KH"}), "x")
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
    old = evaluate(photos, _reader({"s1.jpg": "2S 3C", "s2.jpg": "4C 5C",
                                    "s3.jpg": "6D 7D", "s4.jpg": "8D 9D"}), "x")
    new = evaluate(photos, _reader({"s1.jpg": "2C 3C", "s2.jpg": "4C 5C",
                                    "s3.jpg": "6D", "s4.jpg": "8D 9D"}), "x")
    assert compare(new, old, "shipped").card_delta == 0.0
    decks = compare_by_deck(new, old, "shipped")
    assert list(decks) == ["gnome-plastic", "kde-standard"]
    gnome, kde = decks["gnome-plastic"], decks["kde-standard"]
    assert gnome.card_delta == pytest.approx(1 / 4)
    assert (gnome.fixed, gnome.broken, gnome.false_delta) == (1, 0, -1)
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


def test_synthetic_scenes_break_down_by_deck(tmp_path):
    for name, deck, cards in (("s1", "gnome-plastic", ["2C", "3C"]), ("s2", "gnome-plastic", ["4C", "5C"]),
                              ("s3", "kde-standard", ["6D", "7D"])):
        _synth_scene(tmp_path, name, cards, deck=deck)
    report = evaluate(load_labelled(tmp_path), _reader({"s1.jpg": "2S 3C", "s2.jpg": "4C 5C",  # 2C read as 2S
                                                        "s3.jpg": "6D 7D"}), "synth")
    decks = by_deck(report)
    assert list(decks) == ["gnome-plastic", "kde-standard"]
    assert decks["gnome-plastic"].card_accuracy == pytest.approx(3 / 4)
    assert decks["gnome-plastic"].hand_accuracy == pytest.approx(1 / 2)
    assert decks["gnome-plastic"].false_cards == 1
    assert decks["kde-standard"].card_accuracy == 1.0
    assert "gnome-plastic" in breakdown_table(report) and "kde-standard" in breakdown_table(report)
    assert breakdown_dict(report)["by_deck"]["gnome-plastic"]["false_cards"] == 1


def test_synthetic_scenes_break_down_by_layout(tmp_path):
    for name, layout, cards in (("s1", "row", ["2C", "3C"]), ("s2", "fan", ["4C", "5C"]),
                                ("s3", "fan", ["6D", "7D"])):
        _synth_scene(tmp_path, name, cards, scene_type=layout)
    read = _reader({"s1.jpg": "2C 3C", "s2.jpg": "4C", "s3.jpg": "6D 7D"})  # 5C missed in a fan
    report = evaluate(load_labelled(tmp_path), read, "synth")
    layouts = by_layout(report)
    assert list(layouts) == ["fan", "row"]
    assert layouts["fan"].card_accuracy == pytest.approx(3 / 4)
    assert layouts["fan"].hand_accuracy == pytest.approx(1 / 2)
    assert layouts["row"].hand_accuracy == 1.0
    assert "by layout" in breakdown_table(report)
    assert breakdown_dict(report)["by_layout"]["fan"]["photos"] == 2


def test_a_set_without_decks_prints_no_deck_table(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    assert by_deck(report) == {} and "by deck" not in breakdown_table(report)
    assert by_layout(report) == {} and "by layout" not in breakdown_table(report)


def test_photos_of_a_show_are_measured_apart_from_bigger_scenes(tmp_path):
    # Two shows (four cards and the starter; four cards) and a pegging scene of seven cards.
    for name, cards in (("show1", "5H 5D 5S JC 10H"), ("show2", "AS 2S 3S 4S"),
                        ("pegging", "2C 3C 4C 5C 6D 7D 8D")):
        _synth_scene(tmp_path, name, cards.split())
    read = _reader({"show1.jpg": "5H 5D 5S JC 10H", "show2.jpg": "AS 2S 3S 4S",
                    "pegging.jpg": "2C 3C 4C 5C 6D 7D"})  # 8D missed
    report = evaluate(load_labelled(tmp_path), read, "synth")
    groups = by_cards_in_view(report)
    assert list(groups) == ["up to 5 (a show)", "6 or more"]
    assert groups["up to 5 (a show)"].card_accuracy == 1.0 and groups["up to 5 (a show)"].hand_accuracy == 1.0
    assert groups["6 or more"].card_accuracy == pytest.approx(6 / 7)
    assert groups["6 or more"].hand_accuracy == 0.0
    assert "by cards in view" in breakdown_table(report)
    assert breakdown_dict(report)["by_cards_in_view"]["up to 5 (a show)"]["photos"] == 2


def test_a_set_of_shows_only_prints_no_cards_in_view_table(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    assert list(by_cards_in_view(report)) == ["up to 5 (a show)"]
    assert "by cards in view" not in breakdown_table(report)

