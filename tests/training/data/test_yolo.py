"""The YOLO label format: a ``class cx cy w h`` line per box, in fractions, in labels/ beside images/."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from training.data.yolo import box_row, fraction_row, label_of, read_boxes, read_rows, write_rows


def test_a_pixel_box_is_its_centre_and_size_as_fractions_to_six_places():
    assert box_row(0, (100, 50, 300, 150), 400, 200) == "0 0.500000 0.500000 0.500000 0.500000"


def test_a_box_is_clipped_to_the_image():
    assert box_row(1, (-100, 0, 200, 100), 400, 200) == "1 0.250000 0.250000 0.500000 0.500000"


def test_a_box_under_a_pixel_once_clipped_is_no_row():
    assert box_row(0, (399.5, 10, 500, 20), 400, 200) is None
    assert box_row(0, (10, 10, 10.5, 20), 400, 200) is None


def test_a_row_in_fractions_is_written_as_given():
    assert fraction_row(0, (0.25, 0.5, 0.125, 0.0625)) == "0 0.250000 0.500000 0.125000 0.062500"


def test_rows_written_are_read_back_with_their_class(tmp_path: Path):
    label = tmp_path / "labels" / "train" / "a.txt"
    rows = [box_row(0, (0, 0, 200, 100), 400, 200), None, box_row(1, (200, 100, 400, 200), 400, 200)]
    write_rows(label, rows)
    rows = read_rows(label)
    assert [c for c, _ in rows] == [0, 1]
    np.testing.assert_allclose(rows[1][1], [0.75, 0.75, 0.5, 0.5])


def test_boxes_come_back_in_pixels_and_one_class_can_be_asked_for(tmp_path: Path):
    label = tmp_path / "a.txt"
    write_rows(label, [box_row(0, (10, 20, 50, 60), 400, 200), box_row(1, (100, 100, 300, 200), 400, 200)])
    classes, boxes = read_boxes(label, 400, 200)
    assert classes == [0, 1]
    np.testing.assert_allclose(boxes, [[10, 20, 50, 60], [100, 100, 300, 200]], atol=1e-3)
    classes, boxes = read_boxes(label, 400, 200, cls=1)
    assert classes == [1] and boxes.shape == (1, 4)


def test_an_image_with_no_box_has_an_empty_label_and_a_missing_label_is_no_box(tmp_path: Path):
    label = tmp_path / "empty.txt"
    write_rows(label, [])
    assert label.read_text() == ""
    assert read_rows(label) == [] and read_rows(tmp_path / "missing.txt") == []
    assert read_boxes(tmp_path / "missing.txt", 400, 200)[1].shape == (0, 4)


def test_a_line_that_is_not_five_numbers_is_skipped(tmp_path: Path):
    label = tmp_path / "a.txt"
    label.write_text("0 0.5 0.5 0.1 0.1\n\n0 0.5 0.5\n")
    assert len(read_rows(label)) == 1


def test_the_label_of_an_image_lies_under_labels_beside_images():
    assert label_of(Path("/x/images/train/a.webp")) == Path("/x/labels/train/a.txt")
    assert label_of(Path("/images/d/images/val/b.jpg")) == Path("/images/d/labels/val/b.txt")
    with pytest.raises(ValueError, match="not under an images/ folder"):
        label_of(Path("/x/scenes/a.jpg"))
