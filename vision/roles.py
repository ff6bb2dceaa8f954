"""The show from the layout: which card is the starter, which are the hand, which is set aside.

:func:`assign_roles` splits a photo's cards into hand and starter, honouring a starter the player
typed or tapped (else the layout's, :func:`vision.starter.find_starter`), sets aside one card too
many, and says clearly what was seen when the photo does not hold a show (4 cards + a typed
starter, or 5 cards). :func:`count_photo` then counts the show.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from scorer.cards import Card
from scorer.muggins import ClaimVerdict, score_and_check
from scorer.show import Show
from vision.detections import Detections, Expected
from vision.starter import SHOW_CARDS, find_starter


class CardCountError(ValueError):
    """The photo does not hold a show: not 5 cards, or 4 without a typed starter.

    ``cards`` lists what was seen (``None`` for a card found but not read) so a
    caller can show it.
    """

    def __init__(self, message: str, cards: tuple[Card | None, ...]) -> None:
        super().__init__(message)
        self.cards = cards


@dataclass(frozen=True)
class Roles:
    """The cards of a show split into hand and starter, and how the starter was chosen."""

    hand: tuple[Card, ...]
    """The four hand (or crib) cards, in photo order (left to right)."""
    starter: Card
    """The starter."""
    source: Literal["layout", "given"]
    """'layout' when found by :func:`~vision.starter.find_starter`, 'given' when the player named it."""
    confidence: float
    """How sure the starter is: the layout's probability, 1.0 when given."""
    reason: str
    """Why this card is the starter, in a player's words."""
    detections: Detections
    """The show's cards as detected, ``is_starter`` set on the starter's row (if it is in the photo)."""
    set_aside: Detections = field(default_factory=Detections.empty)
    """Cards seen beyond the show's number and not counted, the least sure (:func:`surest`)."""


def show_in_view(starter: Card | None = None) -> Expected:
    """What a photo of the show holds: the five cards, or, with the starter named, the four hand
    cards besides it (the starter may lie with them or not). Told so, the recognizer makes up a
    card missing from the number (:meth:`vision.pipeline.Recognizer.recognize_photo`) and the
    count sets one too many aside (:func:`surest`)."""
    return Expected(SHOW_CARDS) if starter is None else Expected(SHOW_CARDS - 1, besides=starter)


def surest(detections: Detections, expected: Expected) -> tuple[Detections, Detections]:
    """The cards a show counts, and the one set aside: of one card more than ``expected.cards``
    (not counting ``expected.besides``, kept where it was read), the surest. The card set aside is
    what the recognizer read least surely: on the tuning sets 15 of 17 such cards were not in the
    photo (a second reading of a neighbouring index, a pip), and each left a photo of the show
    uncounted (docs/experiments, "Reading a show as a show"). Two or more too many are not a
    show misread but another photo (a pegging row): nothing is set aside."""
    others = np.flatnonzero([card != expected.besides for card in detections.cards])
    if len(others) != expected.cards + 1:
        return detections, Detections.empty()
    kept = np.ones(len(detections), bool)
    kept[others[np.argsort(-detections.confidence[others], kind="stable")[-1]]] = False
    return detections[kept], detections[~kept]


def _seen(cards: tuple[Card | None, ...]) -> str:
    return " ".join("?" if c is None else str(c) for c in cards)


def assign_roles(detections: Detections, starter: Card | None = None) -> Roles:
    """Split the photo's cards into hand and starter.

    Five cards: the ``starter`` given (which must be one of them), else the card
    :func:`find_starter` picks. Four cards: ``starter`` must be given and must
    not be one of them. One card too many (six, or five besides a named starter
    not among them): the least sure is set aside (:func:`surest`). Raises
    :class:`CardCountError` for anything else, with the cards that were seen in
    the message.
    """
    detections, aside = surest(detections, show_in_view(starter))
    cards = detections.cards
    n = len(cards)
    seen = _seen(cards)
    if None in cards:
        raise CardCountError(f"{n} cards seen ({seen}), but the ones marked ? could not be read; "
                             "retake the photo with every corner index in view", cards)
    known: tuple[Card, ...] = tuple(c for c in cards if c is not None)
    if n == SHOW_CARDS:
        if starter is None:
            guess = find_starter(detections)
            index, source, confidence, reason = guess.index, "layout", guess.confidence, guess.reason
        else:  # five with the starter given: it is among them (else one would have been set aside)
            index, source, confidence, reason = known.index(starter), "given", 1.0, "named by the player"
        flags = np.zeros(n, bool)
        flags[index] = True
        return Roles(hand=known[:index] + known[index + 1:], starter=known[index], source=source,
                     confidence=confidence, reason=reason, detections=detections.with_(is_starter=flags),
                     set_aside=aside)
    if n == SHOW_CARDS - 1 and starter is not None:
        if starter in known:
            raise CardCountError(f"the starter {starter} is one of the 4 cards seen ({seen}); "
                                 "a show needs 4 cards besides the starter", cards)
        return Roles(hand=known, starter=starter, source="given", confidence=1.0,
                     reason="named by the player", detections=detections.with_(is_starter=np.zeros(n, bool)),
                     set_aside=aside)
    if n == SHOW_CARDS - 1:
        raise CardCountError(f"4 cards seen ({seen}): name the starter, or photograph it with them", cards)
    if n == 0:
        raise CardCountError("no cards seen: lay the 4 cards and the starter face up, corners in view, "
                             "and photograph them from above", cards)
    extra = " (with the starter named, 4 are enough)" if starter is not None else ""
    raise CardCountError(f"{n} {'card' if n == 1 else 'cards'} seen ({seen}); a show is 4 cards and the "
                         f"starter, 5 in all{extra}", cards)


@dataclass(frozen=True)
class PhotoCount:
    """A photo's show counted: who is the starter, the itemized count, the claim checked."""

    roles: Roles
    show: Show
    claim: ClaimVerdict | None


def count_photo(detections: Detections, *, crib: bool = False, starter: Card | None = None,
                claim: int | None = None) -> PhotoCount:
    """The show in a photo's detections: hand and starter told apart (:func:`assign_roles`), counted,
    and a claimed total checked. Raises :class:`CardCountError` when the photo holds no show."""
    roles = assign_roles(detections, starter)
    return PhotoCount(roles, *score_and_check(roles.hand, roles.starter, crib=crib, claim=claim))
