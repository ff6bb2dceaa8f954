"""The HTTP API: photo -> count, typed cards -> count, pegging, health, the OpenAPI description.

The recognizer is the test double from ``support`` (cards by photo size)
until the trained models exist; everything after recognition is the real code.
"""

import os
import tempfile

import numpy as np
import pytest
from fastapi.testclient import TestClient
from support import FakeRecognizer, show_photo, spread_photo

from api.main import create_app
from api.settings import Settings
from scorer.cards import Card
from vision.detections import Expected

HAND_29 = "5H 5D 5S JC 5C"  # the starter 5C lies above the row


def post_photo(client, photo, **fields):
    return client.post("/api/count", files={"photo": ("table.jpg", photo.jpeg, "image/jpeg")},
                       data={k: str(v) for k, v in fields.items()})


def test_health_says_the_models_are_loaded(client):
    assert client.get("/api/health").json() == {"status": "ok", "models_loaded": True, "detail": None}


def test_a_photo_of_the_29_hand_counts_29(client, fake):
    photo = fake.add(show_photo(HAND_29))
    res = post_photo(client, photo)
    assert res.status_code == 200, res.text
    body = res.json()
    assert [c["card"] for c in body["cards"]] == ["5H", "5D", "5C", "5S", "JC"]  # left to right
    assert [c["is_starter"] for c in body["cards"]] == [False, False, True, False, False]
    assert body["image"] == {"width": 1600, "height": 1200}
    assert body["starter"]["card"] == "5C"
    assert body["starter"]["source"] == "layout" and body["starter"]["sure"]
    assert body["starter"]["reason"] == "set apart above the row of the other four"
    show = body["show"]
    assert show["total"] == 29
    assert show["hand"] == ["5D", "5H", "5S", "JC"]
    assert [i["kind"] for i in show["items"]].count("fifteen") == 8
    assert show["items"][-1] == {"kind": "nobs", "cards": ["JC"], "points": 1,
                                 "reason": "JC is the jack of the starter's suit: one for his nobs"}
    assert show["announcement"].endswith("twenty-nine")
    assert show["claim"] is None


def test_boxes_come_back_in_photo_pixels(client, fake):
    photo = fake.add(show_photo(HAND_29))
    first = post_photo(client, photo).json()["cards"][0]
    assert first["xyxy"] == pytest.approx(photo.detections.xyxy[0].tolist(), abs=0.1)
    assert len(first["indices"]) == 2
    assert 0 < first["confidence"] <= 1


def test_crib_field_drops_a_four_card_flush(client, fake):
    photo = fake.add(show_photo("2H 4H 6H 8H KS", size=(1600, 1202)))
    assert post_photo(client, photo).json()["show"]["total"] == 4
    crib = post_photo(client, photo, crib="true").json()["show"]
    assert crib["total"] == 0 and crib["crib"] is True


def test_starter_field_overrides_the_layout(client, fake):
    photo = fake.add(show_photo(HAND_29))
    body = post_photo(client, photo, starter="jc").json()
    assert body["starter"] == {"card": "JC", "source": "given", "confidence": 1.0, "sure": True,
                               "reason": "named by the player"}
    assert body["show"]["starter"] == "JC"
    assert body["show"]["total"] == 28  # 5-5-5-5 with a jack: 8 fifteens, 6 pairs, no nobs
    assert body["show"]["his_heels"] == 2


def test_claim_field_is_checked(client, fake):
    photo = fake.add(show_photo(HAND_29))
    claim = post_photo(client, photo, claim=28).json()["show"]["claim"]
    assert claim["verdict"] == "under-claimed" and claim["difference"] == 1
    assert [i["cards"] for i in claim["missed"]] == [["JC"]]


def test_four_cards_and_a_typed_starter(client, fake):
    photo = fake.add(show_photo("8H 7C 7D 6S", size=(1600, 1204)))
    body = post_photo(client, photo, starter="AS").json()
    assert body["show"]["total"] == 16
    assert not any(c["is_starter"] for c in body["cards"])


