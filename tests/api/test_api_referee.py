"""POST /api/referee and /api/referee/table: a whole table at the show counted and ruled, one test per
ruling of RULES.md ("Muggins (optional) and disputes at the show"), and the errors a table can make.

Table photos are drawn as players lay the show: pone's hand across the top, the crib in the middle,
the dealer's hand at the bottom (the photo taken from the dealer's seat), the starter apart on the
right. The recognizer double answers with the drawn cards, keyed by the photo's size.
"""

from dataclasses import dataclass, replace

import numpy as np
import pytest
from fastapi.testclient import TestClient
from support import FakeRecognizer, draw_table, show_photo

from api.main import create_app
from api.settings import Settings
from scorer.cards import Card
from vision.config import RecognizerConfig, for_the_table
from vision.decode import Photo
from vision.detections import Detections, Expected

PONE_5 = "7H 8D 9C 2S"  # fifteen 7H 8D, run 7H 8D 9C: 5 with the starter KS (or JD)
DEALER_9 = "QH 5C 4S 6D"  # fifteens 5C QH, 5C KS, 4S 5C 6D, run of three: 9
CRIB_6 = "AC AD 10S 3H"  # two fifteens and a pair of aces: 6


def table_photo(pone: str = PONE_5, dealer: str = DEALER_9, crib: str = CRIB_6, starter: str = "KS",
                size: tuple[int, int] = (2400, 1800)):
    """Three rows of four cards (pone top, crib middle, dealer bottom) and the starter apart."""
    cards, centers = [], []
    for text, y, x0 in ((pone, 250, 500), (crib, 900, 300), (dealer, 1550, 500)):
        for k, card in enumerate(text.split()):
            cards.append(card)
            centers.append((x0 + 180 * k, y))
    cards.append(starter)
    centers.append((1900, 900))
    return draw_table(" ".join(cards), centers, size=size, card_px=(160, 224))


@pytest.fixture(scope="module")
def table(fake):
    return fake.add(table_photo())


def referee(client, photo, **fields):
    data = {"players": "2", "seat": "dealer", **fields}
    return client.post("/api/referee", files={"photo": ("table.jpg", photo.jpeg, "image/jpeg")}, data=data)


def ruled(client, photo, **fields) -> dict:
    res = referee(client, photo, **fields)
    assert res.status_code == 200, res.text
    return res.json()


def ruling(body: dict, role: str) -> dict:
    return next(r for r in body["rulings"] if r["role"] == role)


def test_three_groups_with_their_roles_and_totals_in_show_order(client, table, fake):
    body = ruled(client, table)
    assert [(g["cards"], g["role"], g["total"]) for g in body["groups"]] == [
        (["7H", "8D", "9C", "2S"], "pone", 5), (["AC", "AD", "10S", "3H"], "crib", 6),
        (["QH", "5C", "4S", "6D"], "dealer", 9)]
    assert body["cards"][body["starter"]]["card"] == "KS"
    assert body["order"] == ["pone", "dealer", "crib"]
    assert [r["role"] for r in body["rulings"]] == ["pone", "dealer", "crib"]
    assert body["pegs"] == [["pone", 5], ["dealer", 15]]
    assert body["roles_reason"].startswith("you (dealer) nearest the bottom of the photo")
    assert not any(g["given"] for g in body["groups"]) and body["unclear"] == []
    assert fake.expected[-1] == Expected(13)


def test_muggins_for_the_right_amount_gives_the_caller_the_missed_points(client, table):
    body = ruled(client, table, claim="pone=3", call="pone=2")
    assert ruling(body, "pone")["kind"] == "muggins"
    assert ruling(body, "pone")["pegs"] == [["pone", 3], ["dealer", 2]]
    assert ruling(body, "pone")["message"] == ("Pone claimed 3, the hand is 5: muggins for 2 — the dealer "
                                               "takes 2 (missed: fifteen 7H 8D).")
    assert ruling(body, "pone")["missed"][0]["cards"] == ["7H", "8D"]


