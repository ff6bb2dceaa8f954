"""POST /api/discard: typed cards as JSON or a photo as multipart -> ranked choices; bad input is a
clear 4xx."""

import pytest
from dealt_photos import fanned
from fastapi.testclient import TestClient
from support import FakeRecognizer

from api.main import create_app


@pytest.fixture(scope="module")
def photos():
    return {"six": fanned("2H 3D 4C 5S 5H JD"), "five": fanned("2H 3D 4C 5S 5H", size=(1600, 1202)),
            "four": fanned("2H 3D 4C 5S", size=(1600, 1204))}


@pytest.fixture(scope="module")
def client(photos):
    fake = FakeRecognizer()
    for photo in photos.values():
        fake.add(photo)
    with TestClient(create_app(recognizer=fake)) as c:
        yield c


def test_typed_cards_as_dealer_rank_fifteen_choices_best_first(client):
    r = client.post("/api/discard", json={"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "dealer",
                                          "model": "uniform"})
    assert r.status_code == 200, r.text
    body = r.json()
    nets = [c["net"] for c in body["choices"]]
    assert len(nets) == 15 and nets == sorted(nets, reverse=True)
    best = body["choices"][0]
    assert best["throw"] == ["5H", "5S"] and "5-5 in your own crib averages" in best["reason"]
    assert best["net"] == pytest.approx(best["hand"]["mean"] + best["crib"], abs=1e-3)


def test_pone_net_is_hand_minus_crib(client):
    r = client.post("/api/discard", json={"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "pone"})
    best = r.json()["choices"][0]
    assert best["net"] == pytest.approx(best["hand"]["mean"] - best["crib"], abs=1e-3)


def test_three_players_throw_one_of_five(client):
    r = client.post("/api/discard",
                    json={"cards": ["2H", "3D", "4C", "5S", "5H"], "seat": "pone", "players": 3})
    assert r.status_code == 200 and len(r.json()["choices"]) == 5
    assert all(len(c["throw"]) == 1 for c in r.json()["choices"])


@pytest.mark.parametrize("body, says", [
    ({"cards": ["2H", "3D", "4C", "5S", "5H"], "seat": "dealer"}, "2 players are dealt 6 cards each, got 5"),
    ({"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "dealer", "players": 3},
     "3 players are dealt 5 cards each, got 6"),
    ({"cards": ["2H", "3D", "4C", "5S", "5H", "5H"], "seat": "dealer"}, "5H is given twice"),
    ({"cards": ["2H", "3D", "4C", "5S", "5H", "1X"], "seat": "dealer"}, "'1X' is not a card"),
    ({"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "crib"},
     "seat: Input should be 'dealer' or 'pone'"),
    ({"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "pone", "players": 5},
     "players: Input should be 2, 3 or 4"),
])
def test_bad_typed_input_is_a_422_saying_what_is_wrong(client, body, says):
    r = client.post("/api/discard", json=body)
    assert r.status_code == 422 and says in r.json()["detail"], r.text


def test_a_photo_of_six_dealt_cards_gives_the_cards_and_the_advice(client, photos):
    r = client.post("/api/discard", files={"photo": ("deal.jpg", photos["six"].jpeg, "image/jpeg")},
                    data={"seat": "dealer"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert sorted(c["card"] for c in body["cards"]) == sorted(["2H", "3D", "4C", "5S", "5H", "JD"])
    assert body["image"] == {"width": 1600, "height": 1200} and len(body["choices"]) == 15


def test_a_photo_of_four_cards_says_what_was_seen(client, photos):
    r = client.post("/api/discard", files={"photo": ("deal.jpg", photos["four"].jpeg, "image/jpeg")},
                    data={"seat": "pone"})
    assert r.status_code == 422
    body = r.json()
    assert body["detail"].startswith("expected the 6 dealt cards of a 2-player game, saw 4 (2H 99%")
    assert len(body["cards"]) == 4


def test_five_cards_for_two_players_suggests_three_or_four(client, photos):
    r = client.post("/api/discard", files={"photo": ("deal.jpg", photos["five"].jpeg, "image/jpeg")},
                    data={"seat": "pone"})
    assert r.status_code == 422 and "choose 3 or 4 players" in r.json()["detail"]
    r = client.post("/api/discard", files={"photo": ("deal.jpg", photos["five"].jpeg, "image/jpeg")},
                    data={"seat": "pone", "players": "4"})
    assert r.status_code == 200 and len(r.json()["choices"]) == 5


def test_not_an_image_and_no_body_are_clear(client):
    r = client.post("/api/discard", files={"photo": ("deal.jpg", b"not a photo", "image/jpeg")},
                    data={"seat": "pone"})
    assert r.status_code == 422 and r.json()["detail"].startswith("photo: ")
    r = client.post("/api/discard", content=b"2H 3D", headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "multipart form with a photo" in r.json()["detail"]


def test_openapi_describes_both_bodies(client):
    spec = client.get("/openapi.json").json()
    content = spec["paths"]["/api/discard"]["post"]["requestBody"]["content"]
    assert set(content) == {"application/json", "multipart/form-data"}
    assert "DiscardOut" in spec["components"]["schemas"]


def test_a_busy_server_turns_a_discard_photo_away_but_still_ranks_typed_cards(client, photos):
    gate = client.app.state.admission
    gate.in_flight, before = gate.capacity, gate.in_flight
    try:
        busy = client.post("/api/discard", files={"photo": ("deal.jpg", photos["six"].jpeg, "image/jpeg")},
                           data={"seat": "dealer"})
        typed = client.post("/api/discard",
                            json={"cards": ["2H", "3D", "4C", "5S", "5H", "JD"], "seat": "pone"})
    finally:
        gate.in_flight = before
    assert busy.status_code == 503 and busy.headers["retry-after"]
    assert busy.json()["detail"].startswith("busy:")
    assert typed.status_code == 200
