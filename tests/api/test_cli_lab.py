"""`cribcount synth` is the lab's: handed to `python -m training` in a process of its own."""

from __future__ import annotations

from api.cli import main


def test_synth_is_handed_to_the_lab(capfd):
    assert main(["synth", "--help"]) == 0
    assert "usage: python -m training synth" in capfd.readouterr().out


def test_a_bad_synth_option_is_one_line_and_exit_2(capfd, tmp_path):
    assert main(["synth", "--out", str(tmp_path), "--n", "1", "--board-chance", "2"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "--board-chance must be between 0 and 1" in err
