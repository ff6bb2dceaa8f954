"""Builds the advisor's opponent model (``scorer/data/opponent.json``) as a fixed point.

:mod:`scorer.opponent` holds the model type and loads the table; this lab tool makes it, as
published discard tables are made: every player throws as this advisor does, using the model
itself for the others; start from the uniform model, rank the same random deals for every seat,
count which classes are thrown, turn counts into weights (count + 1/2, over the number of deck
pairs or cards in the class), and repeat, moving the model half-way to the observed throws each
round, until the throw frequencies stop changing. ``python -m training.tables.opponent`` rebuilds it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from scorer.discard import advise_indices
from scorer.opponent import (
    PAIR_SEATS,
    PAIRS_IN_CLASS,
    SINGLE_SEATS,
    TABLE_PATH,
    OpponentModel,
    Seat,
    uniform_model,
)


def model_from_counts(name: str, pair_counts: dict[str, np.ndarray], single_counts: dict[str, np.ndarray]
                      ) -> OpponentModel:
    """Weights from throw counts: (count + 1/2) per deck pair or card of the class, mean weight 1."""
    pairs = {}
    for seat, counts in pair_counts.items():
        sym = counts + np.transpose(counts, (1, 0, 2)) - np.eye(13)[:, :, None] * counts
        w = np.where(PAIRS_IN_CLASS > 0, (sym + 0.5) / np.maximum(PAIRS_IN_CLASS, 1), 0.0)
        upper = np.triu(np.ones((13, 13)))[:, :, None]  # each rank pair once
        pairs[seat] = w / ((w * PAIRS_IN_CLASS * upper).sum() / 1326)
    singles = {}
    for seat, counts in single_counts.items():
        w = (counts + 0.5) / 4
        singles[seat] = w / w.mean()
    return OpponentModel(name, pairs, singles)


def throw_counts(model: OpponentModel, deals: np.ndarray, players: int, seat: Seat) -> np.ndarray:
    """How often each class is thrown when ``seat`` ranks each dealt row with ``model`` and takes the best."""
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


_JOBS = (("dealer", 2, "dealer"), ("pone", 2, "pone"), ("dealer3", 3, "dealer"), ("pone3", 3, "pone"),
         ("dealer4", 4, "dealer"), ("pone4", 4, "pone"))
"""Each model seat, with the players and advisor seat whose throws it learns from."""


def observe(model: OpponentModel, deals: np.ndarray, deal_count: int, single_deal_count: int
            ) -> dict[str, np.ndarray]:
    """Throw frequencies per model seat when every seat ranks its deals with ``model``."""
    observed = {}
    for key, players, seat in _JOBS:
        counts = throw_counts(model, deals[:deal_count if players == 2 else single_deal_count], players, seat)
        observed[key] = counts / counts.sum()
    return observed


def _total_variation(a: np.ndarray, b: np.ndarray) -> float:
    return 0.5 * float(np.abs(a - b).sum())


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
    for round_number in range(1, iterations + 1):
        start = time.perf_counter()
        observed = observe(model, deals, deal_count, single_deal_count)
        if freqs is None:
            change, gap, freqs = None, None, observed
        else:
            gap = {k: _total_variation(observed[k], freqs[k]) for k in freqs}
            moved = {k: (1 - damping) * freqs[k] + damping * observed[k] for k in freqs}
            change = max(_total_variation(moved[k], freqs[k]) for k in freqs)
            freqs = moved
        # Frequencies as counts per 1,000 deals keep the +1/2 prior's weight the same each round.
        model = model_from_counts("table", {k: 1000 * freqs[k] for k in PAIR_SEATS},
                                  {k: 1000 * freqs[k] for k in SINGLE_SEATS})
        history.append({"round": round_number, "change": None if change is None else round(change, 4),
                        "observed_vs_model": gap and {k: round(v, 4) for k, v in gap.items()},
                        "seconds": round(time.perf_counter() - start, 1)})
        log(_round_line(history[-1]))
        if change is not None and change < tolerance:
            break
    return model, history


def _round_line(entry: dict) -> str:
    change, gap = entry["change"], entry["observed_vs_model"]
    gaps = "-" if gap is None else ", ".join(f"{k} {v:.3f}" for k, v in gap.items())
    return (f"round {entry['round']}: largest change in throw frequencies "
            f"{'-' if change is None else f'{change:.4f}'}; observed vs model {gaps} ({entry['seconds']} s)")


def save_model(model: OpponentModel, path: Path, *, command: str, history: list[dict]) -> None:
    """Write the table as small JSON (weights to 4 significant digits)."""
    data = {
        "about": "Opponent model for the discard advisor: relative likelihood that a player in a seat throws "
                 "one card pair (pairs[seat][low][high][suited], ranks 0=ace..12=king) or one card "
                 "(singles[seat][rank]). A fixed point: players throwing by this advisor, iterated from "
                 "uniform on the same random deals until the throw frequencies stop changing "
                 "(training/tables/opponent.py).",
        "command": command,
        "rounds": history,
        "pairs": {s: np.round(model.pairs[s], 4).tolist() for s in PAIR_SEATS},
        "singles": {s: np.round(model.singles[s], 4).tolist() for s in SINGLE_SEATS},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.tables.opponent",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000,
                        help="random two-player deals ranked per seat per round")
    parser.add_argument("--single-deals", type=int, default=1000,
                        help="random three- and four-player deals ranked per seat per round "
                             "(13 classes need fewer)")
    parser.add_argument("--seed", type=int, default=71, help="seed for the deals")
    parser.add_argument("--rounds", type=int, default=10, help="most rounds of the iteration")
    parser.add_argument("--tolerance", type=float, default=0.01,
                        help="settled when no seat's throw frequencies move more than this (total variation)")
    parser.add_argument("--out", type=Path, default=TABLE_PATH, help="where to write the table")
    args = parser.parse_args(argv)
    model, history = fixed_point(args.deals, args.single_deals, args.seed, iterations=args.rounds,
                                 tolerance=args.tolerance)
    command = (f"python -m training.tables.opponent --deals {args.deals} --single-deals {args.single_deals} "
               f"--seed {args.seed} --rounds {args.rounds} --tolerance {args.tolerance}")
    save_model(model, args.out, command=command, history=history)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
