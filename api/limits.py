"""Refuse request bodies over the photo limit before they are read into memory.

A photo is read whole (it is processed in memory and never written to disk),
so the body size must be bounded before the multipart parser buffers it. A
body that declares a larger ``Content-Length`` is drained without being kept
and answered 413, so the client reads the reason instead of a reset connection;
a chunked body is cut off with 413 as soon as it passes the limit. A body must also arrive within
``timeout_s`` (uvicorn has no body-read timeout): a slow or stalled upload is dropped with 408, and
the memory it held is freed, where 40 stalled 19 MB uploads used to hold 740 MB for as long as
their clients liked.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import HTTPException, status
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Past this many bytes a client sending an oversized body is not worth draining: drop the connection.
_DRAIN_FACTOR = 8


def too_large_message(size: int, limit: int) -> str:
    """'the upload is 31.5 MB; the limit for a photo is 20 MB'."""
    return f"the upload is {size / 1e6:.1f} MB; the limit for a photo is {limit // (1024 * 1024)} MB"


class BodyLimit:
    """ASGI middleware: at most ``max_body_bytes`` per request body (``photo_limit`` names the limit)."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, photo_limit: int, timeout_s: float = 60.0) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.photo_limit = photo_limit
        self.timeout_s = timeout_s

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
        received = 0
        deadline = asyncio.get_running_loop().time() + self.timeout_s

        async def limited() -> Message:
            nonlocal received
            try:
                async with asyncio.timeout_at(deadline):  # a timer, not a task per chunk as wait_for makes
                    message = await receive()
            except TimeoutError:
                # Raised into the body parser: FastAPI answers it as it is; uvicorn then closes the
                # connection, since the body was not read to its end.
                raise HTTPException(status.HTTP_408_REQUEST_TIMEOUT,
                                    f"the upload took over {self.timeout_s:g} s ({received / 1e6:.1f} MB "
                                    f"arrived); send it again on a better connection") from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    # FastAPI re-raises an HTTPException from body parsing as it is: a 413 JSON reason.
                    raise HTTPException(status.HTTP_413_CONTENT_TOO_LARGE,
                                        too_large_message(received, self.photo_limit) + " (or more)")
            return message

        await self.app(scope, limited, send)

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
                    extra_headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer from a middleware: a JSON body, and the connection closed after it."""
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status_code,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close"), *(extra_headers or [])]})
    await send({"type": "http.response.body", "body": payload})


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
