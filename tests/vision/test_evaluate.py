"""`vision.evaluate`: the figures `cribcount eval` prints, on a fake recognizer with known answers."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from eval_support import _photo, _reader, _synth_scene

from scorer.cards import parse_cards
from vision.detections import Detections
from vision.evaluate import evaluate, failure_sheet, load_labelled, per_photo_counts, ratio_interval


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


@pytest.mark.parametrize("name", ["fail.txt", "no-such-folder/fail.jpg"])
def test_a_failure_sheet_opencv_cannot_write_is_an_os_error_naming_it(csv_set, tmp_path, name):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    with pytest.raises(OSError, match=f"could not write the failures sheet {tmp_path / name}"):
        failure_sheet(report, tmp_path / name)
    assert not (tmp_path / "no-such-folder").exists()  # a mistyped folder is not made


def test_per_photo_counts_are_cards_right_cards_labelled_and_fully_right(csv_set):
    report = evaluate(load_labelled(csv_set), _reader({"a.jpg": "5H 5D 5S JC", "b.jpg": "AS 2S 3S",
                                                      "c.jpg": "9H 10H JH QH KH"}), "fake")
    right, labelled, fully = per_photo_counts(report)
    assert right.tolist() == [4, 3, 5] and labelled.tolist() == [4, 4, 5] and fully.tolist() == [1, 0, 1]


def test_a_ratio_every_photo_agrees_on_has_no_width():
    assert ratio_interval(np.full(10, 4.0), np.full(10, 4.0), draws=200, seed=0) == (1.0, 1.0)


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
    from vision.decode import GREYSCALE, ImageError

    def recognize(path: Path) -> Detections:
        if Path(path).name == "b.jpg":
            raise ImageError(GREYSCALE)
        return _reader({"a.jpg": "5H 5D 5S JC", "c.jpg": "9H 10H JH QH KH"})(path)

    with pytest.raises(ImageError, match=r"images/b\.jpg: the photo is greyscale"):
        evaluate(load_labelled(csv_set), recognize, "fake")
