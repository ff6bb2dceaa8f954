"""`cribcount serve --lan`: the machine's address on the local network, and the QR code of its URL.

A player runs the service on a laptop and opens the page on a phone on the same Wi-Fi; typing an IP
address on a phone is where that goes wrong, so the terminal shows a code for the phone's camera.
"""

from __future__ import annotations

import io
import ipaddress
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


def qr_text(url: str) -> str:
    """The QR code of ``url`` as lines of Unicode half blocks, two modules a character, for a terminal.

    A block is a light module, a blank a dark one: right on the dark background most terminals have.
    Medium error correction lets the camera read it through a screen's glare; the quiet zone is the
    standard four modules."""
    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=4)
    return out.getvalue()


def invitation(host: str, port: int) -> str:
    """What `serve --lan` prints before the server starts: where to go, and the code to get there."""
    url = page_url(host, port)
    return (f"On a phone on the same Wi-Fi, open {url}\nor point its camera at this code:\n\n"
            f"{qr_text(url)}\n")
