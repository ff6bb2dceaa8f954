"""The HTTP server: uvicorn with h11, and the bounds it keeps on a connection before the app sees a request.

uvicorn alone keeps a connection that never sends a byte for as long as the client likes, and its
default parser (httptools) takes a header of any size: issue 79 held ``/api/health`` 5 s with one
128 MB header and ran a 1,024-file server out of descriptors with 1,100 silent connections. Here:

- the request line and headers together are at most ``max_head_bytes`` (h11's own buffer limit, 431),
  the URL at most ``max_url_bytes`` (414) and at most ``max_headers`` header lines (431);
- a request's head must be complete within ``head_timeout_s`` of the connection (or of the previous
  answer), and a kept-alive connection silent for ``keep_alive_s`` is closed (uvicorn's own timer);
- at most ``max_connections`` open at once, below the file limit (its soft limit raised to the hard
  one at start): past it, the oldest connection still waiting for its request's head is closed.

Why h11 and these figures: docs/deploy.md, "The server".
"""

from __future__ import annotations

import asyncio
import json
import resource
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, H11Protocol
from uvicorn.supervisors import Multiprocess

from api.settings import Settings

FILE_RESERVE = 128
"""Descriptors a server process keeps for other than connections: its photo workers' pipes, the
models, logs, the listening socket."""


@dataclass(frozen=True)
class HttpLimits:
    """What one connection may cost the server before its request reaches the app."""

    max_head_bytes: int
    max_url_bytes: int
    max_headers: int
    head_timeout_s: float
    keep_alive_s: int
    max_connections: int

    @classmethod
    def from_settings(cls, settings: Settings, open_files: int) -> HttpLimits:
        """The limits of ``settings``, the connections capped below ``open_files`` (the soft limit)."""
        cap = max(1, min(settings.max_connections, open_files - FILE_RESERVE))
        return cls(settings.max_head_bytes, settings.max_url_bytes, settings.max_headers,
                   settings.head_timeout_s, settings.keep_alive_s, cap)


def raise_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit (systemd gives a service 1,024
    soft and 524,288 hard); the soft limit now. Worker processes started after inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # a container may refuse; the connection cap follows what is left
            pass
    return soft


class ServerConfig(uvicorn.Config):
    """uvicorn's Config carrying the :class:`HttpLimits` to each connection's protocol (pickled with the
    config into each server process when there are several)."""

    def __init__(self, app: Any, http_limits: HttpLimits, **kwargs: Any) -> None:
        super().__init__(app, http=BoundedH11Protocol, timeout_keep_alive=http_limits.keep_alive_s,
                         h11_max_incomplete_event_size=http_limits.max_head_bytes, **kwargs)
        self.http_limits = http_limits


def server_config(app: Any, settings: Settings, open_files: int, **kwargs: Any) -> ServerConfig:
    """The config of a server for ``app`` (an ASGI app, or an import string with ``factory=True``)."""
    return ServerConfig(app, HttpLimits.from_settings(settings, open_files), timeout_graceful_shutdown=10,
                        **kwargs)


def serve(app: str, host: str, port: int, workers: int, settings: Settings) -> None:
    """Run the server until it is stopped: ``workers`` processes on one socket when more than one."""
    config = server_config(app, settings, raise_file_limit(), factory=True, host=host, port=port,
                           workers=workers)
    if workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
    else:
        uvicorn.Server(config).run()


class _BoundedConnection(h11.Connection):
    """h11's connection that also refuses a long URL or too many headers, and remembers why it refused
    a request so that the answer can say so."""

    def __init__(self, limits: HttpLimits, max_head_bytes: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=max_head_bytes)
        self.limits = limits
        self.refusal: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            event = super().next_event()
            if isinstance(event, h11.Request):
                self._check(event)
        except h11.RemoteProtocolError as exc:
            self.refusal = exc
            raise
        return event

    def _check(self, request: h11.Request) -> None:
        if len(request.target) > self.limits.max_url_bytes:
            raise h11.RemoteProtocolError(f"the URL is over {self.limits.max_url_bytes} bytes",
                                          error_status_hint=414)
        if len(request.headers) > self.limits.max_headers:
            raise h11.RemoteProtocolError(f"over {self.limits.max_headers} header lines",
                                          error_status_hint=431)


def refusal_detail(exc: h11.RemoteProtocolError | None, limits: HttpLimits) -> tuple[int, str]:
    """(status, reason) for a request the parser refused."""
    if exc is None:
        return 400, "malformed HTTP request"
    if exc.error_status_hint == 431 and str(exc) == "Receive buffer too long":
        return 431, f"the request line and headers are over {limits.max_head_bytes // 1024} KB"
    status = exc.error_status_hint if 400 <= exc.error_status_hint < 500 else 400
    return status, f"malformed HTTP request: {exc}" if status == 400 else str(exc)


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a head timeout, the connection cap and a JSON reason on refusal."""

    def __init__(self, config: ServerConfig, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.limits = config.http_limits
        # uvicorn's own connection, made again to refuse more; its head limit is the config's
        self.conn = _BoundedConnection(self.limits, config.h11_max_incomplete_event_size)
        self.head_timer: asyncio.TimerHandle | None = None
        self.linger_timer: asyncio.TimerHandle | None = None

    @property
    def waiting_for_head(self) -> bool:
        """True between requests: no request of this connection is being read or answered."""
        return self.head_timer is not None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()
        if len(self.connections) > self.limits.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head_timer()
        if self.linger_timer is not None:
            self.linger_timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the head is complete (or refused)
            self._disarm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if self.conn.their_state is h11.IDLE:
            self._arm_head_timer()  # the next request's head has as long as the first one's
        elif self.conn.their_state is h11.SEND_BODY:  # answered before its body came (a 408, a 503)
            # The rest of the body is read and dropped, so that the client reads the answer rather
            # than a reset, but only for keep_alive_s: each byte would otherwise renew uvicorn's timer.
            self.linger_timer = self.loop.call_later(self.limits.keep_alive_s, self.transport.close)

    def send_400_response(self, msg: str) -> None:
        """Answer a refused request with its status and a JSON reason, then close (uvicorn's is a
        plain-text 400 whatever the cause)."""
        status, detail = refusal_detail(self.conn.refusal, self.limits)
        body = json.dumps({"detail": detail}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close")]
        head = h11.Response(status_code=status, headers=headers, reason=STATUS_PHRASES[status])
        for event in (head, h11.Data(data=body),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self.head_timer = self.loop.call_later(self.limits.head_timeout_s, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_timed_out(self) -> None:
        """No complete request head in time: close without an answer, as nginx does."""
        self.head_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def _make_room(self) -> None:
        """Past the cap: close the connection that has waited longest for its request's head (often
        this new one's elder by seconds), so that a request under way is never cut off."""
        idle = [c for c in self.connections if isinstance(c, BoundedH11Protocol) and c.waiting_for_head
                and not c.transport.is_closing()]
        oldest = min(idle, key=lambda c: c.head_timer.when() if c.head_timer else 0.0, default=self)
        oldest.transport.close()
