"""The show: a hand or the crib counted with the starter, item by item, one function per rule.

Every combination is its own :class:`ScoreItem` (the 29 hand lists eight fifteens,
six pairs and nobs), items come in the traditional announcement order (fifteens,
pairs, runs, flush, nobs) and :attr:`Show.announcement` is the spoken count.

>>> show = score_show("5H 5D 5S JC", "5C")
>>> show.total, len(show.items), show.his_heels
(29, 15, 0)
>>> show.items[0]
ScoreItem(kind='fifteen', cards=(Card.parse('5C'), Card.parse('JC')), points=2)
>>> print(score_show("8H 7C 7D 6S", "AS").announcement)
Fifteen two, fifteen four, fifteen six, fifteen eight, and a double run of three is sixteen

Card order never matters: items list their cards sorted by rank, then suit
(clubs, diamonds, hearts, spades), and :attr:`Show.hand` is sorted the same way.
:mod:`scorer.bulk` scores many deals at once with numpy.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Literal

from scorer.cards import JACK, Card, parse_cards

__all__ = [
    "ItemKind",
    "KINDS",
    "NUMBER_WORDS",
    "RANK_KINDS",
    "InvalidHandError",
    "ScoreItem",
    "Show",
    "find_fifteens",
    "find_flush",
    "find_nobs",
    "find_pairs",
    "find_runs",
    "flush_points",
    "hand_size",
    "his_heels_points",
    "score_show",
]

ItemKind = Literal["fifteen", "pair", "run", "flush", "nobs"]
KINDS: tuple[ItemKind, ...] = ("fifteen", "pair", "run", "flush", "nobs")
"""Item kinds in the traditional announcement order."""
RANK_KINDS: frozenset[str] = frozenset({"fifteen", "pair", "run"})
"""Kinds that depend only on the ranks of the five cards (never on suits)."""


class InvalidHandError(ValueError):
    """Raised for a hand or crib that cannot be shown: wrong size, a card twice, the starter in it."""


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination at the show.

    >>> str(ScoreItem("pair", (Card.parse("5D"), Card.parse("5H")), 2))
    'pair 5D 5H: 2'
    """

    kind: ItemKind
    """fifteen, pair, run, flush or nobs."""
    cards: tuple[Card, ...]
    """Exactly the cards that make it, sorted (nobs: the jack alone)."""
    points: int
    """2 a fifteen or pair, 1 a card for a run or flush, 1 for nobs."""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.cards))}: {self.points}"


@dataclass(frozen=True, slots=True)
class Show:
    """A counted hand or crib: its items, total and the spoken count."""

    hand: tuple[Card, ...]
    """The hand or crib cards (without the starter), sorted."""
    starter: Card
    """The starter, counted with every hand and the crib."""
    crib: bool
    """True when counted as the crib (a 4-card flush does not score)."""
    items: tuple[ScoreItem, ...]
    """Every scoring combination, in announcement order."""
    total: int
    """Sum of the items' points, 0..29; never includes his heels."""
    his_heels: int
    """2 when the starter is a jack (the dealer's, scored apart from any hand), else 0."""
    announcement: str
    """The count as spoken: "Fifteen two, fifteen four, and a pair is six"."""

    @property
    def five_card(self) -> bool:
        """True for a five-card-cribbage hand (3 cards and the starter)."""
        return len(self.hand) == 3

    def points(self, kind: ItemKind) -> int:
        """Points from one kind of item.

        >>> score_show("5H 5D 5S JC", "5C").points("fifteen")
        16
        """
        return sum(item.points for item in self.items if item.kind == kind)


def hand_size(*, crib: bool = False, five_card: bool = False) -> int:
    """Cards shown besides the starter: 4, or 3 for a five-card-cribbage hand.

    The crib always holds 4 cards, in five-card cribbage too.

    >>> hand_size(), hand_size(five_card=True), hand_size(crib=True, five_card=True)
    (4, 3, 4)
    """
    return 3 if five_card and not crib else 4


# --------------------------------------------------------------------------- the rules, one each
# Each takes the cards sorted (rank, then suit), so items come out sorted and in a fixed order.


