"""`cribcount peg`: human output, JSON shape, one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from api.cli import main

# The seeds' Alice-and-Bob play: pone 6, dealer 3 (see tests/test_pegging.py).
SEEDS_PLAY = "4H 7D 4D JH go 5S 7C 8C 9S go".split()


def test_peg_json_has_plays_and_totals(capsys):
    assert main(["peg", *SEEDS_PLAY, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"plays", "totals"}
    assert out["totals"] == {"pone": 6, "dealer": 3}
    assert len(out["plays"]) == len(SEEDS_PLAY)
    assert out["plays"][0] == {"player": "pone", "card": "4H", "count": 4, "points": 0, "reasons": []}
    assert out["plays"][4] == {"player": "pone", "card": None, "count": 25, "points": 0, "reasons": []}
    assert out["plays"][8] == {
        "player": "pone", "card": "9S", "count": 24, "points": 4,
        "reasons": [{"reason": "run of 3", "points": 3}, {"reason": "last card", "points": 1}],
    }


def test_peg_human_output_lists_plays_and_totals(capsys):
    assert main(["peg", *SEEDS_PLAY]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[-1] == "totals: pone 6, dealer 3"
    assert any("9S" in line and "run of 3 (3), last card (1)" in line for line in lines)
    assert "new count" in out
    assert [line.split()[1:3] for line in lines if line.split()[2:3] == ["go"]] == [
        ["pone", "go"], ["dealer", "go"],
    ]


def test_peg_partial_play_says_it_is_not_finished(capsys):
    assert main(["peg", "10H", "KD", "5C"]) == 0
    assert "not finished" in capsys.readouterr().out


@pytest.mark.parametrize(("tokens", "message"), [
    (["10H", "10D", "5C", "9S"], "position 4 (9S): count would be 34"),
    (["5H", "go"], "position 2 (go): dealer cannot say go at 5"),
    (["5H", "6D", "5H"], "position 3 (5H): 5H was already played at position 1"),
    (["5H", "1X"], "position 2 (1X): '1X' is not a card"),
    (["10H", "KD", "5C", "go", "4S", "go", "AD"], "position 4 (go): dealer said go at 25 holding AD"),
])
def test_peg_illegal_play_exits_2_with_one_line(capsys, tokens, message):
    assert main(["peg", *tokens]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("cribcount peg: error: ")
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_peg_without_cards_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["peg"])
    assert exited.value.code == 2


def test_peg_error_from_the_console_has_no_traceback():
    done = subprocess.run([sys.executable, "-m", "api.cli", "peg", "10H", "10D", "5C", "9S"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == ("cribcount peg: error: position 4 (9S): count would be 34, "
                                   "past 31; if dealer cannot play, write go here")
