"""The Board view in a real headless Chromium: the game's rules (board-game.js, one test per rule of
../shared/RULES.md "Game" and "Muggins"), then a whole game to 121 played through the page with a
skunk, an undo, muggins and a reload mid-game. Screenshots go to test-output/.
"""

import json
import re

import pytest
from support import ROOT, needs_chromium, serving, show_photo

playwright = needs_chromium()

OUT = ROOT / "test-output"


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    """A photo the test recognizer reads as the 29 hand: 5H 5D 5S JC, starter 5C."""
    drawn = show_photo("5H 5D 5S JC 5C")
    path = tmp_path_factory.mktemp("photo") / "29.jpg"
    path.write_bytes(drawn.jpeg)
    return path, drawn


@pytest.fixture(scope="module")
def server(photo):
    with serving(photo[1]) as url:
        yield url


@pytest.fixture(scope="module")
def rules(browser, server):
    """Call board-game.js in the page: rules("score(newGame(), {type: 'heels'})") -> its JSON value."""
    page = browser.new_context().new_page()
    page.goto(f"{server}/static/icons/icon-192.png")  # same origin, no page script running

    def run(expression: str):
        return page.evaluate(f"""async () => {{
            const {{ newGame, score, replay, undo, restore, skunkOf, showOrder, losers }} =
                await import("/static/board-game.js");
            const play = (game, ...events) => events.reduce(score, game);
            try {{ return JSON.parse(JSON.stringify({expression})); }}
            catch (err) {{ return {{ error: err.message }}; }}
        }}""")

    yield run
    page.context.close()


def show(seat: int, count: int, claim: int | None = None, what: str = "hand") -> str:
    claimed = "" if claim is None else f", claim: {claim}"
    return f'{{type: "show", seat: {seat}, what: "{what}", count: {count}{claimed}}}'


TWO = "newGame({names: ['Ann', 'Bob']})"  # Ann deals first: Bob is pone
MUGGINS = "newGame({names: ['Ann', 'Bob'], muggins: true})"


# --- the rules ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("target", "loser", "skunk"), [
    (121, 91, ""), (121, 90, "skunk"), (121, 61, "skunk"), (121, 60, "double skunk"),
    (61, 31, ""), (61, 30, "skunk"),
])
def test_skunk_is_the_loser_short_of_the_line(rules, target, loser, skunk):
    assert rules(f"skunkOf({target}, {loser})") == skunk


def test_pone_shows_first_then_the_dealer_then_the_crib(rules):
    assert rules("showOrder(newGame({players: 2}).setup, 0)") == [
        {"seat": 1, "what": "hand"}, {"seat": 0, "what": "hand"}, {"seat": 0, "what": "crib"}]
    assert "Bob's hand counts first" in rules(f"play({TWO}, {show(0, 8)})")["error"]


def test_three_players_show_from_the_dealers_left_round_to_the_dealer(rules):
    assert [s["seat"] for s in rules("showOrder(newGame({players: 3}).setup, 1)")] == [2, 0, 1, 1]


def test_the_deal_passes_to_the_left(rules):
    assert rules("replay(play(newGame({players: 3, firstDealer: 2}), {type: 'deal'})).dealer") == 0


def test_partners_share_one_track(rules):
    game = "newGame({players: 4, names: ['Ann', 'Bob', 'Cy', 'Di']})"
    assert rules(f"replay(play({game}, {show(1, 4)}, {show(2, 6)})).fronts") == [6, 4]


def test_the_front_peg_is_the_score_and_the_back_peg_the_score_before(rules):
    table = rules(f"replay(play({TWO}, {{type: 'peg', side: 1, points: 2}}, {show(1, 12)}))")
    assert (table["fronts"][1], table["backs"][1]) == (14, 2)


def test_undo_takes_back_the_last_score(rules):
    assert rules(f"replay(undo(play({TWO}, {show(1, 12)}, {show(0, 6)}))).fronts") == [0, 12]


