"""Bad uploads against a real uvicorn server: each gets a 4xx JSON reason, and the server keeps serving;
uploads past the memory budget for uploads in progress are told busy at once."""

import http.client
import json
import socket
import time

import cv2
import httpx
import numpy as np
import pytest
from support import (
    FakeRecognizer,
    as_heic,
    live_server,
    show_photo,
    spread_photo,
    stalled_upload,
    still_waiting,
)

from api.main import create_app
from api.settings import Settings

NINE = "AH 2H 3H 4H 5H 6H 7H 8H 9H"


@pytest.fixture(scope="module")
def server():
    fake = FakeRecognizer()
    good = fake.add(show_photo("5H 5D 5S JC 5C"))
    nine = fake.add(spread_photo(NINE, size=(1300, 1000)))
    with live_server(create_app(recognizer=fake)) as url:
        yield url, good, nine


def jpeg(img: np.ndarray, quality: int = 80) -> bytes:
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


def bad_upload(kind: str, nine_cards: bytes) -> bytes:
    """The bytes of each kind of bad upload (built lazily: some are large)."""
    table = np.full((900, 1200, 3), (40, 110, 30), np.uint8)
    if kind == "empty":
        return b""
    if kind == "text":
        return b"Fifteen two, fifteen four, and a pair is six.\n" * 20
    if kind == "truncated":
        return jpeg(table)[: len(jpeg(table)) // 2]
    if kind == "30 MB":
        return jpeg(table) + b"\0" * (30 * 1024 * 1024)
    if kind == "just over 20 MB":  # passes the body limit, caught when decoding
        return jpeg(table) + b"\0" * (20 * 1024 * 1024 + 10_000)
    if kind == "60 MP":
        return jpeg(np.zeros((6000, 10000), np.uint8), 50)
    if kind == "no cards":
        return jpeg(table)
    if kind == "greyscale":
        return jpeg(cv2.cvtColor(table, cv2.COLOR_BGR2GRAY))
    if kind == "9 cards":
        return nine_cards
    if kind == "damaged HEIC":
        photo = as_heic(table)
        return photo[: len(photo) // 2]
    raise AssertionError(kind)


@pytest.mark.parametrize("kind,status,reason", [
    ("empty", 422, "photo: the file is empty"),
    ("text", 422, "photo: the file is not an image"),
    ("truncated", 422, "photo: the JPEG is truncated"),
    ("30 MB", 413, "the upload is 31.5 MB; the limit for a photo is 20 MB"),
    ("just over 20 MB", 413, "the limit is 20 MB"),
    ("60 MP", 422, "the image is 10000x6000 (60 megapixels); the limit is 50 megapixels"),
    ("no cards", 422, "no cards seen"),
    ("greyscale", 422, "photo: the photo is greyscale: without colour hearts and diamonds cannot be told"),
    ("9 cards", 422,
     "9 cards seen (AH 6H 2H 7H 3H 8H 4H 9H 5H); a show is 4 cards and the starter, 5 in all"),
    ("damaged HEIC", 422, "photo: the HEIC/HEIF or AVIF photo cannot be decoded (damaged or cut short)"),
])
def test_bad_upload_gets_a_reason_and_the_server_keeps_serving(server, kind, status, reason):
    url, good, nine = server
    with httpx.Client(base_url=url, timeout=60) as client:
        upload = ("upload.jpg", bad_upload(kind, nine.jpeg), "image/jpeg")
        res = client.post("/api/count", files={"photo": upload})
        assert res.status_code == status, res.text
        assert res.headers["content-type"] == "application/json"
        assert reason in res.json()["detail"]
    # A fresh connection: the server is still up and still counts.
    with httpx.Client(base_url=url, timeout=60) as client:
        assert client.get("/api/health").json()["status"] == "ok"
        ok = client.post("/api/count", files={"photo": ("good.jpg", good.jpeg, "image/jpeg")})
        assert ok.status_code == 200 and ok.json()["show"]["total"] == 29


def test_nine_cards_come_back_with_their_boxes(server):
    url, _, nine = server
    files = {"photo": ("nine.jpg", nine.jpeg, "image/jpeg")}
    body = httpx.post(f"{url}/api/count", files=files, timeout=60).json()
    assert [c["card"] for c in body["cards"]] == [str(c) for c in nine.detections.cards]
    assert sorted(c["card"] for c in body["cards"]) == sorted(NINE.split())
    assert body["image"] == {"width": 1300, "height": 1000}


def test_a_chunked_upload_over_the_limit_is_cut_off(server):
    url, _, _ = server

    def chunks():
        yield (b"--cut\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"big.jpg\"\r\n"
               b"Content-Type: image/jpeg\r\n\r\n\xff\xd8")
        for _ in range(22):
            yield b"\0" * (1024 * 1024)
        yield b"\xff\xd9\r\n--cut--\r\n"

    # No Content-Length: the limit is enforced while the body streams in.
    res = httpx.post(f"{url}/api/count", content=chunks(), timeout=60,
                     headers={"content-type": "multipart/form-data; boundary=cut"})
    assert res.status_code == 413
    assert "the limit for a photo is 20 MB" in res.json()["detail"]
    assert httpx.get(f"{url}/api/health", timeout=10).status_code == 200


def test_an_iphone_heic_photo_counts_as_its_jpeg_does(server):
    url, good, _ = server
    photo = as_heic(cv2.imdecode(np.frombuffer(good.jpeg, np.uint8), cv2.IMREAD_COLOR))
    res = httpx.post(f"{url}/api/count", files={"photo": ("IMG_0001.HEIC", photo, "image/heic")}, timeout=60)
    assert res.status_code == 200, res.text
    assert res.json()["show"]["total"] == 29


def read_answer(sock: socket.socket) -> tuple[int, str | None, str]:
    """(status, Retry-After, detail) of the answer on ``sock``, which is then closed."""
    sock.settimeout(60)
    res = http.client.HTTPResponse(sock)
    res.begin()
    answer = res.status, res.getheader("retry-after"), json.loads(res.read())["detail"]
    sock.close()
    return answer


def wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.01)


def test_uploads_past_the_budget_are_told_busy_at_once_while_those_within_it_are_held():
    """Budget 5 MB, uploads of 2 MB that stall: two are held (4 MB), the next three would pass the
    budget and are answered 503 while the two still hang; a photo sent meanwhile is counted; the two
    held are dropped 408 at the read timeout."""
    fake = FakeRecognizer()
    good = fake.add(show_photo("5H 5D 5S JC 5C"))
    app = create_app(Settings(upload_timeout_s=10, retry_after_s=4), recognizer=fake)
    admission = app.state.admission
    admission.upload_budget_bytes = 5 * 2**20
    sent = 2 * 2**20
    with live_server(app) as url:
        held = []
        for n in (1, 2):  # one at a time, so that these two are the ones within the budget
            held.append(stalled_upload(url, sent + 2**20, sent))
            wait_for(lambda n=n: admission.receiving_bytes == n * sent, f"{n} uploads held")
        refused = [read_answer(stalled_upload(url, sent + 2**20, sent)) for _ in range(3)]
        held_bytes = admission.receiving_bytes
        photo = httpx.post(f"{url}/api/count", files={"photo": ("good.jpg", good.jpeg, "image/jpeg")},
                           timeout=60)
        held_throughout = all(still_waiting(s) for s in held)
        dropped = [read_answer(s)[0] for s in held]
        wait_for(lambda: admission.receiving_bytes == 0, "all uploads' bytes given back")
    assert refused == [(503, "4", "busy: uploads under way hold 5 MB, the most this server keeps; "
                                  "try again in 4 s")] * 3
    assert held_bytes == 2 * sent  # the refused uploads hold nothing
    assert photo.status_code == 200 and photo.json()["show"]["total"] == 29
    assert held_throughout  # else the answers above did not come before the read timeout (a slow machine)
    assert dropped == [408, 408]
