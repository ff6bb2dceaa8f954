"""The play with three players and with four in partnership: RULES.md, "Discarding", last bullet.

Seats are named from the dealer: ``left`` leads, play goes clockwise (``left``,
``right``, ``dealer`` with three; ``left``, ``across``, ``right``, ``dealer``
with four), and partners sit across from each other.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pegging_reference import plain_points

from scorer.cards import FULL_DECK, Card
from scorer.pegging import (
    IllegalPlayError,
    InvalidPlayersError,
    Pegging,
    Play,
    score_pegging,
    seats_for,
)


def peg(text: str, players: int) -> Pegging:
    return score_pegging(text.split(), players=players)


def who_laid(result: Pegging) -> list[tuple[str, str]]:
    return [(p.player, str(p.card)) for p in result.plays if p.card is not None]


# -- seats and turns --------------------------------------------------------------------------------

def test_left_of_the_dealer_leads_and_play_goes_clockwise():
    assert who_laid(peg("AH 2C 3D 4S", 4)) == [
        ("left", "AH"), ("across", "2C"), ("right", "3D"), ("dealer", "4S")]
    assert who_laid(peg("AH 2C 3D 4S", 3)) == [
        ("left", "AH"), ("right", "2C"), ("dealer", "3D"), ("left", "4S")]


def test_with_three_a_go_passes_to_the_next_player_who_can_play():
    # left KH 10, right QD 20, dealer JC 30 (run of 3); left cannot play, right's AS makes 31.
    result = peg("KH QD JC go AS", 3)
    assert result.plays[3] == Play("left", None, 30, 0, ())
    assert result.plays[4].player == "right"
    assert result.totals == {"left": 0, "right": 2, "dealer": 3}


def test_with_three_the_last_to_lay_a_card_takes_the_go():
    # left 10H 10, right 10D 20 pair, dealer 9C 29; left and right say go, then dealer: go 1 to dealer.
    result = peg("10H 10D 9C go go go", 3)
    assert result.plays[2].reasons[-1] == ("go", 1)
    assert result.totals == {"left": 0, "right": 2, "dealer": 1}


def test_after_a_go_the_player_after_the_last_to_lay_leads():
    # Dealer took the go with 9C at 29, so left leads the next count.
    assert peg("10H 10D 9C go go 5S", 3).plays[-1].player == "left"


def test_a_player_out_of_cards_is_passed_over():
    # Dealer lays a last card at 30 and takes the go; left leads 8D, then dealer, out of cards, is
    # passed over and right lays 6H.
    result = peg("KH QD JC go AS 5D 9C 7S 4H 2C go 3S 8D 6H", 3)
    assert result.plays[-2].player == "left" and result.plays[-1].player == "right"
    assert result.plays[-1].reasons == (("last card", 1),)


def test_partners_points_go_to_their_side():
    # left 5H; across 10D makes 15 (2); right 6C 21; dealer 10S makes 31 (2). Dealer and across are
    # partners, as are left and right.
    result = peg("5H 10D 6C 10S", 4)
    assert result.totals == {"left": 0, "across": 2, "right": 0, "dealer": 2}
    assert result.sides == {"left and right": 0, "dealer and across": 4}


def test_two_players_have_no_sides():
    assert peg("5H 10D", 2).sides == {}


# -- full plays, checked by hand --------------------------------------------------------------------

FULL_PLAYS = [
    # Three: left KH 9C 2C 8D, right QD AS 7S 6H, dealer JC 5D 4H 3S.
    # left KH 10; right QD 20; dealer JC 30 run of 3 (3); left go; right AS 31 (2).
    # Dealer leads 5D 5; left 9C 14; right 7S 21; dealer 4H 25; left 2C 27; right, holding 6H, goes;
    # dealer 3S 30, run 4-2-3 (3), and dealer is out of cards; left's 8D does not fit: go 1 to dealer.
    # Left leads 8D 8; right 6H 14, last card 1.
    (3, "KH QD JC go AS 5D 9C 7S 4H 2C go 3S 8D 6H", {"left": 0, "right": 3, "dealer": 7}, {}),
    (3, "KH QD JC go AS 5D 9C 7S 4H 2C go 3S go 8D 6H", {"left": 0, "right": 3, "dealer": 7}, {}),
    # Four: left 5H 2D 10C 9S, across 10D 3C KC 5S, right 6C AH 4D QH, dealer 4C 6D 8S 7H.
    # left 5H 5; across 10D 15 fifteen 2; right 6C 21; dealer 4C 25; left 2D 27; across 3C 30
    # run 4-2-3 (3); right AH 31 (2) and run of 4 A-2-3-4 (4).
    # Dealer leads 6D 6; left 10C 16; across KC 26; right 4D 30; dealer, left and across go;
    # right's QH does not fit either: go 1 to right.
    # Dealer leads 8S 8; left 9S 17; across 5S 22; right goes; dealer 7H 29, go 1.
    # Right leads QH 10, last card 1.
    (4, "5H 10D 6C 4C 2D 3C AH 6D 10C KC 4D go go go 8S 9S 5S go 7H QH",
     {"left": 0, "across": 5, "right": 8, "dealer": 1}, {"left and right": 8, "dealer and across": 6}),
    (4, "5H 10D 6C 4C 2D 3C AH 6D 10C KC 4D go go go go 8S 9S 5S go 7H QH",
     {"left": 0, "across": 5, "right": 8, "dealer": 1}, {"left and right": 8, "dealer and across": 6}),
]


@pytest.mark.parametrize(("players", "sequence", "totals", "sides"), FULL_PLAYS)
def test_full_play_totals(players: int, sequence: str, totals: dict, sides: dict):
    result = peg(sequence, players)
    assert result.complete
    assert result.totals == totals
    assert result.sides == sides
    assert sum(p.card is not None for p in result.plays) == 4 * players


def test_four_player_json_reports_seats_totals_and_sides():
    data = peg("5H 10D 6C 10S", 4).as_dict()
    assert data["players"] == 4
    assert data["seats"] == ["left", "across", "right", "dealer"]
    assert data["sides"] == {"left and right": 0, "dealer and across": 4}
    assert data["plays"][1]["player"] == "across"


# -- illegal plays ------------------------------------------------------------------------------------

ILLEGAL = [
    (3, "KH QD JC 9C", 4, "9C", "count would be 39, past 31; if left cannot play, write go here"),
    (4, "KH QD AS 5C go 9C", 6, "9C", "count would be 35, past 31; if across cannot play, write go here"),
    (3, "5H 6D go", 3, "go", "dealer cannot say go at 11: any card fits"),
    (4, "5H 5D 5C 5H", 4, "5H", "5H was already played at position 1"),
    # Right says go at 30 holding AS, which it lays later: a renege.
    (3, "KH QD JC go go AH 2D AS", 5, "go", "right said go at 30 holding AS (played at position 8)"),
    (3, "AH AC AD AS 2H 2C 2D 2S 3H 3C 3D 3S 4H", 13, "4H", "all 3 players have laid all 4 cards"),
    (3, "AH AC AD AS 2H 2C 2D 2S 3H 3C 3D 3S go", 13, "go", "the play is over: all 12 cards are laid"),
]


@pytest.mark.parametrize(("players", "sequence", "position", "token", "message"), ILLEGAL)
def test_illegal_play_names_its_position(
    players: int, sequence: str, position: int, token: str, message: str
):
    with pytest.raises(IllegalPlayError) as caught:
        peg(sequence, players)
    assert (caught.value.position, caught.value.token) == (position, token)
    assert message in str(caught.value)


@pytest.mark.parametrize("players", [0, 1, 5, True])
def test_pegging_is_for_two_three_or_four_players(players):
    with pytest.raises(InvalidPlayersError, match="2, 3 or 4 players"):
        score_pegging(["5H"], players=players)


# -- random complete plays against a second, plainly written scorer ---------------------------------


def play_out(cards: list[Card], players: int, rng: random.Random):
    """Deal four cards to each seat and play by the rules, a random fitting card each turn.

    Returns the tokens as (token, seat, required), required False for a go that may be
    left out (everyone else already out of the count), and each seat's points.
    """
    seats = seats_for(players)
    hands = {s: cards[4 * i:4 * i + 4] for i, s in enumerate(seats)}
    events: list[tuple[str, str, bool]] = []
    points = dict.fromkeys(seats, 0)
    pile: list[Card] = []
    passed: set[str] = set()
    turn, last = 0, seats[0]

    def next_with_cards(after: str) -> int:
        i = seats.index(after)
        return next((i + k) % players for k in range(1, players + 1) if hands[seats[(i + k) % players]])

    while any(hands.values()):
        in_count = [s for s in seats if hands[s] and s not in passed]
        if not in_count:  # nobody can play on: one for the go, a new count
            points[last] += 1
            pile, passed = [], set()
            turn = next_with_cards(last)
            continue
        seat = seats[turn]
        if seat not in in_count:
            turn = (turn + 1) % players
            continue
        count = sum(c.value for c in pile)
        fitting = [c for c in hands[seat] if count + c.value <= 31]
        if not fitting:
            events.append(("go", seat, any(s != seat for s in in_count)))
            passed.add(seat)
            turn = (turn + 1) % players
            continue
        card = rng.choice(fitting)
        hands[seat].remove(card)
        pile.append(card)
        last = seat
        events.append((str(card), seat, True))
        points[seat] += plain_points(pile)
        count += card.value
        if not any(hands.values()):
            points[seat] += count != 31
        elif count == 31:
            pile, passed = [], set()
            turn = next_with_cards(seat)
        else:
            turn = (turn + 1) % players
    return events, points


def deals(players: int):
    return st.lists(st.sampled_from(FULL_DECK), min_size=4 * players, max_size=4 * players, unique=True)


@pytest.mark.parametrize("players", [3, 4])
def test_random_complete_plays_score_like_the_plain_scorer(players):
    @settings(max_examples=300, deadline=None)
    @given(deals(players), st.randoms(use_true_random=False), st.randoms(use_true_random=False))
    def check(cards, strategy, writer):
        events, points = play_out(cards, players, strategy)
        tokens = [t for t, _, required in events if required or writer.random() < 0.5]
        result = score_pegging(tokens, players=players)
        assert result.complete
        assert result.totals == points
        assert who_laid(result) == [(seat, t) for t, seat, _ in events if t != "go"]
        assert all(0 < p.count <= 31 for p in result.plays if p.card)
        if players == 4:
            assert result.sides == {"left and right": points["left"] + points["right"],
                                    "dealer and across": points["dealer"] + points["across"]}

    check()


@pytest.mark.parametrize("players", [3, 4])
def test_a_play_cut_short_is_read_the_same_so_far(players):
    @settings(max_examples=150, deadline=None)
    @given(deals(players), st.randoms(use_true_random=False), st.integers(0, 24))
    def check(cards, strategy, cut):
        events, _ = play_out(cards, players, strategy)
        tokens = [t for t, _, required in events if required]
        full = score_pegging(tokens, players=players)
        part = score_pegging(tokens[:cut], players=players)
        assert [(p.player, p.card, p.count) for p in part.plays] == [
            (p.player, p.card, p.count) for p in full.plays[:cut]]

    check()