def find_fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every combination of 2 or more cards whose values sum to 15: 2 points each, fewest cards first.

    >>> [str(item) for item in find_fifteens(parse_cards("AC 6C 8H 9H"))]
    ['fifteen 6C 9H: 2', 'fifteen AC 6C 8H: 2']
    """
    values = tuple([card.value for card in cards])
    return [ScoreItem("fifteen", tuple([cards[i] for i in combo]), 2) for combo in _fifteen_positions(values)]


@functools.cache
def _fifteen_positions(values: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Positions of every combination of 2+ ``values`` that sums to 15, smallest combinations first.

    Cached: sorted cards give one of a few thousand value tuples, and this walk is most of a count.
    """
    return tuple(
        combo
        for size in range(2, len(values) + 1)
        for combo in itertools.combinations(range(len(values)), size)
        if sum(values[i] for i in combo) == 15
    )


def find_pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    """Every two cards of one rank: 2 points each (three of a kind is 3 pairs, four is 6).

    >>> [str(item) for item in find_pairs(parse_cards("9C 9D 9H KS"))]
    ['pair 9C 9D: 2', 'pair 9C 9H: 2', 'pair 9D 9H: 2']
    """
    return [ScoreItem("pair", (a, b), 2) for a, b in itertools.combinations(cards, 2) if a.rank == b.rank]


def find_runs(cards: Sequence[Card]) -> list[ScoreItem]:
    """The longest stretch of 3+ consecutive ranks, once per choice of one card of each rank: 1 a card.

    A run of four is one run of four, never two runs of three; a pair inside the
    stretch doubles it. The ace is low only: Q-K-A is no run.

    >>> [str(item) for item in find_runs(parse_cards("6S 7C 7D 8H AS"))]
    ['run 6S 7C 8H: 3', 'run 6S 7D 8H: 3']
    """
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card.rank, []).append(card)
    stretch: list[int] = []
    longest: list[int] = []
    for rank in sorted(by_rank):
        stretch = [*stretch, rank] if stretch and rank == stretch[-1] + 1 else [rank]
        if len(stretch) >= 3 and len(stretch) > len(longest):
            longest = stretch
    if not longest:
        return []
    return [ScoreItem("run", run, len(longest)) for run in itertools.product(*(by_rank[r] for r in longest))]


def flush_points(size: int, hand_suited: bool, starter_suited: bool, *, crib: bool = False) -> int:
    """Points for a flush: every shown card one suit, one more if the starter matches.

    ``size`` is the number of hand cards; ``starter_suited`` means the starter has
    their suit too. A crib scores a flush only when the starter matches.

    >>> flush_points(4, True, False), flush_points(4, True, True)
    (4, 5)
    >>> flush_points(4, True, False, crib=True), flush_points(4, True, True, crib=True)
    (0, 5)
    """
    if not hand_suited:
        return 0
    if starter_suited:
        return size + 1
    # A 4-card flush never scores in the crib.
    return 0 if crib else size


