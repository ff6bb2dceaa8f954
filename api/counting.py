"""Photo detections + the player's choices -> a counted show: shared by the CLI and the API.

Both front ends do the same three steps, so they live here once: split the
cards into hand and starter (:func:`vision.starter.assign_roles`), count the show
(:func:`scorer.show.score_show`) and, if the player said what they counted,
check the claim (:func:`scorer.muggins.check_claim`). :func:`explain` gives each
scoring item the one-line reason the page shows in teach mode.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.cards import ACE, JACK, Card
from scorer.muggins import ClaimVerdict, check_claim
from scorer.show import ScoreItem, Show, score_show
from vision.detections import Detections
from vision.starter import Roles, assign_roles

_NUMBERS = ["zero", "one", "two", "three", "four", "five"]


@dataclass(frozen=True)
class PhotoCount:
    """A photo's show counted: who is the starter, the itemized count, the claim checked."""

    roles: Roles
    show: Show
    claim: ClaimVerdict | None


def count_detections(detections: Detections, *, crib: bool = False, starter: Card | None = None,
                     claim: int | None = None) -> PhotoCount:
    """Count the show in a photo's detections.

    Raises :class:`~vision.starter.CardCountError` when the photo does not hold a
    show, and ``InvalidClaimError`` for a claim outside 0..29.
    """
    roles = assign_roles(detections, starter)
    return PhotoCount(roles, *score_typed(roles.hand, roles.starter, crib=crib, claim=claim))


def score_typed(hand: tuple[Card, ...], starter: Card, *, crib: bool = False,
                claim: int | None = None) -> tuple[Show, ClaimVerdict | None]:
    """Count typed cards and check an optional claim; raises the scorer's ``ValueError`` subclasses."""
    show = score_show(hand, starter, crib=crib)
    return show, (check_claim(show, claim) if claim is not None else None)


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
        return f"{' '.join(map(str, cards))} are in sequence: a run of {_NUMBERS[len(cards)]}, 1 a card"
    if item.kind == "flush":
        suit = cards[0].suit.name.lower()
        if len(cards) == len(show.hand) + 1:
            return f"all {_NUMBERS[len(cards)]} cards, the starter too, are {suit}"
        return f"all {_NUMBERS[len(cards)]} hand cards are {suit} (a crib needs the starter too)"
    if item.kind == "nobs":
        jack = cards[0]
        if jack.rank == JACK:
            return f"{jack} is the jack of the starter's suit: one for his nob"
    return str(item)
