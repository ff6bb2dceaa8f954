"""`cribcount score` and `cribcount peg`: typed cards counted, the play scored."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from api.commands.base import CliError, command

if TYPE_CHECKING:  # imported when a command runs, not for `--help`
    from scorer.muggins import ClaimVerdict
    from scorer.show import Show


@command
def _register_score(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="count a hand or crib from typed cards",
                       description="Count a hand or crib with the starter: every fifteen, pair, run, "
                                   "flush and nobs, the spoken count, and optionally check a claim.")
    p.add_argument("cards", nargs="+", metavar="CARD",
                   help="the hand (4 cards, 3 with --five-card) then, without --starter, the starter: "
                        "5H 5D 5S JC 5C")
    p.add_argument("--starter", metavar="CARD", help="the starter (turn-up) card, e.g. 5C")
    p.add_argument("--crib", action="store_true", help="count as the crib (a 4-card flush scores nothing)")
    p.add_argument("--five-card", action="store_true",
                   help="five-card cribbage: a hand is 3 cards and the starter (the crib stays 4)")
    p.add_argument("--claim", metavar="N", help="the total the player claimed (0..29): muggins check")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=_run_score)


def _run_score(args: argparse.Namespace) -> int:
    import json

    from scorer.cards import parse_cards
    from scorer.muggins import check_claim, parse_claim
    from scorer.show import hand_size, score_show

    cards = parse_cards(" ".join(args.cards) + " " + (args.starter or ""))
    size = hand_size(crib=args.crib, five_card=args.five_card)
    if len(cards) != size + 1:
        given = len(cards) - (1 if args.starter else 0)
        raise CliError(f"expected {size} {'crib' if args.crib else 'hand'} cards and a starter "
                       f"({size + 1} cards, or {size} with --starter), got {given}: {' '.join(args.cards)}")
    claimed = parse_claim(args.claim) if args.claim is not None else None
    show = score_show(cards[:size], cards[size], crib=args.crib, five_card=args.five_card)
    verdict = check_claim(show, claimed) if claimed is not None else None

    def spelled(items) -> list[dict]:
        return [{"kind": i.kind, "cards": [str(c) for c in i.cards], "points": i.points} for i in items]

    if args.json:
        out = {"hand": [str(c) for c in show.hand], "starter": str(show.starter), "crib": show.crib,
               "five_card": show.five_card, "total": show.total, "items": spelled(show.items),
               "his_heels": show.his_heels, "announcement": show.announcement}
        if verdict is not None:
            out["claim"] = {"claimed": verdict.claimed, "verdict": verdict.verdict,
                            "difference": verdict.difference, "missed": spelled(verdict.missed),
                            "exact": verdict.exact, "message": verdict.message}
        print(json.dumps(out))
        return 0
    print_show(show, verdict)
    return 0


def print_show(show: Show, verdict: ClaimVerdict | None) -> None:
    """The human form of a show: each item with its cards and why it scores, totals, spoken count,
    claim."""
    from scorer.reasons import explain

    print(f"{'Crib' if show.crib else 'Hand'} {' '.join(map(str, show.hand))}, starter {show.starter}")
    for item in show.items:
        cards = " ".join(map(str, item.cards))
        print(f"  {item.kind:<8} {cards:<15} {item.points:>2}  {explain(item, show)}")
    if not show.items:
        print("  nothing scores")
    print(f"Total: {show.total}")
    if show.his_heels:
        print(f"His heels: {show.his_heels} to the dealer for the jack starter (not part of the total)")
    print(f"Count: {show.announcement}")
    if verdict is not None:
        print(f"Claim {verdict.claimed}: {verdict.message}")
        if verdict.missed and not verdict.exact:
            print("  could be: " + ", ".join(" ".join(map(str, i.cards)) for i in verdict.missed))


@command
def _register_peg(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("peg", help="score the play (pegging) card by card",
                       description="Score a play: the cards in the order laid, pone first (with 3 or 4 "
                                   "players the one left of the dealer, then clockwise), with go where "
                                   "the player to move cannot play. Turns, resets and who leads are "
                                   "worked out; a go may be left out only once every other player is "
                                   "out of the count.")
    p.add_argument("sequence", nargs="+", metavar="CARD|go",
                   help="cards as laid and go tokens: 10H 10D 5C go 4S")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                   help="2 (pone, dealer), 3 (left, right, dealer) or 4 in partnership (left, across, "
                        "right, dealer; points per side too); default 2")
    p.add_argument("--json", action="store_true", help="print one JSON object: plays and totals")
    p.set_defaults(handler=_run_peg)


def _run_peg(args: argparse.Namespace) -> int:
    import json

    from scorer.pegging import score_pegging

    result = score_pegging(args.sequence, players=args.players)
    print(json.dumps(result.as_dict()) if args.json else result.table())
    return 0