def find_flush(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> list[ScoreItem]:
    """The flush, if any: every hand card one suit (the starter too, for the crib), 1 a card.

    >>> [str(item) for item in find_flush(parse_cards("2H 4H 6H 8H"), Card.parse("KS"))]
    ['flush 2H 4H 6H 8H: 4']
    >>> [str(item) for item in find_flush(parse_cards("2H 4H 6H 8H"), Card.parse("KH"))]
    ['flush 2H 4H 6H 8H KH: 5']
    >>> find_flush(parse_cards("2H 4H 6H 8H"), Card.parse("KS"), crib=True)
    []
    """
    suit = hand[0].suit
    hand_suited = all(card.suit is suit for card in hand)
    points = flush_points(len(hand), hand_suited, starter.suit is suit, crib=crib)
    if not points:
        return []
    cards = tuple(sorted((*hand, starter), key=_INDEX)) if points > len(hand) else tuple(hand)
    return [ScoreItem("flush", cards, points)]


def find_nobs(hand: Sequence[Card], starter: Card) -> list[ScoreItem]:
    """One for his nobs: the jack of the starter's suit in the hand (a jack starter is never its own).

    >>> find_nobs(parse_cards("JH 2C 4D 9S"), Card.parse("KH"))
    [ScoreItem(kind='nobs', cards=(Card.parse('JH'),), points=1)]
    """
    return [ScoreItem("nobs", (card,), 1) for card in hand if card.rank == JACK and card.suit is starter.suit]


def his_heels_points(starter: Card) -> int:
    """His heels: a jack turned as the starter is 2 for the dealer, apart from any hand's count.

    >>> his_heels_points(Card.parse("JH")), his_heels_points(Card.parse("QH"))
    (2, 0)
    """
    return 2 if starter.rank == JACK else 0


# --------------------------------------------------------------------------- counting a hand


def score_show(
    hand: Iterable[Card | str] | str,
    starter: Card | str,
    *,
    crib: bool = False,
    five_card: bool = False,
) -> Show:
    """Count ``hand`` (or the crib) with ``starter``: every fifteen, pair, run, flush and nobs.

    ``hand`` is 4 cards (3 with ``five_card=True``, except the crib, always 4), as
    :class:`Card` objects or notation. Raises :class:`InvalidHandError` for a wrong
    number of cards, a card given twice or the starter inside the hand, and
    :class:`~scorer.cards.InvalidCardError` for a token that is not a card.

    >>> score_show("5H 5D 4S 6C", "10D").total
    16
    >>> print(score_show("3H 3D 4S 4C", "AD").announcement)
    Fifteen two, and two pairs is six
    >>> score_show("2H 4H 6H 8H", "KS").total, score_show("2H 4H 6H 8H", "KS", crib=True).total
    (4, 0)
    >>> score_show("2C 3D 4H", "4S", five_card=True).total
    8
    >>> score_show("5H 5D 5S", "5C")
    Traceback (most recent call last):
    ...
    scorer.show.InvalidHandError: a hand has 4 cards besides the starter, got 3: 5H 5D 5S
    >>> score_show("5H 5D 5S JC", "5H")
    Traceback (most recent call last):
    ...
    scorer.show.InvalidHandError: the starter 5H is also in the hand
    """
    cards = _coerce_hand(hand)
    starter = _coerce_card(starter)
    _check(cards, starter, hand_size(crib=crib, five_card=five_card), crib=crib, five_card=five_card)
    hand = tuple(sorted(cards, key=_INDEX))
    everything = sorted((*hand, starter), key=_INDEX)
    fifteens, pairs, runs = find_fifteens(everything), find_pairs(everything), find_runs(everything)
    flush, nobs = find_flush(hand, starter, crib=crib), find_nobs(hand, starter)
    items = (*fifteens, *pairs, *runs, *flush, *nobs)
    total = sum(item.points for item in items)
    spoken = announce(fifteens, pairs, runs, flush, nobs)
    return Show(hand, starter, crib, items, total, his_heels_points(starter), spoken)


_INDEX = attrgetter("index")
"""Sort key: a card's index orders by rank, then suit, without the comparison methods' overhead."""


def _coerce_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    if isinstance(card, str):
        return Card.parse(card)
    raise InvalidHandError(f"{card!r} is not a card")


def _coerce_hand(hand: Iterable[Card | str] | str) -> tuple[Card, ...]:
    if isinstance(hand, str):
        return parse_cards(hand)
    try:
        cards = tuple(hand)
    except TypeError:
        raise InvalidHandError(f"{hand!r} is not a list of cards") from None
    return tuple(_coerce_card(c) for c in cards)


def _check(hand: tuple[Card, ...], starter: Card, size: int, *, crib: bool, five_card: bool) -> None:
    """Raise :class:`InvalidHandError` unless ``hand`` is ``size`` distinct cards without the starter."""
    if len(hand) == size and len({card.index for card in (*hand, starter)}) == size + 1:
        return
    what = "crib" if crib else ("five-card cribbage hand" if five_card else "hand")
    if len(hand) != size:
        shown = " ".join(map(str, hand)) or "nothing"
        raise InvalidHandError(f"a {what} has {size} cards besides the starter, got {len(hand)}: {shown}")
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            raise InvalidHandError(f"{card} is in the {what} twice: a deck holds each card once")
        seen.add(card)
    raise InvalidHandError(f"the starter {starter} is also in the {what}")


# --------------------------------------------------------------------------- the spoken count

NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three "
    "twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty"
).split()
"""Numbers as they are said in a count, zero to thirty."""
ZERO_ANNOUNCEMENT = "Nineteen (no score)"
"""What a hand of 0 is called: 19 is impossible, so "nineteen" means nothing."""

