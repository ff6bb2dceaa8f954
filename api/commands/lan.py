"""`cribcount serve --lan`: the machine's address on the local network, and the QR code of its URL.

A player runs the service on a laptop and opens the page on a phone on the same Wi-Fi; typing an IP
address on a phone is where that goes wrong, so the terminal shows a code for the phone's camera.
"""

from __future__ import annotations

import io
import ipaddress
import os
import socket

import segno

UNROUTED_PROBE = ("10.255.255.255", 1)
"""A private address no one answers on: connecting a UDP socket to it sends nothing, but makes the
system choose the interface, and so the address, that the local network reaches this machine at."""


def lan_address() -> str | None:
    """The IPv4 address the local network reaches this machine at; None when it is on no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(UNROUTED_PROBE)
        except OSError:  # no route at all: no interface but loopback is up
            return None
        address = probe.getsockname()[0]
    return address if is_lan_address(address) else None


def is_lan_address(address: str) -> bool:
    """Whether a phone could reach this address: not loopback, not 0.0.0.0, not a link-local fallback
    (169.254.x.x: what a machine gives itself when no network handed it an address)."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def page_url(host: str, port: int) -> str:
    """The page's address as a phone opens it: plain HTTP, the port always named."""
    return f"http://{host}:{port}/"


HALF_BLOCK = "\u2580"
"""The upper half block: its foreground is a code's upper module, its background the one below."""
INK = {True: (30, 40), False: (97, 107)}
"""ANSI (foreground, background) colour of a dark and of a light module: black and bright white,
set explicitly so that the code reads the same on a light terminal as on a dark one."""


def qr_text(url: str, *, colour: bool = False) -> str:
    """The QR code of ``url`` as lines of Unicode half blocks, two modules a character, for a terminal.

    With ``colour``, each character draws its two modules in explicit ANSI black and white, right on
    any terminal's background. Without (the output is a file, or ``NO_COLOR`` is set), segno's plain
    half blocks: a block is a light module, a blank a dark one, right on a dark background. Medium
    error correction lets the camera read it through a screen's glare; the quiet zone is the
    standard four modules."""
    code = segno.make(url, error="m", micro=False)
    if not colour:
        out = io.StringIO()
        code.terminal(out=out, compact=True, border=4)
        return out.getvalue()
    rows = [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))  # the last row's lower half: more quiet zone
    lines = []
    for upper, lower in zip(rows[0::2], rows[1::2], strict=True):
        cells = (f"\033[{INK[top][0]};{INK[bottom][1]}m{HALF_BLOCK}"
                 for top, bottom in zip(upper, lower, strict=True))
        lines.append("".join(cells) + "\033[0m")
    return "\n".join(lines) + "\n"


def invitation(host: str, port: int, *, colour: bool = False) -> str:
    """What `serve --lan` prints before the server starts: where to go, and the code to get there
    (in colour for a terminal, :func:`qr_text`)."""
    url = page_url(host, port)
    return (f"On a phone on the same Wi-Fi, open {url}\nor point its camera at this code:\n\n"
            f"{qr_text(url, colour=colour)}\n")


def wants_colour(stream: object) -> bool:
    """Whether ``stream`` is a terminal that takes colour: a TTY, and ``NO_COLOR`` unset (no-color.org)."""
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")
