"""The show: a hand or the crib counted with the starter, item by item.

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

Pure standard library; :mod:`scorer.bulk` scores many deals at once with numpy.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Literal

from scorer.cards import ACE, FULL_DECK, JACK, KING, SUITS, Card, parse_cards

__all__ = [
    "ItemKind",
    "KINDS",
    "InvalidHandError",
    "ScoreItem",
    "Show",
    "score_show",
    "flush_points",
    "hand_size",
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
        # Only hand-made items pass here; score_show fills its slots directly.
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


# --------------------------------------------------------------------------- rules as small functions


def hand_size(*, crib: bool = False, five_card: bool = False) -> int:
    """Cards shown besides the starter: 4, or 3 for a five-card-cribbage hand.

    The crib always holds 4 cards, in five-card cribbage too.

    >>> hand_size(), hand_size(five_card=True), hand_size(crib=True, five_card=True)
    (4, 3, 4)
    """
    return 3 if five_card and not crib else 4


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


# --------------------------------------------------------------------------- precomputed structure

# Card index k = (rank - 1) * 4 + suit position; these read rank and value from k.
_RANK0: tuple[int, ...] = tuple(k >> 2 for k in range(52))
_VALUE: tuple[int, ...] = tuple(min(k // 4 + 1, 10) for k in range(52))

NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three "
    "twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty"
).split()
"""Numbers as they are said in a count, zero to thirty."""
_FIFTEEN_SAYINGS = tuple(f"fifteen {NUMBER_WORDS[2 * k]}" for k in range(1, 16))
ZERO_ANNOUNCEMENT = "Nineteen (no score)"
"""What a hand of 0 is called: 19 is impossible, so "nineteen" means nothing."""


def _getter(positions: Sequence[int]):
    """A function picking ``positions`` out of a list as a tuple (itemgetter of one returns a bare item)."""
    if len(positions) == 1:
        (only,) = positions
        return lambda seq: (seq[only],)
    return itemgetter(*positions)


@dataclass(frozen=True, slots=True, eq=False)
class _Shape:
    """Pairs and runs of n sorted cards, known from the gaps between neighbouring ranks alone."""

    pair_getters: tuple
    run_getters: tuple
    run_length: int
    points: int
    # Announcement phrases with their points: pairs outside any run, then the run with its pairs.
    phrases: tuple[tuple[str, int], ...]
    number: int
    """Distinct per shape (< 256): part of the key of a made announcement."""


_PAIR_PHRASES = {
    (2,): "a pair", (3,): "a pair royal", (4,): "a double pair royal",
    (2, 2): "two pairs", (3, 2): "a pair royal and a pair",
}


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


_shape_numbers = itertools.count()


def _build_shape(gaps: tuple[int, ...]) -> _Shape | None:
    groups: list[list[int]] = [[0]]
    links: list[int] = []  # gap between group g and g + 1: 1 consecutive, 2 wider
    for i, gap in enumerate(gaps, start=1):
        if gap == 0:
            groups[-1].append(i)
        else:
            links.append(gap)
            groups.append([i])
    if any(len(g) > 4 for g in groups):
        return None  # five of a kind: not in one deck
    pairs = [p for g in groups for p in itertools.combinations(g, 2)]
    # The maximal stretch of groups joined by consecutive ranks; with 5 cards at most one has 3+.
    run_groups: list[list[int]] = []
    start = 0
    for g in range(1, len(groups) + 1):
        if g == len(groups) or links[g - 1] != 1:
            if g - start >= 3:
                run_groups = groups[start:g]
            start = g
    runs = list(itertools.product(*run_groups)) if run_groups else []
    run_length = len(run_groups)
    outside = tuple(sorted((len(g) for g in groups if len(g) > 1 and g not in run_groups), reverse=True))
    inside = tuple(sorted((len(g) for g in run_groups if len(g) > 1), reverse=True))
    phrases = []
    if outside:
        phrases.append((_PAIR_PHRASES[outside], sum(m * (m - 1) for m in outside)))  # C(m,2) pairs x 2
    if runs:
        phrases.append((_run_phrase(run_length, inside),
                        len(runs) * run_length + sum(m * (m - 1) for m in inside)))
    return _Shape(
        pair_getters=tuple(_getter(p) for p in pairs),
        run_getters=tuple(_getter(r) for r in runs),
        run_length=run_length,
        points=2 * len(pairs) + run_length * len(runs),
        phrases=tuple(phrases),
        number=next(_shape_numbers),
    )


@dataclass(frozen=True, slots=True)
class _Layout:
    """Combination index lists for n cards (the starter included), built once at import."""

    pairs: tuple[tuple[int, int], ...]
    pair_getters: tuple  # the pairs, lexicographic
    # (n-2)-card subsets as complements of pairs, lexicographic: (pair number, getter).
    pair_complements: tuple
    # (n-1)-card subsets as complements of single cards, lexicographic: (position, getter).
    single_complements: tuple
    everything: object
    shapes: dict


def _build_layout(n: int) -> _Layout:
    positions = range(n)
    pairs = tuple(itertools.combinations(positions, 2))
    pair_complements: tuple = ()
    if n - 2 > 2:  # with 4 cards the complement of a pair is a pair, already counted
        complements = sorted(
            ((tuple(i for i in positions if i not in p), k) for k, p in enumerate(pairs))
        )
        pair_complements = tuple((k, _getter(c)) for c, k in complements)
    single_complements = tuple(
        (i, _getter(tuple(j for j in positions if j != i))) for i in reversed(positions)
    )
    by_gaps = {}
    for gaps in itertools.product((0, 1, 2), repeat=n - 1):
        shape = _build_shape(gaps)
        if shape is not None:
            by_gaps[gaps] = shape
    # Keyed by the raw rank differences of sorted cards (at most 1,820 of them), so a
    # lookup needs no classifying; every key shares one of the few shapes above.
    shapes = {}
    for diffs in itertools.product(range(13), repeat=n - 1):
        if sum(diffs) <= KING - ACE and tuple(min(d, 2) for d in diffs) in by_gaps:
            shapes[diffs] = by_gaps[tuple(min(d, 2) for d in diffs)]
    return _Layout(
        pairs=pairs,
        pair_getters=tuple(_getter(p) for p in pairs),
        pair_complements=pair_complements,
        single_complements=single_complements,
        everything=_getter(tuple(positions)),
        shapes=shapes,
    )


_LAYOUTS: dict[int, _Layout] = {4: _build_layout(4), 5: _build_layout(5)}
_SHAPES5 = _LAYOUTS[5].shapes
# The hand, sorted, out of the sorted cards: all but the starter's position.
_WITHOUT = {n: [_getter([j for j in range(n) if j != i]) for i in range(n)] for n in (4, 5)}
_JACK_CLUBS = Card(JACK, SUITS[0]).index

# A frozen dataclass's __init__ pays object.__setattr__ per field; the hot path fills
# the slots directly (same objects, same equality, about twice as fast).
_new = object.__new__
_set_kind = ScoreItem.kind.__set__  # type: ignore[attr-defined]
_set_cards = ScoreItem.cards.__set__  # type: ignore[attr-defined]
_set_points = ScoreItem.points.__set__  # type: ignore[attr-defined]
(_set_hand, _set_starter, _set_crib, _set_items, _set_total, _set_his_heels,
 _set_announcement) = (getattr(Show, name).__set__ for name in Show.__slots__)


def _item(kind: ItemKind, cards: tuple[Card, ...], points: int) -> ScoreItem:
    item = _new(ScoreItem)
    _set_kind(item, kind)
    _set_cards(item, cards)
    _set_points(item, points)
    return item


# --------------------------------------------------------------------------- scoring


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


def _problem(hand: tuple[Card, ...], starter: Card, size: int, crib: bool, five_card: bool) -> str:
    """Explain why hand + starter cannot be shown (only called when something is wrong)."""
    what = "crib" if crib else ("five-card cribbage hand" if five_card else "hand")
    if len(hand) != size:
        shown = " ".join(map(str, hand)) or "nothing"
        return f"a {what} has {size} cards besides the starter, got {len(hand)}: {shown}"
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            return f"{card} is in the {what} twice: a deck holds each card once"
        seen.add(card)
    if starter in seen:
        return f"the starter {starter} is also in the {what}"
    raise AssertionError("no problem found")  # pragma: no cover


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
    if type(hand) is not tuple:
        hand = tuple(hand) if type(hand) is list else _coerce_hand(hand)
    if type(starter) is not Card:
        starter = _coerce_card(starter)
    size = 3 if five_card and not crib else 4
    starter_key = starter._index
    try:
        if len(hand) == 4:
            h0, h1, h2, h3 = hand
            keys = [h0._index, h1._index, h2._index, h3._index, starter_key]
        else:
            keys = [c._index for c in hand]
            keys.append(starter_key)
    except AttributeError:  # not Card objects: parse them, or say what is wrong
        hand = _coerce_hand(hand)
        keys = [c._index for c in hand]
        keys.append(starter_key)
    n = len(keys)
    if n != size + 1:
        raise InvalidHandError(_problem(hand, starter, size, crib, five_card))
    keys.sort()
    deck = FULL_DECK

    if n == 5:
        # The common case, unrolled: locals are several times faster than loops here.
        k0, k1, k2, k3, k4 = keys
        if not k0 < k1 < k2 < k3 < k4:
            raise InvalidHandError(_problem(hand, starter, size, crib, five_card))
        cards = c0, c1, c2, c3, c4 = deck[k0], deck[k1], deck[k2], deck[k3], deck[k4]
        v0, v1, v2, v3, v4 = _VALUE[k0], _VALUE[k1], _VALUE[k2], _VALUE[k3], _VALUE[k4]
        # Fifteens: a subset sums to 15 exactly when its complement sums to (total - 15),
        # so ten pair sums answer the 2-card and, as complements, the 3-card questions,
        # and single values the 4-card one. Values ascend, so the top pair bounds them.
        fifteens = []
        found = fifteens.append
        s01, s02, s03, s04 = v0 + v1, v0 + v2, v0 + v3, v0 + v4
        s12, s13, s14, s23, s24, s34 = v1 + v2, v1 + v3, v1 + v4, v2 + v3, v2 + v4, v3 + v4
        if s34 >= 15:
            if s01 == 15: found((c0, c1))  # noqa: E701 (a table reads best one per line)
            if s02 == 15: found((c0, c2))  # noqa: E701
            if s03 == 15: found((c0, c3))  # noqa: E701
            if s04 == 15: found((c0, c4))  # noqa: E701
            if s12 == 15: found((c1, c2))  # noqa: E701
            if s13 == 15: found((c1, c3))  # noqa: E701
            if s14 == 15: found((c1, c4))  # noqa: E701
            if s23 == 15: found((c2, c3))  # noqa: E701
            if s24 == 15: found((c2, c4))  # noqa: E701
            if s34 == 15: found((c3, c4))  # noqa: E701
        rest = s01 + v2 + s34 - 15
        if rest == 0:
            found(cards)
        elif rest > 0:
            if s01 <= rest <= s34:  # three cards, lexicographic: complement pairs in reverse
                if s34 == rest: found((c0, c1, c2))  # noqa: E701
                if s24 == rest: found((c0, c1, c3))  # noqa: E701
                if s23 == rest: found((c0, c1, c4))  # noqa: E701
                if s14 == rest: found((c0, c2, c3))  # noqa: E701
                if s13 == rest: found((c0, c2, c4))  # noqa: E701
                if s12 == rest: found((c0, c3, c4))  # noqa: E701
                if s04 == rest: found((c1, c2, c3))  # noqa: E701
                if s03 == rest: found((c1, c2, c4))  # noqa: E701
                if s02 == rest: found((c1, c3, c4))  # noqa: E701
                if s01 == rest: found((c2, c3, c4))  # noqa: E701
            if rest <= v4:  # four cards, lexicographic: complement single in reverse
                if v4 == rest: found((c0, c1, c2, c3))  # noqa: E701
                if v3 == rest: found((c0, c1, c2, c4))  # noqa: E701
                if v2 == rest: found((c0, c1, c3, c4))  # noqa: E701
                if v1 == rest: found((c0, c2, c3, c4))  # noqa: E701
                if v0 == rest: found((c1, c2, c3, c4))  # noqa: E701
        shape = _SHAPES5[(k1 >> 2) - (k0 >> 2), (k2 >> 2) - (k1 >> 2),
                         (k3 >> 2) - (k2 >> 2), (k4 >> 2) - (k3 >> 2)]
    else:
        if len(set(keys)) != n:
            raise InvalidHandError(_problem(hand, starter, size, crib, five_card))
        cards = tuple([deck[k] for k in keys])
        fifteens = _fifteens(cards, [_VALUE[k] for k in keys])
        ranks = [_RANK0[k] for k in keys]
        shape = _LAYOUTS[n].shapes[tuple([b - a for a, b in zip(ranks, ranks[1:])])]

    items = []
    append = items.append
    for combo in fifteens:
        item = _new(ScoreItem)
        _set_kind(item, "fifteen")
        _set_cards(item, combo)
        _set_points(item, 2)
        append(item)
    total = 2 * len(fifteens)
    if shape.points:
        # Pairs and runs: the differences between neighbouring sorted ranks fix their positions.
        for get in shape.pair_getters:
            item = _new(ScoreItem)
            _set_kind(item, "pair")
            _set_cards(item, get(cards))
            _set_points(item, 2)
            append(item)
        length = shape.run_length
        for get in shape.run_getters:
            item = _new(ScoreItem)
            _set_kind(item, "run")
            _set_cards(item, get(cards))
            _set_points(item, length)
            append(item)
        total += shape.points

    sorted_hand = _WITHOUT[n][keys.index(starter_key)](cards)
    flush = 0
    suit = sorted_hand[0].suit
    for card in sorted_hand:
        if card.suit is not suit:
            break
    else:
        flush = flush_points(size, True, starter.suit is suit, crib=crib)
        if flush:
            append(_item("flush", cards if flush > size else sorted_hand, flush))
            total += flush
    # Nobs: the jack of the starter's suit in the hand; a jack starter is never its own nobs.
    nobs_key = _JACK_CLUBS + (starter_key & 3)
    nobs = 0
    if nobs_key != starter_key and nobs_key in keys:
        append(_item("nobs", (deck[nobs_key],), 1))
        nobs = 1
        total += 1

    show = _new(Show)
    _set_hand(show, sorted_hand)
    _set_starter(show, starter)
    _set_crib(show, crib)
    _set_items(show, tuple(items))
    _set_total(show, total)
    _set_his_heels(show, 2 if starter.rank == JACK else 0)
    said = (len(fifteens) << 12) | (shape.number << 4) | (flush << 1) | nobs
    announcement = _ANNOUNCEMENTS.get(said)
    if announcement is None:
        announcement = _ANNOUNCEMENTS[said] = _say(len(fifteens), shape, flush, nobs)
    _set_announcement(show, announcement)
    return show


def _fifteens(cards: tuple[Card, ...], values: list[int]) -> list[tuple[Card, ...]]:
    """Every 2..n-card combination summing to 15, for any n (the 4-card path; tests check 5 against the unrolled one)."""
    layout = _LAYOUTS[len(cards)]
    pair_sums = [values[i] + values[j] for i, j in layout.pairs]
    found = [get(cards) for s, get in zip(pair_sums, layout.pair_getters) if s == 15]
    rest = sum(values) - 15
    if rest > 0:
        found += [get(cards) for k, get in layout.pair_complements if pair_sums[k] == rest]
        found += [get(cards) for i, get in layout.single_complements if values[i] == rest]
    elif rest == 0:
        found.append(layout.everything(cards))
    return found


# Sentences already made, keyed by fifteens, shape number, flush and nobs packed in an
# int: a sentence depends on nothing else, so there are a few thousand at most.
_ANNOUNCEMENTS: dict[int, str] = {}


def _say(fifteens: int, shape: _Shape, flush: int, nobs: int) -> str:
    """The spoken count: fifteens, then pairs, runs (a double run names its pair), flush, nobs."""
    words = list(_FIFTEEN_SAYINGS[:fifteens])
    running = 2 * fifteens
    phrases = list(shape.phrases)
    if flush:
        phrases.append((f"a flush for {NUMBER_WORDS[flush]}", flush))
    if nobs:
        phrases.append(("one for his nobs", 1))
    if not words and not phrases:
        return ZERO_ANNOUNCEMENT
    last = len(phrases) - 1
    for i, (phrase, points) in enumerate(phrases):
        running += points
        if i < last:
            words.append(f"{phrase} makes {NUMBER_WORDS[running]}")
        elif words:
            words.append(f"and {phrase} is {NUMBER_WORDS[running]}")
        else:
            words.append(f"{phrase} is {NUMBER_WORDS[running]}")
    text = ", ".join(words)
    return text[0].upper() + text[1:]
