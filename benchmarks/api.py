"""Latency of POST /api/count on a 12-megapixel photo, through a real uvicorn server; and under load.

    .venv/bin/python -m benchmarks.api [--photo PHOTO.jpg] [--runs 30] [--models DIR]
    .venv/bin/python -m benchmarks.api --load [--clients 1,4,8,16] [--seconds 15] [--workers 1]

``--load`` runs the server as in production (``cribcount serve``, a process of its own with its
photo workers, on loopback) and drives it with 1, 4, 8 and 16 clients, each posting the photo
again as soon as it has its answer (after a 503, when its Retry-After says), for ``--seconds``
per level and at most 60 requests per client. It prints photos/s, p50/p90/p99 of the answered
photos, the 503s apart, ``/api/health`` latency meanwhile, and the peak memory of the server's
process tree; then 60 uploads sent at once, with ``/api/health`` timed while they are in flight.

The server runs in this process (uvicorn in a thread, the models loaded once
at start-up as in production) and an HTTP client uploads the photo as a phone
would: multipart, over a socket. Each request is timed end to end; the decode
and recognize stages are also timed on their own, to show where the time goes.
Without ``--photo`` the photo is made from ``sample_images/`` (upscaled to
4000x3000 with sensor-like noise, as ``benchmarks.vision`` does) or, when there are
no samples yet, drawn: white cards on green felt. Prints median and p90 ms;
never asserts (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import uvicorn

ROOT = Path(__file__).resolve().parent.parent
# Run as a file too (python benchmarks/api.py): the root goes first, so `api` is the package, not this
# file, and the project's imports must follow it.
sys.path.insert(0, str(ROOT))

from api.main import create_app  # noqa: E402
from api.settings import Settings  # noqa: E402
from benchmarks.figures import percentile  # noqa: E402
from benchmarks.loadgen import free_port, health_under_uploads, run_level, serve  # noqa: E402
from benchmarks.vision import make_12mp_jpeg  # noqa: E402
from vision.config import MODELS_DIR  # noqa: E402
from vision.decode import decode_photo  # noqa: E402
from vision.pipeline import Recognizer  # noqa: E402
from vision.roles import show_in_view  # noqa: E402


def drawn_12mp_jpeg(out: Path) -> Path:
    """A 4000x3000 table photo: four cards in a row and a starter above, with noise like a phone's."""
    img = np.empty((3000, 4000, 3), np.uint8)
    img[:] = (40, 110, 30)
    for cx, cy in [(800 + 700 * i, 2000) for i in range(4)] + [(1850, 900)]:
        x0, y0 = cx - 250, cy - 350
        cv2.rectangle(img, (x0, y0), (x0 + 500, y0 + 700), (250, 250, 250), cv2.FILLED)
        for x, y in ((x0 + 20, y0 + 90), (x0 + 400, y0 + 680)):
            cv2.putText(img, "5", (x, y), cv2.FONT_HERSHEY_SIMPLEX, 3, (20, 20, 20), 8)
    noise = np.random.default_rng(0).normal(0, 4, img.shape)
    cv2.imwrite(str(out), np.clip(img + noise, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


def _summary(name: str, ms: list[float]) -> str:
    return (f"{name:<34} median {statistics.median(ms):7.1f} ms   p90 {percentile(ms, 0.9):7.1f} ms"
            f"   ({len(ms)} runs)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--photo", type=Path, help="a 12 MP photo (default: made from sample_images/, or drawn)")
    p.add_argument("--runs", type=int, default=30, help="timed requests (after 3 warm-up requests)")
    p.add_argument("--models", type=Path, default=MODELS_DIR,
                   help="folder with detector.onnx and classifier.onnx")
    p.add_argument("--load", action="store_true",
                   help="the load test: clients at once, photos/s, p99, memory")
    p.add_argument("--clients", default="1,4,8,16", help="load levels, clients at once (default 1,4,8,16)")
    p.add_argument("--seconds", type=float, default=15.0, help="seconds per load level (default 15)")
    p.add_argument("--workers", type=int, default=1, help="server processes for the load test (default 1)")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        photo = a.photo
        if photo is None:
            samples = sorted((ROOT / "sample_images").glob("*.jpg"))
            photo = make_12mp_jpeg(samples[0], Path(tmp) / "12mp.jpg") if samples else \
                drawn_12mp_jpeg(Path(tmp) / "drawn-12mp.jpg")
        data = photo.read_bytes()
    if a.load:
        return load_test(a, photo.name, data)
    decoded = decode_photo(data)
    w, h = decoded.original_size
    print(f"photo: {photo.name}, {w}x{h} ({w * h / 1e6:.1f} MP), {len(data) / 1e6:.2f} MB; "
          f"decoded at 1/{decoded.scale:.0f} scale")

    decode_ms = []
    for _ in range(max(5, a.runs // 3)):
        t = time.perf_counter()
        decode_photo(data)
        decode_ms.append((time.perf_counter() - t) * 1000)
    print(_summary("decode (no model)", decode_ms))

    try:
        recognizer = Recognizer(a.models)
    except OSError as exc:
        recognizer = None
        print(f"models missing ({exc}): timing only the upload path, which answers 503")
    if recognizer is not None:
        show = show_in_view()  # as /api/count reads a photo with no starter named
        recognizer.recognize_photo(decoded, show)  # warm-up: onnxruntime allocates on the first run
        recognize_ms = []
        for _ in range(max(5, a.runs // 3)):
            t = time.perf_counter()
            recognizer.recognize_photo(decoded, show)
            recognize_ms.append((time.perf_counter() - t) * 1000)
        print(_summary("recognize (models, decoded photo)", recognize_ms))

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(Settings(models_dir=a.models)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            files = {"photo": (photo.name, data, "image/jpeg")}
            statuses = set()
            for _ in range(3):
                statuses.add(client.post("/api/count", files=files).status_code)
            request_ms = []
            for _ in range(a.runs):
                t = time.perf_counter()
                res = client.post("/api/count", files=files)
                request_ms.append((time.perf_counter() - t) * 1000)
                statuses.add(res.status_code)
            name = ("POST /api/count (end to end)" if recognizer is not None
                    else "POST /api/count (upload, 503)")
            print(_summary(name, request_ms))
            last = f"total {res.json()['show']['total']}" if res.status_code == 200 else res.json()["detail"]
            print(f"answers: HTTP {sorted(statuses)}; last: {last}")
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    return 0 if recognizer is not None else 2


def load_test(a: argparse.Namespace, name: str, data: bytes) -> int:
    """The server under 1, 4, 8 and 16 clients: a table, then 60 uploads at once."""
    decoded = decode_photo(data)
    w, h = decoded.original_size
    print(f"photo: {name}, {w}x{h} ({w * h / 1e6:.1f} MP), {len(data) / 1e6:.2f} MB; "
          f"server: cribcount serve --workers {a.workers}, {len(os.sched_getaffinity(0))} cores")
    with serve(a.models, a.workers) as server:
        print(f"server ready in {server.started_s:.1f} s, {server.rss_mb():.0f} MB idle "
              f"(its process tree: server processes and photo workers)")
        print(f"{'clients':>7} {'photos/s':>8} {'p50 ms':>7} {'p90 ms':>7} {'p99 ms':>7} {'answered':>8} "
              f"{'503':>5} {'other':>5} {'health p99 ms':>13} {'peak MB':>7}")
        for clients in (int(c) for c in a.clients.split(",")):
            r = run_level(server, data, clients, a.seconds, max_requests=60 * clients)
            print(f"{clients:>7} {r.photos_per_s:>8.1f} "
                  f"{r.ok(0.5):>7.0f} {r.ok(0.9):>7.0f} {r.ok(0.99):>7.0f} "
                  f"{len(r.ok_ms):>8} {r.busy:>5} {r.other:>5} {r.health(0.99):>13.1f} {r.peak_mb:>7.0f}")
        h = health_under_uploads(server, data, uploads=60)
        print(f"60 uploads at once: answers {h.statuses}; /api/health while in flight: "
              f"p50 {h.p50_ms:.1f} ms, p99 {h.p99_ms:.1f} ms, max {h.max_ms:.1f} ms ({h.probes} probes); "
              f"peak {h.peak_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
