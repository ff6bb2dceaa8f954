"""The Count view leads somewhere from every photo, in a real headless Chromium (issue 78).

One test per outcome of a photo: no card or too few seen (the card pad adds the missing ones), 4
(the starter added), 5 (counted), more than 5 (the show chosen among them), a whole table (one tap
to the Referee view), a misread card fixed in two taps, a refused file cleared; the total or the
error in view at 390x844 and 844x390, nothing wider than 320 px. The recognizer double answers
with the cards each photo was drawn with.
"""

import re
from pathlib import Path

import pytest
from support import draw_table, needs_chromium, phone_page, serving, show_photo, spread_photo
from test_api_referee import table_photo

playwright = needs_chromium()

expect = playwright.expect
PHOTOS = {  # each photo its own size: the recognizer double knows a photo by its size
    "none": draw_table("", [], size=(1600, 1220)),
    "two": spread_photo("5H 5D", size=(1600, 1224)),
    "three": spread_photo("5H 5D 5S", size=(1600, 1228)),
    "four": show_photo("8H 7C 7D 6S", size=(1600, 1232)),
    "five": show_photo("5H 5D 5S JC 5C"),
    "eight": spread_photo("5H 5D 5S JC 5C 9D 2C 3C", size=(1600, 1236)),
    "tall": spread_photo("10H 10D QS JC 10C 9D 2C 3C", size=(1200, 1600)),
    "wide": show_photo("10H 10D QS JC 10C", size=(1600, 1240)),
    # A two-player table at the show, laid as the Referee view reads it (long side 2,000 px: sent unshrunk).
    "table": table_photo(size=(2000, 1800)),
    "seventeen": spread_photo("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS 2S 3S 4S", size=(1600, 1500)),
    "twenty-one": spread_photo("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AD 2D 3D 4D 5D 6D 7D 8D",
                               size=(1600, 1800)),
}


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("outcomes")
    for name, photo in PHOTOS.items():
        (folder / f"{name}.jpg").write_bytes(photo.jpeg)
    (folder / "notes.txt").write_text("not a photo")
    return folder


@pytest.fixture(scope="module")
def server():
    with serving(*PHOTOS.values()) as url:
        yield url


def page_with(browser, server, photo: Path, width: int = 390, height: int = 844):
    page = phone_page(browser, width, height)
    page.goto(server)
    page.evaluate("""() => { window.__counts = [];
        document.addEventListener('cribcount:count', (e) => window.__counts.push(e.detail)); }""")
    page.set_input_files("#photo", str(photo))
    return page


def tap_card(page, name: str) -> None:
    """One tap on the card pad (the 52 cards) below the chips."""
    page.locator("#count-pad").get_by_role("button", name=name, exact=True).tap()


def in_view(page, selector: str) -> bool:
    """The element lies wholly inside the viewport, above the docked camera bar, with no scrolling."""
    return page.evaluate("""(sel) => {
        const box = document.querySelector(sel).getBoundingClientRect();
        const dock = document.querySelector('.dock').getBoundingClientRect();
        return window.scrollY === 0 && box.height > 0 && box.top >= 0 && box.bottom <= dock.top
            && box.right <= window.innerWidth; }""", selector)


@pytest.mark.parametrize("name, seen", [("none", "no cards seen"), ("two", "2 cards seen (5H 5D)")])
def test_no_card_or_two_seen_the_show_is_tapped_in_from_the_card_pad(browser, server, photos, name, seen):
    page = page_with(browser, server, photos / f"{name}.jpg")
    expect(page.locator("#status")).to_contain_text(seen)
    expect(page.locator("#count-pad")).to_be_visible()
    have = set(page.locator(".chip").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    for card, spoken in (("5H", "5 of hearts"), ("5D", "5 of diamonds"), ("5S", "5 of spades"),
                         ("JC", "jack of clubs"), ("5C", "5 of clubs")):
        if card not in have:
            tap_card(page, spoken)
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator(".chip.starter")).to_have_attribute("data-card", "5C")
    expect(page.locator("#count-pad")).to_be_hidden()
    page.context.close()


def test_three_seen_the_two_missing_cards_are_two_taps_the_starter_last(browser, server, photos):
    page = page_with(browser, server, photos / "three.jpg")
    expect(page.locator("#status")).to_contain_text("3 cards seen (5H 5D 5S)")
    expect(page.locator(".chip.missing")).to_have_count(2)
    expect(page.locator("#pad-hint")).to_have_text("Tap the 2 missing cards, the starter last.")
    # A card already on the table cannot be tapped in again.
    expect(page.locator("#count-pad").get_by_role("button", name="5 of hearts", exact=True)).to_be_disabled()
    tap_card(page, "jack of clubs")
    tap_card(page, "5 of clubs")
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator(".chip.starter")).to_have_attribute("data-card", "5C")
    page.context.close()


def test_four_seen_the_starter_is_one_tap(browser, server, photos):
    page = page_with(browser, server, photos / "four.jpg")
    expect(page.locator("#status")).to_contain_text("4 cards seen (8H 7C 7D 6S)")
    expect(page.locator(".chip.missing")).to_have_count(1)
    tap_card(page, "ace of spades")
    expect(page.locator("#total")).to_have_text("16")
    expect(page.locator("#status")).to_have_text("")
    page.context.close()


def test_five_seen_are_counted_and_the_count_is_told_to_the_board(browser, server, photos):
    page = page_with(browser, server, photos / "five.jpg")
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator("#count-pad")).to_be_hidden()
    counts = page.evaluate("window.__counts")
    assert len(counts) == 1
    told = counts[0]
    assert (told["total"], told["crib"], told["hisHeels"], told["starter"]) == (29, False, 0, "5C")
    assert sorted(told["cards"]) == ["5D", "5H", "5S", "JC"]
    assert len(told["items"]) == 15
    page.context.close()


