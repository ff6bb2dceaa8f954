"""A stranger's uploads (issue 70's table): each hostile file gets a 4xx reason and the server
stays up; a photo that hangs or eats memory costs one worker its limit; slow uploads are dropped.

Photos go through the real photo worker processes (``photo_workers=1``) with the recognizer double,
pickled to the worker. Times are printed, never asserted (the machine is shared): the figures
against the issue's bounds are ``benchmarks/hostile.py``'s to measure. Memory bounds are generous.
"""

from __future__ import annotations

import os
import re
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import psutil
import pytest
from bombs import HOSTILE, GreedyRecognizer, SlowRecognizer
from support import FakeRecognizer, live_server, show_photo, stalled_upload, still_waiting

from api.main import create_app
from api.settings import Settings


@pytest.fixture(scope="module")
def url():
    settings = Settings(photo_workers=1, photo_queue=4, photo_timeout_s=5)  # four at once: all taken
    with live_server(create_app(settings, recognizer=FakeRecognizer())) as base:
        yield base


def post(base: str, data: bytes, name: str = "photo.jpg") -> httpx.Response:
    files = {"photo": (name, data, "application/octet-stream")}
    return httpx.post(f"{base}/api/count", files=files, timeout=60)


def health_ms(base: str) -> float:
    """How long ``/api/health`` took to answer 200: the server is up (the figure is printed)."""
    t = time.perf_counter()
    assert httpx.get(f"{base}/api/health", timeout=10).status_code == 200
    return (time.perf_counter() - t) * 1000


def timed_post(base: str, data: bytes) -> httpx.Response:
    t = time.perf_counter()
    res = post(base, data)
    print(f"answered {res.status_code} in {time.perf_counter() - t:.2f} s; health {health_ms(base):.0f} ms")
    return res


@pytest.mark.parametrize("name", list(HOSTILE))
def test_each_hostile_file_gets_its_reason_and_the_server_stays_up(url, name):
    make, status, reason = HOSTILE[name]
    res = timed_post(url, make())
    assert res.status_code == status
    assert re.search(reason, res.json()["detail"]), res.json()


def tree_rss_mb() -> float:
    me = psutil.Process()
    return sum(p.memory_info().rss for p in [me, *me.children(recursive=True)]) / 2**20


def test_four_hostile_files_at_once_cost_little_memory_and_each_gets_its_status(url):
    names = ["webp-16383x16383", "tiff-30000x30000", "jpeg-30000x30000-fill-byte", "jpeg-4.7M-segments"]
    payloads = [HOSTILE[n][0]() for n in names]
    before = tree_rss_mb()
    t = time.perf_counter()
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda d: post(url, d), payloads))
    print(f"four at once answered in {time.perf_counter() - t:.2f} s; health {health_ms(url):.0f} ms")
    assert [a.status_code for a in answers] == [HOSTILE[n][1] for n in names]
    assert tree_rss_mb() - before < 500  # the bound is 300 MB: benchmarks/hostile.py measures it


def test_what_is_not_accepted_is_415_and_a_text_field_is_told_to_be_a_file(url):
    res = post(url, HOSTILE["gif-30000x30000"][0](), "anim.gif")
    assert res.status_code == 415 and "GIF" in res.json()["detail"]
    res = httpx.post(f"{url}/api/count", data={"photo": "not a file"}, timeout=10)
    assert res.status_code == 422 and res.json()["detail"] == (
        "photo: send the photo as a file (a multipart part with a filename), not as text")


def test_a_photo_that_hangs_is_cut_off_at_the_time_limit_and_the_next_one_is_read():
    fake = SlowRecognizer(delay_s=30)
    with live_server(create_app(Settings(photo_workers=1, photo_timeout_s=1), recognizer=fake)) as base:
        res = timed_post(base, show_photo().jpeg)
        assert res.status_code == 422 and "took over 1 s to decode and read" in res.json()["detail"]
        res = post(base, show_photo().jpeg)  # a fresh worker, with the same limit
        assert res.status_code == 422 and "took over 1 s" in res.json()["detail"]


def test_a_photo_that_eats_memory_is_refused_at_the_worker_memory_limit():
    fake = GreedyRecognizer(megabytes=3000)
    with live_server(create_app(Settings(photo_workers=1, photo_memory_mb=200), recognizer=fake)) as base:
        res = timed_post(base, show_photo().jpeg)
        assert res.status_code == 422 and "more than the 200 MB a photo may use" in res.json()["detail"]


def answer(sock: socket.socket, timeout_s: float) -> int:
    sock.settimeout(timeout_s)
    data = b""
    try:
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    sock.close()
    match = re.match(rb"HTTP/1.1 (\d+)", data)
    return int(match.group(1)) if match else 0


