"""The HTTP layer's bounds (issue 79), against the real server (api.server) on loopback, with short
timeouts: a request's head is bounded in size and time, an idle connection is closed, and a photo
upload that stalls or crawls holds no photo slot and is dropped with 408."""

import json
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
import uvicorn
from support import FakeRecognizer, free_port, show_photo

from api.main import create_app
from api.server import HttpLimits, raise_file_limit, server_config
from api.settings import Settings

SETTINGS = Settings(head_timeout_s=1.0, keep_alive_s=1, upload_grace_s=3.0, upload_min_rate=50_000,
                    photo_queue=0)
"""Seconds where production has ten: each test waits about as long as the bound it checks."""
WAIT_S = 10
"""Longest a test waits for the server to act: far past every bound above, so a failure is a hang cut
short, not a race."""


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[tuple[str, int], bytes]]:
    fake = FakeRecognizer()
    photo = fake.add(show_photo("5H 5D 5S JC 5C"))
    with live(create_app(SETTINGS, recognizer=fake)) as address:
        yield address, photo.jpeg


@contextmanager
def live(app) -> Iterator[tuple[str, int]]:
    """``app`` under api.server's config in a thread; yields its address."""
    port = free_port()
    config = server_config(app, SETTINGS, raise_file_limit(), host="127.0.0.1", port=port,
                           log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield "127.0.0.1", port
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def answer(sock: socket.socket) -> tuple[str, dict]:
    """The status line and JSON body the server sends, or ``("(closed)", {})`` when it closes first."""
    sock.settimeout(WAIT_S)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    if not data:
        return "(closed)", {}
    head, _, body = data.partition(b"\r\n\r\n")
    return head.split(b"\r\n", 1)[0].decode(), json.loads(body) if body else {}


def closed_by_server(sock: socket.socket) -> bool:
    """True when the server closes ``sock`` (sending nothing more) within WAIT_S."""
    sock.settimeout(WAIT_S)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:  # closed with bytes of ours unread
        return True
    except TimeoutError:
        return False


def post_photo(address: tuple[str, int], jpeg: bytes) -> httpx.Response:
    host, port = address
    return httpx.post(f"http://{host}:{port}/api/count", files={"photo": ("show.jpg", jpeg, "image/jpeg")},
                      timeout=WAIT_S)


UPLOAD_HEAD = (b"POST /api/count HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=B\r\n"
               b"Content-Length: 1000000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"photo\"; "
               b"filename=\"show.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n")
"""A photo upload's head and the start of its body, declaring 1 MB."""


def test_a_header_over_the_limit_is_refused_before_the_server_takes_it_all(server):
    address, _ = server
    sent, limit = 0, 8 * 2**20
    with socket.create_connection(address) as sock, selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ)
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\nX-Grow: ")
        while sent < limit and not sel.select(0.05):
            try:
                sock.sendall(b"a" * 65536)
            except OSError:  # reset: it stopped reading
                break
            sent += 65536
        status, body = answer(sock)
    assert sent < limit
    assert status.startswith("HTTP/1.1 431")
    assert body["detail"] == "the request line and headers are over 16 KB"


def test_too_many_header_lines_are_refused(server):
    address, _ = server
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\n" + b"X-A: a\r\n" * 101 + b"\r\n")
        status, body = answer(sock)
    assert status.startswith("HTTP/1.1 431")
    assert body["detail"] == "over 100 header lines"


def test_a_url_over_the_limit_is_refused(server):
    address, _ = server
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/health?q=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: test\r\n\r\n")
        status, body = answer(sock)
    assert status.startswith("HTTP/1.1 414")
    assert body["detail"] == "the URL is over 8192 bytes"


def test_a_silent_connection_is_closed_after_the_head_timeout(server):
    address, _ = server
    with socket.create_connection(address) as sock:
        assert closed_by_server(sock)


def test_a_head_sent_a_byte_at_a_time_is_cut_off_at_the_head_timeout(server):
    address, _ = server
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")
        for _ in range(int(WAIT_S / 0.2)):  # one header byte every 0.2 s: never a complete head
            time.sleep(0.2)
            try:
                sock.sendall(b"X")
            except OSError:
                break
        assert closed_by_server(sock)


def test_an_idle_kept_alive_connection_is_closed(server):
    address, _ = server
    with socket.create_connection(address) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n")
        sock.settimeout(WAIT_S)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        assert closed_by_server(sock)


def test_a_stalled_upload_holds_no_photo_slot(server):
    address, jpeg = server
    capacity = SETTINGS.photo_capacity
    stalled = [socket.create_connection(address) for _ in range(capacity + 2)]
    try:
        for sock in stalled:
            sock.sendall(UPLOAD_HEAD)
        time.sleep(0.2)  # the server has read their heads and the start of their bodies
        assert post_photo(address, jpeg).status_code == 200
    finally:
        for sock in stalled:
            sock.close()


def crawl(sock: socket.socket, piece: bytes, every_s: float) -> None:
    """Send ``piece`` every ``every_s`` until the server answers or WAIT_S passes."""
    with selectors.DefaultSelector() as sel:
        sel.register(sock, selectors.EVENT_READ)
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline and not sel.select(every_s):
            sock.sendall(piece)


@pytest.mark.parametrize("pace", ["stopped", "crawling"])
def test_a_too_slow_upload_gets_408(server, pace):
    address, _ = server
    with socket.create_connection(address) as sock:
        sock.sendall(UPLOAD_HEAD)
        if pace == "crawling":  # 10 KB/s where 50 KB/s is the least, past the grace
            crawl(sock, b"\xff" * 1000, 0.1)
        status, body = answer(sock)
    assert status.startswith("HTTP/1.1 408")
    assert "too slow or stopped" in body["detail"]


def test_the_connection_cap_stays_below_the_file_limit():
    limits = HttpLimits.from_settings(Settings(max_connections=4096), open_files=1024)
    assert limits.max_connections == 1024 - 128
