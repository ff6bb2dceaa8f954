"""Training-data plumbing: real index crops from whole-card labels, and merged crop sets."""

from pathlib import Path

import numpy as np
import pytest

from scorer.cards import Card
from vision.cls_data import Source, main as cls_data_main, merge
from vision.real_crops import assign, main as real_crops_main, mirror_votes, split_of

C5, C9 = Card.parse("5H"), Card.parse("9C")
UPRIGHT = np.array([100, 100, 200, 250], np.float32)  # portrait card box: 100 wide, 150 tall


def box_around(x: float, y: float, r: float = 8) -> np.ndarray:
    return np.array([x - r, y - r, x + r, y + r], np.float32)


def test_an_index_in_a_card_corner_belongs_to_that_card():
    assert assign(box_around(110, 112), [(C5, UPRIGHT)]) == C5


def test_an_index_in_the_middle_of_a_card_is_a_pip_so_clutter():
    assert assign(box_around(150, 175), [(C5, UPRIGHT)]) is None


def test_an_index_between_corner_and_middle_is_not_vouched_for():
    assert assign(box_around(130, 140), [(C5, UPRIGHT)]) is False


def test_an_index_outside_every_card_is_clutter():
    assert assign(box_around(400, 400), [(C5, UPRIGHT)]) is None


def test_an_index_where_two_card_boxes_overlap_is_ambiguous():
    other = UPRIGHT + np.array([5, 5, 5, 5], np.float32)
    assert assign(box_around(110, 112), [(C5, UPRIGHT), (C9, other)]) is False


def test_upright_card_indices_on_the_main_diagonal_say_as_taken():
    indices = [(box_around(110, 112), C5), (box_around(190, 238), C5)]
    assert mirror_votes([(C5, UPRIGHT)], indices) == -2


def test_upright_card_indices_on_the_other_diagonal_say_mirrored():
    indices = [(box_around(190, 112), C5), (box_around(110, 238), C5)]
    assert mirror_votes([(C5, UPRIGHT)], indices) == 2


def test_a_card_turned_a_quarter_swaps_the_diagonals():
    sideways = np.array([100, 100, 250, 200], np.float32)
    indices = [(box_around(238, 110), C5), (box_around(112, 190), C5)]
    assert mirror_votes([(C5, sideways)], indices) == -2


def test_a_near_square_box_says_nothing_about_mirroring():
    square = np.array([100, 100, 200, 210], np.float32)
    assert mirror_votes([(C5, square)], [(box_around(110, 112), C5)]) == 0


def test_augmented_copies_of_one_photo_land_in_the_same_split():
    a = split_of("IMG_1_jpg.rf.aaaa.jpg", 3)
    assert all(split_of(f"IMG_1_jpg.rf.{x}.jpg", 3) == a for x in ("bbbb", "cccc", "dddd"))
    splits = {split_of(f"IMG_{i}_jpg.rf.x.jpg", 3) for i in range(60)}
    assert splits == {"train", "val"}
    assert split_of("IMG_1_jpg.rf.x.jpg", 0) == "train"


def test_real_crops_refuse_the_validation_set(tmp_path, capsys):
    assert real_crops_main(["--photos", "../shared/photos/poker-cards-4", "--out", str(tmp_path)]) == 2
    assert "validation only" in capsys.readouterr().err


def crop_set(root: Path, files: dict[str, list[str]]) -> Path:
    for rel, names in files.items():
        (root / rel).mkdir(parents=True, exist_ok=True)
        for n in names:
            (root / rel / n).write_bytes(b"x")
    return root


def test_merge_links_sources_and_repeats_only_train(tmp_path):
    synth = crop_set(tmp_path / "synth", {"train/5H": ["a.jpg", "b.jpg"], "val/5H": ["c.jpg"]})
    real = crop_set(tmp_path / "real", {"train/9C": ["d.jpg"], "val/9C": ["e.jpg"]})
    out = tmp_path / "merged"
    counts = merge(out, [Source("syn", synth), Source.parse(f"real={real}:3")])
    assert counts == {"train": 2 + 3, "val": 2}
    assert sorted(p.name for p in (out / "train" / "9C").iterdir()) == ["real2_d.jpg", "real3_d.jpg", "real_d.jpg"]
    assert (out / "train" / "9C" / "real_d.jpg").stat().st_ino == (real / "train" / "9C" / "d.jpg").stat().st_ino
    assert (out / "val" / "5H").is_dir() and (out / "train" / "5H").is_dir()


def test_merge_rejects_a_folder_that_is_not_a_crop_set(tmp_path, capsys):
    assert cls_data_main(["--out", str(tmp_path / "m"), f"x={tmp_path / 'nothing'}"]) == 2
    assert "not a crop set" in capsys.readouterr().err
    assert cls_data_main(["--out", str(tmp_path / "m"), "no-equals-sign"]) == 2


@pytest.mark.parametrize("spec, repeat", [("det=data/det/cls", 1), ("real=data/realcls:3", 3)])
def test_source_spec(spec, repeat):
    src = Source.parse(spec)
    assert src.repeat == repeat and src.name == spec.split("=")[0]
