"""Practice: deal a hand to count, and judge the player's count item by item.

Beginners learn to count by counting. :func:`deal` picks a hand (or crib) and
starter, each deal chosen as a *lesson*: any hand at all, or one that shows a
point players often miss or miscount (:data:`LESSONS`); lessons the player got
wrong lately (``focus``) come up more often. :func:`judge` checks an answer,
read by :func:`scorer.practice_answer.parse_answer` (a total, or items named
with their cards), against :func:`~scorer.show.score_show`: what was right,
what was missed, what was claimed wrongly and why. Pure functions: the
randomness is a :class:`random.Random` passed in.

>>> import random
>>> hand = deal(random.Random(3), level="mixed", focus=("nobs",))
>>> len(hand.hand), hand.starter in hand.hand
(4, False)
>>> from scorer.practice_answer import parse_answer
>>> dealt = Deal.parse("5H 5D 4S 6C", "10D")
>>> result = judge(dealt, parse_answer("15 with 5H 10D; 15 with 5D 10D; pair 5H 5D", dealt.cards))
>>> result.correct, result.claimed, result.show.total, len(result.missed)
(False, 6, 16, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from scorer.cards import FULL_DECK, JACK, SUITS, Card, parse_cards
from scorer.muggins import check_claim
from scorer.practice_answer import Answer, ClaimedItem
from scorer.show import ScoreItem, Show, score_show

__all__ = ["LESSONS", "LEVELS", "Deal", "Judgement", "WrongClaim", "deal", "judge", "lessons_in"]

Lesson = Literal["nobs", "double run", "crib flush", "flush", "fifteens", "pair royal"]
LESSONS: tuple[Lesson, ...] = ("nobs", "double run", "crib flush", "flush", "fifteens", "pair royal")
"""Kinds of hand beginners often miscount: his nobs, a double run (two runs, not one), a crib whose
4-card flush scores nothing, a flush, many fifteens (four or more), three of a kind (three pairs)."""
Level = Literal["easy", "mixed"]
LEVELS: tuple[Level, ...] = ("easy", "mixed")
"""easy: small hands (2 to 8 points, at most one run, no flush or nobs); mixed: any hand."""

ANY: Literal["any"] = "any"
# Out of 10 deals at level mixed, about 6 are any hand and 4 are lessons; a lesson the player got
# wrong lately weighs 4 more, so after a missed nobs about half the deals teach nobs.
_ANY_WEIGHT, _LESSON_WEIGHT, _FOCUS_WEIGHT = 6, 1, 4
_CRIB_SHARE = 1 / 3  # with cribs on, one deal in three is a crib (each round has two hands, one crib)
_TRIES = 500  # rejection sampling: easy hands are ~40% of deals, the rarest lesson check ~10%


class InvalidLevelError(ValueError):
    """A practice level other than easy or mixed, or a lesson not in :data:`LESSONS`."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand (or crib) and starter to count."""

    hand: tuple[Card, ...]
    """The four hand or crib cards, sorted."""
    starter: Card
    """The starter, counted with them."""
    crib: bool
    """Count as the crib: a 4-card flush scores nothing."""
    lesson: Lesson | Literal["any"]
    """Why this deal was chosen: any hand, or one of :data:`LESSONS`."""

    @classmethod
    def parse(cls, hand: str | Iterable[str], starter: str, *, crib: bool = False) -> Deal:
        """A deal from notation, e.g. a count sent back by the page: ``Deal.parse("5H 5D 4S 6C", "10D")``.

        Raises :class:`~scorer.show.InvalidHandError` for a wrong number of cards or a card twice.
        """
        cards, top = parse_cards(hand), Card.parse(starter)
        score_show(cards, top, crib=crib)  # raises for a bad hand
        return cls(tuple(sorted(cards)), top, crib, ANY)

    @property
    def cards(self) -> tuple[Card, ...]:
        """All five cards: the hand, then the starter."""
        return (*self.hand, self.starter)

    def show(self) -> Show:
        return score_show(self.hand, self.starter, crib=self.crib)


