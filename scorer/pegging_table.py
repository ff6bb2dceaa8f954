"""The table while a play is read token by token: whose turn, the count, goes and resets.

:func:`scorer.pegging.score_pegging` feeds each token to a :class:`Table` and
scores nothing itself; the table works out who laid each card (seats take
turns clockwise, a player out of the count is skipped), when a count ends, who
leads the next, and checks every go. With two players a go from a player who
has no cards left is accepted and changes nothing (the seeds' "she has run out
of cards, and so says go"); with three or four such a player is simply passed
over, so every ``go`` is the go of the next player who still holds cards and a
written go is never ambiguous.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NoReturn

from scorer.cards import Card, InvalidCardError
from scorer.pegging_rules import (
    ANY_CARD_FITS,
    GO,
    HAND_SIZE,
    MAX_COUNT,
    IllegalPlayError,
    Pegging,
    Play,
    Score,
    Seat,
    score_card,
)


@dataclass(slots=True)
class _Draft:
    """A play while the sequence is read: go and last-card points arrive later."""

    player: Seat
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
    player: Seat
    count: int
    written: bool


class Table:
    """The state of the play while the sequence is read; ``seats`` in order of play, dealer last."""

    def __init__(self, seats: tuple[Seat, ...]) -> None:
        self.seats = seats
        # Only two players may say a go they had no need to say (out of cards): see the module doc.
        self.two = len(seats) == 2
        self.drafts: list[_Draft] = []
        self.laid: dict[Seat, list[tuple[int, Card]]] = {s: [] for s in seats}
        self.seen: dict[Card, int] = {}
        self.pile: list[Card] = []
        self.count = 0
        self.said_go: set[Seat] = set()
        self.turn: Seat = seats[0]
        self.last_layer: Seat | None = None
        self.last_draft: _Draft | None = None
        self.goes: list[_Go] = []
        self.complete = False
        # Who may still say a redundant go for the count that just ended, and its count.
        self.pending_go: list[tuple[Seat, int]] = []

    # -- seats -----------------------------------------------------------

    def clockwise(self, seat: Seat) -> Iterator[Seat]:
        """Every seat once, starting with the one after ``seat`` and ending with ``seat``."""
        start = self.seats.index(seat)
        for step in range(1, len(self.seats) + 1):
            yield self.seats[(start + step) % len(self.seats)]

    def holds_cards(self, player: Seat) -> bool:
        return len(self.laid[player]) < HAND_SIZE

    def is_out(self, player: Seat) -> bool:
        """Out of the current count: said go, or nothing left to play."""
        return player in self.said_go or not self.holds_cards(player)

    def all_out(self) -> bool:
        return all(self.is_out(s) for s in self.seats)

    def mover(self) -> Seat:
        """Who lays the next card: the player to move, or the next one after them still in the count."""
        if not self.is_out(self.turn):
            return self.turn
        return next(s for s in self.clockwise(self.turn) if not self.is_out(s))

    def advance(self, player: Seat) -> None:
        """Pass the turn on from ``player`` to the next seat still in the count (``player`` if none)."""
        for seat in self.clockwise(player):
            # Two players: the turn may rest on a player out of cards, who may say a harmless go.
            if seat not in self.said_go and (self.two or self.holds_cards(seat)):
                self.turn = seat
                return

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
        if self.pending_go:
            # Out of the count that just ended without having said so: harmless.
            player, count = self.pending_go.pop(0)
            self.drafts.append(_Draft(player, None, count))
            return
        if self.complete:
            self.fail(position, shown, f"the play is over: all {len(self.seats) * HAND_SIZE} cards are laid")
        player = self.turn
        if self.holds_cards(player):
            if self.count <= ANY_CARD_FITS:
                self.fail(position, shown, f"{player} cannot say go at {self.count}: any card fits "
                                           "(failing to play is a renege)")
            self.goes.append(_Go(position, shown, player, self.count, written=True))
        self.drafts.append(_Draft(player, None, self.count))
        self.said_go.add(player)
        self.advance(player)
        if self.all_out():
            self.end_count()

    def lay(self, position: int, shown: str, card: Card) -> None:
        if card in self.seen:
            self.fail(position, shown, f"{card} was already played at position {self.seen[card]}")
        if self.complete:
            everyone = "both players have" if self.two else f"all {len(self.seats)} players have"
            self.fail(position, shown, f"the play is over: {everyone} laid all {HAND_SIZE} cards")
        player = self.mover()
        if self.count + card.value > MAX_COUNT:
            if any(not self.is_out(s) for s in self.seats if s != player):
                self.fail(position, shown, f"count would be {self.count + card.value}, past "
                                           f"{MAX_COUNT}; if {player} cannot play, write go here")
            # Nobody else can play: the count is over and this card leads the next one.
            self.goes.append(_Go(position, shown, player, self.count, written=False))
            self.end_count()
            player = self.mover()
        self.pending_go = []
        self.count += card.value
        self.pile.append(card)
        self.laid[player].append((position, card))
        self.seen[card] = position
        draft = _Draft(player, card, self.count, list(score_card(self.pile)))
        self.drafts.append(draft)
        self.last_layer, self.last_draft = player, draft
        if not any(self.holds_cards(s) for s in self.seats):
            self.complete = True
            if self.count != MAX_COUNT:  # 31 already scored 2, which includes the last
                draft.reasons.append(Score("last card", 1))
            if self.two:
                self.pending_go = [(next(self.clockwise(player)), self.count)]
        elif self.count == MAX_COUNT:
            self.start_count()
        else:
            self.advance(player)
            if self.all_out():
                self.end_count()

    # -- counts ----------------------------------------------------------

    def end_count(self) -> None:
        """Nobody can play: one for the go to the last to lay a card, then reset."""
        assert self.last_layer is not None and self.last_draft is not None and self.pile
        self.last_draft.reasons.append(Score("go", 1))
        if self.two:
            # A player out of cards may still say the go they had no need to say.
            silent = [p for p in self.clockwise(self.last_layer) if self.is_out(p) and p not in self.said_go]
            self.pending_go = [(silent[0], self.count)] if silent else []
        self.start_count()

    def start_count(self) -> None:
        assert self.last_layer is not None
        self.pile.clear()
        self.count = 0
        self.said_go.clear()
        # The player after the one who played last leads, or the next after them who has cards.
        self.turn = next((s for s in self.clockwise(self.last_layer) if self.holds_cards(s)), self.last_layer)

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
        return Pegging(tuple(d.freeze() for d in self.drafts), self.complete, self.seats)
