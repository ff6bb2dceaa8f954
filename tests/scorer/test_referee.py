"""The referee at the show: a whole table counted in order, and each ruling of RULES.md
("Muggins (optional) and disputes at the show", "Game") given with cards spelled out."""

from __future__ import annotations

import pytest

from scorer.muggins import InvalidClaimError
from scorer.referee import (
    PONES_PARTNER,
    CallError,
    HouseRules,
    MugginsCall,
    TableError,
    rule_claim,
    rule_show,
    score_table,
    show_order,
    side_of,
)

MUGGINS = HouseRules(muggins=True)

# Pone 7H 8D 9C 2S with KS: fifteen 7H 8D (2), run 7-8-9 (3) = 5.
# The dealer QH 5C 4S 6D with KS: fifteens 5C QH, 5C KS, 4S 5C 6D (6), run 4-5-6 (3) = 9.
# The crib AC AD 10S 3H with KS: fifteens AC AD 3H 10S, AC AD 3H KS (4), pair of aces (2) = 6.
TWO = {"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H"}


def table(hands=TWO, starter="KS", players=2, **options):
    return score_table(hands, starter, players=players, **options)


# --------------------------------------------------------------------------- the table counted


def test_the_show_goes_clockwise_from_the_dealers_left_dealer_last_then_the_crib() -> None:
    assert show_order(2) == ("pone", "dealer", "crib")
    assert show_order(3) == ("pone", "second", "dealer", "crib")
    assert show_order(4) == ("pone", "dealer's partner", "pone's partner", "dealer", "crib")
    assert [role for role, _ in table().shows] == ["pone", "dealer", "crib"]


def test_every_hand_and_the_crib_is_counted_with_the_starter() -> None:
    assert [(role, show.total) for role, show in table().shows] == [("pone", 5), ("dealer", 9), ("crib", 6)]
    assert table().side_totals == (("pone", 5), ("dealer", 15))


def test_a_four_card_flush_scores_in_a_hand_but_not_in_the_crib() -> None:
    counted = table({"pone": "2H 4H 6H 8H", "dealer": "QH 5C 4S 6D", "crib": "2D 4D 10D 8D"})
    assert counted.show("pone").total == 4
    assert counted.show("crib").total == 0


def test_his_heels_is_counted_once_for_the_dealer_not_in_every_hand() -> None:
    counted = table({"pone": "5H 5D 5S 4C", "dealer": "2H 3H 4H 6H", "crib": "KS QS 9C 8C"}, "JD")
    assert counted.his_heels == 2
    assert [show.total for _, show in counted.shows] == [14, 11, 3]
    assert counted.side_totals == (("pone", 14), ("dealer", 11 + 3 + 2))


def test_four_players_peg_as_partners_the_crib_to_the_dealers_side() -> None:
    counted = table({"pone": "7H 8D 9C 2S", "dealer's partner": "QH 5C 4S 6D",
                     "pone's partner": "2H 4H 6S 9D", "dealer": "AC AD 10S 3H", "crib": "JC QC 7C 8C"},
                    "KS", players=4)
    totals = dict(counted.side_totals)
    assert totals["pone"] == counted.show("pone").total + counted.show("pone's partner").total
    assert totals["dealer"] == sum(counted.show(r).total for r in ("dealer's partner", "dealer", "crib"))
    assert side_of("pone's partner", 4) == "pone" and side_of("dealer's partner", 4) == "dealer"


def test_with_four_players_each_hand_is_claimed_by_its_partnership() -> None:
    counted = table({"pone": "7H 8D 9C 2S", "dealer's partner": "QH 5C 4S 6D",
                     "pone's partner": "2H 4H 6S 9D", "dealer": "AC AD 10S 3H", "crib": "JC QC 7C 8C"},
                    "KS", players=4)
    said = {role: rule_claim(counted, role, counted.show(role).total).message
            for role in ("pone's partner", "dealer's partner", "crib")}
    assert said["pone's partner"].startswith("Pone's side claimed ")
    assert said["pone's partner"].endswith(f"pone's side pegs {counted.show(PONES_PARTNER).total}.")
    assert said["dealer's partner"].startswith("The dealer's side claimed ")
    assert said["crib"].startswith("The dealer's side claimed ")


def test_five_card_cribbage_shows_three_card_hands_and_a_four_card_crib() -> None:
    counted = table({"pone": "7H 8D 9C", "dealer": "QH 5C 4S", "crib": "AC AD 10S 3H"}, five_card=True)
    assert [len(show.hand) for _, show in counted.shows] == [3, 3, 4]
    assert counted.show("pone").total == 5  # fifteen 7H 8D, run 7-8-9


# --------------------------------------------------------------------------- claims and muggins


def test_a_correct_claim_pegs_the_count() -> None:
    ruling = rule_claim(table(), "pone", 5)
    assert (ruling.kind, ruling.pegs) == ("correct", (("pone", 5),))
    assert ruling.message == "Pone claimed 5, the hand is 5: correct — pone pegs 5."


