"""What every `cribcount` command shares: the registry, the expected-failure error, exit codes."""

from __future__ import annotations

import argparse
from collections.abc import Callable

EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 141
"""What a shell reports for a command stopped by SIGPIPE (128 + 13): the reader of its output left."""


class CliError(Exception):
    """An expected failure: printed as one line, exit code 2."""


Handler = Callable[[argparse.Namespace], int | None]


# Each entry adds one subparser and sets `handler` on it.
COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = []


def command(register: Callable[[argparse._SubParsersAction], None]):
    """Decorator: add a subcommand's registration function to the CLI."""
    COMMANDS.append(register)
    return register
