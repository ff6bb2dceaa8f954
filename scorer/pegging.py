"""The play (pegging), card by card: fifteen, 31, pairs, runs, go and last card.

:func:`score_pegging` takes the cards of a play in the order they were laid,
pone first (two players; three and four below), with ``go`` (any case) where a
player cannot play, and works out whose card each one is, the running count,
when the count starts again, who leads each count, and what every card scores
(RULES.md, "The play").

How turns are read from the sequence:

- Pone leads the first count. Players alternate; a player who has said ``go``
  in this count, or has no cards left, is skipped, so after a ``go`` the other
  player's cards follow one after another.
- A count ends at 31, or when neither player can play. The player after the
  one who laid the last card leads the next count (the same player again if
  the other has no cards left).
- The **first** ``go`` of a count must be written. A card that would take the
  count past 31 while the opponent is still in the count is an error, so a
  mistyped card is caught instead of silently read as a new count::

      10H 10D 5C 9S        -> position 4 (9S): count would be 34 ...
      10H 10D 5C go 4S     -> dealer says go at 25; pone plays on: 29

- Once the opponent is out of the count (said go, or has no cards left), the
  player to move may stop without writing ``go``: a card that would not fit
  ends the count and leads the next one. So the second ``go`` is optional::

      10H 10D 5C go 4S go 9S    (pone's go written)
      10H 10D 5C go 4S 9S       (the same play: 9S would make 38, so it leads)

- A ``go`` from a player with no cards left ("she has run out of cards, and so
  says go", in the seeds) is accepted and changes nothing: on their turn, or
  once just after the count ends, as after the last card of the play::

      4S 4H 4D 3C 2S 5H go 9C QD go    (dealer, out of cards, says go last)

Every ``go``, written or implied, is checked: saying go at a count of 21 or
less while holding a card is a renege (any card fits), and so is saying go
while holding a card that fits, known from the cards that player lays later
in the sequence. For a full play (all eight cards) that check is exact, and a
card "played by a player who had said go" in the same count is exactly such
a renege, since the count only rises. Other rejections: a card given twice,
a ninth card, a count past 31 (above), a token that is neither a card nor go.
Errors are :class:`IllegalPlayError` naming the 1-based position and token.

Three players, or four in partnership (``players=3`` or ``4``): the sequence is
still the cards in the order laid with ``go`` tokens, and the same rules read
it. Seats are named from the dealer, in order of play: the player on the
dealer's ``left`` leads and play goes clockwise (``left``, ``right``,
``dealer``; with four ``left``, ``across``, ``right``, ``dealer``). A player who
cannot play says go and the next player still in the count plays on; the last
to lay a card takes the go; a player with no cards left is passed over and
writes nothing, so every ``go`` is the go of the next player holding cards.
With four, partners sit across: :attr:`Pegging.sides` adds their points::

    >>> score_pegging("KH QD JC go AS".split(), players=3).totals
    {'left': 0, 'right': 2, 'dealer': 3}
    >>> score_pegging("5H 10D 6C 10S".split(), players=4).sides
    {'left and right': 0, 'dealer and across': 4}

Scoring, for the player who lays the card: count 15 → fifteen 2; count 31 →
thirty-one 2 (which includes the go: never 2 + 1); a card of the previous
card's rank → pair 2, a third → pair royal 6, a fourth → double pair royal 12;
run: the longest tail of the current count's cards (never across a reset)
whose ranks are distinct and consecutive, in any order → run of N, N points.
When a count ends short of 31 the last player to lay a card in it scores go 1,
shown on that card. The last card of the play scores last card 1 instead,
unless it made 31.

>>> result = score_pegging("10H 5D 10S go 5C 7C KH 8S 9D".split())
>>> for play in result.plays:
...     print(play)
pone 10H 10
dealer 5D 15: fifteen (2)
pone 10S 25
dealer go 25
pone 5C 30: go (1)
dealer 7C 7
pone KH 17
dealer 8S 25: go (1)
dealer 9D 9: last card (1)
>>> result.totals
{'pone': 1, 'dealer': 4}
>>> score_pegging(["2C", "3D", "4H", "2S", "5C"]).plays[-1].reasons
(Score(reason='run of 4', points=4),)
>>> score_pegging(["10H", "10D", "5C", "9S"])
Traceback (most recent call last):
...
scorer.pegging.IllegalPlayError: position 4 (9S): count would be 34, past 31; if dealer cannot play, write go here
"""

from __future__ import annotations

from collections.abc import Iterable
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
SIDES: dict[str, tuple[Seat, Seat]] = {"left and right": ("left", "right"), "dealer and across": ("dealer", "across")}
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


def other(player: Player) -> Player:
    """The opponent: ``other('pone') == 'dealer'``."""
    return DEALER if player == PONE else PONE


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


def score_pegging(sequence: Iterable[str | Card], players: int = 2) -> Pegging:
    """Score a play given in the order laid, first player first, with ``go`` tokens.

    Tokens are card notation, :class:`~scorer.cards.Card` objects or ``go``
    (any case). A partial play is scored as far as it goes. ``players`` is 2, 3
    or 4 (partners); see the module docstring for how turns, resets and goes
    are read and what the seats are called.

    >>> score_pegging("4S 4H 4D 3C 2S 5H go 9C QD go".split()).totals
    {'pone': 10, 'dealer': 10}
    >>> score_pegging(["5H", "go"])
    Traceback (most recent call last):
    ...
    scorer.pegging.IllegalPlayError: position 2 (go): dealer cannot say go at 5: any card fits (failing to play is a renege)

    Raises :class:`IllegalPlayError` (a ``ValueError``) naming the first bad position,
    and :class:`InvalidPlayersError` for a number of players other than 2, 3 or 4.
    """
    # The table imports this module's types, so it is imported here, not at the top.
    from scorer.pegging_table import Table

    table = Table(seats_for(players))
    for position, token in enumerate(sequence, 1):
        table.read(position, token)
    return table.result()
