"""The advisor's figures against a plain enumeration: every starter, every throw of the others, same weights.

The enumeration below follows the definition in scorer/crib_odds.py, written apart from its
vectorised code: the hand with score_show over each unseen starter; the crib over every set A of
cards the others (and, with three players, the deck) could add, weighed from the opponent model's
tables as that docstring says, and every starter s left, each crib T + A with s counted by the
bulk scorer (score_totals), not by the advisor's rank tables. every_crib lists the (A, s) rows
literally (~713,000 a deal with three or four players); plain_crib lists the same rows by their
five cards, a quarter of the scoring, and a test holds the two together.

On 200 random deals per seat and player count, one choice picked at random from the ranking is
checked ("the figures for a given choice"), under the shipped and the uniform model in turn.
"""

import functools
import itertools
import random

import numpy as np
import pytest

from scorer.bulk import score_totals
from scorer.cards import JACK, Card, parse_cards
from scorer.discard import advise
from scorer.opponent import load_model
from scorer.show import score_show

DEALS = 200

# Who else throws, by (players, the player's seat): a model seat per thrower, "deck" for the
# card the dealer adds from the deck with three players.
THROWERS = {
    (2, "dealer"): ["pone"], (2, "pone"): ["dealer"],
    (3, "dealer"): ["pone3", "pone3", "deck"], (3, "pone"): ["dealer3", "pone3", "deck"],
    (4, "dealer"): ["dealer4", "pone4", "pone4"], (4, "pone"): ["pone4", "dealer4", "dealer4"],
}


def rank(cards: np.ndarray) -> np.ndarray:
    return cards >> 2  # card indices are rank-major: 0 (ace) .. 12 (king)


def suit(cards: np.ndarray) -> np.ndarray:
    return cards & 3


def added_weights(added: np.ndarray, throwers: list[str], model) -> np.ndarray:
    """Each added set's weight, read from the model's tables: the sum over the ways to hand its
    cards out to the throwers of the product of their weights (the deck's card: 1)."""
    if len(throwers) == 1:  # two players: one pair from one player, pairs[seat][low][high][suited]
        first, second = added.T
        low, high = np.minimum(rank(first), rank(second)), np.maximum(rank(first), rank(second))
        return model.pairs[throwers[0]][low, high, (suit(first) == suit(second)).astype(int)]
    total = np.zeros(len(added))
    for order in itertools.permutations(range(3)):  # who throws which card: singles[seat][rank]
        product = np.ones(len(added))
        for seat, column in zip(throwers, order, strict=True):
            if seat != "deck":
                product *= model.singles[seat][rank(added[:, column])]
        total += product
    return total


@functools.cache
def subsets(n: int, size: int) -> np.ndarray:
    """Every ``size``-subset of positions 0..n-1, one row each, in itertools order."""
    return np.array(list(itertools.combinations(range(n), size)))


@functools.cache
def without_each(n: int, size: int) -> np.ndarray:
    """[k, row of subsets(n, size)] -> the row of subsets(n, size - 1) holding the same positions
    but the k-th."""
    row_of = np.zeros((n,) * (size - 1), dtype=np.int64)
    row_of[tuple(subsets(n, size - 1).T)] = np.arange(len(subsets(n, size - 1)))
    bigger = subsets(n, size)
    return np.stack([row_of[tuple(np.delete(bigger, k, axis=1).T)] for k in range(size)])


def nobs(five: list[np.ndarray], starter: np.ndarray) -> np.ndarray:
    """Whether the jack of the starter's suit is among the crib's other cards.

    ``five``: the crib's five cards (the starter among them), each a column of card indices.
    """
    jack = (JACK - 1) * 4 + suit(starter)
    found = np.zeros(len(starter), dtype=bool)
    for card in five:
        found |= card == jack
    return found & (starter != jack)


def every_crib(dealt, throw, players, seat, model) -> float:
    """E[crib] literally: one row per (added set A, starter s from the cards A leaves), weighted mean."""
    unseen = np.array([i for i in range(52) if Card.from_index(i) not in dealt])
    added = unseen[subsets(len(unseen), 2 if players == 2 else 3)]
    weights = added_weights(added, THROWERS[(players, seat)], model)
    left = (unseen[None, :, None] != added[:, None, :]).all(axis=2)  # [A, s]: s not in A
    which, starter = np.nonzero(left)
    cribs = np.column_stack([np.tile([c.index for c in throw], (len(which), 1)), added[which]])
    counts = score_totals(cribs, unseen[starter], crib=True)
    return float((weights[which] * counts).sum() / weights[which].sum())


