"""`cribcount score`: human and JSON output, muggins claims, and one-line errors (exit 2)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from show_reference import reference_count

from api.cli import main
from scorer.cards import FULL_DECK

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def score_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, "")
    return json.loads(out)


def test_json_has_every_field(capsys: pytest.CaptureFixture[str]) -> None:
    result = score_json(capsys, "5H", "5D", "5S", "JC", "--starter", "5C")
    assert result["total"] == 29
    assert result["hand"] == ["5D", "5H", "5S", "JC"] and result["starter"] == "5C"
    assert result["crib"] is False and result["his_heels"] == 0
    assert len(result["items"]) == 15
    assert result["items"][0] == {"kind": "fifteen", "cards": ["5C", "JC"], "points": 2}
    assert result["items"][-1] == {"kind": "nobs", "cards": ["JC"], "points": 1}
    assert result["announcement"].endswith("and one for his nobs is twenty-nine")
    assert "claim" not in result


def test_a_fifth_card_without_starter_is_the_starter(capsys: pytest.CaptureFixture[str]) -> None:
    assert score_json(capsys, "5H", "5D", "5S", "JC", "5C") == score_json(
        capsys, "5H", "5D", "5S", "JC", "--starter", "5C")


def test_crib_and_his_heels(capsys: pytest.CaptureFixture[str]) -> None:
    result = score_json(capsys, "2H", "4H", "6H", "8H", "JS", "--crib")
    assert (result["crib"], result["total"], result["his_heels"]) == (True, 0, 2)
    assert result["announcement"] == "Nineteen (no score)"


def test_five_card_cribbage(capsys: pytest.CaptureFixture[str]) -> None:
    result = score_json(capsys, "2C", "3D", "4H", "4S", "--five-card")
    assert (result["total"], result["hand"], result["five_card"]) == (8, ["2C", "3D", "4H"], True)


def test_claim_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    claim = score_json(capsys, "5H", "5D", "5S", "JC", "5C", "--claim", "28")["claim"]
    assert claim["claimed"] == 28 and claim["verdict"] == "under-claimed" and claim["difference"] == 1
    assert claim["missed"] == [{"kind": "nobs", "cards": ["JC"], "points": 1}]
    assert score_json(capsys, "5H", "5D", "5S", "JC", "5C", "--claim", "29")["claim"]["verdict"] == "correct"
    over = score_json(capsys, "5H", "5D", "5S", "JC", "5C", "--claim", "0")["claim"]
    assert (over["verdict"], over["difference"]) == ("under-claimed", 29)


def test_human_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "8H", "7C", "7D", "6S", "AS", "--claim", "14")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Hand 6S 7C 7D 8H, starter AS"
    rows = [line.split() for line in lines if line.startswith("  ")]
    assert ["fifteen", "AS", "6S", "8H", "2", "AS", "(1)", "+", "6S", "+", "8H", "make", "15"] in rows
    assert ["run", "6S", "7C", "8H", "3"] == rows[5][:5]
    assert " ".join(rows[5][5:]) == "6S 7C 8H are in sequence: a run of three, 1 a card"
    assert len(rows) == 7 + 1  # seven items, then the claim's candidates
    assert "Total: 16" in lines
    assert ("Count: Fifteen two, fifteen four, fifteen six, fifteen eight, "
            "and a double run of three is sixteen") in lines
    assert any(line.startswith("Claim 14: Under-claimed by 2") for line in lines)
    assert "His heels" not in out


def test_human_output_his_heels_and_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "2H", "4C", "6D", "8S", "JH")
    assert code == 0
    assert "  nothing scores" in out and "Total: 0" in out and "Count: Nineteen (no score)" in out
    assert "His heels: 2 to the dealer" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["5H", "5D", "5S", "JC", "XX"], "'XX' is not a card"),
        (["5H", "5D", "5S", "1X", "5C"], "'1X' is not a card"),
        (["5H", "5D", "5H", "JC", "5C"], "5H is given twice"),
        (["5H", "5D", "5S", "JC", "--starter", "JC"], "JC is given twice"),
        (["5H", "5D", "5S"], "expected 4 hand cards and a starter (5 cards, or 4 with --starter), got 3"),
        (["5H", "5D", "5S", "JC", "5C", "6C"], "got 6"),
        (["5H", "5D", "5S", "JC", "5C", "--starter", "6C"], "got 5"),
        (["5H", "5D", "5S", "JC", "5C", "--five-card"], "expected 3 hand cards"),
        (["5H", "5D", "5S", "JC", "--crib"], "expected 4 crib cards"),
        (["5H", "5D", "5S", "JC", "5C", "--claim", "-1"], "a claim is a whole number from 0 to 29, got '-1'"),
        (["5H", "5D", "5S", "JC", "5C", "--claim", "30"], "got '30'"),
        (["5H", "5D", "5S", "JC", "5C", "--claim", "abc"], "got 'abc'"),
        (["5H", "5D", "5S", "JC", "5C", "--claim", "2.5"], "got '2.5'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("cribcount score: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [[], ["5H", "5D", "5S", "JC", "5C", "--bogus"], ["5H", "--claim"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", *argv])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err


def test_json_totals_agree_with_the_reference_counter(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(121)
    for crib in (False, True):
        for _ in range(1500):
            cards = rng.sample(FULL_DECK, 5)
            argv = [str(c) for c in cards] + (["--crib"] if crib else [])
            result = score_json(capsys, *argv)
            assert result["total"] == reference_count(tuple(cards[:4]), cards[4], crib), argv
            assert sum(item["points"] for item in result["items"]) == result["total"]


def _cribcount() -> list[str]:
    script = Path(sys.executable).parent / "cribcount"
    return [str(script)] if script.exists() else [sys.executable, "-m", "api.cli"]


def test_real_processes(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rng = random.Random(61)
    for crib in (False, True):
        for _ in range(3):
            cards = rng.sample(FULL_DECK, 5)
            argv = [*_cribcount(), "score", *map(str, cards), "--json", *(["--crib"] if crib else [])]
            done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, check=False)
            assert done.returncode == 0, done.stderr
            assert json.loads(done.stdout)["total"] == reference_count(tuple(cards[:4]), cards[4], crib)
    bad = subprocess.run([*_cribcount(), "score", "5H", "5D", "5S"], capture_output=True, text=True,
                         env=env, cwd=tmp_path, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "got 3" in bad.stderr


def test_a_reader_that_leaves_early_is_not_an_error(tmp_path: Path) -> None:
    """`cribcount score ... | head -1`: the pipe closes before the count is written. Like any Unix
    tool, the command stops quietly (exit 141, a SIGPIPE stop), with no error line and no traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([*_cribcount(), "score", "5H", "5D", "5S", "JC", "5C"], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path, check=False)
    finally:
        os.close(write_end)
    assert done.returncode == 141
    assert done.stderr == ""


@pytest.mark.skipif(shutil.which("cribcount") is None
                    and not (Path(sys.executable).parent / "cribcount").exists(),
                    reason="console script not installed")
def test_console_script_is_installed() -> None:
    assert _cribcount()[0].endswith("cribcount")