def test_his_heels_is_two_for_the_dealer_once_before_the_show(rules):
    assert rules(f"replay(play({TWO}, {{type: 'heels'}})).fronts") == [2, 0]
    twice = rules(f"play({TWO}, {{type: 'heels'}}, {{type: 'heels'}})")
    assert twice["error"] == "His heels is pegged once a hand."
    assert "before the play" in rules(f"play({TWO}, {show(1, 4)}, {{type: 'heels'}})")["error"]


def test_the_game_ends_at_the_hole_in_the_order_of_the_show(rules):
    bob_116 = ", ".join(["{type: 'peg', side: 1, points: 29}"] * 4)
    near = f"play({TWO}, {bob_116}, {{type: 'peg', side: 0, points: 29}})"  # Bob 116, Ann 29
    table = rules(f"replay(play({near}, {show(1, 8)}))")  # pone goes out before the dealer counts
    assert (table["winner"], table["fronts"]) == (1, [29, 121])
    assert "The game is over: Bob won" in rules(f"play({near}, {show(1, 8)}, {show(0, 29 - 5)})")["error"]
    assert rules(f"losers(play({near}, {show(1, 8)}))") == [
        {"side": 0, "score": 29, "skunk": "double skunk"}]


def test_his_heels_can_win_the_game(rules):
    near = f"play({TWO}, " + ", ".join(["{type: 'peg', side: 0, points: 17}"] * 7) + ")"  # Ann 119
    assert rules(f"replay(play({near}, {{type: 'heels'}})).winner") == 0


def test_under_muggins_an_under_claim_lets_the_other_side_take_the_missed_points(rules):
    claimed = f"play({MUGGINS}, {show(1, 12, claim=9)})"
    assert rules(f"replay({claimed}).fronts") == [0, 9]
    assert rules(f"replay(play({claimed}, {{type: 'muggins', side: 0}})).fronts") == [3, 9]
    own = rules(f"play({claimed}, {{type: 'muggins', side: 1}})")
    assert own["error"] == "Muggins is called on the other side."


def test_muggins_is_called_at_once_before_the_next_count(rules):
    later = f"play({MUGGINS}, {show(1, 12, claim=9)}, {show(0, 4)}, {{type: 'muggins', side: 0}})"
    assert rules(later)["error"] == "Nothing was missed in the last count."


def test_an_over_claim_is_put_back_to_the_count(rules):
    assert rules(f"replay(play({MUGGINS}, {show(1, 12, claim=14)})).fronts") == [0, 12]


def test_without_muggins_the_count_is_pegged_whatever_was_claimed(rules):
    assert rules(f"replay(play({TWO}, {show(1, 12, claim=9)})).fronts") == [0, 12]
    assert rules(f"play({TWO}, {show(1, 12, claim=9)}, {{type: 'muggins', side: 0}})")["error"] == (
        "Muggins is off in this game.")


@pytest.mark.parametrize("count", [19, 25, 26, 27, 30, -1])
def test_no_hand_counts_what_no_hand_can(rules, count):
    assert "error" in rules(f"play({TWO}, {show(1, count)})")


def test_a_stored_game_that_is_not_one_is_refused(rules):
    stored = json.dumps({"setup": {"players": 5}, "events": []})
    assert rules(f"restore(JSON.parse('{stored}'))")["error"] == "A game is for 2, 3 or 4 players."


# --- a whole game through the page --------------------------------------------------------------

def side_points(page) -> list[str]:
    return page.locator("#board-sides .points").all_inner_texts()


def peg_show(page, count: int, claim: int | None = None) -> None:
    """Type a count (and the claim, under muggins) and tap the one button that pegs it for whoever shows."""
    page.locator("#board-count").fill(str(count))
    if claim is not None:
        page.locator("#board-claim").fill(str(claim))
    page.locator("#board-show-to").click()


def tap(page, name: str) -> None:
    page.get_by_role("button", name=name, exact=True).click()


def count_seen(page, total: int, crib: bool = False) -> None:
    """What the Count view dispatches when it shows a count."""
    page.evaluate("""(d) => document.dispatchEvent(new CustomEvent("cribcount:count", {detail: d}))""",
                  {"total": total, "crib": crib, "hisHeels": False, "cards": [], "starter": None,
                   "items": []})


