"""The Referee view in a real headless Chromium: a two-player table photo -> three groups outlined with
their totals and roles -> claims entered -> rulings -> totals on the board; a card moved between groups
is ruled again without the photo. Screenshots at 390x844 and 1280x800 go to test-output/."""

import json
from pathlib import Path

import pytest
from support import ROOT, needs_chromium, serving, wait_until
from test_api_referee import table_photo

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


@pytest.fixture(scope="module")
def server(photo, big_show):
    with serving(photo[0], big_show[0]) as url:
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
    page.click("button[aria-label='Move the 7 of hearts']")
    page.click("#referee-move button:has-text('group 2')")
    page.wait_for_selector("#referee-status.error")
    assert "move a card from one group to another" in page.inner_text("#referee-status")
    assert page.is_disabled("#referee-send")
    page.click("button[aria-label='Move the 7 of hearts']")
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
