"""A second, plainly written pegging scorer the tests hold the real one to (any number of players)."""

from __future__ import annotations

from scorer.cards import Card


def plain_points(pile: list[Card]) -> int:
    """Points for the last card of ``pile``, counted straight from the rules."""
    total = sum(c.value for c in pile)
    points = 2 if total in (15, 31) else 0
    same = 1
    while same < len(pile) and pile[-1 - same].rank == pile[-1].rank:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for n in range(len(pile), 2, -1):
        ranks = sorted(c.rank for c in pile[-n:])
        if ranks == list(range(ranks[0], ranks[0] + n)):
            points += n
            break
    return points
