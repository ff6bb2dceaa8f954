"""The page's Practice view in a real headless Chromium: a dealt hand, a wrong count, a right one.

The hand is dealt by the server at random; the test reads the cards off the page and counts
them with the scorer, so it types a total it knows to be wrong, then one it knows to be right.
Screenshots at 390x844 and 1280x800 go to test-output/ (docs/practice-390.png and
docs/practice-1280.png are copies of one run).
"""


import pytest
from support import ROOT, needs_chromium, phone_page, serving, wait_until

from scorer.show import Show, score_show

playwright = needs_chromium()

OUT = ROOT / "test-output"


@pytest.fixture(scope="module")
def server():
    with serving() as url:
        yield url


def deals(page) -> int:
    return int(page.locator("#practice-cards").get_attribute("data-deals") or 0)


def dealt(page) -> Show:
    """The hand on the page, counted by the scorer."""
    cards = page.locator("#practice-cards .chip").evaluate_all("cs => cs.map(c => c.dataset.card)")
    crib = page.locator("#practice-cards").get_attribute("data-crib") == "true"
    return score_show(cards[:4], cards[4], crib=crib)


def deal_another(page) -> Show:
    before = deals(page)
    page.get_by_role("button", name="Deal another", exact=True).tap()
    wait_until(page, f"Number(document.querySelector('#practice-cards').dataset.deals) > {before}")
    return dealt(page)


def count(page, answer: str) -> None:
    page.locator("#practice-answer").fill(answer)
    page.get_by_role("button", name="Check", exact=True).tap()


def test_practice_a_wrong_count_resets_the_streak_a_right_one_grows_it_and_survives_a_reload(browser, server):
    expect = playwright.expect
    page = phone_page(browser)
    page.goto(server + "/#practice")
    expect(page.locator('[data-tab="practice"]')).to_have_attribute("aria-current", "page")
    expect(page.locator("#practice-cards .chip")).to_have_count(5)
    expect(page.locator("#practice-cards .chip.starter")).to_have_count(1)
    expect(page.locator('input[name="practice-level"][value="easy"]')).to_be_checked()
    show = dealt(page)
    assert 2 <= show.total <= 8  # easy hands first

    # A wrong total, two short: the missed items are listed, the streak is 0.
    count(page, str(show.total - 2))
    expect(page.locator("#practice-verdict")).to_contain_text(f"Not quite. Under-claimed by 2 (claimed "
                                                              f"{show.total - 2}, the count is {show.total})")
    missed = page.locator("#practice-missed li")
    expect(missed.first).to_be_visible()
    spelled = {f"{i.kind} {' '.join(map(str, i.cards))} ({i.points})" for i in show.items}
    for text in missed.locator(".what").all_inner_texts():
        assert text in spelled
    expect(page.locator("#practice-streak")).to_have_text("0")
    expect(page.locator("#practice-score")).to_have_text("0/1")
    expect(page.locator("#practice-announcement")).to_contain_text(f"({show.total})")

    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    OUT.mkdir(exist_ok=True)
    page.locator("#practice-cards").scroll_into_view_if_needed()
    page.screenshot(path=str(OUT / "practice-390.png"))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / "practice-1280.png"))
    assert (OUT / "practice-390.png").stat().st_size > 10_000
    page.set_viewport_size({"width": 390, "height": 844})

    # A right count, item by item: the streak grows.
    show = deal_another(page)
    expect(page.locator("#practice-result")).to_be_hidden()
    typed = "; ".join(f"{'15 with' if i.kind == 'fifteen' else i.kind} {' '.join(map(str, i.cards))}"
                      for i in show.items) or "19"
    count(page, typed)
    expect(page.locator("#practice-verdict")).to_contain_text("Right! Correct")
    expect(page.locator("#practice-streak")).to_have_text("1")
    expect(page.locator("#practice-score")).to_have_text("1/2")

    # The score and streak live in the browser's storage: a reload keeps them and deals a new hand.
    page.reload()
    expect(page.locator("#practice-cards .chip")).to_have_count(5)
    expect(page.locator("#practice-streak")).to_have_text("1")
    expect(page.locator("#practice-score")).to_have_text("1/2")
    expect(page.locator("#practice-best")).to_have_text("1")


def test_a_slip_in_the_typing_is_said_and_nothing_is_scored(browser, server):
    expect = playwright.expect
    page = phone_page(browser)
    page.goto(server + "/#practice")
    expect(page.locator("#practice-cards .chip")).to_have_count(5)
    count(page, "a straight")
    expect(page.locator("#practice-verdict")).to_contain_text("'a straight' is not an item: start it with 15")
    expect(page.locator("#practice-score")).to_have_text("0/0")
    expect(page.locator("#practice-result")).to_be_hidden()


def test_the_count_view_is_still_the_first_view(browser, server):
    expect = playwright.expect
    page = phone_page(browser)
    page.goto(server)
    expect(page.locator("#practice")).to_be_hidden()
    page.get_by_role("link", name="Practice", exact=True).tap()
    expect(page.locator("#practice-cards .chip")).to_have_count(5)
    page.get_by_role("link", name="Count", exact=True).tap()
    expect(page.locator("#practice")).to_be_hidden()