def test_a_card_read_below_the_check_line_is_marked_to_check(client, fake):
    photo = show_photo(HAND_29, size=(1600, 1208))
    sure = np.array([0.94 if card == Card.parse("JC") else 0.96 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=sure)
    cards = post_photo(client, photo).json()["cards"]
    checks = {c["card"]: c["check"] for c in cards}
    assert checks == {"5H": False, "5D": False, "5C": False, "5S": False, "JC": True}


def test_a_card_made_up_to_the_show_is_marked_to_check_however_it_read(client, fake):
    photo = show_photo(HAND_29, size=(1600, 1218))
    made_up = np.array([card == Card.parse("JC") for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=np.full(5, 0.99), data={"made_up": made_up})
    cards = post_photo(client, photo).json()["cards"]
    assert [c["card"] for c in cards if c["check"]] == ["JC"]


def test_a_card_beyond_the_show_is_set_aside_and_said(client, fake):
    photo = show_photo(HAND_29, size=(1600, 1214))
    sure = np.array([0.75 if card == Card.parse("5S") else 0.99 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=sure)
    body = post_photo(client, photo, starter="KD").json()
    assert [c["card"] for c in body["set_aside"]] == ["5S"]
    assert body["show"]["hand"] == ["5C", "5D", "5H", "JC"] and body["show"]["starter"] == "KD"
    assert post_photo(client, photo).json()["set_aside"] == []


def test_the_recognizer_is_told_the_photo_holds_a_show(client, fake):
    photo = fake.add(show_photo(HAND_29))
    post_photo(client, photo)
    post_photo(client, photo, starter="5c")
    assert fake.expected[-2:] == [Expected(5), Expected(4, besides=Card.parse("5C"))]


def test_four_cards_without_a_starter_say_what_was_seen(client, fake):
    photo = fake.add(show_photo("8H 7C 7D 6S", size=(1600, 1204)))
    res = post_photo(client, photo)
    assert res.status_code == 422
    body = res.json()
    assert body["detail"] == "4 cards seen (8H 7C 7D 6S): name the starter, or photograph it with them"
    assert [c["card"] for c in body["cards"]] == ["8H", "7C", "7D", "6S"]
    assert body["image"] == {"width": 1600, "height": 1204}


@pytest.mark.parametrize("fields,detail", [
    ({"starter": "ZZ"}, "starter: 'ZZ' is not a card"),
    ({"claim": 30}, "claim: Input should be less than or equal to 29"),
    ({"claim": "lots"}, "claim: Input should be a valid integer"),
])
def test_bad_fields_get_a_reason(client, fake, fields, detail):
    photo = fake.add(show_photo(HAND_29))
    res = post_photo(client, photo, **fields)
    assert res.status_code == 422
    assert detail in res.json()["detail"]


def test_blank_optional_fields_are_ignored(client, fake):
    photo = fake.add(show_photo(HAND_29))
    res = post_photo(client, photo, starter="", claim="")
    assert res.status_code == 200 and res.json()["show"]["total"] == 29


def test_missing_photo_field(client):
    res = client.post("/api/count", data={"crib": "false"})
    assert res.status_code == 422
    assert res.json() == {"detail": "photo: Field required"}


def test_photo_stays_in_memory(client, fake, monkeypatch):
    """A photo over Starlette's 1 MB spool size must not be rolled over to a temporary file."""
    def refuse(self: tempfile.SpooledTemporaryFile) -> None:
        raise AssertionError("the upload was spooled to disk")

    monkeypatch.setattr(tempfile.SpooledTemporaryFile, "rollover", refuse)
    photo = fake.add(show_photo(HAND_29, size=(3200, 2400)))
    assert len(photo.jpeg) > 1024 * 1024
    res = client.post("/api/count", files={"photo": ("big.jpg", photo.jpeg, "image/jpeg")})
    assert res.status_code == 200, res.text


# -- typed cards, pegging ----------------------------------------------------------------------------


def score(client, hand, starter, **kw):
    return client.post("/api/score", json={"hand": hand.split(), "starter": starter, **kw})


def test_score_counts_typed_cards(client):
    body = score(client, "8H 7C 7D 6S", "AS").json()
    assert body["total"] == 16
    assert body["announcement"] == ("Fifteen two, fifteen four, fifteen six, fifteen eight, "
                                    "and a double run of three is sixteen")
    assert {i["kind"] for i in body["items"]} == {"fifteen", "run", "pair"}
    assert all(i["reason"] for i in body["items"])


def test_correcting_one_card_changes_the_count(client):
    assert score(client, "5H 5D 5S JC", "5C").json()["total"] == 29
    assert score(client, "5H 5D 5S QC", "5C").json()["total"] == 28


def test_score_checks_a_claim(client):
    claim = score(client, "5H 5D 4S 6C", "10D", claim=16).json()["claim"]
    assert claim["verdict"] == "correct" and claim["message"].startswith("Correct")


def test_his_heels_is_reported_apart(client):
    body = score(client, "5H 5D 5S 4C", "JC").json()
    assert body["his_heels"] == 2


@pytest.mark.parametrize("hand,starter,detail", [
    ("5H 5D 5S XX", "5C", "'XX' is not a card"),
    ("5H 5D 5S 5H", "5C", "5H is given twice"),
    ("5H 5D 5S JC", "5H", "the starter 5H is also in the hand"),
    ("5H 5D 5S", "5C", "hand: List should have at least 4 items"),
])
def test_score_refuses_bad_cards_with_a_reason(client, hand, starter, detail):
    res = score(client, hand, starter)
    assert res.status_code == 422
    assert detail in res.json()["detail"]


def test_peg_scores_the_play(client):
    res = client.post("/api/peg", json={"sequence": "10H 5D 10S go 5C 7C KH 8S 9D".split()})
    assert res.status_code == 200
    body = res.json()
    assert body["totals"] == {"pone": 1, "dealer": 4}
    assert body["plays"][1]["reasons"] == [{"reason": "fifteen", "points": 2}]
    assert body["complete"] is True


def test_peg_names_an_illegal_play(client):
    res = client.post("/api/peg", json={"sequence": ["10H", "10D", "5C", "9S"]})
    assert res.status_code == 422
    assert res.json()["detail"].startswith("position 4 (9S): count would be 34")


# -- service --------------------------------------------------------------------------------------------


def test_without_models_the_service_starts_and_photos_get_503(tmp_path):
    with TestClient(create_app(Settings(models_dir=tmp_path))) as c:
        health = c.get("/api/health").json()
        assert health["models_loaded"] is False
        assert "detector.onnx is missing" in health["detail"]
        res = c.post("/api/count", files={"photo": ("t.jpg", show_photo().jpeg, "image/jpeg")})
        assert res.status_code == 503
        assert "detector.onnx is missing" in res.json()["detail"]
        res = c.post("/api/score", json={"hand": ["5H", "5D", "5S", "JC"], "starter": "5C"})
        assert res.json()["total"] == 29


def test_photo_workers_start_once_at_start_up_and_read_every_photo(tmp_path, monkeypatch):
    from api.workers import ThreadReader

    started = []

    class Workers(ThreadReader):  # stands in for the worker pool: reads in this process
        def __init__(self, models_dir, limits, recognizer=None):
            started.append((models_dir, limits))
            super().__init__(FakeRecognizer())

        async def load_error(self):
            return None

    monkeypatch.setattr("api.main.ProcessReader", Workers)
    with TestClient(create_app(Settings(models_dir=tmp_path, photo_workers=2))) as c:
        for _ in range(3):
            assert post_photo(c, show_photo()).status_code == 422  # the double knows no photo: no cards
        assert c.get("/api/health").json()["models_loaded"] is True
    assert len(started) == 1 and started[0][0] == tmp_path and started[0][1].workers == 2


def test_openapi_describes_every_route_and_field(client):
    spec = client.get("/openapi.json").json()
    assert {"/api/count", "/api/score", "/api/peg", "/api/health", "/api/ready"} <= set(spec["paths"])
    count = spec["paths"]["/api/count"]["post"]
    form_ref = count["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"].split("/")[-1]
    form = spec["components"]["schemas"][form_ref]
    assert set(form["properties"]) == {"photo", "crib", "starter", "claim"}
    assert form["required"] == ["photo"]
    assert {"200", "413", "422", "503"} <= set(count["responses"])
    schemas = spec["components"]["schemas"]
    for name in ("CountOut", "ShowOut", "ItemOut", "ClaimOut", "StarterOut", "CardOut", "ScoreIn", "PegOut",
                 "HealthOut", "NotAShowOut"):
        assert name in schemas, name
    assert schemas["ItemOut"]["properties"]["reason"]["description"]
    assert client.get("/docs").status_code == 200


def test_the_page_is_served_at_the_root(client):
    res = client.get("/")
    assert res.status_code == 200 and res.headers["content-type"].startswith("text/html")
    # No `capture`: the phone offers its camera and its saved photos (a photo taken before the
    # dispute, or a camera the browser may not use), as each input's label says.
    assert 'accept="image/*"' in res.text and "capture=" not in res.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/app.css").status_code == 200


def test_unknown_api_path_is_a_json_404(client):
    res = client.get("/api/nothing")
    assert res.status_code == 404 and res.json() == {"detail": "Not Found"}


def test_spread_photo_helper_lays_cards_left_to_right():
    photo = spread_photo("AH 2H 3H", size=(1300, 1000))
    assert [str(c) for c in photo.detections.cards] == ["AH", "2H", "3H"]


def test_serve_runs_the_app_on_the_host_and_port_given(monkeypatch, tmp_path):
    import api.server
    from api.cli import main

    ran = {}
    for name in ("CRIBCOUNT_MODELS", "CRIBCOUNT_SERVER_PROCESSES"):  # restored after the test
        monkeypatch.setenv(name, "")
    monkeypatch.setattr(api.server, "serve", lambda app, host, port, workers, settings: ran.update(
        app=app, host=host, port=port, workers=workers))
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123", "--models", str(tmp_path)]) == 0
    assert ran == {"app": "api.main:create_app", "host": "0.0.0.0", "port": 8123, "workers": 1}
    assert os.environ["CRIBCOUNT_MODELS"] == str(tmp_path.resolve())


def test_serve_on_a_busy_port_says_so_in_one_line(capsys):
    import socket

    from api.cli import main

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot listen on 127.0.0.1:{port}: another server is there" in err


@pytest.mark.parametrize("port", ["99999", "0", "http", "-1"])
def test_serve_refuses_a_port_that_is_not_one(capsys, port):
    from api.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["serve", f"--port={port}"])
    assert exited.value.code == 2
    assert "a port is a whole number from 1 to 65535" in capsys.readouterr().err
