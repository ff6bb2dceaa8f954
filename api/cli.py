"""`cribcount`: the one console script (count, score, peg, eval, serve; synth runs in the lab).

One function per subcommand, registered in :func:`build_parser`. Expected failures
(bad cards, bad photos, illegal pegging) raise :class:`CliError` or a ``ValueError``
subclass from the domain; :func:`main` turns them into one line on stderr and exit
code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141
"""What a shell reports for a command stopped by SIGPIPE (128 + 13): the reader of its output left."""


class CliError(Exception):
    """An expected failure: printed as one line, exit code 2."""


Handler = Callable[[argparse.Namespace], int | None]


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit 2 (its default is also 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="cribcount", description="Count cribbage hands, from typed cards or a photo.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for register in _COMMANDS:
        register(sub)
    return parser


# Each entry adds one subparser and sets `handler` on it.
_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []


def command(register: Callable[[argparse._SubParsersAction], None]):
    """Decorator: add a subcommand's registration function to the CLI."""
    _COMMANDS.append(register)
    return register


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
    _print_show(show, verdict)
    return 0


def _print_show(show, verdict) -> None:  # noqa: ANN001 - scorer types, imported lazily
    """The human form of a show: each item with its cards and why it scores, totals, spoken count, claim."""
    from scorer.reasons import explain

    print(f"{'Crib' if show.crib else 'Hand'} {' '.join(map(str, show.hand))}, starter {show.starter}")
    for item in show.items:
        print(f"  {item.kind:<8} {' '.join(map(str, item.cards)):<15} {item.points:>2}  {explain(item, show)}")
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
def _register_eval(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure the recognizer on labelled photos",
                       description="Per-card and whole-photo accuracy (with 95%% intervals), false cards and "
                                   "confusions on folders of labelled photos (images/ + cards.csv: file,cards). "
                                   "The lab's `python -m training eval` adds settings, other models and photos "
                                   "made over.")
    p.add_argument("folders", nargs="*", help="labelled folders (default: ../shared/photos/poker-cards-4)")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx")
    p.add_argument("--sheet", default=None, metavar="OUT.jpg", help="contact sheet of the photos not fully right")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(handler=_run_eval)


DEFAULT_EVAL_SET = Path("..") / "shared" / "photos" / "poker-cards-4"


def _run_eval(args: argparse.Namespace) -> int:
    import json

    from api.evaluate import evaluate, failure_sheet, load_labelled

    folders = [Path(f) for f in args.folders] or [DEFAULT_EVAL_SET]
    sets = [(str(f), load_labelled(f)) for f in folders]  # every folder checked before any is read
    recognizer = _photo_recognizer(args.models)
    figures = []
    for k, (name, photos) in enumerate(sets):
        report = evaluate(photos, recognizer.recognize, name)
        figures.append(report.as_dict())
        if not args.json:
            print(report.table())
        if args.sheet:
            out = Path(args.sheet) if len(sets) == 1 else Path(args.sheet).with_stem(f"{Path(args.sheet).stem}-{k}")
            n = failure_sheet(report, out)
            if not args.json:
                print(f"  failures sheet      {out} ({n} photos)" if n else "  failures sheet      none to draw")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


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


@command
def _register_practice(sub: argparse._SubParsersAction) -> None:
    from api.practice_cli import register  # the loop lives apart: it reads answers from stdin

    register(sub)


@command
def _register_count(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("count", help="count the show in a photo",
                       description="Find the cards in a photo of the show (the 4 hand or crib cards and the "
                                   "starter, face up), pick the starter from the layout, and print the "
                                   "cards, the itemized count and the spoken count.")
    p.add_argument("photo", help="photo of the cards (JPEG, PNG or WebP; at most 20 MB and 50 megapixels)")
    p.add_argument("--crib", action="store_true", help="count as the crib (a 4-card flush scores nothing)")
    p.add_argument("--starter", metavar="CARD",
                   help="the starter, e.g. 5C: needed when the photo shows only the 4 hand cards; "
                        "with 5 cards it overrides the layout")
    p.add_argument("--claim", metavar="N", help="the total the player claimed (0..29): muggins check")
    p.add_argument("--annotate", metavar="OUT.jpg",
                   help="write the photo with the cards boxed and labelled, the starter marked and the items listed")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx (default: models/)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the shape POST /api/count returns)")
    p.set_defaults(handler=_run_count)


def _photo_recognizer(models: str | None):
    """The ONNX recognizer; a missing model file raises ModelMissingError (an OSError: exit 2)."""
    from vision.recognizer import MODELS_DIR, Recognizer

    return Recognizer(models or MODELS_DIR)


