"""The page's Discard view in a real headless Chromium: photo of the deal -> ranked advice, the throw boxed.

With the recognizer double (cards drawn on felt, fanned as in the hand), then, where the models and
the real photos are there, with the real recognizer on a real photo of six cards. Screenshots at
390x844 and 1280x800 go to test-output/ (docs/discard-390.png and docs/discard-1280.png are copies).
"""


import pytest
from dealt_photos import fanned, real_reason, real_six_cards
from support import ROOT, live_server, needs_chromium, phone_page, serving

from api.main import create_app

playwright = needs_chromium()

OUT = ROOT / "test-output"
DEAL = "2H 3D 4C 5S 5H JD"


def thrown_boxes(page) -> set[str]:
    return set(page.locator("#deal-boxes rect.throw").evaluate_all("rs => rs.map(r => r.dataset.card)"))


def screenshots(page, name: str) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    OUT.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    # Two phone screens: the photo with the throw boxed, then the best choices.
    two_screens = {"x": 0, "y": 0, "width": 390, "height": 2 * 844}
    page.screenshot(path=str(OUT / f"{name}-390.png"), full_page=True, clip=two_screens)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(OUT / f"{name}-1280.png"))
    assert (OUT / f"{name}-390.png").stat().st_size > 10_000


def test_photo_of_six_cards_gives_ranked_advice_with_the_throw_boxed(browser, tmp_path):
    expect = playwright.expect
    photo = fanned(DEAL)
    (tmp_path / "deal.jpg").write_bytes(photo.jpeg)
    with serving(photo) as url:
        page = phone_page(browser)
        page.goto(url)
        page.get_by_role("link", name="Discard", exact=True).tap()
        expect(page.locator("#discard")).to_be_visible()
        expect(page.locator("main[data-view=count]")).to_be_hidden()

        page.set_input_files("#deal-photo", str(tmp_path / "deal.jpg"))
        expect(page.locator("#advice-list li")).to_have_count(15)
        first = page.locator("#advice-list li").first
        expect(first.locator(".throw")).to_contain_text("5♥")
        expect(first.locator(".throw")).to_contain_text("5♠")
        expect(first).to_contain_text("in your own crib averages")
        assert thrown_boxes(page) == {"5H", "5S"}
        expect(page.locator("#deal-boxes rect.keep")).to_have_count(4)
        expect(page.locator("#deal-cards li")).to_have_count(6)

        # As pone the fives stay out of the dealer's crib, and the boxes follow.
        page.get_by_role("radio", name="Pone", exact=True).check()
        expect(first).to_contain_text("gives the dealer's crib")
        assert thrown_boxes(page) != {"5H", "5S"} and len(thrown_boxes(page)) == 2

        # Tapping another choice boxes its throw.
        third = page.locator("#advice-list li").nth(2)
        third.locator("button").tap()
        expect(third.locator("button")).to_have_attribute("aria-pressed", "true")
        labels = page.locator("#deal-boxes text").evaluate_all("ts => ts.map(t => t.textContent)")
        shown = {t.replace("throw ", "") for t in labels}
        assert shown == set(third.locator(".throw .mini").all_inner_texts())

        # A misread card is fixed by tapping it out and tapping the right one in.
        page.get_by_role("button", name="JD: tap to take it out", exact=True).tap()
        expect(page.locator("#deal-status")).to_contain_text("Add 1 more card")
        expect(page.locator("#advice")).to_be_hidden()
        page.locator("#deal-ranks button", has_text="K").tap()
        page.get_by_role("button", name="spades", exact=True).tap()
        expect(page.locator("#advice-list li")).to_have_count(15)
        expect(page.locator("#deal-cards li")).to_have_count(6)

        page.get_by_role("radio", name="Dealer", exact=True).check()
        expect(first).to_contain_text("in your own crib averages")
        screenshots(page, "discard-drawn")
        page.context.close()


def test_cards_tapped_in_for_three_players_and_a_wrong_photo_says_what_it_saw(browser, tmp_path):
    expect = playwright.expect
    four = fanned("2H 3D 4C 5S", size=(1600, 1204))
    (tmp_path / "four.jpg").write_bytes(four.jpeg)
    with serving(four) as url:
        page = phone_page(browser)
        page.goto(url + "#discard")
        page.locator("#deal-players").select_option("3")
        dealt = (("A", "clubs"), ("2", "hearts"), ("3", "spades"), ("7", "diamonds"), ("8", "clubs"))
        for rank, suit in dealt:
            page.locator("#deal-ranks button", has_text=rank).first.tap()
            page.get_by_role("button", name=suit, exact=True).tap()
        expect(page.locator("#advice-list li")).to_have_count(5)
        page.set_input_files("#deal-photo", str(tmp_path / "four.jpg"))
        expect(page.locator("#deal-status")).to_contain_text(
            "expected the 5 dealt cards of a 3-player game, saw 4")
        expect(page.locator("#deal-cards li")).to_have_count(4)
        page.context.close()


