"""Static crib averages for every two-card throw, compared with the published discard tables.

A *static* average knows only the two thrown cards: the crib's exact expectation
(:func:`scorer.crib_odds.crib_means`) with the other 50 cards unseen, the other player's pair
weighed by the opponent model for their seat and the starter from the 48 left, averaged over the
throw's suit combinations as a deck deals them (4 suited and 12 not, or 6 for a pair). The
published tables (``training/tables/published_discards.json``, with their sources) were measured
differently: Schell's from expert play, Cribbage Pro's from games on its app, so each throw
comes with the rest of a real hand; a gap remains whatever the model.

``python -m training.tables.discards`` prints every throw side by side, then for each table the mean
absolute gap per throw under the shipped opponent model and under the uniform one.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.cards import RANK_SYMBOLS
from scorer.crib_odds import crib_means
from scorer.opponent import OpponentModel, load_model

EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a tool stopped by a closed pipe."""
PUBLISHED_PATH = Path(__file__).resolve().parent / "published_discards.json"


@functools.cache
def published() -> dict:
    """The published tables: name -> title, source, note, seat, values (13 x 13, ace first)."""
    return json.loads(PUBLISHED_PATH.read_text())["tables"]


def static_crib_table(seat: str, model: OpponentModel) -> np.ndarray:
    """13 x 13 average crib for a throw of ranks (row, column) from ``seat``, as the module docstring says."""
    table = np.zeros((13, 13))
    for low in range(13):
        for high in range(low, 13):
            if low == high:
                throws = [[low * 4, low * 4 + 1]]  # every pair of one rank is alike, by suit symmetry
                weights = [1.0]
            else:
                throws = [[low * 4, high * 4], [low * 4, high * 4 + 1]]  # suited, and not
                weights = [4 / 16, 12 / 16]
            values = [crib_means(np.array(t), np.array([t]), players=2, seat=seat, model=model)[0]
                      for t in throws]
            table[low, high] = table[high, low] = float(np.dot(weights, values))
    return table


@dataclass(frozen=True)
class Gap:
    """How far one model's static averages are from one published table, over the 91 throws."""

    table: str
    model: str
    mean_absolute: float
    """Mean over the 91 throws of |ours - published|."""
    mean_signed: float
    """Mean of ours - published: positive when ours run high."""


def _upper(values: np.ndarray) -> np.ndarray:
    return np.asarray(values)[np.triu_indices(13)]


def gaps(models: Sequence[str] = ("table", "uniform")) -> tuple[list[Gap], dict[tuple[str, str], np.ndarray]]:
    """The gap of each model to each published table, and our static tables by (seat, model)."""
    ours = {(seat, name): static_crib_table(seat, load_model(name))
            for seat in ("dealer", "pone") for name in models}
    found = []
    for key, entry in published().items():
        theirs = _upper(entry["values"])
        for name in models:
            diff = _upper(ours[(entry["seat"], name)]) - theirs
            found.append(Gap(key, name, float(np.abs(diff).mean()), float(diff.mean())))
    return found, ours


def _throw_name(low: int, high: int) -> str:
    return f"{RANK_SYMBOLS[low + 1]}-{RANK_SYMBOLS[high + 1]}"


def report(models: Sequence[str] = ("table", "uniform")) -> list[str]:
    """The comparison as printed lines."""
    found, ours = gaps(models)
    tables = published()
    lines = [("Static crib averages per two-card throw: published tables vs this advisor "
              f"(ours: {', '.join(models)} opponent model)")]
    header = f"{'throw':<6}"
    for key in tables:
        header += f" {key:>20}" + "".join(f" {m:>8}" for m in models)
    lines.append(header)
    for low, high in zip(*np.triu_indices(13), strict=True):
        row = f"{_throw_name(low, high):<6}"
        for entry in tables.values():
            row += f" {entry['values'][low][high]:>20.2f}" + "".join(
                f" {ours[(entry['seat'], m)][low, high]:>8.2f}" for m in models)
        lines.append(row)
    lines.append("")
    lines.append("Mean absolute gap per throw (91 throws); signed mean: + when ours run high")
    for gap in found:
        lines.append(f"  {gap.table:<20} {gap.model:<8} {gap.mean_absolute:.3f}  ({gap.mean_signed:+.3f})")
    lines.append("")
    for key, entry in tables.items():
        lines.append(f"{key}: {entry['title']}. Source: {entry['source']}. {entry['note']}")
    lines.append("Ours are static (the thrower's other four cards unknown, all 50 cards unseen); the "
                 "published figures come from real hands, where the kept cards change what the crib can "
                 "make, so part of the gap is that difference, not the opponent model.")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.tables.discards",
                                     description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    try:
        print("\n".join(report()))
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at interpreter exit
    except BrokenPipeError:
        # `python -m training.tables.discards | head`: the reader closed the pipe. Stop quietly, as
        # api/cli.py does; what is still buffered goes to /dev/null so the exit flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return 0


if __name__ == "__main__":
    sys.exit(main())
