"""`cribcount count`, `discard` and `eval`: photos read with the shipped models, and the discard advice."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from api.commands.base import CliError, command
from api.commands.typed import print_show

if TYPE_CHECKING:  # the runtime's types, imported when a command runs (so `--help` loads no OpenCV)
    from scorer.discard import Advice
    from vision.detections import Detection, Detections
    from vision.roles import PhotoCount, Roles


@command
def _register_count(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("count", help="count the show in a photo",
                       description="Find the cards in a photo of the show (the 4 hand or crib cards and the "
                                   "starter, face up), pick the starter from the layout, and print the "
                                   "cards, the itemized count and the spoken count.")
    p.add_argument("photo", help=f"photo of the cards ({PHOTO_FORMATS}; at most {PHOTO_LIMITS})")
    p.add_argument("--crib", action="store_true", help="count as the crib (a 4-card flush scores nothing)")
    p.add_argument("--starter", metavar="CARD",
                   help="the starter, e.g. 5C: needed when the photo shows only the 4 hand cards; "
                        "with 5 cards it overrides the layout")
    p.add_argument("--claim", metavar="N", help="the total the player claimed (0..29): muggins check")
    p.add_argument("--annotate", metavar="OUT.jpg",
                   help="write the photo with the cards boxed and labelled, the starter marked and the "
                        f"items listed ({IMAGE_OUT_RULE})")
    add_models_and_json(p, "/api/count")
    p.set_defaults(handler=_run_count)


PHOTO_FORMATS = "JPEG, PNG, WebP, HEIC or AVIF"
"""What :func:`vision.decode.decode_photo` reads (a test holds the help to it)."""
PHOTO_LIMITS = "100 MB and 120 megapixels"
""":data:`vision.decode.LOCAL`, spelled out so that ``--help`` needs no OpenCV (a test holds them equal)."""
MODELS_HELP = "folder with detector.onnx and classifier.onnx (default: the shipped models)"


def add_models_and_json(p: argparse.ArgumentParser, route: str) -> None:
    """The options every command that reads a photo ends with: other models, and the answer in the shape
    the HTTP ``route`` gives it (one shape for scripts, whichever they call)."""
    p.add_argument("--models", default=None, help=MODELS_HELP)
    p.add_argument("--json", action="store_true",
                   help=f"print one JSON object (the shape POST {route} returns)")


def photo_recognizer(models: str | None):
    """The ONNX recognizer; a missing model file raises ModelMissingError (an OSError: exit 2)."""
    from vision.config import MODELS_DIR
    from vision.pipeline import Recognizer

    return Recognizer(models or MODELS_DIR)


def decode_with_models(data: bytes, models: str | None):  # -> (Recognizer, Photo), imported lazily
    """The recognizer, and the photo file's ``data`` decoded for it (read and checked from its header
    first by :func:`vision.decode.check_photo_file`, so a bomb never waits for the models to load)."""
    from vision.decode import LOCAL, decode_photo

    recognizer = photo_recognizer(models)
    return recognizer, decode_photo(data, min_long_side=recognizer.config.min_long_side, limits=LOCAL)


IMAGE_OUT_SUFFIXES = (".jpg", ".jpeg", ".png")
IMAGE_OUT_RULE = "a .jpg or .png name in an existing folder"
"""The one rule for every image the CLI writes (``count --annotate``, ``eval --sheet``): a folder is
never made, so a mistyped path is refused rather than filled."""


def check_image_out(option: str, path: Path) -> None:
    """Refuse an image name OpenCV cannot write before any photo is read: finding that out after the
    recognizer's work would waste it, and OpenCV's own refusal is a traceback."""
    if path.suffix.lower() not in IMAGE_OUT_SUFFIXES or path.is_dir() or not path.parent.is_dir():
        raise CliError(f"{option} {path}: use {IMAGE_OUT_RULE}")


def _run_count(args: argparse.Namespace) -> int:
    import cv2

    from api.schemas import CountOut
    from scorer.cards import Card
    from scorer.muggins import parse_claim
    from vision.annotate import CardAnnotator
    from vision.decode import check_photo_file
    from vision.roles import CardCountError, count_photo, show_in_view

    # A bomb or a non-photo is refused from its header, before the models load.
    data = check_photo_file(args.photo)
    starter = Card.parse(args.starter) if args.starter else None
    claimed = parse_claim(args.claim) if args.claim is not None else None
    if args.annotate:
        check_image_out("--annotate", Path(args.annotate))
    recognizer, photo = decode_with_models(data, args.models)
    detections = recognizer.recognize_photo(photo, show_in_view(starter))
    try:
        result = count_photo(detections, crib=args.crib, starter=starter, claim=claimed)
    except CardCountError as exc:
        hint = " (--starter CARD)" if len(exc.cards) == 4 and starter is None else ""
        raise CliError(f"{exc}{hint}") from None
    if args.annotate:
        drawn = CardAnnotator().annotate_show(photo.image, result.roles.detections, result.show,
                                              scale=photo.scale)
        if not cv2.imwrite(args.annotate, drawn):  # its name was checked up front; a full disk, say
            raise CliError(f"could not write {args.annotate} (use {IMAGE_OUT_RULE})")
    if args.json:
        print(CountOut.from_count(result, photo.original_size).model_dump_json())
        return 0
    print_count(result)
    if args.annotate:
        print(f"Annotated photo: {args.annotate}")
    return 0


RETYPE_SHOW = "count the cards typed: cribcount score HAND STARTER"


def print_count(result: PhotoCount) -> None:
    """The human form of a photo's count: the cards seen, the starter and why, the show."""
    from vision.starter import SURE

    roles = result.roles
    print_cards_seen(roles.detections, RETYPE_SHOW, [aside_note(roles, d) for d in roles.set_aside])
    if roles.source == "given":
        print(f"Starter: {roles.starter} (named)")
    elif roles.confidence >= SURE:
        print(f"Starter: {roles.starter}, {roles.reason} ({roles.confidence:.0%} sure)")
    else:
        print(f"Starter: {roles.starter}? {roles.reason} ({roles.confidence:.0%} sure); "
              "if it is another card, name it with --starter CARD")
    print_show(result.show, result.claim)


