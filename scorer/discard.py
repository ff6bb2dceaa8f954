"""Six (or five) dealt cards -> every way to keep four, ranked by exact expected points.

For each choice: the hand's expectation over every starter from the unseen cards (46 with two
players, 47 with three or four; each alike), with its minimum, maximum and the starters that
lift it; the crib's exact expectation over every starter and every set of cards the others could
add, weighted by an opponent model (:mod:`scorer.crib_odds` defines it); and the net: hand + crib
for the dealer's side, hand - crib for the others (the crib is the dealer's). Pegging is left out,
as RULES.md's advisor says, and his heels too: no throw changes it.

>>> advice = advise("2H 3D 4C 5S 5H JD", seat="dealer", model="uniform")
>>> best = advice.choices[0]
>>> " ".join(map(str, best.throw)), round(best.hand.mean, 2), round(best.crib, 2), best.hand.minimum
('5H 5S', 8.17, 9.03, 5)
>>> best.reason
'keeps a run of 2-3-4 and a fifteen worth at least 5 (13 with a 2 starter); 5-5 in your own crib averages 9.0'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from scorer.bulk import score_totals
from scorer.cards import RANK_SYMBOLS, Card, check_distinct, parse_cards
from scorer.crib_odds import DiscardError, crib_means, unseen_cards
from scorer.opponent import SEATS, OpponentModel, load_model
from scorer.show import NUMBER_WORDS, score_show

__all__ = ["Advice", "Choice", "DiscardError", "HandOdds", "Jump", "advise", "advise_indices", "dealt_size"]

PLAYERS = (2, 3, 4)


def dealt_size(players: int) -> int:
    """Cards dealt to each player: 6 with two players, 5 with three or four."""
    if players not in PLAYERS:
        raise DiscardError(f"players must be 2, 3 or 4, got {players!r}")
    return 6 if players == 2 else 5


@dataclass(frozen=True)
class Jump:
    """Starters that lift the kept hand to ``points``."""

    points: int
    """The hand's count with any of these starters."""
    starters: tuple[Card, ...]
    """The unseen cards that give it, by rank then suit."""


@dataclass(frozen=True)
class HandOdds:
    """The kept four over every starter the player cannot see."""

    mean: float
    """Exact expectation: every unseen card as the starter, alike."""
    minimum: int
    """Points with the worst starter: what the four are sure to make."""
    maximum: int
    """Points with the best starter."""
    jumps: tuple[Jump, ...]
    """Starters that score above the minimum, the best first."""


@dataclass(frozen=True)
class Choice:
    """One way to keep four cards, with its expectations."""

    keep: tuple[Card, ...]
    """The four kept cards."""
    throw: tuple[Card, ...]
    """The card(s) put in the crib."""
    hand: HandOdds
    """The kept hand's figures."""
    crib: float
    """Exact expectation of the crib (the dealer's) given this throw."""
    net: float
    """hand + crib for the dealer's side, hand - crib for the others."""
    reason: str
    """A line a beginner can follow."""


@dataclass(frozen=True)
class Advice:
    """The ranked choices for one deal."""

    dealt: tuple[Card, ...]
    """The cards dealt to the player."""
    seat: str
    """``dealer`` or ``pone`` (any non-dealer; with four players, the side of the seat)."""
    players: int
    """2, 3 or 4."""
    model: str
    """The opponent model that weighed the others' throws: ``table`` or ``uniform``."""
    choices: tuple[Choice, ...]
    """Every way to keep four, best net first."""


def _check(dealt: tuple[Card, ...], seat: str, players: int) -> None:
    size = dealt_size(players)
    if seat not in SEATS:
        raise DiscardError(f"seat must be dealer or pone, got {seat!r}")
    if len(dealt) != size:
        raise DiscardError(f"{players} players are dealt {size} cards each, got {len(dealt)}: "
                           f"{' '.join(map(str, dealt)) or 'none'}")


def _ranking(dealt: np.ndarray, seat: str, players: int, model: OpponentModel):
    """Keeps, throws, per-starter hand points, crib means and nets for every choice, best first."""
    count = len(dealt)
    keep_positions = np.array(list(itertools.combinations(range(count), 4)))
    throw_positions = np.array([[i for i in range(count) if i not in row] for row in keep_positions])
    keeps, throws = dealt[keep_positions], dealt[throw_positions]
    unseen = unseen_cards(dealt)
    hand_points = score_totals(np.repeat(keeps, len(unseen), axis=0), np.tile(unseen, len(keeps)))
    hand_points = hand_points.reshape(len(keeps), len(unseen))
    crib = crib_means(dealt, throws, players=players, seat=seat, model=model)
    hand = hand_points.mean(axis=1)
    net = hand + crib if seat == "dealer" else hand - crib
    # Best net first; a tie goes to the better hand (a sure thing over the crib's chances).
    order = np.lexsort((-hand, -net))
    return keeps[order], throws[order], hand_points[order], crib[order], net[order], unseen


