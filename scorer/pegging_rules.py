"""The play's rules for one card, and the records of a scored play (:mod:`scorer.pegging` reads a play).

Seats and their order, the count's limits, what the last card laid scores (fifteen, thirty-one,
pairs, runs: :func:`score_card`), and the types a scored play is made of: :class:`Play`,
:class:`Pegging`, :class:`Score`, and :class:`IllegalPlayError` for a play that breaks the rules.

>>> score_card([Card.parse(t) for t in "10H 5D".split()])
(Score(reason='fifteen', points=2),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from scorer.cards import Card

Player = Literal["pone", "dealer"]
PONE: Final = "pone"
DEALER: Final = "dealer"
PLAYERS: tuple[Player, Player] = (PONE, DEALER)

Seat = Literal["pone", "dealer", "left", "across", "right"]
"""A player named by where they sit: ``pone``/``dealer`` with two, else relative to the dealer."""
SEATS: dict[int, tuple[Seat, ...]] = {
    2: PLAYERS,
    # The player left of the dealer leads and play goes clockwise (to the left), dealer last.
    3: ("left", "right", "dealer"),
    4: ("left", "across", "right", "dealer"),
}
SIDES: dict[str, tuple[Seat, Seat]] = {
    "left and right": ("left", "right"),
    "dealer and across": ("dealer", "across"),
}
"""Four players: partners sit across from each other, so each side is two seats."""

# Every seat holds 4 cards in the play: 6 dealt and 2 thrown with two players, 5 and 1 with
# three (the deck gives the crib its fourth) or four.
HAND_SIZE: Final = 4
MAX_COUNT: Final = 31
# Every card is worth at most 10, so at 21 or less any card fits.
ANY_CARD_FITS: Final = MAX_COUNT - 10
GO: Final = "go"


class InvalidPlayersError(ValueError):
    """Pegging is for 2, 3 or 4 players."""


def seats_for(players: int) -> tuple[Seat, ...]:
    """The seats in order of play for ``players``, dealer last.

    >>> seats_for(3)
    ('left', 'right', 'dealer')
    """
    if isinstance(players, bool) or players not in SEATS:
        raise InvalidPlayersError(f"pegging is for 2, 3 or 4 players, got {players!r}")
    return SEATS[players]


class IllegalPlayError(ValueError):
    """A play sequence that breaks the rules; the message names the position and token."""

    def __init__(self, position: int, token: str, reason: str) -> None:
        super().__init__(f"position {position} ({token}): {reason}")
        self.position = position
        """1-based position of the offending token in the sequence."""
        self.token = token
        """The token as given."""


class Score(NamedTuple):
    """One reason a play scores, e.g. ``Score('fifteen', 2)``."""

    reason: str
    """fifteen, thirty-one, pair, pair royal, double pair royal, run of N, go, last card."""
    points: int


_SAME_RANK_SCORES = {
    2: Score("pair", 2),
    3: Score("pair royal", 6),
    4: Score("double pair royal", 12),
}


@dataclass(frozen=True, slots=True)
class Play:
    """One token of the play: a card laid, or a go said."""

    player: Seat
    """Who laid the card or said go."""
    card: Card | None
    """The card laid; ``None`` for a go."""
    count: int
    """The running count after this play (unchanged by a go)."""
    points: int
    """Points this play scores for :attr:`player`, including a go or last card it earned."""
    reasons: tuple[Score, ...]
    """What the points are for, in the order they are announced."""

    def __str__(self) -> str:
        what = str(self.card) if self.card is not None else GO
        text = f"{self.player} {what} {self.count}"
        if self.reasons:
            text += ": " + ", ".join(f"{s.reason} ({s.points})" for s in self.reasons)
        return text

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{player, card (or None), count, points, reasons: [{reason, points}]}``."""
        return {
            "player": self.player,
            "card": str(self.card) if self.card is not None else None,
            "count": self.count,
            "points": self.points,
            "reasons": [{"reason": s.reason, "points": s.points} for s in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class Pegging:
    """A scored play: every token in input order, and whether every card was laid."""

    plays: tuple[Play, ...]
    """One entry per token of the input."""
    complete: bool
    """True once every player has laid all their cards (the last card has scored)."""
    seats: tuple[Seat, ...] = PLAYERS
    """The players in order of play, dealer last (:data:`SEATS`)."""

    @property
    def totals(self) -> dict[Seat, int]:
        """Points pegged by each player: the sum of their plays' points."""
        totals: dict[Seat, int] = dict.fromkeys(self.seats, 0)
        for play in self.plays:
            totals[play.player] += play.points
        return totals

    @property
    def sides(self) -> dict[str, int]:
        """Four players: points per side (partners' points go to their side); else empty."""
        if len(self.seats) != 4:
            return {}
        totals = self.totals
        return {side: sum(totals[s] for s in seats) for side, seats in SIDES.items()}

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{plays: [...], totals: {pone, dealer}}``; with 3 or 4 players also
        ``players`` and ``seats``, and with 4 ``sides``."""
        data: dict[str, Any] = {"plays": [p.as_dict() for p in self.plays], "totals": self.totals}
        if len(self.seats) > 2:  # the two-player shape stays as it always was
            data = {"players": len(self.seats), "seats": list(self.seats), **data}
            if self.sides:
                data["sides"] = self.sides
        return data

    def table(self) -> str:
        """Human-readable: one line per play, a rule where a new count starts, then totals."""
        lines = [f"{'#':>3}  {'player':<6}  {'card':<4} {'count':>5}  points"]
        for position, play in enumerate(self.plays, 1):
            # A card whose count equals its own value led a new count.
            if play.card is not None and play.count == play.card.value and position > 1:
                lines.append("     " + "-" * 19 + " new count")
            what = str(play.card) if play.card is not None else GO
            line = f"{position:>3}  {play.player:<6}  {what:<4} {play.count:>5}"
            if play.reasons:
                line += f"  +{play.points}  " + ", ".join(f"{s.reason} ({s.points})" for s in play.reasons)
            lines.append(line)
        if not self.complete:
            lines.append("     (play not finished: no last card yet)")
        lines.append("totals: " + ", ".join(f"{seat} {points}" for seat, points in self.totals.items()))
        if self.sides:
            lines.append("sides: " + ", ".join(f"{side} {points}" for side, points in self.sides.items()))
        return "\n".join(lines)


def score_card(pile: list[Card] | tuple[Card, ...]) -> tuple[Score, ...]:
    """What the last card of ``pile`` (the current count's cards, in order) scores.

    Fifteen/thirty-one, then pairs, then the run; not go or last card, which
    depend on what follows.

    >>> score_card([Card.parse(t) for t in "7H 9C 6D 8S".split()])
    (Score(reason='run of 4', points=4),)
    >>> score_card([Card.parse(t) for t in "5H 5C 5D".split()])
    (Score(reason='fifteen', points=2), Score(reason='pair royal', points=6))
    >>> score_card([Card.parse(t) for t in "5H 4C 3D 3S".split()])
    (Score(reason='fifteen', points=2), Score(reason='pair', points=2))
    """
    count = sum(c.value for c in pile)
    scores: list[Score] = []
    if count == 15:
        scores.append(Score("fifteen", 2))
    elif count == MAX_COUNT:
        scores.append(Score("thirty-one", 2))
    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        scores.append(_SAME_RANK_SCORES[same])
    run = run_length(pile)
    if run:
        scores.append(Score(f"run of {run}", run))
    return tuple(scores)


def run_length(pile: list[Card] | tuple[Card, ...]) -> int:
    """Length of the longest run (3+) at the end of ``pile``, else 0.

    Every tail length is tried, longest first: in 2-3-4-2-5 the tail 4-2-5 is
    no run but 3-4-2-5 is, and a pair inside a tail (5-4-3-3) breaks it.

    >>> run_length([Card.parse(t) for t in "2C 3D 4H 2S 5C".split()])
    4
    >>> run_length([Card.parse(t) for t in "5C 4D 3H 3S".split()])
    0
    """
    for n in range(len(pile), 2, -1):
        ranks = {c.rank for c in pile[-n:]}
        if len(ranks) == n and max(ranks) - min(ranks) == n - 1:
            return n
    return 0
