"""Cards, ranks and suits: parse and print the notation players type.

Ranks are plain ints 1..13 (``ACE`` .. ``KING``) so that runs are arithmetic;
suits are an enum. ``Card.parse("10D")`` and ``str(card)`` round-trip, and
``repr`` reads back as the call that rebuilds the card.

>>> Card.parse("10d")
Card.parse('10D')
>>> str(Card.parse("TD")), Card.parse("J♣").value, Card.parse("A♠️").rank
('10D', 10, 1)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass

ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(1, 14)
RANKS: tuple[int, ...] = tuple(range(ACE, KING + 1))

RANK_SYMBOLS: dict[int, str] = {
    ACE: "A", TEN: "10", JACK: "J", QUEEN: "Q", KING: "K",
    **{r: str(r) for r in range(TWO, TEN)},
}
RANK_NAMES: dict[int, str] = {
    ACE: "ace", TWO: "two", THREE: "three", FOUR: "four", FIVE: "five", SIX: "six",
    SEVEN: "seven", EIGHT: "eight", NINE: "nine", TEN: "ten", JACK: "jack",
    QUEEN: "queen", KING: "king",
}
# What users type for a rank, upper-cased; "T" is the common one-letter ten.
_RANK_TOKENS: dict[str, int] = {
    **{sym: r for r, sym in RANK_SYMBOLS.items()}, "T": TEN, "1": ACE,
}
# "1" is accepted only as part of "10"; a bare 1 is not a rank anyone writes.
del _RANK_TOKENS["1"]


class InvalidCardError(ValueError):
    """Raised for a token that is not card notation, or a card given twice."""


class Suit(enum.Enum):
    """The four French suits; the value is the letter used in notation."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The suit as a glyph: ♣ ♦ ♥ ♠."""
        return _SUIT_GLYPHS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_TOKENS: dict[str, Suit] = {
    **{s.value: s for s in Suit},
    **{g: s for s, g in _SUIT_GLYPHS.items()},
    # Outline glyphs, as some keyboards offer them.
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"


@functools.total_ordering
@dataclass(frozen=True)
class Card:
    """One playing card. Orders by rank, then suit (the order runs and sorting use)."""

    # Declared by hand rather than with slots=True so that the index can be kept in a
    # slot that is not a dataclass field: fields, equality, hash and repr stay (rank, suit),
    # while scoring millions of hands reads the index without recomputing it.
    __slots__ = ("rank", "suit", "_index")

    rank: int
    """1 (ace) .. 13 (king)."""
    suit: Suit
    """One of the four suits."""

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or isinstance(self.rank, bool) or not ACE <= self.rank <= KING:
            raise InvalidCardError(f"rank must be 1..13, got {self.rank!r}")
        if not isinstance(self.suit, Suit):
            raise InvalidCardError(f"suit must be a Suit, got {self.suit!r}")
        object.__setattr__(self, "_index", (self.rank - 1) * 4 + SUITS.index(self.suit))

    def __reduce__(self):
        # Rebuild through __init__ (pickle, copy): the frozen slots cannot be set afterwards.
        return (Card, (self.rank, self.suit))

    def __lt__(self, other: object) -> bool:
        # Rank first (the order runs and sorted hands use), then suit C D H S.
        if not isinstance(other, Card):
            return NotImplemented
        return self.index < other.index

    @property
    def value(self) -> int:
        """Value when counting to 15 or 31: ace 1, pips face value, J Q K 10."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """0..51, rank-major (AC=0, AD=1, ... KS=51): a stable class id."""
        return self._index

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Inverse of :attr:`index`.

        >>> Card.from_index(51)
        Card.parse('KS')
        """
        if not 0 <= index < 52:
            raise InvalidCardError(f"card index must be 0..51, got {index!r}")
        return cls(index // 4 + 1, SUITS[index % 4])

    @classmethod
    def parse(cls, token: str) -> Card:
        """Parse ``5H``, ``10d``, ``TD``, ``qs``, ``J♣``, ``A♠️``.

        >>> Card.parse("1X")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
        ...
        scorer.cards.InvalidCardError: '1X' is not a card: expected a rank (A 2-10 T J Q K)
        then a suit (C D H S or ♣ ♦ ♥ ♠), like 5H or 10D
        """
        if not isinstance(token, str):
            raise InvalidCardError(f"{token!r} is not a card: expected text like 5H or 10D")
        text = token.strip()
        for vs in _VARIATION_SELECTORS:
            text = text.replace(vs, "")
        text = text.upper()
        if len(text) >= 2:
            rank = _RANK_TOKENS.get(text[:-1])
            suit = _SUIT_TOKENS.get(text[-1])
            if rank is not None and suit is not None:
                return cls(rank, suit)
        shown = repr(token) if len(token) <= 12 else f"{token[:12]!r}... ({len(token)} characters)"
        raise InvalidCardError(
            f"{shown} is not a card: expected a rank (A 2-10 T J Q K) then a suit "
            "(C D H S or ♣ ♦ ♥ ♠), like 5H or 10D"
        )

    @property
    def name(self) -> str:
        """Plain English, e.g. ``jack of clubs``."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.name.lower()}"

    def symbol(self) -> str:
        """Notation with the suit glyph, e.g. ``10♦``."""
        return RANK_SYMBOLS[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        return RANK_SYMBOLS[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))


def parse_card(token: str) -> Card:
    """Parse one card token; see :meth:`Card.parse`."""
    return Card.parse(token)


def parse_cards(tokens: Iterable[str] | str) -> tuple[Card, ...]:
    """Parse several cards (a list of tokens, or one string split on spaces/commas).

    A card given twice is an error, since a deck holds each card once.

    >>> parse_cards("5H 5D, JC")
    (Card.parse('5H'), Card.parse('5D'), Card.parse('JC'))
    >>> parse_cards(["5H", "5h"])
    Traceback (most recent call last):
    ...
    scorer.cards.InvalidCardError: 5H is given twice: a deck holds each card once
    """
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    cards = tuple(Card.parse(t) for t in tokens)
    check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise :class:`InvalidCardError` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidCardError(f"{card} is given twice: a deck holds each card once")
        seen.add(card)
