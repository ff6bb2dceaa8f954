"""The cribbage scorer: cards, the show, muggins, pegging, discard advice, practice.

Pure Python; numpy for bulk work (:mod:`scorer.bulk`, the discard advisor). Imports neither
vision nor the api, and nothing of the lab.

>>> from scorer import score_show, check_claim
>>> show = score_show("5H 5D 5S JC", "5C")
>>> show.total, check_claim(show, 28).verdict
(29, 'under-claimed')
"""

from scorer.cards import (
    FULL_DECK,
    RANKS,
    SUITS,
    Card,
    InvalidCardError,
    Suit,
    parse_card,
    parse_cards,
)
from scorer.muggins import ClaimVerdict, InvalidClaimError, check_claim, parse_claim
from scorer.pegging import IllegalPlayError, Pegging, Play, score_pegging
from scorer.show import InvalidHandError, ScoreItem, Show, score_show

__all__ = [
    "FULL_DECK",
    "RANKS",
    "SUITS",
    "Card",
    "ClaimVerdict",
    "InvalidCardError",
    "InvalidClaimError",
    "IllegalPlayError",
    "InvalidHandError",
    "Pegging",
    "Play",
    "ScoreItem",
    "Show",
    "Suit",
    "check_claim",
    "parse_card",
    "parse_cards",
    "parse_claim",
    "score_pegging",
    "score_show",
]
