"""Load generation on loopback for ``python -m benchmarks.api --load`` and tests/api/test_load.py.

The server runs as in production, a process of its own (``cribcount serve``), so its memory is
measured apart from the clients'; the clients are threads with an httpx client each. Everything is
bounded: a level stops after its seconds or its request budget, whichever comes first.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil

from benchmarks.figures import percentile

ROOT = Path(__file__).resolve().parent.parent



@dataclass
class Server:
    """A ``cribcount serve`` process on loopback, and the peak memory of its process tree."""

    process: subprocess.Popen
    base: str
    started_s: float = 0.0
    peak_mb: float = 0.0
    _stop: threading.Event = field(default_factory=threading.Event)

    def rss_mb(self) -> float:
        try:
            root = psutil.Process(self.process.pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return 0.0
        total = 0
        for p in procs:
            try:
                total += p.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total / 2**20

    def sample_memory(self) -> None:
        """Every 100 ms, until stopped: the peak of the tree's resident memory."""
        while not self._stop.wait(0.1):
            self.peak_mb = max(self.peak_mb, self.rss_mb())

    def reset_peak(self) -> None:
        self.peak_mb = self.rss_mb()


@contextmanager
def serve(models: Path, workers: int = 1, env: dict[str, str] | None = None, ready_s: float = 120,
          factory: str | None = None) -> Iterator[Server]:
    """Start ``cribcount serve`` on a free loopback port (or, given ``factory``, uvicorn with that app
    factory, e.g. a test's); yields once ``/api/ready`` says 200."""
    port = free_port()
    argv = [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--models", str(models), "--workers", str(workers)]
    if factory:
        argv = [sys.executable, "-m", "uvicorn", "--factory", factory,
                "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    child_env = {k: v for k, v in os.environ.items() if not k.startswith("CRIBCOUNT_")} | (env or {})
    process = subprocess.Popen(argv, cwd=ROOT, env=child_env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
    with watched(process, f"http://127.0.0.1:{port}", ready_s,
                 lambda: process.stderr.read().decode()) as server:
        yield server


def free_port() -> int:
    """A loopback port free now, for a server about to be started."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_ready(process: subprocess.Popen, url: str, ready_s: float, output: Callable[[], str]) -> None:
    """Poll ``url`` until it answers 200; raises ``RuntimeError`` (with the end of ``output()``) if the
    process stops first, or after ``ready_s`` seconds."""
    deadline = time.monotonic() + ready_s
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"it stopped: {output()[-2000:]}")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer 200 in {ready_s:.0f} s")
        time.sleep(0.2)


@contextmanager
def watched(process: subprocess.Popen, base: str, ready_s: float,
            output: Callable[[], str]) -> Iterator[Server]:
    """A server process just started in a process group of its own: yields it as a :class:`Server`
    once ``/api/ready`` says 200 (see :func:`wait_ready`), its memory sampled until the end, when the
    group is stopped."""
    server = Server(process, base)
    try:
        t = time.perf_counter()
        wait_ready(process, f"{base}/api/ready", ready_s, output)
        server.started_s = time.perf_counter() - t
        threading.Thread(target=server.sample_memory, daemon=True).start()
        yield server
    finally:
        server._stop.set()
        stop_group(process)


def stop_group(process: subprocess.Popen) -> None:
    """Stop a server started in a process group of its own (its supervisor, server processes and photo
    workers): Ctrl-C to the group, then a kill after 30 s."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@dataclass
class Level:
    """One load level's answers."""

    clients: int
    seconds: float
    ok_ms: list[float] = field(default_factory=list)
    """Latency of each photo answered (200, or 422 for a photo without a show)."""
    busy: int = 0
    """503 answers (queue full), each with Retry-After."""
    busy_without_retry_after: int = 0
    other: int = 0
    health_ms: list[float] = field(default_factory=list)
    peak_mb: float = 0.0

    @property
    def photos_per_s(self) -> float:
        return len(self.ok_ms) / self.seconds if self.seconds else 0.0

    def ok(self, q: float) -> float:
        return percentile(self.ok_ms, q)

    def health(self, q: float) -> float:
        return percentile(self.health_ms, q)


def _probe_health(base: str, ready, stop, out) -> None:
    times = []
    with httpx.Client(base_url=base, timeout=10) as c:
        c.get("/api/health")  # connected and warm before the clients start
        ready.set()
        while not stop.wait(0.05):
            t = time.perf_counter()
            c.get("/api/health")
            times.append((time.perf_counter() - t) * 1000)
    out.send(times)


class HealthProbe:
    """``GET /api/health`` every 50 ms from a process of its own: timed from a thread among the
    clients', it would time their lock on the interpreter (the GIL) as much as the server."""

    def __init__(self, base: str) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")
        ready, self._stop = ctx.Event(), ctx.Event()
        self._recv, send = ctx.Pipe(duplex=False)
        self._process = ctx.Process(target=_probe_health, args=(base, ready, self._stop, send), daemon=True)
        self._process.start()
        if not ready.wait(60):
            raise RuntimeError("the health probe did not start")

    def stop(self) -> list[float]:
        self._stop.set()
        times = self._recv.recv() if self._recv.poll(30) else []
        self._process.join(timeout=10)
        return times


def run_level(server: Server, photo: bytes, clients: int, seconds: float, max_requests: int) -> Level:
    """``clients`` threads posting ``photo`` back to back for ``seconds`` (at most ``max_requests``)."""
    level = Level(clients, 0.0)
    lock = threading.Lock()
    budget = [max_requests]
    stop_at = 0.0
    server.reset_peak()

    def start_clock() -> None:
        nonlocal stop_at
        stop_at = time.monotonic() + seconds

    ready = threading.Barrier(clients, action=start_clock)  # every client started before the clock
    # One httpx client, thread-safe, with a connection per client thread: building one each costs
    # a TLS context (~50 ms of interpreter time apiece), which delayed the first requests.
    shared = httpx.Client(base_url=server.base, timeout=60, limits=httpx.Limits(max_connections=clients))

    def client() -> None:
        ready.wait()
        while time.monotonic() < stop_at:
            with lock:
                if budget[0] <= 0:
                    return
                budget[0] -= 1
            t = time.perf_counter()
            try:
                res = shared.post("/api/count", files={"photo": ("photo.jpg", photo, "image/jpeg")})
            except httpx.TransportError:
                with lock:
                    level.other += 1
                continue
            ms = (time.perf_counter() - t) * 1000
            with lock:
                if res.status_code in (200, 422):
                    level.ok_ms.append(ms)
                elif res.status_code == 503:
                    level.busy += 1
                    level.busy_without_retry_after += "retry-after" not in res.headers
                else:
                    level.other += 1
            if res.status_code == 503:  # a polite client: back after Retry-After, as told
                retry_after_s = float(res.headers.get("retry-after", 1))
                time.sleep(max(0.0, min(retry_after_s, stop_at - time.monotonic())))

    prober = HealthProbe(server.base)
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    shared.close()
    level.seconds = max(time.monotonic() - stop_at + seconds, seconds)  # to the last answer
    level.health_ms = prober.stop()
    level.peak_mb = server.peak_mb
    return level


@dataclass(frozen=True)
class HealthUnderUploads:
    statuses: dict[int, int]
    p50_ms: float
    p99_ms: float
    max_ms: float
    probes: int
    peak_mb: float


def health_under_uploads(server: Server, photo: bytes, uploads: int = 60) -> HealthUnderUploads:
    """``uploads`` posts at once, and ``/api/health`` timed every 50 ms until they are all answered."""
    server.reset_peak()
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    start = threading.Barrier(uploads + 1)

    shared = httpx.Client(base_url=server.base, timeout=120, limits=httpx.Limits(max_connections=uploads))

    def upload() -> None:
        start.wait()
        try:
            code = shared.post("/api/count", files={"photo": ("photo.jpg", photo, "image/jpeg")}).status_code
        except httpx.TransportError:
            code = 0
        with lock:
            statuses[code] = statuses.get(code, 0) + 1

    prober = HealthProbe(server.base)
    threads = [threading.Thread(target=upload) for _ in range(uploads)]
    for th in threads:
        th.start()
    start.wait()
    for th in threads:
        th.join()
    shared.close()
    health = prober.stop()
    return HealthUnderUploads(dict(sorted(statuses.items())), percentile(health, 0.5),
                              percentile(health, 0.99), max(health, default=float("nan")), len(health),
                              server.peak_mb)
