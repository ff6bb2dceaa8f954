"""Issue 79's probes: one per row of its table, each printed with its figure, its target and PASS/FAIL.

    .venv/bin/python -m benchmarks.hostile_http [--only N ...] [--via-proxy] [--url URL]

The service runs as in production (``cribcount serve``, a process of its own with its photo workers,
on a free loopback port), with a soft limit of 1,024 open files (what systemd gives a service) and
temp and runtime folders of its own. Row 6 starts it afresh on each layout of
``benchmarks/planted_locks.py``: core lock files planted where another local user could. With
``--via-proxy`` the probes go through nginx running ``deploy/nginx.conf`` in front of it; with
``--url`` they go to a server started elsewhere (rows that need its process tree say n/a). Row 13
starts a fresh service of its own. Every probe is bounded (at most about a minute, loopback only);
the hostile bodies are built in memory. Prints; never asserts (``tests/deploy/test_proxy.py`` asserts
the HTTP-layer rows through the proxy).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import resource
import selectors
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from string import Template
from urllib.parse import urlsplit

import httpx
import psutil

from benchmarks.loadgen import HealthProbe, Server, free_port, run_level, wait_ready, watched
from benchmarks.planted_locks import LAYOUTS, Layout, private_locks

ROOT = Path(__file__).resolve().parent.parent
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)
"""Debian's nginx (scripts/setup.sh installs nginx-light), or None."""
SAMPLE = ROOT / "sample_images" / "starter-below-the-row.jpg"
LARGE_SAMPLE = ROOT / "sample_images" / "row-with-starter-below.jpg"
SERVICE_FILES = 1024
"""The service's soft limit on open files in these probes: systemd's default for a service."""
MB = 2**20


