"""`cribcount serve`, and the lab's commands handed to ``python -m training``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from api.commands import lan
from api.commands.base import CliError, command
from api.commands.photo import MODELS_HELP
from scorer.typed import whole_number


@command
def _register_serve(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the HTTP API and the phone page (uvicorn)",
                       description="Serve the phone page at / and the API under /api (docs at /docs). "
                                   "The models load once at start-up; without them the photo routes "
                                   "answer 503.")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the network in)")
    where.add_argument("--lan", action="store_true",
                       help="listen on this machine's address on the local network, and print the page's "
                            "URL and a QR code of it for a phone on the same Wi-Fi")
    p.add_argument("--port", type=_port, default=8000, help="port, 1 to 65535 (default 8000)")
    p.add_argument("--models", default=None, help=MODELS_HELP)
    p.add_argument("--workers", type=_workers, default=1,
                   help="server processes (default 1: one already uses every core, through its photo worker "
                        "processes; more keep the service up if one fails; see docs/deploy.md)")
    p.set_defaults(handler=_run_serve)


def _workers(text: str) -> int:
    """``"2"`` -> 2 server processes; refused here with the range, not by uvicorn."""
    number = whole_number(text)
    if number is None or not 1 <= number <= 64:
        raise argparse.ArgumentTypeError(f"a number of processes from 1 to 64, got {text!r}")
    return number


def _port(text: str) -> int:
    """``"8000"`` -> 8000; anything but a TCP port is refused here, not by the socket's traceback."""
    number = whole_number(text)
    if number is None or not 1 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number from 1 to 65535, got {text!r}")
    return number


def _run_serve(args: argparse.Namespace) -> int:
    import errno
    import socket

    from api.server import serve
    from api.settings import Settings

    if args.lan:
        args.host = _lan_host()
    try:  # a busy port is one line here, not uvicorn's six of log and traceback
        with socket.create_server((args.host, args.port)):
            pass
    except OSError as exc:
        busy = exc.errno == errno.EADDRINUSE
        why = "another server is there; choose another --port" if busy else exc.strerror
        raise CliError(f"cannot listen on {args.host}:{args.port}: {why}") from None
    # The app is named, not handed over, so that each worker process builds its own (uvicorn starts
    # processes by import string); its settings come from the environment they inherit.
    if args.models:
        os.environ["CRIBCOUNT_MODELS"] = str(Path(args.models).resolve())
    os.environ["CRIBCOUNT_SERVER_PROCESSES"] = str(args.workers)
    if args.lan:  # once the address is known to be free, before uvicorn's log
        print(lan.invitation(args.host, args.port, colour=lan.wants_colour(sys.stdout)), flush=True)
    serve("api.main:create_app", args.host, args.port, args.workers, Settings.from_env())
    return 0


def _lan_host() -> str:
    """The address `--lan` listens on; a machine on no network is told so, not bound to loopback."""
    address = lan.lan_address()
    if address is None:
        raise CliError("no local network address: connect this machine to the phone's Wi-Fi, "
                       "or choose an address with --host")
    return address


LAB_COMMANDS = {"synth": "render labelled synthetic photos of cribbage hands (the lab's synthetic engine)"}
"""Commands the lab package (``training/``) runs: handed to ``python -m training`` in a process of
their own, so the runtime never imports the lab (git hands ``git foo`` to ``git-foo`` the same way)."""

LAB_MODULES = ("cairosvg", "tqdm")
"""What the lab's commands import beyond the runtime: the ``synth`` extra (the ``train`` extra has it)."""
LAB_INSTALL = "pip install -e \".[synth]\" (or \".[train]\")"


@command
def _register_lab(sub: argparse._SubParsersAction) -> None:
    for name, about in LAB_COMMANDS.items():
        sub.add_parser(name, help=f"{about}; see python -m training {name} --help", add_help=False)


def run_lab(argv: list[str]) -> int:
    """``cribcount synth ARGS`` -> ``python -m training synth ARGS``, its exit status passed on.

    A runtime install lacks the lab or its extra: that is one line saying how to install them, before
    a process is started, where the lab's own import would end in a traceback."""
    import importlib.util
    import subprocess

    if importlib.util.find_spec("training") is None:
        raise CliError(f"{argv[0]} needs the lab package (training/): run it from a checkout installed "
                       f"with {LAB_INSTALL}")
    missing = [name for name in LAB_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise CliError(f"{argv[0]} needs the lab's extra ({', '.join(missing)} missing): {LAB_INSTALL}")
    return subprocess.call([sys.executable, "-m", "training", *argv])
