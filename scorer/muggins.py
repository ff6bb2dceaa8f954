"""Muggins: a claimed total against the true count, and what was missed.

Under muggins, points a player misses in their own count go to the opponent. A
number alone does not say *which* items were missed, so :func:`check_claim` names
the likeliest explanation: the fewest items whose points make up the shortfall
(a player overlooks one run sooner than three fifteens). When that is unique and
takes every item of its kinds (both runs, his nobs), ``missed`` lists exactly those
items and ``exact`` is true. Otherwise ``missed`` lists every item that could be
the missing one, in announcement order, and ``exact`` is false: the opponent
takes the points either way. An over-claim has no missed items, only phantom points.

>>> from scorer.show import score_show
>>> show = score_show("5H 5D 4S 6C", "10D")
>>> print(check_claim(show, 10).message)  # doctest: +NORMALIZE_WHITESPACE
Under-claimed by 6 (claimed 10, the count is 16): missed both runs of three
(4S 5D 6C, 4S 5H 6C); the opponent may take 6.
>>> print(check_claim(show, 14).message)  # doctest: +NORMALIZE_WHITESPACE
Under-claimed by 2 (claimed 14, the count is 16): missed one of the 4 fifteens or the pair;
the opponent may take 2.
>>> check_claim(show, 16).verdict, check_claim(show, 19).verdict
('correct', 'over-claimed')
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

from scorer.cards import Card
from scorer.show import ScoreItem, Show, score_show
from scorer.typed import quoted, whole_number

__all__ = ["MAX_CLAIM", "ClaimVerdict", "InvalidClaimError", "Verdict", "check_claim", "parse_claim"]

MAX_CLAIM = 29
"""The most any hand or crib can score (5-5-5-J with the fifth 5 of the jack's suit)."""

Verdict = Literal["correct", "over-claimed", "under-claimed"]


class InvalidClaimError(ValueError):
    """Raised for a claim that is not a whole number from 0 to 29."""


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """A claimed total checked against a :class:`~scorer.show.Show`."""

    claimed: int
    """What the player said the hand was worth."""
    total: int
    """The true count."""
    verdict: Verdict
    """correct, over-claimed or under-claimed."""
    difference: int
    """How far off the claim is, 0 when correct (always >= 0; the verdict says which way)."""
    missed: tuple[ScoreItem, ...]
    """Under-claimed: the missed items (``exact``) or every item that could be one. Else empty."""
    exact: bool
    """True when ``missed`` is exactly what was missed; False when it lists candidates."""
    message: str
    """One line for a player, e.g. ``Under-claimed by 1 ...: missed his nobs (JC); ...``."""


def parse_claim(text: str | int) -> int:
    """A claim typed by a player, as an int 0..29.

    >>> parse_claim(" 12 ")
    12
    >>> parse_claim("abc")
    Traceback (most recent call last):
    ...
    scorer.muggins.InvalidClaimError: a claim is a whole number from 0 to 29, got 'abc'
    """
    number = whole_number(text)
    return _checked(text if number is None else number, text)


def _checked(claimed: object, shown: object) -> int:
    if isinstance(claimed, bool) or not isinstance(claimed, int) or not 0 <= claimed <= MAX_CLAIM:
        raise InvalidClaimError(f"a claim is a whole number from 0 to {MAX_CLAIM}, got {quoted(shown)}")
    return claimed


def check_claim(show: Show, claimed: int) -> ClaimVerdict:
    """Say whether ``claimed`` is the count of ``show``, and what was missed if it is short.

    Raises :class:`InvalidClaimError` unless ``claimed`` is an int from 0 to 29.

    >>> from scorer.show import score_show
    >>> verdict = check_claim(score_show("5H 5D 5S JC", "5C"), 28)
    >>> verdict.verdict, verdict.difference, [str(item) for item in verdict.missed]
    ('under-claimed', 1, ['nobs JC: 1'])
    >>> print(check_claim(score_show("2H 4H 6H 8H", "KS"), 7).message)
    Over-claimed by 3 (claimed 7, the count is 4): nothing in the hand makes those 3 points.
    """
    claimed = _checked(claimed, claimed)
    total = show.total
    where = "crib" if show.crib else "hand"
    if claimed == total:
        return ClaimVerdict(claimed, total, "correct", 0, (), True, f"Correct: the {where} counts {total}.")
    difference = abs(claimed - total)
    head = f"by {difference} (claimed {claimed}, the count is {total})"
    if claimed > total:
        return ClaimVerdict(
            claimed, total, "over-claimed", difference, (), True,
            f"Over-claimed {head}: nothing in the {where} makes those {difference} points.",
        )
    missed, exact, said = _explain_shortfall(show.items, difference)
    return ClaimVerdict(
        claimed, total, "under-claimed", difference, missed, exact,
        f"Under-claimed {head}: {said}; the opponent may take {difference}.",
    )


def _explain_shortfall(
    items: tuple[ScoreItem, ...], shortfall: int
) -> tuple[tuple[ScoreItem, ...], bool, str]:
    """The fewest items worth ``shortfall`` points: (missed or candidate items, exact, words)."""
    # Items of one kind and size are interchangeable for this: group them.
    groups: dict[tuple[str, int], list[ScoreItem]] = {}
    for item in items:
        groups.setdefault((item.kind, item.points), []).append(item)
    keys = list(groups)
    best: list[tuple[int, ...]] = []
    fewest = None
    for counts in itertools.product(*(range(len(groups[k]) + 1) for k in keys)):
        if sum(n * points for n, (_, points) in zip(counts, keys, strict=True)) != shortfall:
            continue
        used = sum(counts)
        if fewest is None or used < fewest:
            fewest, best = used, [counts]
        elif used == fewest:
            best.append(counts)
    if not best:
        # No set of items adds up to the shortfall: a slip in the adding, not a missed item.
        return items, False, (
            f"no set of items makes exactly {shortfall}, so the slip is in the adding (all items listed)"
        )
    best.sort(reverse=True)  # options in announcement order: earlier kinds first
    chosen = {k for counts in best for k, n in zip(keys, counts, strict=True) if n}
    exact = len(best) == 1 and all(n in (0, len(groups[k])) for k, n in zip(keys, best[0], strict=True))
    missed = tuple(item for item in items if (item.kind, item.points) in chosen)
    if len(best) > 2:
        kinds = _join(sorted({_plural(k) for k in chosen}, key=lambda name: _ORDER[name]))
        said = f"missed {shortfall} points among the {kinds} (several ways make {shortfall})"
    else:
        options = [_join([_describe(groups[k], n) for k, n in zip(keys, counts, strict=True) if n])
                   for counts in best]
        said = "missed " + " or ".join(options)
    if exact and len(missed) <= 4:
        said += f" ({', '.join(' '.join(map(str, item.cards)) for item in missed)})"
    return missed, exact, said


def _join(parts: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


_ORDER = {"fifteens": 0, "pairs": 1, "runs": 2, "flush": 3, "nobs": 4}


def _plural(key: tuple[str, int]) -> str:
    kind = key[0]
    return kind if kind in ("flush", "nobs") else kind + "s"


_COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"]


def _describe(group: list[ScoreItem], taken: int) -> str:
    """'his nobs', 'the pair', 'both runs of three', 'two of the 4 fifteens'."""
    kind, points = group[0].kind, group[0].points
    if kind == "nobs":
        return "his nobs"
    if kind == "flush":
        return f"the flush for {_COUNT_WORDS[points]}"
    if kind == "run":
        one, many = f"run of {_COUNT_WORDS[points]}", f"runs of {_COUNT_WORDS[points]}"
    else:
        one, many = kind, f"{kind}s"
    count = len(group)
    if taken == count:
        return f"the {one}" if count == 1 else ("both " if count == 2 else f"all {count} ") + many
    return f"{_COUNT_WORDS[taken]} of the {count} {many}"


def score_and_check(hand: tuple[Card, ...], starter: Card, *, crib: bool = False,
                    claim: int | None = None) -> tuple[Show, ClaimVerdict | None]:
    """Count a show and check an optional claimed total; raises the scorer's ``ValueError`` subclasses."""
    show = score_show(hand, starter, crib=crib)
    return show, (check_claim(show, claim) if claim is not None else None)
