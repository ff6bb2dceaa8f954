"""The Referee view in a real headless Chromium: a two-player table photo -> three groups outlined with
their totals and roles -> claims entered -> rulings -> totals on the board; a card moved between groups
is ruled again without the photo. Screenshots at 390x844 and 1280x800 go to test-output/."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from support import ROOT, DrawnPhoto, draw_table, needs_chromium, serving, wait_until
from test_api_referee import table_photo

from scorer.cards import Card

playwright = needs_chromium()

OUT = ROOT / "test-output"
# A game on the board, Bob dealing (seat 1): pone is Ann.
BOARD = {"setup": {"players": 2, "target": 121, "muggins": True, "names": ["Ann", "Bob"], "firstDealer": 1},
         "events": []}


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    drawn = table_photo(size=(2400, 1800))
    path = tmp_path_factory.mktemp("table") / "table.jpg"
    path.write_bytes(drawn.jpeg)
    return drawn, path


@pytest.fixture(scope="module")
def big_show(tmp_path_factory):
    """The dealer's 29 and a crib of 24 beside it: 53 for the dealer's side, more than one show holds."""
    drawn = table_photo(pone="AH 2D 3C 7S", dealer="5H 5D 5S JC", crib="4H 4D 6S 6C", starter="5C",
                        size=(2400, 1760))
    path = tmp_path_factory.mktemp("big") / "big.jpg"
    path.write_bytes(drawn.jpeg)
    return drawn, path


def saved(drawn: DrawnPhoto, tmp_path_factory, name: str) -> tuple[DrawnPhoto, Path]:
    path = tmp_path_factory.mktemp(name) / f"{name}.jpg"
    path.write_bytes(drawn.jpeg)
    return drawn, path


@pytest.fixture(scope="module")
def starter_missed(tmp_path_factory):
    """The table read without its starter, the king of spades apart at (1900, 900): 12 cards of 13."""
    drawn = table_photo(size=(2400, 1720))
    read = drawn.detections[np.array([str(c) != "KS" for c in drawn.detections.cards])]
    return saved(replace(drawn, detections=read), tmp_path_factory, "missed")


@pytest.fixture(scope="module")
def misread(tmp_path_factory):
    """Pone's 7 of hearts read as the 6 of spades, unsurely: pone's hand counts 2, not 5."""
    drawn = table_photo(size=(2400, 1740))
    d = drawn.detections
    wrong = [str(c) == "7H" for c in d.cards]
    read = d.with_(cards=tuple(Card.parse("6S") if w else c for c, w in zip(d.cards, wrong, strict=True)),
                   confidence=np.where(wrong, 0.6, d.confidence))
    return saved(replace(drawn, detections=read), tmp_path_factory, "misread")


@pytest.fixture(scope="module")
def four_players(tmp_path_factory):
    """Four hands in the photo's corners, the crib in the middle and the starter at the right edge."""
    rows = (("AH 2D 3C 4S", 250, 250), ("5H 6D 7C 8S", 250, 1450), ("9H 10D JC QS", 1550, 250),
            ("KH AD 2C 3S", 1550, 1450), ("4H 5D 6C 7S", 900, 700))
    cards, centers = [], []
    for text, y, x0 in rows:
        for k, card in enumerate(text.split()):
            cards.append(card)
            centers.append((x0 + 180 * k, y))
    drawn = draw_table(" ".join([*cards, "8H"]), [*centers, (2250, 900)], size=(2400, 1840),
                       card_px=(160, 224))
    return saved(drawn, tmp_path_factory, "four")


@pytest.fixture(scope="module")
def server(photo, big_show, starter_missed, misread, four_players):
    with serving(photo[0], big_show[0], starter_missed[0], misread[0], four_players[0]) as url:
        yield url


def opened(browser, url: str, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('cribcount.board', {json.dumps(json.dumps(BOARD))});")
    page = context.new_page()
    errors: list[str] = []
    # A 4xx the view answers is Chromium's "Failed to load resource" line, not a script's error.
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    page.goto(url + "/#referee")
    return page, errors


def read_table(page, path: Path) -> None:
    page.select_option("#referee-seat", "dealer")
    page.set_input_files("#referee-photo", str(path))
    page.wait_for_selector("#referee-groups li.referee-group")


def group_rows(page) -> list[tuple[str, str]]:
    return [(li.query_selector("select").input_value(), li.query_selector(".total").inner_text())
            for li in page.query_selector_all("#referee-groups li.referee-group")]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_photo_groups_claims_rulings_and_the_board(browser, server, photo, width, height):
    page, errors = opened(browser, server, width, height)
    read_table(page, photo[1])
    assert group_rows(page) == [("pone", "5"), ("dealer", "9"), ("crib", "6")]  # the order of the show
    assert len(page.query_selector_all("#referee-boxes rect.group")) == 3
    labels = sorted(t.text_content() for t in page.query_selector_all("#referee-boxes text"))
    assert labels == ["Crib 6", "Dealer 9", "Pone 5"]
    assert page.inner_text("#referee-roles").startswith("Roles suggested: you (dealer) nearest the bottom")
    page.fill("[data-claim='pone']", "3")
    page.fill("[data-call='pone']", "2")
    page.click("#referee-rule")
    page.wait_for_selector("#referee-rulings li.muggins")
    assert page.inner_text("#referee-rulings li.muggins") == (
        "Pone claimed 3, the hand is 5: muggins for 2 — the dealer takes 2 (missed: fifteen 7H 8D).")
    assert len(page.query_selector_all("#referee-boxes rect.lit")) == 2  # the missed fifteen lit
    assert page.inner_text("#referee-pegs") == "Pone 3, Dealer 17"
    OUT.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / f"referee-{width}.png"), full_page=False)
    page.click("#referee-send")
    assert page.inner_text("#referee-sent") == "Pegged on the Board."
    page.goto(server + "/#board")
    sides = page.inner_text("#board-sides")
    assert "Ann" in sides and "3" in sides and "Bob" in sides and "17" in sides
    assert errors == []


