"""`cribcount`: the one console script (count, score, peg, synth, eval, serve).

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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the CLI imports vision lazily, so that scoring a hand never loads the models' code
    from vision.evaluate import EvalReport

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
    from api.counting import explain

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


MADE_OVER_FLAGS = ("--light", "--from-afar", "--blur", "--turn", "--oblique")
"""The ways ``cribcount eval`` makes each photo over in memory before it is read: one at a time."""


def _not_with(flag: str) -> str:
    """The help's note that ``flag`` takes none of the other ways a photo is made over."""
    others = [f for f in MADE_OVER_FLAGS if f != flag]
    return f"not with {', '.join(others[:-1])} or {others[-1]}"


@command
def _register_eval(sub: argparse._SubParsersAction) -> None:
    from training.light import LIGHTS  # the lights --light offers, named once

    p = sub.add_parser("eval", help="measure the recognizer on labelled photos",
                       description="Per-card and whole-photo accuracy, false cards and confusions on "
                                   "labelled photo folders (images/ + cards.csv, or synth JSON labels); "
                                   "rendered scenes also by deck, by layout and by cards in view.")
    p.add_argument("folders", nargs="*", help="labelled folders (default: ../shared/photos/poker-cards-4)")
    p.add_argument("--synth", type=_scene_count, default=0, metavar="N",
                   help="also render N scenes of held-out decks and measure on them")
    p.add_argument("--seed", type=int, default=12345, help="seed for --synth scenes")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx")
    p.add_argument("--against", default=None, metavar="MODELS",
                   help="also read the same photos with this models folder and print the differences "
                        "with their 95%% intervals (photos resampled in pairs), deck by deck where the "
                        "labels name decks, and over all the sets together when there are several")
    p.add_argument("--second-looks", default=None, metavar="SIZES",
                   help="detector sizes to look again at besides the main one, comma-separated (shipped: "
                        "608,736), or none for one look; for --models only (models/HISTORY.md, Second looks at "
                        "other sizes); with --against models, the paired difference is their effect")
    p.add_argument("--always-look-again", action="store_true",
                   help="take the second looks at every photo, not only where the main look leaves doubt "
                        "(a card below 0.999, or none); for --models only (models/README.md)")
    p.add_argument("--whole-second-looks", action="store_true",
                   help="second looks at the whole photo, every box they find read again (an earlier release), "
                        "not only around the cards, the unsure indices; for --models only (models/README.md)")
    p.add_argument("--wider-margin", default=None, metavar="M",
                   help="also read each unsure index on a crop grown by this margin a side (e.g. 0.4; measured, "
                        "off by default), or none for the tight crops only; for --models only (models/HISTORY.md, "
                        "Wider crops)")
    p.add_argument("--tilts", default=None, metavar="DEGREES",
                   help="angles at which the first classifier also reads each unsure index's tightest crop, cut "
                        "tilted, comma-separated (e.g. --tilts=-20,-10,10,20: with '=', as the list starts with a minus; "
                        "measured, off by default), or none; for --models only (models/HISTORY.md, Small tilts)")
    p.add_argument("--white-balance", default=None, metavar="P",
                   help="scale each channel so its P-th percentile is the cards' white (shipped: 99), or none to "
                        "read photos as decoded; for --models only (models/HISTORY.md, Dim and warm light)")
    p.add_argument("--zoom-look", default=None, metavar="PX",
                   help="with the second looks, also see the cards' region alone at this many pixels where they "
                        "are a small part of the photo (shipped: 608), or none for the whole-photo looks only; "
                        "for --models only (models/HISTORY.md, Photos from afar)")
    p.add_argument("--faint-boxes", default=None, metavar="S",
                   help="also read the boxes only a second look found that the detector scored from S to 0.3, "
                        "each kept as an index where it reads as a card at 0.9 or more and no firmer box is there "
                        "(e.g. 0.05; measured, off by default), or none to drop them unread; for --models only "
                        "(models/HISTORY.md, Faint boxes)")
    p.add_argument("--light", default=None, choices=list(LIGHTS),
                   help="read each photo relit in memory: dim (x0.4, sensor noise), warm (tungsten, no white "
                        "balance) or both (models/HISTORY.md, Dim and warm light)")
    p.add_argument("--from-afar", default=None, type=float, metavar="F",
                   help="read each photo as if taken from afar: scaled into the middle of a 12 MP frame of its "
                        f"own table colour, F of its width (e.g. 0.35); {_not_with('--from-afar')} "
                        "(models/HISTORY.md, Photos from afar)")
    p.add_argument("--blur", default=None, type=float, metavar="SIGMA",
                   help="read each photo blurred in memory: a Gaussian of SIGMA pixels of the photo as stored "
                        f"(e.g. 1.5); {_not_with('--blur')} (models/HISTORY.md, Blurred photos)")
    p.add_argument("--turn", default=None, type=float, metavar="DEG",
                   help="read each photo turned anticlockwise by DEG degrees in memory (e.g. 45; 0 saves it again "
                        f"only, the control); {_not_with('--turn')} (models/HISTORY.md, Cards at an angle)")
    p.add_argument("--oblique", default=None, type=float, metavar="DEG",
                   help="read each photo as if the camera were pitched DEG degrees further from above, the far "
                        f"side away (0 to 60, e.g. 30; 0 saves it again only, the control); {_not_with('--oblique')} "
                        "(models/HISTORY.md, Photos at a slant)")
    p.add_argument("--as-shows", action="store_true",
                   help="read each photo of 4 or 5 cards in view as the count reads a show: told it holds that "
                        "many, a card short of the line makes up the number and the least sure of one card more "
                        "is set aside; for --models only, so with --against models the paired difference is its "
                        "effect (models/README.md)")
    p.add_argument("--sheet", default=None, metavar="OUT.jpg", help="contact sheet of the failures (per set)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(handler=_run_eval)


def _numbers_or_none(text: str, flag: str, number: type, ok: Callable[[float], bool], what: str) -> tuple:
    """``text`` as comma-separated numbers (each read by ``number``, each passing ``ok``), or ``()``
    for ``"none"`` (the option off); anything else is refused naming ``flag`` and ``what`` to give."""
    if text.strip().lower() == "none":
        return ()
    try:
        values = tuple(number(part) for part in text.split(","))
    except ValueError:
        values = ()
    if not values or not all(ok(v) for v in values):
        raise CliError(f"{flag} {text!r}: give {what}, or none")
    return values


def _scene_count(text: str) -> int:
    """``--synth N``: how many held-out scenes to render, 0 (the default) for none."""
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"give a number of scenes, 0 or more, not {text!r}")
    return n


