"""A plain reference counter for the show, written naively on purpose: the rules read literally.

The tests hold :func:`scorer.show.score_show`'s totals to this one on every deal hypothesis tries.
It shares nothing with scorer/show.py but the Card type: it walks every subset of the five cards
(bit masks), adds up fifteens and pairs directly from the rules, and counts a run for every subset
of 3+ cards with distinct consecutive ranks that no larger such subset contains (the rules'
"maximal" run, read literally).
"""

from __future__ import annotations

from scorer.cards import Card


def _value(card: Card) -> int:
    return card.rank if card.rank < 10 else 10


def _is_run(cards: list[Card]) -> bool:
    ranks = sorted(card.rank for card in cards)
    return len(ranks) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def reference_count(hand: tuple[Card, ...], starter: Card, crib: bool = False) -> int:
    """Total for hand + starter by brute force over all subsets."""
    cards = list(hand) + [starter]
    n = len(cards)
    subsets = {mask: [cards[i] for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)}
    total = 0
    for subset in subsets.values():
        if len(subset) >= 2 and sum(_value(c) for c in subset) == 15:
            total += 2
        if len(subset) == 2 and subset[0].rank == subset[1].rank:
            total += 2
    runs = [mask for mask, subset in subsets.items() if _is_run(subset)]
    for mask in runs:
        if not any(other != mask and other & mask == mask for other in runs):
            total += bin(mask).count("1")
    suits = {card.suit for card in hand}
    if len(suits) == 1:
        if starter.suit in suits:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    if any(card.rank == 11 and card.suit == starter.suit for card in hand):
        total += 1
    return total
