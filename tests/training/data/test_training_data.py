"""Training-data plumbing: real index crops from whole-card labels, and merged crop sets."""

import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from scorer.cards import Card
from training.data.cls_data import Source, main as cls_data_main, merge
from vision.detections import Detections
from training.data.real_crops import assign, main as real_crops_main, middle_boxes, mirror_votes, split_of

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


def found_indices(*boxes: np.ndarray) -> tuple[Detections, list]:
    xyxy = np.stack(boxes)
    cards = [(C5, UPRIGHT)]
    return Detections(xyxy=xyxy, confidence=np.ones(len(xyxy), np.float32)), [assign(b, cards) for b in xyxy]


def test_pip_crops_come_from_the_middle_of_the_card_at_its_index_size():
    found, owners = found_indices(box_around(110, 112), box_around(190, 238))
    boxes = middle_boxes([(C5, UPRIGHT)], found, owners, 40, np.random.default_rng(0))
    assert len(boxes) > 10
    for b in boxes:
        cx, cy, side = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0]
        assert assign(box_around(cx, cy), [(C5, UPRIGHT)]) is None  # in the middle: a pip
        assert 16 * 0.8 * 1.2 - 1e-3 <= side <= 16 * 1.3 * 1.8 + 1e-3  # this photo's index size, with crop margins


def test_a_pip_crop_never_takes_in_an_index():
    found, owners = found_indices(box_around(110, 112), box_around(190, 238), box_around(150, 175, 20))
    owners[2] = C9  # say the detector vouched for an index in the middle (another card lying over it)
    boxes = middle_boxes([(C5, UPRIGHT)], found, owners, 40, np.random.default_rng(0))
    assert not any(b[0] < 170 and b[2] > 130 and b[1] < 195 and b[3] > 155 for b in boxes)


def test_no_pip_crops_where_two_card_boxes_overlap_or_without_an_index_to_size_them():
    found, owners = found_indices(box_around(110, 112))
    assert middle_boxes([(C5, UPRIGHT), (C9, UPRIGHT + 5)], found, owners, 20, np.random.default_rng(0)) == []
    found, owners = found_indices(box_around(400, 400))  # clutter only: no index size to go by
    assert middle_boxes([(C5, UPRIGHT)], found, owners, 20, np.random.default_rng(0)) == []


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


def test_a_source_of_val_crops_only_goes_to_val(tmp_path):
    synth = crop_set(tmp_path / "synth", {"train/5H": ["a.jpg"], "val/5H": ["b.jpg"]})
    val_only = crop_set(tmp_path / "valscenes", {"val/9C": ["c.jpg"]})
    counts = merge(tmp_path / "merged", [Source("syn", synth), Source("v", val_only)])
    assert counts == {"train": 1, "val": 2}
    assert [p.name for p in (tmp_path / "merged" / "val" / "9C").iterdir()] == ["v_c.jpg"]
    assert (tmp_path / "merged" / "train" / "9C").is_dir()  # Ultralytics wants every class in both


def test_merge_rejects_a_folder_that_is_not_a_crop_set(tmp_path, capsys):
    assert cls_data_main(["--out", str(tmp_path / "m"), f"x={tmp_path / 'nothing'}"]) == 2
    assert "not a crop set" in capsys.readouterr().err
    assert cls_data_main(["--out", str(tmp_path / "m"), "no-equals-sign"]) == 2


@pytest.mark.parametrize("spec, repeat", [("det=data/det/cls", 1), ("real=data/realcls:3", 3)])
def test_source_spec(spec, repeat):
    src = Source.parse(spec)
    assert src.repeat == repeat and src.name == spec.split("=")[0]


# -- real photos as detector scenes (training.data.real_scenes) ---------------------------------------

from training.data.real_crops import UprightPhoto  # noqa: E402
from training.data.real_scenes import index_labels, main as real_scenes_main  # noqa: E402

CLASSES = [C5, C9, None]


