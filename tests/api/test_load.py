"""Under load the service answers or says "busy", never anything else, and stays live.

A short run of the load generator behind ``python -m benchmarks.api --load`` (``benchmarks/loadgen.py``)
against a server whose one photo worker takes 0.2 s a photo (the recognizer double, slowed): more
clients than it takes get clean 503s with Retry-After, and /api/health answers meanwhile. Times are
printed here, never asserted in the default run (the machine is shared); the ``slow`` test holds
them to generous bounds, and the figures for the real models are the benchmark's to print.
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
from benchmarks.loadgen import HealthUnderUploads, Level, Server, health_under_uploads, run_level, serve


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


def load_level(server: Server) -> Level:
    """Eight clients for 2.5 s against one worker and a queue of two; its figures printed."""
    level = run_level(server, show_photo().jpeg, clients=8, seconds=2.5, max_requests=200)
    print(f"8 clients: {len(level.ok_ms)} answered, {level.photos_per_s:.1f} photos/s, "
          f"p99 {level.ok(0.99):.0f} ms, {level.busy} busy, {level.other} other, "
          f"health p99 {level.health(0.99):.1f} ms")
    return level


def test_a_load_level_gets_answers_and_clean_503s_only(server):
    level = load_level(server)
    assert level.ok_ms and level.other == 0 and level.busy_without_retry_after == 0
    assert level.busy > 0  # 1 worker + 2 queued: 8 clients are too many
    assert level.health_ms  # /api/health answered meanwhile


@pytest.mark.slow
def test_under_load_answers_come_within_10_s_and_health_within_1_s(server):
    level = load_level(server)
    assert level.ok(0.99) < 10_000 and level.health(0.99) < 1000


def sixty_uploads(server: Server) -> HealthUnderUploads:
    """Sixty uploads at once, /api/health probed meanwhile; its figures printed."""
    result = health_under_uploads(server, show_photo().jpeg, uploads=60)
    print(f"60 uploads: {result.statuses}; health p50 {result.p50_ms:.1f} ms, p99 {result.p99_ms:.1f} ms")
    return result


def test_health_answers_while_sixty_uploads_are_in_flight(server):
    result = sixty_uploads(server)
    assert set(result.statuses) <= {422, 503} and result.statuses.get(503, 0) >= 50
    assert result.probes > 0


@pytest.mark.slow
def test_health_answers_within_1_s_while_sixty_uploads_are_in_flight(server):
    assert sixty_uploads(server).max_ms < 1000
