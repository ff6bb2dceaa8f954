"""Photo workers that fail the right way (issue 79): a worker lost to something outside the photo is a 503
with Retry-After, a photo that crashes its decoder a 422; core claims that no other user can turn
against the service's files."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import psutil
import pytest
from fastapi.testclient import TestClient
from pebble import ProcessExpired
from support import FakeRecognizer, show_photo

from api.cores import open_lock, private_folder
from api.main import create_app
from api.settings import Settings
from api.workers import PhotoTooCostly, WorkerLost, _worker_lost
from vision.decode import Photo
from vision.detections import Detections, Expected

KILLED_SIZE = (1600, 1202)


@dataclass
class KilledMidPhoto(FakeRecognizer):
    """Reads photos as FakeRecognizer does, but the worker reading a photo of KILLED_SIZE is killed
    (SIGKILL, as the kernel or an operator would)."""

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        if photo.original_size == KILLED_SIZE:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().recognize_photo(photo, expected)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_a_worker_killed_from_outside_is_lost_not_the_photos_fault(sig):
    assert isinstance(_worker_lost(ProcessExpired("gone", code=-sig)), WorkerLost)


def test_a_worker_that_exits_is_lost_not_the_photos_fault():
    assert isinstance(_worker_lost(ProcessExpired("gone", code=1)), WorkerLost)


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS])
def test_a_decoder_crash_is_the_photos_422(sig):
    assert isinstance(_worker_lost(ProcessExpired("crashed", code=-sig)), PhotoTooCostly)


def test_a_killed_worker_answers_503_with_retry_after_and_the_next_photo_is_read():
    fake = KilledMidPhoto()
    good = fake.add(show_photo("5H 5D 5S JC 5C"))
    killed = show_photo("5H 5D 5S JC 5C", size=KILLED_SIZE)
    with TestClient(create_app(Settings(photo_workers=1), recognizer=fake)) as client:
        lost = client.post("/api/count", files={"photo": ("p.jpg", killed.jpeg, "image/jpeg")})
        assert lost.status_code == 503, lost.text
        assert lost.headers["retry-after"] == "2"
        assert "send the photo again" in lost.json()["detail"]
        after = client.post("/api/count", files={"photo": ("p.jpg", good.jpeg, "image/jpeg")})
        assert after.status_code == 200, after.text


def _photo_workers(before: set[int]) -> list[psutil.Process]:
    """This process's spawned photo workers, but those started before ``before`` was taken."""
    children = psutil.Process().children(recursive=True)
    return [p for p in children if p.pid not in before and "spawn_main" in " ".join(p.cmdline())]


def _cpu_s(worker: psutil.Process) -> float:
    try:
        times = worker.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def _post(client: TestClient, jpeg: bytes) -> tuple[int, dict]:
    res = client.post("/api/count", files={"photo": ("p.jpg", jpeg, "image/jpeg")})
    return res.status_code, dict(res.headers)


def _post_killing_at_first_tick(client: TestClient, jpeg: bytes, before: set[int]) -> tuple[int, dict, bool]:
    """Post ``jpeg`` and SIGKILL the worker the moment it has used any CPU (as the kernel's OOM killer
    might, at the worst time: before pebble knows which worker took the photo). Returns the status, the
    headers and whether a worker was killed."""
    workers = _photo_workers(before)
    used = {p.pid: _cpu_s(p) for p in workers}
    answer: list = []
    poster = threading.Thread(target=lambda: answer.append(_post(client, jpeg)))
    poster.start()
    killed = False
    while poster.is_alive() and not killed:
        for worker in workers:
            if _cpu_s(worker) > used[worker.pid]:
                worker.kill()
                killed = True
                break
        time.sleep(0.001)
    poster.join()
    return *answer[0], killed


