"""A deck's clubs told from its spades at the labels' own boxes (training.suit_split)."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.recognizer import default_recognizer
from training.suit_split import SuitTally, black_indices, main, tally

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "starter-below-the-row.jpg"  # 5S 8D 9C 9H 9S


def index(x0: float, y0: float, x1: float, y1: float, visible: float = 1.0, legible: bool = True) -> dict:
    return {"quad": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "visible_fraction": visible, "legible": legible}


def test_only_the_decks_legible_clubs_and_spades_in_view_are_read():
    label = {"deck": "gnome-plastic", "cards": [
        {"card": "4C", "indices": [index(0, 0, 10, 20), index(50, 50, 60, 70, visible=0.3)]},
        {"card": "KS", "indices": [index(100, 0, 110, 20, legible=False)]},
        {"card": "9S", "indices": [index(200, 0, 210, 20)], "face_up": False},
        {"card": "5H", "indices": [index(300, 0, 310, 20)]},
        {"card": "10S", "indices": [index(400, 0, 412, 20)]},
    ]}
    assert [(c, b.tolist()) for c, b in black_indices(label, "gnome-plastic")] == [
        ("4C", [0, 0, 10, 20]), ("10S", [400, 0, 412, 20])]
    assert black_indices(label, "kde-standard") == []


def test_a_club_read_likelier_a_spade_is_wrong_alone_even_when_the_card_is_right_as_read():
    index_of = {"4C": 0, "4S": 1, "5H": 2}
    t = SuitTally()
    t.add("4C", first=np.array([0.3, 0.6, 0.1]), as_read=np.array([0.5, 0.4, 0.1]), index=index_of)
    t.add("4S", first=np.array([0.1, 0.8, 0.1]), as_read=np.array([0.1, 0.3, 0.6]), index=index_of)
    f = t.figures()
    assert f["indices"] == 2
    assert f["clubs alone"] == 0.0 and f["spades alone"] == 1.0 and f["alone"] == 0.5
    assert f["as read"] == 1.0  # the spade is still likelier than the club ...
    assert f["card top-1"] == 0.5  # ... though the heart is likelier than both


def test_nothing_read_is_not_a_share():
    assert math.isnan(SuitTally().figures()["alone"])


@pytest.fixture
def rendered_set(tmp_path: Path) -> Path:
    """The sample photo filed as a render, labelled with the boxes the recognizer read its cards at."""
    found = default_recognizer().recognize(SAMPLE)
    images = tmp_path / "set" / "yolo" / "images" / "test"
    images.mkdir(parents=True)
    shutil.copy(SAMPLE, images / SAMPLE.name)
    cards = [{"card": str(c), "indices": [index(*(float(v) for v in box)) for box in boxes]}
             for c, boxes in zip(found.cards, found.indices)]
    (images / SAMPLE.with_suffix(".json").name).write_text(json.dumps({"image": SAMPLE.name, "deck": "proc-slab", "cards": cards}))
    return tmp_path / "set"


def test_the_sample_rows_black_cards_are_read_the_right_suit(rendered_set):
    t = tally(default_recognizer(), [rendered_set], "proc-slab")
    assert sorted(set(zip(t.clubs, t.first))) == [(False, True), (True, True)]  # its 9C, and 5S and 9S
    assert all(t.as_read) and all(t.top1)


def test_the_command_prints_a_row_per_models_folder_and_refuses_what_it_cannot_read(rendered_set, tmp_path, capsys):
    assert main([str(rendered_set), "--deck", "proc-slab"]) == 0
    assert "| 100.0% | 100.0% | 100.0% | 100.0% | 100.0% |" in capsys.readouterr().out
    assert main([str(rendered_set), "--deck", "gnome-plastic"]) == 2
    assert "no legible black index of gnome-plastic" in capsys.readouterr().err
    assert main([str(rendered_set), "--deck", "proc-slab", "--models", str(tmp_path / "none")]) == 2
    assert "detector.onnx is missing" in capsys.readouterr().err
    (rendered_set / "yolo" / "images" / "test" / SAMPLE.name).unlink()
    assert main([str(rendered_set), "--deck", "proc-slab"]) == 2
    assert "the label's photo is missing" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main([str(tmp_path), "--deck", "proc-slab"])
    assert e.value.code == 2 and "not a rendered set" in capsys.readouterr().err