def test_more_than_five_seen_the_hand_then_the_starter_are_chosen_among_them(browser, server, photos):
    page = page_with(browser, server, photos / "eight.jpg")
    expect(page.locator("#status")).to_contain_text("8 cards seen")
    expect(page.locator(".chip")).to_have_count(8)
    expect(page.locator("#choose-note")).to_contain_text("tap the 4 cards of the show (0 of 4)")
    for card in ("5H", "5D", "9D"):
        page.locator(f'.chip[data-card="{card}"]').tap()
    page.locator('.chip[data-card="9D"]').tap()  # a second tap takes a card back
    page.locator('.chip[data-card="JC"]').tap()
    page.locator('.chip[data-card="5S"]').tap()
    expect(page.locator("#choose-note")).to_contain_text("now tap the starter")
    page.locator('.chip[data-card="5C"]').tap()
    expect(page.locator("#total")).to_have_text("29")
    expect(page.locator(".chip")).to_have_count(5)
    expect(page.locator(".chip.starter")).to_have_attribute("data-card", "5C")
    # Chosen wrong: choose again among the eight.
    page.get_by_role("button", name="Choose the show among the 8 cards", exact=True).tap()
    expect(page.locator(".chip")).to_have_count(8)
    page.context.close()


def test_a_whole_table_is_one_tap_from_the_referee_view_with_the_same_photo(browser, server, photos):
    page = page_with(browser, server, photos / "table.jpg")
    expect(page.locator("#status")).to_contain_text("13 cards seen")
    page.get_by_role("button", name="Count the whole table", exact=True).tap()
    expect(page.locator("#referee")).to_be_visible()
    expect(page.locator("main[data-view=count]")).to_be_hidden()
    expect(page.locator("#referee-players")).to_have_value("2")
    # Read as the Referee view reads its own photos: you are pone (its default seat), the hand nearest
    # the bottom (9) counted first, then the one across (5), then the crib (6).
    expect(page.locator("#referee-groups li.referee-group .total")).to_have_text(["9", "5", "6"])
    page.context.close()


@pytest.mark.parametrize("name, cards, players", [("seventeen", 17, "3"), ("twenty-one", 21, "4")])
def test_the_players_at_a_whole_table_are_guessed_from_its_cards(browser, server, photos, name, cards,
                                                                  players):
    page = page_with(browser, server, photos / f"{name}.jpg")
    expect(page.locator("#status")).to_contain_text(f"{cards} cards seen")
    page.get_by_role("button", name="Count the whole table", exact=True).tap()
    expect(page.locator("#referee-players")).to_have_value(players)
    expect(page.locator("#referee-figure")).to_be_visible()
    page.context.close()


def test_a_show_among_fewer_than_a_table_offers_no_referee(browser, server, photos):
    page = page_with(browser, server, photos / "eight.jpg")
    expect(page.locator("#status")).to_contain_text("8 cards seen")
    expect(page.get_by_role("button", name="Count the whole table", exact=True)).to_be_hidden()
    page.context.close()


def test_a_misread_card_is_fixed_in_two_taps(browser, server, photos):
    page = page_with(browser, server, photos / "five.jpg")
    expect(page.locator("#total")).to_have_text("29")
    page.get_by_role("button", name=re.compile(r"^jack of clubs, 9\d% sure")).tap()
    expect(page.locator("#picker")).to_be_visible()
    page.locator("#picker").get_by_role("button", name="queen of hearts", exact=True).tap()
    expect(page.locator("#total")).to_have_text("28")
    expect(page.locator('.chip[data-card="QH"]')).to_have_count(1)
    expect(page.locator("#picker")).to_be_hidden()
    page.context.close()


def test_a_refused_file_leaves_no_preview(browser, server, photos):
    page = page_with(browser, server, photos / "five.jpg")
    expect(page.locator("#total")).to_have_text("29")
    page.set_input_files("#photo", str(photos / "notes.txt"))
    expect(page.locator("#status")).to_have_class(re.compile("error"))
    expect(page.locator("#photo-view")).to_be_hidden()
    expect(page.locator("#no-preview")).to_be_hidden()
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#empty-hint")).to_be_visible()
    page.context.close()


@pytest.mark.parametrize("width, height", [(390, 844), (844, 390)])
def test_the_total_and_the_error_are_in_view_without_scrolling(browser, server, photos, width, height):
    page = page_with(browser, server, photos / "tall.jpg", width, height)
    expect(page.locator("#status")).to_contain_text("8 cards seen")
    assert in_view(page, "#status")
    page.set_input_files("#photo", str(photos / "five.jpg"))
    expect(page.locator("#total")).to_have_text("29")
    assert in_view(page, "#total")
    page.context.close()


def test_nothing_is_wider_than_a_320_px_screen(browser, server, photos):
    page = page_with(browser, server, photos / "wide.jpg", 320, 568)
    expect(page.locator("#total")).to_have_text("16")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.get_by_role("button", name=re.compile(r"^queen of spades")).tap()
    expect(page.locator("#picker")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.context.close()


@pytest.mark.parametrize("width, height", [(844, 390), (667, 375), (568, 320)])
def test_the_card_pad_fits_a_phone_held_sideways(browser, server, photos, width, height):
    page = page_with(browser, server, photos / "three.jpg", width, height)
    expect(page.locator("#count-pad")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    king = page.locator("#count-pad").get_by_role("button", name="king of spades", exact=True)
    king.scroll_into_view_if_needed()
    box = king.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    expect(page.get_by_role("radio", name="Crib", exact=True)).to_be_in_viewport()
    page.context.close()
