"""The photo referee at the edge: the front ends' words parsed, one path from cards to rulings, the
shapes `cribcount referee --json` and ``/api/referee`` return.

The CLI, the photo route and the page's typed re-rule share :func:`referee`: the table's cards
(read from a photo, or sent back by the page with the player's fixes) are split into groups
(:func:`vision.table.find_groups`), the player's card moves applied (:func:`vision.table.move_card`),
the groups named (the player's word, else :func:`vision.table.suggest_roles`, always shown as a
suggestion), counted (:func:`scorer.referee.score_table`) and every claim and muggins call ruled in
show order (:func:`scorer.referee.rule_show`). Groups are numbered from 1, as the layout's reasons
speak of them; rows (cards) from 0, as in the photo's detections.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from api.schemas import CardOut, ErrorOut, ImageSize, ItemOut
from scorer.cards import Card
from scorer.muggins import MAX_CLAIM, parse_claim
from scorer.referee import (
    CRIB,
    DEALER,
    DEALERS_PARTNER,
    GAMES,
    HIS_HEELS,
    NAMES,
    PONE,
    PONES_PARTNER,
    SECOND,
    HouseRules,
    MugginsCall,
    Role,
    Ruling,
    ShowOutcome,
    TableCount,
    TableError,
    check_game,
    hand_of,
    opponents,
    rule_show,
    score_table,
    seats,
    show_order,
    side_of,
)
from scorer.typed import quoted, whole_number
from vision.detections import Detections
from vision.table import RoleSuggestion, TableLayout, find_groups, group_sizes, move_card, suggest_roles

MAX_TABLE_CARDS = 21
"""Four hands, the crib and the starter: the most a table at the show holds (RULES.md)."""
MAX_ENTRIES = 8
"""At most this many claims, calls, roles or moves in one request: a table has five counts."""
MAX_BOX_PX = 100_000
"""No photo the service reads is wider or taller (50 megapixels, 120 on the command line)."""


class RefereeInputError(ValueError):
    """A claim, call, role, move or score the front end cannot take, said in its own words."""


# --------------------------------------------------------------------------- the front ends' words

_ALIASES = {
    "pone": PONE, "dealer": DEALER, "crib": CRIB, "second": SECOND,
    "dealer's partner": DEALERS_PARTNER, "dealers partner": DEALERS_PARTNER,
    "pone's partner": PONES_PARTNER, "pones partner": PONES_PARTNER,
    "his heels": HIS_HEELS, "heels": HIS_HEELS,
}


def parse_role(text: str, players: int, *, heels: bool = False) -> Role:
    """A role typed as ``pone``, ``dealer``, ``crib``, ``second``, ``dealers-partner`` or
    ``pones-partner`` (``heels`` only where a call names it, to be refused by the rules).

    >>> parse_role("Dealers-Partner", 4)
    "dealer's partner"
    """
    said = re.sub(r"[-_\s]+", " ", text.strip().lower())
    role = _ALIASES.get(said)
    if role == HIS_HEELS and heels:
        return role
    if role is None or role not in show_order(players):
        known = ", ".join(r.replace(" ", "-").replace("'", "") for r in show_order(players))
        said = quoted(text.strip())
        raise RefereeInputError(f"{said} is not a role at a table of {players}: one of {known}")
    return role


def _pair(text: str, what: str, shape: str) -> tuple[str, str]:
    left, eq, right = text.partition("=")
    if not eq or not left.strip() or not right.strip():
        raise RefereeInputError(f"{what} {quoted(text)}: write it as {shape}")
    return left.strip(), right.strip()


def _whole(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``, typed strictly (:func:`scorer.typed.whole_number`)."""
    number = whole_number(text)
    if number is None or not low <= number <= high:
        raise RefereeInputError(f"{what}: a whole number from {low} to {high}, got {quoted(text)}")
    return number


def parse_players(text: str) -> int:
    """The players at the table, typed: exactly ``2``, ``3`` or ``4`` ("2.0" is not a number of players)."""
    return _whole(text.strip(), "players", 2, 4)


def parse_game(text: str) -> int:
    """The game hole, typed: ``121`` or ``61``."""
    if text.strip() not in [str(game) for game in GAMES]:
        raise RefereeInputError(f"game: 121 or 61, got {quoted(text)}")
    return int(text)


