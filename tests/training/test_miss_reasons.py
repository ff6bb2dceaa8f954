"""Which stage lost a missed card (training.miss_reasons): one test per reason, then a real photo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from training.miss_reasons import boxes_on, main, miss_reason, missed_cards
from vision.recognizer import default_recognizer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "row-on-a-wood-table.jpg"


def test_a_card_with_no_box_on_its_indices_lost_it_at_the_detector():
    assert miss_reason("5H", [], 0.7) == "no box"


def test_boxes_read_as_not_a_card():
    assert miss_reason("5H", [("-", 0.9), ("-", 0.6)], 0.7) == "read none"


def test_boxes_read_as_other_cards_are_a_misread():
    assert miss_reason("5H", [("5S", 0.8), ("-", 0.6)], 0.7) == "misread"


def test_read_right_but_never_at_the_card_line():
    assert miss_reason("5H", [("5H", 0.55), ("5S", 0.8)], 0.7) == "below the line"


def test_read_right_at_the_line_yet_missed_is_the_recognizers_doing():
    assert miss_reason("5H", [("5S", 0.8), ("5H", 0.97)], 0.7) == "read right, not output"


def test_a_box_is_on_an_index_when_its_centre_is_in_the_index():
    quad = np.array([[10, 10], [30, 10], [30, 50], [10, 50]], float)
    boxes = np.array([[12, 12, 28, 48], [25, 40, 60, 90], [100, 100, 120, 140]], float)
    assert boxes_on([quad], boxes).tolist() == [0]
    assert boxes_on([], boxes).tolist() == []


@pytest.fixture
def labelled_sample(tmp_path: Path) -> Path:
    """The sample photo with a render-style label naming a king of spades at the 2 of hearts'
    index and a queen of hearts on bare table: two cards it must miss, for two reasons."""
    found = default_recognizer().recognize(SAMPLE)
    two = next(i for i, c in enumerate(found.cards) if str(c) == "2H")
    x0, y0, x1, y1 = (float(v) for v in found.indices[two][0])
    index = {"quad": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "visible_fraction": 1.0}
    table = {"quad": [[5, 5], [25, 5], [25, 45], [5, 45]], "visible_fraction": 1.0}
    cards = [{"card": "KS", "indices": [index]}, {"card": "QH", "indices": [table]}]
    cards += [{"card": str(c), "indices": []} for c in found.cards]
    shutil.copy(SAMPLE, tmp_path / SAMPLE.name)
    (tmp_path / SAMPLE.with_suffix(".json").name).write_text(json.dumps({"image": SAMPLE.name, "cards": cards}))
    return tmp_path


def test_a_real_photo_says_where_each_missed_card_was_lost(labelled_sample):
    rec = default_recognizer()
    read = {str(c) for c in rec.recognize(labelled_sample / SAMPLE.name).cards}
    reasons = {card: reason for card, reason, _ in missed_cards(rec, labelled_sample / SAMPLE.with_suffix(".json").name, read)}
    assert reasons == {"KS": "misread", "QH": "no box"}


def test_the_command_prints_the_counts(labelled_sample, capsys):
    assert main([str(labelled_sample)]) == 0
    out = capsys.readouterr().out
    assert "2 cards missed in 1 photos" in out and "KS: misread" in out


def test_a_folder_of_photos_without_render_labels_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "cards.csv").write_text("file,cards\nx.jpg,5H\n")
    with pytest.raises(SystemExit) as e:
        main([str(tmp_path)])
    assert e.value.code == 2 and "no synthetic labels" in capsys.readouterr().err
