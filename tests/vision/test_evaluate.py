"""`vision.evaluate`: the figures `cribcount eval` prints, on a fake recognizer with known answers."""

from __future__ import annotations

from pathlib import Path

import json

import cv2
import numpy as np
import pytest
from eval_support import _photo, _reader, _synth_scene, csv_set  # noqa: F401 - csv_set: a fixture

from vision.detections import Detections
from vision.evaluate import evaluate, failure_sheet, load_labelled


def test_cards_csv_set_measures_cards_hands_false_cards_and_confusions(csv_set):
    photos = load_labelled(csv_set)
    report = evaluate(photos, _reader({"a.jpg": "5H 5D 5S JC",       # right
                                       "b.jpg": "AS 2S 3S 4C",       # 4S read as 4C
                                       "c.jpg": "9H 10H JH QH"}),    # KH missed
                      "fake")
    assert report.cards == 13
    assert report.card_accuracy == pytest.approx(11 / 13)
    assert report.hand_accuracy == pytest.approx(1 / 3)
    assert report.false_cards == 1
    assert report.confusions() == {("4S", "4C"): 1, ("KH", "-"): 1}
    assert "per-card accuracy   84.62%" in report.table()


def test_failure_sheet_shows_only_the_photos_not_fully_right(csv_set, tmp_path):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    out = tmp_path / "fail.jpg"
    assert failure_sheet(report, out) == 1
    assert cv2.imread(str(out)) is not None


def test_synth_card_with_no_readable_index_is_optional(tmp_path):
    _photo(tmp_path / "s1.jpg")
    label = {"image": "s1.jpg", "cards": [
        {"card": "5H", "face_up": True, "readable": True},
        {"card": "6H", "face_up": True, "readable": True},
        {"card": "7H", "face_up": True, "readable": False},   # buried under the others
        {"card": "8H", "face_up": False, "readable": False},  # a back: never a card to read
    ]}
    (tmp_path / "s1.json").write_text(json.dumps(label))
    [photo] = load_labelled(tmp_path)
    assert photo.cards == frozenset(parse_cards("5H 6H")) and photo.optional == frozenset(parse_cards("7H"))
    with_buried = evaluate([photo], _reader({"s1.jpg": "5H 6H 7H"}), "synth")
    without = evaluate([photo], _reader({"s1.jpg": "5H 6H"}), "synth")
    assert with_buried.hand_accuracy == without.hand_accuracy == 1.0
    assert with_buried.false_cards == 0


def test_synthetic_scenes_break_down_by_deck(tmp_path):
    for name, deck, cards in (("s1", "gnome-plastic", ["2C", "3C"]), ("s2", "gnome-plastic", ["4C", "5C"]),
                              ("s3", "kde-standard", ["6D", "7D"])):
        _synth_scene(tmp_path, name, cards, deck=deck)
    report = evaluate(load_labelled(tmp_path), _reader({"s1.jpg": "2S 3C", "s2.jpg": "4C 5C",  # 2C read as 2S
                                                        "s3.jpg": "6D 7D"}), "synth")
    decks = report.by_deck()
    assert list(decks) == ["gnome-plastic", "kde-standard"]
    assert decks["gnome-plastic"].card_accuracy == pytest.approx(3 / 4)
    assert decks["gnome-plastic"].hand_accuracy == pytest.approx(1 / 2)
    assert decks["gnome-plastic"].false_cards == 1
    assert decks["kde-standard"].card_accuracy == 1.0
    assert "gnome-plastic" in report.table() and "kde-standard" in report.table()
    assert report.as_dict()["by_deck"]["gnome-plastic"]["false_cards"] == 1


def test_synthetic_scenes_break_down_by_layout(tmp_path):
    for name, layout, cards in (("s1", "row", ["2C", "3C"]), ("s2", "fan", ["4C", "5C"]),
                                ("s3", "fan", ["6D", "7D"])):
        _synth_scene(tmp_path, name, cards, scene_type=layout)
    report = evaluate(load_labelled(tmp_path), _reader({"s1.jpg": "2C 3C", "s2.jpg": "4C",  # 5C missed in a fan
                                                        "s3.jpg": "6D 7D"}), "synth")
    layouts = report.by_layout()
    assert list(layouts) == ["fan", "row"]
    assert layouts["fan"].card_accuracy == pytest.approx(3 / 4)
    assert layouts["fan"].hand_accuracy == pytest.approx(1 / 2)
    assert layouts["row"].hand_accuracy == 1.0
    assert "by layout" in report.table()
    assert report.as_dict()["by_layout"]["fan"]["photos"] == 2


def test_a_set_without_decks_prints_no_deck_table(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    assert report.by_deck() == {} and "by deck" not in report.table()
    assert report.by_layout() == {} and "by layout" not in report.table()


def test_folder_without_labels_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no cards.csv"):
        load_labelled(tmp_path)


def test_rates_come_with_an_interval_from_resampling_the_photos(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4C",
                                                      "c.jpg": "9H 10H JH QH"}), "fake")
    ci = report.intervals()
    lo, hi = ci["hand_accuracy"]
    assert lo <= report.hand_accuracy <= hi and hi - lo > 0.5  # three photos tell little
    lo, hi = ci["card_accuracy"]
    assert lo < report.card_accuracy <= hi
    assert report.intervals() == ci  # fixed seed: the same interval every time
    assert "(95%: " in report.table() and report.as_dict()["hand_accuracy_95"] == list(ci["hand_accuracy"])