@pytest.mark.skipif(real_reason() is not None, reason=str(real_reason()))
def test_a_real_photo_of_six_cards_read_by_the_models(browser, tmp_path):
    expect = playwright.expect
    photo = real_six_cards(tmp_path / "six.jpg")
    with live_server(create_app()) as url:
        page = phone_page(browser)
        page.goto(url + "#discard")
        page.set_input_files("#deal-photo", str(photo))
        expect(page.locator("#advice-list li")).to_have_count(15, timeout=60_000)
        expect(page.locator("#deal-boxes rect.throw")).to_have_count(2)
        assert sorted(page.locator("#deal-cards .face").all_inner_texts()) == sorted(
            ["9♥", "10♥", "J♥", "Q♥", "K♥", "A♠"])
        screenshots(page, "discard")
        page.context.close()


SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
BBOXES = """ts => ts.map(t => { const b = t.getBBox();
    return {x: b.x, y: b.y, width: b.width, height: b.height}; })"""


def tap_in(page, cards: str) -> None:
    """Each card tapped in on the Discard pad: its rank, then its suit."""
    for card in cards.split():
        page.locator("#deal-ranks button", has_text=card[:-1]).first.tap()
        page.get_by_role("button", name=SUIT_NAMES[card[-1]], exact=True).tap()


def boxes_overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] \
        and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_the_throw_labels_on_the_photo_never_overlap(browser, tmp_path):
    photo = fanned(DEAL, size=(1600, 1208))
    (tmp_path / "deal.jpg").write_bytes(photo.jpeg)
    with serving(photo) as url:
        page = phone_page(browser)
        page.goto(url + "#discard")
        page.set_input_files("#deal-photo", str(tmp_path / "deal.jpg"))
        playwright.expect(page.locator("#advice-list li")).to_have_count(15)
        for choice in page.locator("#advice-list button.choice").all()[:6]:
            choice.tap()
            labels = page.locator("#deal-boxes text").evaluate_all(BBOXES)
            assert len(labels) == 2 and not boxes_overlap(*labels)
        page.context.close()


def test_from_two_players_to_three_no_card_is_dropped_unsaid(browser):
    expect = playwright.expect
    with serving() as url:
        page = phone_page(browser)
        page.goto(url + "#discard")
        tap_in(page, DEAL)
        expect(page.locator("#advice-list li")).to_have_count(15)
        page.locator("#deal-players").select_option("3")
        expect(page.locator("#deal-cards li")).to_have_count(6)
        expect(page.locator("#deal-status")).to_have_text("3 players are dealt 5: tap the card to take out.")
        expect(page.locator("#advice")).to_be_hidden()
        page.get_by_role("button", name="JD: tap to take it out", exact=True).tap()
        expect(page.locator("#advice-list li")).to_have_count(5)
        page.context.close()


def test_three_player_choices_alike_but_for_a_suit_are_told_apart(browser):
    expect = playwright.expect
    with serving() as url:
        page = phone_page(browser)
        page.goto(url + "#discard")
        page.locator("#deal-players").select_option("3")
        tap_in(page, "2H 3D 5C 5S 5H")
        expect(page.locator("#advice-list li")).to_have_count(5)
        names = page.locator("#advice-list button.choice").evaluate_all(
            "bs => bs.map(b => b.getAttribute('aria-label'))")
        fives = [n for n in names if n.startswith("Throw 5 of")]
        thrown = sorted(n.split(";")[0] for n in fives)
        assert thrown == ["Throw 5 of clubs", "Throw 5 of hearts", "Throw 5 of spades"]
        # 5C thrown reads as 5S thrown in every figure shown: the line says so instead of repeating it.
        twin = page.locator("#advice-list li").filter(has_text="As throwing 5♠, to a tenth of a point")
        expect(twin).to_have_count(1)
        expect(twin.locator(".throw")).to_have_text("Throw 5♣")
        page.context.close()
