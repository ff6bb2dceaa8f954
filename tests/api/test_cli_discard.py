"""`cribcount discard`: typed cards or a photo -> the ranked choices; bad input is one line, exit 2."""

from __future__ import annotations

import json

import pytest
from dealt_photos import SIX_CARDS, real_five_cards, real_reason, real_six_cards

from api.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["discard", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_table_lists_fifteen_choices_best_first_with_reasons(capsys):
    code, out, err = run(capsys, "2H", "3D", "4C", "5S", "5H", "JD", "--dealer")
    assert (code, err) == (0, "")
    rows = [line for line in out.splitlines() if line[:2].strip().isdigit() and "  " in line[2:5]]
    assert len(rows) == 15
    nets = [float(r.split()[-1]) for r in rows]
    assert nets == sorted(nets, reverse=True)
    assert "1. throw 5-5: " in out and "in your own crib averages" in out


def test_json_is_what_the_api_returns(capsys):
    code, out, _ = run(capsys, "2H", "3D", "4C", "5S", "5H", "--pone", "--players", "4", "--json")
    body = json.loads(out)
    assert code == 0 and body["players"] == 4 and body["seat"] == "pone" and len(body["choices"]) == 5
    best = body["choices"][0]
    assert best["net"] == pytest.approx(best["hand"]["mean"] - best["crib"], abs=1e-3)


def test_uniform_is_an_option(capsys):
    _, out, _ = run(capsys, "2H", "3D", "4C", "5S", "5H", "JD", "--pone", "--uniform", "--json")
    assert json.loads(out)["model"] == "uniform"


@pytest.mark.parametrize("argv, says", [
    (["2H", "3D", "4C", "5S", "5H", "--dealer"], "2 players are dealt 6 cards each, got 5: 2H 3D 4C 5S 5H"),
    (["2H", "3D", "4C", "5S", "5H", "JD", "--dealer", "--players", "3"],
     "3 players are dealt 5 cards each, got 6"),
    (["2H", "3D", "4C", "5S", "5H", "5H", "--pone"], "5H is given twice"),
    (["2H", "3D", "4C", "5S", "5H", "QX", "--pone"], "'QX' is not a card"),
    (["--photo", "no-such.jpg", "--pone"], "no-such.jpg"),
    (["2H", "--photo", "x.jpg", "--pone"], "give the dealt cards or --photo, not both"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, says):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and says in err and err.count("\n") == 1, err


def test_a_seat_is_required(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["discard", "2H", "3D", "4C", "5S", "5H", "JD"])
    assert exc.value.code == 2
    assert "one of the arguments --dealer --pone is required" in capsys.readouterr().err


def test_a_photo_that_is_not_a_photo_is_one_line(capsys, tmp_path):
    bad = tmp_path / "deal.jpg"
    bad.write_bytes(b"not a photo")
    code, _, err = run(capsys, "--photo", str(bad), "--pone", "--models", str(tmp_path))
    assert code == 2 and err.startswith("cribcount discard: error: ") and err.count("\n") == 1


@pytest.mark.skipif(real_reason() is not None, reason=str(real_reason()))
def test_a_real_photo_of_six_dealt_cards_is_read_and_ranked(capsys, tmp_path):
    photo = real_six_cards(tmp_path / "six.jpg")
    code, out, err = run(capsys, "--photo", str(photo), "--dealer", "--json")
    assert (code, err) == (0, "")
    body = json.loads(out)
    assert sorted(body["dealt"]) == sorted(map(str, SIX_CARDS)) and len(body["choices"]) == 15
    code, out, _ = run(capsys, "--photo", str(photo), "--dealer")
    assert out.startswith("Cards seen: ") and "%" in out.splitlines()[0]


@pytest.mark.skipif(real_reason() is not None, reason=str(real_reason()))
def test_a_real_photo_of_five_says_what_it_saw_for_two_players(capsys):
    code, _, err = run(capsys, "--photo", str(real_five_cards()), "--pone")
    assert code == 2 and "expected the 6 dealt cards of a 2-player game, saw 5" in err
    assert "choose 3 or 4 players" in err
    code, out, _ = run(capsys, "--photo", str(real_five_cards()), "--pone", "--players", "3")
    assert code == 0 and "3 players, pone" in out

