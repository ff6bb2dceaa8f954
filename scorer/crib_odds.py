"""The crib's exact expectation for a throw: every starter, every card the others could add, weighted.

What is enumerated (the brute-force test in ``tests/scorer/test_discard_exact.py`` follows the
same definition, card by card):

- The player holds ``dealt`` (6 cards with two players, 5 with three or four); the *unseen* cards
  U are the other 46 (or 47). The player throws T (2 cards, or 1) to the crib.
- The crib's other cards, the *added* set A (a subset of U), come from the other players and
  the deck: two players, the other player's pair (|A| = 2); three players, one card from each of
  the two others and one from the top of the deck (|A| = 3); four players, one card from each of
  the three others (|A| = 3).
- Each other player has a seat and the opponent model (:mod:`scorer.opponent`) gives a weight to
  each pair or card that seat could throw (the deck's card: weight 1). The weight of A is the sum,
  over every way of handing A's cards out to those throwers, of the product of their weights;
  P(A) is that weight over the sum of the weights of all subsets of U of that size. (Uniform:
  every A alike.) Who throws what: two players, the other is pone (seat ``pone``) when the player
  deals, else the dealer (``dealer``); three players, the dealer's two opponents throw from
  ``pone3``, and for a non-dealer the others are the dealer (``dealer3``) and the other non-dealer
  (``pone3``); four players, the dealer's side throws from ``dealer4``, the other side from ``pone4``.
- The starter s is cut from U - A after the throws, each of its |U| - |A| = 44 cards alike.
- E[crib] = sum over A of P(A) * (1/44) * sum over s in U - A of count(crib T + A, starter s),
  the crib counted by the rules (a flush only with all five cards one suit; nobs).

How it is computed without scoring every crib: the count is rank points (fifteens, pairs, runs,
which depend on the five ranks only), plus 5 for a five-card flush, plus 1 for nobs. The first is
a sum over A's rank multiset and the starter's rank of P(A) * (cards of that rank left in U - A) / 44
times the rank points of T's ranks with them (a table made once from :mod:`scorer.bulk`); the flush
needs only, per suit, the weight of A and s all of that suit; nobs, per suit, the weight of the
starter being of a thrown jack's suit, plus the weight of A holding the jack of the starter's suit.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from scorer.bulk import rank_table_arrays
from scorer.cards import JACK
from scorer.opponent import OpponentModel
from scorer.show import flush_points

CRIB_FLUSH = flush_points(4, True, True, crib=True)
"""5: a crib scores a flush only when the starter matches its four cards."""
_JACK_RANK = JACK - 1  # 0-based, as card index >> 2


class DiscardError(ValueError):
    """Raised for a deal the advisor cannot rank: wrong number of cards, seat or player count."""


def other_seats(players: int, seat: str) -> tuple[str | None, ...]:
    """The opponent-model seat of each other thrower (None: the deck's card), see the module docstring."""
    dealer = seat == "dealer"
    if players == 2:
        return ("pone",) if dealer else ("dealer",)
    if players == 3:
        return ("pone3", "pone3", None) if dealer else ("dealer3", "pone3", None)
    if players == 4:
        return ("dealer4", "pone4", "pone4") if dealer else ("pone4", "dealer4", "dealer4")
    raise DiscardError(f"players must be 2, 3 or 4, got {players!r}")


def unseen_cards(dealt: np.ndarray) -> np.ndarray:
    """Card indices not in the player's hand, ascending."""
    return np.setdiff1d(np.arange(52), dealt)


@functools.cache
def _positions(count: int, size: int) -> np.ndarray:
    """Every ``size``-subset of range(count), one row each."""
    return np.array(list(itertools.combinations(range(count), size)), dtype=np.int64)


def added_sets(unseen: np.ndarray, players: int) -> np.ndarray:
    """Every set of cards the others (and the deck) could add to the crib: (M, 2) or (M, 3) card indices."""
    return unseen[_positions(len(unseen), 2 if players == 2 else 3)]


def added_weights(added: np.ndarray, players: int, seat: str, model: OpponentModel) -> np.ndarray:
    """The weight of each added set: a sum over the ways to hand its cards to the throwers of the
    product of their weights."""
    seats = other_seats(players, seat)
    if players == 2:
        return model.pair_weights(seats[0], added[:, 0], added[:, 1])
    # The deck's card (seat None) weighs 1 whatever it is.
    per_thrower = [np.ones(added.shape, dtype=float) if s is None else model.single_weights(s, added)
                   for s in seats]
    total = np.zeros(len(added))
    for order in itertools.permutations(range(3)):
        total += per_thrower[0][:, order[0]] * per_thrower[1][:, order[1]] * per_thrower[2][:, order[2]]
    return total


@functools.cache
def _multisets(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted rank multisets of ``size`` (0-based ranks), and a lookup from a sorted tuple to its row."""
    combos = np.array(list(itertools.combinations_with_replacement(range(13), size)), dtype=np.int64)
    lookup = np.full((13,) * size, -1, dtype=np.int64)
    lookup[tuple(combos.T)] = np.arange(len(combos))
    return combos, lookup


@functools.cache
def _rank_points(throw_size: int, added_size: int) -> np.ndarray:
    """Rank points (fifteens, pairs, runs) by [throw ranks][added ranks][starter rank], multiset rows."""
    thrown, _ = _multisets(throw_size)
    added, _ = _multisets(added_size)
    ranks = np.empty((len(thrown), len(added), 13, 5), dtype=np.int64)
    ranks[..., :throw_size] = thrown[:, None, None, :]
    ranks[..., throw_size:4] = added[None, :, None, :]
    ranks[..., 4] = np.arange(13)
    ranks.sort(axis=-1)
    points, digits = rank_table_arrays()
    digits = digits.astype(np.int64)
    number = sum(digits[k][ranks[..., k]] for k in range(5))
    # Five of one rank cannot be dealt; its row gets 0 and always a weight of 0 below.
    return points[number].astype(float)


def _counts(values: np.ndarray, size: int) -> np.ndarray:
    """How many of each value 0..size-1 each row holds: (M, size)."""
    counts = np.zeros((len(values), size), dtype=np.int64)
    for column in values.T:
        counts[np.arange(len(values)), column] += 1
    return counts


def crib_means(dealt: np.ndarray, throws: np.ndarray, *, players: int, seat: str,
               model: OpponentModel) -> np.ndarray:
    """E[crib] for each throw (rows of card indices from ``dealt``), as the module docstring defines it."""
    dealt, throws = np.asarray(dealt), np.asarray(throws)
    unseen = unseen_cards(dealt)
    added = added_sets(unseen, players)
    weights = added_weights(added, players, seat, model)
    # Each added set's probability, times 1/44 for each starter it leaves.
    share = weights / weights.sum() / (len(unseen) - added.shape[1])
    ranks, suits = added >> 2, added & 3
    ranks_left = np.bincount(unseen >> 2, minlength=13) - _counts(ranks, 13)
    suits_left = np.bincount(unseen & 3, minlength=4) - _counts(suits, 4)
    rows = np.arange(len(added))

    multisets, added_lookup = _multisets(added.shape[1])
    cells = added_lookup[tuple(np.sort(ranks, axis=1).T)][:, None] * 13 + np.arange(13)
    by_ranks = np.bincount(cells.ravel(), (share[:, None] * ranks_left).ravel(),
                           minlength=len(multisets) * 13).reshape(len(multisets), 13)
    one_suit = (suits == suits[:, :1]).all(axis=1)
    one_suit_left = suits_left[one_suit, suits[one_suit, 0]]
    flush_by_suit = np.bincount(suits[one_suit, 0], share[one_suit] * one_suit_left, minlength=4)
    starter_suit = (share[:, None] * suits_left).sum(axis=0)
    added_nobs = sum((share * (ranks[:, k] == _JACK_RANK) * suits_left[rows, suits[:, k]]).sum()
                     for k in range(added.shape[1]))

    _, throw_lookup = _multisets(throws.shape[1])
    table = _rank_points(throws.shape[1], added.shape[1])
    rank_part = np.einsum("cas,as->c", table[throw_lookup[tuple(np.sort(throws >> 2, axis=1).T)]], by_ranks)
    thrown_suits = throws & 3
    thrown_one_suit = (thrown_suits == thrown_suits[:, :1]).all(axis=1)
    flush = np.where(thrown_one_suit, CRIB_FLUSH * flush_by_suit[thrown_suits[:, 0]], 0)
    thrown_nobs = ((throws >> 2) == _JACK_RANK) * starter_suit[thrown_suits]
    return rank_part + flush + thrown_nobs.sum(axis=1) + added_nobs
