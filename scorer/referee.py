"""The referee at the show: a whole table counted, and every claim and muggins call ruled.

One photo of the table holds every hand, the crib and the starter. :func:`score_table` counts
them in the order of the show (clockwise from the dealer's left, the dealer's hand last, then
the crib) and pegs his heels once, to the dealer. :func:`rule_claim` rules one player's claimed
total, with a muggins call or without, and :func:`rule_show` rules the whole show in order, so
that a side reaching the game hole ends the game before the later hands are counted.

The rulings follow ACC tournament rules 8 and 10 (``../shared/RULES.md``, "Muggins (optional) and
disputes at the show"); :class:`HouseRules` says which are used.

>>> table = score_table({"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H"},
...                     "KS", players=2)
>>> [(role, show.total) for role, show in table.shows]
[('pone', 5), ('dealer', 9), ('crib', 6)]
>>> print(rule_claim(table, "pone", 3, call=MugginsCall("pone", 2, caller="dealer"),
...                  rules=HouseRules(muggins=True)).message)
Pone claimed 3, the hand is 5: muggins for 2 — the dealer takes 2 (missed: fifteen 7H 8D).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scorer.cards import Card, parse_cards
from scorer.muggins import check_claim
from scorer.show import ScoreItem, Show, hand_size, score_show

__all__ = [
    "CRIB", "DEALER", "DEALERS_PARTNER", "GAMES", "HIS_HEELS", "NAMES", "PONE", "PONES_PARTNER", "SECOND",
    "CallError", "HouseRules", "MugginsCall", "Role", "Ruling", "RulingKind", "ShowOutcome", "TableCount",
    "TableError", "check_game", "hand_of", "opponents", "rule_claim", "rule_show", "score_table", "seats",
    "show_order", "side_of", "sides",
]

Role = str
"""A hand at the show (a seat's name) or the crib."""

PONE = "pone"
"""The player on the dealer's left: counts first at the show."""
SECOND = "second"
"""Three players: the seat between pone and the dealer, counting second."""
DEALERS_PARTNER = "dealer's partner"
"""Four players: the seat across from the dealer, counting second (the dealer's side)."""
PONES_PARTNER = "pone's partner"
"""Four players: the seat on the dealer's right, counting third (pone's side)."""
DEALER = "dealer"
"""Counts his hand last of the players, then the crib, which is his."""
CRIB = "crib"
"""The dealer's crib: always 4 cards, counted last, a 4-card flush scores nothing."""
HIS_HEELS = "his heels"
"""The dealer's 2 for a jack starter: pegged at once, not part of any hand, never subject to muggins."""
GAMES = (121, 61)
"""The game holes: a full game (twice round the board) or a short one (once round)."""

_SEATS: dict[int, tuple[Role, ...]] = {
    2: (PONE, DEALER),
    3: (PONE, SECOND, DEALER),
    4: (PONE, DEALERS_PARTNER, PONES_PARTNER, DEALER),
}
NAMES: dict[Role, str] = {
    PONE: "pone", SECOND: "the second player", DEALERS_PARTNER: "the dealer's partner",
    PONES_PARTNER: "pone's partner", DEALER: "the dealer", CRIB: "the crib",
}
"""How a message speaks of each role."""
_NO_MUGGINS_ON_HEELS = "no muggins on his heels: the dealer's 2 for a jack starter is not part of a count"
_PENALTY_BACK = 15
"""A false claim of game costs the offender 15 points backward (ACC rule 8)."""


class TableError(ValueError):
    """The table cannot be shown: an unknown role, a hand of the wrong size, a card twice."""


class CallError(ValueError):
    """A muggins call that cannot be made: muggins off, an unclaimed hand, his heels, a bad amount."""


# --------------------------------------------------------------------------- seats and sides


def _check_players(players: int) -> None:
    if players not in _SEATS:
        raise TableError(f"a table has 2, 3 or 4 players, got {players!r}")


def seats(players: int) -> tuple[Role, ...]:
    """The players' seats clockwise from the dealer's left, the dealer last.

    >>> seats(4)
    ('pone', "dealer's partner", "pone's partner", 'dealer')
    """
    _check_players(players)
    return _SEATS[players]


def show_order(players: int) -> tuple[Role, ...]:
    """The order of the show: clockwise from the dealer's left, the dealer's hand, then the crib.

    >>> show_order(2), show_order(3)
    (('pone', 'dealer', 'crib'), ('pone', 'second', 'dealer', 'crib'))
    """
    return seats(players) + (CRIB,)


def side_of(role: Role, players: int) -> Role:
    """The side that pegs a hand's points: the crib is the dealer's; four players peg as partners.

    >>> side_of("crib", 2), side_of("pone's partner", 4), side_of("dealer's partner", 4)
    ('dealer', 'pone', 'dealer')
    """
    if role not in show_order(players):
        order = _listed(show_order(players))
        raise TableError(f"{role!r} is not a role at a table of {players}: one of {order}")
    if role == CRIB or role == DEALERS_PARTNER:
        return DEALER
    return PONE if role == PONES_PARTNER else role


def sides(players: int) -> tuple[Role, ...]:
    """Who keeps a score: every player, or with four players the two partnerships (named by pone
    and the dealer).

    >>> sides(3), sides(4)
    (('pone', 'second', 'dealer'), ('pone', 'dealer'))
    """
    return tuple(dict.fromkeys(side_of(seat, players) for seat in seats(players)))


def opponents(side: Role, players: int) -> tuple[Role, ...]:
    """The sides playing against ``side``.

    >>> opponents("dealer", 2), opponents("second", 3)
    (('pone',), ('pone', 'dealer'))
    """
    own = side_of(side, players)
    return tuple(other for other in sides(players) if other != own)


def _listed(roles: Iterable[Role]) -> str:
    return ", ".join(repr(role) for role in roles)


def hand_of(role: Role) -> str:
    """'the crib', "pone's hand", "the dealer's hand"."""
    return NAMES[CRIB] if role == CRIB else f"{NAMES[role]}'s hand"


def _name(side: Role, players: int) -> str:
    """How a ruling speaks of a side: 'pone', 'the dealer', "the dealer's side"."""
    if players == 4:
        return "pone's side" if side == PONE else "the dealer's side"
    return NAMES[side]


# --------------------------------------------------------------------------- the table counted


@dataclass(frozen=True)
class TableCount:
    """Every hand and the crib of one deal counted, in the order of the show."""

    players: int
    """2, 3 or 4."""
    starter: Card
    """The starter, counted with every hand and the crib."""
    shows: tuple[tuple[Role, Show], ...]
    """Each role's count, in show order (the crib scored with the crib flush rule)."""
    his_heels: int
    """The dealer's 2 for a jack starter, once for the table (each :class:`Show` also reports it)."""

    def show(self, role: Role) -> Show:
        """The count of one role's hand or the crib."""
        for named, show in self.shows:
            if named == role:
                return show
        raise TableError(f"{role!r} is not a role at this table: one of {_listed(r for r, _ in self.shows)}")

    @property
    def side_totals(self) -> tuple[tuple[Role, int], ...]:
        """What each side makes from the show, his heels included once for the dealer.

        >>> score_table({"pone": "5H 5D 5S 4C", "dealer": "2H 3H 4H 6H", "crib": "KS QS 9C 8C"},
        ...             "JD", players=2).side_totals
        (('pone', 14), ('dealer', 16))
        """
        totals = dict.fromkeys(sides(self.players), 0)
        totals[DEALER] += self.his_heels
        for role, show in self.shows:
            totals[side_of(role, self.players)] += show.total
        return tuple(totals.items())


def _as_cards(cards: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return tuple(c if isinstance(c, Card) else Card.parse(c) for c in cards)


def _checked_hands(
    hands: Mapping[Role, Iterable[Card | str] | str], starter: Card, players: int, five_card: bool,
) -> dict[Role, tuple[Card, ...]]:
    """Every role of the table present, each with its number of cards, no card twice."""
    order = show_order(players)
    unknown = [role for role in hands if role not in order]
    if unknown:
        raise TableError(f"{unknown[0]!r} is not a role at a table of {players}: one of {_listed(order)}")
    missing = [role for role in order if role not in hands]
    if missing:
        raise TableError(f"the table has no cards for {_listed(missing)}")
    cards = {role: _as_cards(hands[role]) for role in order}
    owner: dict[Card, str] = {starter: "the starter"}
    for role, hand in cards.items():
        size = hand_size(crib=role == CRIB, five_card=five_card)
        if len(hand) != size:
            shown = " ".join(map(str, hand)) or "nothing"
            raise TableError(f"{hand_of(role)} holds {size} cards, got {len(hand)}: {shown}")
        for card in hand:
            if card in owner:
                twice = f"{card} is in {hand_of(role)} and in {owner[card]}"
                raise TableError(f"{twice}: a deck holds each card once")
            owner[card] = hand_of(role)
    return cards


def score_table(
    hands: Mapping[Role, Iterable[Card | str] | str],
    starter: Card | str,
    *,
    players: int,
    five_card: bool = False,
) -> TableCount:
    """Count every hand and the crib with ``starter``, in the order of the show.

    ``hands`` maps each role of :func:`show_order` to its cards: 4 each (3 a hand in five-card
    cribbage, a two-player game; the crib is always 4). Raises :class:`TableError` for an unknown
    or missing role, a hand of the wrong size or a card twice across the table.

    >>> table = score_table({"pone": "5H 5D 5S JC", "dealer": "2H 4H 6H 8H", "crib": "2S 4S 6S 8S"},
    ...                     "5C", players=2)
    >>> [show.total for _, show in table.shows], table.his_heels
    ([29, 11, 7], 0)
    >>> score_table({"pone": "5H 5D 5S JC", "dealer": "2H 4H 6H 8H", "crib": "2S 4S 6S 8S"}, "JC",
    ...             players=2)
    Traceback (most recent call last):
    ...
    scorer.referee.TableError: JC is in pone's hand and in the starter: a deck holds each card once
    """
    starter = starter if isinstance(starter, Card) else Card.parse(starter)
    if five_card and players != 2:
        raise TableError(f"five-card cribbage is a two-player game, not {players}")
    cards = _checked_hands(hands, starter, players, five_card)
    shows = tuple((role, score_show(hand, starter, crib=role == CRIB, five_card=five_card))
                  for role, hand in cards.items())
    return TableCount(players, starter, shows, shows[0][1].his_heels)


# --------------------------------------------------------------------------- rulings


@dataclass(frozen=True)
class HouseRules:
    """Which rulings the table plays by: ACC tournament rules unless the players agreed otherwise."""

    muggins: bool = False
    """Muggins is announced before the game and off unless the players turn it on (ACC 10)."""
    excess_to_opponent: bool = False
    """Older house rule: an over-claim also gives the excess to the opponent (ACC 8.4 only puts it back)."""

    @property
    def name(self) -> str:
        """The rules in a few words, for a ruling to say which are used."""
        parts = ["muggins on" if self.muggins else "muggins off"]
        if self.excess_to_opponent:
            parts.append("an over-claim's excess to the opponent (house rule)")
        return "ACC rules 8 and 10, " + ", ".join(parts)


@dataclass(frozen=True)
class MugginsCall:
    """An opponent's call of "muggins for X" on a hand or the crib someone under-claimed."""

    role: Role
    """The hand or crib called upon."""
    points: int
    """X: how many points the caller says were missed (a positive whole number)."""
    caller: Role
    """Who calls (any seat of an opposing side; their side takes the points)."""


RulingKind = Literal[
    "correct", "put back", "muggins", "wrong muggins", "missed points lost", "false claim of game",
]


@dataclass(frozen=True)
class Ruling:
    """One claim ruled: what each side pegs for it, and the sentence a table can read aloud."""

    role: Role
    """The hand or crib ruled."""
    kind: RulingKind
    """What happened: correct, put back, muggins, a wrong muggins call, missed points lost, a false
    claim of game."""
    claimed: int
    """The total the player claimed."""
    total: int
    """The true count of the hand or crib (his heels never included)."""
    pegs: tuple[tuple[Role, int], ...]
    """(side, points) in the order pegged, the hand's owner first; negative for points backward."""
    missed: tuple[ScoreItem, ...] = ()
    """The items the claim left out (every candidate when the shortfall has several explanations)."""
    message: str = field(default="", compare=False)
    """One line to read aloud, e.g. 'Pone claimed 10, the hand is 12: muggins for 2 — ...'."""

    def pegged(self, side: Role) -> int:
        """What ``side`` pegs for this ruling (0 when nothing)."""
        return sum(points for who, points in self.pegs if who == side)


def _spelled(items: Sequence[ScoreItem], exact: bool) -> str:
    said = ", ".join(f"{item.kind} {' '.join(map(str, item.cards))}" for item in items)
    return f"missed: {said}" if exact else f"missed one or more of: {said}"


def _opponent(side: Role, players: int, by: Role | None) -> Role:
    """The one side a penalty goes to: the only opponent, or with three players the one who objected."""
    if by is not None:
        if side_of(by, players) == side:
            raise CallError(f"{_name(side_of(by, players), players)} cannot object to their own side's claim")
        return side_of(by, players)
    others = opponents(side, players)
    if len(others) > 1:
        raise CallError("with three players, name the player who objected (by=) to give them the excess")
    return others[0]


def _check_call(call: MugginsCall, role: Role, side: Role, players: int, rules: HouseRules) -> None:
    if call.role == HIS_HEELS:
        raise CallError(_NO_MUGGINS_ON_HEELS)
    if not rules.muggins:
        raise CallError("muggins is off: it applies only when the players turned it on before the game")
    if call.role != role:
        raise CallError(f"a call on the {call.role} cannot rule the {role}")
    if isinstance(call.points, bool) or not isinstance(call.points, int) or call.points < 1:
        raise CallError(f"muggins for X takes a positive whole number of points, got {call.points!r}")
    if side_of(call.caller, players) == side:
        raise CallError(f"{_name(side, players)} cannot call muggins on their own side's count")


def rule_claim(
    table: TableCount,
    role: Role,
    claimed: int,
    *,
    call: MugginsCall | None = None,
    rules: HouseRules = HouseRules(),
    scores: Mapping[Role, int] | None = None,
    game: int = 121,
    by: Role | None = None,
) -> Ruling:
    """Rule a claimed total for one hand or the crib, and a muggins call on it if one was made.

    ``scores`` (each side's score as the hand is counted) and ``game`` (121 or 61) let a claim
    that would peg out be checked as a claim of game. ``by`` names who objected to an over-claim,
    needed with three players when the excess goes to an opponent. Raises :class:`TableError` for
    an unknown role, :class:`CallError` for a call that cannot be made, and
    :class:`~scorer.muggins.InvalidClaimError` for a claim that is not 0..29.

    >>> table = score_table({"pone": "7H 8D 9C 2S", "dealer": "QH 5C 4S 6D", "crib": "AC AD 10S 3H"},
    ...                     "KS", players=2)
    >>> print(rule_claim(table, "pone", 7).message)
    Pone claimed 7, the hand is 5: put back to 5 (ACC 8.4) — pone pegs 5.
    """
    show = table.show(role)
    side = side_of(role, table.players)
    verdict = check_claim(show, claimed)
    if call is not None:
        _check_call(call, role, side, table.players, rules)
    who = _name(side, table.players)
    what = "the crib" if role == CRIB else "the hand"
    head = f"{who[0].upper()}{who[1:]} claimed {claimed}{' for the crib' if role == CRIB else ''}, " \
           f"{what} is {show.total}"
    facts = _Facts(table, role, side, head, claimed, show.total, rules, by)
    if call is not None and verdict.verdict != "under-claimed":
        return _wrong_call(facts, call)
    if verdict.verdict == "correct":
        said = f"{head}: correct — {facts.owner} pegs {show.total}."
        return facts.ruling("correct", ((side, show.total),), said)
    if verdict.verdict == "over-claimed":
        score = None if scores is None else scores.get(side, 0)
        if score is not None and score + claimed >= game > score + show.total:
            return _false_game(facts, score, scores or {}, game)
        return _put_back(facts)
    return _under_claim(facts, call, verdict.missed, verdict.exact)


@dataclass(frozen=True)
class _Facts:
    """What every ruling of one claim needs to say and peg."""

    table: TableCount
    role: Role
    side: Role
    head: str
    claimed: int
    total: int
    rules: HouseRules
    by: Role | None

    @property
    def owner(self) -> str:
        return _name(self.side, self.table.players)

    def name(self, side: Role) -> str:
        return _name(side, self.table.players)

    def ruling(self, kind: RulingKind, pegs: Iterable[tuple[Role, int]], message: str,
               missed: tuple[ScoreItem, ...] = ()) -> Ruling:
        pegs = tuple((side, points) for side, points in pegs if points)
        return Ruling(self.role, kind, self.claimed, self.total, pegs, missed, message)


def _wrong_call(facts: _Facts, call: MugginsCall) -> Ruling:
    """Nothing was missed: the player called upon pegs the true count and X more as the penalty."""
    caller = facts.name(side_of(call.caller, facts.table.players))
    put_back = f", put back to {facts.total} (ACC 8.4)" if facts.claimed > facts.total else ""
    message = (f"{facts.head}: muggins for {call.points}, but nothing was missed{put_back} — "
               f"{facts.owner} pegs {facts.total} and {call.points} more as the penalty against {caller}.")
    return facts.ruling("wrong muggins", ((facts.side, facts.total + call.points),), message)


def _put_back(facts: _Facts) -> Ruling:
    """An over-claim: the peg goes back to the true count; the house option also pays the excess."""
    excess = facts.claimed - facts.total
    pegs = [(facts.side, facts.total)]
    said = f"{facts.head}: put back to {facts.total} (ACC 8.4) — {facts.owner} pegs {facts.total}"
    if facts.rules.excess_to_opponent:
        other = _opponent(facts.side, facts.table.players, facts.by)
        pegs.append((other, excess))
        said += f", and {facts.name(other)} takes the {excess} over (house rule)"
    return facts.ruling("put back", pegs, said + ".")


def _false_game(facts: _Facts, score: int, scores: Mapping[Role, int], game: int) -> Ruling:
    """Pegging out with too few points: back to the true count, the excess to the opponent up to
    the game hole, and the offender 15 points backward (never below the start)."""
    other = _opponent(facts.side, facts.table.players, facts.by)
    excess = min(facts.claimed - facts.total, game - scores.get(other, 0))
    own = max(facts.total - _PENALTY_BACK, -score)
    message = (f"{facts.head} and {facts.owner} stood at {score} of {game}: a false claim of game — the peg "
               f"goes back, {facts.name(other)} takes {excess}, and {facts.owner} goes {_PENALTY_BACK} back "
               f"(pegs {own}).")
    return facts.ruling("false claim of game", ((facts.side, own), (other, excess)), message)


def _under_claim(
    facts: _Facts, call: MugginsCall | None, missed: tuple[ScoreItem, ...], exact: bool,
) -> Ruling:
    """Points left out: lost with muggins off or no call; with a call, the caller takes min(X, missed)."""
    shortfall = facts.total - facts.claimed
    said_missed = _spelled(missed, exact)
    own = ((facts.side, facts.claimed),)
    if call is None:
        why = "muggins is off" if not facts.rules.muggins else "nobody called muggins"
        message = (f"{facts.head}: {why}, so the {shortfall} missed are lost — {facts.owner} pegs "
                   f"{facts.claimed} ({said_missed}).")
        return facts.ruling("missed points lost", own, message, missed)
    caller = side_of(call.caller, facts.table.players)
    taken = min(call.points, shortfall)
    # The caller takes the lesser of X and the shortfall, never more than was missed.
    too_many = f", but only {shortfall} were missed" if call.points > shortfall else ""
    rest_lost = f"; the other {shortfall - taken} missed are lost" if call.points < shortfall else ""
    message = (f"{facts.head}: muggins for {call.points}{too_many} — {facts.name(caller)} takes {taken}"
               f"{rest_lost} ({said_missed}).")
    return facts.ruling("muggins", own + ((caller, taken),), message, missed)


# --------------------------------------------------------------------------- the show, in order


@dataclass(frozen=True)
class ShowOutcome:
    """The show ruled hand by hand, stopping where a side reached the game hole."""

    rulings: tuple[Ruling, ...]
    """The hands and crib counted, in show order (the ones after the game ended are left out)."""
    scores: tuple[tuple[Role, int], ...]
    """Each side's score after the show."""
    game: int
    """The game hole: 121 or 61."""
    winner: Role | None
    """The side that reached the game hole, or None when the game goes on."""
    ended_at: Role | None
    """The hand (or crib) whose ruling reached the game hole; None when the game goes on."""
    not_counted: tuple[Role, ...]
    """Hands never counted because the game had ended (pone can go out before the dealer counts)."""


def _calls_by_role(
    calls: Iterable[MugginsCall], claims: Mapping[Role, int], players: int,
) -> dict[Role, MugginsCall]:
    by_role: dict[Role, MugginsCall] = {}
    for call in calls:
        if call.role == HIS_HEELS:
            raise CallError(_NO_MUGGINS_ON_HEELS)
        side_of(call.role, players)  # an unknown role is a TableError
        if call.role not in claims:
            raise CallError(f"muggins called on the {call.role}, but nobody claimed a total for it")
        if call.role in by_role:
            raise CallError(f"muggins called twice on the {call.role}: one call a count")
        by_role[call.role] = call
    return by_role


def check_game(game: int) -> None:
    """Raises :class:`TableError` unless ``game`` is one of :data:`GAMES`."""
    if game not in GAMES:
        raise TableError(f"a game is to {' or '.join(map(str, GAMES))} points, not {game!r}")


def rule_show(
    table: TableCount,
    claims: Mapping[Role, int],
    calls: Iterable[MugginsCall] = (),
    *,
    rules: HouseRules = HouseRules(),
    scores: Mapping[Role, int] | None = None,
    game: int = 121,
    objectors: Mapping[Role, Role] | None = None,
) -> ShowOutcome:
    """Rule the whole show in order from ``scores`` (each side's score as the show begins, his heels
    and the play already pegged): a hand not in ``claims`` was counted right. The game ends the
    moment a side reaches ``game``, and nothing after is counted. ``objectors`` names, per hand,
    who objected to an over-claim (needed with three players when the excess goes to an opponent).

    >>> table = score_table({"pone": "5H 5D 5S 4C", "dealer": "2H 3H 4H 6H", "crib": "KS QS 9C 8C"},
    ...                     "JD", players=2)
    >>> outcome = rule_show(table, {}, scores={"pone": 110, "dealer": 115})
    >>> outcome.winner, outcome.ended_at, outcome.not_counted
    ('pone', 'pone', ('dealer', 'crib'))
    """
    check_game(game)
    for role in claims:
        side_of(role, table.players)
    called = _calls_by_role(calls, claims, table.players)
    running = dict.fromkeys(sides(table.players), 0)
    for side, score in (scores or {}).items():
        if side not in running:
            known = _listed(running)
            raise TableError(f"{side!r} keeps no score at a table of {table.players}: one of {known}")
        running[side] = score
    rulings: list[Ruling] = []
    order = [role for role, _ in table.shows]
    for step, role in enumerate(order):
        claimed = claims.get(role, table.show(role).total)
        ruling = rule_claim(table, role, claimed, call=called.get(role), rules=rules, scores=running,
                            game=game, by=(objectors or {}).get(role))
        rulings.append(ruling)
        for side, points in ruling.pegs:
            running[side] = max(running[side] + points, 0)
            if running[side] >= game:
                return ShowOutcome(tuple(rulings), tuple(running.items()), game, side, role,
                                   tuple(order[step + 1:]))
    return ShowOutcome(tuple(rulings), tuple(running.items()), game, None, None, ())