def _sizes(text: str) -> tuple[int, ...]:
    """``"608,736"`` -> (608, 736): the detector's long side in pixels, one size per look;
    ``"none"`` -> () (the main look only)."""
    return _numbers_or_none(text, "--second-looks", int, lambda size: size >= 32,
                            "sizes of 32 px or more, comma-separated, e.g. 608,736")


def _tilts(text: str) -> tuple[float, ...]:
    """``"-20,-10,10,20"`` -> (-20.0, -10.0, 10.0, 20.0): degrees, one tilted reading each;
    ``"none"`` -> () (no tilted readings)."""
    return _numbers_or_none(text, "--tilts", float, lambda degrees: -45 <= degrees <= 45,
                            "angles from -45 to 45 degrees, comma-separated, e.g. -20,-10,10,20")


def _number_or_none(text: str, flag: str, low: float, high: float, what: str) -> float | None:
    """``text`` as a number from ``low`` to ``high``, or ``None`` for ``"none"`` (the option off);
    anything else is refused naming ``flag`` and ``what`` to give."""
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise CliError(f"{flag} {text!r}: give {what}, or none")
    return value


def _margin(text: str) -> float | None:
    """``"0.4"`` -> 0.4, the wider crop's margin a side as a fraction of the index box; ``"none"`` -> None (off)."""
    return _number_or_none(text, "--wider-margin", 0, 2, "a fraction of the index box from 0 to 2, e.g. 0.4")


