"""Issue 70's hostile inputs against a real server: status, reason, time and the server's extra memory.

    .venv/bin/python -m benchmarks.hostile [--models DIR] [--stalled 40]

The server runs as in production (``cribcount serve``, its own process and photo workers, on
loopback, with a 5 s upload timeout so the stalled uploads are dropped within the run). Each file
of ``tests/bombs.py`` is posted alone and then four at once; the memory is that of the server's
process tree, sampled every 100 ms. Then ``--stalled`` clients each send 19 MB of a declared 20 MB
upload and stop: the memory while they hang and after they are dropped, and what they are told.
Last, ``cribcount count`` on each file: its time and its one line. Prints; never asserts.
"""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # tests/bombs.py: the hostile files, shared with the tests

# After the path is set: bombs lives in tests/, not in a package.
from bombs import HOSTILE  # noqa: E402

from benchmarks.loadgen import serve  # noqa: E402
from vision.config import MODELS_DIR  # noqa: E402

_PROBE = httpx.Client(timeout=120)  # one client: building one (a TLS context) costs ~50 ms of its own


def post(base: str, data: bytes) -> tuple[int, str, float]:
    t = time.perf_counter()
    res = _PROBE.post(f"{base}/api/count", files={"photo": ("photo", data, "application/octet-stream")})
    return res.status_code, res.json().get("detail", ""), time.perf_counter() - t


def health_ms(base: str) -> float:
    t = time.perf_counter()
    _PROBE.get(f"{base}/api/health")
    return (time.perf_counter() - t) * 1000


def stalled(base: str, sent: int, declared: int) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    head = (b"--b\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n"
            b"Content-Type: image/jpeg\r\n\r\n")
    sock.sendall(f"POST /api/count HTTP/1.1\r\nHost: {host}\r\nContent-Length: {declared}\r\n"
                 f"Content-Type: multipart/form-data; boundary=b\r\n\r\n".encode() + head)
    chunk = b"\xff" * 2**20
    for _ in range(sent // len(chunk)):
        sock.sendall(chunk)
    return sock


def first_line(sock: socket.socket, timeout_s: float) -> str:
    sock.settimeout(timeout_s)
    try:
        data = sock.recv(4096)
    except OSError as exc:
        data = f"({type(exc).__name__})".encode()
    sock.close()
    return data.split(b"\r\n", 1)[0].decode(errors="replace") or "(closed)"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", type=Path, default=MODELS_DIR)
    p.add_argument("--stalled", type=int, default=40, help="stalled 19 MB uploads (default 40)")
    a = p.parse_args(argv)
    files = {name: make() for name, (make, _status, _reason) in HOSTILE.items()}
    with serve(a.models, env={"CRIBCOUNT_UPLOAD_TIMEOUT": "5"}) as server:
        base = server.base
        idle = server.rss_mb()
        print(f"server ready in {server.started_s:.1f} s; {idle:.0f} MB idle (process tree)\n")
        print(f"{'file':<28} {'size':>8} {'status':>6} {'ms':>7} {'+MB':>6} {'health ms':>9}  reason")
        for name, data in files.items():
            server.reset_peak()
            status, detail, s = post(base, data)
            time.sleep(0.3)  # a sample or three after the answer
            print(f"{name:<28} {len(data) / 1e6:>6.2f}MB {status:>6} {s * 1000:>7.0f} "
                  f"{server.peak_mb - idle:>6.0f} {health_ms(base):>9.1f}  {detail}")
        mixed = ["webp-16383x16383", "tiff-30000x30000", "jpeg-30000x30000-fill-byte", "jpeg-4.7M-segments"]
        for group in (mixed, ["jpeg-4.7M-segments"] * 4, ["png-1M-chunks"] * 4):
            server.reset_peak()
            t = time.perf_counter()
            with ThreadPoolExecutor(4) as pool:
                answers = list(pool.map(lambda n: post(base, files[n]), group))
            print(f"four at once ({', '.join(sorted(set(group)))}): {[x[0] for x in answers]} in "
                  f"{(time.perf_counter() - t) * 1000:.0f} ms, +{server.peak_mb - idle:.0f} MB peak, "
                  f"health {health_ms(base):.1f} ms")

        print(f"\n{a.stalled} clients each send 19 MB of a declared 20 MB photo and stall "
              "(upload timeout 5 s):")
        time.sleep(1)
        server.reset_peak()
        idle = server.rss_mb()  # the workers keep some of what the big files above took
        t = time.perf_counter()
        with ThreadPoolExecutor(a.stalled) as pool:
            socks = list(pool.map(lambda _: stalled(base, 19 * 2**20, 20 * 2**20), range(a.stalled)))
        sent_s = time.perf_counter() - t
        during = [health_ms(base) for _ in range(20)]
        hanging = server.rss_mb()
        with ThreadPoolExecutor(a.stalled) as pool:
            lines = list(pool.map(lambda s: first_line(s, 30), socks))
        answered_s = time.perf_counter() - t
        time.sleep(1)
        counts: dict[str, int] = {}
        for line in lines:
            counts[line] = counts.get(line, 0) + 1
        print(f"  sent in {sent_s:.1f} s; memory before {idle:.0f} MB, while they hang {hanging:.0f} MB, "
              f"peak {server.peak_mb:.0f} MB, after {server.rss_mb():.0f} MB")
        print(f"  /api/health while they hang: max {max(during):.1f} ms of 20; all answered "
              f"{answered_s:.1f} s after the first byte: {counts}")

    print("\ncribcount count FILE (models loaded only for a photo that passes its header):")
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            path = Path(tmp) / name
            path.write_bytes(data)
            t = time.perf_counter()
            run = subprocess.run([sys.executable, "-m", "api.cli", "count", str(path)], cwd=ROOT,
                                 capture_output=True, text=True, timeout=120, check=False)
            print(f"  {name:<28} exit {run.returncode} in {(time.perf_counter() - t) * 1000:>5.0f} ms: "
                  f"{run.stderr.strip().splitlines()[-1] if run.stderr.strip() else run.stdout[:80]}")
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
