"""Every input capped before work (issue 79): typed bodies by size and by the rules' counts, photo forms
by their parts, form numbers parsed strictly; each refusal a 4xx JSON reason, never a 500."""

import pytest
from fastapi.testclient import TestClient
from support import FakeRecognizer, show_photo

from api.input_caps import MAX_FORM_PARTS, MAX_TYPED_BYTES, FormPartCount, TypedBodyCount
from api.main import create_app

DEALT = ["2H", "3D", "4C", "5S", "5H", "JD"]


@pytest.fixture(scope="module")
def client():
    fake = FakeRecognizer()
    fake.add(show_photo("5H 5D 5S JC 5C"))
    with TestClient(create_app(recognizer=fake)) as c:
        yield c


def refusal(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    return response.json()["detail"]


def small_jpeg() -> bytes:
    return show_photo("5H 5D 5S JC 5C").jpeg


def test_a_million_cards_dealt_are_refused_by_size_before_parsing(client):
    body = b'{"cards": [' + b'"10H", ' * 1_000_000 + b'"10H"], "seat": "dealer"}'
    detail = refusal(client.post("/api/discard", content=body,
                                 headers={"content-type": "application/json"}), 413)
    assert f"over {MAX_TYPED_BYTES // 1024} KB" in detail


def test_a_large_body_to_score_is_refused_the_same_way(client):
    body = b'{"hand": ["5H", "5D", "5S", "JC"], "starter": "5C", "pad": "' + b"x" * 200_000 + b'"}'
    assert "over 64 KB" in refusal(client.post("/api/score", content=body,
                                               headers={"content-type": "application/json"}), 413)


def test_more_than_six_cards_dealt_is_a_422_naming_cards(client):
    r = client.post("/api/discard", json={"cards": DEALT + ["9C"], "seat": "dealer"})
    assert refusal(r, 422).startswith("cards: List should have at most 6 items")


@pytest.mark.parametrize("route, body", [
    ("/api/score", {"hand": ["5H" * 20, "5D", "5S", "JC"], "starter": "5C"}),
    ("/api/score", {"hand": ["5H", "5D", "5S", "JC"], "starter": "5C" * 20}),
    ("/api/discard", {"cards": ["2H", "3D", "4C", "5S", "5H", "J" * 40], "seat": "dealer"}),
    ("/api/practice/check", {"hand": ["5H" * 20, "5D", "5S", "JC"], "starter": "5C", "answer": "29"}),
])
def test_a_card_longer_than_any_notation_is_a_422(client, route, body):
    assert "at most 16 characters" in refusal(client.post(route, json=body), 422)


def test_six_typed_cards_still_get_advice(client):
    r = client.post("/api/discard", json={"cards": DEALT, "seat": "dealer", "model": "uniform"})
    assert r.status_code == 200 and len(r.json()["choices"]) == 15


def test_a_photo_part_full_of_boundary_lines_is_a_400_before_parsing(client):
    head = (b'--B\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n'
            b"Content-Type: image/jpeg\r\n\r\n")
    body = head + b"\r\n--Bx" * 200_000 + b"\r\n--B--\r\n"
    r = client.post("/api/count", content=body, headers={"content-type": "multipart/form-data; boundary=B"})
    assert "holds the form's boundary line" in refusal(r, 400)


def test_a_form_of_many_parts_is_a_400(client):
    fields = {f"note{k}": "x" for k in range(MAX_FORM_PARTS + 1)}
    r = client.post("/api/count", data=fields, files={"photo": ("p.jpg", small_jpeg(), "image/jpeg")})
    assert f"over {MAX_FORM_PARTS} parts" in refusal(r, 400)


def test_a_photo_form_with_its_fields_passes(client):
    r = client.post("/api/count", data={"crib": "false", "claim": "29"},
                    files={"photo": ("p.jpg", small_jpeg(), "image/jpeg")})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("players, shown", [
    ("²", "'²'"),                                       # isdigit() says yes, int() raises
    ("٣", "'٣'"),                                       # an Arabic-Indic three: int() reads 3
    ("9" * 5000, "'999999999999'... (5000 characters)"),  # past int()'s 4,300 digits
    ("5", "'5'"),
    ("+3", "'+3'"),
])
def test_players_in_a_photo_form_are_ascii_digits_two_to_four(client, players, shown):
    r = client.post("/api/discard", data={"seat": "dealer", "players": players},
                    files={"photo": ("p.jpg", small_jpeg(), "image/jpeg")})
    assert refusal(r, 422) == f"players: expected 2, 3 or 4, not {shown}"


@pytest.mark.parametrize("claim", ["²", "٣", "9" * 5000])
def test_a_claim_in_the_count_form_is_a_422_naming_claim(client, claim):
    r = client.post("/api/count", data={"claim": claim},
                    files={"photo": ("p.jpg", small_jpeg(), "image/jpeg")})
    assert refusal(r, 422).startswith("claim: ")


def test_a_delimiter_split_across_chunks_is_counted_once():
    count = FormPartCount(b"\r\n--B")
    count.feed(b"data\r\n-")
    count.feed(b"-Bmore")
    assert count.found == 1


def test_a_typed_body_passes_up_to_its_cap_and_not_a_byte_more():
    count = TypedBodyCount()
    assert count.feed(b"x" * MAX_TYPED_BYTES) is None
    assert count.feed(b"x") is not None