def advise_indices(dealt: Iterable[int], *, seat: str, players: int = 2,
                   model: OpponentModel) -> tuple[np.ndarray, np.ndarray]:
    """The best throw and keep as card indices (no reasons): the opponent model's inner loop."""
    keeps, throws, *_ = _ranking(np.asarray(list(dealt)), seat, players, model)
    return throws[0], keeps[0]


def advise(dealt: Iterable[Card | str] | str, *, seat: str, players: int = 2,
           model: OpponentModel | str = "table") -> Advice:
    """Rank every way to keep four of ``dealt``; raises :class:`DiscardError` or InvalidCardError."""
    cards = parse_cards(dealt) if isinstance(dealt, str) else tuple(
        c if isinstance(c, Card) else Card.parse(c) for c in dealt)
    check_distinct(cards)
    _check(cards, seat, players)
    opponents = load_model(model) if isinstance(model, str) else model
    indices = np.array([c.index for c in cards])
    keeps, throws, hand_points, crib, net, unseen = _ranking(indices, seat, players, opponents)
    choices = []
    for k in range(len(keeps)):
        keep = tuple(sorted(Card.from_index(int(i)) for i in keeps[k]))
        throw = tuple(sorted(Card.from_index(int(i)) for i in throws[k]))
        odds = _hand_odds(hand_points[k], unseen)
        # The worst starter adds nothing to the four (any starter that did would score more).
        quiet = Card.from_index(int(unseen[hand_points[k].argmin()]))
        choices.append(Choice(keep, throw, odds, float(crib[k]), float(net[k]),
                              _reason(keep, throw, odds, float(crib[k]), seat, quiet)))
    return Advice(cards, seat, players, opponents.name, tuple(choices))


def _hand_odds(points: np.ndarray, unseen: np.ndarray) -> HandOdds:
    low = int(points.min())
    jumps = tuple(Jump(int(p), tuple(Card.from_index(int(c)) for c in unseen[points == p]))
                  for p in sorted(set(points.tolist()), reverse=True) if p > low)
    return HandOdds(float(points.mean()), low, int(points.max()), jumps)


# --------------------------------------------------------------------------- reasons


def ranks_text(cards: Iterable[Card]) -> str:
    """Ranks joined by dashes, low to high: ``3-4-5-5``."""
    return "-".join(RANK_SYMBOLS[c.rank] for c in sorted(cards))


_RUN_NAMES = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double-double run"}
_SETS = {2: "a pair", 6: "three", 12: "four"}


def kept_items(keep: tuple[Card, ...], starter: Card) -> str:
    """What the four cards score by themselves with a starter that adds nothing, in words."""
    items = [i for i in score_show(keep, starter).items if starter not in i.cards]
    parts = []
    runs = [i for i in items if i.kind == "run"]
    if runs:
        in_runs = sorted({c for i in runs for c in i.cards})
        parts.append(f"{_RUN_NAMES.get(len(runs), f'{len(runs)} runs')} of {ranks_text(in_runs)}")
    run_ranks = {c.rank for i in runs for c in i.cards}
    pairs: dict[int, int] = {}
    for item in items:
        if item.kind == "pair" and item.cards[0].rank not in run_ranks:
            pairs[item.cards[0].rank] = pairs.get(item.cards[0].rank, 0) + item.points
    for rank, points in pairs.items():
        word = _SETS.get(points, "a pair")
        symbol = RANK_SYMBOLS[rank]
        parts.append(f"{word} {symbol}s" if word != "a pair" else f"a pair of {symbol}s")
    fifteens = sum(1 for i in items if i.kind == "fifteen")
    if fifteens:
        parts.append("a fifteen" if fifteens == 1 else f"{NUMBER_WORDS[fifteens]} fifteens")
    if any(i.kind == "flush" for i in items):
        parts.append("a flush")
    return " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def _reason(keep: tuple[Card, ...], throw: tuple[Card, ...], odds: HandOdds, crib: float, seat: str,
            quiet: Card) -> str:
    """What the four make for sure, the best starters, and what the throw does for the crib."""
    sure = kept_items(keep, quiet)
    if sure:
        hand = f"keeps {sure} worth at least {odds.minimum}"
    else:
        hand = f"keeps {ranks_text(keep)}, nothing sure"
    if odds.jumps:
        top = odds.jumps[0]
        ranks = sorted({c.rank for c in top.starters})
        hand += f" ({top.points} with a {' or '.join(RANK_SYMBOLS[r] for r in ranks)} starter)"
    where = "in your own crib averages" if seat == "dealer" else "gives the dealer's crib"
    tail = "" if seat == "dealer" else " on average"
    return f"{hand}; {ranks_text(throw)} {where} {crib:.1f}{tail}"
