"""The discard advisor read like the rules: what is kept, what is thrown, which seat owns the crib."""

import numpy as np
import pytest

from scorer.cards import Card, InvalidCardError, parse_cards
from scorer.discard import DiscardError, advise
from scorer.opponent import PAIRS_IN_CLASS, InvalidModelError, OpponentModel, load_model


def throws(advice) -> list[str]:
    return [" ".join(map(str, c.throw)) for c in advice.choices]


def test_two_players_keep_four_of_six_in_fifteen_ways():
    advice = advise("2H 3D 4C 5S 5H JD", seat="dealer")
    assert len(advice.choices) == 15
    assert len({c.throw for c in advice.choices}) == 15
    assert all(len(c.keep) == 4 and len(c.throw) == 2 for c in advice.choices)


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_keep_four_of_five_and_throw_one(players):
    advice = advise("2H 3D 4C 5S 5H", seat="pone", players=players)
    assert len(advice.choices) == 5 and all(len(c.throw) == 1 for c in advice.choices)


def test_the_dealer_adds_the_crib_and_pone_takes_it_away():
    dealer = advise("2H 3D 4C 5S 5H JD", seat="dealer")
    pone = advise("2H 3D 4C 5S 5H JD", seat="pone")
    assert all(c.net == pytest.approx(c.hand.mean + c.crib) for c in dealer.choices)
    assert all(c.net == pytest.approx(c.hand.mean - c.crib) for c in pone.choices)


def test_pone_keeps_the_fives_out_of_the_dealers_crib():
    assert "5H 5S" not in throws(advise("2H 3D 4C 5S 5H JD", seat="pone"))[:3]


def test_the_dealer_gives_his_own_crib_the_pair_of_fives():
    assert throws(advise("2H 3D 4C 5S 5H JD", seat="dealer"))[0] == "5H 5S"


def test_three_fives_stay_and_pone_keeps_the_jack_for_nobs_and_a_29_chance():
    for seat in ("dealer", "pone"):
        best = advise("5H 5D 5S JC KH QH", seat=seat).choices[0]
        assert {"5H", "5D", "5S"} <= {str(c) for c in best.keep}
    best = advise("5H 5D 5S JC KH QH", seat="pone").choices[0]
    assert best.keep == parse_cards("5D 5H 5S JC") and best.hand.maximum == 29


def test_hand_minimum_is_what_the_four_make_without_help():
    choices = advise("3D 4C 5S 5H 9C KD", seat="pone").choices
    best = next(c for c in choices if c.throw == parse_cards("9C KD"))
    # 3-4-5-5: a double run of three (6) and a pair (2), whatever the starter.
    assert best.hand.minimum == 8
    assert best.reason.startswith("keeps a double run of 3-4-5-5 worth at least 8")


def test_jumps_name_the_starters_that_lift_the_hand_best_first():
    choices = advise("3D 4C 5S 5H 9C KD", seat="dealer").choices
    choice = next(c for c in choices if c.throw == parse_cards("9C KD"))
    top = choice.hand.jumps[0]
    assert {s.rank for s in top.starters} == {3} or top.points == choice.hand.maximum
    points = [j.points for j in choice.hand.jumps]
    assert points == sorted(points, reverse=True)
    assert all(Card.parse(s) not in choice.keep for j in choice.hand.jumps for s in map(str, j.starters))


def test_reasons_say_whose_crib_the_throw_feeds():
    assert "in your own crib averages" in advise("2H 3D 4C 5S 5H JD", seat="dealer").choices[0].reason
    assert "gives the dealer's crib" in advise("2H 3D 4C 5S 5H JD", seat="pone").choices[0].reason


def test_an_opponent_who_throws_fives_makes_the_crib_bigger():
    # A pair holding a five (rank index 4) is thrown a hundred times as often as any other.
    with_a_five = (np.arange(13)[:, None] == 4) | (np.arange(13)[None, :] == 4)
    weights = np.where(with_a_five, 100.0, 1.0)[:, :, None] * (PAIRS_IN_CLASS > 0)
    fives = OpponentModel("fives", {"dealer": weights, "pone": weights}, {})
    plain = advise("2H 3D 4C 9S KH JD", seat="dealer", model="uniform").choices
    generous = advise("2H 3D 4C 9S KH JD", seat="dealer", model=fives).choices
    by_throw = {c.throw: c.crib for c in plain}
    # A jack and a king make fifteens with every five the opponent throws.
    jack_king = parse_cards("JD KH")
    gained = {c.throw: c.crib - by_throw[c.throw] for c in generous}
    assert gained[jack_king] > 2 and gained[jack_king] == max(gained.values())


@pytest.mark.parametrize("cards, players, seat, error, says", [
    ("2H 3D 4C 5S 5H", 2, "dealer", DiscardError, "2 players are dealt 6 cards each, got 5"),
    ("2H 3D 4C 5S 5H JD", 3, "dealer", DiscardError, "3 players are dealt 5 cards each, got 6"),
    ("2H 3D 4C 5S 5H JD", 5, "dealer", DiscardError, "players must be 2, 3 or 4"),
    ("2H 3D 4C 5S 5H JD", 2, "crib", DiscardError, "seat must be dealer or pone"),
    ("2H 3D 4C 5S 5H 5H", 2, "pone", InvalidCardError, "5H is given twice"),
    ("2H 3D 4C 5S 5H ZZ", 2, "pone", InvalidCardError, "'ZZ' is not a card"),
])
def test_bad_deals_raise_a_clear_error(cards, players, seat, error, says):
    with pytest.raises(error, match=says):
        advise(cards, seat=seat, players=players)


def test_an_unknown_opponent_model_is_refused():
    with pytest.raises(InvalidModelError, match="opponent model must be one of table, uniform"):
        load_model("expert")
