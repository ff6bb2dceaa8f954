"""A player's count of a practice hand, as typed: a total, or the items named with their cards.

Items are separated by ``;`` or new lines; each starts with its kind and names its
cards, in any case, with ``10`` or ``T``, and any of with/using/of/and, commas or
``+`` between them::

    15 with 5H JC; 15 with 5D JC; pair 5H 5D; run 3H 4S 5D; flush; nobs

``fifteen``/``15``, ``pair``, ``run`` (``run of 3`` too), ``flush`` (its cards may be
left out: a hand has one flush at most) and ``nobs``/``his nobs`` (the jack may be
left out). A total is a whole number 0 to 29; "nineteen" (and 19, which no hand
scores) is the players' joke for nothing, so it means 0.

>>> from scorer.cards import parse_cards
>>> dealt = parse_cards("5H 5D 4S 6C 10D")
>>> parse_answer("16", dealt).total
16
>>> [str(item) for item in parse_answer("15 with 5h td ; Pair 5H,5D;run of 3 4s 5h 6c", dealt).items]
['fifteen 5H 10D', 'pair 5D 5H', 'run 4S 5H 6C']
>>> parse_answer("pair 5H 9C", dealt)
Traceback (most recent call last):
...
scorer.practice_answer.InvalidAnswerError: 9C is not one of the cards dealt (5H 5D 4S 6C 10D), in 'pair 5H 9C'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scorer.cards import Card, InvalidCardError
from scorer.muggins import MAX_CLAIM
from scorer.show import ItemKind

__all__ = ["Answer", "ClaimedItem", "InvalidAnswerError", "parse_answer"]


class InvalidAnswerError(ValueError):
    """An answer that is neither a total 0..29 nor items with the cards dealt."""


@dataclass(frozen=True, slots=True)
class ClaimedItem:
    """One item as the player named it, e.g. ``fifteen 5H JC``."""

    kind: ItemKind
    cards: tuple[Card, ...]
    """The cards named, sorted; may be empty for a flush or nobs."""

    @property
    def points(self) -> int:
        """What the item would be worth if it were there: 2, 2, 1 a card, 1 a card (4 unnamed), 1."""
        if self.kind in ("fifteen", "pair"):
            return 2
        if self.kind == "flush":
            return len(self.cards) or 4
        return len(self.cards) if self.kind == "run" else 1

    def __str__(self) -> str:
        return " ".join([self.kind, *map(str, self.cards)])


@dataclass(frozen=True, slots=True)
class Answer:
    """A total, or the items named (exactly one of the two)."""

    total: int | None
    items: tuple[ClaimedItem, ...] = ()


_KINDS: dict[str, ItemKind] = {"15": "fifteen", "fifteen": "fifteen", "pair": "pair", "run": "run",
                               "flush": "flush", "nobs": "nobs", "nob": "nobs"}
_FILLER = {
    "with", "using", "of", "and", "his", "one", "for", "the", "a", "is", "makes", "three", "four", "five",
}
_NOTHING = {"nineteen", "19", "none", "nothing", "zero"}
_HOW = "type a total (0-29) or items like '15 with 5H JC; pair 5H 5D; run 3H 4S 5D; nobs'"


def parse_answer(text: str, dealt: Sequence[Card]) -> Answer:
    """Read a typed count of the five ``dealt`` cards (hand and starter).

    Raises :class:`InvalidAnswerError` saying what is wrong: an empty answer, a total
    out of range, an unknown kind, a token that is not a card, a card not dealt,
    or too few or too many cards for the item.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidAnswerError(f"nothing typed: {_HOW}")
    whole = text.strip().lower()
    if whole in _NOTHING:
        return Answer(0)
    if re.fullmatch(r"[+-]?\d+", whole):
        total = int(whole)
        if not 0 <= total <= MAX_CLAIM:
            raise InvalidAnswerError(f"a total is a whole number from 0 to {MAX_CLAIM}, got {text.strip()!r}")
        return Answer(total)
    parts = [p.strip() for p in re.split(r"[;\n]+", text) if p.strip()]
    return Answer(None, tuple(_item(part, dealt) for part in parts))


def _item(part: str, dealt: Sequence[Card]) -> ClaimedItem:
    words = re.sub(r"[,+:=()]", " ", part).split()
    kind = next((_KINDS[w.lower()] for w in words if w.lower() in _KINDS), None)
    if kind is None:
        raise InvalidAnswerError(f"{part!r} is not an item: start it with 15, pair, run, flush or nobs "
                                 f"({_HOW})")
    first = next(i for i, w in enumerate(words) if w.lower() in _KINDS)
    cards: list[Card] = []
    for i, word in enumerate(words):
        low = word.lower()
        if i == first or low in _FILLER:
            continue
        if kind == "run" and low.isdigit() and i == first + 2 and words[first + 1].lower() == "of":
            continue  # "run of 3"
        try:
            card = Card.parse(word)
        except InvalidCardError:
            raise InvalidAnswerError(f"{word!r} in {part!r} is not a card (like 5H, 10D or TD)") from None
        if card not in dealt:
            raise InvalidAnswerError(f"{card} is not one of the cards dealt "
                                     f"({' '.join(map(str, dealt))}), in {part!r}")
        if card in cards:
            raise InvalidAnswerError(f"{card} is named twice in {part!r}")
        cards.append(card)
    _check_size(kind, cards, part)
    return ClaimedItem(kind, tuple(sorted(cards)))


def _check_size(kind: ItemKind, cards: list[Card], part: str) -> None:
    n = len(cards)
    if kind == "fifteen" and n < 2:
        raise InvalidAnswerError(f"name the cards that make the fifteen, like '15 with 5H JC': {part!r}")
    if kind == "pair" and n != 2:
        raise InvalidAnswerError(f"a pair is two cards (three of a kind is three pairs: name each), "
                                 f"got {n} in {part!r}")
    if kind == "run" and n < 3:
        raise InvalidAnswerError(f"a run is 3 cards or more, like 'run 3H 4S 5D', got {n} in {part!r}")
    if kind == "flush" and n not in (0, 4, 5):
        raise InvalidAnswerError(f"a flush is the 4 hand cards (or 5 with the starter), got {n} in {part!r}")
    if kind == "nobs" and n > 1:
        raise InvalidAnswerError(f"nobs is one jack, got {n} cards in {part!r}")
