"""`cribcount referee`: one photo of the whole table at the show, every hand and the crib counted in
the order of the show, every claim and muggins call ruled (ACC rules 8 and 10)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING

import api.commands.photo
from api.commands.base import CliError, command
from api.commands.photo import PHOTO_FORMATS, PHOTO_LIMITS, add_models_and_json
from scorer.referee import GAMES

if TYPE_CHECKING:  # imported when the command runs, not for `--help`
    from api.referee_schemas import Refereed, RefereeRequest

FIX_HINT = "move a card with --move CARD=GROUP (or CARD=starter), name a group with --role GROUP=ROLE"
FIX_OPTIONS = "--move CARD=GROUP or CARD=starter; --role GROUP=ROLE"
CARD_OPTIONS = ("fix a card read wrong with --fix READ=CARD, add one the photo missed with --add "
                "CARD=BESIDE (a card read in its group, or starter), or retake the photo with every card's "
                "corners in view")


@command
def _register_referee(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("referee", help="count a whole table at the show and rule claims and muggins",
                       description="Read every hand, the crib and the starter from one photo of the table, "
                                   "say which group is whose (suggested from the layout: change it with "
                                   "--role), count each in the order of the show and rule each claim and "
                                   "muggins call by ACC rules 8 and 10.")
    p.add_argument("photo", help=f"photo of the table ({PHOTO_FORMATS}; at most {PHOTO_LIMITS})")
    p.add_argument("--players", type=int, choices=(2, 3, 4), required=True, help="players at the table")
    p.add_argument("--seat", default="pone",
                   help="your seat, the hand nearest the photo's bottom edge: pone, dealer, second (3 "
                        "players), dealers-partner, pones-partner (4); default pone")
    p.add_argument("--claim", action="append", default=[], metavar="ROLE=N",
                   help="a claimed total, 0 to 29, e.g. pone=10 or crib=4 (ROLE=N:WHO names who objected "
                        "to an over-claim, needed with 3 players); once for each hand and the crib")
    p.add_argument("--muggins", action="append", default=[], metavar="ROLE=X",
                   help="muggins for X on a claimed hand, e.g. pone=2 (ROLE=X:CALLER names the caller, "
                        "needed with 3 players); repeat for each")
    p.add_argument("--no-muggins", action="store_true",
                   help="the players did not turn muggins on: missed points are simply lost")
    p.add_argument("--role", action="append", default=[], metavar="GROUP=ROLE",
                   help="whose a group is, by its number as printed, e.g. 2=crib; once a group, the others "
                        "follow")
    p.add_argument("--move", action="append", default=[], metavar="CARD=GROUP",
                   help="a card that belongs to another group, e.g. 5H=2, or 5H=starter")
    p.add_argument("--fix", action="append", default=[], metavar="READ=CARD",
                   help="a card read wrong: as read, then the card it is, e.g. 6S=7H; repeat for each")
    p.add_argument("--add", action="append", default=[], metavar="CARD=BESIDE",
                   help="a card the photo missed and a card read in its group, e.g. 7H=8D, or 7H=starter; "
                        "repeat for each")
    p.add_argument("--score", action="append", default=[], metavar="SIDE=N",
                   help="a side's score as the show begins, below the game hole, e.g. dealer=110 (a claim of "
                        "game is checked); once a side")
    p.add_argument("--game", type=int, choices=GAMES, default=GAMES[0], help="the game hole (default 121)")
    p.add_argument("--five-card", action="store_true",
                   help="five-card cribbage: hands of 3 cards, the crib of 4 (two players)")
    add_models_and_json(p, "/api/referee")
    p.set_defaults(handler=_run_referee)


def words_of(args: argparse.Namespace) -> RefereeRequest:
    """The command line's words that need no photo, checked before the models load; each bad one is a
    one-line error."""
    from api.referee_schemas import RefereeRequest, parse_role, typed_words

    if args.no_muggins and args.muggins:
        raise CliError("--muggins calls need muggins on: leave out --no-muggins")
    n = args.players
    base = RefereeRequest(n, parse_role(args.seat, n), args.five_card, not args.no_muggins, game=args.game)
    return typed_words(base, claims=args.claim, calls=args.muggins, roles=args.role, scores=args.score)


def _run_referee(args: argparse.Namespace) -> int:
    from api.commands.photo import print_cards_seen
    from api.referee_schemas import RefereeOut, TableNotCounted, corrected, referee
    from vision.decode import LOCAL, check_photo_file, decode_photo
    from vision.table import TableLayoutError
    from vision.table_read import read_table_cards, table_reader

    words = words_of(args)  # a bad claim or role is refused before the photo is read
    data = check_photo_file(args.photo)  # a bomb or a non-photo is refused before the models load
    reader = table_reader(api.commands.photo.photo_recognizer(args.models))  # the table's finer settings
    photo = decode_photo(data, min_long_side=reader.config.min_long_side, limits=LOCAL)
    detections = read_table_cards(photo, args.players, five_card=args.five_card, reader=reader)
    detections, moves = corrected(detections, photo.original_size, args.players, fixes=args.fix,
                                  additions=args.add, moves=args.move)
    request = replace(words, moves=moves)
    try:
        refereed = referee(detections, request)
    except TableNotCounted as exc:
        if not args.json:
            print_table(exc.refereed)
        raise CliError(f"{exc} ({FIX_OPTIONS})") from None
    except TableLayoutError as exc:  # not the table's number of cards
        if not args.json:
            print_cards_seen(detections, "fix it with --fix READ=CARD")
        raise CliError(f"{exc}: {CARD_OPTIONS}") from None
    if args.json:
        print(RefereeOut.from_refereed(refereed, photo.original_size).model_dump_json())
        return 0
    print_table(refereed)
    return 0


def print_table(ref: Refereed) -> None:
    """The human form: cards seen, the groups and whose they are, the show in order, the rulings."""
    from api.commands.photo import print_cards_seen

    print_cards_seen(ref.detections, "retake the photo with its corners in view")
    starter = ref.layout.starter
    print(f"Starter: {ref.detections.cards[starter]}" if starter is not None
          else f"Starter: none; {FIX_HINT}")
    named = "named by you" if ref.given else "suggested"
    print(f"Groups (roles {named}; {ref.suggestion.reason}; change with --role GROUP=ROLE):")
    for number, (group, role) in enumerate(zip(ref.layout.groups, ref.roles, strict=True), 1):
        cards = " ".join(str(ref.detections.cards[r]) for r in group.rows)
        print(f"  {number}  {role:<17} {cards}")
    for reason in ref.layout.reasons:
        print(f"Unclear: {reason}; {FIX_HINT}")
    if ref.table is None or ref.outcome is None:
        return
    print(f"The show, in order ({ref.rules.name}):")
    for role, show in ref.table.shows:
        print(f"  {role:<17} {' '.join(map(str, show.hand)):<15} {show.total:>2}  {show.announcement}")
        for item in show.items:
            print(f"      {item.kind:<8} {' '.join(map(str, item.cards)):<15} {item.points:>2}")
    if ref.table.his_heels:
        print(f"His heels: {ref.table.his_heels} to the dealer for the jack starter (no muggins on it)")
    for ruling in ref.outcome.rulings:
        print(ruling.message)
    if ref.outcome.winner is not None:
        left = ", ".join(ref.outcome.not_counted) or "nothing"
        print(f"Game: {ref.outcome.winner} reached {ref.outcome.game} ({left} not counted)")
    print("Pegs: " + ", ".join(f"{side} {points}" for side, points in ref.scores))