def test_muggins_for_the_missed_amount_gives_it_to_the_caller() -> None:
    ruling = rule_claim(table(), "pone", 3, call=MugginsCall("pone", 2, caller="dealer"), rules=MUGGINS)
    assert (ruling.kind, ruling.pegs) == ("muggins", (("pone", 3), ("dealer", 2)))
    assert [str(item) for item in ruling.missed] == ["fifteen 7H 8D: 2"]
    assert ruling.message == ("Pone claimed 3, the hand is 5: muggins for 2 — the dealer takes 2 "
                              "(missed: fifteen 7H 8D).")


def test_muggins_for_too_little_takes_only_what_was_called() -> None:
    ruling = rule_claim(table(), "pone", 0, call=MugginsCall("pone", 2, caller="dealer"), rules=MUGGINS)
    assert ruling.pegs == (("dealer", 2),)
    assert "the dealer takes 2; the other 3 missed are lost" in ruling.message


def test_muggins_for_too_much_takes_never_more_than_was_missed() -> None:
    ruling = rule_claim(table(), "pone", 3, call=MugginsCall("pone", 6, caller="dealer"), rules=MUGGINS)
    assert ruling.pegs == (("pone", 3), ("dealer", 2))
    assert "muggins for 6, but only 2 were missed — the dealer takes 2" in ruling.message


def test_a_wrong_muggins_call_gives_the_called_player_the_points() -> None:
    ruling = rule_claim(table(), "pone", 5, call=MugginsCall("pone", 3, caller="dealer"), rules=MUGGINS)
    assert (ruling.kind, ruling.pegs) == ("wrong muggins", (("pone", 8),))
    assert ruling.message == ("Pone claimed 5, the hand is 5: muggins for 3, but nothing was missed — "
                              "pone pegs 5 and 3 more as the penalty against the dealer.")


def test_muggins_off_the_under_claimed_points_are_simply_lost() -> None:
    ruling = rule_claim(table(), "pone", 3)
    assert (ruling.kind, ruling.pegs) == ("missed points lost", (("pone", 3),))
    assert "muggins is off, so the 2 missed are lost — pone pegs 3" in ruling.message


def test_muggins_on_but_not_called_the_missed_points_are_lost() -> None:
    ruling = rule_claim(table(), "pone", 3, rules=MUGGINS)
    assert ruling.pegs == (("pone", 3),)
    assert "nobody called muggins" in ruling.message


def test_no_muggins_on_his_heels() -> None:
    counted = table({"pone": "5H 5D 5S 4C", "dealer": "2H 3H 4H 6H", "crib": "KS QS 9C 8C"}, "JD")
    with pytest.raises(CallError, match="no muggins on his heels"):
        rule_show(counted, {"dealer": 11}, [MugginsCall("his heels", 2, caller="pone")], rules=MUGGINS)


def test_the_dealer_claims_the_crib() -> None:
    ruling = rule_claim(table(), "crib", 4, call=MugginsCall("crib", 2, caller="pone"), rules=MUGGINS)
    assert ruling.pegs == (("dealer", 4), ("pone", 2))
    assert ruling.message.startswith("The dealer claimed 4 for the crib, the crib is 6: muggins for 2")


def test_an_over_claim_is_put_back_to_the_true_count() -> None:
    ruling = rule_claim(table(), "dealer", 12)
    assert (ruling.kind, ruling.pegs) == ("put back", (("dealer", 9),))
    assert ruling.message == ("The dealer claimed 12, the hand is 9: put back to 9 (ACC 8.4) — "
                              "the dealer pegs 9.")


def test_the_house_option_gives_an_over_claims_excess_to_the_opponent() -> None:
    ruling = rule_claim(table(), "dealer", 12, rules=HouseRules(excess_to_opponent=True))
    assert ruling.pegs == (("dealer", 9), ("pone", 3))
    assert ruling.message.endswith("and pone takes the 3 over (house rule).")


def test_a_false_claim_of_game_goes_back_pays_the_excess_and_costs_fifteen() -> None:
    # Pone at 113 claims 9 to peg out (122); the hand is 5, so pone stands at 118: a false claim.
    ruling = rule_claim(table(), "pone", 9, scores={"pone": 113, "dealer": 100}, game=121)
    assert ruling.kind == "false claim of game"
    assert ruling.pegs == (("pone", 5 - 15), ("dealer", 4))
    assert ruling.message == ("Pone claimed 9, the hand is 5 and pone stood at 113 of 121: a false claim "
                              "of game — the peg goes back, the dealer takes 4, and pone goes 15 back "
                              "(pegs -10).")


def test_the_excess_of_a_false_claim_of_game_goes_only_up_to_the_game_hole() -> None:
    ruling = rule_claim(table(), "pone", 9, scores={"pone": 54, "dealer": 59}, game=61)
    assert ruling.pegs == (("pone", -10), ("dealer", 2))