def test_muggins_for_too_little_takes_only_what_was_called(client, table):
    body = ruled(client, table, claim="pone=1", call="pone=2")
    assert ruling(body, "pone")["pegs"] == [["pone", 1], ["dealer", 2]]
    assert "the other 2 missed are lost" in ruling(body, "pone")["message"]


def test_muggins_for_too_much_takes_only_the_shortfall(client, table):
    body = ruled(client, table, claim="pone=3", call="pone=5")
    assert ruling(body, "pone")["pegs"] == [["pone", 3], ["dealer", 2]]
    assert "muggins for 5, but only 2 were missed" in ruling(body, "pone")["message"]


def test_a_wrong_muggins_call_gives_the_called_player_the_points(client, table):
    body = ruled(client, table, claim="crib=6", call="crib=2", seat="pone")
    assert ruling(body, "crib")["kind"] == "wrong muggins"
    assert ruling(body, "crib")["pegs"] == [["dealer", 8]]


def test_his_heels_goes_to_the_dealer_once_and_is_never_mugginsed(client, fake):
    photo = fake.add(table_photo(starter="JD", size=(2400, 1804)))
    body = ruled(client, photo)
    assert body["his_heels"] == 2 and body["pegs"] == [["pone", 5], ["dealer", 17]]
    res = referee(client, photo, claim="dealer=9", call="heels=2")
    assert res.status_code == 422
    assert res.json()["detail"].startswith("no muggins on his heels")


def test_an_over_claim_is_put_back_to_the_true_count(client, table):
    body = ruled(client, table, claim="pone=7")
    assert ruling(body, "pone")["kind"] == "put back"
    assert ruling(body, "pone")["pegs"] == [["pone", 5]]


def test_a_false_claim_of_game_costs_fifteen_back(client, table):
    body = ruled(client, table, claim="pone=7", score=["pone=114", "dealer=100"])
    assert ruling(body, "pone")["kind"] == "false claim of game"
    assert ruling(body, "pone")["pegs"] == [["pone", -10], ["dealer", 2]]
    assert body["winner"] is None


def test_muggins_off_makes_a_call_an_error(client, table):
    res = referee(client, table, claim="pone=3", call="pone=2", muggins="false")
    assert res.status_code == 422 and res.json()["detail"].startswith("muggins is off")


def test_a_role_named_by_the_player_swaps_with_the_suggestion(client, table):
    body = ruled(client, table, role="1=dealer")
    assert [(g["role"], g["given"]) for g in body["groups"]] == [
        ("dealer", True), ("crib", False), ("pone", False)]
    assert [g["suggested"] for g in body["groups"]] == ["pone", "crib", "dealer"]


def test_too_few_cards_for_the_players_named_lists_the_cards_seen(client, table):
    res = referee(client, table, players="3")
    assert res.status_code == 422
    assert res.json()["detail"] == ("a table of 3 at the show holds 17 cards (every hand, the crib and the "
                                    "starter), found 13")
    assert len(res.json()["cards"]) == 13


def test_a_group_that_cannot_be_a_hand_says_how_to_fix_it_and_keeps_the_table(client, table):
    res = referee(client, table, move="7H=2")
    assert res.status_code == 422
    body = res.json()
    assert body["detail"] == "group 1 holds 3 cards and pone holds 4: move a card from one group to another"
    assert [len(g["rows"]) for g in body["table"]["groups"]] == [3, 5, 4]
    assert body["table"]["counted"] is False


def test_a_card_the_photo_missed_and_one_read_wrong_are_given_with_the_photo(client, fake):
    photo = table_photo(size=(2400, 1832))
    d = photo.detections
    seen = [str(c) not in ("3H", "KS") for c in d.cards]  # the crib's 3H and the starter missed
    misread = tuple(Card.parse("6S") if str(c) == "7H" else c for c in d.cards)
    fake.add(replace(photo, detections=d.with_(cards=misread)[np.array(seen)]))
    body = ruled(client, photo, fix="6S=7H", add=["3H=AD", "KS=starter"])
    assert [(g["cards"], g["total"]) for g in body["groups"]] == [
        (["7H", "8D", "9C", "2S"], 5), (["AC", "AD", "3H", "10S"], 6), (["QH", "5C", "4S", "6D"], 9)]
    assert body["cards"][body["starter"]]["card"] == "KS"
    res = referee(client, photo, add="6S=AD")
    assert res.status_code == 422 and res.json()["detail"] == "add '6S=AD': 6S is already on the table"


