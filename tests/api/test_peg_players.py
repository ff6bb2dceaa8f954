"""`cribcount peg --players 3|4` and the API's `players` field: seats, totals, sides, errors."""

from __future__ import annotations

import json

import pytest

from api.cli import main

# Three players (tests/scorer/test_pegging_players.py): left 0, right 3, dealer 7.
THREE = "KH QD JC go AS 5D 9C 7S 4H 2C go 3S 8D 6H".split()
# Four in partnership: left 0, across 5, right 8, dealer 1; sides 8 and 6.
FOUR = "5H 10D 6C 4C 2D 3C AH 6D 10C KC 4D go go go 8S 9S 5S go 7H QH".split()


def test_cli_peg_three_players_table(capsys):
    assert main(["peg", *THREE, "--players", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "totals: left 0, right 3, dealer 7"
    assert any(line.split()[1:3] == ["dealer", "3S"] and "run of 3 (3), go (1)" in line for line in lines)


def test_cli_peg_four_players_json_has_sides(capsys):
    assert main(["peg", *FOUR, "--players", "4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["totals"] == {"left": 0, "across": 5, "right": 8, "dealer": 1}
    assert out["sides"] == {"left and right": 8, "dealer and across": 6}
    assert out["plays"][1]["player"] == "across"


def test_cli_peg_four_players_table_ends_with_sides(capsys):
    assert main(["peg", *FOUR, "--players", "4"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "sides: left and right 8, dealer and across 6"


def test_cli_peg_a_card_past_31_with_three_players_is_one_line(capsys):
    assert main(["peg", "KH", "QD", "JC", "9C", "--players", "3"]) == 2
    err = capsys.readouterr().err
    assert err == ("cribcount peg: error: position 4 (9C): count would be 39, past 31; "
                   "if left cannot play, write go here\n")


def test_cli_peg_five_players_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        main(["peg", "5H", "--players", "5"])
    assert caught.value.code == 2
    assert "--players: invalid choice: 5" in capsys.readouterr().err


def test_api_peg_with_three_players(client):
    res = client.post("/api/peg", json={"sequence": THREE, "players": 3})
    assert res.status_code == 200
    body = res.json()
    assert body["players"] == 3
    assert body["totals"] == {"left": 0, "right": 3, "dealer": 7}
    assert body["sides"] is None
    assert body["complete"] is True


def test_api_peg_with_four_players_reports_sides(client):
    body = client.post("/api/peg", json={"sequence": FOUR, "players": 4}).json()
    assert body["sides"] == {"left and right": 8, "dealer and across": 6}
    assert [p["player"] for p in body["plays"][:4]] == ["left", "across", "right", "dealer"]


def test_api_peg_two_players_by_default(client):
    body = client.post("/api/peg", json={"sequence": ["10H", "5D"]}).json()
    assert body["players"] == 2 and body["totals"] == {"pone": 0, "dealer": 2}


@pytest.mark.parametrize(("body", "detail"), [
    ({"sequence": ["5H"], "players": 5}, "players: Input should be 2, 3 or 4"),
    ({"sequence": "AH AC AD AS 2H 2C 2D 2S 3H 3C 3D 3S 4H".split(), "players": 3},
     "position 13 (4H): the play is over: all 3 players have laid all 4 cards"),
    ({"sequence": ["5H", "5D", "5H"], "players": 4}, "position 3 (5H): 5H was already played at position 1"),
])
def test_api_peg_bad_input_is_a_clear_422(client, body, detail):
    res = client.post("/api/peg", json=body)
    assert res.status_code == 422
    assert detail in res.json()["detail"]
