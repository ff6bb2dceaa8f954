"""Small uploads through the page's own code: each real photo made a 12 MP JPEG, chosen in the
page in Chromium (shrink.js shrinks it before sending), and the cards the server read from what the
page sent compared with those it reads from the full file (posted as a CLI or another client would).

    python -m benchmarks.page_uploads [FOLDER] [--limit N]

FOLDER defaults to ../shared/photos/poker-cards-4 (its images/ are read in place, never copied).
Prints each photo's full and sent sizes and any card read differently, then the totals; never
asserts (the slow test in tests/api/test_page_uploads.py does).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import httpx

from benchmarks.vision import make_12mp_jpeg

ROOT = Path(__file__).resolve().parent.parent
POKER_CARDS = ROOT.parent / "shared" / "photos" / "poker-cards-4"


@dataclass(frozen=True)
class Upload:
    """One photo: its bytes as a 12 MP file and as the page sent it, and the cards read from each."""

    name: str
    full_bytes: int
    sent_bytes: int
    full_cards: tuple[str, ...]
    sent_cards: tuple[str, ...]

    @property
    def differences(self) -> int:
        """Cards read from one and not the other (a card read as another counts twice)."""
        full, sent = Counter(self.full_cards), Counter(self.sent_cards)
        return sum(((full - sent) + (sent - full)).values())


def cards_of(answer: dict) -> tuple[str, ...]:
    """The cards /api/count read, from a count (200) or from a photo that holds no show (422)."""
    seen = answer.get("cards", []) + answer.get("set_aside", [])
    return tuple(sorted(c["card"] or "?" for c in seen))


def through_page(page, url: str, photo: Path) -> dict:
    """Choose ``photo`` in the page's Count view; the server's answer."""
    with page.expect_response(f"{url}/api/count") as answered:
        page.set_input_files("#photo", str(photo))
    return answered.value.json()


def recording_sizes(app, sizes: list[int]):
    """``app`` noting each /api/count body's length (Playwright does not hand over a body with a file)."""
    async def recorded(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/api/count":
            sizes.append(int(dict(scope["headers"]).get(b"content-length", b"0")))
        await app(scope, receive, send)
    return recorded


def measure(folder: Path, limit: int | None = None) -> list[Upload]:
    """Every photo of ``folder``/images (the first ``limit``) sent full and through the page."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support import chromium, live_server  # the page tests' server thread and Chromium

    from api.main import create_app

    photos = sorted((folder / "images").glob("*.jpg"))[:limit]
    uploads, sizes = [], []
    app = recording_sizes(create_app(), sizes)
    with tempfile.TemporaryDirectory() as tmp, live_server(app) as url, chromium() as browser:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(url)
        for source in photos:
            big = make_12mp_jpeg(source, Path(tmp) / source.name)
            full = httpx.post(f"{url}/api/count", files={"photo": (big.name, big.read_bytes(), "image/jpeg")},
                              timeout=60).json()
            sent = through_page(page, url, big)
            uploads.append(Upload(source.name, big.stat().st_size, sizes[-1], cards_of(full), cards_of(sent)))
    return uploads


def report(uploads: list[Upload]) -> str:
    rows = [f"{u.name[:40]:40} {u.full_bytes / 1024:7.0f} KB -> {u.sent_bytes / 1024:5.0f} KB" + (
        f"  differs: full {' '.join(u.full_cards)}, sent {' '.join(u.sent_cards)}" if u.differences else "")
        for u in uploads]
    sent = [u.sent_bytes / 1024 for u in uploads]
    full = [u.full_bytes / 1024 for u in uploads]
    rows.append(f"{len(uploads)} photos: full median {statistics.median(full):.0f} KB, sent median "
                f"{statistics.median(sent):.0f} KB, largest sent {max(sent):.0f} KB; cards read differently: "
                f"{sum(u.differences for u in uploads)} in {sum(len(u.full_cards) for u in uploads)}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.page_uploads", description=__doc__.split("\n")[0])
    p.add_argument("folder", nargs="?", type=Path, default=POKER_CARDS, help="labelled photos (images/)")
    p.add_argument("--limit", type=int, help="only the first N photos")
    a = p.parse_args(argv)
    if not (a.folder / "images").is_dir():
        p.error(f"no photos at {a.folder / 'images'}")
    print(report(measure(a.folder, a.limit)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
