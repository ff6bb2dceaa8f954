"""Every input capped before work: a typed body's size and a photo form's parts, counted as the bytes
arrive, before any parser sees them.

A JSON body of millions of cards cost 4.5 s and 200 MB to parse before the six-card rule could
refuse it; a 20 MB photo part of ``\\r\\n--B`` repeated (a line that starts like the form's
boundary) kept python-multipart's per-byte loop busy 2.5 s in the event loop, where random bytes
take 0.05 s (issue 79). A typed body needs a few hundred bytes, and a photo form a handful of
parts, so both are counted in C-speed byte scans and refused with 413 or 400 JSON the moment they
pass their cap: what was read is at most the cap plus one chunk, and the rest is read and dropped
(bounded in time and bytes) so the client reads the answer instead of a reset connection.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, status
from python_multipart.multipart import parse_options_header
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.limits import drain

MAX_TYPED_BYTES = 64 * 1024
"""The largest body that is not a photo form: a full four-player play (16 cards, a few goes) is about
300 bytes of JSON, a practice answer at most 1,000 characters."""
MAX_FORM_PARTS = 64
"""Parts in a photo form: /api/count sends 4 (photo, crib, starter, claim), /api/referee at most 46
(its five repeatable entries 8 times each). Each costs the parser a few microseconds."""


@dataclass
class TypedBodyCount:
    """Bytes of a body that is not a multipart form (mutable: fed chunk by chunk)."""

    received: int = 0

    def feed(self, chunk: bytes) -> HTTPException | None:
        self.received += len(chunk)
        if self.received <= MAX_TYPED_BYTES:
            return None
        return HTTPException(status.HTTP_413_CONTENT_TOO_LARGE,
                             f"the request body is over {MAX_TYPED_BYTES // 1024} KB; typed cards, a play "
                             f"or a count take a few hundred bytes")


@dataclass
class FormPartCount:
    """Delimiter lines (``CRLF--boundary``) in a multipart body, counted across chunks (mutable).

    Each part but the first starts with one and the form ends with one, so a form of ``n`` parts has
    ``n``; RFC 2046 forbids the line inside a part, so more than the parts a photo form has is a
    body built to cost the parser."""

    delimiter: bytes
    found: int = 0
    tail: bytes = b""
    """The end of the last chunk, shorter than the delimiter: one split across chunks is counted once."""

    def feed(self, chunk: bytes) -> HTTPException | None:
        window = self.tail + chunk
        self.found += window.count(self.delimiter)
        self.tail = window[-(len(self.delimiter) - 1):]
        if self.found <= MAX_FORM_PARTS:
            return None
        return HTTPException(status.HTTP_400_BAD_REQUEST,
                             f"the form has over {MAX_FORM_PARTS} parts, or the photo holds the form's "
                             f"boundary line; send the photo as one part")


def body_count(scope: Scope) -> TypedBodyCount | FormPartCount:
    """What bounds this request's body: its form's parts for a multipart form with a boundary, else its
    size."""
    kind = next((v for k, v in scope["headers"] if k == b"content-type"), b"")
    media, options = parse_options_header(kind)
    boundary = options.get(b"boundary")
    if media == b"multipart/form-data" and boundary:
        return FormPartCount(b"\r\n--" + boundary)
    return TypedBodyCount()


class InputCaps:
    """ASGI middleware: each request body counted by :func:`body_count` as it arrives, refused (4xx
    JSON, from the route's body parsing) once past its cap. Placed inside the body-size limit
    (:class:`api.limits.BodyLimit`), so the drain after a refusal is bounded by it as well."""

    def __init__(self, app: ASGIApp, drain_timeout_s: float, drain_max_bytes: int) -> None:
        self.app = app
        self.drain_timeout_s = drain_timeout_s
        self.drain_max_bytes = drain_max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        count = body_count(scope)

        async def capped() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                refusal = count.feed(message.get("body", b""))
                if refusal is not None:
                    if message.get("more_body", False):
                        await drain(receive, self.drain_timeout_s, self.drain_max_bytes)
                    # Raised into the route's body parsing: FastAPI answers an HTTPException as it is.
                    raise refusal
            return message

        await self.app(scope, capped, send)