def test_stalled_uploads_hold_no_photo_place_and_are_dropped_408_after_the_read_timeout():
    settings = Settings(photo_workers=1, photo_queue=3, upload_timeout_s=5)
    with live_server(create_app(settings, recognizer=FakeRecognizer())) as base:
        before = tree_rss_mb()
        socks = [stalled_upload(base, 19 * 2**20, 2 * 2**20) for _ in range(40)]
        during = [health_ms(base) for _ in range(20)]
        ready = httpx.get(f"{base}/api/ready", timeout=10)
        # More photos than the four places, one after another, while all 40 uploads are stalled: each
        # is taken (the double knows no photo: 422), none told busy.
        photos = [post(base, show_photo().jpeg).status_code for _ in range(settings.photo_capacity + 1)]
        stalled_throughout = all(still_waiting(s) for s in socks)
        codes = [answer(s, 15) for s in socks]
        print(f"health during 40 stalled uploads: worst {max(during):.0f} ms")
        assert tree_rss_mb() - before < 300  # 40 x 2 MB held at most, and the budget caps it at 160 MB
    assert ready.status_code == 200 and ready.json()["photos_in_flight"] == 0
    assert photos == [422] * (settings.photo_capacity + 1)
    assert stalled_throughout  # else the photos above did not overlap the stall (a slow machine)
    assert codes == [408] * 40


def test_a_full_queue_answers_503_with_retry_after_and_ready_says_so():
    fake = SlowRecognizer(delay_s=1.5)
    settings = Settings(photo_workers=1, photo_queue=1, retry_after_s=3)
    with live_server(create_app(settings, recognizer=fake)) as base, ThreadPoolExecutor(4) as pool:
        slow = [pool.submit(post, base, show_photo().jpeg) for _ in range(2)]
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:  # until both are in hand (their clients start slowly)
            ready = httpx.get(f"{base}/api/ready", timeout=10)
            if ready.json()["photos_in_flight"] == 2:
                break
            time.sleep(0.05)
        busy = post(base, show_photo().jpeg)
        codes = [f.result().status_code for f in slow]
    assert busy.status_code == 503 and busy.headers["retry-after"] == "3"
    assert busy.json()["detail"].startswith("busy: 2 photos are being read or waiting")
    assert ready.status_code == 503
    assert ready.json()["photos_in_flight"] == 2 and ready.json()["photo_capacity"] == 2
    assert codes == [422, 422]


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux only")
def test_photo_workers_hold_one_core_each():
    cores = len(os.sched_getaffinity(0))
    with live_server(create_app(Settings(photo_workers=cores), recognizer=FakeRecognizer())):
        kids = [p for p in psutil.Process().children() if "spawn_main" in " ".join(p.cmdline())]
        held = [frozenset(k.cpu_affinity()) for k in kids if len(k.cpu_affinity()) == 1]
    assert len(set(held)) == len(held)  # never two workers on one core


# -- the minor rows ------------------------------------------------------------------------------


def test_peg_does_not_echo_a_megabyte_card_name_back():
    from fastapi.testclient import TestClient

    with TestClient(create_app(recognizer=FakeRecognizer())) as c:
        # Under the 64 KB body cap: a whole megabyte is a 413 before parsing (test_input_caps).
        res = c.post("/api/peg", json={"sequence": ["5H", "X" * 60_000]})
    assert res.status_code == 422
    assert res.json() == {"detail": "sequence.1: String should have at most 16 characters"}


def test_the_docs_load_their_scripts_from_this_server_not_a_cdn():
    from fastapi.testclient import TestClient

    with TestClient(create_app(recognizer=FakeRecognizer())) as c:
        for page in ("/docs", "/redoc"):
            html = c.get(page).text
            assets = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert assets and all(a.startswith("/") for a in assets), assets
            for asset in assets:
                assert c.get(asset).status_code == 200, asset


@pytest.mark.parametrize("name", ["jpeg-30000x30000-fill-byte", "tiff-30000x30000", "jpeg-40000-scans"])
def test_the_cli_refuses_a_hostile_file_in_one_line_before_loading_the_models(tmp_path, capsys, name,
                                                                             monkeypatch):
    from api import cli
    from api.commands import photo as photo_commands

    monkeypatch.setattr(photo_commands, "photo_recognizer",
                        lambda models: pytest.fail("models loaded for a bomb"))
    path = tmp_path / "bomb.bin"
    path.write_bytes(HOSTILE[name][0]())
    assert cli.main(["count", str(path)]) == 2
    err = capsys.readouterr().err
    # The CLI reads one's own photo under the local limits (120 megapixels), not the upload's 50.
    reason = HOSTILE[name][2].replace("50 megapixels", "120 megapixels")
    assert err.count("\n") == 1 and re.search(reason, err)


def test_the_cli_says_a_device_is_not_a_photo(capsys):
    from api.cli import main

    assert main(["count", "/dev/null"]) == 2
    assert capsys.readouterr().err == ("cribcount count: error: /dev/null: not a regular file (a device, "
                                       "pipe or socket), not a photo\n")
