"""The play (pegging), card by card: fifteen, 31, pairs, runs, go and last card.

:func:`score_pegging` takes the cards of a two-player play in the order they
were laid, pone first, with ``go`` (any case) where a player cannot play, and
works out whose card each one is, the running count, when the count starts
again, who leads each count, and what every card scores (RULES.md, "The play").

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
from dataclasses import dataclass, field
from typing import Any, Final, Literal, NamedTuple, NoReturn

from scorer.cards import Card, InvalidCardError

Player = Literal["pone", "dealer"]
PONE: Final = "pone"
DEALER: Final = "dealer"
PLAYERS: tuple[Player, Player] = (PONE, DEALER)

HAND_SIZE: Final = 4  # two players, six dealt, two to the crib
MAX_COUNT: Final = 31
# Every card is worth at most 10, so at 21 or less any card fits.
ANY_CARD_FITS: Final = MAX_COUNT - 10
GO: Final = "go"


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

    player: Player
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
    """A scored play: every token in input order, and whether all eight cards were laid."""

    plays: tuple[Play, ...]
    """One entry per token of the input."""
    complete: bool
    """True once both players have laid all their cards (the last card has scored)."""

    @property
    def totals(self) -> dict[Player, int]:
        """Points pegged by each player: the sum of their plays' points."""
        totals: dict[Player, int] = {PONE: 0, DEALER: 0}
        for play in self.plays:
            totals[play.player] += play.points
        return totals

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{plays: [...], totals: {pone, dealer}}``."""
        return {"plays": [p.as_dict() for p in self.plays], "totals": self.totals}

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
        totals = self.totals
        lines.append(f"totals: pone {totals[PONE]}, dealer {totals[DEALER]}")
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


@dataclass(slots=True)
class _Draft:
    """A play while the sequence is read: go and last-card points arrive later."""

    player: Player
    card: Card | None
    count: int
    reasons: list[Score] = field(default_factory=list)

    def freeze(self) -> Play:
        return Play(self.player, self.card, self.count,
                    sum(s.points for s in self.reasons), tuple(self.reasons))


@dataclass(frozen=True, slots=True)
class _Go:
    """A go, written or implied by a card that did not fit; checked once later cards are known."""

    position: int
    token: str
    player: Player
    count: int
    written: bool


class _Table:
    """The state of the play while the sequence is read, token by token."""

    def __init__(self) -> None:
        self.drafts: list[_Draft] = []
        self.laid: dict[Player, list[tuple[int, Card]]] = {PONE: [], DEALER: []}
        self.seen: dict[Card, int] = {}
        self.pile: list[Card] = []
        self.count = 0
        self.said_go: set[Player] = set()
        self.turn: Player = PONE
        self.last_layer: Player | None = None
        self.last_draft: _Draft | None = None
        self.goes: list[_Go] = []
        self.complete = False
        # Who may still say a redundant go for the count that just ended, and its count.
        self.pending_go: tuple[Player, int] | None = None

    # -- reading ---------------------------------------------------------

    def read(self, position: int, token: str | Card) -> None:
        shown = str(token).strip() if not isinstance(token, Card) else str(token)
        if isinstance(token, str) and token.strip().lower() == GO:
            self.say_go(position, shown)
            return
        try:
            card = token if isinstance(token, Card) else Card.parse(token)
        except InvalidCardError as exc:
            self.fail(position, shown, f"{exc}; or go")
        self.lay(position, shown, card)

    def say_go(self, position: int, shown: str) -> None:
        if self.pending_go is not None:
            # Out of the count that just ended without having said so: harmless.
            player, count = self.pending_go
            self.pending_go = None
            self.drafts.append(_Draft(player, None, count))
            return
        if self.complete:
            self.fail(position, shown, f"the play is over: all {2 * HAND_SIZE} cards are laid")
        player = self.turn
        if self.holds_cards(player):
            if self.count <= ANY_CARD_FITS:
                self.fail(position, shown, f"{player} cannot say go at {self.count}: any card fits "
                                           "(failing to play is a renege)")
            self.goes.append(_Go(position, shown, player, self.count, written=True))
        self.drafts.append(_Draft(player, None, self.count))
        self.said_go.add(player)
        self.turn = other(player)
        if self.is_out(PONE) and self.is_out(DEALER):
            self.end_count()

    def lay(self, position: int, shown: str, card: Card) -> None:
        if card in self.seen:
            self.fail(position, shown, f"{card} was already played at position {self.seen[card]}")
        if self.complete:
            self.fail(position, shown, f"the play is over: both players have laid all {HAND_SIZE} cards")
        player = self.turn if self.holds_cards(self.turn) else other(self.turn)
        if self.count + card.value > MAX_COUNT:
            if not self.is_out(other(player)):
                self.fail(position, shown, f"count would be {self.count + card.value}, past "
                                           f"{MAX_COUNT}; if {player} cannot play, write go here")
            # Neither can play: the count is over and this card leads the next one.
            self.goes.append(_Go(position, shown, player, self.count, written=False))
            self.end_count()
            player = self.turn
        self.pending_go = None
        self.count += card.value
        self.pile.append(card)
        self.laid[player].append((position, card))
        self.seen[card] = position
        draft = _Draft(player, card, self.count, list(score_card(self.pile)))
        self.drafts.append(draft)
        self.last_layer, self.last_draft = player, draft
        opponent = other(player)
        if not self.holds_cards(PONE) and not self.holds_cards(DEALER):
            self.complete = True
            if self.count != MAX_COUNT:  # 31 already scored 2, which includes the last
                draft.reasons.append(Score("last card", 1))
            self.pending_go = (opponent, self.count)
        elif self.count == MAX_COUNT:
            self.start_count()
        else:
            self.turn = player if opponent in self.said_go else opponent
            if self.is_out(PONE) and self.is_out(DEALER):
                self.end_count()

    # -- counts ----------------------------------------------------------

    def end_count(self) -> None:
        """Neither player can play: one for the go to the last to lay a card, then reset."""
        assert self.last_layer is not None and self.last_draft is not None and self.pile
        self.last_draft.reasons.append(Score("go", 1))
        # A player out of cards may still say the go they had no need to say.
        silent = [p for p in (other(self.last_layer), self.last_layer)
                  if self.is_out(p) and p not in self.said_go]
        self.pending_go = (silent[0], self.count) if silent else None
        self.start_count()

    def start_count(self) -> None:
        assert self.last_layer is not None
        self.pile.clear()
        self.count = 0
        self.said_go.clear()
        # The player after the one who played last leads, if they have cards.
        leader = other(self.last_layer)
        self.turn = leader if self.holds_cards(leader) else self.last_layer

    def holds_cards(self, player: Player) -> bool:
        return len(self.laid[player]) < HAND_SIZE

    def is_out(self, player: Player) -> bool:
        """Out of the current count: said go, or nothing left to play."""
        return player in self.said_go or not self.holds_cards(player)

    # -- checks ----------------------------------------------------------

    def check_goes(self, before: int | None = None) -> None:
        """Raise for the first go (before ``before``) while holding a card that fit.

        A player's cards at a go are the ones they lay after it, so only
        those can show a renege; for a full play that is all of them.
        """
        for go in self.goes:
            if before is not None and go.position >= before:
                return
            for position, card in self.laid[go.player]:
                if position > go.position and go.count + card.value <= MAX_COUNT:
                    if go.written:
                        reason = (f"{go.player} said go at {go.count} holding {card} "
                                  f"(played at position {position}), which fits: a renege")
                    else:
                        reason = (f"{go.token} does not fit on {go.count}, so it leads a new count, "
                                  f"but {go.player} held {card} (played at position {position}), "
                                  f"which fits on {go.count}: a renege")
                    raise IllegalPlayError(go.position, go.token, reason)

    def fail(self, position: int, shown: str, reason: str) -> NoReturn:
        """Raise for ``position``, unless an earlier go is already known to be a renege."""
        self.check_goes(before=position)
        raise IllegalPlayError(position, shown, reason)

    def result(self) -> Pegging:
        self.check_goes()
        return Pegging(tuple(d.freeze() for d in self.drafts), self.complete)


def score_pegging(sequence: Iterable[str | Card]) -> Pegging:
    """Score a two-player play given in the order laid, pone first, with ``go`` tokens.

    Tokens are card notation, :class:`~scorer.cards.Card` objects or ``go``
    (any case). A partial play is scored as far as it goes. See the module
    docstring for how turns, resets and goes are read.

    >>> score_pegging("4S 4H 4D 3C 2S 5H go 9C QD go".split()).totals
    {'pone': 10, 'dealer': 10}
    >>> score_pegging(["5H", "go"])
    Traceback (most recent call last):
    ...
    scorer.pegging.IllegalPlayError: position 2 (go): dealer cannot say go at 5: any card fits (failing to play is a renege)

    Raises :class:`IllegalPlayError` (a ``ValueError``) naming the first bad position.
    """
    table = _Table()
    for position, token in enumerate(sequence, 1):
        table.read(position, token)
    return table.result()
