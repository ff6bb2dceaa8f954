"""Detections: the one type every vision stage passes on."""

import numpy as np
import pytest

from scorer.cards import Card
from vision.detections import Detections


def make(n: int = 3) -> Detections:
    xyxy = np.array([[10 * i, 0, 10 * i + 8, 20] for i in range(n)], np.float32)
    return Detections(xyxy=xyxy, confidence=np.linspace(0.3, 0.9, n),
                      cards=tuple(Card.from_index(i) for i in range(n)))


def test_boolean_mask_gives_new_detections():
    d = make(3)
    kept = d[d.confidence > 0.5]
    assert isinstance(kept, Detections)
    assert [str(c) for c in kept.cards] == ["AD", "AH"]


def test_integer_index_gives_one_row():
    row = make(2)[1]
    assert row.card == Card.parse("AD")
    assert row.xyxy == (10.0, 0.0, 18.0, 20.0)
    assert row.quad[0] == (10.0, 0.0)


def test_iteration_yields_rows_in_order():
    assert [str(r.card) for r in make(3)] == ["AC", "AD", "AH"]


def test_merge_concatenates():
    merged = Detections.merge([make(2), Detections.empty(), make(1)])
    assert len(merged) == 3


def test_default_indices_are_the_boxes():
    d = make(1)
    assert d.indices[0].tolist() == [[0.0, 0.0, 8.0, 20.0]]


@pytest.mark.parametrize("field,value", [
    ("confidence", [0.5]),
    ("cards", (Card.parse("5H"),)),
    ("is_starter", [True]),
])
def test_row_counts_must_agree(field, value):
    kwargs = {"xyxy": np.zeros((2, 4)), "confidence": [0.1, 0.2]}
    kwargs[field] = value
    with pytest.raises(ValueError, match="rows"):
        Detections(**kwargs)
