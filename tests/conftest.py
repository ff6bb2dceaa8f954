"""Fixtures shared across the test packages: a labelled photo set, and for the API and page tests the app
with its recognizer double and one headless Chromium per test module (a launch takes a second or two).

One conftest for the whole tree: a second one in ``tests/api`` would share its module name with this one,
which ``--doctest-modules`` refuses when it collects both."""

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


@pytest.fixture(scope="module")
def fake():
    """The module's recognizer double: a test adds the photos it posts (``fake.add(photo)``)."""
    from support import FakeRecognizer

    return FakeRecognizer()


@pytest.fixture(scope="module")
def client(fake):
    from fastapi.testclient import TestClient

    from api.main import create_app

    with TestClient(create_app(recognizer=fake)) as c:
        yield c


@pytest.fixture(scope="module")
def browser():
    from support import chromium

    with chromium() as b:
        yield b


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests of the lab (tests/training) carry the ``lab`` marker: ``pytest -m "not lab"`` runs the
    runtime's alone; CI runs both."""
    for item in items:
        if "training" in Path(str(item.fspath)).parts:
            item.add_marker(pytest.mark.lab)
