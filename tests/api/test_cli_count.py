"""`cribcount count PHOTO`: cards, starter, itemized count, spoken count, claim; exit 2 with a reason."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest
from support import (
    FakeRecognizer,
    as_heic,
    draw_table,
    load_samples,
    real_models_reason,
    show_photo,
    spread_photo,
)

import api.commands.photo
from api.cli import main
from api.commands.photo import sheet_paths
from scorer.cards import Card
from vision.decode import LOCAL
from vision.detections import Expected


@pytest.fixture
def fake(monkeypatch) -> FakeRecognizer:
    recognizer = FakeRecognizer()
    monkeypatch.setattr(api.commands.photo, "photo_recognizer", lambda models: recognizer)
    return recognizer


def photo_file(tmp_path, fake, photo, name="table.jpg"):
    fake.add(photo)
    path = tmp_path / name
    path.write_bytes(photo.jpeg)
    return str(path)


def test_count_prints_cards_starter_items_and_the_spoken_count(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    assert main(["count", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Cards seen: 5H 99%, 5D 99%, 5C 97%, 5S 98%, JC 98%"
    assert out[1] == "Starter: 5C, set apart above the row of the other four (99% sure)"
    assert out[2] == "Hand 5D 5H 5S JC, starter 5C"
    assert "  nobs     JC               1  JC is the jack of the starter's suit: one for his nobs" in out
    assert sum(line.startswith("  fifteen") for line in out) == 8
    assert "Total: 29" in out
    assert out[-1].startswith("Count: Fifteen two, fifteen four,") and out[-1].endswith("twenty-nine")


def test_count_names_the_cards_to_check(tmp_path, fake, capsys):
    photo = show_photo("5H 5D 5S JC 5C", size=(1600, 1206))
    path = photo_file(tmp_path, fake, photo)
    unsure = np.array([0.6 if card == Card.parse("5S") else 0.99 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=unsure)
    assert main(["count", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("Check 5S (60%): not sure of it; if one is wrong, count the cards typed: "
                      "cribcount score HAND STARTER")


def test_count_says_which_card_it_set_aside(tmp_path, fake, capsys):
    photo = show_photo("5H 5D 5S JC 5C", size=(1600, 1214))
    path = photo_file(tmp_path, fake, photo)
    sure = np.array([0.75 if card == Card.parse("5S") else 0.99 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=sure)
    assert main(["count", path, "--starter", "KD"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == ["Set aside: 5S (75%): 5 cards seen besides the starter named (KD), one too many "
                        "for a hand of 4, and 5S the one read least surely",
                        "  If 5S is one of the show, count the cards typed: cribcount score HAND STARTER"]
    assert "Hand 5C 5D 5H JC, starter KD" in out


def test_a_starter_named_beside_five_sure_cards_says_it_may_be_among_them(tmp_path, fake, capsys):
    photo = show_photo("AC 2H 2S 5D 7D", size=(1600, 1214))
    path = photo_file(tmp_path, fake, photo)
    sure = np.array([0.97 if card == Card.parse("5D") else 0.99 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=sure)
    assert main(["count", path, "--starter", "10H"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["Set aside: 5D (97%): 5 cards seen besides the starter named (10H), one too many "
                        "for a hand of 4, and 5D the one read least surely",
                        "  All 5 read sure: if the starter is one of them, name that card with --starter "
                        "(or leave --starter out and the layout finds it)",
                        "  If 5D is one of the show, count the cards typed: cribcount score HAND STARTER"]


def test_a_sixth_card_seen_is_one_too_many_for_a_show(tmp_path, fake, capsys):
    photo = spread_photo("AC 2H 2S 5D 7D 9S", size=(1600, 1214))
    path = photo_file(tmp_path, fake, photo)
    sure = np.array([0.7 if card == Card.parse("9S") else 0.99 for card in photo.detections.cards])
    fake.scenes[photo.size] = photo.detections.with_(confidence=sure)
    assert main(["count", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("Set aside: 9S (70%): 6 cards seen, one too many for a show of 5, and 9S the one "
                      "read least surely")


def test_count_tells_the_recognizer_the_photo_holds_a_show(tmp_path, fake):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    assert main(["count", path]) == 0
    assert main(["count", path, "--starter", "5C"]) == 0
    assert fake.expected[-2:] == [Expected(5), Expected(4, besides=Card.parse("5C"))]


def test_count_json_has_the_api_shape(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    assert main(["count", path, "--json", "--claim", "28"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert set(body) == {"cards", "set_aside", "image", "starter", "show"}
    assert body["show"]["total"] == 29
    assert body["show"]["claim"]["verdict"] == "under-claimed"


def test_count_checks_a_claim(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    main(["count", path, "--claim", "29"])
    assert "Claim 29: Correct: the hand counts 29." in capsys.readouterr().out


def test_count_as_the_crib(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("2H 4H 6H 8H KS"))
    main(["count", path, "--crib"])
    out = capsys.readouterr().out
    assert "Crib 2H 4H 6H 8H, starter KS" in out and "Total: 0" in out


def test_four_cards_and_a_named_starter(tmp_path, fake, capsys):
    path = photo_file(tmp_path, fake, show_photo("8H 7C 7D 6S"))
    assert main(["count", path, "--starter", "as"]) == 0
    out = capsys.readouterr().out
    assert "Starter: AS (named)" in out and "Total: 16" in out


def test_an_unsure_starter_says_how_to_name_it(tmp_path, fake, capsys):
    row = draw_table("5H 5D 5S JC 5C", [(200 + 300 * i, 600) for i in range(5)])
    path = photo_file(tmp_path, fake, row)
    main(["count", path])
    starter_line = capsys.readouterr().out.splitlines()[1]
    assert "20% sure" in starter_line and "name it with --starter CARD" in starter_line


def test_annotate_writes_the_photo_with_boxes_and_items(tmp_path, fake, capsys):
    photo = show_photo("5H 5D 5S JC 5C")
    path = photo_file(tmp_path, fake, photo)
    out = tmp_path / "annotated.jpg"
    assert main(["count", path, "--annotate", str(out)]) == 0
    drawn = cv2.imread(str(out))
    assert drawn.shape[1] == 1600 and drawn.shape[0] > 1200  # the item list is a band below the photo
    assert f"Annotated photo: {out}" in capsys.readouterr().out


@pytest.mark.parametrize("cards,args,message", [
    ("8H 7C 7D 6S", [], "4 cards seen (8H 7C 7D 6S): name the starter, or photograph it with them "
                        "(--starter CARD)"),
    ("", [], "no cards seen"),
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H", [], "9 cards seen (AH 6H 2H 7H 3H 8H 4H 9H 5H)"),
    ("5H 5D 5S JC 5C", ["--starter", "XX"], "'XX' is not a card"),
    ("5H 5D 5S JC 5C", ["--claim", "31"], "a claim is a whole number from 0 to 29"),
])
def test_photos_that_are_not_a_show_exit_2_with_what_was_seen(tmp_path, fake, capsys, cards, args, message):
    photo = spread_photo(cards, size=(1300, 1000)) if len(cards.split()) != 5 else show_photo(cards)
    path = photo_file(tmp_path, fake, photo)
    assert main(["count", path, *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cribcount count: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_a_file_that_is_not_a_photo(tmp_path, fake, capsys):
    path = tmp_path / "notes.jpg"
    path.write_text("fifteen two")
    assert main(["count", str(path)]) == 2
    assert "not an image" in capsys.readouterr().err


def test_a_missing_photo(tmp_path, fake, capsys):
    assert main(["count", str(tmp_path / "none.jpg")]) == 2
    assert "none.jpg: no such file" in capsys.readouterr().err


def test_a_folder_named_as_the_photo(tmp_path, fake, capsys):
    assert main(["count", str(tmp_path)]) == 2
    assert f"{tmp_path}: a folder, not a photo" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["annotated.txt", "annotated", "no-such-folder/annotated.jpg", "."])
def test_an_annotate_name_opencv_cannot_write_is_refused_before_reading(tmp_path, fake, capsys, name):
    path = photo_file(tmp_path, fake, show_photo("5H 5D 5S JC 5C"))
    assert main(["count", path, "--annotate", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert "use a .jpg or .png name in an existing folder" in err and len(err.strip().splitlines()) == 1
    assert fake.expected == []  # refused before the recognizer looked at the photo


def test_missing_models_are_a_clear_error(tmp_path, capsys):
    photo = tmp_path / "t.jpg"
    photo.write_bytes(show_photo().jpeg)
    assert main(["count", str(photo), "--models", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "detector.onnx is missing" in err and "models/README.md" in err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
@pytest.mark.parametrize("sample", load_samples(), ids=lambda s: s.path.name)
def test_sample_photos_count_right_with_the_real_models(sample):
    """The README's command, as a user runs it: real models, no torch, the right total."""
    # torch and ultralytics are blocked from importing: the runtime must not need them.
    no_torch = ("import sys; sys.modules.update(torch=None, torchvision=None, ultralytics=None); "
                "from api.cli import main; sys.exit(main(sys.argv[1:]))")
    args = [sys.executable, "-c", no_torch, "count", str(sample.path), "--json"]
    if sample.starter is not None and sample.starter not in sample.cards:
        args += ["--starter", str(sample.starter)]
    if sample.crib:
        args.append("--crib")
    result = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert sorted(c["card"] for c in body["cards"]) == sorted(map(str, sample.cards))
    assert body["show"]["total"] == sample.total


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_a_sample_photo_sent_as_an_iphone_heic_counts_as_its_jpeg_does(tmp_path):
    """An iPhone saves HEIC: the same photo in that format reads the same cards and total."""
    sample = next(s for s in load_samples() if s.path.name == "starter-below-the-row.jpg")
    heic = tmp_path / "starter-below-the-row.heic"
    heic.write_bytes(as_heic(cv2.imread(str(sample.path))))
    no_torch = ("import sys; sys.modules.update(torch=None, torchvision=None, ultralytics=None); "
                "from api.cli import main; sys.exit(main(sys.argv[1:]))")
    result = subprocess.run([sys.executable, "-c", no_torch, "count", str(heic), "--json"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert sorted(c["card"] for c in body["cards"]) == sorted(map(str, sample.cards))
    assert body["show"]["total"] == sample.total


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_prints_the_figures_of_a_labelled_folder(capsys):
    assert main(["eval", "sample_images", "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert (figures["photos"], figures["card_accuracy"], figures["hand_accuracy"]) == (5, 1.0, 1.0)


def test_eval_of_a_folder_without_labels_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["eval", str(tmp_path)]) == 2
    assert "no cards.csv" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["failures.txt", "no-such-folder/failures.jpg", "."])
def test_an_eval_sheet_name_opencv_cannot_write_is_refused_before_any_photo_is_read(
        tmp_path, csv_set, capsys, monkeypatch, name):
    monkeypatch.setattr(api.commands.photo, "photo_recognizer",
                        lambda models: pytest.fail("models loaded for a sheet that cannot be written"))
    assert main(["eval", str(csv_set), "--sheet", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    rule = "use a .jpg or .png name in an existing folder"
    assert err == f"cribcount eval: error: --sheet {tmp_path / name}: {rule}\n"


def test_eval_sheets_of_several_folders_are_numbered_and_none_made_for_a_run_without_sheet(tmp_path):
    assert sheet_paths(str(tmp_path / "fail.jpg"), 2) == [tmp_path / "fail-0.jpg", tmp_path / "fail-1.jpg"]
    assert sheet_paths(str(tmp_path / "fail.png"), 1) == [tmp_path / "fail.png"]
    assert sheet_paths(None, 2) == [None, None]


@pytest.mark.parametrize("command", ["count", "score", "discard", "practice", "peg", "eval", "serve"])
def test_help_prints_a_percent_sign_once(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and out.startswith(f"usage: cribcount {command}") and "%%" not in out


def test_count_help_names_every_photo_format_read_and_the_limits_of_a_local_photo(capsys):
    with pytest.raises(SystemExit):
        main(["count", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "JPEG, PNG, WebP, HEIC or AVIF" in out
    assert f"at most {LOCAL.bytes // 2**20} MB and {LOCAL.pixels // 10**6} megapixels" in out
