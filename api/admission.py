"""Backpressure: a bounded number of photo requests per server process, the rest told "busy" at once.

Reading a photo is CPU-bound (about one photo per core at a time), so a queue longer than a few
photos only makes every answer late: 16 clients on 2 cores used to see p99 3.3 s and no refusal.
:class:`PhotoGate` admits a photo request once its whole body has arrived, until its answer, up to
:attr:`Admission.capacity` at once; one more is answered ``503 Service Unavailable`` with
``Retry-After``. A photo still arriving holds no place among them: four uploads that sent their
headers and stopped used to hold every place for a minute (issue 79). What uploads in progress hold
in memory is bounded apart (:attr:`Admission.upload_budget_bytes`): the upload that would pass it
leaves the app, which lets go of what it sent, and is answered 503 at once. Their pace is bounded by
:class:`api.limits.BodyLimit`. The health route does not pass the gate.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from fastapi import HTTPException, status
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.limits import answer_then_drain

UPLOAD_BUDGET_BYTES = 8 * 20 * 2**20
"""Bytes that photo uploads still arriving may hold in one server process: eight photos at the 20 MB
limit. Past it the upload that crosses it is turned away busy, so 40 uploads that send 19 MB and stall
hold 160 MB, not 760 MB, until they are dropped."""

MMAP_THRESHOLD_BYTES = 2**20
"""Buffers from this size up get memory of their own from the system, handed back when freed: above the
pieces a body is read in (256 KB at most), which stay in the heap and are reused without a system call
each (at 128 KB, ``/api/health`` under 60 uploads was slower), below what a refused upload holds."""


def map_large_buffers_apart(threshold: int = MMAP_THRESHOLD_BYTES) -> bool:
    """Fix glibc's threshold for giving a buffer its own mapping (``mallopt(M_MMAP_THRESHOLD)``); False
    where the C library has no ``mallopt`` (musl, macOS).

    glibc raises the threshold to the size of each mapped buffer freed, up to 32 MB, so after the first
    upload is let go, the buffers of the next ones are grown inside the heap, and what a refused upload
    held stays there, among theirs, when it is freed: 40 stalled 19 MB uploads, 32 of them refused at
    about 4 MB each, left the server 250 MB over idle, where the eight held add 155 MB."""
    mallopt = getattr(ctypes.CDLL(None), "mallopt", None)
    return mallopt is not None and mallopt(_M_MMAP_THRESHOLD, threshold) == 1


_M_MMAP_THRESHOLD = -3  # glibc's malloc.h


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
    upload_budget_bytes: int = UPLOAD_BUDGET_BYTES
    in_flight: int = 0
    refused: int = 0
    receiving_bytes: int = 0
    """Bytes held by photo uploads still arriving (not yet admitted)."""
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

    @property
    def retry_after(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class PhotoGate:
    """ASGI middleware: photo uploads (multipart POSTs to ``paths``) are received, then pass while
    ``admission`` has room, else 503 + Retry-After. A JSON body to the same route (typed cards, a few
    ms) is not a photo and passes. Made, it has the process map large buffers apart
    (:func:`map_large_buffers_apart`), so that what the uploads it refuses held is given back."""

    def __init__(self, app: ASGIApp, admission: Admission, paths: frozenset[str], drain_timeout_s: float,
                 drain_max_bytes: int) -> None:
        self.app = app
        self.admission = admission
        self.paths = paths
        self.drain_timeout_s = drain_timeout_s
        self.drain_max_bytes = drain_max_bytes
        map_large_buffers_apart()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _is_photo_upload(scope, self.paths):
            await self.app(scope, receive, send)
            return
        gate = self.admission
        if gate.full:  # busy already: told so at once, its body read and dropped, never kept
            gate.refused += 1
            await self._refuse(receive, send, gate.busy_message())
            return
        upload = _Upload(gate, receive)
        try:
            await self.app(scope, upload.receive, send)
            return
        except _OverBudget:
            pass  # answered below, once the app has let go of what its form parser had received
        finally:
            upload.release()
        await self._refuse(receive, send, _uploads_busy(gate))

    async def _refuse(self, receive: Receive, send: Send, reason: str) -> None:
        await answer_then_drain(send, receive, 503, {"detail": reason},
                                [(b"retry-after", str(self.admission.retry_after_s).encode())],
                                self.drain_timeout_s, self.drain_max_bytes)


class _OverBudget(BaseException):
    """Raised into the app by an upload that would pass :attr:`Admission.upload_budget_bytes`, for
    :class:`PhotoGate` to answer. Not an ``Exception``: FastAPI's body parsing turns any ``Exception``
    into a 400 and the app's handlers would answer it, while this must leave the app, so that the form
    parser drops what the upload has sent (Starlette's closes its files on the way out) before the 503
    is sent and the rest of the body drained."""


class _Upload:
    """One photo on its way through the gate: the bytes it holds while it arrives, then its place."""

    def __init__(self, admission: Admission, receive: Receive) -> None:
        self.admission = admission
        self.source = receive
        self.held_bytes = 0
        self.admitted = False

    async def receive(self) -> Message:
        """The next body message; the last one takes the photo's place, or raises 503 (FastAPI answers
        an HTTPException raised while it reads a body as it is). One that passes the upload budget
        raises :class:`_OverBudget` out of the app."""
        message = await self.source()
        if message["type"] != "http.request" or self.admitted:
            return message
        size = len(message.get("body", b""))
        self.held_bytes += size
        self.admission.receiving_bytes += size
        if not message.get("more_body", False):
            self._admit()
        elif self.admission.receiving_bytes > self.admission.upload_budget_bytes:
            self.release()
            self.admission.refused += 1
            raise _OverBudget
        return message

    def _admit(self) -> None:
        self.release()
        gate = self.admission
        if gate.full:
            gate.refused += 1
            raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, gate.busy_message(),
                                headers=gate.retry_after)
        gate.in_flight += 1
        self.admitted = True

    def release(self) -> None:
        """Give back what this upload holds: its bytes while arriving, its place once admitted."""
        self.admission.receiving_bytes -= self.held_bytes
        self.held_bytes = 0
        if self.admitted:
            self.admission.in_flight -= 1
            self.admitted = False


def _uploads_busy(admission: Admission) -> str:
    return (f"busy: uploads under way hold {admission.upload_budget_bytes // 2**20} MB, the most this "
            f"server keeps; try again in {admission.retry_after_s} s")


def _is_photo_upload(scope: Scope, paths: frozenset[str]) -> bool:
    if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] not in paths:
        return False
    kind = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
    return kind.split(b";")[0].strip().lower() == b"multipart/form-data"
