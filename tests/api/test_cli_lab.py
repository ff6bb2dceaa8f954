"""`cribcount synth` is the lab's: handed to `python -m training` in a process of its own, and refused
in one line where the lab or its extra is not installed."""

from __future__ import annotations

import sys

import pytest

from api.cli import main


def test_synth_is_handed_to_the_lab(capfd):
    assert main(["synth", "--help"]) == 0
    assert "usage: python -m training synth" in capfd.readouterr().out


def test_a_bad_synth_option_is_one_line_and_exit_2(capfd, tmp_path):
    assert main(["synth", "--out", str(tmp_path), "--n", "1", "--board-chance", "2"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "--board-chance must be between 0 and 1" in err


@pytest.mark.parametrize("missing", ["tqdm", "cairosvg"])
def test_synth_without_the_synth_extra_says_how_to_install_it_in_one_line(monkeypatch, capfd, missing):
    monkeypatch.setitem(sys.modules, missing, None)  # as in a runtime install: the module is not there
    assert main(["synth", "--help"]) == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert err == (f'cribcount synth: error: synth needs the lab\'s extra ({missing} missing): '
                   f'pip install -e ".[synth]" (or ".[train]")\n')


def test_synth_without_the_lab_package_says_where_to_run_it(monkeypatch, capfd):
    monkeypatch.setitem(sys.modules, "training", None)
    assert main(["synth", "--help"]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "synth needs the lab package (training/)" in err