def aside_note(roles: Roles, aside: Detection) -> str:
    """Why a card in the photo was left out of the count, and what to do if it belongs in it.

    One card too many is set aside as the least surely read: a likely misread. When every card read
    sure and the starter was named but is not among them, the likelier slip is the player's: the
    photo shows the starter too, and a card of the hand is what was set aside."""
    from vision.detections import CHECK_BELOW

    named = roles.source == "given"
    counted = [d for d in roles.detections if not (named and d.card == roles.starter)]
    seen = len(counted) + 1
    what = (f"{seen} cards seen besides the starter named ({roles.starter}), one too many for a hand of 4"
            if named else f"{seen} cards seen, one too many for a show of 5")
    head = f"Set aside: {aside.card} ({aside.confidence:.0%})"
    lines = [f"{head}: {what}, and {aside.card} the one read least surely"]
    all_sure = min(d.confidence for d in [*counted, aside]) >= CHECK_BELOW
    if named and all_sure and roles.starter not in roles.detections.cards:
        lines.append(f"  All {seen} read sure: if the starter is one of them, name that card with --starter "
                     "(or leave --starter out and the layout finds it)")
    lines.append(f"  If {aside.card} is one of the show, {RETYPE_SHOW}")
    return "\n".join(lines)


def print_cards_seen(detections: Detections, retype: str, notes: list[str] | None = None) -> None:
    """The cards read with their confidence, ``notes`` after them, and those to check, with ``retype``:
    how to give the cards typed if one is wrong."""
    print("Cards seen: " + ", ".join(f"{d.card} {d.confidence:.0%}" for d in detections))
    for note in notes or ():
        print(note)
    unsure = [f"{d.card} ({d.confidence:.0%})" for d in detections if d.to_check]
    if unsure:
        them = "it" if len(unsure) == 1 else "them"
        print(f"Check {', '.join(unsure)}: not sure of {them}; if one is wrong, {retype}")


@command
def _register_discard(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("discard", help="which cards to throw to the crib: every way to keep four, ranked",
                       description="Rank every way to keep four of the dealt cards by the hand's exact "
                                   "expected points over every starter plus (dealer) or minus (pone) the "
                                   "crib's exact expectation over every starter and every throw of the "
                                   "others.")
    p.add_argument("cards", nargs="*", metavar="CARD",
                   help="the dealt cards: 6 for two players, 5 for three or four")
    seat = p.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", action="store_const", const="dealer", dest="seat", help="the crib is yours")
    seat.add_argument("--pone", action="store_const", const="pone", dest="seat",
                      help="the crib is the dealer's")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                   help="players at the table (default 2)")
    p.add_argument("--photo", metavar="PHOTO",
                   help=f"read the dealt cards from a photo instead (any layout; {PHOTO_FORMATS})")
    p.add_argument("--uniform", action="store_true",
                   help="weigh every throw of the others alike, not by the shipped opponent model")
    add_models_and_json(p, "/api/discard")
    p.set_defaults(handler=_run_discard)