def test_workers_killed_at_their_first_tick_answer_503_and_photos_are_read_again_soon():
    """pebble gives up on a pool whose worker dies before it acknowledged its task; the service must
    start new workers, answer the photo caught 503 with Retry-After (never a 500), and read again."""
    fake = FakeRecognizer()
    photo = fake.add(show_photo("5H 5D 5S JC 5C", size=(4000, 3000)))
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    app = create_app(Settings(photo_workers=1), recognizer=fake)
    with TestClient(app, raise_server_exceptions=False) as client:  # an exception let through: a 500
        kills = 0
        for _ in range(6):
            status, headers, killed = _post_killing_at_first_tick(client, photo.jpeg, before)
            assert status in (200, 503), status
            assert status == 200 or "retry-after" in headers
            kills += killed
            read_again = _status_within(client, photo.jpeg, deadline_s=30)
            assert read_again == 200
        assert kills >= 3, "the workers were too quick to catch at work: no kill landed"
        assert client.get("/api/ready").status_code == 200


def test_a_worker_killed_while_idle_is_replaced_with_no_photo_sent():
    """pebble gives up on the pool then too; /api/ready says so (503), then 200 once new workers run,
    though no photo came to find the pool broken."""
    fake = FakeRecognizer()
    photo = fake.add(show_photo("5H 5D 5S JC 5C"))
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    with TestClient(create_app(Settings(photo_workers=1), recognizer=fake)) as client:
        assert client.get("/api/ready").status_code == 200
        for worker in _photo_workers(before):
            worker.kill()
        seen = []
        deadline = time.monotonic() + 30
        while (not seen or seen[-1] != 200 or 503 not in seen) and time.monotonic() < deadline:
            seen.append(client.get("/api/ready").status_code)
            time.sleep(0.05)
        assert 503 in seen and seen[-1] == 200
        assert _post(client, photo.jpeg)[0] == 200


def _status_within(client: TestClient, jpeg: bytes, deadline_s: float) -> int:
    """The photo's status once it is read, or the last status when ``deadline_s`` passed; no 500 meanwhile."""
    deadline = time.monotonic() + deadline_s
    while True:
        status, _ = _post(client, jpeg)
        assert status != 500
        if status == 200 or time.monotonic() > deadline:
            return status
        time.sleep(0.2)


def test_a_folder_planted_as_a_symlink_is_not_used(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp_path / "cores").symlink_to(elsewhere)
    assert not private_folder(tmp_path / "cores")


def test_a_folder_others_may_write_is_not_used(tmp_path):
    shared = tmp_path / "cores"
    shared.mkdir()
    shared.chmod(0o777)
    assert not private_folder(shared)


def test_a_missing_folder_is_made_private(tmp_path):
    assert private_folder(tmp_path / "cores")
    assert (tmp_path / "cores").stat().st_mode & 0o777 == 0o700


def test_a_lock_file_planted_as_a_symlink_is_not_opened(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("another user's file\n")
    (tmp_path / "core-0.lock").symlink_to(victim)
    assert open_lock(tmp_path / "core-0.lock") is None
    assert victim.read_text() == "another user's file\n"


def test_an_existing_lock_file_is_not_truncated(tmp_path):
    lock = tmp_path / "core-0.lock"
    lock.write_text("kept\n")
    fd = open_lock(lock)
    assert fd is not None
    os.close(fd)
    assert lock.read_text() == "kept\n"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two cores to claim one")
def test_two_workers_claim_different_cores(tmp_path):
    """Each claim runs in a process of its own (a claim changes the process's CPU affinity)."""
    code = ("import time; from api.cores import claim_cores; print(sorted(claim_cores(1)), flush=True); "
            "time.sleep(3)")
    env = {**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)}
    first = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    held = first.stdout.readline()
    second = subprocess.run([sys.executable, "-c", code.replace("time.sleep(3)", "0")], env=env,
                            capture_output=True, text=True, check=True)
    first.wait()
    assert held != second.stdout.splitlines()[0]
    assert len(json.loads(held)) == 1
    assert (tmp_path / f"cribcount-cores-{os.getuid()}").stat().st_mode & 0o777 == 0o700
