"""The exhaustive benchmark: every hand + starter deal, checked against the published tables.

``python -m benchmarks.scorer`` counts all 12,994,800 deals (every 4-card hand with
each of the 48 other cards as the starter) as a hand and as a crib through
:func:`scorer.bulk.score_totals`, compares both score histograms with the tables
published in RULES.md (kept below as data, like a chess perft), prints seconds per
mode, and times single :func:`scorer.show.score_show` calls against the
``cribbage-scorer`` package (a dev-only comparison) on the same random deals:
the readable rules must stay no slower than it.
Exits 1 when a histogram differs from its table.

Every deal is one 5-card set plus the choice of which of its cards is the starter,
so the 2,598,960 sets, taken five ways, enumerate each deal exactly once.

>>> deal_count = sum(HAND_HISTOGRAM)
>>> deal_count, deal_count == sum(CRIB_HISTOGRAM) == 270_725 * 48
(12994800, True)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

from scorer.bulk import clear_caches, score_totals
from scorer.cards import FULL_DECK
from scorer.show import score_show

DEAL_COUNT = 12_994_800
"""C(52, 4) hands x 48 starters."""

# Published distribution from RULES.md: number of deals scoring 0..29.
HAND_HISTOGRAM: tuple[int, ...] = (
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
)
"""Hand counts by score (mean 4.7692)."""
CRIB_HISTOGRAM: tuple[int, ...] = (
    1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336, 358368,
    378240, 43880, 310956, 16548, 88132, 9072, 57288, 11196, 2264, 0,
    7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4,
)
"""Crib counts by score, no 4-card flush (mean 4.7348)."""
PUBLISHED_MEANS = {"hand": 4.7692, "crib": 4.7348}


def five_card_sets():
    """All C(52, 5) = 2,598,960 sets of card indices, one row each, lexicographic (numpy uint8).

    >>> sets = five_card_sets()
    >>> sets.shape, sets[0].tolist(), sets[-1].tolist()
    ((2598960, 5), [0, 1, 2, 3, 4], [47, 48, 49, 50, 51])
    """
    import numpy as np

    # subsets[k][m]: every k-subset of range(52 - m, 52), lexicographic; built from the back
    # so each row is a first card followed by a (k-1)-subset of the cards after it.
    subsets = {0: [np.zeros((1, 0), dtype=np.uint8)] * 53}
    for k in range(1, 6):
        subsets[k] = [np.zeros((0, k), dtype=np.uint8)] * 53
        for m in range(k, 53):
            first = 52 - m
            tails = subsets[k - 1][m - 1]
            with_first = np.column_stack([np.full(len(tails), first, dtype=np.uint8), tails])
            subsets[k][m] = np.concatenate([with_first, subsets[k][m - 1]])
    return subsets[5][52]


def histogram(*, crib: bool) -> list[int]:
    """Count every deal as a hand (or crib) and return how many score 0..29."""
    import numpy as np

    sets = five_card_sets()
    counts = np.zeros(30, dtype=np.int64)
    for starter_column in range(5):
        hands = np.delete(sets, starter_column, axis=1)
        totals = score_totals(hands, sets[:, starter_column], crib=crib)
        counts += np.bincount(totals, minlength=30)[:30]
    return counts.tolist()


def random_deals(count: int, seed: int = 2024):
    """``count`` random (hand, starter) deals, the same for a given seed."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        cards = rng.sample(FULL_DECK, 5)
        deals.append((tuple(cards[:4]), cards[4]))
    return deals


def calls_per_second(deals, repeats: int = 5, chunk: int = 2_000) -> dict[str, float]:
    """Single-call rates of score_show and, when installed, cribbage-scorer, on the same deals.

    The deals are timed in chunks, each chunk ``repeats`` times per library with
    the two alternating, and each chunk counts at its fastest: on a shared machine
    other programs only ever add time, so the minimum is the least disturbed run.
    """
    runs: dict[str, Callable[[Sequence], None]] = {"cribcount": _run_ours}
    converted = {"cribcount": deals}
    try:
        from cribbage_scorer import cribbage_scorer
    except ImportError:
        cribbage_scorer = None
    if cribbage_scorer is not None:
        # Its own card format, (rank, suit letter) tuples, converted before timing.
        converted["cribbage-scorer"] = [
            ([(c.rank, c.suit.value) for c in h], (s.rank, s.suit.value)) for h, s in deals
        ]
        show_calc_score = cribbage_scorer.show_calc_score

        def reference(part: Sequence) -> None:
            for hand, starter in part:
                show_calc_score(starter, hand, False)

        runs["cribbage-scorer"] = reference
    seconds = dict.fromkeys(runs, 0.0)
    for start in range(0, len(deals), chunk):
        best = dict.fromkeys(runs, float("inf"))
        for attempt in range(repeats):
            names = list(runs) if attempt % 2 == 0 else list(reversed(runs))
            for name in names:
                part = converted[name][start:start + chunk]
                best[name] = min(best[name], _time_calls(runs[name], part))
        for name in runs:
            seconds[name] += best[name]
    return {name: len(deals) / total for name, total in seconds.items()}


def _run_ours(part: Sequence) -> None:
    for hand, starter in part:
        score_show(hand, starter)


def _time_calls(run: Callable[[Sequence], None], part: Sequence) -> float:
    start = time.perf_counter()
    run(part)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scorer", description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=50_000,
                        help="random deals for the single-call comparison (default 50000; 0 skips it)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed runs of each chunk per library, fastest kept (default 5)")
    args = parser.parse_args(argv)

    ok = True
    for mode, published in (("hand", HAND_HISTOGRAM), ("crib", CRIB_HISTOGRAM)):
        clear_caches()  # time the per-multiset scoring too, not just the lookups
        start = time.perf_counter()
        counts = histogram(crib=mode == "crib")
        seconds = time.perf_counter() - start
        mean = sum(score * n for score, n in enumerate(counts)) / sum(counts)
        match = tuple(counts) == published
        ok &= match
        print(f"{mode}: {sum(counts):,} deals in {seconds:.2f} s, mean {mean:.4f} "
              f"(published {PUBLISHED_MEANS[mode]}), table {'matches' if match else 'DIFFERS'}")
        if not match:
            for score, (got, want) in enumerate(zip(counts, published, strict=True)):
                if got != want:
                    print(f"  score {score}: counted {got}, published {want}")

    if args.calls > 0:
        deals = random_deals(args.calls)
        rates = calls_per_second(deals, args.repeats)
        print(f"score_show: {rates['cribcount']:,.0f} calls/s "
              f"({args.calls:,} random deals, fastest of {args.repeats} per chunk)")
        if "cribbage-scorer" in rates:
            theirs = rates["cribbage-scorer"]
            print(f"cribbage-scorer 0.2.5 show_calc_score: {theirs:,.0f} calls/s; "
                  f"score_show is {rates['cribcount'] / theirs:.1f}x faster")
        else:
            print("cribbage-scorer is not installed (pip install -e '.[dev]'): comparison skipped")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