def _percentile(text: str) -> float | None:
    """``"99"`` -> 99.0, the percentile of each channel taken as the cards' white; ``"none"`` -> None (off)."""
    return _number_or_none(text, "--white-balance", 50, 100, "a percentile from 50 to 100, e.g. 99")


def _zoom_span(text: str) -> int | None:
    """``"608"`` -> 608, the zoomed look's long side in pixels; ``"none"`` -> None (no zoomed look)."""
    span = _number_or_none(text, "--zoom-look", 160, 2048, "a size in pixels from 160 to 2048, e.g. 608")
    return None if span is None else int(span)


def _faint_floor(text: str) -> float | None:
    """``"0.05"`` -> 0.05, the least detector score of a faint box read; ``"none"`` -> None (not read)."""
    return _number_or_none(text, "--faint-boxes", 0.05, 0.3, "a detector score from 0.05 to 0.3, e.g. 0.05")


def _run_eval(args: argparse.Namespace) -> int:
    import json
    import tempfile
    from dataclasses import replace

    from vision.evaluate import evaluate, failure_sheet, load_labelled, pooled, read_as_shows
    from training.made_over import WAYS
    from vision.recognizer import MODELS_DIR, Recognizer, RecognizerConfig, with_second_looks

    # Each way a photo is made over in memory before it is read (training.made_over): its flag, the
    # value given and the way. A light is one of the flag's choices already.
    ways = (("--light", args.light, WAYS["light"]), ("--from-afar", args.from_afar, WAYS["afar"]),
            ("--blur", args.blur, WAYS["blur"]), ("--turn", args.turn, WAYS["turn"]),
            ("--oblique", args.oblique, WAYS["oblique"]))
    given = [way for way in ways if way[1] is not None]
    for flag, value, way in given:
        if way.numeric:
            try:
                way.check(value)  # the module's own range, said under the flag's name
            except ValueError as e:
                raise CliError(f"{flag} {value:g}: {e}") from None
    if len(given) > 1:
        raise CliError(f"{' and '.join(way[0] for way in given)} make a photo over each in their own way: "
                       "give one of them")
    made, made_name = None, ""  # each photo made over in memory before it is read (at most one way)
    if given:
        _, value, way = given[0]
        made, made_name = way.over(value), ", " + way.name.format(value)
    config = RecognizerConfig()
    if args.second_looks is not None:
        config = replace(config, second_look_sizes=_sizes(args.second_looks))
    if args.wider_margin is not None:
        config = replace(config, wider_margin=_margin(args.wider_margin))
    if args.tilts is not None:
        config = replace(config, second_opinion_tilts=_tilts(args.tilts))
    if args.white_balance is not None:
        config = replace(config, white_percentile=_percentile(args.white_balance))
    if args.zoom_look is not None:
        config = replace(config, zoom_look_span=_zoom_span(args.zoom_look))
    if args.faint_boxes is not None:
        config = replace(config, faint_box_confidence=_faint_floor(args.faint_boxes))
    config = with_second_looks(config, always=args.always_look_again, whole=args.whole_second_looks)
    recognizer = Recognizer(args.models or MODELS_DIR, config)
    other = Recognizer(args.against) if args.against else None
    folders = [Path(f) for f in args.folders]
    default_real = Path(__file__).resolve().parent.parent.parent / "shared" / "photos" / "poker-cards-4"
    if not folders and not args.synth:
        if not default_real.is_dir():
            raise CliError(f"no folder given and {default_real} is missing")
        folders = [default_real]
    sets = [(str(f), load_labelled(f)) for f in folders]
    with tempfile.TemporaryDirectory() as tmp:
        if args.synth:
            from training.synth.cli import render_held_out

            sets.append((f"synthetic held-out decks ({args.synth} scenes)",
                         load_labelled(render_held_out(Path(tmp), args.synth, args.seed))))
        figures, read_both = [], []
        for k, (name, photos) in enumerate(sets):
            read, theirs = recognizer.recognize, other.recognize if other is not None else None
            if made is not None:
                read, theirs, name = made(read), made(theirs) if theirs is not None else None, name + made_name
            if args.as_shows:
                read, name = read_as_shows(read, photos), f"{name}, read as shows"
            report = evaluate(photos, read, name)
            figures.append(report.as_dict())
            if not args.json:
                print(report.table())
            if other is not None:
                old = evaluate(photos, theirs, name)
                read_both.append((report, old))
                figures[-1]["against"] = _paired(report, old, args.against, args.json)
            if args.sheet:
                out = Path(args.sheet) if len(sets) == 1 else Path(args.sheet).with_stem(f"{Path(args.sheet).stem}-{k}")
                n = failure_sheet(report, out)
                if not args.json:
                    print(f"  failures sheet      {out} ({n} photos)" if n else "  failures sheet      none to draw")
    if len(read_both) > 1:  # every set together: a deck's gain or loss over all of them
        name = f"all {len(read_both)} sets"
        together = pooled([new for new, _ in read_both], name), pooled([old for _, old in read_both], name)
        if not args.json:
            print(name)
        figures.append({"name": name, "pooled": True, "against": _paired(*together, args.against, args.json)})
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def _paired(new: EvalReport, old: EvalReport, against: str, quiet: bool) -> dict:
    """``new`` against ``old`` on the same photos, in all and deck by deck: printed unless
    ``quiet``, and returned for the JSON report."""
    from vision.evaluate import compare, compare_by_deck, deck_comparison_table

    diff, decks = compare(new, old, against), compare_by_deck(new, old, against)
    if not quiet:
        print(diff.table())
        if decks:
            print(deck_comparison_table(decks))
    return {**diff.as_dict(), "by_deck": {name: d.as_dict() for name, d in decks.items()}}


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

    from api.counting import count_detections
    from api.schemas import CountOut
    from scorer.cards import Card
    from scorer.muggins import parse_claim
    from vision.annotate import CardAnnotator
    from vision.image_io import not_a_file, read_photo
    from vision.starter import SURE, CardCountError, show_in_view

    if not Path(args.photo).is_file():
        raise CliError(not_a_file(Path(args.photo)))
    starter = Card.parse(args.starter) if args.starter else None
    claimed = parse_claim(args.claim) if args.claim is not None else None
    if args.annotate:
        _check_annotate_path(Path(args.annotate))
    recognizer = _photo_recognizer(args.models)
    photo = read_photo(args.photo, min_long_side=recognizer.config.min_long_side)
    detections = recognizer.recognize_photo(photo, show_in_view(starter))
    try:
        result = count_detections(detections, crib=args.crib, starter=starter, claim=claimed)
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
    p.set_defaults(handler=_run_serve)


def _port(text: str) -> int:
    """``"8000"`` -> 8000; anything but a TCP port is refused here, not by the socket's traceback."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, got {text!r}")
    return int(text)


def _run_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.main import create_app
    from api.settings import Settings, get_settings

    settings = Settings(models_dir=Path(args.models)) if args.models else get_settings()
    uvicorn.run(create_app(settings), host=args.host, port=args.port)
    return 0


@command
def _register_synth(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="render labelled synthetic photos of cribbage hands",
                       description="Synthetic table photos of card hands with labels, as an Ultralytics "
                                   "detect set (yolo/) and classifier crops (cls/).")
    from training.synth.cli import add_arguments

    add_arguments(p)
    p.set_defaults(handler=_run_synth)


def _run_synth(args: argparse.Namespace) -> int:
    from training.synth.cli import run

    return run(args)


def main(argv: Sequence[str] | None = None) -> int:
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
