"""POST /api/practice/deal and /api/practice/check: a dealt hand, a count checked, clear 422s."""

from __future__ import annotations

import pytest

from scorer.practice import lessons_in
from scorer.show import score_show


def test_deal_gives_four_cards_and_a_starter(client):
    res = client.post("/api/practice/deal", json={"level": "easy"})
    assert res.status_code == 200
    body = res.json()
    assert len(body["hand"]) == 4 and body["starter"] not in body["hand"] and body["crib"] is False
    assert 2 <= score_show(body["hand"], body["starter"]).total <= 8


def test_a_seeded_deal_repeats(client):
    first = client.post("/api/practice/deal", json={"seed": 99, "crib": True}).json()
    assert client.post("/api/practice/deal", json={"seed": 99, "crib": True}).json() == first


def test_focus_deals_the_missed_lesson_more_often(client):
    deals = [client.post("/api/practice/deal", json={"seed": s, "focus": ["double run"]}).json()
             for s in range(40)]
    runs = [d for d in deals if "double run" in lessons_in(score_show(d["hand"], d["starter"]))]
    assert len(runs) >= 10


def test_check_a_short_total_names_the_missed_item(client):
    res = client.post("/api/practice/check",
                      json={"hand": ["5H", "5D", "5S", "JC"], "starter": "5C", "answer": "28"})
    assert res.status_code == 200
    body = res.json()
    assert body["correct"] is False and body["claimed"] == 28 and body["total"] == 29
    assert [(i["kind"], i["cards"]) for i in body["missed"]] == [("nobs", ["JC"])]
    assert body["lessons"] == ["nobs"]
    assert body["show"]["announcement"].endswith("twenty-nine")


def test_check_items_right_missed_and_wrong(client):
    res = client.post("/api/practice/check", json={
        "hand": ["3H", "4S", "5D", "6C"], "starter": "KD",
        "answer": "15 with 5d kd; run 3h 4s 5d; 15 with 3H 6C"})
    body = res.json()
    assert [i["cards"] for i in body["right"]] == [["5D", "KD"]]
    assert [(i["kind"], i["cards"]) for i in body["missed"]] == [
        ("fifteen", ["4S", "5D", "6C"]), ("run", ["3H", "4S", "5D", "6C"])]
    assert [(w["said"], w["reason"]) for w in body["wrong"]] == [
        ("run 3H 4S 5D", "part of the run of 4 3H 4S 5D 6C: a longer run counts once, at its full length"),
        ("fifteen 3H 6C", "3H 6C make 9, not 15"),
    ]


def test_check_a_crib_four_card_flush(client):
    body = client.post("/api/practice/check", json={
        "hand": ["2H", "4H", "6H", "8H"], "starter": "KS", "crib": True, "answer": "flush"}).json()
    assert body["total"] == 0 and body["lessons"] == ["crib flush"]
    assert "a 4-card flush does not count in the crib" in body["wrong"][0]["reason"]


def test_check_a_right_count(client):
    body = client.post("/api/practice/check", json={
        "hand": ["2H", "4H", "6H", "8H"], "starter": "KS", "answer": "flush"}).json()
    assert body["correct"] is True and body["message"] == "Correct: the hand counts 4, every item named."


@pytest.mark.parametrize(("path", "body", "detail"), [
    ("check", {"hand": ["5H", "5D", "5S"], "starter": "5C", "answer": "3"},
     "hand: List should have at least 4 items"),
    ("check", {"hand": ["5H", "5D", "5S", "5H"], "starter": "5C", "answer": "3"}, "5H is given twice"),
    ("check", {"hand": ["5H", "5D", "5S", "JC"], "starter": "5H", "answer": "3"},
     "the starter 5H is also in the hand"),
    ("check", {"hand": ["5H", "5D", "5S", "1X"], "starter": "5C", "answer": "3"}, "'1X' is not a card"),
    ("check", {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C", "answer": "pair 5H 9C"},
     "9C is not one of the cards dealt"),
    ("check", {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C", "answer": "31"},
     "a total is a whole number from 0 to 29"),
    ("check", {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C", "answer": " "}, "nothing typed"),
    ("deal", {"level": "hard"}, "level: Input should be 'easy' or 'mixed'"),
    ("deal", {"focus": ["muggins"]}, "focus.0: Input should be 'nobs'"),
])
def test_bad_input_is_a_clear_422(client, path, body, detail):
    res = client.post(f"/api/practice/{path}", json=body)
    assert res.status_code == 422
    assert detail in res.json()["detail"]
