"""The page as an installable app: the manifest, its icons and the favicon as served, then in a real
headless Chromium: its installability check passes, a service worker controls the page, and the page
opens offline with the game kept while a photo says plainly that it needs the server.
"""

import io
import json

import pytest
from PIL import Image
from support import CHROMIUM, CHROMIUM_ARGS, needs_chromium, serving, show_photo, wait_until


def test_the_manifest_names_the_app_standalone_with_its_theme(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.content)
    assert manifest["name"] == "cribcount: count the show, keep the game"
    assert manifest["short_name"] == "cribcount"
    assert (manifest["display"], manifest["start_url"]) == ("standalone", "/")
    assert manifest["theme_color"] == "#0b5d3b"


@pytest.mark.parametrize("size_px", [192, 512])
def test_the_manifest_icons_are_pngs_of_their_stated_size(client, size_px):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    icon = next(i for i in icons if i["sizes"] == f"{size_px}x{size_px}")
    image = Image.open(io.BytesIO(client.get(icon["src"]).content))
    assert (image.format, image.size) == ("PNG", (size_px, size_px))


def test_the_favicon_is_served_where_browsers_ask_for_it(client):
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert Image.open(io.BytesIO(answer.content)).format == "ICO"


def test_the_service_worker_is_served_from_the_root_so_it_covers_the_page(client):
    answer = client.get("/sw.js")
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # a new worker is seen on the next visit


# --- in Chromium ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A phone-sized Chromium with a profile of its own (an off-the-record one is never installable),
    on the page with its service worker in control; yields (page, base URL, a photo)."""
    playwright = needs_chromium()
    photo = tmp_path_factory.mktemp("photo") / "29.jpg"
    photo.write_bytes(show_photo("5H 5D 5S JC 5C").jpeg)
    with serving() as url, playwright.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
            viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(url)
        wait_until(page, "navigator.serviceWorker.controller !== null")  # sw.js claims the open page
        yield page, url, photo
        context.close()


def test_chromium_finds_the_page_installable(installed):
    page, _, _ = installed
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []


def test_a_service_worker_controls_the_page(installed):
    page, url, _ = installed
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{url}/sw.js"


def test_offline_the_page_opens_with_the_game_and_a_photo_says_it_needs_the_server(installed):
    from playwright.sync_api import expect

    page, url, photo = installed
    page.goto(f"{url}/#board")
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("button", name="Peg 2 for Player 2", exact=True).click()
    page.context.set_offline(True)
    try:
        page.reload()
        expect(page.locator("#board-sides .points")).to_have_text(["0", "2"])
        expect(page.locator("#offline-note")).to_be_visible()
        page.get_by_role("link", name="Count", exact=True).click()
        page.set_input_files("#photo", str(photo))
        expect(page.locator("#status")).to_contain_text("reading a photo needs the cribcount server")
        page.get_by_role("link", name="Referee", exact=True).click()
        page.set_input_files("#referee-photo", str(photo))
        expect(page.locator("#referee-status")).to_contain_text("reading a photo needs the cribcount server")
    finally:
        page.context.set_offline(False)
