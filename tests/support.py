"""Test helpers for the API, CLI and page: drawn table photos, a recognizer double, a live server.

The recognizer double stands in for the ONNX models until they are trained; it
answers with the cards a photo was drawn with, keyed by the photo's size, and
with no cards for any photo it does not know. It lives here, under tests/,
and is handed to ``create_app(recognizer=...)``: the shipped code has no fakes.
"""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import pytest
import uvicorn

from api.main import create_app
from scorer.cards import Card, parse_cards
from vision.config import RecognizerConfig
from vision.decode import Photo
from vision.detections import Detections, Expected

FELT = (40, 110, 30)  # BGR table green


@dataclass
class DrawnPhoto:
    """A photo of cards on a table, and the detections a perfect recognizer would return."""

    jpeg: bytes
    detections: Detections
    size: tuple[int, int]


def draw_table(cards: str, centers: Sequence[tuple[float, float]], *, size: tuple[int, int] = (1600, 1200),
               card_px: tuple[int, int] = (200, 280), turned: Sequence[int] = ()) -> DrawnPhoto:
    """White cards with a rank+suit index in two corners on green felt; ``centers`` in pixels."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = FELT
    rng = np.random.default_rng(7)
    img = np.clip(img.astype(np.int16) + rng.integers(-12, 12, img.shape), 0, 255).astype(np.uint8)
    parsed = parse_cards(cards)
    all_indices, boxes = [], []
    for k, (card, (cx, cy)) in enumerate(zip(parsed, centers, strict=True)):
        cw, ch = card_px[::-1] if k in turned else card_px
        x0, y0 = int(cx - cw / 2), int(cy - ch / 2)
        cv2.rectangle(img, (x0, y0), (x0 + cw, y0 + ch), (250, 250, 250), cv2.FILLED)
        cv2.rectangle(img, (x0, y0), (x0 + cw, y0 + ch), (180, 180, 180), 2)
        colour = (30, 30, 200) if card.suit.is_red else (20, 20, 20)
        rank = str(card)[:-1]
        iw, ih = (64, 30) if k in turned else (30, 64)
        corners = [(x0 + 8, y0 + 8), (x0 + cw - 8 - iw, y0 + ch - 8 - ih)]
        for ix, iy in corners:
            cv2.putText(img, rank, (ix, iy + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2, cv2.LINE_AA)
            cv2.putText(img, card.suit.value, (ix + 2, iy + 58 if k not in turned else iy + 26),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2, cv2.LINE_AA)
        cv2.putText(img, rank + card.suit.value, (int(cx) - 40, int(cy) + 15), cv2.FONT_HERSHEY_SIMPLEX,
                    1.6, colour, 3, cv2.LINE_AA)
        ind = np.array([[x, y, x + iw, y + ih] for x, y in corners], np.float32)
        all_indices.append(ind)
        boxes.append([ind[:, 0].min(), ind[:, 1].min(), ind[:, 2].max(), ind[:, 3].max()])
    order = sorted(range(len(parsed)), key=lambda i: (boxes[i][0], boxes[i][1]))  # left to right
    dets = Detections(
        xyxy=np.array([boxes[i] for i in order], np.float32).reshape(-1, 4),
        confidence=np.array([0.99 - 0.004 * i for i in order], np.float32),  # above the check line
        cards=tuple(parsed[i] for i in order),
        indices=tuple(all_indices[i] for i in order),
    ) if parsed else Detections.empty()
    jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 88])[1].tobytes()
    return DrawnPhoto(jpeg, dets, size)


ROW_Y, STARTER_Y = 850, 380


def show_photo(cards: str = "5H 5D 5S JC 5C", size: tuple[int, int] = (1600, 1200)) -> DrawnPhoto:
    """Four cards in a row and the fifth (the starter) above them, as players lay out the show."""
    scale = size[0] / 1600
    row = [(260 + 300 * i, ROW_Y) for i in range(4)]
    centers = [(x * scale, y * scale) for x, y in row + [(710, STARTER_Y)]]
    n = len(parse_cards(cards))
    return draw_table(cards, centers[:n], size=size)


def spread_photo(cards: str, size: tuple[int, int]) -> DrawnPhoto:
    """Any number of cards in rows of five (the '9 cards' and '4 cards' photos)."""
    n = len(parse_cards(cards))
    centers = [(180 + 240 * (i % 5), 250 + 350 * (i // 5)) for i in range(n)]
    return draw_table(cards, centers, size=size)


@dataclass
class FakeRecognizer:
    """Test double for :class:`vision.pipeline.Recognizer`: cards by photo size, else none."""

    scenes: dict[tuple[int, int], Detections] = field(default_factory=dict)
    config: RecognizerConfig = field(default_factory=RecognizerConfig)
    calls: int = 0
    expected: list[Expected | None] = field(default_factory=list)
    """What each call was told the photo holds."""

    def add(self, photo: DrawnPhoto) -> DrawnPhoto:
        self.scenes[photo.size] = photo.detections
        return photo

    def configured(self, config: RecognizerConfig) -> FakeRecognizer:
        """The same photos read with other settings (a whole table's), as the real recognizer's models
        are shared: the scenes and what each call was told are kept in one place."""
        return replace(self, config=config)

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        self.calls += 1
        self.expected.append(expected)
        return self.scenes.get(photo.original_size, Detections.empty())


def as_heic(img: np.ndarray, fmt: str = "HEIF", orientation: int | None = None) -> bytes:
    """``img`` (BGR) saved as an iPhone saves its photos (HEIC, through pillow-heif), or as ``fmt``
    ("AVIF"), with the EXIF ``orientation`` tag where one is given."""
    import io

    import pillow_heif
    from PIL import Image

    pillow_heif.register_heif_opener()
    image = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    exif = image.getexif()
    if orientation is not None:
        exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, format=fmt, exif=exif.tobytes(), quality=90)
    return out.getvalue()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def live_server(app) -> Iterator[str]:  # app: a FastAPI app
    """Run ``app`` under uvicorn in a thread; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def card(text: str) -> Card:
    return Card.parse(text)


# -- the page in a real browser -------------------------------------------------------------------

CHROMIUM = __import__("shutil").which("chromium") or "/usr/bin/chromium"
"""Debian's Chromium (scripts/setup.sh installs it): Playwright drives it, never a downloaded one."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def chromium() -> Iterator:
    """Headless Chromium under Playwright; yields the browser (a page test's module fixture wraps it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def needs_chromium():
    """A page test module's first call: skips the module where Playwright (the dev extra) or Debian's
    Chromium is missing, as the page's files are still checked without them; returns playwright.sync_api."""
    playwright = pytest.importorskip("playwright.sync_api", reason="playwright (dev extra) is not installed")
    if not __import__("pathlib").Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (scripts/setup.sh installs it)",
                    allow_module_level=True)
    return playwright


def wait_until(page, expression: str, timeout_s: float = 10.0) -> None:
    """Poll ``expression`` in the page until it is truthy. Playwright's ``wait_for_function`` compiles
    its predicate with ``eval`` inside the page, which the page's Content-Security-Policy forbids
    (no 'unsafe-eval'); ``page.evaluate`` goes through the DevTools protocol, which the policy allows."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout_s:.0f} s: {expression}")
        page.wait_for_timeout(50)


def phone_page(browser, width: int = 390, height: int = 844):
    """A new page as a phone shows it: touch, a 2x screen, ``width`` x ``height`` CSS pixels."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    return context.new_page()


@contextmanager
def serving(*photos: DrawnPhoto) -> Iterator[str]:
    """The app on a live server, its recognizer double reading ``photos``; yields the base URL."""
    fake = FakeRecognizer()
    for photo in photos:
        fake.add(photo)
    with live_server(create_app(recognizer=fake)) as url:
        yield url


# -- the shipped sample photos and the real models ------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
SAMPLES_CSV = ROOT / "sample_images" / "cards.csv"
MODELS_READY = all((ROOT / "models" / name).is_file() for name in ("detector.onnx", "classifier.onnx"))


@dataclass(frozen=True)
class Sample:
    """One photo in sample_images/ with what it should count (sample_images/cards.csv)."""

    path: object
    cards: tuple[Card, ...]
    starter: Card | None
    crib: bool
    total: int


def load_samples() -> list[Sample]:
    """Rows of ``sample_images/cards.csv``: file, cards, starter, crib, total (starter/crib optional)."""
    import csv

    if not SAMPLES_CSV.is_file():
        return []
    with SAMPLES_CSV.open(newline="") as f:
        rows = list(csv.DictReader(f))
    return [Sample(path=SAMPLES_CSV.parent / r["file"], cards=parse_cards(r["cards"]),
                   starter=Card.parse(r["starter"]) if r.get("starter") else None,
                   crib=(r.get("crib") or "").strip().lower() in ("1", "true", "yes", "crib"),
                   total=int(r["total"]))
            for r in rows if r.get("total", "").strip()]


def real_models_reason() -> str | None:
    """Why the real-model checks cannot run, or None when they can."""
    if not MODELS_READY:
        return "models/detector.onnx and models/classifier.onnx are not trained yet"
    if not load_samples():
        return "sample_images/cards.csv (file,cards,starter,crib,total) is not there yet"
    return None


STALL_HEAD = (b"--stall\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\n"
              b"Content-Type: image/jpeg\r\n\r\n")


def stalled_upload(url: str, declared: int, sent: int) -> socket.socket:
    """A client that says it sends ``declared`` bytes of body to /api/count, sends ``sent`` of them (the
    form's head first, then photo bytes) and waits."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)))
    sock.sendall(f"POST /api/count HTTP/1.1\r\nHost: {host}\r\nContent-Length: {declared}\r\n"
                 f"Content-Type: multipart/form-data; boundary=stall\r\n\r\n".encode() + STALL_HEAD)
    sock.sendall(b"\xff" * (sent - len(STALL_HEAD)))
    return sock


def still_waiting(sock: socket.socket) -> bool:
    """True while the server has neither answered nor closed ``sock``: nothing to read on it yet."""
    readable, _, _ = select.select([sock], [], [], 0)
    return not readable