def test_a_card_moved_to_another_group_is_ruled_again_and_says_what_to_fix(browser, server, photo):
    page, errors = opened(browser, server, 390, 844)
    read_table(page, photo[1])
    page.click("button[aria-label='Move or fix the 7 of hearts']")
    page.click("#referee-move button:has-text('group 2')")
    page.wait_for_selector("#referee-status.error")
    assert "move a card from one group to another" in page.inner_text("#referee-status")
    assert page.is_disabled("#referee-send")
    page.click("button[aria-label='Move or fix the 7 of hearts']")
    page.click("#referee-move button:has-text('group 1')")
    # Not "no error" alone: that holds as soon as "Ruling…" is shown, before the answer.
    wait_until(page, """() => !document.querySelector('#referee-status').classList.contains('error')
        && [...document.querySelectorAll('#referee-groups .total')].every((t) => t.textContent !== '?')""")
    assert group_rows(page) == [("pone", "5"), ("dealer", "9"), ("crib", "6")]
    assert errors == []


def test_a_dealers_hand_and_crib_past_29_together_are_pegged_one_show_at_a_time(browser, server, big_show):
    page, errors = opened(browser, server, 390, 844)
    read_table(page, big_show[1])
    assert group_rows(page) == [("pone", "7"), ("dealer", "29"), ("crib", "24")]
    page.click("#referee-rule")
    page.wait_for_selector("#referee-rulings li")
    page.click("#referee-send")
    assert page.inner_text("#referee-sent") == "Pegged on the Board."
    page.goto(server + "/#board")
    assert "53" in page.inner_text("#board-sides")
    assert errors == []


def tap_photo_at(page, x: float, y: float, size: tuple[int, int]) -> None:
    """Tap the shown photo where the photo's own pixel (x, y) is drawn."""
    box = page.locator("#referee-boxes").bounding_box()
    page.mouse.click(box["x"] + x / size[0] * box["width"], box["y"] + y / size[1] * box["height"])


def test_a_card_the_photo_missed_is_added_where_it_lies_and_the_table_is_counted(browser, server,
                                                                                   starter_missed):
    page, errors = opened(browser, server, 390, 844)
    page.select_option("#referee-seat", "dealer")
    page.set_input_files("#referee-photo", str(starter_missed[1]))
    page.wait_for_selector("#referee-status.error")
    assert "found 12" in page.inner_text("#referee-status")
    assert len(page.query_selector_all("#referee-seen-cards .chip")) == 12
    assert len(page.query_selector_all("#referee-boxes rect.card")) == 12  # the cards seen, drawn
    page.click("#referee-add")
    assert page.inner_text("#referee-status") == "Tap the photo where the missed card lies."
    tap_photo_at(page, 1900, 900, starter_missed[0].size)
    page.click("#picker-grid button[data-card='KS']")
    page.wait_for_selector("#referee-groups li.referee-group")
    assert group_rows(page) == [("pone", "5"), ("dealer", "9"), ("crib", "6")]
    assert page.is_hidden("#referee-seen")
    assert errors == []


def test_a_card_read_wrong_is_fixed_in_two_taps_and_the_table_counted_again(browser, server, misread):
    page, errors = opened(browser, server, 390, 844)
    read_table(page, misread[1])
    assert group_rows(page) == [("pone", "2"), ("dealer", "9"), ("crib", "6")]
    chip = "button[aria-label='Move or fix the 6 of spades']"
    assert "unsure" in page.get_attribute(chip, "class")  # read below 95%: drawn to be checked
    page.click(chip)
    page.click("#referee-move button:has-text('Another card')")
    page.click("#picker-grid button[data-card='7H']")
    wait_until(page, "() => document.querySelector('#referee-groups .total').textContent === '5'")
    assert group_rows(page) == [("pone", "5"), ("dealer", "9"), ("crib", "6")]
    assert errors == []


def test_a_card_that_is_not_one_of_the_tables_is_taken_off(browser, server, photo):
    page, errors = opened(browser, server, 390, 844)
    read_table(page, photo[1])
    page.click("button[aria-label='Move or fix the king of spades']")
    page.click("#referee-move button:has-text('Not a card')")
    page.wait_for_selector("#referee-status.error")
    assert "found 12" in page.inner_text("#referee-status")
    assert page.is_hidden("#referee-form") and page.is_visible("#referee-add")
    assert errors == []


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 568)])
def test_a_four_player_table_fits_a_phone_its_labels_inside_the_photo_and_apart(browser, server, four_players,
                                                                               width, height):
    page, errors = opened(browser, server, width, height)
    page.select_option("#referee-players", "4")
    read_table(page, four_players[1])
    assert len(page.query_selector_all("#referee-groups li.referee-group")) == 5
    assert page.evaluate("document.documentElement.scrollWidth") == width  # nothing wider than the phone
    boxes = page.evaluate("""() => [...document.querySelectorAll('#referee-boxes text')].map((t) => {
        const b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; })""")
    photo_w, photo_h = four_players[0].size
    assert len(boxes) == 5
    assert all(x0 >= 0 and y0 >= 0 and x1 <= photo_w and y1 <= photo_h for x0, y0, x1, y1 in boxes)
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
                   for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert errors == []