# --------------------------------------------------------------------------- the show in order, game


def test_pone_goes_out_before_the_dealer_counts() -> None:
    outcome = rule_show(table(), {}, scores={"pone": 117, "dealer": 120})
    assert (outcome.winner, outcome.ended_at, outcome.not_counted) == ("pone", "pone", ("dealer", "crib"))
    assert dict(outcome.scores) == {"pone": 122, "dealer": 120}
    assert [ruling.role for ruling in outcome.rulings] == ["pone"]


def test_the_crib_can_win_the_game_after_both_hands() -> None:
    outcome = rule_show(table(), {}, scores={"pone": 100, "dealer": 110})
    assert (outcome.winner, outcome.ended_at, outcome.not_counted) == ("dealer", "crib", ())


def test_a_game_that_goes_on_has_no_winner() -> None:
    outcome = rule_show(table(), {"pone": 3}, [MugginsCall("pone", 2, caller="dealer")], rules=MUGGINS)
    assert (outcome.winner, outcome.ended_at) == (None, None)
    assert dict(outcome.scores) == {"pone": 3, "dealer": 2 + 9 + 6}


def test_a_muggins_call_can_take_the_caller_out() -> None:
    outcome = rule_show(table(), {"pone": 3}, [MugginsCall("pone", 2, caller="dealer")], rules=MUGGINS,
                        scores={"pone": 10, "dealer": 119})
    assert (outcome.winner, outcome.ended_at, outcome.not_counted) == ("dealer", "pone", ("dealer", "crib"))


def test_three_players_name_who_takes_an_over_claims_excess() -> None:
    three = table({"pone": "7H 8D 9C 2S", "second": "QH 5C 4S 6D", "dealer": "2H 4H 6S 9D",
                   "crib": "AC AD 10S 3H"}, players=3)
    house = HouseRules(excess_to_opponent=True)
    with pytest.raises(CallError, match="name the player who objected"):
        rule_claim(three, "pone", 7, rules=house)
    assert rule_claim(three, "pone", 7, rules=house, by="second").pegs == (("pone", 5), ("second", 2))


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("hands", "starter", "players", "error"),
    [
        ({"pone": "7H 8D 9C", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H"}, "KS", 2,
         "pone's hand holds 4 cards, got 3: 7H 8D 9C"),
        ({"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 7H"}, "KS", 2,
         "7H is in the crib and in pone's hand"),
        ({"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H"}, "9C", 2,
         "9C is in pone's hand and in the starter"),
        ({"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H", "north": "2H 4H 6S 9D"},
         "KS", 2, "'north' is not a role at a table of 2"),
        ({"pone": "7H 8D 9C 2S", "crib": "AC AD 10S 3H"}, "KS", 2, "the table has no cards for 'dealer'"),
        (TWO, "KS", 5, "a table has 2, 3 or 4 players, got 5"),
    ],
)
def test_a_table_that_cannot_be_shown_is_a_clear_error(hands, starter, players, error) -> None:
    with pytest.raises(TableError, match=error):
        score_table(hands, starter, players=players)


@pytest.mark.parametrize(
    ("claims", "call", "rules", "error"),
    [
        ({}, MugginsCall("pone", 2, caller="dealer"), MUGGINS, "nobody claimed a total for it"),
        ({"pone": 3}, MugginsCall("pone", 0, caller="dealer"), MUGGINS, "positive whole number"),
        ({"pone": 3}, MugginsCall("pone", -2, caller="dealer"), MUGGINS, "positive whole number"),
        ({"pone": 3}, MugginsCall("pone", 1.5, caller="dealer"), MUGGINS, "positive whole number"),
        ({"pone": 3}, MugginsCall("pone", True, caller="dealer"), MUGGINS, "positive whole number"),
        ({"pone": 3}, MugginsCall("pone", 2, caller="dealer"), HouseRules(), "muggins is off"),
        ({"crib": 4}, MugginsCall("crib", 2, caller="dealer"), MUGGINS, "on their own side's count"),
    ],
)
def test_a_muggins_call_that_cannot_be_made_is_a_clear_error(claims, call, rules, error) -> None:
    with pytest.raises(CallError, match=error):
        rule_show(table(), claims, [call], rules=rules)


def test_a_claim_on_an_unknown_role_is_a_clear_error() -> None:
    with pytest.raises(TableError, match="'north' is not a role"):
        rule_claim(table(), "north", 5)


def test_a_game_is_to_121_or_61() -> None:
    with pytest.raises(TableError, match="a game is to 121 or 61 points, not 100"):
        rule_show(table(), {}, game=100)


def test_a_claim_out_of_range_is_a_clear_error() -> None:
    with pytest.raises(InvalidClaimError, match="a claim is a whole number from 0 to 29"):
        rule_claim(table(), "pone", 30)