def _run_discard(args: argparse.Namespace) -> int:
    from api.discard_schemas import DiscardOut
    from scorer.cards import parse_cards
    from scorer.discard import advise
    from vision.dealt import DealtCountError, read_dealt

    model = "uniform" if args.uniform else "table"
    if args.photo and args.cards:
        raise CliError("give the dealt cards or --photo, not both")
    if not args.photo:
        advice = advise(parse_cards(args.cards), seat=args.seat, players=args.players, model=model)
        print(DiscardOut.from_advice(advice).model_dump_json() if args.json
              else "\n".join(advice_lines(advice)))
        return 0
    from vision.decode import check_photo_file

    recognizer, photo = decode_with_models(check_photo_file(args.photo), args.models)
    try:
        dealt = read_dealt(recognizer.recognize_photo(photo), args.players)
    except DealtCountError as exc:
        raise CliError(str(exc)) from None
    advice = advise(dealt.cards, seat=args.seat, players=args.players, model=model)
    if args.json:
        print(DiscardOut.from_advice(advice, dealt, photo.original_size).model_dump_json())
        return 0
    print_cards_seen(dealt.detections, "type the cards: cribcount discard CARD ... --dealer|--pone")
    print("\n".join(advice_lines(advice)))
    return 0


@command
def _register_eval(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure the recognizer on labelled photos",
                       description="Per-card and whole-photo accuracy (with 95% intervals), false cards "
                                   "and confusions on folders of labelled photos (images/ + cards.csv: "
                                   "file,cards). The lab's `python -m training eval` adds settings, other "
                                   "models and photos made over.")
    p.add_argument("folders", nargs="*", help=f"labelled folders (default: {DEFAULT_EVAL_SET})")
    p.add_argument("--models", default=None, help=MODELS_HELP)
    p.add_argument("--sheet", default=None, metavar="OUT.jpg",
                   help=f"contact sheet of the photos not fully right ({IMAGE_OUT_RULE}; with several "
                        "folders one sheet each, OUT-0.jpg, OUT-1.jpg, ...)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(handler=_run_eval)


DEFAULT_EVAL_SET = Path("..") / "shared" / "photos" / "poker-cards-4"


def sheet_paths(sheet: str | None, sets: int) -> list[Path | None]:
    """Where each set's failures sheet goes: ``OUT.jpg`` for one set, ``OUT-0.jpg``, ``OUT-1.jpg``...
    for several; checked here, before any photo is read, so that a bad name costs no evaluation."""
    if sheet is None:
        return [None] * sets
    out = Path(sheet)
    check_image_out("--sheet", out)
    return [out] if sets == 1 else [out.with_stem(f"{out.stem}-{k}") for k in range(sets)]


def _run_eval(args: argparse.Namespace) -> int:
    import json

    from vision.evaluate import evaluate, failure_sheet, load_labelled

    folders = [Path(f) for f in args.folders] or [DEFAULT_EVAL_SET]
    sets = [(str(f), load_labelled(f)) for f in folders]  # every folder checked before any is read
    sheets = sheet_paths(args.sheet, len(sets))
    recognizer = photo_recognizer(args.models)
    figures = []
    for (name, photos), sheet in zip(sets, sheets, strict=True):
        report = evaluate(photos, recognizer.recognize, name)
        figures.append(report.as_dict())
        if not args.json:
            print(report.table())
        if sheet is not None:
            n = failure_sheet(report, sheet)
            if not args.json:
                print(f"  failures sheet      {sheet} ({n} photos)" if n
                      else "  failures sheet      none to draw")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def advice_lines(advice: Advice, *, top: int = 3) -> list[str]:
    """The ranked choices as a plain-text table, best first, with reasons for the top ``top``."""
    from scorer.discard import ranks_text

    side = "hand + crib" if advice.seat == "dealer" else "hand - crib"
    lines = [(f"{advice.players} players, {advice.seat}; net = {side}; others' throws weighed by the "
              f"{advice.model} opponent model"),
             f"{'#':>2}  {'keep':<15} {'throw':<8} {'hand':>5} {'min':>3} {'max':>3} {'crib':>5} {'net':>6}"]
    for n, c in enumerate(advice.choices, 1):
        lines.append(f"{n:>2}  {' '.join(map(str, c.keep)):<15} {' '.join(map(str, c.throw)):<8} "
                     f"{c.hand.mean:5.2f} {c.hand.minimum:>3} {c.hand.maximum:>3} {c.crib:5.2f} {c.net:6.2f}")
    lines.append("")
    for n, c in enumerate(advice.choices[:top], 1):
        lines.append(f"{n}. throw {ranks_text(c.throw)}: {c.reason}")
    return lines
