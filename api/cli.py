"""`cribcount`: the one console script (count, score, peg, synth, eval, serve).

One function per subcommand, registered in :func:`build_parser`. Expected failures
(bad cards, bad photos, illegal pegging) raise :class:`CliError` or a ``ValueError``
subclass from the domain; :func:`main` turns them into one line on stderr and exit
code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

EXIT_USAGE = 2


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
def _register_eval(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help="measure the recognizer on labelled photos",
                       description="Per-card and whole-photo accuracy, false cards and confusions on "
                                   "labelled photo folders (images/ + cards.csv, or synth JSON labels).")
    p.add_argument("folders", nargs="*", help="labelled folders (default: ../shared/photos/poker-cards-4)")
    p.add_argument("--synth", type=int, default=0, metavar="N",
                   help="also render N scenes of held-out decks and measure on them")
    p.add_argument("--seed", type=int, default=12345, help="seed for --synth scenes")
    p.add_argument("--models", default=None, help="folder with detector.onnx and classifier.onnx")
    p.add_argument("--sheet", default=None, metavar="OUT.jpg", help="contact sheet of the failures (per set)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(handler=_run_eval)


def _run_eval(args: argparse.Namespace) -> int:
    import json
    import tempfile
    from pathlib import Path

    from vision.evaluate import evaluate, failure_sheet, load_labelled
    from vision.recognizer import MODELS_DIR, Recognizer

    recognizer = Recognizer(args.models or MODELS_DIR)
    folders = [Path(f) for f in args.folders]
    default_real = Path(__file__).resolve().parent.parent.parent / "shared" / "photos" / "poker-cards-4"
    if not folders and not args.synth:
        if not default_real.is_dir():
            raise CliError(f"no folder given and {default_real} is missing")
        folders = [default_real]
    sets = [(str(f), load_labelled(f)) for f in folders]
    with tempfile.TemporaryDirectory() as tmp:
        if args.synth:
            from vision.synth.cli import render_held_out

            sets.append((f"synthetic held-out decks ({args.synth} scenes)",
                         load_labelled(render_held_out(Path(tmp), args.synth, args.seed))))
        reports = []
        for k, (name, photos) in enumerate(sets):
            report = evaluate(photos, recognizer.recognize, name)
            reports.append(report)
            if not args.json:
                print(report.table())
            if args.sheet:
                out = Path(args.sheet) if len(sets) == 1 else Path(args.sheet).with_stem(f"{Path(args.sheet).stem}-{k}")
                n = failure_sheet(report, out)
                if not args.json:
                    print(f"  failures sheet      {out} ({n} photos)" if n else "  failures sheet      none to draw")
    if args.json:
        print(json.dumps([r.as_dict() for r in reports], indent=2))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return int(handler(args) or 0)
    except (CliError, ValueError, OSError) as exc:
        print(f"cribcount {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
