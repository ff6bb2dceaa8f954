"""`python -m training eval`: the recognizer measured with other settings, other models and photos
made over in memory (dim, warm, from afar, blurred, turned, at a slant), rendered held-out decks
included, deck by deck; `cribcount eval` is its plain runtime form.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from api.commands.photo import DEFAULT_EVAL_SET
from training.eval.compare import (
    breakdown_dict,
    breakdown_table,
    compare,
    compare_by_deck,
    deck_comparison_table,
    pooled,
    read_as_shows,
)
from training.eval.light import LIGHTS
from training.eval.made_over import WAYS
from training.synth.cli import render_held_out
from vision.config import MODELS_DIR, RecognizerConfig
from vision.evaluate import EvalReport, evaluate, failure_sheet, load_labelled
from vision.pipeline import Recognizer, always_looking_again


class EvalError(ValueError):
    """A bad option value: one line on stderr, exit 2."""


MADE_OVER_FLAGS = ("--light", "--from-afar", "--blur", "--turn", "--oblique")
"""The ways ``cribcount eval`` makes each photo over in memory before it is read: one at a time."""


def _not_with(flag: str) -> str:
    """The help's note that ``flag`` takes none of the other ways a photo is made over."""
    others = [f for f in MADE_OVER_FLAGS if f != flag]
    return f"not with {', '.join(others[:-1])} or {others[-1]}"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m training eval",
        description="Per-card and whole-photo accuracy, false cards and confusions on labelled photo "
                    "folders (images/ + cards.csv, or synth JSON labels); rendered scenes also by deck, by "
                    "layout and by cards in view.")
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
                        "608,736), or none for one look; for --models only (docs/experiments, Second looks "
                        "at other sizes); with --against models, the paired difference is their effect")
    p.add_argument("--always-look-again", action="store_true",
                   help="take the second looks at every photo, not only where the main look leaves doubt "
                        "(a card below 0.999, or none); for --models only (models/README.md)")
    p.add_argument("--whole-second-looks", action="store_true",
                   help="second looks at the whole photo, every box they find read again (an earlier "
                        "release), not only around the cards, the unsure indices; for --models only "
                        "(models/README.md)")
    p.add_argument("--white-balance", default=None, metavar="P",
                   help="scale each channel so its P-th percentile is the cards' white (shipped: 99), or "
                        "none to read photos as decoded; for --models only (docs/experiments, Dim and warm "
                        "light)")
    p.add_argument("--zoom-look", default=None, metavar="PX",
                   help="with the second looks, also see the cards' region alone at this many pixels where "
                        "they are a small part of the photo (shipped: 608), or none for the whole-photo "
                        "looks only; for --models only (docs/experiments, Photos from afar)")
    p.add_argument("--light", default=None, choices=list(LIGHTS),
                   help="read each photo relit in memory: dim (x0.4, sensor noise), warm (tungsten, no white "
                        "balance) or both (docs/experiments, Dim and warm light)")
    p.add_argument("--from-afar", default=None, type=float, metavar="F",
                   help="read each photo as if taken from afar: scaled into the middle of a 12 MP frame of "
                        f"its own table colour, F of its width (e.g. 0.35); {_not_with('--from-afar')} "
                        "(docs/experiments, Photos from afar)")
    p.add_argument("--blur", default=None, type=float, metavar="SIGMA",
                   help="read each photo blurred in memory: a Gaussian of SIGMA pixels of the photo as "
                        f"stored (e.g. 1.5); {_not_with('--blur')} (docs/experiments, Blurred photos)")
    p.add_argument("--turn", default=None, type=float, metavar="DEG",
                   help="read each photo turned anticlockwise by DEG degrees in memory (e.g. 45; 0 saves it "
                        f"again only, the control); {_not_with('--turn')} (docs/experiments, Cards at an "
                        "angle)")
    p.add_argument("--oblique", default=None, type=float, metavar="DEG",
                   help="read each photo as if the camera were pitched DEG degrees further from above, the "
                        "far side away (0 to 60, e.g. 30; 0 saves it again only, the control); "
                        f"{_not_with('--oblique')} (docs/experiments, Photos at a slant)")
    p.add_argument("--as-shows", action="store_true",
                   help="read each photo of 4 or 5 cards in view as the count reads a show: told it holds "
                        "that many, a card short of the line makes up the number and the least sure of one "
                        "card more is set aside; for --models only, so with --against models the paired "
                        "difference is its effect (models/README.md)")
    p.add_argument("--sheet", default=None, metavar="OUT.jpg", help="contact sheet of the failures (per set)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    return p


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
        raise EvalError(f"{flag} {text!r}: give {what}, or none")
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


def _number_or_none(text: str, flag: str, low: float, high: float, what: str) -> float | None:
    """``text`` as one number from ``low`` to ``high``, or ``None`` for ``"none"`` (the option off);
    anything else is refused naming ``flag`` and ``what`` to give (:func:`_numbers_or_none`)."""
    values = _numbers_or_none(text, flag, float, lambda value: low <= value <= high, what)
    if len(values) > 1:
        raise EvalError(f"{flag} {text!r}: give {what}, or none")
    return values[0] if values else None


def _percentile(text: str) -> float | None:
    """``"99"`` -> 99.0, the percentile of each channel taken as the cards' white; ``"none"`` -> None
    (off)."""
    return _number_or_none(text, "--white-balance", 50, 100, "a percentile from 50 to 100, e.g. 99")


def _zoom_span(text: str) -> int | None:
    """``"608"`` -> 608, the zoomed look's long side in pixels; ``"none"`` -> None (no zoomed look)."""
    span = _number_or_none(text, "--zoom-look", 160, 2048, "a size in pixels from 160 to 2048, e.g. 608")
    return None if span is None else int(span)


def _run_eval(args: argparse.Namespace) -> int:

    # Each way a photo is made over in memory before it is read (training.eval.made_over): its flag, the
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
                raise EvalError(f"{flag} {value:g}: {e}") from None
    if len(given) > 1:
        raise EvalError(f"{' and '.join(way[0] for way in given)} make a photo over each in their own way: "
                       "give one of them")
    made, made_name = None, ""  # each photo made over in memory before it is read (at most one way)
    if given:
        _, value, way = given[0]
        made, made_name = way.over(value), ", " + way.name.format(value)
    config = RecognizerConfig()
    if args.second_looks is not None:
        config = replace(config, second_look_sizes=_sizes(args.second_looks))
    if args.white_balance is not None:
        config = replace(config, white_percentile=_percentile(args.white_balance))
    if args.zoom_look is not None:
        config = replace(config, zoom_look_span=_zoom_span(args.zoom_look))
    if args.always_look_again:
        config = always_looking_again(config)
    if args.whole_second_looks:
        config = replace(config, second_look_window=0.0, second_reading_below=math.inf)
    recognizer = Recognizer(args.models or MODELS_DIR, config)
    other = Recognizer(args.against) if args.against else None
    folders = [Path(f) for f in args.folders]
    if not folders and not args.synth:
        folders = [DEFAULT_EVAL_SET]
    sets = [(str(f), load_labelled(f)) for f in folders]
    with tempfile.TemporaryDirectory() as tmp:
        if args.synth:
            sets.append((f"synthetic held-out decks ({args.synth} scenes)",
                         load_labelled(render_held_out(Path(tmp), args.synth, args.seed))))
        figures, read_both = [], []
        for k, (name, photos) in enumerate(sets):
            read, theirs = recognizer.recognize, other.recognize if other is not None else None
            if made is not None:
                read, name = made(read), name + made_name
                theirs = made(theirs) if theirs is not None else None
            if args.as_shows:
                read, name = read_as_shows(read, photos), f"{name}, read as shows"
            report = evaluate(photos, read, name)
            figures.append({**report.as_dict(), **breakdown_dict(report)})
            if not args.json:
                print("\n".join(filter(None, [report.table(), breakdown_table(report)])))
            if other is not None:
                old = evaluate(photos, theirs, name)
                read_both.append((report, old))
                figures[-1]["against"] = _paired(report, old, args.against, args.json)
            if args.sheet:
                sheet = Path(args.sheet)
                out = sheet if len(sets) == 1 else sheet.with_stem(f"{sheet.stem}-{k}")
                n = failure_sheet(report, out)
                if not args.json:
                    print(f"  failures sheet      {out} ({n} photos)" if n
                          else "  failures sheet      none to draw")
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
    diff, decks = compare(new, old, against), compare_by_deck(new, old, against)
    if not quiet:
        print(diff.table())
        if decks:
            print(deck_comparison_table(decks))
    return {**diff.as_dict(), "by_deck": {name: d.as_dict() for name, d in decks.items()}}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _run_eval(args)
    except (ValueError, OSError) as exc:
        print(f"python -m training eval: error: {exc}", file=sys.stderr)
        return 2
