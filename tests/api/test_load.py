"""Under load the service answers or says "busy", never anything else, and stays live.

A short run of the load generator behind ``python -m benchmarks.api --load`` (``benchmarks/loadgen.py``)
against a server whose one photo worker takes 0.2 s a photo (the recognizer double, slowed): more
clients than it takes get clean 503s with Retry-After, and /api/health answers meanwhile. The
figures for the real models are the script's to print; the bounds here are generous.
"""

from __future__ import annotations

import os
import sys

import pytest
from bombs import SlowRecognizer
from support import ROOT, show_photo

from api.admission import Admission
from api.main import create_app
from api.settings import Settings

sys.path.insert(0, str(ROOT))
from benchmarks.loadgen import health_under_uploads, run_level, serve


def test_admission_takes_what_the_workers_answer_within_the_target():
    gate = Admission(capacity=10, workers=2, target_s=2.0, retry_after_s=2)
    gate.in_flight = 6
    assert not gate.full  # no photo timed yet: the capacity alone bounds it
    gate.observe(0.9)
    gate.in_flight = 2
    assert not gate.full and gate.expected_s(3) == pytest.approx(1.8)  # the third waits for one photo
    gate.in_flight = 4
    assert gate.full and gate.expected_s(5) == pytest.approx(2.7)
    gate.in_flight = 1
    assert not gate.full  # a free worker always takes a photo


def slow_app():
    """The app under test, as uvicorn builds it in its own process (``slow_app`` is its factory)."""
    settings = Settings(photo_workers=1, photo_queue=2, retry_after_s=1)
    return create_app(settings, recognizer=SlowRecognizer(delay_s=0.2))


@pytest.fixture(scope="module")
def server():
    # A process of its own, as in production: timed from the clients' process, a server sharing
    # their interpreter lock would be slowed by them.
    tests = str(ROOT / "tests")
    env = {"PYTHONPATH": os.pathsep.join([tests, str(ROOT / "tests" / "api"), str(ROOT)])}
    with serve(ROOT / "models", env=env, factory="test_load:slow_app") as running:
        yield running


def test_a_load_level_gets_answers_and_clean_503s_only(server):
    level = run_level(server, show_photo().jpeg, clients=8, seconds=2.5, max_requests=200)
    summary = (f"8 clients: {len(level.ok_ms)} answered, {level.photos_per_s:.1f} photos/s, p99 {level.ok(0.99):.0f} ms, "
               f"{level.busy} busy, {level.other} other, health p99 {level.health(0.99):.1f} ms")
    print(summary)
    assert level.ok_ms and level.other == 0 and level.busy_without_retry_after == 0, summary
    assert level.busy > 0, summary  # 1 worker + 2 queued: 8 clients are too many
    assert level.ok(0.99) < 10_000 and level.health(0.99) < 1000, summary


def test_health_answers_while_sixty_uploads_are_in_flight(server):
    result = health_under_uploads(server, show_photo().jpeg, uploads=60)
    print(f"60 uploads: {result.statuses}; health p50 {result.p50_ms:.1f} ms, p99 {result.p99_ms:.1f} ms")
    assert set(result.statuses) <= {422, 503} and result.statuses.get(503, 0) >= 50
    assert result.probes > 0 and result.max_ms < 1000
