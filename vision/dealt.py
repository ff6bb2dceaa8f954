"""The dealt cards read from a photo, for discard advice (the CLI and the API share it).

A photo of the dealt cards may show them in any layout (fanned in the hand, a row, a heap): the
recognizer's cards are taken as they are, with no starter to find. The photo must show as many
distinct cards as the player count deals (6 for two players, 5 for three or four); otherwise
:class:`DealtCountError` says what was seen.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.cards import Card
from scorer.discard import dealt_size
from vision.detections import Detection, Detections


class DealtCountError(ValueError):
    """A photo that does not show the dealt cards: too few or too many, or a card twice."""

    def __init__(self, message: str, seen: tuple[Detection, ...]) -> None:
        super().__init__(message)
        self.seen = seen


@dataclass(frozen=True)
class DealtRead:
    """The dealt cards read from a photo, each with how sure the recognizer is."""

    detections: tuple[Detection, ...]
    """One per dealt card, left to right."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(d.card for d in self.detections if d.card is not None)


def _seen_text(seen: tuple[Detection, ...]) -> str:
    return ", ".join(f"{d.card or '?'} {d.confidence:.0%}" for d in seen) or "no cards"


def read_dealt(detections: Detections, players: int) -> DealtRead:
    """The photo's cards as the dealt hand; raises :class:`DealtCountError` saying what was seen."""
    want = dealt_size(players)
    seen = tuple(sorted(detections, key=lambda d: d.center[0]))
    read = tuple(d for d in seen if d.card is not None)
    cards = [d.card for d in read]
    twice = sorted({str(c) for c in cards if cards.count(c) > 1})
    if twice:
        raise DealtCountError(f"the photo shows {', '.join(twice)} twice (seen: {_seen_text(seen)}); "
                              "a deck holds each card once", seen)
    if len(read) != want or len(read) != len(seen):
        unread = len(seen) - len(read)
        hint = "" if len(read) not in (5, 6) or len(read) == want else \
            (" (five cards: choose 3 or 4 players)" if len(read) == 5 else " (six cards: choose 2 players)")
        raise DealtCountError(
            f"expected the {want} dealt cards of a {players}-player game, saw {len(read)} "
            f"({_seen_text(seen)}){f' and {unread} unreadable' if unread else ''}{hint}", seen)
    return DealtRead(read)
