"""Close-up detector scenes (training.data.close_ups): the cut keeps what a close photo would show, labelled."""

import random

import cv2
import numpy as np
import pytest

from training.data.close_ups import close_ups, labels_in_window, main, read_boxes, zoom_window


def test_an_index_half_inside_the_cut_keeps_its_label_clipped():
    boxes = np.array([[90.0, 0.0, 110.0, 40.0]])  # half of it left of x = 100
    rows = labels_in_window(boxes, (100.0, 0.0, 200.0, 100.0))
    np.testing.assert_allclose(rows, [[0.05, 0.2, 0.1, 0.4]])


def test_an_index_mostly_outside_the_cut_loses_its_label():
    boxes = np.array([[80.0, 0.0, 105.0, 40.0]])  # a fifth of it inside
    assert labels_in_window(boxes, (100.0, 0.0, 200.0, 100.0)).shape == (0, 4)


def test_the_cut_brings_the_median_index_to_the_asked_size():
    boxes = np.array([[100.0, 100.0, 120.0, 130.0]] * 3)  # 30 px tall in a 2000 x 1500 render
    x0, y0, x1, y1 = zoom_window(boxes, 2000, 1500, 60.0, 480, random.Random(1))
    assert x1 - x0 == pytest.approx(30 * 480 / 60)  # seen at 480 px, 30 px become 60
    assert (y1 - y0) / (x1 - x0) == pytest.approx(1500 / 2000)  # the render's shape
    assert 0 <= x0 and x1 <= 2000 and 0 <= y0 and y1 <= 1500


def test_no_cut_where_the_indices_are_that_big_already():
    boxes = np.array([[0.0, 0.0, 60.0, 80.0]])
    assert zoom_window(boxes, 640, 480, 60.0, 480, random.Random(1)) is None


def _render_set(root, n=2):
    """A tiny YOLO scene set: white squares (the 'indices') on grey, labelled."""
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for k in range(n):
            img = np.full((1500, 2000, 3), 90, np.uint8)
            rows = []
            for i in range(4):
                x, y = 300 + 400 * i, 500 + 100 * k
                img[y:y + 40, x:x + 30] = 255
                rows.append(f"0 {(x + 15) / 2000:.6f} {(y + 20) / 1500:.6f} {30 / 2000:.6f} {40 / 1500:.6f}\n")
            cv2.imwrite(str(root / "images" / split / f"s{k}.jpg"), img)
            (root / "labels" / split / f"s{k}.txt").write_text("".join(rows))


def test_cuts_are_labelled_where_the_indices_are_and_the_same_every_time(tmp_path):
    _render_set(tmp_path / "src")
    written = close_ups(tmp_path / "src", tmp_path / "a", per_scene=2, seed=3)
    close_ups(tmp_path / "src", tmp_path / "b", per_scene=2, seed=3)
    assert written == {"train": 4, "val": 4}
    for label in sorted((tmp_path / "a" / "labels" / "train").glob("*.txt")):
        assert label.read_text() == (tmp_path / "b" / "labels" / "train" / label.name).read_text()
        img = cv2.imread(str(tmp_path / "a" / "images" / "train" / f"{label.stem}.jpg"))
        assert max(img.shape[:2]) == 640
        boxes = read_boxes(label, img.shape[1], img.shape[0])
        assert len(boxes)
        for x0, y0, x1, y1 in boxes.round().astype(int):
            assert img[(y0 + y1) // 2, (x0 + x1) // 2].mean() > 200  # a label sits on a white square
            assert max(x1 - x0, y1 - y0) * 480 / 640 >= 0.3 * 35  # and came out big


def test_the_command_says_what_is_wrong_with_its_arguments(tmp_path, capsys):
    assert main([str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no images/train" in capsys.readouterr().err
    assert main([str(tmp_path), "--out", str(tmp_path / "o"), "--index-px", "80"]) == 2
    assert "LO:HI" in capsys.readouterr().err
