"""The front docs/deploy.md recommends, run for real: nginx with ``deploy/nginx.conf`` (its two
placeholders filled as ``envsubst`` would) on loopback in front of ``cribcount serve``.

A photo counts through it, and issue 79's HTTP-layer probes (``benchmarks/hostile_http.py``, rows 1,
2, 3, 5 and 12) are refused or bounded by it: the assertions are what happens, never how fast (the
probe script prints the figures).
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support import ROOT, load_samples, real_models_reason

from benchmarks.hostile_http import (
    MB,
    NGINX,
    NGINX_CONF,
    SAMPLE,
    Target,
    boundary_flood,
    grow_header,
    health_ms,
    hold_silent,
    idle_uploads,
    missing_page_headers,
    nginx_front,
    post_at_once,
    render_nginx_conf,
    start_service,
    status_line,
)

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/setup.sh installs it)"),
    pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason())),
]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    """The service, and nginx in front of it: the target is the proxy."""
    folder = tmp_path_factory.mktemp("front")
    with start_service(folder / "service") as service, nginx_front(service.base, folder / "nginx") as base:
        yield Target(base)


def test_the_docs_name_the_config_and_its_placeholders():
    docs = (ROOT / "docs" / "deploy.md").read_text()
    assert "deploy/nginx.conf" in docs
    assert "envsubst '$LISTEN $UPSTREAM'" in docs
    assert set(re.findall(r"\$\{([A-Z_]+)\}", NGINX_CONF.read_text())) == {"LISTEN", "UPSTREAM"}
    conf = render_nginx_conf("127.0.0.1:8080", "127.0.0.1:8000")
    assert "listen 127.0.0.1:8080;" in conf and "server 127.0.0.1:8000 max_fails=0;" in conf


def test_a_photo_counts_through_the_proxy(proxy: Target):
    sample = next(s for s in load_samples() if Path(str(s.path)) == SAMPLE)
    res = httpx.post(f"{proxy.base}/api/count", timeout=60,
                     files={"photo": (SAMPLE.name, SAMPLE.read_bytes(), "image/jpeg")})
    assert res.status_code == 200
    assert res.json()["show"]["total"] == sample.total


@pytest.mark.parametrize("where", ["header", "url"])
def test_a_header_or_url_past_8_kb_is_refused_before_1_mb(proxy: Target, where: str):
    flood = grow_header(proxy, where, limit_bytes=4 * MB)
    assert flood.refused and flood.taken_bytes < MB
    assert flood.answer.startswith(("HTTP/1.1 400", "HTTP/1.1 414"))


def test_a_body_over_21_mb_is_refused_before_it_is_sent(proxy: Target):
    with socket.create_connection(proxy.address, timeout=10) as sock:
        sock.sendall(b"POST /api/count HTTP/1.1\r\nHost: probe\r\nContent-Type: multipart/form-data; "
                     b"boundary=B\r\nContent-Length: 30000000\r\n\r\n")
        assert status_line(sock, 10).startswith("HTTP/1.1 413")


def test_silent_connections_are_closed_while_health_answers(proxy: Target):
    silent = hold_silent(proxy, 300, wait_s=20)  # nginx drops them at client_header_timeout (10 s)
    assert (silent.opened, silent.refused) == (300, 0)
    assert silent.closed_within(20) == 300
    assert silent.health_failed == 0 and silent.health_answered > 0


def test_idle_uploads_hold_no_photo_slot(proxy: Target):
    assert idle_uploads(proxy, SAMPLE.read_bytes(), photos=3, every_s=0.5) == (200, 200, 200)


def test_a_near_boundary_flood_is_refused_and_health_still_answers(proxy: Target):
    body, kind = boundary_flood()
    burst = post_at_once(proxy, "/api/count", body, kind, at_once=2, health=False)
    assert all(400 <= status < 500 for status in burst.statuses)
    assert health_ms(proxy) is not None


def test_the_page_has_the_security_headers(proxy: Target):
    assert missing_page_headers(proxy) == ()