ANNOTATE_SUFFIXES = (".jpg", ".jpeg", ".png")
ANNOTATE_ADVICE = "use a .jpg or .png name in an existing folder"


def _check_annotate_path(path: Path) -> None:
    """Refuse an --annotate name OpenCV cannot write before the photo is read: finding that out
    after the recognizer's work would waste it, and OpenCV's own refusal is a traceback."""
    if path.suffix.lower() not in ANNOTATE_SUFFIXES or path.is_dir() or not path.parent.is_dir():
        raise CliError(f"--annotate {path}: {ANNOTATE_ADVICE}")


def _run_count(args: argparse.Namespace) -> int:
    import cv2

    from vision.starter import count_photo
    from api.schemas import CountOut
    from scorer.cards import Card
    from scorer.muggins import parse_claim
    from vision.annotate import CardAnnotator
    from vision.image_io import check_photo_file, read_photo
    from vision.starter import SURE, CardCountError, show_in_view

    check_photo_file(args.photo)  # a bomb or a non-photo refused from its header, before the models load
    starter = Card.parse(args.starter) if args.starter else None
    claimed = parse_claim(args.claim) if args.claim is not None else None
    if args.annotate:
        _check_annotate_path(Path(args.annotate))
    recognizer = _photo_recognizer(args.models)
    photo = read_photo(args.photo, min_long_side=recognizer.config.min_long_side)
    detections = recognizer.recognize_photo(photo, show_in_view(starter))
    try:
        result = count_photo(detections, crib=args.crib, starter=starter, claim=claimed)
    except CardCountError as exc:
        hint = " (--starter CARD)" if len(exc.cards) == 4 and starter is None else ""
        raise CliError(f"{exc}{hint}") from None
    roles, show, verdict = result.roles, result.show, result.claim
    if args.annotate:
        drawn = CardAnnotator().annotate_show(photo.image, roles.detections, show, scale=photo.scale)
        if not cv2.imwrite(args.annotate, drawn):  # its name was checked up front; a full disk, say
            raise CliError(f"could not write {args.annotate} ({ANNOTATE_ADVICE})")
    if args.json:
        print(CountOut.from_count(result, photo.original_size).model_dump_json())
        return 0
    print("Cards seen: " + ", ".join(f"{d.card} {d.confidence:.0%}" for d in roles.detections))
    for d in roles.set_aside:
        print(f"Set aside: {d.card} ({d.confidence:.0%}), the least sure of {len(roles.detections) + 1} cards seen; "
              "if it is one of the show, count the cards typed: cribcount score HAND STARTER")
    unsure = [f"{d.card} ({d.confidence:.0%})" for d in roles.detections if d.to_check]
    if unsure:
        print(f"Check {', '.join(unsure)}: not sure of {'it' if len(unsure) == 1 else 'them'}; if one is wrong, "
              "count the cards typed: cribcount score HAND STARTER")
    if roles.source == "given":
        print(f"Starter: {roles.starter} (named)")
    elif roles.confidence >= SURE:
        print(f"Starter: {roles.starter}, {roles.reason} ({roles.confidence:.0%} sure)")
    else:
        print(f"Starter: {roles.starter}? {roles.reason} ({roles.confidence:.0%} sure); "
              "if it is another card, name it with --starter CARD")
    _print_show(show, verdict)
    if args.annotate:
        print(f"Annotated photo: {args.annotate}")
    return 0


@command
def _register_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the HTTP API and the phone page (uvicorn)",
                       description="Serve the phone page at / and the API under /api (docs at /docs). "
                                   "The models load once at start-up; without them /api/count answers 503.")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the network in)")
    p.add_argument("--port", type=_port, default=8000, help="port, 1 to 65535 (default 8000)")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx (default: models/)")
    p.add_argument("--workers", type=_workers, default=1,
                   help="server processes (default 1: one already uses every core, through its photo worker "
                        "processes; more keep the service up if one fails; see docs/deploy.md)")
    p.set_defaults(handler=_run_serve)


def _workers(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"a number of processes from 1 to 64, got {text!r}")
    return int(text)


