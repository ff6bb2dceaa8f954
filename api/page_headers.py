"""The headers that keep the phone page to itself: what it may load, who may frame it, what it tells
other sites.

The page is ES modules, a style sheet and icons from ``/static``, talking to this origin's API only,
with no inline script or style (a test holds ``index.html`` to that), so its Content-Security-Policy
allows this origin alone: an injected ``<script>`` or ``onclick`` does not run, and no other site may
frame it to trick a tap (``frame-ancestors``). Every answer, the API's included, gets ``nosniff`` (a
JSON reason or a photo-sized error is never run as a script), no referrer, and ``DENY`` for frames.
``/docs`` keeps its own inline start-up script, so the policy is the page's, not every answer's.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",  # the photo's preview is a blob: URL of the file picked
    "connect-src 'self'",
    "worker-src 'self'",  # the service worker, /sw.js
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
"""The page's Content-Security-Policy."""

PAGE_HEADERS = {"Content-Security-Policy": PAGE_POLICY}
"""Headers of the page itself (``GET /``), besides those :class:`SafeHeaders` gives every answer."""

EVERY_ANSWER = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors' older spelling, for browsers before CSP 2
)


class SafeHeaders:
    """ASGI middleware: :data:`EVERY_ANSWER` added to every HTTP answer that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", ())}
                extra = [(name, value) for name, value in EVERY_ANSWER if name not in present]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
