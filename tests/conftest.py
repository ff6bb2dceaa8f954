"""Fixtures shared across the test packages."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_support import _photo


@pytest.fixture
def csv_set(tmp_path: Path) -> Path:
    for name in ("a.jpg", "b.jpg", "c.jpg"):
        _photo(tmp_path / "images" / name)
    (tmp_path / "cards.csv").write_text(
        "file,cards\na.jpg,5H 5D 5S JC\nb.jpg,AS 2S 3S 4S\nc.jpg,9H 10H JH QH KH\n")
    return tmp_path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests of the lab (tests/training) carry the ``lab`` marker: ``pytest -m "not lab"`` runs the
    runtime's alone; CI runs both."""
    for item in items:
        if "training" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.lab)