@pytest.mark.parametrize(("fields", "said"), [
    ({"claim": "pone=30"}, "a claim is a whole number from 0 to 29"),
    ({"claim": "pone"}, "write it as ROLE=N"),
    ({"claim": "partner=3"}, "'partner' is not a role at a table of 2"),
    ({"call": "pone=0"}, "a whole number from 1 to 29"),
    ({"role": "4=crib"}, "a whole number from 1 to 3"),
    ({"move": "9H=1"}, "9H is not among the cards seen"),
    ({"players": "5"}, "players"),
    ({"players": "2.0"}, "players"),
])
def test_bad_words_are_one_line_422s(client, table, fields, said):
    res = referee(client, table, **fields)
    assert res.status_code == 422 and said in res.json()["detail"]


def test_the_typed_route_re_rules_a_fixed_table_without_the_photo(client, table):
    first = ruled(client, table)
    cards = [{"card": c["card"], "xyxy": c["xyxy"]} for c in first["cards"]]
    res = client.post("/api/referee/table", json={
        "players": 2, "seat": "dealer", "cards": cards, "roles": {"2": "crib"},
        "claims": {"pone": 3}, "calls": [{"role": "pone", "points": 2}]})
    assert res.status_code == 200, res.text
    assert ruling(res.json(), "pone")["pegs"] == [["pone", 3], ["dealer", 2]]
    assert res.json()["image"] is None


@pytest.mark.parametrize("change", [{"claims": {"pone": "3"}}, {"players": 5}, {"muggins": 1},
                                    {"cards": [{"card": "5H", "xyxy": [0, 0, 1, 1]}] * 22}])
def test_the_typed_route_takes_numbers_strictly_and_within_the_rules(client, change):
    body = {"players": 2, "cards": [], **change}
    res = client.post("/api/referee/table", json=body)
    assert res.status_code == 422 and isinstance(res.json()["detail"], str)


TABLE_DECODE = for_the_table(RecognizerConfig()).min_long_side


@dataclass
class SeesTablesFinely(FakeRecognizer):
    """Sees the drawn cards only when set to the table's settings (decoded at the table's finer size),
    as the shipped models miss a table's small indices at a hand's settings."""

    def recognize_photo(self, photo: Photo, expected: Expected | None = None) -> Detections:
        if self.config.min_long_side < TABLE_DECODE:
            return Detections.empty()
        return super().recognize_photo(photo, expected)


def test_the_route_reads_the_table_with_the_tables_settings_and_a_hand_with_a_hands():
    fake = SeesTablesFinely()
    photo = fake.add(table_photo())
    with TestClient(create_app(recognizer=fake)) as client:
        assert [g["total"] for g in ruled(client, photo)["groups"]] == [5, 6, 9]
        count = client.post("/api/count", files={"photo": ("t.jpg", photo.jpeg, "image/jpeg")})
    assert count.status_code == 422 and "no cards" in count.json()["detail"], count.text


def test_the_photo_workers_read_the_table_with_the_tables_settings():
    fake = SeesTablesFinely()
    photo = fake.add(table_photo())
    with TestClient(create_app(Settings(photo_workers=1), recognizer=fake)) as client:
        body = ruled(client, photo)
    assert [g["cards"] for g in body["groups"]][1] == ["AC", "AD", "10S", "3H"]


HUGE = "9" * 5000
LONG = "x" * 100_000