def lessons_in(show: Show) -> tuple[Lesson, ...]:
    """The lessons a counted hand holds, in :data:`LESSONS` order.

    >>> lessons_in(score_show("8H 7C 7D 6S", "AS"))
    ('double run', 'fifteens')
    >>> lessons_in(score_show("2H 4H 6H 8H", "KS", crib=True))
    ('crib flush',)
    """
    kinds = [item.kind for item in show.items]
    ranks = [c.rank for c in (*show.hand, show.starter)]
    suited = len({c.suit for c in show.hand}) == 1
    found = {
        "nobs": "nobs" in kinds,
        "double run": kinds.count("run") >= 2,
        "crib flush": show.crib and suited and show.starter.suit != show.hand[0].suit,
        "flush": "flush" in kinds,
        "fifteens": kinds.count("fifteen") >= 4,
        "pair royal": max(ranks.count(r) for r in ranks) >= 3,
    }
    return tuple(lesson for lesson in LESSONS if found[lesson])


def deal(rng: random.Random, level: Level = "mixed", *, crib: bool = False,
         focus: Iterable[str] = ()) -> Deal:
    """A hand and starter to count, chosen by lesson; ``crib=True`` lets some deals be cribs.

    ``focus`` names lessons the player got wrong lately: they come up more often.
    Raises :class:`InvalidLevelError` for an unknown level or lesson.
    """
    if level not in LEVELS:
        raise InvalidLevelError(f"level must be easy or mixed, got {level!r}")
    focus = set(focus)
    unknown = sorted(focus - set(LESSONS))
    if unknown:
        raise InvalidLevelError(f"unknown lesson {unknown[0]!r}: lessons are {', '.join(LESSONS)}")
    as_crib = crib and rng.random() < _CRIB_SHARE
    lessons: list[str] = [ANY] + [ls for ls in LESSONS if as_crib or ls != "crib flush"]
    if not as_crib and crib and "crib flush" in focus:
        lessons.append("crib flush")  # a missed crib flush is practised as a crib
    base = _ANY_WEIGHT if level == "mixed" else 3 * _ANY_WEIGHT  # easy: lessons only after a miss
    weights = [base if ls == ANY else (_FOCUS_WEIGHT if ls in focus else 0) +
               (_LESSON_WEIGHT if level == "mixed" else 0) for ls in lessons]
    lesson = rng.choices(lessons, weights)[0]
    if lesson == "crib flush":
        as_crib = True
    for _ in range(_TRIES):
        cards = _DEALERS[lesson](rng)
        hand, starter = tuple(sorted(cards[:4])), cards[4]
        show = score_show(hand, starter, crib=as_crib)
        if lesson == ANY and (level == "mixed" or _easy(show)) or lesson in lessons_in(show):
            return Deal(hand, starter, as_crib, lesson)  # type: ignore[arg-type]
    raise AssertionError(f"no {lesson} deal in {_TRIES} tries")  # pragma: no cover - ~0 chance


def _easy(show: Show) -> bool:
    kinds = [item.kind for item in show.items]
    return 2 <= show.total <= 8 and kinds.count("run") <= 1 and "flush" not in kinds and "nobs" not in kinds


# -- one dealer per lesson: five cards, the starter last, likely (then checked) to hold the lesson --

def _any(rng: random.Random) -> list[Card]:
    return rng.sample(FULL_DECK, 5)


def _nobs(rng: random.Random) -> list[Card]:
    starter = rng.choice([c for c in FULL_DECK if c.rank != JACK])
    jack = Card(JACK, starter.suit)
    rest = rng.sample([c for c in FULL_DECK if c not in (starter, jack)], 3)
    return [jack, *rest, starter]


