"""`cribcount`: the one console script (count, score, discard, referee, practice, peg, eval, serve;
synth is handed to the lab).

One module of :mod:`api.commands` per group of subcommands, each registered with
:func:`~api.commands.base.command`. Expected failures (bad cards, bad photos, illegal pegging)
raise :class:`CliError` or a ``ValueError`` subclass from the domain; :func:`main` turns them into
one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from api.commands import photo, practice, referee, serving, typed  # noqa: F401 - each registers its commands
from api.commands.base import COMMANDS, EXIT_BROKEN_PIPE, EXIT_USAGE, CliError, Handler
from api.commands.serving import LAB_COMMANDS, run_lab

__all__ = ["CliError", "build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit 2 (its default is also 2)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """Every subcommand's parser; each module of :mod:`api.commands` registered its own."""
    parser = _Parser(prog="cribcount", description="Count cribbage hands from typed cards or a photo, "
                                                   "choose the throw to the crib, score the play, and "
                                                   "practise counting.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for register in COMMANDS:
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit status (0, or 2 with one line on stderr for an expected failure)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in LAB_COMMANDS:
        try:
            return run_lab(argv)
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
