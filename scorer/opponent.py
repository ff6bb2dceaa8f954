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

The shipped table (``scorer/data/opponent.json``) is a fixed point, as published discard tables
are made: every player throws as this advisor does, using the model itself for the others; start
from the uniform model, rank the same random deals for every seat, count which classes are thrown,
turn counts into weights (count + 1/2, over the number of deck pairs or cards in the class), and
repeat, moving the model half-way to the observed throws each round, until the throw frequencies
stop changing. ``python -m scorer.opponent`` rebuilds it.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
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

# Deck card pairs in a class: a rank pair shares no suit (6 pairs), two ranks suited (4) or not (12).
_PAIRS_IN_CLASS = np.array([[[6 if lo == hi else 12, 0 if lo == hi else 4] for hi in range(13)] for lo in range(13)],
                           dtype=float)


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
    pairs = np.where(_PAIRS_IN_CLASS > 0, 1.0, 0.0)
    return OpponentModel("uniform", {s: pairs for s in PAIR_SEATS}, {s: np.ones(13) for s in SINGLE_SEATS})


def model_from_counts(name: str, pair_counts: dict[str, np.ndarray], single_counts: dict[str, np.ndarray]
                      ) -> OpponentModel:
    """Weights from throw counts: (count + 1/2) per deck pair or card of the class, mean weight 1."""
    pairs = {}
    for seat, counts in pair_counts.items():
        sym = counts + np.transpose(counts, (1, 0, 2)) - np.eye(13)[:, :, None] * counts
        w = np.where(_PAIRS_IN_CLASS > 0, (sym + 0.5) / np.maximum(_PAIRS_IN_CLASS, 1), 0.0)
        upper = np.triu(np.ones((13, 13)))[:, :, None]  # each rank pair once
        pairs[seat] = w / ((w * _PAIRS_IN_CLASS * upper).sum() / 1326)
    singles = {}
    for seat, counts in single_counts.items():
        w = (counts + 0.5) / 4
        singles[seat] = w / w.mean()
    return OpponentModel(name, pairs, singles)


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
                                "rebuild it with: python -m scorer.opponent") from None
    pairs = {s: _pair_array(data["pairs"][s]) for s in PAIR_SEATS}
    singles = {s: np.array(data["singles"][s], dtype=float) for s in SINGLE_SEATS}
    return OpponentModel("table", pairs, singles)


def _pair_array(rows: Sequence[Sequence[Sequence[float]]]) -> np.ndarray:
    table = np.array(rows, dtype=float)
    if table.shape != (13, 13, 2):
        raise InvalidModelError(f"a pair table must be 13 x 13 x 2, got {table.shape}")
    return table


# --------------------------------------------------------------------------- the fixed point


def throw_counts(model: OpponentModel, deals: np.ndarray, players: int, seat: Seat) -> np.ndarray:
    """How often each class is thrown when ``seat`` ranks each dealt row with ``model`` and takes the best."""
    from scorer.discard import advise_indices

    if players == 2:
        counts = np.zeros((13, 13, 2))
        for dealt in deals:
            thrown = advise_indices(dealt, seat=seat, players=2, model=model)[0]
            lo, hi = sorted(int(c) >> 2 for c in thrown)
            counts[lo, hi, int((thrown[0] & 3) == (thrown[1] & 3))] += 1
        return counts
    counts = np.zeros(13)
    for dealt in deals[:, :5]:
        thrown = advise_indices(dealt, seat=seat, players=players, model=model)[0]
        counts[int(thrown[0]) >> 2] += 1
    return counts


