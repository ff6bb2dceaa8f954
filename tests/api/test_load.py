"""Under load the service answers or says "busy", never anything else, and stays live.

A short run of the load generator behind ``scripts/bench_api.py --load`` (``scripts/loadgen.py``)
against a server whose one photo worker takes 0.2 s a photo (the recognizer double, slowed): more
clients than it takes get clean 503s with Retry-After, and /api/health answers meanwhile. The
figures for the real models are the script's to print; the bounds here are generous.
"""

from __future__ import annotations

import os
import sys
from types import SimpleNamespace

import pytest
from bombs import SlowRecognizer
from support import ROOT, live_server, show_photo

from api.admission import Admission
from api.main import create_app
from api.settings import Settings

sys.path.insert(0, str(ROOT / "scripts"))
from loadgen import Server, health_under_uploads, run_level  # noqa: E402


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


@pytest.fixture(scope="module")
def server():
    settings = Settings(photo_workers=1, photo_queue=2, retry_after_s=1)
    with live_server(create_app(settings, recognizer=SlowRecognizer(delay_s=0.2))) as base:
        yield Server(SimpleNamespace(pid=os.getpid()), base)


@pytest.mark.parametrize("clients", [1, 8])
def test_a_load_level_gets_answers_and_clean_503s_only(server, clients):
    photo = show_photo().jpeg
    level = run_level(server, photo, clients, seconds=2.5, max_requests=40 * clients)
    print(f"{clients} clients: {level.photos_per_s:.1f} photos/s, p99 {level.ok(0.99):.0f} ms, "
          f"{level.busy} busy, health p99 {level.health(0.99):.1f} ms")
    assert level.ok_ms and level.other == 0 and level.busy_without_retry_after == 0
    assert (level.busy > 0) == (clients > 3)  # 1 worker + 2 queued: 8 clients are too many
    assert level.ok(0.99) < 5000 and level.health(0.99) < 1000


def test_health_answers_while_sixty_uploads_are_in_flight(server):
    result = health_under_uploads(server, show_photo(size=(2400, 1800)).jpeg, uploads=60)
    print(f"60 uploads: {result.statuses}; health p50 {result.p50_ms:.1f} ms, p99 {result.p99_ms:.1f} ms")
    assert set(result.statuses) <= {422, 503} and result.statuses.get(503, 0) >= 50
    assert result.probes > 0 and result.max_ms < 1000
