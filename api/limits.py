"""Refuse request bodies over the photo limit before they are read into memory.

A photo is read whole (it is processed in memory and never written to disk),
so the body size must be bounded before the multipart parser buffers it. A
body that declares a larger ``Content-Length`` is drained without being kept
and answered 413, so the client reads the reason instead of a reset connection;
a chunked body is cut off with 413 as soon as it passes the limit. A body must also arrive within
``timeout_s`` (uvicorn has no body-read timeout), and at a :class:`Pace`: after a grace, at least so
many bytes a second and never silent for the grace. A slow or stalled upload is dropped with 408 and
the memory it held is freed, where 40 stalled 19 MB uploads used to hold 740 MB for as long as
their clients liked.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from fastapi import HTTPException, status
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Past this many bytes a client sending an oversized body is not worth draining: drop the connection.
_DRAIN_FACTOR = 8


UPLOAD_MIN_RATE = 8 * 1024
"""Bytes a second an upload must keep up after its grace: 64 kbit/s, a 2G (EDGE) uplink at its worst."""
UPLOAD_GRACE_S = 10.0
"""Seconds before the rate counts, and the longest silence: a phone's handover or a radio waking up."""


@dataclass(frozen=True)
class Pace:
    """How fast a body must arrive once its head has: after ``grace_s``, ``min_rate`` bytes a second on
    average, and never ``grace_s`` without a byte."""

    min_rate: int = UPLOAD_MIN_RATE
    grace_s: float = UPLOAD_GRACE_S

    def due(self, start: float, last: float, received: int) -> float:
        """When the next piece of a body must have arrived (loop time), given when it began, when its
        last piece came and what it has sent."""
        return min(last + self.grace_s, start + self.grace_s + received / self.min_rate)

    def describe(self) -> str:
        return f"{self.min_rate / 1024:g} KB/s after its first {self.grace_s:g} s"


def too_large_message(size: int, limit: int) -> str:
    """'the upload is 31.5 MB; the limit for a photo is 20 MB'."""
    return f"the upload is {size / 1e6:.1f} MB; the limit for a photo is {limit // (1024 * 1024)} MB"


class BodyLimit:
    """ASGI middleware: at most ``max_body_bytes`` per request body (``photo_limit`` names the limit)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, photo_limit: int, timeout_s: float = 60.0,
                 pace: Pace | None = None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.photo_limit = photo_limit
        self.timeout_s = timeout_s
        self.pace = pace or Pace()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body_bytes:
            await self._drain(receive, declared)
            await send_json(send, status.HTTP_413_CONTENT_TOO_LARGE,
                            {"detail": too_large_message(declared, self.photo_limit)})
            return
        loop = asyncio.get_running_loop()
        start = last = loop.time()
        deadline = start + self.timeout_s
        received, complete = 0, False

        async def limited() -> Message:
            nonlocal received, complete, last
            if complete:  # the body is in: a later receive waits for the client to leave, untimed
                return await receive()
            due = min(deadline, self.pace.due(start, last, received))
            too_slow = due < deadline
            try:
                async with asyncio.timeout_at(due):  # a timer, not a task per chunk as wait_for makes
                    message = await receive()
            except TimeoutError:
                # Raised into the body parser: FastAPI answers it as it is; uvicorn then closes the
                # connection, since the body was not read to its end.
                raise HTTPException(status.HTTP_408_REQUEST_TIMEOUT,
                                    self._late_message(received, loop.time() - start, too_slow)) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                last, complete = loop.time(), not message.get("more_body", False)
                if received > self.max_body_bytes:
                    # FastAPI re-raises an HTTPException from body parsing as it is: a 413 JSON reason.
                    raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE,
                                        too_large_message(received, self.photo_limit) + " (or more)")
            return message

        await self.app(scope, limited, send)

    def _late_message(self, received: int, elapsed_s: float, too_slow: bool) -> str:
        arrived = f"{received / 1e6:.1f} MB arrived in {elapsed_s:.0f} s"
        if too_slow:
            return (f"the upload was too slow or stopped ({arrived}; at least {self.pace.describe()}); "
                    f"send it again on a better connection")
        return f"the upload took over {self.timeout_s:g} s ({arrived}); send it again on a better connection"

    async def _drain(self, receive: Receive, declared: int) -> None:
        if declared <= _DRAIN_FACTOR * self.max_body_bytes:
            await drain(receive, self.timeout_s)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def send_json(send: Send, status_code: int, body: dict,
                    extra_headers: list[tuple[bytes, bytes]] | None = None, more_body: bool = False) -> None:
    """Answer from a middleware: a JSON body, and the connection closed after it (after an empty last
    message when ``more_body``)."""
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status_code,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close"), *(extra_headers or [])]})
    await send({"type": "http.response.body", "body": payload, "more_body": more_body})


async def answer_then_drain(send: Send, receive: Receive, status_code: int, body: dict,
                            extra_headers: list[tuple[bytes, bytes]], timeout_s: float,
                            max_bytes: int) -> None:
    """Refuse a request whose body is still arriving: the whole answer sent at once, so that a client
    that stalled reads it now, then the rest of the body read and dropped (bounded as :func:`drain`)
    before the answer is ended and the connection closed, so that a client still sending reads the
    answer rather than a reset. (The server reads no more of a body once an answer has ended.)"""
    await send_json(send, status_code, body, extra_headers, more_body=True)
    await drain(receive, timeout_s, max_bytes)
    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def drain(receive: Receive, timeout_s: float, max_bytes: int | None = None) -> None:
    """Read and drop a request body, for at most ``timeout_s`` (a stalled client is not waited for)
    and, when given, ``max_bytes``."""
    received = 0
    try:
        async with asyncio.timeout(timeout_s):
            while True:
                message = await receive()
                received += len(message.get("body", b""))
                if message["type"] != "http.request" or not message.get("more_body", False):
                    return
                if max_bytes is not None and received > max_bytes:
                    return
    except TimeoutError:
        return
