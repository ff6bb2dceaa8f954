"""`cribcount referee PHOTO`: the whole table counted and ruled on the command line, one test per ruling
of RULES.md, and exit 2 with one line for what cannot be ruled."""

import json
from dataclasses import replace

import cv2
import numpy as np
import pytest
from support import FakeRecognizer, show_photo
from test_api_referee import table_photo

import api.commands.photo
from api.cli import main
from scorer.cards import Card


@pytest.fixture
def fake(monkeypatch) -> FakeRecognizer:
    recognizer = FakeRecognizer()
    monkeypatch.setattr(api.commands.photo, "photo_recognizer", lambda models: recognizer)
    return recognizer


@pytest.fixture
def table(tmp_path, fake) -> str:
    return photo_file(tmp_path, fake, table_photo())


def photo_file(tmp_path, fake, photo, name="table.jpg") -> str:
    fake.add(photo)
    path = tmp_path / name
    path.write_bytes(photo.jpeg)
    return str(path)


def referee(table: str, *words: str) -> list[str]:
    assert main(["referee", table, "--players", "2", "--seat", "dealer", *words]) == 0


def lines(capsys) -> list[str]:
    return capsys.readouterr().out.splitlines()


def exit_code(argv: list[str]) -> int:
    """main's status, or argparse's for a usage error (which it exits with, one line on stderr)."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code)


def failed(capsys, table: str, *words: str) -> str:
    assert exit_code(["referee", table, "--players", "2", "--seat", "dealer", *words]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    return err[0]


def test_groups_roles_and_the_show_in_order(table, capsys):
    referee(table)
    out = lines(capsys)
    at = out.index("Starter: KS")
    assert out[at + 1].startswith("Groups (roles suggested; you (dealer) nearest the bottom of the photo")
    assert out[at + 2:at + 5] == ["  1  pone              7H 8D 9C 2S", "  2  crib              AC AD 10S 3H",
                        "  3  dealer            QH 5C 4S 6D"]
    shows = [line.split()[0] for line in out if line.startswith("  ") and line[2] != " "][3:]
    assert shows == ["pone", "dealer", "crib"]
    assert out[-1] == "Pegs: pone 5, dealer 15"


def test_json_gives_groups_roles_counts_and_rulings(table, capsys):
    referee(table, "--claim", "pone=3", "--muggins", "pone=2", "--json")
    body = json.loads(capsys.readouterr().out)
    assert [(g["role"], g["total"]) for g in body["groups"]] == [("pone", 5), ("crib", 6), ("dealer", 9)]
    assert body["rulings"][0]["kind"] == "muggins" and body["image"] == {"width": 2400, "height": 1800}


def test_muggins_for_the_right_amount(table, capsys):
    referee(table, "--claim", "pone=3", "--muggins", "pone=2")
    assert ("Pone claimed 3, the hand is 5: muggins for 2 — the dealer takes 2 (missed: fifteen 7H 8D)."
            in lines(capsys))


def test_muggins_for_too_little(table, capsys):
    referee(table, "--claim", "pone=1", "--muggins", "pone=2")
    assert any("the dealer takes 2; the other 2 missed are lost" in line for line in lines(capsys))


def test_muggins_for_too_much(table, capsys):
    referee(table, "--claim", "pone=3", "--muggins", "pone=5")
    assert any("muggins for 5, but only 2 were missed — the dealer takes 2" in line for line in lines(capsys))


def test_a_wrong_muggins_call(table, capsys):
    referee(table, "--claim", "crib=6", "--muggins", "crib=2:pone")
    assert ("The dealer claimed 6 for the crib, the crib is 6: muggins for 2, but nothing was missed — the "
            "dealer pegs 6 and 2 more as the penalty against pone." in lines(capsys))


def test_his_heels_to_the_dealer_and_no_muggins_on_it(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, table_photo(starter="JD", size=(2400, 1804)))
    referee(path)
    out = lines(capsys)
    assert "His heels: 2 to the dealer for the jack starter (no muggins on it)" in out
    assert out[-1] == "Pegs: pone 5, dealer 17"
    assert failed(capsys, path, "--claim", "dealer=9", "--muggins", "heels=2").startswith(
        "cribcount referee: error: no muggins on his heels")


def test_an_over_claim_is_put_back(table, capsys):
    referee(table, "--claim", "pone=7")
    assert "Pone claimed 7, the hand is 5: put back to 5 (ACC 8.4) — pone pegs 5." in lines(capsys)


def test_a_false_claim_of_game(table, capsys):
    referee(table, "--claim", "pone=7", "--score", "pone=114", "--score", "dealer=100")
    assert ("Pone claimed 7, the hand is 5 and pone stood at 114 of 121: a false claim of game — the peg "
            "goes back, the dealer takes 2, and pone goes 15 back (pegs -10)." in lines(capsys))


def test_a_role_named_by_the_player(table, capsys):
    referee(table, "--role", "1=dealer")
    out = lines(capsys)
    at = out.index("Starter: KS")
    assert out[at + 1].startswith("Groups (roles named by you;")
    assert out[at + 2] == "  1  dealer            7H 8D 9C 2S"


def test_too_few_cards_for_the_players_named(table, capsys):
    assert main(["referee", table, "--players", "4"]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("Cards seen: AC 97%, AD 97%, 7H 99%")  # what was read, to fix or add to
    assert captured.err == ("cribcount referee: error: a table of 4 at the show holds 21 cards "
                            "(every hand, the crib and the starter), found 13: fix a card read wrong with "
                            "--fix READ=CARD, add one the photo missed with --add CARD=BESIDE (a card read "
                            "in its group, or starter), or retake the photo with every card's corners in "
                            "view\n")


def test_a_card_the_photo_missed_is_added_to_the_group_of_a_card_beside_it(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, table_photo(crib="AC AD 10S", size=(2400, 1816)))
    referee(path, "--add", "3H=AD")
    assert "  2  crib              AC AD 3H 10S" in lines(capsys)


def test_a_starter_the_photo_missed_is_added_as_the_starter(tmp_path, fake, capsys):
    photo = table_photo(size=(2400, 1820))
    kept = np.array([str(c) != "KS" for c in photo.detections.cards])
    path = photo_file(tmp_path, fake, replace(photo, detections=photo.detections[kept]))
    referee(path, "--add", "KS=starter", "--json")
    body = json.loads(capsys.readouterr().out)
    assert body["cards"][body["starter"]]["card"] == "KS"
    assert [g["total"] for g in body["groups"]] == [5, 6, 9]


def test_a_card_read_wrong_is_fixed_and_counted_as_it_is(tmp_path, fake, capsys):
    photo = table_photo(size=(2400, 1824))
    misread = tuple(Card.parse("6S") if str(c) == "7H" else c for c in photo.detections.cards)
    path = photo_file(tmp_path, fake, replace(photo, detections=photo.detections.with_(cards=misread)))
    referee(path, "--fix", "6S=7H", "--claim", "pone=5")
    assert "Pone claimed 5, the hand is 5: correct — pone pegs 5." in lines(capsys)


def test_a_group_that_cannot_be_a_hand(table, capsys):
    assert main(["referee", table, "--players", "2", "--seat", "dealer", "--move", "7H=2"]) == 2
    captured = capsys.readouterr()
    assert "  2  dealer            AC AD 7H 10S 3H" in captured.out.splitlines()
    assert captured.err == ("cribcount referee: error: group 1 holds 3 cards and pone holds 4: move a card "
                            "from one group to another (--move CARD=GROUP or CARD=starter; --role "
                            "GROUP=ROLE)\n")


@pytest.mark.parametrize(("words", "said"), [
    (["--claim", "pone=ten"], "a claim is a whole number from 0 to 29"),
    (["--claim", "dealers-partner=3"], "is not a role at a table of 2"),
    (["--muggins", "pone=2", "--no-muggins"], "--muggins calls need muggins on"),
    (["--move", "QQ=1"], "QQ"),
    (["--score", "pone=121"], "a whole number from 0 to 120"),
    (["--fix", "5S=7H"], "fix '5S=7H': 5S is not among the cards seen (AC AD 7H"),
    (["--fix", "7H=8D"], "fix '7H=8D': 8D is already on the table"),
    (["--fix", "7H"], "fix '7H': write it as READ=CARD"),
    (["--add", "8D=AC"], "add '8D=AC': 8D is already on the table"),
    (["--add", "5S=QQ"], "add '5S=QQ': 'QQ' is not a card"),
])
def test_bad_words_are_one_line(table, capsys, words, said):
    assert said in failed(capsys, table, *words)


HUGE = "9" * 5000


@pytest.mark.parametrize(("words", "said"), [
    (["--claim"], "expected one argument"),
    (["--claim", "pone"], "write it as ROLE=N"),
    (["--claim", "=3"], "write it as ROLE=N"),
    (["--claim", "partner=3"], "'partner' is not a role at a table of 2"),
    (["--claim", "pone=3", "--claim", "pone=5"], "a claim for pone's hand is given twice: one claim a count"),
    (["--claim", "dealer=3", "--claim", "Dealer=3"], "a claim for the dealer's hand is given twice"),
    (["--claim", "pone=²"], "a claim is a whole number from 0 to 29"),
    (["--claim", "pone=٣"], "a claim is a whole number from 0 to 29"),
    (["--claim", f"pone={HUGE}"], "a claim is a whole number from 0 to 29"),
    (["--claim", "pone=-1"], "a claim is a whole number from 0 to 29"),
    (["--claim", "pone=3:nobody"], "'nobody' is not a role at a table of 2"),
    (["--muggins", "pone"], "write it as ROLE=X"),
    (["--muggins", "pone=2"], "muggins called on the pone, but nobody claimed a total for it"),
    (["--claim", "pone=3", "--muggins", "pone=2", "--muggins", "pone=1"], "muggins called twice"),
    (["--claim", "pone=3", "--muggins", "pone=٢"], "a whole number from 1 to 29"),
    (["--claim", "pone=3", "--muggins", f"pone={HUGE}"], "a whole number from 1 to 29"),
    (["--claim", "pone=3", "--muggins", "pone=2:pone"], "cannot call muggins on their own side"),
    (["--role", "1"], "write it as GROUP=ROLE"),
    (["--role", "0=crib"], "a whole number from 1 to 3"),
    (["--role", "4=crib"], "a whole number from 1 to 3"),
    (["--role", "²=crib"], "a whole number from 1 to 3"),
    (["--role", f"{HUGE}=crib"], "a whole number from 1 to 3"),
    (["--role", "1=second"], "'second' is not a role at a table of 2"),
    (["--role", "1=crib", "--role", "2=crib"], "the crib is named for groups 1 and 2"),
    (["--role", "1=crib", "--role", "1=pone"], "group 1 is named twice"),
    (["--move", "7H"], "write it as CARD=GROUP"),
    (["--move", "QQ=1"], "QQ"),
    (["--move", "9H=1"], "9H is not among the cards seen"),
    (["--move", "7H=4"], "a whole number from 1 to 3"),
    (["--move", "7H=-1"], "a whole number from 1 to 3"),
    (["--score", "pone"], "write it as SIDE=N"),
    (["--score", "pone=-5"], "a whole number from 0 to 120"),
    (["--score", "pone=121"], "a whole number from 0 to 120"),
    (["--score", f"pone={HUGE}"], "a whole number from 0 to 120"),
    (["--score", "pone=٣"], "a whole number from 0 to 120"),
    (["--score", "pone=61", "--game", "61"], "a whole number from 0 to 60"),
    (["--score", "pone=1", "--score", "pone=5"], "pone's score is given twice: one score a side"),
    (["--score", "dealer=1", "--score", "crib=5"], "the dealer's score is given twice"),
    (["--game", "100"], "invalid choice"),
    (["--seat", "second"], "'second' is not a role at a table of 2"),
    (["--seat", "crib"], "'crib' is not a seat at a table of 2: one of pone, dealer"),
    (["--five-card", "--players", "3"], "five-card cribbage is a two-player game"),
])
def test_bad_words_are_one_line_and_exit_2(table, capsys, words, said):
    line = failed(capsys, table, *words)
    assert line.startswith("cribcount referee: error: ") and said in line
    assert len(line) < 300


@pytest.mark.parametrize("players", ["5", "1", "²", "two"])
def test_players_outside_two_to_four_is_one_line(table, capsys, players):
    assert exit_code(["referee", table, "--players", players]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--players" in err[0]


def test_a_card_twice_on_the_table_is_one_line(tmp_path, fake, capsys):
    photo = table_photo(crib="AC AD 10S 4H", size=(2400, 1808))
    misread = tuple(Card.parse("7H") if str(c) == "4H" else c for c in photo.detections.cards)
    path = photo_file(tmp_path, fake, replace(photo, detections=photo.detections.with_(cards=misread)))
    line = failed(capsys, path)
    assert "7H is in" in line and "a deck holds each card once" in line


def test_a_photo_with_twelve_cards_is_one_line(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, table_photo(crib="AC AD 10S", size=(2400, 1812)))
    assert "holds 13 cards (every hand, the crib and the starter), found 12" in failed(capsys, path)


def test_a_photo_of_one_hand_is_one_line(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    assert "holds 13 cards (every hand, the crib and the starter), found 5" in failed(capsys, path)


def grey_jpeg() -> bytes:
    grey = cv2.cvtColor(cv2.imdecode(np.frombuffer(table_photo().jpeg, np.uint8), cv2.IMREAD_COLOR),
                        cv2.COLOR_BGR2GRAY)
    return cv2.imencode(".jpg", grey)[1].tobytes()


@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: str(tmp / "missing.jpg"), "missing.jpg"),
    (lambda tmp: str(tmp), ""),
    (lambda tmp: _written(tmp / "notes.jpg", b"the crib was six"), "not an image"),
    (lambda tmp: _written(tmp / "empty.jpg", b""), "the file is empty"),
])
def test_a_photo_that_is_not_a_photo_is_one_line(tmp_path, fake, capsys, make, said):
    path = make(tmp_path)
    line = failed(capsys, path)
    assert line.startswith("cribcount referee: error: ") and said in line


def test_a_greyscale_photo_is_refused_as_suits_need_colour(tmp_path, fake, capsys):
    path = _written(tmp_path / "grey.jpg", grey_jpeg())
    assert "the photo is greyscale" in failed(capsys, path)


def _written(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_help_names_every_option_in_the_players_words(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["referee", "--help"])
    assert exit_.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for option in ("--players {2,3,4}", "--seat SEAT", "--claim ROLE=N", "--muggins ROLE=X",
                   "--role GROUP=ROLE", "--move CARD=GROUP", "--fix READ=CARD", "--add CARD=BESIDE",
                   "--score SIDE=N", "--game {121,61}",
                   "--five-card", "--no-muggins", "--json"):
        assert option in text