def _port(text: str) -> int:
    """``"8000"`` -> 8000; anything but a TCP port is refused here, not by the socket's traceback."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, got {text!r}")
    return int(text)


def _run_serve(args: argparse.Namespace) -> int:
    import errno
    import socket

    import uvicorn

    try:  # a busy port is one line here, not uvicorn's six of log and traceback
        with socket.create_server((args.host, args.port)):
            pass
    except OSError as exc:
        why = "another server is there; choose another --port" if exc.errno == errno.EADDRINUSE else exc.strerror
        raise CliError(f"cannot listen on {args.host}:{args.port}: {why}") from None
    # The app is named, not handed over, so that each worker process builds its own (uvicorn starts
    # processes by import string); its settings come from the environment they inherit.
    if args.models:
        os.environ["CRIBCOUNT_MODELS"] = str(Path(args.models).resolve())
    os.environ["CRIBCOUNT_SERVER_PROCESSES"] = str(args.workers)
    uvicorn.run("api.main:create_app", factory=True, host=args.host, port=args.port, workers=args.workers,
                timeout_graceful_shutdown=10)
    return 0


LAB_COMMANDS = {"synth": "render labelled synthetic photos of cribbage hands (the lab's synthetic engine)"}
"""Commands the lab package (``training/``) runs: handed to ``python -m training`` in a process of
their own, so the runtime never imports the lab (git hands ``git foo`` to ``git-foo`` the same way)."""


@command
def _register_lab(sub: argparse._SubParsersAction) -> None:
    for name, about in LAB_COMMANDS.items():
        sub.add_parser(name, help=f"{about}; see python -m training {name} --help", add_help=False)


def _run_lab(argv: list[str]) -> int:
    """``cribcount synth ARGS`` -> ``python -m training synth ARGS``, its exit status passed on."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("training") is None:
        raise CliError(f"{argv[0]} needs the lab package (training/): run it from a checkout installed with "
                       "pip install -e '.[synth]'")
    return subprocess.call([sys.executable, "-m", "training", *argv])


@command
def _register_discard(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("discard", help="which cards to throw to the crib: every way to keep four, ranked",
                       description="Rank every way to keep four of the dealt cards by the hand's exact expected "
                                   "points over every starter plus (dealer) or minus (pone) the crib's exact "
                                   "expectation over every starter and every throw of the others.")
    p.add_argument("cards", nargs="*", metavar="CARD", help="the dealt cards: 6 for two players, 5 for three or four")
    seat = p.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", action="store_const", const="dealer", dest="seat", help="the crib is yours")
    seat.add_argument("--pone", action="store_const", const="pone", dest="seat", help="the crib is the dealer's")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="players at the table (default 2)")
    p.add_argument("--photo", metavar="PHOTO", help="read the dealt cards from a photo instead (any layout)")
    p.add_argument("--uniform", action="store_true", help="weigh every throw of the others alike, not by the "
                                                          "shipped opponent model")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx (default: models/)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the shape POST /api/discard returns)")
    p.set_defaults(handler=_run_discard)


def _run_discard(args: argparse.Namespace) -> int:
    from api.discard_schemas import DiscardOut
    from api.discarding import DealtCountError, advice_lines, advise_typed, read_dealt
    from scorer.discard import advise

    model = "uniform" if args.uniform else "table"
    if args.photo and args.cards:
        raise CliError("give the dealt cards or --photo, not both")
    if not args.photo:
        advice = advise_typed(args.cards, seat=args.seat, players=args.players, model=model)
        print(DiscardOut.from_advice(advice).model_dump_json() if args.json else "\n".join(advice_lines(advice)))
        return 0
    from vision.image_io import not_a_file, read_photo

    if not Path(args.photo).is_file():
        raise CliError(not_a_file(Path(args.photo)))
    recognizer = _photo_recognizer(args.models)
    photo = read_photo(args.photo, min_long_side=recognizer.config.min_long_side)
    try:
        dealt = read_dealt(recognizer.recognize_photo(photo), args.players)
    except DealtCountError as exc:
        raise CliError(str(exc)) from None
    advice = advise(dealt.cards, seat=args.seat, players=args.players, model=model)
    if args.json:
        print(DiscardOut.from_advice(advice, dealt, photo.original_size).model_dump_json())
        return 0
    print("Cards seen: " + ", ".join(f"{d.card} {d.confidence:.0%}" for d in dealt.detections))
    unsure = [f"{d.card} ({d.confidence:.0%})" for d in dealt.detections if d.to_check]
    if unsure:
        print(f"Check {', '.join(unsure)}: not sure of {'it' if len(unsure) == 1 else 'them'}; if one is wrong, "
              "type the cards: cribcount discard CARD ... --dealer|--pone")
    print("\n".join(advice_lines(advice)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in LAB_COMMANDS:
        try:
            return _run_lab(argv)
        except CliError as exc:
            print(f"cribcount {argv[0]}: error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        status = int(handler(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at interpreter exit
        return status
    except BrokenPipeError:
        # `cribcount ... | head`: the reader took what it wanted and closed the pipe. Stop quietly, as
        # Unix tools do; what is still buffered goes to /dev/null so the exit flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except (CliError, ValueError, OSError) as exc:
        print(f"cribcount {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