@pytest.mark.parametrize(("fields", "said"), [
    ({"players": "²"}, "players"),
    ({"players": "٣"}, "players"),
    ({"players": "5"}, "players"),
    ({"players": ""}, "players"),
    ({"game": "100"}, "game: 121 or 61"),
    ({"game": "١٢١"}, "game: 121 or 61"),
    ({"seat": "second"}, "'second' is not a role at a table of 2"),
    ({"seat": "crib"}, "'crib' is not a seat at a table of 2"),
    ({"seat": LONG}, "seat"),
    ({"claim": ["pone=3", "pone=5"]}, "a claim for pone's hand is given twice"),
    ({"claim": "pone=²"}, "a claim is a whole number from 0 to 29"),
    ({"claim": "pone=٣"}, "a claim is a whole number from 0 to 29"),
    ({"claim": f"pone={HUGE}"}, "a claim is a whole number from 0 to 29"),
    ({"claim": LONG}, "write it as ROLE=N"),
    ({"claim": f"{LONG}=3"}, "is not a role at a table of 2"),
    ({"claim": ["pone=1"] * 9}, "claim"),
    ({"call": "pone=2"}, "nobody claimed a total for it"),
    ({"call": f"pone={HUGE}"}, "a whole number from 1 to 29"),
    ({"role": ["1=crib", "2=crib"]}, "the crib is named for groups 1 and 2"),
    ({"role": ["1=crib", "1=pone"]}, "group 1 is named twice"),
    ({"role": f"{HUGE}=crib"}, "a whole number from 1 to 3"),
    ({"move": f"{LONG}=1"}, "is not a card"),
    ({"move": "7H=0"}, "a whole number from 1 to 3"),
    ({"fix": f"{LONG}=7H"}, "is not a card"),
    ({"fix": "7H=8D"}, "8D is already on the table"),
    ({"fix": ["7H=5H"] * 9}, "fix"),
    ({"add": f"5H={LONG}"}, "is not a card"),
    ({"add": "5H=9H"}, "9H is not among the cards seen"),
    ({"add": "KS=starter"}, "KS is already on the table"),
    ({"score": "pone=-5"}, "a whole number from 0 to 120"),
    ({"score": "pone=61", "game": "61"}, "a whole number from 0 to 60"),
    ({"score": ["dealer=1", "crib=5"]}, "the dealer's score is given twice"),
    ({"five_card": "true", "players": "3"}, "five-card cribbage is a two-player game"),
    ({"five_card": "maybe"}, "five_card"),
])
def test_bad_form_fields_are_short_422s(client, table, fields, said):
    res = referee(client, table, **fields)
    assert res.status_code == 422, res.text
    detail = res.json()["detail"]
    assert said in detail and len(detail) < 300


def test_a_missing_photo_is_a_422_naming_it(client):
    res = client.post("/api/referee", data={"players": "2"})
    assert res.status_code == 422 and "photo" in res.json()["detail"]


def test_a_photo_sent_as_text_is_a_422(client):
    res = client.post("/api/referee", data={"players": "2", "photo": "table.jpg"},
                      files={"other": ("x", b"", "text/plain")})
    assert res.status_code == 422 and "send the photo as a file" in res.json()["detail"]


def test_a_file_that_is_not_a_photo_is_refused_naming_the_photo(client):
    res = client.post("/api/referee", files={"photo": ("t.jpg", b"the crib was six", "image/jpeg")},
                      data={"players": "2"})
    assert res.status_code in (415, 422) and res.json()["detail"].startswith("photo: ")


def test_a_photo_of_one_hand_is_a_422_listing_its_cards(client, fake):
    photo = fake.add(show_photo("5H 5D 5S JC 5C", size=(1600, 1204)))
    res = referee(client, photo)
    assert res.status_code == 422
    assert res.json()["detail"].endswith("found 5") and len(res.json()["cards"]) == 5


def typed(**change) -> dict:
    cards = [{"card": str(c), "xyxy": [float(v) for v in box]}
             for c, box in zip(table_photo().detections.cards, table_photo().detections.xyxy, strict=True)]
    return {"players": 2, "seat": "dealer", "cards": cards, **change}


