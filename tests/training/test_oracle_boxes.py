"""The recognizer read from a render's own index boxes (training.oracle_boxes): a perfect detector."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from training.oracle_boxes import card_angle, label_boxes, layout_and_angle, main, reading_label_boxes
from vision.recognizer import default_recognizer

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "row-on-a-wood-table.jpg"


def index(x0: float, y0: float, x1: float, y1: float, visible: float = 1.0) -> dict:
    return {"quad": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], "visible_fraction": visible}


def card(name: str, corners: list, indices: list, face_up: bool = True) -> dict:
    return {"card": name, "corners": corners, "indices": indices, "face_up": face_up}


UPRIGHT = [[0, 0], [10, 0], [10, 14], [0, 14]]


def test_every_mostly_visible_index_of_a_face_up_card_is_boxed_where_the_label_puts_it():
    label = {"cards": [
        card("5H", UPRIGHT, [index(10, 20, 30, 60), index(100, 120, 120, 160, visible=0.3)]),
        card("KS", UPRIGHT, [index(200, 20, 220, 60)], face_up=False),
        card("9C", UPRIGHT, [index(300, 20, 320, 60, visible=0.7)]),
    ]}
    assert label_boxes(label).tolist() == [[10, 20, 30, 60], [300, 20, 320, 60]]


def test_a_turned_index_is_boxed_by_the_bounding_box_of_its_quad():
    label = {"cards": [card("5H", UPRIGHT, [{"quad": [[20, 10], [40, 20], [30, 40], [10, 30]], "visible_fraction": 1.0}])]}
    assert label_boxes(label).tolist() == [[10, 10, 40, 40]]


def test_a_photo_with_nothing_in_view_has_no_boxes():
    assert label_boxes({"cards": []}).shape == (0, 4)


@pytest.mark.parametrize("top_edge,angle", [
    ([[0, 0], [10, 0]], 0.0),  # upright
    ([[0, 0], [0, 10]], 0.0),  # sideways
    ([[0, 0], [10, 10]], 45.0),
    ([[0, 0], [10, -10]], 45.0),
    ([[0, 0], [np.cos(np.radians(60)), np.sin(np.radians(60))]], 30.0),
    ([[0, 0], [np.cos(np.radians(-10)), np.sin(np.radians(-10))]], 10.0),
])
def test_a_card_s_angle_is_folded_to_how_far_it_lies_from_upright_or_sideways(top_edge, angle):
    assert card_angle({"corners": [*top_edge, [0, 0], [0, 0]]}) == pytest.approx(angle)


def test_cards_are_grouped_by_layout_and_by_angle():
    turned = [[0, 0], [10, 10], [0, 0], [0, 0]]
    assert layout_and_angle({"scene_type": "row"}, {"corners": UPRIGHT}) == "apart, upright"
    assert layout_and_angle({"scene_type": "spread"}, {"corners": turned}) == "apart, turned"
    assert layout_and_angle({"scene_type": "fan"}, {"corners": turned}) == "overlapping, turned"
    assert layout_and_angle({"scene_type": "crib"}, {"corners": UPRIGHT}) == "overlapping, upright"


@pytest.fixture
def labelled_sample(tmp_path: Path) -> Path:
    """The sample photo with a render-style label: each card the recognizer reads, at the boxes it
    read it from, and a queen of hearts boxed on bare table."""
    found = default_recognizer().recognize(SAMPLE)
    cards = [card(str(c), UPRIGHT, [index(*(float(v) for v in box)) for box in boxes])
             for c, boxes in zip(found.cards, found.indices)]
    cards.append(card("QH", UPRIGHT, [index(5, 5, 25, 45)]))
    shutil.copy(SAMPLE, tmp_path / SAMPLE.name)
    label = {"image": SAMPLE.name, "scene_type": "row", "cards": cards}
    (tmp_path / SAMPLE.with_suffix(".json").name).write_text(json.dumps(label))
    return tmp_path


def test_a_photo_read_from_its_label_boxes_reads_the_cards_there_and_nothing_on_bare_table(labelled_sample):
    read = reading_label_boxes(default_recognizer())(labelled_sample / SAMPLE.name)
    found = default_recognizer().recognize(SAMPLE)
    assert sorted(map(str, read.cards)) == sorted(map(str, found.cards))
    assert np.abs(read.xyxy - found.xyxy).max() < 1  # in the photo's own pixels, as the recognizer's


def test_the_command_prints_the_recognizer_beside_the_label_boxes(labelled_sample, capsys):
    assert main([str(labelled_sample)]) == 0
    out = capsys.readouterr().out
    assert "1 photos, 6 required cards" in out
    assert "the recognizer" in out and "from the label boxes" in out and "apart, upright" in out


def test_a_folder_of_photos_without_render_labels_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "cards.csv").write_text("file,cards\nx.jpg,5H\n")
    with pytest.raises(SystemExit) as e:
        main([str(tmp_path)])
    assert e.value.code == 2 and "no synthetic labels" in capsys.readouterr().err


def test_a_models_folder_without_the_models_is_a_clear_error(labelled_sample, tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        main([str(labelled_sample), "--models", str(tmp_path / "none")])
    assert e.value.code == 2 and "detector.onnx is missing" in capsys.readouterr().err