def photo_with(boxes: list[np.ndarray], scores: list[float], cards=((C5, UPRIGHT),)) -> UprightPhoto:
    found = Detections(xyxy=np.stack(boxes), confidence=np.array(scores, np.float32))
    cards = list(cards)
    return UprightPhoto(np.zeros((400, 400, 3), np.uint8), cards, found,
                        [assign(b, cards) for b in found.xyxy], mirrored=False, decided_by_layout=True)


def reads(*rows: list[float]) -> np.ndarray:
    return np.array(rows, np.float32)


def test_an_index_read_as_its_card_is_labelled_and_clutter_is_not():
    up = photo_with([box_around(110, 112), box_around(190, 238), box_around(350, 350)], [0.9, 0.8, 0.6])
    labels = index_labels(up, reads([0.9, 0.05, 0.05], [0.8, 0.1, 0.1], [0.0, 0.0, 1.0]), CLASSES)
    assert labels.problem is None
    assert len(labels.boxes) == 2 and not labels.completed


def test_a_faint_detection_where_the_twin_index_must_be_is_labelled():
    twin = box_around(190, 238)
    up = photo_with([box_around(110, 112), twin], [0.9, 0.06])
    labels = index_labels(up, reads([0.9, 0.05, 0.05], [0.1, 0.6, 0.3]), CLASSES)
    assert labels.problem is None and labels.completed == 1
    assert any(np.allclose(b, twin) for b in labels.boxes)


def test_a_photo_with_a_visible_corner_and_no_detection_there_is_left_out():
    up = photo_with([box_around(110, 112)], [0.9])
    labels = index_labels(up, reads([0.9, 0.05, 0.05]), CLASSES)
    assert labels.problem == "missed twin: other index of 5H not found"


def test_a_corner_under_another_card_is_taken_as_covered():
    covering = np.array([170, 210, 320, 360], np.float32)  # lies over the 5's bottom-right corner
    up = photo_with([box_around(110, 112), box_around(300, 340)], [0.9, 0.9], cards=((C5, UPRIGHT), (C9, covering)))
    labels = index_labels(up, reads([0.9, 0.05, 0.05], [0.05, 0.9, 0.05]), CLASSES)
    assert labels.problem is None
    assert len(labels.boxes) == 2


def test_a_card_with_no_vouched_index_leaves_the_photo_out():
    nine = np.array([250, 250, 350, 400], np.float32)
    up = photo_with([box_around(110, 112), box_around(190, 238)], [0.9, 0.9], cards=((C5, UPRIGHT), (C9, nine)))
    labels = index_labels(up, reads([0.9, 0.05, 0.05], [0.9, 0.05, 0.05]), CLASSES)
    assert labels.problem == "unread card: no index of 9C"


def test_a_sure_index_misread_at_a_card_corner_leaves_the_photo_out():
    up = photo_with([box_around(110, 112), box_around(190, 238)], [0.9, 0.9])
    labels = index_labels(up, reads([0.9, 0.05, 0.05], [0.02, 0.95, 0.03]), CLASSES)
    assert labels.problem == "misread: index of 5H read as 9C"


def test_real_scenes_refuse_the_validation_set(tmp_path, capsys):
    assert real_scenes_main(["--photos", "../shared/photos/poker-cards-4", "--out", str(tmp_path)]) == 2
    assert "validation only" in capsys.readouterr().err


# -- detector scene mixes (training.data.det_data) ------------------------------------------------------

from training.data.det_data import SceneSource, main as det_data_main, mix  # noqa: E402


def scene_set(root: Path, train: int, val: int) -> Path:
    for split, n in (("train", train), ("val", val)):
        (root / "images" / split).mkdir(parents=True)
        for i in range(n):
            (root / "images" / split / f"{split}{i:02d}.jpg").write_bytes(b"")
    return root


