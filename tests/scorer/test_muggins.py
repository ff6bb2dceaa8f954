"""Muggins: a claimed total is correct, over-claimed or under-claimed, and what was missed."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import FULL_DECK, Card, parse_cards
from scorer.muggins import MAX_CLAIM, InvalidClaimError, check_claim, parse_claim
from scorer.show import Show, score_show


def show(hand: str, starter: str, **options: bool) -> Show:
    return score_show(parse_cards(hand), Card.parse(starter), **options)


def spelled(items) -> list[str]:
    return [f"{item.kind} {' '.join(map(str, item.cards))}" for item in items]


def test_a_correct_claim() -> None:
    verdict = check_claim(show("5H 5D 4S 6C", "10D"), 16)
    assert (verdict.verdict, verdict.difference, verdict.missed) == ("correct", 0, ())
    assert verdict.message == "Correct: the hand counts 16."


def test_an_over_claim_has_no_missed_items_only_phantom_points() -> None:
    verdict = check_claim(show("2H 4H 6H 8H", "KS", crib=True), 4)
    assert (verdict.verdict, verdict.difference, verdict.missed) == ("over-claimed", 4, ())
    assert verdict.message == (
        "Over-claimed by 4 (claimed 4, the count is 0): nothing in the crib makes those 4 points."
    )


def test_forgetting_his_nobs_is_exactly_one_missed_item() -> None:
    verdict = check_claim(show("5H 5D 5S JC", "5C"), 28)
    assert verdict.verdict == "under-claimed" and verdict.difference == 1
    assert spelled(verdict.missed) == ["nobs JC"] and verdict.exact
    assert "missed his nobs (JC); the opponent may take 1" in verdict.message


def test_missing_both_runs_of_a_double_run() -> None:
    verdict = check_claim(show("5H 5D 4S 6C", "10D"), 10)
    assert spelled(verdict.missed) == ["run 4S 5D 6C", "run 4S 5H 6C"] and verdict.exact


def test_forgetting_the_flush() -> None:
    verdict = check_claim(show("2H 4H 6H 8H", "KH"), 0)
    assert spelled(verdict.missed) == ["flush 2H 4H 6H 8H KH"] and verdict.exact


def test_one_of_several_fifteens_is_ambiguous_so_all_candidates_are_listed() -> None:
    verdict = check_claim(show("8H 7C 7D 6S", "AS"), 14)
    # Two points short: any one of the four fifteens, or the pair.
    assert not verdict.exact
    assert [item.kind for item in verdict.missed] == ["fifteen"] * 4 + ["pair"]
    assert "missed one of the 4 fifteens or the pair" in verdict.message


def test_the_fewest_items_explain_the_shortfall() -> None:
    # 6 short in 5-5-4-6 + 10: two runs (2 items) rather than three fifteens (3 items).
    verdict = check_claim(show("5H 5D 4S 6C", "10D"), 10)
    assert {item.kind for item in verdict.missed} == {"run"}


def test_a_shortfall_no_items_make_lists_everything() -> None:
    result = show("3H 3D 4S 4C", "AD")  # fifteen + two pairs: only even numbers
    verdict = check_claim(result, 5)
    assert verdict.verdict == "under-claimed" and verdict.difference == 1
    assert verdict.missed == result.items and not verdict.exact
    assert "no set of items makes exactly 1" in verdict.message


def test_many_ways_are_summarised() -> None:
    verdict = check_claim(show("5H 5D 5S JC", "5C"), 20)
    assert "missed 9 points among the fifteens, pairs and nobs" in verdict.message
    assert not verdict.exact


@pytest.mark.parametrize("claim", [-1, 30, 100, 2.0, "12", None, True, False,
                                   pytest.param(10**5000, id="a 5001-digit int")])
def test_claims_must_be_whole_numbers_0_to_29(claim: object) -> None:
    with pytest.raises(InvalidClaimError, match="a claim is a whole number from 0 to 29"):
        check_claim(show("5H 5D 4S 6C", "10D"), claim)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("29", 29), (" 7 ", 7), (12, 12)])
def test_parse_claim(text: object, value: int) -> None:
    assert parse_claim(text) == value  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["-1", "30", "abc", "", "1.5", "٣"])
def test_parse_claim_rejects(text: str) -> None:
    with pytest.raises(InvalidClaimError):
        parse_claim(text)


deals = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


@given(deals, st.integers(0, MAX_CLAIM), st.booleans())
def test_correct_exactly_when_the_claim_is_the_count(cards: list[Card], claimed: int, crib: bool) -> None:
    result = score_show(tuple(cards[:4]), cards[4], crib=crib)
    verdict = check_claim(result, claimed)
    assert (verdict.verdict == "correct") == (claimed == result.total)
    assert verdict.difference == abs(claimed - result.total)
    assert (verdict.verdict == "over-claimed") == (claimed > result.total)
    if verdict.verdict != "under-claimed":
        assert verdict.missed == ()


@given(deals, st.integers(0, MAX_CLAIM))
def test_missed_items_can_make_up_the_shortfall(cards: list[Card], claimed: int) -> None:
    result = score_show(tuple(cards[:4]), cards[4])
    verdict = check_claim(result, claimed)
    if verdict.verdict != "under-claimed":
        return
    assert set(verdict.missed) <= set(result.items)
    points = [item.points for item in verdict.missed]
    if verdict.exact:
        assert sum(points) == verdict.difference
    elif "no set of items" not in verdict.message:
        assert any(
            sum(chosen) == verdict.difference
            for size in range(1, len(points) + 1)
            for chosen in itertools.combinations(points, size)
        )


def test_a_claim_of_thousands_of_digits_is_refused_in_the_players_words_and_not_echoed_whole():
    with pytest.raises(InvalidClaimError) as err:
        parse_claim("9" * 5000)
    assert "a claim is a whole number from 0 to 29" in str(err.value) and len(str(err.value)) < 120
