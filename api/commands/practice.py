"""`cribcount practice`: count dealt hands in the terminal and hear what was missed.

Reads one answer a line from standard input (a terminal or a pipe), so a test or a
script can drive it. Each hand: the cards, a prompt, the verdict and the true count
item by item. A typing slip (not a card, a card not dealt) is said and the same hand
asked again. ``q`` or the end of input stops with a summary.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from typing import TextIO

from api.commands.base import command

HOW = 'a total, or items like "15 with 5H JC; pair 5H 5D; run 3H 4S 5D; nobs"; q to stop'
RECENT_MISSES = 5
"""How many wrong hands' lessons are dealt more often (the page keeps the same number)."""


@command
def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("practice", help="count dealt hands and see what you missed (teach mode)",
                       description="Deals a hand (or crib) and starter; type its count as a total or item "
                                   "by item (" + HOW + "). Says what was right, missed and claimed "
                                   "wrongly, keeps score and streak, and deals the kinds of hand you "
                                   "missed more often.")
    p.add_argument("--seed", type=int, default=None, metavar="N", help="seed the deals, to repeat them")
    p.add_argument("--rounds", type=_positive, default=None, metavar="N",
                   help="stop after N hands (default: until q)")
    p.add_argument("--crib", action="store_true", help="deal cribs too (a 4-card flush scores nothing there)")
    p.add_argument("--level", choices=("easy", "mixed"), default="easy",
                   help="easy: small hands, no flush or nobs until you miss one (default, as on the page); "
                        "mixed: any hand")
    p.set_defaults(handler=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of hands, 1 or more, got {text!r}")
    return value


@dataclass
class Tally:
    """The session's score: hands counted, right, the streak of right ones, and lessons missed lately."""

    hands: int = 0
    right: int = 0
    streak: int = 0
    best: int = 0
    missed: list[str] = field(default_factory=list)

    def add(self, correct: bool, lessons: tuple[str, ...]) -> None:
        self.hands += 1
        if correct:
            self.right += 1
            self.streak += 1
            self.best = max(self.best, self.streak)
        else:
            self.streak = 0
            self.missed = (self.missed + list(lessons))[-RECENT_MISSES:]

    def summary(self) -> str:
        if not self.hands:
            return "No hands counted."
        hands = f"{self.hands} hand{'s' if self.hands != 1 else ''}"
        text = f"{hands}: {self.right} right, best streak {self.best}"
        if self.missed:
            text += "; practise " + ", ".join(dict.fromkeys(self.missed))
        return text + "."


def run(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    from scorer.practice import deal, judge
    from scorer.practice_answer import InvalidAnswerError, parse_answer

    stdin, out = stdin or sys.stdin, out or sys.stdout
    rng = random.Random(args.seed)
    tally = Tally()
    print(f"Practice: count each hand ({HOW}).", file=out)
    while args.rounds is None or tally.hands < args.rounds:
        dealt = deal(rng, args.level, crib=args.crib, focus=tally.missed)
        what = "Crib" if dealt.crib else "Hand"
        cards = " ".join(map(str, dealt.hand))
        print(f"\n{what} {tally.hands + 1}: {cards}   starter {dealt.starter}", file=out)
        while True:
            print("Your count> ", end="", file=out, flush=True)
            line = stdin.readline()
            if not line or line.strip().lower() in ("q", "quit", "exit"):
                print(file=out)
                print(tally.summary(), file=out)
                return 0
            try:
                answer = parse_answer(line, dealt.cards)
                break
            except InvalidAnswerError as exc:
                print(f"  ? {exc}", file=out)
        result = judge(dealt, answer)
        tally.add(result.correct, result.lessons)
        print(("Right! " if result.correct else "Not quite. ") + result.message, file=out)
        if not result.correct:
            _print_count(result.show, out)
        print(f"Score {tally.right}/{tally.hands}, streak {tally.streak}", file=out)
    print(file=out)
    print(tally.summary(), file=out)
    return 0


def _print_count(show, out: TextIO) -> None:
    from scorer.reasons import explain

    print(f"  The count, {show.total}:", file=out)
    for item in show.items:
        cards = " ".join(map(str, item.cards))
        print(f"    {item.kind:<8} {cards:<15} {item.points:>2}  {explain(item, show)}", file=out)
    if not show.items:
        print("    nothing scores (\"nineteen\")", file=out)
    print(f"  {show.announcement}", file=out)
