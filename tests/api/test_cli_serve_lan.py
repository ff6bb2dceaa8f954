"""`cribcount serve --lan`: it listens on the machine's LAN address and prints the page's URL and a QR
code that a phone's camera reads as that URL; a machine on no network is one line and exit 2."""

import io
import re
import socket

import cv2
import numpy as np
import pytest

import api.commands.lan
from api.cli import main
from api.commands.lan import is_lan_address, lan_address, qr_text

HALF_BLOCKS = {"█": (255, 255), "▀": (255, 0), "▄": (0, 255), " ": (0, 0)}
"""A printed character as its (top, bottom) modules: a block is a light module, as on a dark terminal."""


def printed_code(text: str) -> np.ndarray:
    """The QR code's half-block lines back to a grey image, each module 8 pixels: what a camera sees."""
    lines = [line for line in text.splitlines() if line and set(line) <= set(HALF_BLOCKS)]
    width = max(len(line) for line in lines)
    rows = []
    for line in lines:
        halves = [HALF_BLOCKS[char] for char in line.ljust(width)]
        rows += [[top for top, _ in halves], [bottom for _, bottom in halves]]
    modules = np.array(rows, dtype=np.uint8)
    framed = np.pad(modules, 4, constant_values=255)  # the terminal's light page around it
    return cv2.resize(framed, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)


def decoded(text: str) -> str:
    found, _, _ = cv2.QRCodeDetector().detectAndDecode(printed_code(text))
    return found


COLOURED = re.compile(r"\x1b\[(\d+);(\d+)m\u2580")


def painted_code(text: str, page: int) -> np.ndarray:
    """The coloured code's lines back to a grey image on a terminal whose page is ``page`` (0 dark,
    255 light): each half block's foreground is its upper module, its background the lower one."""
    rows = []
    for line in text.splitlines():
        cells = [(int(fg), int(bg)) for fg, bg in COLOURED.findall(line)]
        if cells:
            rows.append([255 if fg == 97 else 0 for fg, _ in cells])
            rows.append([255 if bg == 107 else 0 for _, bg in cells])
    framed = np.pad(np.array(rows, dtype=np.uint8), 4, constant_values=page)
    return cv2.resize(framed, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)


def free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        return probe.getsockname()[1]


@pytest.fixture
def served(monkeypatch):
    """The server recorded, not started: what `serve` would listen on."""
    import api.server

    ran = {}
    for name in ("CRIBCOUNT_MODELS", "CRIBCOUNT_SERVER_PROCESSES"):  # restored after the test
        monkeypatch.setenv(name, "")
    monkeypatch.setattr(api.server, "serve", lambda app, host, port, *_: ran.update(host=host, port=port))
    return ran


def test_the_printed_code_reads_as_the_url_it_encodes():
    url = "http://192.168.1.20:8000/"
    assert decoded(qr_text(url)) == url


def test_the_coloured_code_reads_alike_on_a_light_terminal_and_a_dark_one():
    url = "http://192.168.1.20:8000/"
    for page in (0, 255):
        found, _, _ = cv2.QRCodeDetector().detectAndDecode(painted_code(qr_text(url, colour=True), page))
        assert found == url, f"page {page}"


def test_colour_goes_to_a_terminal_only_and_never_when_no_color_is_set(monkeypatch):
    class Terminal:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert api.commands.lan.wants_colour(Terminal()) and not api.commands.lan.wants_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not api.commands.lan.wants_colour(Terminal())


def test_lan_listens_on_the_lan_address_and_prints_its_url_and_a_code_for_it(monkeypatch, served, capsys):
    # The address a LAN would give is not on this test machine; loopback stands in for it, so the
    # port can really be checked free.
    monkeypatch.setattr(api.commands.lan, "lan_address", lambda: "127.0.0.1")
    port = free_port()
    assert main(["serve", "--lan", "--port", str(port)]) == 0
    assert served == {"host": "127.0.0.1", "port": port}
    out = capsys.readouterr().out
    url = f"http://127.0.0.1:{port}/"
    assert re.search(rf"open {re.escape(url)}$", out, re.MULTILINE)
    assert decoded(out) == url


def test_lan_on_a_machine_on_no_network_says_so_in_one_line(monkeypatch, served, capsys):
    monkeypatch.setattr(api.commands.lan, "lan_address", lambda: None)
    assert main(["serve", "--lan"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no local network address" in err and "--host" in err
    assert served == {}


def test_lan_and_host_together_are_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--lan", "--host", "0.0.0.0"])
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("address", ["192.168.1.20", "10.0.0.7", "172.16.4.2", "203.0.113.9"])
def test_a_network_address_is_one_a_phone_can_reach(address):
    assert is_lan_address(address)


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.1.1", "0.0.0.0", "169.254.10.3"])
def test_loopback_unspecified_and_link_local_addresses_are_not(address):
    assert not is_lan_address(address)


def test_no_route_means_no_lan_address(monkeypatch):
    def unreachable(self, address):
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(socket.socket, "connect", unreachable)
    assert lan_address() is None


def test_the_address_the_route_leaves_from_is_the_lan_address(monkeypatch):
    monkeypatch.setattr(socket.socket, "connect", lambda self, address: None)
    monkeypatch.setattr(socket.socket, "getsockname", lambda self: ("192.168.1.20", 50000))
    assert lan_address() == "192.168.1.20"
