"""Practice: deals chosen by lesson, a typed count read, and judged item by item."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cards import FULL_DECK, parse_cards
from scorer.practice import LESSONS, Deal, InvalidLevelError, deal, judge, lessons_in
from scorer.practice_answer import InvalidAnswerError, parse_answer
from scorer.show import score_show


def count(hand: str, starter: str, answer: str, *, crib: bool = False):
    dealt = Deal.parse(hand, starter, crib=crib)
    return judge(dealt, parse_answer(answer, dealt.cards))


# -- deals --------------------------------------------------------------------------------------------

def test_a_deal_is_four_cards_and_a_starter_all_different():
    for seed in range(200):
        dealt = deal(random.Random(seed), "mixed", crib=True)
        assert len(set(dealt.cards)) == 5
        assert list(dealt.hand) == sorted(dealt.hand)


def test_the_same_seed_deals_the_same_hands():
    first, second = random.Random(42), random.Random(42)
    assert [deal(first, crib=True) for _ in range(20)] == [deal(second, crib=True) for _ in range(20)]


def test_easy_hands_are_small_with_at_most_one_run_and_no_flush_or_nobs():
    rng = random.Random(5)
    for _ in range(200):
        show = deal(rng, "easy").show()
        kinds = [item.kind for item in show.items]
        assert 2 <= show.total <= 8
        assert kinds.count("run") <= 1 and "flush" not in kinds and "nobs" not in kinds


def test_no_crib_is_dealt_unless_asked_for():
    rng = random.Random(6)
    assert not any(deal(rng).crib for _ in range(200))
    assert 30 < sum(deal(rng, crib=True).crib for _ in range(200)) < 120


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_deal_chosen_for_a_lesson_holds_it(lesson):
    rng = random.Random(11)
    chosen = [d for d in (deal(rng, crib=True, focus=[lesson]) for _ in range(300)) if d.lesson == lesson]
    assert chosen
    assert all(lesson in lessons_in(d.show()) for d in chosen)


def test_a_missed_lesson_comes_up_more_often():
    def share(focus):
        rng = random.Random(3)
        return sum("nobs" in lessons_in(deal(rng, focus=focus).show()) for _ in range(400))
    plain, focused = share(()), share(["nobs"])
    assert focused > 2 * plain


def test_after_a_miss_even_easy_practice_deals_the_lesson():
    rng = random.Random(8)
    assert any(deal(rng, "easy", focus=["double run"]).lesson == "double run" for _ in range(50))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"level": "hard"}, "level must be easy or mixed, got 'hard'"),
    ({"focus": ["muggins"]}, "unknown lesson 'muggins'"),
])
def test_unknown_level_or_lesson(kwargs, message):
    with pytest.raises(InvalidLevelError, match=re.escape(message)):
        deal(random.Random(0), **kwargs)


@pytest.mark.parametrize(("hand", "starter", "crib", "lessons"), [
    ("JC 2H 3D 3S", "AC", False, ("nobs", "double run")),
    ("8H 7C 7D 6S", "AS", False, ("double run", "fifteens")),
    ("2H 4H 6H 8H", "KS", True, ("crib flush",)),
    ("2H 4H 6H 8H", "KS", False, ("flush",)),
    ("5H 5D 5S JC", "5C", False, ("nobs", "fifteens", "pair royal")),
    ("2C 4D 9H KS", "QH", False, ()),
])
def test_lessons_a_hand_holds(hand, starter, crib, lessons):
    assert lessons_in(score_show(hand, starter, crib=crib)) == lessons


# -- reading an answer ----------------------------------------------------------------------------------

DEALT = parse_cards("5H 5D 4S 6C 10D")


def test_a_total_is_a_number():
    assert parse_answer(" 16 ", DEALT).total == 16


@pytest.mark.parametrize("text", ["nineteen", "19", "Nothing"])
def test_nineteen_means_nothing(text):
    assert parse_answer(text, DEALT).total == 0


def test_items_may_be_typed_in_any_case_with_t_or_10_and_loose_spacing():
    loose = parse_answer("  15 WITH 5h  td;pair 5D,5H\nrun of 3 6c 4s 5h ;  ", DEALT)
    tidy = parse_answer("15 with 5H 10D; pair 5H 5D; run 4S 5H 6C", DEALT)
    assert loose == tidy
    assert [str(item) for item in tidy.items] == ["fifteen 5H 10D", "pair 5D 5H", "run 4S 5H 6C"]


def test_flush_and_nobs_may_be_named_without_cards():
    answer = parse_answer("flush; his nobs", parse_cards("2H 4H 6H JH 8H"))
    assert [(item.kind, item.cards) for item in answer.items] == [("flush", ()), ("nobs", ())]


@pytest.mark.parametrize(("text", "message"), [
    ("", "nothing typed"),
    ("30", "a total is a whole number from 0 to 29, got '30'"),
    ("-1", "a total is a whole number from 0 to 29"),
    ("straight 4S 5H 6C", "'straight 4S 5H 6C' is not an item: start it with 15, pair, run, flush or nobs"),
    ("15 with 5H 1X", "'1X' in '15 with 5H 1X' is not a card"),
    ("pair 5H 9C", "9C is not one of the cards dealt (5H 5D 4S 6C 10D)"),
    ("15 with 5H 5H", "5H is named twice in '15 with 5H 5H'"),
    ("15 with", "name the cards that make the fifteen"),
    ("pair 5H 5D 10D", "a pair is two cards"),
    ("run 4S 5H", "a run is 3 cards or more"),
])
def test_bad_answers_say_what_is_wrong(text, message):
    with pytest.raises(InvalidAnswerError, match=re.escape(message)):
        parse_answer(text, DEALT)


# -- judging --------------------------------------------------------------------------------------------

def test_a_right_total_is_correct():
    result = count("5H 5D 4S 6C", "10D", "16")
    assert result.correct and not result.missed and result.lessons == ()


def test_a_short_total_names_the_missed_items():
    result = count("5H 5D 5S JC", "5C", "28")
    assert not result.correct
    assert [str(item) for item in result.missed] == ["nobs JC: 1"]
    assert result.lessons == ("nobs",)
    assert "missed his nobs" in result.message


def test_every_item_named_is_correct():
    result = count("8H 7C 7D 6S", "AS",
                   "15 with 8H 7C; 15 with 8H 7D; 15 with 7C 7D AS; 15 with 8H 6S AS; "
                   "run 6S 7C 8H; run 6S 7D 8H; pair 7C 7D")
    assert result.correct and result.claimed == 16 and len(result.right) == 7
    assert result.message == "Correct: the hand counts 16, every item named."


def test_one_run_of_a_double_run_named_misses_the_other():
    result = count("8H 7C 7D 6S", "AS", "15 with 8H 7C; 15 with 8H 7D; 15 with 7C 7D AS; "
                                        "15 with 8H 6S AS; run 6S 7C 8H; pair 7C 7D")
    assert [str(item) for item in result.missed] == ["run 6S 7D 8H: 3"]
    assert result.lessons == ("double run",)


@pytest.mark.parametrize(("hand", "starter", "crib", "answer", "reason"), [
    ("5H 9C 2D KS", "AC", False, "15 with 5H 9C", "5H 9C make 14, not 15"),
    ("5H 6C 2D KS", "AC", False, "pair 5H 6C", "5H 6C are not the same rank"),
    ("3H 4S 5D 6C", "KD", False, "run 3H 4S 5D",
     "part of the run of 4 3H 4S 5D 6C: a longer run counts once, at its full length"),
    ("3H 4S 6D 7C", "KD", False, "run 3H 4S 6D", "3H 4S 6D are not consecutive ranks"),
    ("2H 4H 6H 8H", "KS", True, "flush", "a 4-card flush does not count in the crib"),
    ("2H 4H 6H 8H", "KH", False, "flush 2H 4H 6H 8H", "the flush is 2H 4H 6H 8H KH (5)"),
    ("2H 4C 6H 9D", "JS", False, "nobs", "the starter jack is his heels (2 for the dealer), not nobs"),
    ("2H 4C 6H JD", "KS", False, "nobs JD", "nobs is the jack of the starter's suit (spades); JD is not"),
])
def test_a_wrong_item_says_which_rule_it_breaks(hand, starter, crib, answer, reason):
    result = count(hand, starter, answer, crib=crib)
    assert not result.correct
    assert len(result.wrong) == 1 and reason in result.wrong[0].reason
    assert reason in result.message


def test_an_item_named_twice_counts_once():
    result = count("5H 10D 2C 4S", "9H", "15 with 5H 10D; 15 with 10d 5h; 15 with 2C 4S 9H")
    assert [w.reason for w in result.wrong] == ["named twice: it counts once"]
    assert result.claimed == 6 and result.show.total == 4


def test_crib_flush_over_claim_by_total_practises_the_crib_flush():
    result = count("2H 4H 6H 8H", "KS", "4", crib=True)
    assert result.message.startswith("Over-claimed by 4")
    assert result.lessons == ("crib flush",)


deals5 = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=200, deadline=None)
@given(deals5, st.booleans(), st.randoms(use_true_random=False))
def test_naming_every_item_is_correct_and_leaving_one_out_misses_it(cards, crib, rng):
    dealt = Deal.parse([str(c) for c in cards[:4]], str(cards[4]), crib=crib)
    items = list(dealt.show().items)
    assert judge(dealt, parse_answer(str(dealt.show().total), dealt.cards)).correct
    if not items:
        return
    said = {"fifteen": "15"}
    typed = "; ".join(f"{said.get(i.kind, i.kind)} {' '.join(map(str, i.cards))}" for i in items)
    assert judge(dealt, parse_answer(typed, dealt.cards)).correct
    left_out = rng.choice(items)
    rest = [i for i in items if i is not left_out]
    typed = "; ".join(f"{i.kind} {' '.join(map(str, i.cards))}" for i in rest) or "0"
    result = judge(dealt, parse_answer(typed, dealt.cards))
    assert not result.correct
    assert left_out in result.missed
