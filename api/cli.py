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
