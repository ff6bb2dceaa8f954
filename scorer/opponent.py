"""The opponent model: how likely each player is to throw each card (or pair) to the crib.

The advisor needs it to weigh the cards the *other* players put in the crib. A weight is a
relative likelihood that a player in a given seat throws one particular card pair (two players)
or one particular card (three or four players); only ratios matter, since the crib's expectation
divides by the sum over the unseen cards (see :mod:`scorer.crib_odds`).

- Pairs (two players) are classed by their ranks and by whether they share a suit:
  ``pairs[seat][low][high][suited]`` with ranks 0 (ace) .. 12 (king); seats ``dealer`` (throws to
  their own crib) and ``pone`` (to the opponent's).
- Single cards (three or four players) are classed by rank: ``singles[seat][rank]`` with seats
  ``dealer3``/``pone3`` (three players: the dealer, or one of the two non-dealers) and
  ``dealer4``/``pone4`` (four players: the dealer's side, or the other side).

This module holds the model type and loads the shipped table (``scorer/data/opponent.json``), a
fixed point of players throwing as this advisor does; the lab builds it
(``python -m training.tables.opponent``, :mod:`training.tables.opponent` says how).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

Seat = Literal["dealer", "pone"]
SEATS: tuple[Seat, ...] = ("dealer", "pone")
PAIR_SEATS = ("dealer", "pone")
SINGLE_SEATS = ("dealer3", "pone3", "dealer4", "pone4")
TABLE_PATH = Path(__file__).resolve().parent / "data" / "opponent.json"
MODEL_NAMES = ("table", "uniform")

PAIRS_IN_CLASS = np.array(
    [[[6 if lo == hi else 12, 0 if lo == hi else 4] for hi in range(13)] for lo in range(13)], dtype=float
)
"""Deck card pairs in each class [low][high][suited]: one rank, never suited (6 pairs); two ranks,
suited (4) or not (12)."""


class InvalidModelError(ValueError):
    """Raised for an opponent model name or table that cannot be used."""


@dataclass(frozen=True, eq=False)
class OpponentModel:
    """Relative throw likelihoods per seat (arrays; compared by identity)."""

    name: str
    """``table`` (the shipped fixed point) or ``uniform``."""
    pairs: dict[str, np.ndarray] = field(repr=False)
    """Seat -> (13, 13, 2) weights for a card pair: [low rank][high rank][suited], symmetric in the ranks."""
    singles: dict[str, np.ndarray] = field(repr=False)
    """Seat -> (13,) weights for one card by rank."""

    def pair_weights(self, seat: str, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """Weights of the card pairs (first[i], second[i]) (card indices) thrown from ``seat``."""
        first, second = np.asarray(first), np.asarray(second)
        suited = ((first & 3) == (second & 3)).astype(int)
        return self.pairs[seat][first >> 2, second >> 2, suited]

    def single_weights(self, seat: str, cards: np.ndarray) -> np.ndarray:
        """Weights of single cards (card indices) thrown from ``seat``."""
        return self.singles[seat][np.asarray(cards) >> 2]


def uniform_model() -> OpponentModel:
    """Every pair (and every card) alike: the crib as if the others threw at random."""
    pairs = np.where(PAIRS_IN_CLASS > 0, 1.0, 0.0)
    return OpponentModel("uniform", dict.fromkeys(PAIR_SEATS, pairs), {s: np.ones(13) for s in SINGLE_SEATS})


@functools.cache
def load_model(name: str = "table") -> OpponentModel:
    """The shipped fixed point (``table``) or ``uniform``; raises :class:`InvalidModelError` for others."""
    if name == "uniform":
        return uniform_model()
    if name != "table":
        raise InvalidModelError(f"opponent model must be one of {', '.join(MODEL_NAMES)}, got {name!r}")
    try:
        data = json.loads(TABLE_PATH.read_text())
    except (OSError, ValueError) as exc:
        raise InvalidModelError(f"the opponent table {TABLE_PATH} cannot be read ({exc}); "
                                "rebuild it with: python -m training.tables.opponent") from None
    pairs = {s: _pair_array(data["pairs"][s]) for s in PAIR_SEATS}
    singles = {s: np.array(data["singles"][s], dtype=float) for s in SINGLE_SEATS}
    return OpponentModel("table", pairs, singles)


def _pair_array(rows: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
    table = np.array(rows, dtype=float)
    if table.shape != (13, 13, 2):
        raise InvalidModelError(f"a pair table must be 13 x 13 x 2, got {table.shape}")
    return table