_PAIR_PHRASES = {
    (2,): "a pair", (3,): "a pair royal", (4,): "a double pair royal",
    (2, 2): "two pairs", (3, 2): "a pair royal and a pair",
}
# Cards of one rank from the pairs they make: 1 pair is 2 cards, 3 pairs 3, 6 pairs 4.
_CARDS_FROM_PAIRS = {1: 2, 3: 3, 6: 4}


def announce(
    fifteens: Sequence[ScoreItem],
    pairs: Sequence[ScoreItem],
    runs: Sequence[ScoreItem],
    flush: Sequence[ScoreItem],
    nobs: Sequence[ScoreItem],
) -> str:
    """The spoken count from each rule's items: fifteens, pairs, runs (a double run names its pair),
    flush, nobs.

    >>> cards = parse_cards("3H 4C 5D KH KS")
    >>> announce(find_fifteens(cards), find_pairs(cards), find_runs(cards), [], [])
    'Fifteen two, fifteen four, a pair makes six, and a run of three is nine'
    """
    pairs_by_rank: dict[int, int] = {}
    for pair in pairs:
        rank = pair.cards[0].rank
        pairs_by_rank[rank] = pairs_by_rank.get(rank, 0) + 1
    run_ranks = {card.rank for card in runs[0].cards} if runs else set()
    # How many cards each set of one rank holds, apart from the run and within it.
    sets = {rank: _CARDS_FROM_PAIRS[count] for rank, count in pairs_by_rank.items()}
    outside = sorted((m for rank, m in sets.items() if rank not in run_ranks), reverse=True)
    inside = sorted((m for rank, m in sets.items() if rank in run_ranks), reverse=True)
    run_length = runs[0].points if runs else 0
    flush_total = flush[0].points if flush else 0
    return _say(len(fifteens), tuple(outside), run_length, len(runs), tuple(inside), flush_total, len(nobs))


def _run_phrase(length: int, multiples: tuple[int, ...]) -> str:
    """'a run of three', 'a double run of four', 'a triple run', 'a double double run'."""
    if not multiples:
        return f"a run of {NUMBER_WORDS[length]}"
    if multiples == (2,):
        return f"a double run of {NUMBER_WORDS[length]}"
    if multiples == (3,) and length == 3:
        return "a triple run"
    if multiples == (2, 2) and length == 3:
        return "a double double run"
    raise AssertionError(f"no name for a run of {length} with multiples {multiples}")  # pragma: no cover


def _pair_points(sets: tuple[int, ...]) -> int:
    """Points of the pairs in sets of one rank: C(m, 2) pairs of 2 points each, so m(m - 1)."""
    return sum(m * (m - 1) for m in sets)


@functools.cache
def _say(fifteens: int, outside: tuple[int, ...], run_length: int, runs: int, inside: tuple[int, ...],
         flush: int, nobs: int) -> str:
    """The sentence for a count's shape; cached, since there are a few thousand shapes at most.

    ``outside`` and ``inside`` are the sizes of the sets of one rank outside and inside the run.
    """
    words = [f"fifteen {NUMBER_WORDS[2 * k]}" for k in range(1, fifteens + 1)]
    phrases: list[tuple[str, int]] = []
    if outside:
        phrases.append((_PAIR_PHRASES[outside], _pair_points(outside)))
    if runs:
        phrases.append((_run_phrase(run_length, inside), runs * run_length + _pair_points(inside)))
    if flush:
        phrases.append((f"a flush for {NUMBER_WORDS[flush]}", flush))
    if nobs:
        phrases.append(("one for his nobs", nobs))
    if not words and not phrases:
        return ZERO_ANNOUNCEMENT
    running = 2 * fifteens
    for i, (phrase, points) in enumerate(phrases):
        running += points
        if i < len(phrases) - 1:
            words.append(f"{phrase} makes {NUMBER_WORDS[running]}")
        else:
            words.append(f"{'and ' if words else ''}{phrase} is {NUMBER_WORDS[running]}")
    text = ", ".join(words)
    return text[0].upper() + text[1:]