@dataclass(frozen=True)
class Claim:
    """A player's claimed total for a hand or the crib, and who objected if it was too much."""

    role: Role
    points: int
    by: Role | None = None


def parse_claim_entry(text: str, players: int) -> Claim:
    """``pone=10`` (or ``pone=10:dealer``, naming who objected, needed with three players when an
    over-claim's excess goes to an opponent)."""
    role_text, rest = _pair(text, "claim", "ROLE=N, e.g. pone=10")
    points, _, by = rest.partition(":")
    role = parse_role(role_text, players)
    return Claim(role, parse_claim(points), parse_role(by, players) if by else None)


def parse_call(text: str, players: int) -> MugginsCall:
    """``pone=2``: muggins for 2 on pone's hand, called by the only other side (``pone=2:dealer``
    names the caller, needed with three players)."""
    role_text, rest = _pair(text, "muggins", "ROLE=X, e.g. pone=2")
    points_text, _, caller_text = rest.partition(":")
    role = parse_role(role_text, players, heels=True)
    points = _whole(points_text, f"muggins for X on {role}", 1, MAX_CLAIM)
    if caller_text:
        return MugginsCall(role, points, parse_role(caller_text, players))
    if role == HIS_HEELS:
        return MugginsCall(role, points, PONE)  # refused by the rules, which say why
    others = opponents(side_of(role, players), players)
    if len(others) > 1:
        raise RefereeInputError(f"muggins {role_text}={points}: with three players name the caller, e.g. "
                                f"{role_text}={points}:dealer")
    return MugginsCall(role, points, others[0])


def parse_group_role(text: str, players: int, groups: int) -> tuple[int, Role]:
    """``2=crib``: group 2 (as numbered in the answer) is the crib."""
    group, role = _pair(text, "role", "GROUP=ROLE, e.g. 2=crib")
    return _whole(group, "a group's number", 1, groups), parse_role(role, players)


def parse_score(text: str, players: int) -> tuple[Role, int]:
    """``dealer=110``: a side's score as the show begins (for a claim of game)."""
    side, points = _pair(text, "score", "SIDE=N, e.g. dealer=110")
    return side_of(parse_role(side, players), players), _whole(points, f"{side}'s score", 0, 120)


@dataclass(frozen=True)
class Move:
    """The player's one-tap fix: card ``row`` belongs to group ``group`` (None: it is the starter)."""

    row: int
    group: int | None


def parse_move(text: str, detections: Detections, groups: int) -> Move:
    """``5H=2``: the five of hearts belongs to group 2; ``5H=starter``: it is the starter."""
    card_text, to = _pair(text, "move", "CARD=GROUP or CARD=starter, e.g. 5H=2")
    card = _named_card(card_text, f"move {quoted(text)}", list(detections.cards), seen=True)
    group = None if to.lower() == "starter" else _whole(to, "a group's number", 1, groups)
    return Move(detections.cards.index(card), group)


# --------------------------------------------------------------------------- one path to rulings


@dataclass(frozen=True)
class RefereeRequest:
    """What the players tell the referee besides the photo."""

    players: int
    seat: Role = PONE
    """The seat of the player taking the photo (the hand nearest the photo's bottom edge)."""
    five_card: bool = False
    muggins: bool = True
    claims: tuple[Claim, ...] = ()
    calls: tuple[MugginsCall, ...] = ()
    roles: tuple[tuple[int, Role], ...] = ()
    """(group number, role) the player named; the other groups keep the suggestion."""
    moves: tuple[Move, ...] = ()
    scores: tuple[tuple[Role, int], ...] = ()
    game: int = 121

    def __post_init__(self) -> None:
        """Every front end's words checked alike before the photo is read: one claim a count, one role
        a group, scores below the game hole."""
        _check_table(self)
        _check_once([c.role for c in self.claims], lambda role: f"a claim for {hand_of(role)}",
                    "one claim a count")
        _check_once([side for side, _ in self.scores], lambda side: f"{NAMES[side]}'s score",
                    "one score a side")
        _check_roles(self)
        for side, points in self.scores:
            if points >= self.game:
                raise RefereeInputError(f"{NAMES[side]}'s score: a whole number from 0 to {self.game - 1} "
                                        f"in a game to {self.game}, got {points}")


