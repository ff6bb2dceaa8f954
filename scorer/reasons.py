"""Why each item of a show scores, in one line a learner can follow (the page's teach mode, the CLI)."""

from __future__ import annotations

from scorer.cards import ACE, JACK, Card
from scorer.show import NUMBER_WORDS, ScoreItem, Show


def _with_value(card: Card) -> str:
    # Faces and aces count differently from their look: say what they count.
    return f"{card} ({card.value})" if card.rank == ACE or card.rank > 10 else str(card)


def explain(item: ScoreItem, show: Show) -> str:
    """Why an item scores, in one line a learner can follow.

    >>> from scorer.show import score_show
    >>> show = score_show("5H 5D 4S 6C", "10D")
    >>> [explain(item, show) for item in show.items if item.kind != "fifteen"][:2]
    ['5D and 5H are a pair of fives', '4S 5D 6C are in sequence: a run of three, 1 a card']
    """
    cards = item.cards
    if item.kind == "fifteen":
        return " + ".join(_with_value(c) for c in cards) + " make 15"
    if item.kind == "pair":
        rank = cards[0].name.split(" of ")[0]
        plural = "sixes" if rank == "six" else rank + "s"
        return f"{cards[0]} and {cards[1]} are a pair of {plural}"
    if item.kind == "run":
        return f"{' '.join(map(str, cards))} are in sequence: a run of {NUMBER_WORDS[len(cards)]}, 1 a card"
    if item.kind == "flush":
        suit = cards[0].suit.name.lower()
        if len(cards) == len(show.hand) + 1:
            return f"all {NUMBER_WORDS[len(cards)]} cards, the starter too, are {suit}"
        return f"all {NUMBER_WORDS[len(cards)]} hand cards are {suit} (a crib needs the starter too)"
    if item.kind == "nobs":
        jack = cards[0]
        if jack.rank == JACK:
            return f"{jack} is the jack of the starter's suit: one for his nobs"
    return str(item)
