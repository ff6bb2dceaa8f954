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
>>> try:
...     score_pegging(["10H", "10D", "5C", "9S"])
... except IllegalPlayError as error:
...     print(error)
position 4 (9S): count would be 34, past 31; if dealer cannot play, write go here
"""

from __future__ import annotations

from collections.abc import Iterable

from scorer.cards import Card
from scorer.pegging_rules import (
    ANY_CARD_FITS,
    DEALER,
    GO,
    HAND_SIZE,
    MAX_COUNT,
    PLAYERS,
    PONE,
    SEATS,
    SIDES,
    IllegalPlayError,
    InvalidPlayersError,
    Pegging,
    Play,
    Player,
    Score,
    Seat,
    run_length,
    score_card,
    seats_for,
)
from scorer.pegging_table import Table

# The play's types and rules live in scorer.pegging_rules; they are named here too, where callers look.
__all__ = [
    "ANY_CARD_FITS", "DEALER", "GO", "HAND_SIZE", "MAX_COUNT", "PLAYERS", "PONE", "SEATS", "SIDES",
    "IllegalPlayError", "InvalidPlayersError", "Pegging", "Play", "Player", "Score", "Seat",
    "run_length", "score_card", "score_pegging", "seats_for",
]


def score_pegging(sequence: Iterable[str | Card], players: int = 2) -> Pegging:
    """Score a play given in the order laid, first player first, with ``go`` tokens.

    Tokens are card notation, :class:`~scorer.cards.Card` objects or ``go``
    (any case). A partial play is scored as far as it goes. ``players`` is 2, 3
    or 4 (partners); see the module docstring for how turns, resets and goes
    are read and what the seats are called.

    >>> score_pegging("4S 4H 4D 3C 2S 5H go 9C QD go".split()).totals
    {'pone': 10, 'dealer': 10}
    >>> try:
    ...     score_pegging(["5H", "go"])
    ... except IllegalPlayError as error:
    ...     print(error)
    position 2 (go): dealer cannot say go at 5: any card fits (failing to play is a renege)

    Raises :class:`IllegalPlayError` (a ``ValueError``) naming the first bad position,
    and :class:`InvalidPlayersError` for a number of players other than 2, 3 or 4.
    """
    table = Table(seats_for(players))
    for position, token in enumerate(sequence, 1):
        table.read(position, token)
    return table.result()