def _check_table(request: RefereeRequest) -> None:
    try:
        check_game(request.game)  # the scorer's rule, checked before the photo is read
    except TableError as exc:
        raise RefereeInputError(str(exc)) from None
    if request.five_card and request.players != 2:
        raise RefereeInputError(f"five-card cribbage is a two-player game, not {request.players}")
    if request.seat not in seats(request.players):
        known = ", ".join(seats(request.players))
        raise RefereeInputError(f"{request.seat!r} is not a seat at a table of {request.players}: one of "
                                f"{known}")


def _check_once(keys: list[str], said: Callable[[str], str], rule: str) -> None:
    twice = next((key for k, key in enumerate(keys) if key in keys[:k]), None)
    if twice is not None:
        raise RefereeInputError(f"{said(twice)} is given twice: {rule}")


def _check_roles(request: RefereeRequest) -> None:
    """Moves and names only to groups there are. A group may be named again (the page sends its taps
    in order, the later one standing): :func:`named_roles_once` is for words typed at once."""
    groups = len(group_sizes(request.players, five_card=request.five_card))
    numbers = [n for n, _ in request.roles] + [m.group for m in request.moves if m.group is not None]
    wrong = next((n for n in numbers if not 1 <= n <= groups), None)
    if wrong is not None:
        raise RefereeInputError(f"no group {wrong}: groups are 1 to {groups}")


def typed_words(base: RefereeRequest, *, claims: Iterable[str] = (), calls: Iterable[str] = (),
                roles: Iterable[str] = (), scores: Iterable[str] = ()) -> RefereeRequest:
    """``base`` with the words typed at once (the CLI's options, the form's fields) that need no photo:
    each bad one a one-line :class:`RefereeInputError`, before the photo is read."""
    n = base.players
    return replace(base, claims=tuple(parse_claim_entry(text, n) for text in claims),
                   calls=tuple(parse_call(text, n) for text in calls),
                   roles=named_roles_once(parse_group_role(text, n, len(group_sizes(n))) for text in roles),
                   scores=tuple(parse_score(text, n) for text in scores))


def parse_moves(texts: Iterable[str], detections: Detections, players: int) -> tuple[Move, ...]:
    """The player's card moves typed at once, naming cards of the photo (:func:`parse_move`)."""
    return tuple(parse_move(text, detections, len(group_sizes(players))) for text in texts)


def corrected(detections: Detections, size: tuple[int, int], players: int, *, fixes: Iterable[str] = (),
              additions: Iterable[str] = (), moves: Iterable[str] = ()
              ) -> tuple[Detections, tuple[Move, ...]]:
    """The cards read with the player's corrections, as the page makes them with a tap, and the card
    moves: ``6S=7H`` a fix, the card read as the 6S is the 7H; ``7H=8D`` an addition, the photo missed
    the 7H, which lies in the 8D's group (its box is the 8D's); ``7H=starter``, the missed card is the
    starter (a box apart, in the photo corner farthest from the cards, and a move that makes it the
    starter); ``5H=2`` a move (:func:`parse_move`), naming a card of the corrected table. A corrected
    card is sure. ``size`` is the photo's (width, height)."""
    table, needed = _added(_fixed(detections, fixes), additions, size)
    return table, needed + parse_moves(moves, table, players)


def _named_card(text: str, what: str, cards: list[Card | None], *, seen: bool) -> Card:
    """The card ``text`` names, which must be among ``cards`` (``seen``) or not yet on the table."""
    try:
        card = Card.parse(text)
    except ValueError as exc:
        raise RefereeInputError(f"{what}: {exc}") from None
    if seen and card not in cards:
        listed = " ".join(str(c) for c in cards if c is not None) or "none"
        raise RefereeInputError(f"{what}: {card} is not among the cards seen ({listed})")
    if seen and cards.count(card) > 1:
        raise RefereeInputError(f"{what}: {card} is read more than once: fix it on the page, by its place")
    if not seen and card in cards:
        raise RefereeInputError(f"{what}: {card} is already on the table")
    return card


def _fixed(detections: Detections, fixes: Iterable[str]) -> Detections:
    cards, confidence = list(detections.cards), detections.confidence.copy()
    for text in fixes:
        read_text, true_text = _pair(text, "fix", "READ=CARD, e.g. 6S=7H")
        what = f"fix {quoted(text)}"
        row = cards.index(_named_card(read_text, what, cards, seen=True))
        cards[row], confidence[row] = _named_card(true_text, what, cards, seen=False), 1.0
    return detections.with_(cards=tuple(cards), confidence=confidence)


