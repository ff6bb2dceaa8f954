"""Backpressure: a bounded number of photo requests per server process, the rest told "busy" at once.

Reading a photo is CPU-bound (about one photo per core at a time), so a queue longer than a few
photos only makes every answer late: 16 clients on 2 cores used to see p99 3.3 s and no refusal.
:class:`PhotoGate` admits a photo request from its first byte (its upload held in memory counts
too) until its answer, up to :attr:`Admission.capacity` at once; one more is answered
``503 Service Unavailable`` with ``Retry-After``, its body read and dropped (so the client reads
the answer instead of a reset connection) and never kept. The health route does not pass the gate.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from api.limits import drain, send_json


@dataclass
class Admission:
    """How many photo requests this process has in hand, and whether it takes one more (mutable: a
    counter on the event loop, where every request starts and ends, so no lock).

    Two bounds: ``capacity`` at most, and no more than can be answered within ``target_s``: with
    ``workers`` reading at once and a photo taking ``photo_s`` (a running mean of the workers' own
    times, so a slower machine or a busier one takes fewer), request number ``n`` waits about
    ``ceil(n / workers) * photo_s``. While no worker is free, one is refused when that passes
    ``target_s``."""

    capacity: int
    workers: int
    target_s: float
    retry_after_s: int
    in_flight: int = 0
    refused: int = 0
    photo_s: float = 0.0
    """Mean seconds a worker takes over one photo (exponential, the last ~10 photos); 0 before any."""

    @property
    def full(self) -> bool:
        if self.in_flight >= self.capacity:
            return True
        return self.in_flight >= self.workers and self.expected_s(self.in_flight + 1) > self.target_s

    def expected_s(self, n: int) -> float:
        """About how long the ``n``-th photo in hand waits for its answer."""
        return -(-n // self.workers) * self.photo_s

    def observe(self, seconds: float) -> None:
        """A worker took ``seconds`` over a photo."""
        self.photo_s = seconds if self.photo_s == 0 else 0.9 * self.photo_s + 0.1 * seconds

    def busy_message(self) -> str:
        return (f"busy: {self.in_flight} photos are being read or waiting, the most this server answers "
                f"in time; try again in {self.retry_after_s} s")


class PhotoGate:
    """ASGI middleware: photo uploads (multipart POSTs to ``paths``) pass while ``admission`` has room,
    else 503 + Retry-After. A JSON body to the same route (typed cards, a few ms) is not a photo and
    passes."""

    def __init__(self, app: ASGIApp, admission: Admission, paths: frozenset[str], drain_timeout_s: float,
                 drain_max_bytes: int) -> None:
        self.app = app
        self.admission = admission
        self.paths = paths
        self.drain_timeout_s = drain_timeout_s
        self.drain_max_bytes = drain_max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_photo_upload(scope, self.paths):
            await self.app(scope, receive, send)
            return
        gate = self.admission
        if gate.full:
            gate.refused += 1
            await drain(receive, self.drain_timeout_s, self.drain_max_bytes)
            await send_json(send, 503, {"detail": gate.busy_message()},
                            extra_headers=[(b"retry-after", str(gate.retry_after_s).encode())])
            return
        gate.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            gate.in_flight -= 1


def _is_photo_upload(scope: Scope, paths: frozenset[str]) -> bool:
    if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in paths:
        return False
    kind = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
    return kind.split(b";")[0].strip().lower() == b"multipart/form-data"
