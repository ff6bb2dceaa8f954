"""The Peg view in a real headless Chromium: the play tapped in card by card and "Go", each play's
points and reasons as /api/peg gives them, an illegal card refused, undo, and one tap that pegs the
play's points on the Board (partners sharing a side with four players). A screenshot goes to
test-output/.
"""

import pytest
from support import ROOT, needs_chromium, phone_page, serving

playwright = needs_chromium()

expect = playwright.expect
OUT = ROOT / "test-output"
PLAY = "10H 5D 10S go 5C 7C KH 8S 9D"  # the README's `cribcount peg` example: pone 1, dealer 4


@pytest.fixture(scope="module")
def server():
    with serving() as url:
        yield url


def tap_in(page, play: str) -> None:
    """Each card of `play` tapped on the Peg view's card pad, "go" on its Go button."""
    for token in play.split():
        if token == "go":
            page.get_by_role("button", name="Go", exact=True).tap()
        else:
            page.locator(f'#peg-pad button[data-card="{token}"]').tap()


def peg_page(browser, server, width: int = 390, height: int = 844):
    page = phone_page(browser, width, height)
    page.goto(f"{server}/#peg")
    expect(page.locator("#peg")).to_be_visible()
    return page


def start_board_game(page, server, players: str = "2") -> None:
    """A new game on the Board: Player 1 deals first (so Player 2 is pone with two players)."""
    page.goto(f"{server}/#board")
    page.locator("#board-players").select_option(players)
    page.get_by_role("button", name="Start", exact=True).click()
    page.get_by_role("link", name="Peg", exact=True).tap()
    expect(page.locator("#peg")).to_be_visible()


def test_each_play_shows_the_count_and_the_points_the_server_gives(browser, server):
    page = peg_page(browser, server)
    tap_in(page, PLAY)
    expect(page.locator("#peg-plays li")).to_have_count(9)
    answer = page.request.post(f"{server}/api/peg", data={"sequence": PLAY.split(), "players": 2}).json()
    expected = [(str(p["count"]), ", ".join(f'{r["reason"]} {r["points"]}' for r in p["reasons"]))
                for p in answer["plays"]]
    shown = page.locator("#peg-plays li").evaluate_all("""lis => lis.map(li => [
        li.querySelector('.count').textContent, (li.querySelector('.why') || {}).textContent || ''])""")
    assert [tuple(s) for s in shown] == expected
    assert expected[1] == ("15", "fifteen 2") and expected[-1] == ("9", "last card 1")
    expect(page.locator("#peg-count")).to_have_text("9")
    expect(page.locator("#peg-last")).to_have_text("Dealer: 9♦, last card 1")
    expect(page.locator("#peg-totals li")).to_have_text(["Pone1", "Dealer4"])
    expect(page.locator("#peg-done")).to_have_text("Every card is laid.")
    page.context.close()


def test_a_card_past_31_is_refused_with_the_servers_reason(browser, server):
    page = peg_page(browser, server)
    tap_in(page, "10H 10D 5C 9S")
    expect(page.locator("#peg-status")).to_contain_text("position 4 (9S): count would be 34, past 31")
    expect(page.locator("#peg-plays li")).to_have_count(3)
    expect(page.locator("#peg-count")).to_have_text("25")
    expect(page.locator('#peg-pad button[data-card="9S"]')).to_be_enabled()
    page.context.close()


def test_undo_takes_back_the_last_play(browser, server):
    page = peg_page(browser, server)
    tap_in(page, "10H 5D")
    expect(page.locator("#peg-count")).to_have_text("15")
    expect(page.locator('#peg-pad button[data-card="5D"]')).to_be_disabled()
    page.get_by_role("button", name="Undo the last", exact=True).tap()
    expect(page.locator("#peg-count")).to_have_text("10")
    expect(page.locator("#peg-plays li")).to_have_count(1)
    expect(page.locator('#peg-pad button[data-card="5D"]')).to_be_enabled()
    page.context.close()


def test_the_play_is_one_tap_from_the_board_each_score_with_its_reason(browser, server):
    page = peg_page(browser, server)
    start_board_game(page, server)
    tap_in(page, PLAY)
    expect(page.locator("#peg-totals li")).to_have_text(["Player 2 (pone)1", "Player 1 (dealer)4"])
    page.get_by_role("button", name="Peg on the Board", exact=True).tap()
    expect(page.locator("#peg-sent")).to_have_text("Pegged on the Board.")
    expect(page.get_by_role("button", name="Peg on the Board", exact=True)).to_be_disabled()  # pegged once
    screenshot(page)
    page.get_by_role("link", name="Board", exact=True).tap()
    expect(page.locator("#board-sides .points")).to_have_text(["4", "1"])
    expect(page.locator("#board-history li").first).to_contain_text("the play: last card 1")
    expect(page.locator("#board-history li", has_text="the play: fifteen 2")).to_have_count(1)
    page.context.close()


def test_four_players_peg_the_partners_points_on_their_side(browser, server):
    page = peg_page(browser, server)
    start_board_game(page, server, players="4")
    page.locator("#peg-players").select_option("4")
    tap_in(page, "5H 10D 6C 10S")  # across makes 15, the dealer 31: both the dealer's side
    expect(page.locator("#peg-plays .why")).to_have_text(["fifteen 2", "thirty-one 2"])
    page.get_by_role("button", name="Peg on the Board", exact=True).tap()
    page.get_by_role("link", name="Board", exact=True).tap()
    expect(page.locator("#board-sides .points")).to_have_text(["4", "0"])
    page.context.close()


def test_a_board_of_other_players_is_not_pegged(browser, server):
    page = peg_page(browser, server)
    start_board_game(page, server, players="3")
    tap_in(page, "10H 5D")
    page.get_by_role("button", name="Peg on the Board", exact=True).tap()
    expect(page.locator("#peg-sent")).to_have_text("The board keeps a game of 3; this play has 2 players.")
    page.context.close()


def test_the_view_fits_a_320_px_screen(browser, server):
    page = peg_page(browser, server, 320, 568)
    start_board_game(page, server)
    tap_in(page, PLAY)
    expect(page.locator("#peg-plays li")).to_have_count(9)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.context.close()


def screenshot(page) -> None:
    OUT.mkdir(exist_ok=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "peg-390x844.png"))
