"""The chunky-club pack: an ambiguous design's clubs left out, the other chunky clubs and spades
repeated, everything else and val as they were, traced to the design by the scene's label."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training.data.chunky_clubs import ambiguous_designs, main, reweigh, scene_decks

AMBIGUOUS = "proc-rand-chunky-017"  # its top lobe sits at -0.26: a round blob at small sizes
PLAIN_CHUNKY = "proc-rand-chunky-001"  # -0.54: a club's top lobe, plainly


@pytest.fixture
def pack(tmp_path):
    scenes = tmp_path / "rp3" / "yolo" / "images" / "train"
    scenes.mkdir(parents=True)
    for scene, deck in (("s1-train-000001", AMBIGUOUS), ("s1-train-000002", PLAIN_CHUNKY)):
        (scenes / f"{scene}.json").write_text(json.dumps({"deck": deck, "cards": []}))
    root = tmp_path / "pack"
    for split, cls, name in (
        ("train", "2C", "chunky_s1-train-000001_00.webp"), ("train", "2S", "chunky_s1-train-000001_01.webp"),
        ("train", "2C", "chunky_s1-train-000002_00.webp"), ("train", "2H", "chunky_s1-train-000002_01.webp"),
        ("train", "2C", "det_s9-train-000004_00.webp"), ("val", "2C", "chunky_s1-train-000001_00.webp"),
    ):
        (root / split / cls).mkdir(parents=True, exist_ok=True)
        (root / split / cls / name).write_bytes(b"RIFF")
    return root, tmp_path / "rp3"


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_ambiguous_designs_are_the_chunky_ones_whose_top_lobe_hardly_rises():
    designs = ambiguous_designs()
    assert AMBIGUOUS in designs and PLAIN_CHUNKY not in designs
    assert all(d.startswith("proc-rand-chunky-") for d in designs)
    assert ambiguous_designs(club_top=0.0) == frozenset()


def test_an_ambiguous_designs_clubs_are_left_out_and_the_other_chunky_blacks_repeated(pack, tmp_path):
    src, scenes = pack
    counts = reweigh(src, tmp_path / "out", decks=scene_decks([scenes]), ambiguous=ambiguous_designs(), repeat=3)
    train = tmp_path / "out" / "train"
    assert _names(train / "2C") == ["chunky_s1-train-000002_00.webp", "chunky_s1-train-000002_00_x2.webp",
                                    "chunky_s1-train-000002_00_x3.webp", "det_s9-train-000004_00.webp"]
    assert len(_names(train / "2S")) == 3  # the ambiguous design's spades are spades: kept, and repeated
    assert _names(train / "2H") == ["chunky_s1-train-000002_01.webp"]  # red crops are not the question
    assert _names(tmp_path / "out" / "val" / "2C") == ["chunky_s1-train-000001_00.webp"]  # val as it was
    assert counts == {"kept": 4, "dropped": 1, "added": 4, "val": 1}
    assert (train / "2H" / "chunky_s1-train-000002_01.webp").stat().st_nlink == 2  # a hard link, not a copy


def test_a_crop_from_a_scene_not_given_is_an_error_not_a_guess(pack, tmp_path, capsys):
    src, scenes = pack
    assert main([str(src), "--out", str(tmp_path / "out"), "--scenes", str(scenes)]) == 0
    assert "4 kept, 1 clubs left out, 4 repeats; val 1" in capsys.readouterr().out
    other = tmp_path / "rpX" / "yolo" / "images" / "val"
    other.mkdir(parents=True)
    (other / "s5-val-000000.json").write_text(json.dumps({"deck": PLAIN_CHUNKY}))
    assert main([str(src), "--out", str(tmp_path / "out"), "--scenes", str(tmp_path / "rpX")]) == 2
    assert "s1-train-000001 is not in the rendered sets" in capsys.readouterr().err
    assert main([str(src), "--out", str(tmp_path / "out"), "--scenes", str(tmp_path)]) == 2
    assert "not a rendered set" in capsys.readouterr().err


def test_an_ambiguous_designs_clubs_big_enough_to_show_the_top_lobe_are_kept_and_repeated(pack, tmp_path, capsys):
    from PIL import Image

    src, scenes = pack
    for side, name in ((96, "chunky_s1-train-000001_00.webp"), (40, "chunky_s1-train-000001_05.webp")):
        Image.new("RGB", (side, side), "white").save(src / "train" / "2C" / name)
    counts = reweigh(src, tmp_path / "out", decks=scene_decks([scenes]), ambiguous=ambiguous_designs(), repeat=2,
                     keep_clubs_from=80)
    assert _names(tmp_path / "out" / "train" / "2C") == [
        "chunky_s1-train-000001_00.webp", "chunky_s1-train-000001_00_x2.webp",  # 96 px: a club, as any other
        "chunky_s1-train-000002_00.webp", "chunky_s1-train-000002_00_x2.webp", "det_s9-train-000004_00.webp"]
    assert counts["dropped"] == 1  # the 40 px blob
    assert main([str(src), "--out", str(tmp_path / "out"), "--scenes", str(scenes), "--keep-clubs-from", "-5"]) == 2
    assert "0 or more" in capsys.readouterr().err
    (src / "train" / "2C" / "chunky_s1-train-000001_00.webp").write_bytes(b"not an image")
    assert main([str(src), "--out", str(tmp_path / "out"), "--scenes", str(scenes), "--keep-clubs-from", "80"]) == 2
    assert "not an image" in capsys.readouterr().err