def plain_crib(dealt, throw, players, seat, model) -> float:
    """E[crib] over the same (A, s) rows, listed by their five cards: cheaper, same sum.

    A starter s and an added set A are together |A| + 1 unseen cards B, and each of B's cards
    may be the starter with the others as A: so every B, with every k, lists every (A, s) once.
    The five crib cards score alike whichever of them is the starter but for nobs, so each B is
    scored once by score_totals with its first card as the starter, and nobs moved for the others.
    """
    # One byte per card keeps the passes over ~180,000 five-card cribs cheap.
    unseen = np.array([i for i in range(52) if Card.from_index(i) not in dealt], dtype=np.uint8)
    n, size = len(unseen), 2 if players == 2 else 3
    weights = added_weights(unseen[subsets(n, size)], THROWERS[(players, seat)], model)
    cards = np.ascontiguousarray(unseen[subsets(n, size + 1)].T)  # every B: cards[k] holds each B's k-th card
    thrown = [np.full(cards.shape[1], c.index, dtype=np.uint8) for c in throw]
    five = [*thrown, *cards]
    first = score_totals(np.column_stack([*thrown, *cards[1:]]), cards[0], crib=True)
    without_nobs = first - nobs(five, cards[0])
    total = weight_sum = 0.0
    for k in range(size + 1):  # the starter is B's k-th card, A the rest
        count = without_nobs + nobs(five, cards[k])
        weight = weights[without_each(n, size + 1)[k]]
        total += (weight * count).sum()
        weight_sum += weight.sum()
    return float(total / weight_sum)


def plain_hand(dealt, keep) -> tuple[float, int, int]:
    starters = [card for card in map(Card.from_index, range(52)) if card not in dealt]
    counts = [score_show(keep, starter).total for starter in starters]
    return sum(counts) / len(counts), min(counts), max(counts)


def random_deals(players: int, seat: str, deals: int, seed: int):
    """(dealt, model, one choice picked at random) per deal; the shipped and the uniform model in turn."""
    rng = random.Random(seed)
    deck = [Card.from_index(i) for i in range(52)]
    for n in range(deals):
        dealt = tuple(rng.sample(deck, 6 if players == 2 else 5))
        model = load_model("table" if n % 2 == 0 else "uniform")
        advice = advise(dealt, seat=seat, players=players, model=model)
        yield dealt, model, rng.choice(advice.choices)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seat", ["dealer", "pone"])
def test_hand_and_crib_equal_every_starter_and_every_throw(players, seat):
    for dealt, model, choice in random_deals(players, seat, DEALS, seed=players * 10 + (seat == "pone")):
        mean, low, high = plain_hand(dealt, choice.keep)
        assert (choice.hand.minimum, choice.hand.maximum) == (low, high)
        assert choice.hand.mean == pytest.approx(mean, abs=1e-9)
        crib = plain_crib(dealt, choice.throw, players, seat, model)
        assert choice.crib == pytest.approx(crib, abs=1e-9), (dealt, choice.throw, model.name)
        sign = 1 if seat == "dealer" else -1
        assert choice.net == pytest.approx(mean + sign * crib, abs=1e-9)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cribs_by_five_cards_are_every_crib_once(players):
    # plain_crib's listing against the literal one (~713,000 rows a deal with three or four players).
    for seat in ("dealer", "pone"):
        seed = 500 + players * 10 + (seat == "pone")
        for dealt, model, choice in random_deals(players, seat, 2, seed=seed):
            assert plain_crib(dealt, choice.throw, players, seat, model) == pytest.approx(
                every_crib(dealt, choice.throw, players, seat, model), abs=1e-9)


def test_nobs_moves_with_the_starter():
    # Thrown 5H JS, added 5C 5D and one more card: nobs only for a starter of the suit of the jack.
    five = [np.array([c.index]) for c in parse_cards("5H JS 5C 5D 5S")]
    assert nobs(five, five[4]).tolist() == [True]  # starter 5S: the JS in the crib
    assert nobs(five, five[1]).tolist() == [False]  # starter JS: not his own nobs
    assert nobs(five, five[0]).tolist() == [False]  # starter 5H: no JH


def test_best_choice_is_first_and_nets_descend():
    advice = advise("2H 3D 4C 5S 5H JD", seat="pone", model="uniform")
    nets = [c.net for c in advice.choices]
    assert len(advice.choices) == 15 and nets == sorted(nets, reverse=True)
