"""Small uploads (issue 78): the page shrinks a phone's 12 MP photo before sending it, upright, and
sends a small one as it is. In a real headless Chromium; the server's recognizer is the double
(the cards read from shrunk and full photos are compared with the real models in the slow test,
which runs benchmarks/page_uploads.py on ../shared/photos/poker-cards-4 and skips without it).
"""

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image
from support import FakeRecognizer, live_server, needs_chromium, real_models_reason, show_photo

from api.main import create_app
from benchmarks.page_uploads import POKER_CARDS, measure, recording_sizes, report
from vision.decode import Photo
from vision.detections import Detections, Expected

playwright = needs_chromium()

UPLOAD_BUDGET = 600 * 1024


@dataclass
class Keeping(FakeRecognizer):
    """The recognizer double, keeping the size of each photo it is handed (upright: EXIF applied)."""

    sizes: list[tuple[int, int]] = field(default_factory=list)

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        self.sizes.append(photo.original_size)
        return super().recognize_photo(photo, expected)


def twelve_mp_turned(path: Path) -> Path:
    """A 4000x3000 phone photo of a show, stored sideways with EXIF orientation 6 (turn 90° clockwise
    to view), noisy so that it weighs what a phone's does (3-5 MB)."""
    drawn = cv2.imdecode(np.frombuffer(show_photo().jpeg, np.uint8), cv2.IMREAD_COLOR)
    big = cv2.resize(drawn, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    big = np.clip(big + np.random.default_rng(0).normal(0, 4, big.shape), 0, 255).astype(np.uint8)
    image = Image.fromarray(cv2.cvtColor(big, cv2.COLOR_BGR2RGB))
    exif = image.getexif()
    exif[0x0112] = 6
    image.save(path, quality=92, exif=exif.tobytes())
    return path


def sent_through_page(browser, photo: Path) -> tuple[int, Keeping]:
    """Choose ``photo`` in the Count view; the bytes sent to /api/count, and the recognizer double."""
    fake = Keeping()
    sizes: list[int] = []
    with live_server(recording_sizes(create_app(recognizer=fake), sizes)) as url:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(url)
        with page.expect_response(f"{url}/api/count"):
            page.set_input_files("#photo", str(photo))
        page.context.close()
    return sizes[-1], fake


def test_a_12_mp_photo_goes_up_upright_and_under_600_kb(browser, tmp_path):
    photo = twelve_mp_turned(tmp_path / "IMG_0001.jpg")
    assert photo.stat().st_size > 2_000_000
    sent, fake = sent_through_page(browser, photo)
    assert sent <= UPLOAD_BUDGET
    assert fake.sizes == [(1500, 2000)]  # long side 2,000 px, turned upright as the EXIF tag says


def test_a_photo_already_small_goes_as_it_is(browser, tmp_path):
    photo = tmp_path / "small.jpg"
    photo.write_bytes(show_photo().jpeg)
    sent, fake = sent_through_page(browser, photo)
    assert fake.sizes == [(1600, 1200)]
    assert photo.stat().st_size < sent < photo.stat().st_size + 1024  # the file, and the form around it


def test_the_server_still_takes_a_full_12_mp_file(tmp_path):
    from fastapi.testclient import TestClient

    photo = twelve_mp_turned(tmp_path / "IMG_0002.jpg")
    fake = Keeping()
    with TestClient(create_app(recognizer=fake)) as client:
        sent = {"photo": ("IMG_0002.jpg", photo.read_bytes(), "image/jpeg")}
        answer = client.post("/api/count", files=sent)
    assert answer.status_code == 422  # read, but the double knows no photo of this size: no cards
    assert fake.sizes == [(3000, 4000)]


@pytest.mark.slow
@pytest.mark.skipif(not (POKER_CARDS / "images").is_dir(), reason=f"no photos at {POKER_CARDS}")
@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_the_page_reads_the_same_cards_from_the_shrunk_photo_as_from_the_full_file():
    uploads = measure(POKER_CARDS)
    print(report(uploads))
    assert max(u.sent_bytes for u in uploads) <= UPLOAD_BUDGET
    assert sum(u.differences for u in uploads) <= 1