def _double_run(rng: random.Random) -> list[Card]:
    low = rng.randint(1, 11)
    ranks = [low, low + 1, low + 2]
    ranks.append(rng.choice(ranks))
    suits = {r: rng.sample(SUITS, 2) for r in ranks}
    cards = [Card(r, suits[r][ranks[:i].count(r)]) for i, r in enumerate(ranks)]
    cards.append(rng.choice([c for c in FULL_DECK if c not in cards]))
    rng.shuffle(cards)  # the starter may be any of the five
    return cards


def _flush(rng: random.Random) -> list[Card]:
    suit = rng.choice(SUITS)
    hand = rng.sample([c for c in FULL_DECK if c.suit == suit], 4)
    return [*hand, rng.choice([c for c in FULL_DECK if c not in hand])]


def _crib_flush(rng: random.Random) -> list[Card]:
    suit = rng.choice(SUITS)
    hand = rng.sample([c for c in FULL_DECK if c.suit == suit], 4)
    return [*hand, rng.choice([c for c in FULL_DECK if c.suit != suit])]


def _fifteens(rng: random.Random) -> list[Card]:
    # Fives and ten-cards make most fifteens: two of them, then any three.
    five = [c for c in FULL_DECK if c.rank == 5]
    tens = [c for c in FULL_DECK if c.value == 10]
    first = [rng.choice(five), rng.choice(tens)]
    cards = first + rng.sample([c for c in FULL_DECK if c not in first], 3)
    rng.shuffle(cards)
    return cards


def _pair_royal(rng: random.Random) -> list[Card]:
    rank = rng.randint(1, 13)
    three = [Card(rank, s) for s in rng.sample(SUITS, 3)]
    cards = three + rng.sample([c for c in FULL_DECK if c not in three], 2)
    rng.shuffle(cards)
    return cards


_DEALERS = {ANY: _any, "nobs": _nobs, "double run": _double_run, "crib flush": _crib_flush,
            "flush": _flush, "fifteens": _fifteens, "pair royal": _pair_royal}


# -- judging ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class WrongClaim:
    """An item the player named that the hand does not score, and why."""

    item: ClaimedItem
    reason: str
    """e.g. ``5H 9C make 14, not 15``."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """A player's count of a deal, checked."""

    show: Show
    """The true count, item by item."""
    answer: Answer
    claimed: int
    """The total said, or the points of the items named (a wrong item at what it would be worth)."""
    right: tuple[ScoreItem, ...]
    """Items named that are there (none for a total)."""
    missed: tuple[ScoreItem, ...]
    """Items not named; for a short total, the likeliest missed items (see ``exact``)."""
    wrong: tuple[WrongClaim, ...]
    """Items named that are not there."""
    exact: bool
    """False when a total was short and ``missed`` lists every item that could be the missing one."""
    correct: bool
    """The count is right: the total, or every item named and nothing more."""
    message: str
    """One line for the player."""
    lessons: tuple[Lesson, ...]
    """Wrong answers only: the lessons this hand holds, to deal more often (``focus``)."""


def judge(dealt: Deal, answer: Answer) -> Judgement:
    """Check ``answer`` against the count of ``dealt``: right, missed and wrongly claimed items."""
    show = dealt.show()
    where = "crib" if show.crib else "hand"
    if answer.total is not None:
        verdict = check_claim(show, answer.total)
        correct = verdict.verdict == "correct"
        # An over-claim names no item: every lesson of the hand may be the one misread.
        lessons = () if correct else _lessons_for(show, [i.kind for i in verdict.missed] or None)
        return Judgement(show, answer, answer.total, (), verdict.missed, (), verdict.exact, correct,
                         verdict.message, lessons)
    right: list[ScoreItem] = []
    wrong: list[WrongClaim] = []
    for claim in answer.items:
        match = next((item for item in show.items if item not in right and _matches(claim, item)), None)
        if match is not None:
            right.append(match)
        else:
            again = any(_matches(claim, item) for item in right)
            wrong.append(WrongClaim(claim, "named twice: it counts once" if again else _why_not(claim, show)))
    missed = tuple(item for item in show.items if item not in right)
    claimed = sum(item.points for item in right) + sum(w.item.points for w in wrong)
    correct = not missed and not wrong
    if correct:
        message = f"Correct: the {where} counts {show.total}, every item named."
    else:
        parts = [f"You counted {claimed}, the {where} counts {show.total}"]
        if missed:
            parts.append("missed " + ", ".join(_spell(item) for item in missed))
        if wrong:
            parts.append("not there: " + ", ".join(f"{w.item} ({w.reason})" for w in wrong))
        message = "; ".join(parts) + "."
    kinds = [item.kind for item in missed] + [w.item.kind for w in wrong]
    return Judgement(show, answer, claimed, tuple(right), missed, tuple(wrong), True, correct, message,
                     _lessons_for(show, kinds))


