"""The phone page in a real headless Chromium, against a real uvicorn server.

Photo -> total shown; tap a card chip and correct it -> the total changes; a
claim is checked; the count is read aloud; screenshots at 390x844 and 1280x800
go to test-output/. Until the models are trained the server recognizes with the
test double from ``support``; with models/ and sample_images/ present, a
second test runs the real models on a sample photo.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from support import (
    ROOT,
    FakeRecognizer,
    as_heic,
    live_server,
    load_samples,
    needs_chromium,
    phone_page,
    real_models_reason,
    show_photo,
    spread_photo,
)

from api.main import create_app
from api.settings import Settings
from scorer.cards import Card

playwright = needs_chromium()

OUT = ROOT / "test-output"
# Records what the page asks the browser to say, instead of sounding it.
SPEECH_SPY = """
window.__spoken = [];
window.speechSynthesis.speak = (u) => window.__spoken.push(u.text);
window.speechSynthesis.cancel = () => {};
"""


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    made = {"29": show_photo("5H 5D 5S JC 5C"), "four": show_photo("8H 7C 7D 6S", size=(1600, 1210)),
            "unsure": show_photo("5H 5D 5S JC 5C", size=(1600, 1212)),
            "six": spread_photo("5H 5D 5S JC 5C 9D", size=(1600, 1216))}
    for name, photo in made.items():
        (folder / f"{name}.jpg").write_bytes(photo.jpeg)
    return folder, made


@pytest.fixture(scope="module")
def server(photos):
    fake = FakeRecognizer()
    for photo in photos[1].values():
        fake.add(photo)
    for name, card, confidence in (("unsure", "JC", 0.66), ("six", "9D", 0.75)):  # one card read less surely
        photo = photos[1][name]
        read = [confidence if c == Card.parse(card) else 0.99 for c in photo.detections.cards]
        fake.scenes[photo.size] = photo.detections.with_(confidence=np.array(read))
    with live_server(create_app(recognizer=fake)) as url:
        yield url


def phone(browser):
    page = phone_page(browser)
    page.add_init_script(SPEECH_SPY)
    return page


def photo_chosen(browser, url: str, photo: Path):
    """The page at ``url`` on a phone, with ``photo`` chosen as if just taken."""
    page = phone(browser)
    page.goto(url)
    page.set_input_files("#photo", str(photo))
    return page


def total(page) -> str:
    return page.locator("#total").inner_text()


def test_photo_count_fix_a_card_check_a_claim(browser, server, photos):
    expect = playwright.expect
    page = phone(browser)
    page.goto(server)
    expect(page.get_by_role("button", name=re.compile("Say it|Read the count"))).to_be_hidden()
    page.set_input_files("#photo", str(photos[0] / "29.jpg"))
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator("#announcement")).to_contain_text("twenty-nine")
    expect(page.locator(".chip")).to_have_count(5)
    expect(page.locator(".chip.starter")).to_have_attribute("data-card", "5C")
    expect(page.locator("#boxes rect")).to_have_count(5)
    expect(page.locator("#starter-note")).to_contain_text("set apart above the row")

    # Teach mode: tapping an item lights up its cards.
    page.locator("#items button").last.tap()
    expect(page.locator("#items button").last).to_contain_text("jack of the starter's suit")
    expect(page.locator(".chip.lit")).to_have_count(1)
    expect(page.locator(".chip.lit")).to_have_attribute("data-card", "JC")

    # Read aloud.
    page.get_by_role("button", name="Read the count aloud", exact=True).tap()
    spoken = page.evaluate("window.__spoken")
    assert len(spoken) == 1 and spoken[0].endswith("twenty-nine")

    # The jack was misread: it is the queen of clubs (the chip, then the card: two taps).
    page.get_by_role("button", name=re.compile(r"^jack of clubs, 9\d% sure")).tap()
    expect(page.locator("#picker")).to_be_visible()
    page.locator("#picker").get_by_role("button", name="queen of clubs", exact=True).tap()
    expect(page.locator("#total")).to_have_text("28")
    expect(page.locator('.chip[data-card="QC"]')).to_have_count(1)

    # Muggins: a short claim names what was missed; the right one is confirmed.
    page.get_by_label("What's my count?").fill("20")
    page.get_by_role("button", name="Check", exact=True).tap()
    expect(page.locator("#verdict")).to_contain_text("Under-claimed by 8")
    page.get_by_label("What's my count?").fill("28")
    page.get_by_role("button", name="Check", exact=True).tap()
    expect(page.locator("#verdict")).to_have_text("Correct: the hand counts 28.")

    # Nothing overflows sideways at 390 px (one-handed use: no horizontal scrolling).
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    OUT.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "page-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "page-1280x800.png"))
    assert (OUT / "page-390x844.png").stat().st_size > 10_000
    page.context.close()


def test_a_heic_photo_the_browser_cannot_draw_is_still_counted(browser, server, photos):
    import cv2

    heic = photos[0] / "IMG_0029.heic"
    heic.write_bytes(as_heic(cv2.imdecode(np.frombuffer(photos[1]["29"].jpeg, np.uint8), cv2.IMREAD_COLOR)))
    page = photo_chosen(browser, server, heic)
    expect = playwright.expect
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator("#no-preview")).to_be_visible()
    expect(page.locator("#photo-view")).to_be_hidden()
    page.set_input_files("#photo", str(photos[0] / "29.jpg"))  # a JPEG after it is drawn again
    expect(page.locator("#photo-view")).to_be_visible()
    expect(page.locator("#no-preview")).to_be_hidden()
    page.context.close()


def test_a_card_read_below_the_check_line_is_marked_until_the_player_confirms_it(browser, server, photos):
    expect = playwright.expect
    page = photo_chosen(browser, server, photos[0] / "unsure.jpg")
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator(".chip.unsure")).to_have_count(1)
    expect(page.locator(".chip.unsure")).to_have_attribute("data-card", "JC")
    page.get_by_role("button", name=re.compile(r"^jack of clubs, 66% sure")).tap()
    page.locator("#picker").get_by_role("button", name="jack of clubs", exact=True).tap()
    expect(page.locator(".chip.unsure")).to_have_count(0)
    page.context.close()


def test_a_sixth_card_set_aside_is_said(browser, server, photos):
    expect = playwright.expect
    page = phone(browser)
    page.goto(server)
    expect(page.locator("#aside-note")).to_be_hidden()
    page.set_input_files("#photo", str(photos[0] / "six.jpg"))
    expect(page.locator(".chip")).to_have_count(5)
    expect(page.locator("#aside-note")).to_have_text(
        "Set aside: 9♦ (75% sure), the least sure of 6 cards seen. "
        "If it is one of the show, tap the card it replaces, or choose the show again.")
    expect(page.get_by_role("button", name="Choose the show among the 6 cards", exact=True)).to_be_visible()
    page.set_input_files("#photo", str(photos[0] / "29.jpg"))
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator("#aside-note")).to_be_hidden()
    expect(page.locator("#choose-again")).to_be_hidden()
    page.context.close()


def test_four_cards_then_the_starter_picked_by_hand(browser, server, photos):
    expect = playwright.expect
    page = photo_chosen(browser, server, photos[0] / "four.jpg")
    expect(page.locator("#status")).to_contain_text("4 cards seen (8H 7C 7D 6S)")
    expect(page.locator(".chip")).to_have_count(5)
    page.get_by_role("button", name=re.compile("^Starter: not set")).tap()
    page.locator("#picker").get_by_role("button", name="ace of spades", exact=True).tap()
    expect(page.locator("#total")).to_have_text("16")
    # Hand or crib: counted again as the crib (the claim check names which it counted).
    page.get_by_role("radio", name="Crib", exact=True).check()
    page.get_by_label("What's my count?").fill("16")
    page.get_by_role("button", name="Check", exact=True).tap()
    expect(page.locator("#verdict")).to_have_text("Correct: the crib counts 16.")
    page.context.close()


def test_every_control_has_an_accessible_name(browser, server, photos):
    page = photo_chosen(browser, server, photos[0] / "29.jpg")
    playwright.expect(page.locator("#total")).to_have_text("29")
    unnamed = page.evaluate("""() => [...document.querySelectorAll('button, input')]
        .filter(el => el.offsetParent !== null || el.id === 'photo')
        .filter(el => !(el.getAttribute('aria-label') || el.labels?.length || el.textContent.trim()))
        .map(el => el.outerHTML)""")
    assert unnamed == []
    page.context.close()


# Names the page's classic scripts once set on the global object, and the modules' exports now.
SCRIPT_NAMES = ("RANKS", "SUITS", "state", "$", "face", "isRed", "spoken", "say", "postJson", "rescore",
                "countPhoto", "startCount", "startViews", "pickCard", "make", "cardFace", "RequestError")


def test_the_page_runs_with_no_console_error_and_sets_no_global(browser, server, photos):
    expect = playwright.expect
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The globals of a blank page of the same origin (a secure context has more than about:blank).
    blank_page = {"body": "<!doctype html>", "content_type": "text/html"}
    page.route(f"{server}/blank", lambda route: route.fulfill(**blank_page))
    own_names = "Object.getOwnPropertyNames(window)"
    page.goto(f"{server}/blank")
    blank = set(page.evaluate(own_names))

    page.goto(server)
    page.set_input_files("#photo", str(photos[0] / "29.jpg"))
    expect(page.locator("#total")).to_have_text("29")
    page.get_by_role("link", name="Discard", exact=True).click()
    expect(page.locator("#deal-ranks button")).to_have_count(13)
    page.get_by_role("link", name="Practice", exact=True).click()
    expect(page.locator("#practice-cards .chip")).to_have_count(5)

    assert errors == []
    assert set(page.evaluate(own_names)) - blank == set()
    assert [name for name in SCRIPT_NAMES if page.evaluate(f"typeof {name}") != "undefined"] == []
    page.context.close()


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_a_sample_photo_with_the_real_models(browser):
    sample = next(s for s in load_samples() if s.starter is None or s.starter in s.cards)
    with live_server(create_app(Settings())) as url:
        page = photo_chosen(browser, url, sample.path)
        if sample.crib:
            page.get_by_role("radio", name="Crib", exact=True).check()
        playwright.expect(page.locator("#total")).to_have_text(str(sample.total), timeout=30_000)
        OUT.mkdir(exist_ok=True)
        page.screenshot(path=str(OUT / "page-real-390x844.png"))
        # The Count view at a small phone, a phone upright and sideways, and a laptop (docs/count-*.png
        # are copies of one run).
        for width, height in ((320, 568), (390, 844), (844, 390), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(OUT / f"count-{width}x{height}.png"))
        page.context.close()