def test_the_typed_route_takes_role_taps_in_order_the_later_standing(client):
    res = client.post("/api/referee/table", json=typed(roles={"1": "crib", "3": "crib"}))
    assert res.status_code == 200, res.text
    assert [g["role"] for g in res.json()["groups"]] == ["dealer", "pone", "crib"]  # 1 took 3's old role


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(("body", "status", "said"), [
    (typed(players="2"), 422, "players"),
    (typed(cards="13 cards"), 422, "cards"),
    (typed(claims=[3, 4]), 422, "claims"),
    (typed(claims={"pone": 3.5}), 422, "claims"),
    (typed(claims={"pone": 10**30}), 422, "a claim is a whole number from 0 to 29"),
    (typed(claims={"pone": 3, "Pone": 5}), 422, "a claim for pone's hand is given twice"),
    (typed(claims={"x" * 20_000: 3}), 422, "is not a role at a table of 2"),
    (typed(scores={"pone": 10**40}), 422, "a whole number from 0 to 120"),
    (typed(scores={"pone": 61}, game=61), 422, "a whole number from 0 to 60"),
    (typed(scores={"dealer": 1, "crib": 2}), 422, "the dealer's score is given twice"),
    (typed(roles={"x" * 20_000: "crib"}), 422, "a whole number from 1 to 3"),
    (typed(roles={"1": ["crib"]}), 422, "roles"),
    (typed(moves=[{"row": 0, "group": 5}]), 422, "no group 5: groups are 1 to 3"),
    (typed(moves=[{"row": 20, "group": 1}]), 422, "no card 20"),
    (typed(moves=[{"row": 0}]), 422, "group"),
    (typed(calls=[{"role": "pone", "points": 2, "extra": 1}]), 422, "extra"),
    (typed(seat="x" * 100_000), 413, "over 64 KB"),
    (typed(junk={"a": [1, {"b": None}]}), 422, "junk"),
    (typed(five_card=True, players=3), 422, "five-card cribbage is a two-player game"),
    (typed(cards=[{"card": "5H", "xyxy": [0, 0, 1, 1]}] * 10_000), 413, "over 64 KB"),
    (typed(cards=[{"card": "5H", "xyxy": [0, 0, 1, 1]}] * 22), 422, "cards"),
    (typed(cards=typed()["cards"][:12]), 422,
     "holds 13 cards (every hand, the crib and the starter), found 12"),
    (typed(cards=typed()["cards"][:12] + [{"card": "7H", "xyxy": [1800, 850, 1850, 950]}]), 422,
     "7H is in"),
    (typed(cards=typed()["cards"][:12] + [{"card": "ZZ", "xyxy": [1800, 850, 1850, 950]}]), 422, "ZZ"),
    (typed(cards=[{"card": "7H", "xyxy": [300, 300, 200, 400]}] + typed()["cards"][1:]), 422,
     "a card's xyxy is its box: left < right and top < bottom"),
])
def test_bad_typed_tables_are_short_4xx(client, body, status, said):
    res = client.post("/api/referee/table", json=body)
    assert res.status_code == status, res.text
    detail = res.json()["detail"]
    assert isinstance(detail, str) and said in detail and len(detail) < 300


@pytest.mark.parametrize("text", [nested(20_000), '{"players": 2, "cards": ' + nested(20_000) + "}",
                                  '{"players": 2, "cards": [{"card": "5H", "xyxy": [NaN, 0, 1, 1]}]}',
                                  '{"players": 2, "cards": [{"card": "5H", "xyxy": [Infinity, 0, 1, 1]}]}',
                                  "[1, 2", '"a string"', "null"])
def test_json_that_is_no_table_is_a_4xx(client, text):
    res = client.post("/api/referee/table", content=text, headers={"content-type": "application/json"})
    assert 400 <= res.status_code < 500, res.text
    assert isinstance(res.json()["detail"], str) and len(res.json()["detail"]) < 300


def test_a_table_with_nan_boxes_is_a_422_not_a_500(client):
    cards = typed()["cards"]
    text = ('{"players": 2, "cards": [' + ", ".join(
        f'{{"card": "{c["card"]}", "xyxy": [NaN, NaN, NaN, NaN]}}' for c in cards) + "]}")
    res = client.post("/api/referee/table", content=text, headers={"content-type": "application/json"})
    assert res.status_code == 422, res.text
