"""`cribcount practice` driven like a player at a terminal: through a pipe, and a pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from scorer.show import score_show

CLI = [sys.executable, "-c", "import sys; from api.cli import main; sys.exit(main())"]
PROMPT = "Your count> "
HAND = re.compile(r"^(Hand|Crib) (\d+): (.+?)   starter (\S+)$")


class Player:
    """``cribcount practice`` with its input and output on pipes, read a line at a time."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*CLI, "practice", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.seen: list[str] = []

    def until(self, pattern: str) -> str:
        """Read lines until one matches ``pattern``; returns it."""
        while True:
            line = self.proc.stdout.readline()
            assert line, f"output ended before {pattern!r}: {self.seen}"
            line = line.removeprefix(PROMPT)  # the prompt ends no line: the answer's verdict follows it
            self.seen.append(line.rstrip("\n"))
            if re.search(pattern, line):
                return line.rstrip("\n")

    def deal(self):
        """The next hand dealt, counted by the scorer: (show, line)."""
        line = self.until(r"^(Hand|Crib) \d+:")
        kind, _, hand, starter = HAND.match(line).groups()
        return score_show(hand, starter, crib=kind == "Crib"), line

    def say(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self) -> tuple[int, str]:
        """End the input (as Ctrl-D does) and read the rest: (exit code, stderr)."""
        self.proc.stdin.close()
        # Read through the same buffered file as `until` (communicate() would skip what it holds).
        self.seen.extend(self.proc.stdout.read().splitlines())
        err = self.proc.stderr.read()
        return self.proc.wait(timeout=30), err


def test_deals_reads_a_total_and_shows_what_was_missed():
    player = Player("--seed", "7", "--rounds", "2")
    show, _ = player.deal()
    wrong = show.total - 1 if show.total else show.total + 2
    player.say(str(wrong))
    verdict = player.until(r"^(Right!|Not quite\.)")
    assert verdict.startswith("Not quite.")
    player.until(rf"^  The count, {show.total}:")
    for item in show.items:  # every item of the true count is listed, with its cards
        player.until(rf"^    {item.kind}\s+{re.escape(' '.join(map(str, item.cards)))}\s")
    assert player.until(r"^Score ") == "Score 0/1, streak 0"

    show, _ = player.deal()
    player.say(str(show.total))
    assert player.until(r"^(Right!|Not quite\.)").startswith("Right! Correct")
    assert player.until(r"^Score ") == "Score 1/2, streak 1"
    code, err = player.finish()
    assert code == 0 and err == ""
    assert player.seen[-1] == "2 hands: 1 right, best streak 1."


def test_items_named_one_by_one_are_judged():
    player = Player("--seed", "3", "--rounds", "1")
    show, _ = player.deal()
    items = "; ".join(f"{i.kind} {' '.join(map(str, i.cards))}" for i in show.items) or "0"
    player.say(items)
    assert player.until(r"^(Right!|Not quite\.)").startswith("Right!")
    assert player.finish()[0] == 0


def test_the_same_seed_deals_the_same_hands():
    hands = []
    for _ in range(2):
        player = Player("--seed", "11", "--crib", "--level", "easy")
        hands.append(player.deal()[1])
        player.say("q")
        assert player.finish()[0] == 0
    assert hands[0] == hands[1]


def test_the_default_level_is_easy_as_on_the_page():
    player = Player("--seed", "4", "--rounds", "8")
    for _ in range(8):  # every count right, so no missed lesson brings a harder hand
        show, _ = player.deal()
        kinds = [item.kind for item in show.items]
        assert 2 <= show.total <= 8 and kinds.count("run") <= 1, show
        assert "flush" not in kinds and "nobs" not in kinds, show
        player.say(str(show.total))
    assert player.finish()[0] == 0


def test_a_slip_is_said_and_the_same_hand_asked_again():
    player = Player("--seed", "5", "--rounds", "1")
    player.deal()
    player.say("15 with ZZ")
    assert "'ZZ' in '15 with ZZ' is not a card" in player.until(r"\? ")
    player.say("q")
    code, _ = player.finish()
    assert code == 0
    assert player.seen[-1] == "No hands counted."


def test_end_of_input_stops_with_a_summary():
    done = subprocess.run([*CLI, "practice", "--seed", "1"], input="", capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 0
    assert done.stdout.rstrip().endswith("No hands counted.")


@pytest.mark.parametrize(("args", "message"), [
    (["--level", "hard"], "argument --level: invalid choice: 'hard'"),
    (["--rounds", "0"], "argument --rounds: expected a whole number of hands, 1 or more, got '0'"),
])
def test_bad_options_are_one_line_and_exit_2(args, message):
    done = subprocess.run([*CLI, "practice", *args], input="", capture_output=True, text=True,
                          timeout=30, check=False)
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_in_a_terminal():
    fd, terminal = pty.openpty()
    proc = subprocess.Popen([*CLI, "practice", "--seed", "2", "--rounds", "1"], stdin=terminal,
                            stdout=terminal, stderr=terminal, close_fds=True)
    os.close(terminal)
    seen = b""

    def read_until(pattern: bytes) -> bytes:
        nonlocal seen
        deadline = time.monotonic() + 30
        while not re.search(pattern, seen) and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    seen += os.read(fd, 4096)
                except OSError:  # the child closed the terminal
                    break
        return seen

    read_until(rb"Your count> ")
    hand = re.search(rb"(Hand|Crib) 1: (.+?)   starter (\S+)", seen)
    show = score_show(hand.group(2).decode(), hand.group(3).decode(), crib=hand.group(1) == b"Crib")
    os.write(fd, f"{show.total}\n".encode())
    read_until(rb"best streak \d+\.")
    assert proc.wait(timeout=30) == 0
    os.close(fd)
    assert b"Right! Correct" in seen and b"1 hand: 1 right, best streak 1." in seen