def _added(fixed: Detections, additions: Iterable[str],
           size: tuple[int, int]) -> tuple[Detections, tuple[Move, ...]]:
    cards, boxes, moves = list(fixed.cards), list(fixed.xyxy), []
    for text in additions:
        card_text, beside = _pair(text, "add", "CARD=BESIDE or CARD=starter, e.g. 7H=8D")
        what = f"add {quoted(text)}"
        card = _named_card(card_text, what, cards, seen=False)
        if beside.lower() == "starter":
            moves.append(Move(len(cards), None))
            boxes.append(_apart(fixed.xyxy, size))
        else:
            boxes.append(boxes[cards.index(_named_card(beside, what, cards, seen=True))].copy())
        cards.append(card)
    new = len(cards) - len(fixed)
    if not new:
        return fixed, ()
    made_up = {"made_up": np.zeros(new, bool)} if "made_up" in fixed.data else {}
    added = Detections(xyxy=np.array(boxes[len(fixed):], np.float32), confidence=np.ones(new, np.float32),
                       cards=tuple(cards[len(fixed):]), data=made_up)
    return Detections.merge([fixed, added]), tuple(moves)


def _apart(xyxy: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A card-sized box in the corner of a ``size`` photo farthest from the cards' boxes ``xyxy``."""
    width, height = size
    w, h = (np.median(xyxy[:, 2:] - xyxy[:, :2], axis=0) if len(xyxy) else (width / 20, height / 20))
    centre = xyxy.reshape(-1, 2, 2).mean(axis=(0, 1)) if len(xyxy) else np.array([width / 2, height / 2])
    corners = [(0, 0), (width - w, 0), (0, height - h), (width - w, height - h)]
    x0, y0 = max(corners, key=lambda c: float(np.hypot(c[0] + w / 2 - centre[0], c[1] + h / 2 - centre[1])))
    return np.array([x0, y0, x0 + w, y0 + h], np.float32)


def named_roles_once(roles: Iterable[tuple[int, Role]]) -> tuple[tuple[int, Role], ...]:
    """``roles`` typed at once (the CLI's ``--role``, the form's ``role``): each group named once, each
    role given to one group, as two names for one group can only be a slip."""
    named: dict[int, Role] = {}
    for number, role in roles:
        if number in named:
            raise RefereeInputError(f"group {number} is named twice: one role a group")
        other = next((n for n, r in named.items() if r == role), None)
        if other is not None:
            raise RefereeInputError(f"{NAMES[role]} is named for groups {other} and {number}: each role is "
                                    "one group")
        named[number] = role
    return tuple(named.items())


@dataclass(frozen=True)
class Refereed:
    """The table as the referee saw it: the layout, whose is which, the counts and the rulings."""

    detections: Detections
    layout: TableLayout
    suggestion: RoleSuggestion
    roles: tuple[Role, ...]
    """By group: the suggestion with the player's word applied."""
    given: tuple[int, ...]
    """Group numbers whose role the player named."""
    rules: HouseRules
    table: TableCount | None = None
    outcome: ShowOutcome | None = None
    problem: str | None = None
    """Why the table could not be counted, and what to do; None when it was."""
    scores: tuple[tuple[Role, int], ...] = field(default=())


class TableNotCounted(ValueError):
    """The groups cannot be counted as they lie: the player moves a card or names a role."""

    def __init__(self, refereed: Refereed) -> None:
        super().__init__(refereed.problem)
        self.refereed = refereed


def named_roles(suggested: tuple[Role, ...], given: Iterable[tuple[int, Role]]) -> tuple[Role, ...]:
    """The suggestion with each role the player named swapped in, so every role stays used once.

    >>> named_roles(("dealer", "crib", "pone"), [(1, "crib")])
    ('crib', 'dealer', 'pone')
    """
    roles = list(suggested)
    for number, role in given:
        if not 1 <= number <= len(roles):
            raise RefereeInputError(f"no group {number}: groups are 1 to {len(roles)}")
        other = roles.index(role) if role in roles else number - 1
        roles[other], roles[number - 1] = roles[number - 1], role
    return tuple(roles)


def _laid_out(detections: Detections, request: RefereeRequest) -> TableLayout:
    layout = find_groups(detections, players=request.players, five_card=request.five_card)
    for move in request.moves:
        layout = move_card(layout, move.row, None if move.group is None else move.group - 1)
    return layout


def _hands(detections: Detections, layout: TableLayout, roles: tuple[Role, ...]) -> dict[Role, list[Card]]:
    """Each role's cards; a card not read, or no starter, is a problem for the player to fix."""
    unread = [str(row) for row, card in enumerate(detections.cards) if card is None]
    if unread:
        raise TableError(f"card {', '.join(unread)} could not be read: name it before the table is counted")
    if layout.starter is None:
        raise TableError("no starter: tap the card that is the starter")
    sizes = group_sizes(layout.players, five_card=layout.five_card)
    for number, (group, role) in enumerate(zip(layout.groups, roles, strict=True), 1):
        want = sizes[-1] if role == CRIB else sizes[0]
        if len(group.rows) != want:
            raise TableError(f"group {number} holds {len(group.rows)} cards and {role} holds {want}: "
                             "move a card from one group to another")
    pairs = zip(layout.groups, roles, strict=True)
    return {role: [detections.cards[r] for r in group.rows] for group, role in pairs}


def referee(detections: Detections, request: RefereeRequest) -> Refereed:
    """The table counted and ruled; :class:`TableNotCounted` (carrying the layout) when its groups
    cannot be counted; :class:`~vision.table.TableLayoutError` for a photo without the table's number
    of cards; ``ValueError`` subclasses for a claim or call that cannot be made."""
    layout = _laid_out(detections, request)
    suggestion = suggest_roles(layout, me=request.seat)
    roles = named_roles(suggestion.roles, request.roles)
    seen = Refereed(detections, layout, suggestion, roles, tuple(n for n, _ in request.roles),
                    HouseRules(muggins=request.muggins))
    try:
        hands = _hands(detections, layout, roles)
        table = score_table(hands, detections.cards[layout.starter], players=request.players,
                            five_card=request.five_card)
    except TableError as exc:
        raise TableNotCounted(_with(seen, problem=str(exc))) from None
    outcome = rule_show(table, {c.role: c.points for c in request.claims}, request.calls,
                        rules=seen.rules, scores=dict(request.scores), game=request.game,
                        objectors={c.role: c.by for c in request.claims if c.by})
    return _with(seen, table=table, outcome=outcome, scores=_pegged(table, outcome, request.scores))


def _with(refereed: Refereed, **changes) -> Refereed:
    return replace(refereed, **changes)


def _pegged(table: TableCount, outcome: ShowOutcome, start: Iterable[tuple[Role, int]]
            ) -> tuple[tuple[Role, int], ...]:
    """What each side pegs at the show: its rulings' points, and his heels for the dealer."""
    before = dict(start)
    return tuple((side, score - before.get(side, 0) + (table.his_heels if side == DEALER else 0))
                 for side, score in outcome.scores)


def detections_of(cards: Iterable[tuple[Card | None, tuple[float, float, float, float], float]]
                  ) -> Detections:
    """The page's cards sent back (its fixes applied) as the recognizer's rows."""
    rows = list(cards)
    if not rows:
        return Detections.empty()
    return Detections(xyxy=np.array([box for _, box, _ in rows], np.float32),
                      confidence=np.array([conf for _, _, conf in rows], np.float32),
                      cards=tuple(card for card, _, _ in rows))


def scores_of(entries: Mapping[str, int], players: int) -> tuple[tuple[Role, int], ...]:
    """Each side's score as the show begins, keyed by a role of that side."""
    return tuple((side_of(parse_role(side, players), players), _whole(str(points), f"{side}'s score", 0, 120))
                 for side, points in entries.items())


# --------------------------------------------------------------------------- shapes


class GroupOut(BaseModel):
    """One hand or the crib as it lies on the table, and its count."""

    number: int = Field(description="The group's number, from 1 (the layout's reasons use it).")
    rows: list[int] = Field(description="Its cards' rows in `cards`, left to right.")
    cards: list[str | None]
    xyxy: tuple[float, float, float, float] = Field(description="The box round its cards, original pixels.")
    confidence: float = Field(ge=0, le=1, description="How clearly it stands apart from the others.")
    role: str = Field(description="Whose it is: the player's word, else the suggestion.")
    suggested: str = Field(description="The role the layout suggests.")
    given: bool = Field(description="True when the player named this group's role.")
    total: int | None = Field(None, description="Its count (his heels never included); null if not counted.")
    items: list[ItemOut] = []
    announcement: str | None = None


class RulingOut(BaseModel):
    """One claim ruled (rules 8 and 10 of the ACC): what each side pegs, and the line to read aloud."""

    role: str
    group: int = Field(description="The group ruled, by number.")
    kind: str = Field(description="correct, put back, muggins, wrong muggins, missed points lost, "
                                  "false claim of game")
    claimed: int
    total: int
    pegs: list[tuple[str, int]] = Field(description="(side, points) in the order pegged; negative: backward.")
    missed: list[ItemOut] = Field(description="The items the claim left out (to light on the photo).")
    message: str


class RefereeOut(BaseModel):
    """A whole table at the show: the groups, whose is which, the counts in show order, the rulings."""

    players: int
    five_card: bool
    rules: str = Field(description="Which rulings are used (ACC rules 8 and 10; muggins on or off).")
    cards: list[CardOut] = Field(description="Every card seen, by row.")
    image: ImageSize | None = Field(None, description="The photo's size; null for typed cards.")
    starter: int | None = Field(description="The starter's row; null when the player must tap one.")
    groups: list[GroupOut]
    unclear: list[str] = Field(description="Why the groups may be wrong (two touching, an odd size): "
                                           "check them, and move a card with one tap.")
    roles_reason: str = Field(description="How the suggested roles were read from the layout.")
    counted: bool
    problem: str | None = Field(None, description="Why the table was not counted, and what to do.")
    order: list[str] = Field(description="The roles in the order of the show.")
    his_heels: int = Field(0, description="The dealer's 2 for a jack starter, pegged once, never mugginsed.")
    rulings: list[RulingOut] = Field(description="Per hand and the crib, in show order, up to the game's "
                                                 "end.")
    pegs: list[tuple[str, int]] = Field(description="What each side pegs at the show, his heels included.")
    winner: str | None = None
    not_counted: list[str] = Field([], description="Hands not counted because the game ended first.")

    @classmethod
    def from_refereed(cls, ref: Refereed, size: tuple[int, int] | None = None) -> RefereeOut:
        layout, table, outcome = ref.layout, ref.table, ref.outcome
        group_of = {role: number for number, role in enumerate(ref.roles, 1)}
        return cls(
            players=layout.players, five_card=layout.five_card, rules=ref.rules.name,
            cards=[CardOut.from_detection(d) for d in ref.detections.with_(is_starter=_starter_mask(ref))],
            image=None if size is None else ImageSize(width=size[0], height=size[1]),
            starter=layout.starter, groups=_groups_out(ref), unclear=list(layout.reasons),
            roles_reason=ref.suggestion.reason, counted=table is not None, problem=ref.problem,
            order=list(show_order(layout.players)), his_heels=0 if table is None else table.his_heels,
            rulings=[] if outcome is None or table is None
            else [_ruling_out(r, group_of[r.role], table) for r in outcome.rulings],
            pegs=[list(p) for p in ref.scores], winner=None if outcome is None else outcome.winner,
            not_counted=[] if outcome is None else list(outcome.not_counted),
        )


def _starter_mask(ref: Refereed) -> np.ndarray:
    mask = np.zeros(len(ref.detections), bool)
    if ref.layout.starter is not None:
        mask[ref.layout.starter] = True
    return mask


def _groups_out(ref: Refereed) -> list[GroupOut]:
    out = []
    for number, (group, role) in enumerate(zip(ref.layout.groups, ref.roles, strict=True), 1):
        show = None if ref.table is None else ref.table.show(role)
        out.append(GroupOut(
            number=number, rows=list(group.rows), cards=[_text(ref.detections.cards[r]) for r in group.rows],
            xyxy=tuple(round(v, 1) for v in group.xyxy), confidence=round(group.confidence, 3), role=role,
            suggested=ref.suggestion.roles[number - 1], given=number in ref.given,
            total=None if show is None else show.total,
            items=[] if show is None else [ItemOut.from_item(i, show) for i in show.items],
            announcement=None if show is None else show.announcement))
    return out


def _text(card: Card | None) -> str | None:
    return None if card is None else str(card)


def _ruling_out(ruling: Ruling, group: int, table: TableCount) -> RulingOut:
    show = table.show(ruling.role)
    return RulingOut(role=ruling.role, group=group, kind=ruling.kind, claimed=ruling.claimed,
                     total=ruling.total, pegs=[list(p) for p in ruling.pegs],
                     missed=[ItemOut.from_item(i, show) for i in ruling.missed], message=ruling.message)


class NotCountedOut(ErrorOut):
    """422 for a table whose groups cannot be counted as they lie: the table as seen, to fix."""

    table: RefereeOut


Pixel = Annotated[float, Field(ge=0, le=MAX_BOX_PX)]
_NESTED = {"extra": "forbid", "allow_inf_nan": False}
"""A part of the table typed back: no field the page does not send, no NaN or infinite number."""


class TableCardIn(BaseModel):
    """A card of the table as the page holds it: what it is and where it lies."""

    model_config = _NESTED

    card: str | None = Field(description="e.g. 5H; null for a card not read yet.", max_length=3)
    xyxy: tuple[Pixel, Pixel, Pixel, Pixel] = Field(description="Left, top, right, bottom in pixels.")
    confidence: float = Field(1.0, ge=0, le=1)

    @model_validator(mode="after")
    def _a_box(self) -> TableCardIn:
        left, top, right, bottom = self.xyxy
        if not (left < right and top < bottom):
            raise ValueError("a card's xyxy is its box: left < right and top < bottom")
        return self


class MoveIn(BaseModel):
    """The player's one-tap fix: a card (by row) belongs to a group (by number), or is the starter."""

    model_config = _NESTED

    row: int = Field(ge=0, lt=MAX_TABLE_CARDS)
    group: int | None = Field(description="The group's number; null: the card is the starter.",
                              ge=1, le=5)


class CallIn(BaseModel):
    """'Muggins for X' on a hand or the crib."""

    model_config = _NESTED

    role: str = Field(max_length=20)
    points: int = Field(ge=1, le=MAX_CLAIM)
    caller: str | None = Field(None, max_length=20, description="Who calls; needed with three players.")


class TableIn(BaseModel):
    """The table typed back by the page: its cards with the player's fixes, roles, claims and calls."""

    # Numbers and switches as JSON types only: "10" is not a claim, 1 is not true.
    model_config = {"extra": "forbid", "strict": True}

    players: Literal[2, 3, 4]
    cards: list[TableCardIn] = Field(max_length=MAX_TABLE_CARDS)
    seat: str = Field(PONE, max_length=20)
    five_card: bool = False
    muggins: bool = True
    roles: dict[str, str] = Field({}, max_length=5,
                                  description="Group number -> role, e.g. {\"2\": \"crib\"}, in the order "
                                              "tapped: a later one for a group or role stands.")
    moves: list[MoveIn] = Field([], max_length=MAX_ENTRIES)
    claims: dict[str, int] = Field({}, max_length=5, description="Role -> claimed total, 0..29.")
    calls: list[CallIn] = Field([], max_length=5)
    scores: dict[str, int] = Field({}, max_length=4, description="Side -> score as the show begins.")
    game: Literal[121, 61] = 121

    def request(self) -> RefereeRequest:
        """The players' words checked against the rules, as the referee takes them."""
        n = self.players
        calls = tuple(parse_call(f"{c.role}={c.points}" + (f":{c.caller}" if c.caller else ""), n)
                      for c in self.calls)
        claims = tuple(Claim(parse_role(role, n), parse_claim(str(points)))
                       for role, points in self.claims.items())
        roles = tuple(parse_group_role(f"{g}={r}", n, len(group_sizes(n))) for g, r in self.roles.items())
        return RefereeRequest(
            players=n, seat=parse_role(self.seat, n), five_card=self.five_card, muggins=self.muggins,
            claims=claims, calls=calls, roles=roles,
            moves=tuple(Move(m.row, m.group) for m in self.moves), scores=scores_of(self.scores, n),
            game=self.game)

    def detections(self) -> Detections:
        return detections_of((None if c.card is None else Card.parse(c.card), c.xyxy, c.confidence)
                             for c in self.cards)
