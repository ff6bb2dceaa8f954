"""Times the discard advisor: the whole ranking with the exact weighted crib, over random deals.

``python -m benchmarks.discard`` ranks random deals for both seats with the shipped opponent
model (every choice's hand over every starter, crib over every starter and every weighted throw
of the others, and the reasons) and prints the median and 90th percentile per ranking against
the 0.3 s target, for two players and, with ``--players 2 3 4``, the others too.
The first ranking, which builds the rank tables, is timed apart.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from benchmarks.figures import percentile
from scorer.cards import FULL_DECK
from scorer.discard import advise, dealt_size
from scorer.opponent import load_model

TARGET_S = 0.3
"""Issue 71: a whole two-player ranking with the exact crib in at most 0.3 s on this machine."""



def time_rankings(players: int, seat: str, deals: int, seed: int) -> list[float]:
    """Seconds for each of ``deals`` random rankings."""
    rng = random.Random(seed)
    model = load_model("table")
    seconds = []
    for _ in range(deals):
        dealt = rng.sample(FULL_DECK, dealt_size(players))
        start = time.perf_counter()
        advise(dealt, seat=seat, players=players, model=model)
        seconds.append(time.perf_counter() - start)
    return seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.discard", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="random deals per seat (default 100)")
    parser.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=[2])
    parser.add_argument("--seed", type=int, default=71)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    advise(random.Random(0).sample(FULL_DECK, 6), seat="dealer", model=load_model("table"))
    print(f"first ranking (builds the rank tables, loads the model): {time.perf_counter() - start:.3f} s")
    for players in args.players:
        for seat in ("dealer", "pone"):
            seconds = time_rankings(players, seat, args.deals, args.seed)
            median, p90 = percentile(seconds, 0.5), percentile(seconds, 0.9)
            verdict = "within" if median <= TARGET_S else "OVER"
            print(f"{players} players, {seat:<6}: {len(seconds)} deals, median {median:.4f} s, "
                  f"p90 {p90:.4f} s, max {max(seconds):.4f} s ({verdict} the {TARGET_S} s target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