def test_interval_narrows_as_photos_are_added(tmp_path):
    def report_of(n: int):
        lines = ["file,cards"]
        answers = {}
        for k in range(n):
            _photo(tmp_path / f"s{n}" / "images" / f"{k}.jpg")
            lines.append(f"{k}.jpg,5H 5D 5S JC")
            answers[f"{k}.jpg"] = "5H 5D 5S JC" if k % 4 else "5H 5D 5S"  # one photo in four misses JC
        (tmp_path / f"s{n}" / "cards.csv").write_text("\n".join(lines) + "\n")
        return evaluate(load_labelled(tmp_path / f"s{n}"), _reader(answers), "fake")

    small, large = (report_of(n).intervals()["hand_accuracy"] for n in (8, 80))
    assert large[1] - large[0] < small[1] - small[0]
    assert large[0] < 0.75 < large[1]


def test_photos_of_a_show_are_measured_apart_from_bigger_scenes(tmp_path):
    # Two shows (four cards and the starter; four cards) and a pegging scene of seven cards.
    for name, cards in (("show1", "5H 5D 5S JC 10H"), ("show2", "AS 2S 3S 4S"),
                        ("pegging", "2C 3C 4C 5C 6D 7D 8D")):
        _synth_scene(tmp_path, name, cards.split())
    report = evaluate(load_labelled(tmp_path), _reader({"show1.jpg": "5H 5D 5S JC 10H", "show2.jpg": "AS 2S 3S 4S",
                                                        "pegging.jpg": "2C 3C 4C 5C 6D 7D"}), "synth")  # 8D missed
    groups = report.by_cards_in_view()
    assert list(groups) == ["up to 5 (a show)", "6 or more"]
    assert groups["up to 5 (a show)"].card_accuracy == 1.0 and groups["up to 5 (a show)"].hand_accuracy == 1.0
    assert groups["6 or more"].card_accuracy == pytest.approx(6 / 7)
    assert groups["6 or more"].hand_accuracy == 0.0
    assert "by cards in view" in report.table()
    assert report.as_dict()["by_cards_in_view"]["up to 5 (a show)"]["photos"] == 2


def test_a_set_of_shows_only_prints_no_cards_in_view_table(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    assert list(report.by_cards_in_view()) == ["up to 5 (a show)"]
    assert "by cards in view" not in report.table()


def test_a_false_card_read_surely_counts_as_not_marked_and_one_read_doubtfully_does_not(csv_set):
    """The product marks a card read below 95% for the player to check: a false card above the line
    is a wrong count given as sure, the one the report counts apart; a right card below it is a
    needless check."""
    confidences = {"a.jpg": [1.0, 1.0, 0.9, 1.0],     # all right; 5S marked needlessly
                   "b.jpg": [1.0, 1.0, 1.0, 0.97],    # 4S read as 4C, surely: not marked
                   "c.jpg": [1.0, 1.0, 1.0, 0.93, 1.0]}  # QH read as QD, marked

    def recognize(path: Path) -> Detections:
        dets = _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S 4C", "c.jpg": "9H 10H JH QD KH"})(path)
        return dets.with_(confidence=np.array(confidences[Path(path).name], np.float32))

    report = evaluate(load_labelled(csv_set), recognize, "fake")
    assert report.false_cards == 2
    assert [sorted(map(str, r.unmarked_false)) for r in report.results] == [[], ["4C"], []]
    assert report.unmarked_false_cards == 1 and report.wrong_unmarked == 1
    assert report.marked_right == 1
    assert "false, not marked   1 (in 1 photos" in report.table()
    assert report.as_dict()["wrong_unmarked"] == 1


def test_a_label_with_a_card_that_is_not_one_is_refused_naming_the_label(tmp_path):
    _photo(tmp_path / "images" / "x.jpg")
    (tmp_path / "cards.csv").write_text("file,cards\nx.jpg,5H ZZ\n")
    with pytest.raises(ValueError, match=r"cards\.csv, x\.jpg: 'ZZ' is not a card"):
        load_labelled(tmp_path)
    _synth_scene(tmp_path / "synth", "s1", ["5H", "1C"])
    with pytest.raises(ValueError, match=r"s1\.json: '1C' is not a card"):
        load_labelled(tmp_path / "synth")


def test_a_photo_the_reader_refuses_stops_the_measurement_naming_the_photo(csv_set):
    from vision.image_io import GREYSCALE, ImageError

    def recognize(path: Path) -> Detections:
        if Path(path).name == "b.jpg":
            raise ImageError(GREYSCALE)
        return _reader({"a.jpg": "5H 5D 5S JC", "c.jpg": "9H 10H JH QH KH"})(path)

    with pytest.raises(ImageError, match=r"images/b\.jpg: the photo is greyscale"):
        evaluate(load_labelled(csv_set), recognize, "fake")