# Which lessons a mistake over an item of each kind calls for.
_LESSONS_BY_KIND: dict[str, tuple[Lesson, ...]] = {
    "fifteen": ("fifteens",), "pair": ("pair royal",), "run": ("double run",),
    "flush": ("flush", "crib flush"), "nobs": ("nobs",),
}


def _lessons_for(show: Show, kinds: list[str] | None) -> tuple[Lesson, ...]:
    """The hand's lessons that the kinds got wrong call for (all of them when ``kinds`` is None)."""
    if kinds is None:
        return lessons_in(show)
    wanted = {lesson for kind in kinds for lesson in _LESSONS_BY_KIND[kind]}
    return tuple(lesson for lesson in lessons_in(show) if lesson in wanted)


def _spell(item: ScoreItem) -> str:
    return f"{item.kind} {' '.join(map(str, item.cards))} ({item.points})"


def _matches(claim: ClaimedItem, item: ScoreItem) -> bool:
    if claim.kind != item.kind:
        return False
    # Flush and nobs may be named without their cards: there is only one of each.
    return (not claim.cards and claim.kind in ("flush", "nobs")) or set(claim.cards) == set(item.cards)


def _why_not(claim: ClaimedItem, show: Show) -> str:
    """Why a named item does not score in ``show``: the rule it breaks."""
    cards = claim.cards
    shown = " ".join(map(str, cards))
    if claim.kind == "fifteen":
        total = sum(c.value for c in cards)
        return f"{shown} make {total}, not 15" if total != 15 else "not in this hand"
    if claim.kind == "pair":
        return f"{shown} are not the same rank" if cards[0].rank != cards[1].rank else "not in this hand"
    if claim.kind == "run":
        ranks = sorted(c.rank for c in cards)
        if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
            return f"{shown} are not consecutive ranks (ace is low, J-Q-K high)"
        longer = next((i for i in show.items if i.kind == "run" and set(cards) < set(i.cards)), None)
        if longer is not None:
            return (f"part of the run of {len(longer.cards)} {' '.join(map(str, longer.cards))}: "
                    "a longer run counts once, at its full length")
        return "not in this hand"
    if claim.kind == "flush":
        flush = next((i for i in show.items if i.kind == "flush"), None)
        if flush is not None:
            return f"the flush is {' '.join(map(str, flush.cards))} ({flush.points})"
        suited = len({c.suit for c in show.hand}) == 1
        if show.crib and suited:
            return "a 4-card flush does not count in the crib: the starter must be the same suit too"
        if cards and len({c.suit for c in cards}) > 1:
            return f"{shown} are not all one suit"
        return "the four hand cards are not all one suit"
    # nobs
    jacks = [c for c in show.hand if c.rank == JACK]
    if show.starter.rank == JACK and not jacks:
        return "the starter jack is his heels (2 for the dealer), not nobs"
    if jacks:
        return (f"nobs is the jack of the starter's suit ({show.starter.suit.name.lower()}); "
                f"{' '.join(map(str, jacks))} is not")
    return "no jack in the hand"