def fixed_point(deal_count: int, single_deal_count: int, seed: int, *, iterations: int = 8,
                tolerance: float = 0.01, damping: float = 0.5, log=print) -> tuple[OpponentModel, list[dict]]:
    """Iterate the model from uniform on the same random deals until the throw frequencies settle.

    Each round every seat ranks the deals with the current model and throws its best; the model's
    frequencies move ``damping`` of the way to those observed (a throw that flips between two
    near-equal choices would otherwise keep the whole table swinging). Settled: the largest
    total-variation distance between two successive rounds' frequencies, over all seats, is
    under ``tolerance``. Each round also logs how far the observed throws still are from the model.
    """
    rng = np.random.default_rng(seed)
    deals = np.array([rng.permutation(52)[:6] for _ in range(max(deal_count, single_deal_count))])
    model, history, freqs = uniform_model(), [], None
    jobs = [("dealer", 2, "dealer"), ("pone", 2, "pone"), ("dealer3", 3, "dealer"), ("pone3", 3, "pone"),
            ("dealer4", 4, "dealer"), ("pone4", 4, "pone")]
    for round_number in range(1, iterations + 1):
        start = time.perf_counter()
        observed = {}
        for key, players, seat in jobs:
            counts = throw_counts(model, deals[:deal_count if players == 2 else single_deal_count], players, seat)
            observed[key] = counts / counts.sum()
        if freqs is None:
            change, gap, freqs = None, None, observed
        else:
            gap = {k: 0.5 * float(np.abs(observed[k] - freqs[k]).sum()) for k in freqs}
            moved = {k: (1 - damping) * freqs[k] + damping * observed[k] for k in freqs}
            change = max(0.5 * float(np.abs(moved[k] - freqs[k]).sum()) for k in freqs)
            freqs = moved
        # Frequencies as counts per 1,000 deals keep the +1/2 prior's weight the same each round.
        model = model_from_counts("table", {k: 1000 * freqs[k] for k in PAIR_SEATS},
                                  {k: 1000 * freqs[k] for k in SINGLE_SEATS})
        history.append({"round": round_number, "change": None if change is None else round(change, 4),
                        "observed_vs_model": None if gap is None else {k: round(v, 4) for k, v in gap.items()},
                        "seconds": round(time.perf_counter() - start, 1)})
        log(f"round {round_number}: largest change in throw frequencies "
            f"{'-' if change is None else f'{change:.4f}'}; observed vs model "
            f"{'-' if gap is None else ', '.join(f'{k} {v:.3f}' for k, v in gap.items())} ({history[-1]['seconds']} s)")
        if change is not None and change < tolerance:
            break
    return model, history


def save_model(model: OpponentModel, path: Path, *, command: str, history: list[dict]) -> None:
    """Write the table as small JSON (weights to 4 significant digits)."""
    data = {
        "about": "Opponent model for the discard advisor: relative likelihood that a player in a seat throws "
                 "one card pair (pairs[seat][low][high][suited], ranks 0=ace..12=king) or one card "
                 "(singles[seat][rank]). A fixed point: players throwing by this advisor, iterated from "
                 "uniform on the same random deals until the throw frequencies stop changing (scorer/opponent.py).",
        "command": command,
        "rounds": history,
        "pairs": {s: np.round(model.pairs[s], 4).tolist() for s in PAIR_SEATS},
        "singles": {s: np.round(model.singles[s], 4).tolist() for s in SINGLE_SEATS},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer.opponent", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="random two-player deals ranked per seat per round")
    parser.add_argument("--single-deals", type=int, default=1000,
                        help="random three- and four-player deals ranked per seat per round (13 classes need fewer)")
    parser.add_argument("--seed", type=int, default=71, help="seed for the deals")
    parser.add_argument("--rounds", type=int, default=10, help="most rounds of the iteration")
    parser.add_argument("--tolerance", type=float, default=0.01,
                        help="settled when no seat's throw frequencies move more than this (total variation)")
    parser.add_argument("--out", type=Path, default=TABLE_PATH, help="where to write the table")
    args = parser.parse_args(argv)
    model, history = fixed_point(args.deals, args.single_deals, args.seed, iterations=args.rounds,
                                 tolerance=args.tolerance)
    command = (f"python -m scorer.opponent --deals {args.deals} --single-deals {args.single_deals} "
               f"--seed {args.seed} --rounds {args.rounds} --tolerance {args.tolerance}")
    save_model(model, args.out, command=command, history=history)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