def new_game_ann_and_bob(page) -> None:
    expect = playwright.expect
    expect(page.locator("#board-setup")).to_be_visible()  # no game kept yet: the form is open
    page.get_by_label("Player 1's name").fill("Ann")
    page.get_by_label("Player 2's name").fill("Bob")
    page.get_by_label("First dealer (low cut)").select_option("0")
    page.get_by_role("checkbox", name=re.compile("Muggins")).check()
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#board-rules")).to_have_text("2 players, to 121, muggins on")


def hands_one_and_two(page) -> None:
    expect = playwright.expect
    expect(page.locator("#board-deal")).to_have_text("Hand 1: Ann deals. Next to show: Bob's hand.")
    tap(page, "His heels: 2 for Ann")
    tap(page, "Peg 2 for Bob")
    tap(page, "Peg 1 for Ann")
    count_seen(page, 24)  # a photo counted on the Count view: one tap pegs it for pone
    expect(page.locator("#board-from-count")).to_have_text("From the Count view: 24 for a hand.")
    tap(page, "Peg for Bob's hand")
    peg_show(page, 12)
    peg_show(page, 8)  # Ann's crib
    assert side_points(page) == ["23", "26"]
    tap(page, "Next hand: Bob deals")
    tap(page, "Peg 6 for Ann")  # a slip: undone
    page.get_by_role("button", name="Undo", exact=True).click()
    tap(page, "Peg 2 for Ann")
    peg_show(page, 10, claim=8)  # Ann under-claims: Bob calls muggins
    tap(page, "Muggins! Bob takes 2")
    peg_show(page, 20)
    peg_show(page, 12)
    assert side_points(page) == ["33", "60"]
    expect(page.locator("#board-history li").first).to_contain_text("Bob's crib")
    tap(page, "Next hand: Ann deals")


def test_a_whole_game_to_121_with_a_skunk_an_undo_and_a_reload(browser, server):
    expect = playwright.expect
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/#board")
    new_game_ann_and_bob(page)
    hands_one_and_two(page)
    peg_show(page, 24)
    page.reload()  # mid-game: the game is kept in the browser
    expect(page.locator("#board-deal")).to_have_text("Hand 3: Ann deals. Next to show: Ann's hand.")
    assert side_points(page) == ["33", "84"]
    expect(page.locator("#board-history li")).to_have_count(14)
    peg_show(page, 16)
    peg_show(page, 12)
    tap(page, "Next hand: Bob deals")
    tap(page, "Peg 3 for Bob")
    for count in (14, 12, 6):
        peg_show(page, count)
    tap(page, "Next hand: Ann deals")
    tap(page, "Peg 4 for Ann")
    assert side_points(page) == ["79", "105"]
    peg_show(page, 16)  # pone counts first and goes out: Ann's 20 is never counted
    expect(page.locator("#board-winner")).to_have_text("Bob wins, 121 to Ann 79 (skunk). A skunk!")
    expect(page.locator("#board-show-to")).to_be_disabled()
    assert page.locator('.peg.front[data-hole="121"]').count() == 1
    screenshots(page)
    page.get_by_role("button", name="New game", exact=True).click()
    page.get_by_role("button", name="Start", exact=True).click()
    assert side_points(page) == ["0", "0"]
    page.context.close()


def screenshots(page) -> None:
    OUT.mkdir(exist_ok=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "board-390x844.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "board-1280x800.png"))
    page.set_viewport_size({"width": 390, "height": 844})


def test_a_photo_counted_on_the_count_view_is_one_tap_from_the_board(browser, server, photo):
    expect = playwright.expect
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(server)
    page.set_input_files("#photo", str(photo[0]))
    expect(page.locator("#total")).to_have_text("29")
    page.get_by_role("link", name="Board", exact=True).click()
    # The view switches on hashchange, after the click: until then the Count view's "Starter" chip shows.
    expect(page.locator("#board")).to_be_visible()
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.locator("#board-from-count")).to_have_text("From the Count view: 29 for a hand.")
    page.get_by_role("button", name="Peg for Player 2's hand", exact=True).click()
    assert side_points(page) == ["0", "29"]
    page.context.close()