# -- the service and the proxy on loopback --------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """What the probes talk to: a base URL and, where this script started the service, its process
    tree and its log."""

    base: str
    server: Server | None = None
    log: Path | None = None

    @property
    def address(self) -> tuple[str, int]:
        parts = urlsplit(self.base)
        return parts.hostname or "127.0.0.1", parts.port or 80


def _cli() -> list[str]:
    """The ``cribcount`` console script beside this interpreter (or the module, if not installed)."""
    script = Path(sys.executable).parent / "cribcount"
    return [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]


@contextmanager
def start_service(folder: Path, open_files: int = SERVICE_FILES,
                  env: dict[str, str | None] | None = None) -> Iterator[Target]:
    """``cribcount serve`` on a free loopback port, its soft file limit at ``open_files``, its own
    temp and runtime folders (``env`` sets others, None unsets one), stdout and stderr in a log;
    yields once it is ready."""
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "service.log"
    port = free_port()
    folders = {"TMPDIR": str(folder / "tmp"), "XDG_RUNTIME_DIR": str(folder / "runtime")} | (env or {})
    for name in {"TMPDIR", "XDG_RUNTIME_DIR"} - set(env or {}):  # its core locks apart from any other's
        Path(folders[name]).mkdir(mode=0o700)
    child_env = {k: v for k, v in os.environ.items() if not k.startswith("CRIBCOUNT_") and k not in folders}
    child_env |= {k: v for k, v in folders.items() if v is not None} | {"PYTHONUNBUFFERED": "1"}

    def limit_files() -> None:  # in the child, before exec: the soft limit only, as systemd sets it
        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    with log.open("wb") as out:
        process = subprocess.Popen([*_cli(), "serve", "--host", "127.0.0.1", "--port", str(port)], cwd=ROOT,
                                   env=child_env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True, preexec_fn=limit_files)
    with watched(process, f"http://127.0.0.1:{port}", 120, lambda: log.read_text(errors="replace")) as server:
        yield Target(server.base, server, log)


def render_nginx_conf(listen: str, upstream: str) -> str:
    """``deploy/nginx.conf`` with its two placeholders filled, as ``envsubst '$LISTEN $UPSTREAM'``
    does (nginx's own ``$variables`` are left alone)."""
    text = Template(NGINX_CONF.read_text()).safe_substitute(LISTEN=listen, UPSTREAM=upstream)
    left = re.findall(r"\$\{[A-Z_]+\}", text)
    if left:
        raise ValueError(f"deploy/nginx.conf has placeholders this script does not fill: {left}")
    return text


@contextmanager
def nginx_front(upstream: str, folder: Path) -> Iterator[str]:
    """nginx with ``deploy/nginx.conf`` on a free loopback port in front of ``upstream`` (a base URL),
    its prefix (logs, temp files, pid) in ``folder``; yields its base URL once it proxies."""
    if NGINX is None:
        raise RuntimeError("nginx is not installed (scripts/setup.sh installs nginx-light)")
    for sub in ("logs", "temp"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(render_nginx_conf(f"127.0.0.1:{port}", urlsplit(upstream).netloc))
    log = folder / "logs" / "stderr.log"
    with log.open("wb") as out:
        process = subprocess.Popen([NGINX, "-p", f"{folder}/", "-c", str(conf), "-e", "stderr",
                                    "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        wait_ready(process, f"http://127.0.0.1:{port}/api/health", 20,
                   lambda: log.read_text(errors="replace"))
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()  # SIGTERM: nginx's fast shutdown
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


# -- small HTTP pieces over raw sockets -----------------------------------------------------------


def status_line(sock: socket.socket, timeout_s: float) -> str:
    """The first line the peer sends, ``(closed)`` when it closes first, or the error's name."""
    sock.settimeout(timeout_s)
    try:
        data = sock.recv(4096)
    except OSError as exc:
        return f"({type(exc).__name__})"
    return data.split(b"\r\n", 1)[0].decode(errors="replace") if data else "(closed)"


def health_ms(target: Target, timeout_s: float = 2.0) -> float | None:
    """``GET /api/health`` on a fresh connection: milliseconds to a 200, None when it fails."""
    t = time.perf_counter()
    try:
        with socket.create_connection(target.address, timeout=timeout_s) as sock:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
            ok = status_line(sock, timeout_s).startswith("HTTP/1.1 200")
    except OSError:
        return None
    return (time.perf_counter() - t) * 1000 if ok else None


def _p99(values: list[float]) -> float:
    return sorted(values)[round(0.99 * (len(values) - 1))] if values else float("nan")


def _post_photo(client: httpx.Client, base: str, photo: bytes, route: str = "/api/count") -> httpx.Response:
    return client.post(f"{base}{route}", files={"photo": ("photo.jpg", photo, "image/jpeg")})


def _timed(call: Callable[[], httpx.Response]) -> tuple[int, float]:
    """(status, seconds) of one request; status 0 when the connection failed."""
    t = time.perf_counter()
    try:
        status = call().status_code
    except httpx.TransportError:
        status = 0
    return status, time.perf_counter() - t


# -- hostile bodies, built in memory --------------------------------------------------------------


def small_jpeg(size: tuple[int, int] = (64, 48)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", size, (200, 60, 20)).save(out, "JPEG", quality=90)
    return out.getvalue()


def discard_json(cards: int = 2_500_000) -> bytes:
    """Row 4: ``POST /api/discard`` JSON with millions of cards dealt (six are)."""
    return b'{"cards": [' + b'"10H", ' * (cards - 1) + b'"10H"], "seat": "dealer"}'


def boundary_flood(size: int = 20_000_000) -> tuple[bytes, str]:
    """Row 5: a multipart body whose photo part is ``\\r\\n--Bx`` over and over, each a near-boundary
    the parser must look at twice; (body, content type)."""
    head = (b'--B\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n")
    tail = b"\r\n--B--\r\n"
    unit = b"\r\n--Bx"
    body = head + unit * ((size - len(head) - len(tail)) // len(unit)) + tail
    return body, "multipart/form-data; boundary=B"


def png_chunk_flood(chunks: int = 1_400_000) -> bytes:
    """Row 9: a small PNG with ``chunks`` empty private chunks (12 bytes each) before its pixels."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 60, 20)).save(out, "PNG")
    data = out.getvalue()
    chunk = struct.pack(">I", 0) + b"prVt" + struct.pack(">I", zlib.crc32(b"prVt"))
    return data[:33] + chunk * chunks + data[33:]  # 33: the signature and IHDR


def exif_flood_jpeg(tags: int = 5000) -> bytes:
    """Row 10: a small JPEG whose EXIF holds ``tags`` entries, each claiming more data than the file
    has: Pillow warns once per tag (two lines each on stderr)."""
    entries = b"".join(struct.pack("<HHII", 0xC000 + k, 4, 20_000, 8) for k in range(tags))  # LONG x 20,000
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", tags) + entries + b"\0\0\0\0"
    app1 = b"Exif\0\0" + tiff
    jpeg = small_jpeg()
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def tiny_gif() -> bytes:
    """A 1x1 GIF: refused by its header alone (the CLI's start-up time, for row 9's baseline)."""
    screen = struct.pack("<HHBBB", 1, 1, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"  # 1x1, a 2-colour palette
    return b"GIF89a" + screen + b"," + struct.pack("<HHHHB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00;"


# -- the HTTP layer: rows 1, 2, 3, 5 and 12 (tests/deploy/test_proxy.py runs these through nginx) ---


@dataclass(frozen=True)
class Flood:
    """Row 1: a header (or URL) grown in 64 KB pieces until the server answers or closes."""

    taken_bytes: int
    """Sent before the first answer or error (the server may have read less)."""
    answer: str
    limit_bytes: int

    @property
    def refused(self) -> bool:
        """Cut short by the server: an answer or a closed connection before the whole flood went."""
        return self.taken_bytes < self.limit_bytes


def grow_header(target: Target, where: str = "header", limit_bytes: int = 32 * MB) -> Flood:
    """One request whose header value (``where="header"``) or URL (``"url"``) grows 64 KB at a time."""
    start = (b"GET /api/health?q=" if where == "url"
             else b"GET /api/health HTTP/1.1\r\nHost: probe\r\nX-Grow: ")
    piece = b"a" * 65536
    taken = 0
    with socket.create_connection(target.address, timeout=10) as sock:
        sock.sendall(start)
        with selectors.DefaultSelector() as sel:
            sel.register(sock, selectors.EVENT_READ)
            # 10 ms for an answer after each piece: the kernel's buffers would take megabytes the
            # server never read before its answer is seen.
            while taken < limit_bytes and not sel.select(0.01):
                try:
                    sock.sendall(piece)
                except OSError:  # reset, or it stopped reading for 10 s
                    break
                taken += len(piece)
        return Flood(taken, status_line(sock, 5), limit_bytes)


@dataclass(frozen=True)
class Silent:
    """Row 2: connections that send nothing, and ``/api/health`` on fresh connections meanwhile."""

    opened: int
    refused: int
    closed_after_s: tuple[float, ...]
    """For each connection the server closed, seconds after the last one opened."""
    health_answered: int
    health_failed: int
    health_max_ms: float

    def closed_within(self, seconds: float) -> int:
        return sum(s <= seconds for s in self.closed_after_s)


def _ping_health(target: Target, stop: threading.Event, times: list[float | None]) -> None:
    while not stop.wait(0.25):
        times.append(health_ms(target))


def _open_silent(target: Target, n: int, open_s: float) -> tuple[list[socket.socket], int]:
    socks, refused = [], 0
    deadline = time.monotonic() + open_s
    for _ in range(n):
        if time.monotonic() > deadline:
            refused += 1
            continue
        try:
            socks.append(socket.create_connection(target.address, timeout=2))
        except OSError:
            refused += 1
    return socks, refused


def _wait_closed(socks: list[socket.socket], wait_s: float) -> list[float]:
    """Seconds until the peer closed (or answered) each connection, for those it did in ``wait_s``."""
    closed, t0 = [], time.monotonic()
    with selectors.DefaultSelector() as sel:  # epoll: more than select()'s 1,024 descriptors
        for sock in socks:
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ)
        while len(closed) < len(socks) and time.monotonic() - t0 < wait_s:
            for key, _ in sel.select(0.2):
                sel.unregister(key.fileobj)
                closed.append(time.monotonic() - t0)
    return closed


def hold_silent(target: Target, n: int = 1100, wait_s: float = 20) -> Silent:
    """Open ``n`` connections that send nothing; wait up to ``wait_s`` for the server to close them."""
    stop, times = threading.Event(), []
    pinger = threading.Thread(target=_ping_health, args=(target, stop, times), daemon=True)
    pinger.start()
    socks, refused = _open_silent(target, n, open_s=10)
    try:
        closed = _wait_closed(socks, wait_s)
    finally:
        stop.set()
        pinger.join()
        for sock in socks:
            sock.close()
    answered = [t for t in times if t is not None]
    return Silent(len(socks), refused, tuple(closed), len(answered), len(times) - len(answered),
                  max(answered, default=float("nan")))


def idle_uploads(target: Target, photo: bytes, photos: int = 8, every_s: float = 5) -> tuple[int, ...]:
    """Row 3: four uploads send their headers and ``--B\\r\\n`` and stop (one chunked, three declaring
    1,000,000 bytes) while ``photos`` photos are sent, one every ``every_s``; the photos' statuses."""
    head = (b"POST /api/count HTTP/1.1\r\nHost: probe\r\nContent-Type: multipart/form-data; boundary=B\r\n")
    idle = []
    for k in range(4):
        sock = socket.create_connection(target.address, timeout=10)
        sock.sendall(head + (b"Transfer-Encoding: chunked\r\n\r\n5\r\n--B\r\n\r\n" if k == 0
                             else b"Content-Length: 1000000\r\n\r\n--B\r\n"))
        idle.append(sock)
    statuses = []
    try:
        with httpx.Client(timeout=30) as client:
            t0 = time.monotonic()
            for k in range(photos):
                time.sleep(max(0.0, t0 + k * every_s - time.monotonic()))
                statuses.append(_timed(lambda: _post_photo(client, target.base, photo))[0])
    finally:
        for sock in idle:
            sock.close()
    return tuple(statuses)


@dataclass(frozen=True)
class Burst:
    """Row 5: bodies posted at once: each one's status and seconds, and ``/api/health`` meanwhile."""

    statuses: tuple[int, ...]
    seconds: tuple[float, ...]
    health_p99_ms: float


def post_at_once(target: Target, route: str, body: bytes, content_type: str, at_once: int,
                 health: bool = True) -> Burst:
    """``at_once`` posts of ``body`` together (and health timed every 50 ms from a process of its own)."""
    prober = HealthProbe(target.base) if health else None
    with httpx.Client(timeout=120, limits=httpx.Limits(max_connections=at_once)) as client:
        def one(_: int) -> tuple[int, float]:
            return _timed(lambda: client.post(f"{target.base}{route}", content=body,
                                              headers={"content-type": content_type}))

        with ThreadPoolExecutor(at_once) as pool:
            answers = list(pool.map(one, range(at_once)))
    times = prober.stop() if prober else []
    return Burst(tuple(a[0] for a in answers), tuple(a[1] for a in answers), _p99(times))


def missing_page_headers(target: Target) -> tuple[str, ...]:
    """Row 12: which of the page's four protections ``GET /`` lacks."""
    headers = httpx.get(f"{target.base}/", timeout=10).headers
    csp = headers.get("content-security-policy", "")
    wanted = {
        "Content-Security-Policy without inline script": bool(csp) and "unsafe-inline" not in csp,
        "X-Content-Type-Options: nosniff": headers.get("x-content-type-options", "").lower() == "nosniff",
        "frame-ancestors or X-Frame-Options": "frame-ancestors" in csp or "x-frame-options" in headers,
        "Referrer-Policy": "referrer-policy" in headers,
    }
    return tuple(name for name, present in wanted.items() if not present)


# -- one probe per row ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One row's figure, and whether it meets the issue's "Done when" (None: not measurable here)."""

    figure: str
    passed: bool | None


def _needs_process(target: Target) -> Row | None:
    return None if target.server else Row("n/a: needs the service's process (started without --url)", None)


def row_1(target: Target, _folder: Path) -> Row:
    prober = HealthProbe(target.base)
    floods = {where: grow_header(target, where) for where in ("header", "url")}
    health = prober.stop()
    last = health_ms(target)  # refused at once, the floods may end before the prober's first look
    worst = max([*health, float("inf") if last is None else last])
    figure = "; ".join(f"{where}: {f.taken_bytes / MB:.2f} MB taken, then {f.answer!r}"
                       for where, f in floods.items())
    passed = all(f.refused and f.taken_bytes < MB for f in floods.values()) and worst <= 100
    return Row(f"{figure}; /api/health max {worst:.0f} ms", passed)


def row_2(target: Target, _folder: Path) -> Row:
    silent = hold_silent(target, 1100, wait_s=20)
    within = silent.closed_within(15)
    return Row(f"{within}/1100 closed within 15 s ({silent.refused} not opened); /api/health on fresh "
               f"connections: {silent.health_answered} answered, {silent.health_failed} failed, "
               f"max {silent.health_max_ms:.0f} ms",
               within == 1100 and silent.health_failed == 0)


def row_3(target: Target, _folder: Path) -> Row:
    statuses = idle_uploads(target, SAMPLE.read_bytes(), photos=8, every_s=5)
    ok = statuses.count(200)
    return Row(f"{ok}/{len(statuses)} photos got 200 (statuses {list(statuses)})", ok >= 0.8 * len(statuses))


def row_4(target: Target, _folder: Path) -> Row:
    body = discard_json()
    alone = post_at_once(target, "/api/discard", body, "application/json", 1, health=False)
    status, seconds = alone.statuses[0], alone.seconds[0]
    figure = f"{status} in {seconds:.2f} s ({len(body) / MB:.0f} MB)"
    if target.server is None:
        return Row(figure + "; memory n/a with --url", None)
    server = target.server
    server.reset_peak()
    before = server.rss_mb()
    eight = post_at_once(target, "/api/discard", body, "application/json", 8, health=False)
    time.sleep(2)
    added, kept = server.peak_mb - before, server.rss_mb() - before
    return Row(f"{figure}; 8 at once: {sorted(set(eight.statuses))}, max {max(eight.seconds):.1f} s, "
               f"+{added:.0f} MB peak, +{kept:.0f} MB 2 s later",
               400 <= status < 500 and seconds <= 0.5 and added <= 150)


def row_5(target: Target, _folder: Path) -> Row:
    body, kind = boundary_flood()
    alone = post_at_once(target, "/api/count", body, kind, 1, health=False)
    four = post_at_once(target, "/api/count", body, kind, 4)
    slowest = max(alone.seconds + four.seconds)
    return Row(f"alone {alone.statuses[0]} in {alone.seconds[0]:.2f} s; 4 at once {list(four.statuses)}, "
               f"slowest {max(four.seconds):.2f} s, /api/health p99 {four.health_p99_ms:.0f} ms",
               slowest <= 1 and four.health_p99_ms <= 50 and all(s for s in four.statuses))


def probe_layout(layout: Layout, folder: Path) -> tuple[str, bool | None]:
    """The service started on ``layout`` (planted in ``folder``), two photos sent: (figure, passed).
    The baseline must also show the service claiming cores in its private folder, so that a probe
    aimed where the service no longer looks cannot pass."""
    if layout.as_other_user and os.geteuid() != 0:
        return f"{layout.name}: n/a (planting as another user needs root)", None
    planted = layout.plant(folder / "planted")
    with start_service(folder / "service", env=planted.env) as service:
        assert service.server is not None
        with httpx.Client(timeout=60) as client:
            photos = [_post_photo(client, service.base, SAMPLE.read_bytes()).status_code for _ in "12"]
        cores = sorted(sorted(p.cpu_affinity()) for p in photo_workers(service.server))
    kept = sum(v.untouched() for v in planted.victims)
    locks = private_locks(planted.lock_folder)
    figure = (f"{layout.name}: photos {photos}, {kept}/{len(planted.victims)} symlinked files untouched, "
              f"workers on cores {cores}" + (f", {locks} locks in its 0700 folder" if locks else ""))
    passed = photos == [200, 200] and kept == len(planted.victims)
    return figure, passed and (locks > 0 or not layout.claims_cores)


def row_6(target: Target, folder: Path) -> Row:
    if skip := _needs_process(target):
        return skip
    results = [probe_layout(layout, folder / f"layout-{k}") for k, layout in enumerate(LAYOUTS)]
    verdicts = [passed for _, passed in results if passed is not None]
    return Row("; ".join(figure for figure, _ in results), all(verdicts) if verdicts else None)


def row_7(target: Target, _folder: Path) -> Row:
    answers, passed = [], True
    with httpx.Client(timeout=60) as client:
        for name, players in (("²", "²"), ("٣", "٣"), ("5,000 digits", "9" * 5000)):
            try:
                res = client.post(f"{target.base}/api/discard", data={"seat": "dealer", "players": players},
                                  files={"photo": ("p.jpg", small_jpeg(), "image/jpeg")},
                                  headers={"connection": "close"})  # a 500 may leave it unusable
            except httpx.TransportError as exc:  # no answer at all: as bad as a 500
                answers.append(f"{name}: {type(exc).__name__} {exc}")
                passed = False
                continue
            is_json = res.headers.get("content-type", "").startswith("application/json")
            detail = str(res.json().get("detail", "")) if is_json else res.text
            ok = 400 <= res.status_code < 500 and is_json and "players" in detail.lower()
            passed &= ok
            answers.append(f"{name}: {res.status_code} {'JSON' if is_json else 'text'} {detail[:50]!r}")
    return Row("; ".join(answers), passed)


def photo_workers(server: Server) -> list[psutil.Process]:
    """The service's photo worker processes (multiprocessing's spawned children, not its tracker)."""
    tree = psutil.Process(server.process.pid).children(recursive=True)
    return [p for p in tree if "spawn_main" in " ".join(p.cmdline())]


def _cpu_s(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


KILL_AT_CPU_S = {"mid-photo": 0.01, "at its first CPU tick": 0.0}
"""Row 8's timings: the CPU seconds a worker has spent on the photo when it is killed. At its first tick
it may not yet have told pebble it took the photo, and pebble gives up on the whole pool."""
KILLS = 4
"""Kills tried at each timing."""


def kill_mid_request(target: Target, photo: bytes, after_cpu_s: float) -> httpx.Response | None:
    """Post ``photo`` and kill the photo worker that starts reading it once it has used more than
    ``after_cpu_s`` of CPU; the answer, or None when the photo was answered before a worker could be
    caught at it."""
    assert target.server is not None
    workers = photo_workers(target.server)
    before = {p.pid: _cpu_s(p) for p in workers}
    answer: list[httpx.Response] = []
    with httpx.Client(timeout=60) as client:
        poster = threading.Thread(target=lambda: answer.append(_post_photo(client, target.base, photo)))
        poster.start()
        killed = False
        while poster.is_alive() and not killed:
            busy = [p for p in workers if _cpu_s(p) - before[p.pid] > after_cpu_s]
            for p in busy[:1]:
                p.kill()
                killed = True
            time.sleep(0.002)
        poster.join()
    return answer[0] if killed else None


def ready_within(target: Target, seconds: float) -> bool:
    """Whether ``/api/ready`` answers 200 within ``seconds`` (new workers started after a kill)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if httpx.get(f"{target.base}/api/ready", timeout=5).status_code == 200:
            return True
        time.sleep(0.1)
    return False


def kills_at(target: Target, photo: bytes, after_cpu_s: float) -> tuple[str, bool | None]:
    """:data:`KILLS` kills at one timing, then 5 photos: the figure, and whether every photo a kill
    caught got 503 with Retry-After and the next 5 got 200 (None: no kill caught a photo)."""
    caught: list[httpx.Response] = []
    for _ in range(KILLS):
        if not ready_within(target, 30):
            return "/api/ready not 200 within 30 s after a kill", False
        res = kill_mid_request(target, photo, after_cpu_s)
        caught += [res] if res is not None and res.status_code != 200 else []  # 200: read before the kill
    with httpx.Client(timeout=60) as client:
        after = [_post_photo(client, target.base, photo).status_code for _ in range(5)]
    if not caught:
        return f"no photo caught by {KILLS} kills; next 5: {after}", None
    retry = all(r.status_code == 503 and r.headers.get("retry-after") for r in caught)
    first = caught[0]
    detail = first.json().get("detail", "") if first.headers.get("content-type") == "application/json" \
        else first.text
    return (f"{[r.status_code for r in caught]}, Retry-After {first.headers.get('retry-after')} "
            f"{detail[:40]!r}; next 5: {after}", retry and after == [200] * 5)


def row_8(target: Target, _folder: Path) -> Row:
    if skip := _needs_process(target):
        return skip
    photo = LARGE_SAMPLE.read_bytes()
    results = {name: kills_at(target, photo, cpu_s) for name, cpu_s in KILL_AT_CPU_S.items()}
    verdicts = [passed for _, passed in results.values()]
    passed = False if False in verdicts else (None if None in verdicts else True)  # both timings caught
    return Row("; ".join(f"{name}: {figure}" for name, (figure, _) in results.items()), passed)


def _run_cli(path: Path) -> tuple[float, int]:
    """``cribcount count PATH``: (seconds, lines printed on stdout and stderr)."""
    t = time.perf_counter()
    run = subprocess.run([*_cli(), "count", str(path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=False)
    return time.perf_counter() - t, len((run.stdout + run.stderr).splitlines())


def row_9(target: Target, folder: Path) -> Row:
    flood = png_chunk_flood()
    with httpx.Client(timeout=60) as client:
        status, seconds = _timed(lambda: _post_photo(client, target.base, flood))
    path, gif = folder / "chunk-flood.png", folder / "tiny.gif"
    path.write_bytes(flood)
    gif.write_bytes(tiny_gif())
    start_s, _ = _run_cli(gif)  # the interpreter and imports, refused by the header: the CLI's floor
    cli_s, _ = _run_cli(path)
    path.unlink()
    return Row(f"server {status} in {seconds:.2f} s; CLI {cli_s:.2f} s ({start_s:.2f} s of it the CLI's own "
               f"start, as for a 1x1 GIF); {len(flood) / MB:.1f} MB", seconds <= 1 and cli_s - start_s <= 1)


def row_10(target: Target, folder: Path) -> Row:
    photo = exif_flood_jpeg()
    lines_before = len(target.log.read_bytes().splitlines()) if target.log else 0
    with httpx.Client(timeout=60) as client:
        status = _post_photo(client, target.base, photo).status_code
    read = status == 200 or status == 422  # read (cards or none) or refused by the decoder, not lost or busy
    time.sleep(1)  # the workers' warnings reach the log
    logged = len(target.log.read_bytes().splitlines()) - lines_before if target.log else None
    path = folder / "exif-flood.jpg"
    path.write_bytes(photo)
    _, cli_lines = _run_cli(path)
    server = f"{logged} server log lines" if logged is not None else "server log n/a with --url"
    quiet = cli_lines <= 10 and (logged <= 20 if logged is not None else None)
    shown = f"{status}" if read else f"{status}, the photo was not read"
    return Row(f"{shown}; {server}; CLI printed {cli_lines} lines", quiet if read else False)


def _cards(res: httpx.Response) -> list[str]:
    return [c["card"] for c in res.json()["cards"]] if res.status_code == 200 else []


def row_11(target: Target, _folder: Path) -> Row:
    plain = SAMPLE.read_bytes()
    with httpx.Client(timeout=60) as client:
        ok, padded = (_post_photo(client, target.base, p) for p in (plain, plain + bytes(300 * 1024)))
    detail = "" if padded.status_code == 200 else f" {padded.json().get('detail', '')[:60]!r}"
    same = ok.status_code == padded.status_code == 200 and _cards(ok) == _cards(padded)
    return Row(f"plain {ok.status_code} {_cards(ok)}; with 300 KB of zeros {padded.status_code}{detail} "
               f"{_cards(padded)}", same)


def row_12(target: Target, _folder: Path) -> Row:
    missing = missing_page_headers(target)
    return Row("missing: " + ", ".join(missing) if missing else "all four present", not missing)


def row_13(target: Target, folder: Path) -> Row:
    if skip := _needs_process(target):
        return skip
    with start_service(folder / "fresh-service") as fresh:  # memory from a fresh start, not after rows 1-12
        assert fresh.server is not None
        photo = SAMPLE.read_bytes()
        with httpx.Client(timeout=60) as client:
            _post_photo(client, fresh.base, photo)
        time.sleep(2)
        idle = fresh.server.rss_mb()
        level = run_level(fresh.server, photo, clients=8, seconds=30, max_requests=2000)
        peak = level.peak_mb
        time.sleep(20)
        after = fresh.server.rss_mb()
    return Row(f"idle after the first photo {idle:.0f} MB, peak {peak:.0f} MB in the burst "
               f"({len(level.ok_ms)} photos, {level.busy} busy), 20 s later {after:.0f} MB "
               f"(+{after - idle:.0f})",
               after - idle <= 150)


ROWS: dict[int, tuple[str, str, Callable[[Target, Path], Row]]] = {
    1: ("a header or URL grown in 64 KB pieces", "refused before 1 MB; /api/health <= 100 ms", row_1),
    2: ("1,100 silent connections", "closed within 15 s; /api/health answers throughout", row_2),
    3: ("4 idle uploads, a photo every 5 s", ">= 80% of the photos get 200", row_3),
    4: ("/api/discard JSON with 2.5 M cards", "4xx in <= 0.5 s; 8 at once add <= 150 MB", row_4),
    5: ("20 MB multipart of \\r\\n--Bx", "each answered <= 1 s; /api/health p99 <= 50 ms, 4 at once", row_5),
    6: ("core lock files planted by another user", "the symlinked files untouched; photos 200", row_6),
    7: ("players=², ٣, 5,000 digits", "4xx JSON with the reason", row_7),
    8: ("photo workers killed mid-photo and at their first CPU tick", "503 with Retry-After; the next 5 "
        "photos 200", row_8),
    9: ("PNG with 1.4 M empty chunks", "answered <= 1 s (server and CLI)", row_9),
    10: ("JPEG with 5,000 EXIF tags", "<= 20 server log lines; <= 10 CLI lines", row_10),
    11: ("a JPEG followed by 300 KB of zeros", "the same cards as the plain JPEG", row_11),
    12: ("the page's headers", "CSP (no inline script), nosniff, frame-ancestors, Referrer-Policy", row_12),
    13: ("memory after a 30 s burst of 8 clients", "within 150 MB of idle, 20 s later", row_13),
}
"""Row number -> (the probe, the issue's target, the function that runs it)."""


def _verdict(passed: bool | None) -> str:
    return {True: "PASS", False: "FAIL", None: "n/a"}[passed]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", type=int, nargs="+", choices=sorted(ROWS), metavar="N",
                   help="rows to run (1-13; default all)")
    p.add_argument("--via-proxy", action="store_true", help="probe through nginx running deploy/nginx.conf")
    p.add_argument("--url", help="probe a server already running there (rows needing its process: n/a)")
    a = p.parse_args(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # row 2 holds 1,100 sockets here
    results: list[bool | None] = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hostile-http-")))
        if a.url:
            target = Target(a.url.rstrip("/"))
        else:
            target = stack.enter_context(start_service(folder / "service"))
        if a.via_proxy:
            target = replace(target, base=stack.enter_context(nginx_front(target.base, folder / "nginx")))
        print(f"probing {target.base}" + (" (nginx, deploy/nginx.conf)" if a.via_proxy else "") + "\n")
        for n in a.only or sorted(ROWS):
            probe, goal, run = ROWS[n]
            t = time.perf_counter()
            try:
                row = run(target, folder)
            except (httpx.TransportError, OSError) as exc:  # the service dropped or reset a probe
                row = Row(f"the probe's connection failed: {type(exc).__name__}: {exc}", False)
            results.append(row.passed)
            print(f"{n:>2} {_verdict(row.passed):<4} {probe} ({time.perf_counter() - t:.0f} s)\n"
                  f"        measured: {row.figure}\n        target:   {goal}", flush=True)
    print(f"\n{results.count(True)} pass, {results.count(False)} fail, {results.count(None)} n/a")
    return 0


if __name__ == "__main__":
    sys.exit(main())
