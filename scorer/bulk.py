"""Many deals scored at once with numpy: the exhaustive tables and discard advice.

:func:`score_totals` gives the same totals as :func:`scorer.show.score_show` (a test holds them
together on random deals): fifteens, pairs and runs come from the show's own rules, run once per
rank multiset, and flush and nobs are applied per deal with numpy.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from scorer.cards import JACK, SUITS, Card
from scorer.show import InvalidHandError, find_fifteens, find_pairs, find_runs, flush_points

__all__ = ["score_totals", "clear_caches", "rank_table_arrays"]


@functools.cache
def _rank_points_by_multiset() -> dict[tuple[int, ...], int]:
    """Points from fifteens, pairs and runs for every 5-card rank multiset (6,175), by the show's rules.

    Suits never change these points, so each multiset is scored once on a
    representative deal (suits dealt in order within each rank).
    """
    table: dict[tuple[int, ...], int] = {}
    for ranks in itertools.combinations_with_replacement(range(1, 14), 5):
        if any(ranks.count(r) > 4 for r in set(ranks)):
            continue  # five of a kind
        cards = [Card(r, SUITS[ranks[:i].count(r)]) for i, r in enumerate(ranks)]
        items = [*find_fifteens(cards), *find_pairs(cards), *find_runs(cards)]
        table[ranks] = sum(item.points for item in items)
    return table


def score_totals(hands: np.ndarray, starters: np.ndarray, *, crib: bool = False) -> np.ndarray:
    """Totals for many deals at once: ``hands`` (N, 4) and ``starters`` (N,) as card indices 0..51.

    The same count as :func:`score_show` (without items or his heels), for bulk work
    such as the exhaustive table or discard advice. Fifteens, pairs and runs depend
    only on ranks, so they come from :func:`score_show` run once on a representative
    of each 5-card rank multiset (6,175, made on first use); flush and nobs are
    applied per deal with :func:`flush_points` and the nobs rule. Needs numpy.
    Raises :class:`InvalidHandError` for a card index outside 0..51 or a card twice in a deal.

    >>> import numpy as np
    >>> from scorer.cards import parse_cards
    >>> deals = [("5H 5D 5S JC", "5C"), ("2H 4H 6H 8H", "KS")]
    >>> hands = np.array([[c.index for c in parse_cards(h)] for h, _ in deals])
    >>> starters = np.array([Card.parse(s).index for _, s in deals])
    >>> score_totals(hands, starters).tolist(), score_totals(hands, starters, crib=True).tolist()
    ([29, 4], [29, 0])
    """
    hands = np.asarray(hands)
    starters = np.asarray(starters)
    if hands.ndim != 2 or hands.shape[1] != 4 or starters.shape != hands.shape[:1]:
        raise InvalidHandError(f"score_totals needs hands of shape (N, 4) and starters (N,), "
                               f"got {hands.shape} and {starters.shape}")
    for part in (hands, starters):
        if part.size and (part.min() < 0 or part.max() > 51):
            raise InvalidHandError("card indices must be 0..51")
    # One byte per card keeps the passes over millions of deals cheap.
    hands = hands.astype(np.uint8, copy=False)
    starters = starters.astype(np.uint8, copy=False)
    ordered = np.sort(np.column_stack([hands, starters]), axis=1)
    twice = ordered[:, 1:] == ordered[:, :-1]
    if twice.any():
        row = int(np.argmax(twice.any(axis=1)))
        raise InvalidHandError(f"deal {row} has a card twice")
    # Card indices are rank-major, so sorted cards give sorted ranks: the multiset's number.
    ranks = ordered >> 2
    rank_points, digit_values = rank_table_arrays()
    multiset = digit_values[0][ranks[:, 0]]
    for k in range(1, 5):
        multiset += digit_values[k][ranks[:, k]]
    totals = rank_points[multiset]

    h0, h1, h2, h3 = hands.T
    suit = h0 & 3
    starter_suit = starters & 3
    hand_suited = ((h1 & 3) == suit) & ((h2 & 3) == suit) & ((h3 & 3) == suit)
    starter_suited = hand_suited & (starter_suit == suit)
    flush_hand, flush_all = flush_points(4, True, False, crib=crib), flush_points(4, True, True, crib=crib)
    totals += np.where(starter_suited, flush_all, np.where(hand_suited, flush_hand, 0)).astype(np.int16)
    # Nobs: the jack of the starter's suit in the hand (the starter itself never counts).
    jack = starter_suit + (JACK - 1) * 4
    totals += (h0 == jack) | (h1 == jack) | (h2 == jack) | (h3 == jack)
    return totals


@functools.cache
def rank_table_arrays():
    """Rank points by multiset number, and the digit tables that number a sorted rank 5-tuple.

    Sorted 0-based ranks r0 <= ... <= r4 become strictly increasing x_k = r_k + k; the
    combinatorial number system then numbers the multiset densely as sum C(x_k, k+1).
    """
    from math import comb

    digit_values = np.array([[comb(r + k, k + 1) for r in range(13)] for k in range(5)], dtype=np.int16)
    rank_points = np.zeros(comb(17, 5), dtype=np.int16)
    for ranks, points in _rank_points_by_multiset().items():
        rank_points[sum(int(digit_values[k][r - 1]) for k, r in enumerate(ranks))] = points
    return rank_points, digit_values


def clear_caches() -> None:
    """Forget the per-multiset rank points (the benchmark times building them too)."""
    _rank_points_by_multiset.cache_clear()
    rank_table_arrays.cache_clear()

