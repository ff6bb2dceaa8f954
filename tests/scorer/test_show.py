"""The show, one rule per test, in card notation; the worked examples; properties; the table."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from show_reference import reference_count

from scorer.bulk import score_totals
from scorer.cards import FULL_DECK, JACK, Card, InvalidCardError, parse_cards
from scorer.show import (
    InvalidHandError,
    ScoreItem,
    Show,
    find_fifteens,
    find_flush,
    find_nobs,
    find_pairs,
    find_runs,
    flush_points,
    hand_size,
    score_show,
)

ROOT = Path(__file__).resolve().parents[2]


def show(hand: str, starter: str, **options: bool) -> Show:
    return score_show(parse_cards(hand), Card.parse(starter), **options)


def kinds(result: Show) -> Counter:
    return Counter(item.kind for item in result.items)


def spelled(result: Show, kind: str) -> list[str]:
    return [" ".join(map(str, item.cards)) for item in result.items if item.kind == kind]


# --------------------------------------------------------------------------- one rule per test


def test_fifteen_two_fifteen_four_and_a_pair_is_six() -> None:
    result = show("7H 8C 8D KS", "2C")
    assert spelled(result, "fifteen") == ["7H 8C", "7H 8D"]
    assert spelled(result, "pair") == ["8C 8D"]
    assert result.total == 6
    assert result.announcement == "Fifteen two, fifteen four, and a pair is six"


def test_every_fifteen_combination_of_two_to_five_cards_scores_two() -> None:
    # A-2-3-4-5 sums to 15 only with all five cards.
    assert spelled(show("AH 2C 3D 4S", "5H"), "fifteen") == ["AH 2C 3D 4S 5H"]
    # Two cards (9-6), three (8-6-A), four (9-3-2-A): each its own fifteen, smallest first.
    result = show("9H 6C 3D 2S", "AC")
    assert spelled(result, "fifteen") == ["6C 9H", "AC 2S 3D 9H"]
    assert spelled(show("8H 6C KD QS", "AC"), "fifteen") == ["AC 6C 8H"]
    assert result.points("fifteen") == 4


def test_pair_royal_is_three_pairs() -> None:
    result = show("9H 9D 9S 2C", "KD")
    assert kinds(result) == {"pair": 3}
    assert result.total == 6
    assert result.announcement == "A pair royal is six"


def test_double_pair_royal_is_six_pairs() -> None:
    result = show("9H 9D 9S 9C", "KD")
    assert kinds(result) == {"pair": 6}
    assert result.total == 12
    assert result.announcement == "A double pair royal is twelve"


def test_run_of_three() -> None:
    result = show("AH 2C 3D 7S", "9H")
    assert spelled(result, "run") == ["AH 2C 3D"]
    assert spelled(result, "fifteen") == ["AH 2C 3D 9H"]
    assert result.total == 5


def test_run_of_four_is_one_run_never_two_runs_of_three() -> None:
    result = show("AH 2C 3D 4S", "9H")
    assert [(item.cards, item.points) for item in result.items if item.kind == "run"] == [
        (parse_cards("AH 2C 3D 4S"), 4)
    ]
    assert result.total == 8  # 9-4-2 and 9-3-2-A, and the run of four


def test_run_of_five() -> None:
    result = show("AH 2C 3D 4S", "5H")
    assert spelled(result, "run") == ["AH 2C 3D 4S 5H"]
    assert result.total == 7


def test_double_run_of_three() -> None:
    result = show("8H 7C 7D 6S", "AS")
    assert spelled(result, "run") == ["6S 7C 8H", "6S 7D 8H"]
    assert result.total == 16
    assert result.announcement == (
        "Fifteen two, fifteen four, fifteen six, fifteen eight, and a double run of three is sixteen"
    )


def test_double_run_of_four() -> None:
    result = show("7H 8C 9D 10S", "8H")
    assert spelled(result, "run") == ["7H 8C 9D 10S", "7H 8H 9D 10S"]
    assert result.points("run") + result.points("pair") == 10
    assert result.total == 14
    assert "a double run of four" in result.announcement


def test_triple_run_is_three_runs_and_a_pair_royal() -> None:
    result = show("3H 3C 3D 4S", "5H")
    assert kinds(result) == {"fifteen": 3, "pair": 3, "run": 3}
    assert result.total == 21
    assert result.announcement == "Fifteen two, fifteen four, fifteen six, and a triple run is twenty-one"


def test_double_double_run_is_four_runs_and_two_pairs() -> None:
    result = show("3H 3C 4D 4S", "5H")
    assert kinds(result) == {"fifteen": 2, "pair": 2, "run": 4}
    assert result.total == 20
    assert result.announcement == "Fifteen two, fifteen four, and a double double run is twenty"


def test_ace_is_low_queen_king_ace_is_not_a_run() -> None:
    result = show("QH KC AD 5S", "9H")
    assert "run" not in kinds(result)
    assert result.total == 6  # Q-5, K-5, A-5-9


def test_nine_jack_queen_is_not_a_run() -> None:
    result = show("9H JC QD 2S", "4H")
    assert "run" not in kinds(result)
    assert result.total == 2  # 9-4-2


def test_king_ace_two_is_not_a_run() -> None:
    assert "run" not in kinds(show("KH AC 2D 7S", "9H"))


def test_hand_flush_of_four_scores_four() -> None:
    result = show("2H 4H 6H 8H", "KS")
    assert [(item.kind, item.points) for item in result.items] == [("flush", 4)]
    assert spelled(result, "flush") == ["2H 4H 6H 8H"]
    assert result.announcement == "A flush for four is four"


def test_hand_flush_with_the_starter_scores_five() -> None:
    result = show("2H 4H 6H 8H", "KH")
    assert spelled(result, "flush") == ["2H 4H 6H 8H KH"]
    assert result.total == 5


def test_crib_flush_needs_all_four_crib_cards_and_the_starter() -> None:
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    assert show("2H 4H 6H 8H", "KH", crib=True).total == 5


def test_three_hand_cards_and_the_starter_of_one_suit_are_no_flush() -> None:
    assert "flush" not in kinds(show("2H 4H 6H 8C", "KH"))


def test_nobs_is_the_jack_of_the_starters_suit_in_the_hand() -> None:
    result = show("JH 2C 4D 9S", "KH")
    assert [(item.kind, item.cards) for item in result.items if item.kind == "nobs"] == [
        ("nobs", (Card.parse("JH"),))
    ]
    assert result.total == 3  # 9-4-2 and nobs
    assert result.announcement == "Fifteen two, and one for his nobs is three"


def test_a_jack_of_another_suit_is_not_nobs() -> None:
    assert "nobs" not in kinds(show("JC 2C 4D 9S", "KH"))


def test_a_jack_starter_is_never_nobs_but_his_heels() -> None:
    result = show("2C 4D 9S KH", "JH")
    assert "nobs" not in kinds(result)
    assert result.his_heels == 2
    assert result.total == 2  # his heels is the dealer's, apart from any count


def test_his_heels_also_when_counting_the_crib() -> None:
    assert show("2C 4D 9S KH", "JH", crib=True).his_heels == 2
    assert show("2C 4D 9S KH", "QH").his_heels == 0


def test_a_hand_of_nothing_is_called_nineteen() -> None:
    result = show("2H 4C 6D 8S", "QH")
    assert result.total == 0 and result.items == ()
    assert result.announcement == "Nineteen (no score)"


def test_twenty_nine_hand() -> None:
    result = show("5H 5D 5S JC", "5C")
    assert kinds(result) == {"fifteen": 8, "pair": 6, "nobs": 1}
    assert result.total == 29
    assert result.announcement.endswith(
        "a double pair royal makes twenty-eight, and one for his nobs is twenty-nine"
    )


def test_two_pairs_are_announced_together() -> None:
    assert show("3H 3D 4S 4C", "AD").announcement == "Fifteen two, and two pairs is six"


def test_a_pair_outside_a_run_is_its_own_phrase() -> None:
    result = show("3H 4C 5D KS", "KH")
    assert result.announcement == "Fifteen two, fifteen four, a pair makes six, and a run of three is nine"


def test_only_fifteens_are_announced_without_a_sum() -> None:
    assert show("2H 3C 9D KS", "QH").announcement == "Fifteen two, fifteen four"


# --------------------------------------------------------------------------- worked examples (RULES.md)


@pytest.mark.parametrize(
    ("hand", "starter", "hand_total", "crib_total"),
    [
        ("5H 5D 4S 6C", "10D", 16, 16),  # 4 fifteens, pair, two runs 4-5-6
        ("JC 2H 3S 3D", "AC", 13, 13),  # J-2-3 x2, pair, two runs A-2-3, nobs
        ("3H 3D 4S 4C", "AD", 6, 6),  # 3-3-4-4-A = 15, two pairs
        ("5H 5D 5S JC", "5C", 29, 29),  # 8 fifteens, four of a kind, nobs
        ("8H 7C 7D 6S", "AS", 16, 16),  # 4 fifteens, double run of 3
        ("2H 3C 3D 4S", "10H", 12, 12),  # 2 fifteens, double run of 3
        ("8H 7C 6D 2S", "2H", 11, 11),  # Raggedy Andy
        ("8H 7C 6D AS", "AH", 13, 13),  # Raggedy Ann
        ("2H 4H 6H 8H", "KS", 4, 0),  # a 4-card flush counts only in a hand
    ],
)
def test_worked_examples(hand: str, starter: str, hand_total: int, crib_total: int) -> None:
    assert show(hand, starter).total == hand_total
    assert show(hand, starter, crib=True).total == crib_total


# --------------------------------------------------------------------------- five-card cribbage


def test_five_card_hand_is_three_cards_and_the_starter() -> None:
    result = show("2C 3D 4H", "4S", five_card=True)
    assert result.total == 8  # double run of three
    assert result.five_card and len(result.hand) == 3


def test_five_card_hand_flush_is_three_or_four() -> None:
    assert show("2H 6H 8H", "KS", five_card=True).points("flush") == 3
    assert show("2H 6H 8H", "KH", five_card=True).points("flush") == 4


def test_five_card_crib_is_still_four_cards_and_the_starter() -> None:
    assert hand_size(crib=True, five_card=True) == 4
    assert show("2H 4H 6H 8H", "KS", crib=True, five_card=True).total == 0
    with pytest.raises(InvalidHandError, match="a crib has 4 cards"):
        show("2H 4H 6H", "KS", crib=True, five_card=True)


# --------------------------------------------------------------------------- bad hands


@pytest.mark.parametrize(
    ("hand", "starter", "options", "error", "message"),
    [
        ("5H 5D 5S", "5C", {}, InvalidHandError, "a hand has 4 cards besides the starter, got 3: 5H 5D 5S"),
        ("5H 5D 5S JC 2C", "5C", {}, InvalidHandError, "got 5"),
        ("5H 5D 5S JC 2C 3C", "5C", {}, InvalidHandError, "got 6"),
        ("", "5C", {}, InvalidHandError, "got 0: nothing"),
        ("5H 5D 5S JC", "5C", {"five_card": True}, InvalidHandError, "five-card cribbage hand has 3 cards"),
        ("5H 5D 5S JC", "5H", {}, InvalidHandError, "the starter 5H is also in the hand"),
        ("5H 5D 5S JC", "5S", {"crib": True}, InvalidHandError, "the starter 5S is also in the crib"),
        ("5H 5D 5S", "5H", {"five_card": True}, InvalidHandError, "the starter 5H is also in"),
        ("5H 5D 5H JC", "5C", {}, InvalidCardError, "5H is given twice"),
        ("5H 5D 1X JC", "5C", {}, InvalidCardError, "'1X' is not a card"),
        ("5H 5D 5S JC", "ZZ", {}, InvalidCardError, "'ZZ' is not a card"),
    ],
)
def test_bad_hands_name_the_problem(
    hand: str, starter: str, options: dict, error: type, message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(")):
        score_show(hand, starter, **options)


def test_a_card_twice_in_a_tuple_of_cards() -> None:
    five_hearts = Card.parse("5H")
    with pytest.raises(InvalidHandError, match="5H is in the hand twice"):
        score_show((five_hearts, five_hearts, Card.parse("6C"), Card.parse("7C")), Card.parse("8C"))


def test_things_that_are_not_cards() -> None:
    with pytest.raises(InvalidHandError, match="is not a card"):
        score_show((1, 2, 3, 4), Card.parse("5C"))  # type: ignore[arg-type]
    with pytest.raises(InvalidHandError, match="not a list of cards"):
        score_show(5, Card.parse("5C"))  # type: ignore[arg-type]


def test_cards_may_be_given_as_notation_or_any_sequence() -> None:
    expected = show("5H 5D 5S JC", "5C")
    assert score_show(["5H", "5D", "5S", "JC"], "5C") == expected
    assert score_show(list(parse_cards("5H 5D 5S JC")), Card.parse("5C")) == expected
    assert score_show(iter(parse_cards("5H 5D 5S JC")), "5c") == expected


def test_score_item_kind_is_checked() -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        ScoreItem("straight", (), 3)  # type: ignore[arg-type]


def test_flush_points_rule() -> None:
    hand = [flush_points(4, suited, starter) for suited in (False, True) for starter in (False, True)]
    assert hand == [0, 0, 4, 5]
    assert [flush_points(4, True, starter, crib=True) for starter in (False, True)] == [0, 5]


# --------------------------------------------------------------------------- properties

deals = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


def _check_item(item: ScoreItem, result: Show) -> None:
    cards = item.cards
    assert list(cards) == sorted(cards) and len(set(cards)) == len(cards)
    assert set(cards) <= set(result.hand) | {result.starter}
    if item.kind == "fifteen":
        assert len(cards) >= 2 and sum(c.value for c in cards) == 15 and item.points == 2
    elif item.kind == "pair":
        assert len(cards) == 2 and cards[0].rank == cards[1].rank and item.points == 2
    elif item.kind == "run":
        ranks = [c.rank for c in cards]
        assert len(ranks) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))
        assert item.points == len(cards)
    elif item.kind == "flush":
        assert len({c.suit for c in cards}) == 1 and item.points == len(cards)
        assert set(result.hand) <= set(cards)
        assert len(cards) == len(result.hand) + 1 or not result.crib
    elif item.kind == "nobs":
        (jack,) = cards
        assert jack.rank == JACK and jack.suit is result.starter.suit and jack in result.hand
        assert item.points == 1
    else:  # pragma: no cover
        raise AssertionError(item.kind)


@given(deals, st.booleans())
def test_items_sum_to_the_total_and_each_really_scores(cards: list[Card], crib: bool) -> None:
    result = score_show(tuple(cards[:4]), cards[4], crib=crib)
    assert sum(item.points for item in result.items) == result.total
    for item in result.items:
        _check_item(item, result)
    assert len(set(result.items)) == len(result.items)  # each combination once


@given(deals, st.booleans(), st.randoms(use_true_random=False))
def test_hand_order_never_changes_anything(cards: list[Card], crib: bool, rng: random.Random) -> None:
    hand = cards[:4]
    shuffled = hand[:]
    rng.shuffle(shuffled)
    assert score_show(tuple(shuffled), cards[4], crib=crib) == score_show(tuple(hand), cards[4], crib=crib)


@given(deals, st.booleans())
def test_a_show_is_its_rules_items_in_announcement_order(cards: list[Card], crib: bool) -> None:
    hand, starter = tuple(sorted(cards[:4])), cards[4]
    everything = sorted(cards)
    rules = [*find_fifteens(everything), *find_pairs(everything), *find_runs(everything),
             *find_flush(hand, starter, crib=crib), *find_nobs(hand, starter)]
    assert score_show(hand, starter, crib=crib).items == tuple(rules)


@given(deals, st.booleans())
def test_totals_are_0_to_29_and_never_19_25_26_27(cards: list[Card], crib: bool) -> None:
    total = score_show(tuple(cards[:4]), cards[4], crib=crib).total
    assert 0 <= total <= 29 and total not in (19, 25, 26, 27)


@given(deals, st.booleans())
def test_show_agrees_with_the_reference_counter(cards: list[Card], crib: bool) -> None:
    hand, starter = tuple(cards[:4]), cards[4]
    assert score_show(hand, starter, crib=crib).total == reference_count(hand, starter, crib)


@given(st.lists(st.sampled_from(FULL_DECK), min_size=4, max_size=4, unique=True))
def test_five_card_hands_agree_with_the_reference_counter(cards: list[Card]) -> None:
    hand, starter = tuple(cards[:3]), cards[3]
    result = score_show(hand, starter, five_card=True)
    assert result.total == reference_count(hand, starter)
    for item in result.items:
        _check_item(item, result)


def test_thousands_of_random_deals_agree_with_the_reference_counter() -> None:
    rng = random.Random(15_2)
    for crib in (False, True):
        for _ in range(3000):
            cards = rng.sample(FULL_DECK, 5)
            hand, starter = tuple(cards[:4]), cards[4]
            assert score_show(hand, starter, crib=crib).total == reference_count(hand, starter, crib), (
                hand, starter, crib)


# --------------------------------------------------------------------------- many deals at once


def test_score_totals_agrees_with_score_show() -> None:
    np = pytest.importorskip("numpy")
    rng = random.Random(29)
    sampled = [rng.sample(FULL_DECK, 5) for _ in range(2000)]
    hands = np.array([[c.index for c in cards[:4]] for cards in sampled])
    starters = np.array([cards[4].index for cards in sampled])
    for crib in (False, True):
        expected = [score_show(tuple(cards[:4]), cards[4], crib=crib).total for cards in sampled]
        assert score_totals(hands, starters, crib=crib).tolist() == expected


def test_score_totals_rejects_bad_deals() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(InvalidHandError, match="card twice"):
        score_totals(np.array([[0, 1, 2, 3], [4, 5, 6, 4]]), np.array([9, 10]))
    with pytest.raises(InvalidHandError, match="card twice"):
        score_totals(np.array([[0, 1, 2, 3]]), np.array([3]))
    with pytest.raises(InvalidHandError, match="0..51"):
        score_totals(np.array([[0, 1, 2, 52]]), np.array([9]))
    with pytest.raises(InvalidHandError, match="shape"):
        score_totals(np.array([0, 1, 2, 3]), np.array([9]))


@pytest.mark.slow
def test_every_deal_reproduces_the_published_tables() -> None:
    # The benchmark counts all 12,994,800 deals as hands and as cribs and exits 1 when a
    # histogram differs from the table published in RULES.md (kept in it as data, like a perft).
    done = subprocess.run([sys.executable, "-m", "benchmarks.scorer", "--calls", "0"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("12,994,800 deals") == 2
    assert done.stdout.count("table matches") == 2