def test_a_scene_source_spec_names_samples_and_repeats():
    assert SceneSource.parse("data/det/yolo@1200/150") == SceneSource(Path("data/det/yolo"), 1200, 150, 1)
    assert SceneSource.parse("data/realdet*4") == SceneSource(Path("data/realdet"), None, None, 4)
    with pytest.raises(ValueError, match="REPEAT"):
        SceneSource.parse("data/realdet*0")


def test_a_mix_samples_repeats_and_is_the_same_every_time(tmp_path):
    synth, real = scene_set(tmp_path / "synth", 20, 10), scene_set(tmp_path / "real", 3, 2)
    sources = [SceneSource(synth, 5, 4), SceneSource(real, repeat=3)]
    train, val = mix(sources, seed=1)
    assert len(train) == 5 + 3 * 3 and len(val) == 4 + 2
    assert len(set(train[:5])) == 5 and train[5:8] * 3 == train[5:]
    assert (train, val) == mix(sources, seed=1)


def test_a_mix_of_a_missing_set_is_a_clear_error(tmp_path, capsys):
    assert det_data_main(["--out", str(tmp_path / "mix"), str(tmp_path / "nowhere")]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_a_draw_of_none_reads_no_folder_so_train_only_sets_mix(tmp_path):
    train_only = tmp_path / "rp"
    (train_only / "images" / "train").mkdir(parents=True)
    for i in range(4):
        (train_only / "images" / "train" / f"t{i}.jpg").write_bytes(b"")
    val_only = tmp_path / "rpv"
    (val_only / "images" / "val").mkdir(parents=True)
    (val_only / "images" / "val" / "v0.jpg").write_bytes(b"")
    train, val = mix([SceneSource(train_only, 3, 0), SceneSource(val_only, 0, 1)], seed=2)
    assert len(train) == 3 and all(p.parent.name == "train" for p in train)
    assert [p.name for p in val] == ["v0.jpg"]


# -- detector-mined none crops on labelled renders (training.data.mined_crops) ---------------------------

from training.data.mined_crops import card_at, clean_none, harvest, main as mined_main  # noqa: E402

# One face-up card, 100 x 140 px, upright, its two labelled indices at the top-left and bottom-right.
ONE_CARD = {"cards": [{"card": "7H", "face_up": True,
                       "corners": [[100, 100], [200, 100], [200, 240], [100, 240]],
                       "indices": [{"box_xyxy": [104, 104, 120, 134]}, {"box_xyxy": [180, 206, 196, 236]}]}]}


def mined(*boxes, label=ONE_CARD, scale=1.0):
    return clean_none(np.array(boxes, np.float32), label, scale).tolist()


def test_a_detection_on_a_pip_in_the_middle_of_a_face_is_a_none():
    assert mined([140, 155, 160, 185]) == [True]


def test_a_detection_on_the_table_is_a_none():
    assert mined([400, 400, 420, 430]) == [True]


def test_a_detection_on_a_labelled_index_or_part_of_one_is_not():
    assert mined([104, 104, 120, 134], [110, 120, 125, 140]) == [False, False]


def test_a_detection_at_an_unlabelled_corner_is_not_since_some_decks_print_four_indices():
    # The top-right and bottom-left corners: an index there is a real one the labels don't name.
    assert mined([180, 104, 196, 134], [104, 206, 120, 236]) == [False, False]


def test_a_corner_of_a_card_back_is_a_none():
    back = {"cards": [{**ONE_CARD["cards"][0], "face_up": False, "indices": []}]}
    assert mined([180, 104, 196, 134], label=back) == [True]


def test_boxes_in_photo_pixels_are_compared_at_the_photo_scale():
    # The photo decoded at half size (Photo.scale 2): the labelled index is at half its label coordinates.
    assert mined([52, 52, 60, 67], scale=2.0) == [False]
    assert mined([70, 77, 80, 92], scale=2.0) == [True]


def test_a_scene_decoded_at_reduced_scale_is_mined_in_its_own_pixels(tmp_path):
    """A render of 3400 px decodes at half size: a box on its labelled index (in decoded pixels)
    is no ``none``; one on the table is."""
    scenes = tmp_path / "scenes" / "yolo" / "images" / "train"
    scenes.mkdir(parents=True)
    cv2.imwrite(str(scenes / "s.jpg"), np.full((2550, 3400, 3), (210, 200, 190), np.uint8))
    label = {"image": "s.jpg", "split": "train", "cards": [
        {"card": "7H", "face_up": True, "corners": [[1000, 1000], [2000, 1000], [2000, 2400], [1000, 2400]],
         "indices": [{"box_xyxy": [1040, 1040, 1200, 1340]}, {"box_xyxy": [1800, 2060, 1960, 2360]}]}]}
    (scenes / "s.json").write_text(json.dumps(label))
    on_index, on_table = [520, 520, 600, 670], [100, 100, 180, 250]  # decoded (half-size) pixels

    class Finder:
        config = SimpleNamespace(min_long_side=1600)

        def detect_indices(self, img):
            assert img.shape[:2] == (1275, 1700)
            return Detections(xyxy=np.array([on_index, on_table], np.float32), confidence=np.array([0.9, 0.8]))

    counts = harvest([tmp_path / "scenes"], tmp_path / "out", Finder(), per_scene=5, seed=0)
    assert counts["off index"] == 1 and counts["none crops"] == 1
    assert [p.name for p in (tmp_path / "out" / "train" / "none").iterdir()] == ["s_01.jpg"]

    label["cards"][0]["indices"][0].update(visible_box_xyxy=[1040, 1040, 1200, 1340], visible_fraction=1.0, legible=True)
    (scenes / "s.json").write_text(json.dumps(label))
    counts = harvest([tmp_path / "scenes"], tmp_path / "cards", Finder(), per_scene=5, seed=0, cards=True)
    assert counts["card crops"] == 1 and counts["none crops"] == 1
    assert [p.name for p in (tmp_path / "cards" / "train" / "7H").iterdir()] == ["s_00.jpg"]


def labelled_index(box, visible=1.0, legible=True):
    return {"box_xyxy": box, "visible_box_xyxy": box if visible else None, "visible_fraction": visible,
            "legible": legible}


def test_with_cards_a_detection_on_a_legible_index_is_filed_under_its_card():
    label = {"cards": [{"card": "7H", "face_up": True, "indices": [labelled_index([104, 104, 120, 134])]}]}
    boxes = np.array([[105, 106, 121, 133], [400, 400, 420, 430]], np.float32)
    assert card_at(boxes, label, 1.0) == ["7H", None]


def test_with_cards_a_box_on_an_illegible_or_mostly_covered_index_or_a_back_is_no_card_crop():
    box = [104, 104, 120, 134]
    for card in ({"card": "7H", "face_up": True, "indices": [labelled_index(box, legible=False)]},
                 {"card": "7H", "face_up": True, "indices": [labelled_index(box, visible=0.4)]},
                 {"card": "7H", "face_up": False, "indices": [labelled_index(box)]}):
        assert card_at(np.array([box], np.float32), {"cards": [card]}, 1.0) == [None]


def test_with_cards_a_box_cutting_off_most_of_the_index_is_no_card_crop():
    label = {"cards": [{"card": "7H", "face_up": True, "indices": [labelled_index([104, 104, 120, 134])]}]}
    assert card_at(np.array([[104, 104, 120, 110]], np.float32), label, 1.0) == [None]  # IoU 0.2


def test_with_cards_boxes_in_photo_pixels_are_compared_at_the_photo_scale():
    label = {"cards": [{"card": "10C", "face_up": True, "indices": [labelled_index([104, 104, 120, 134])]}]}
    assert card_at(np.array([[52, 52, 60, 67]], np.float32), label, 2.0) == ["10C"]


def test_mining_a_folder_that_holds_no_scenes_is_a_clear_error(tmp_path, capsys):
    assert mined_main(["--scenes", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    assert "no such folder" in capsys.readouterr().err
