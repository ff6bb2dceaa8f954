"""Fixtures the API and page tests share: the app with its recognizer double, and one headless Chromium
per test module (a launch takes a second or two)."""

import pytest
from fastapi.testclient import TestClient
from support import FakeRecognizer, chromium

from api.main import create_app


@pytest.fixture(scope="module")
def fake() -> FakeRecognizer:
    """The module's recognizer double: a test adds the photos it posts (``fake.add(photo)``)."""
    return FakeRecognizer()


@pytest.fixture(scope="module")
def client(fake):
    with TestClient(create_app(recognizer=fake)) as c:
        yield c


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b
