"""A scene pack: each scene of a detector mix written once, shrunk to the training size, as WebP
with its labels; the mix's repeats kept in a train list that reads from wherever it is unpacked."""

from __future__ import annotations

import zipfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from training.data.yolo import label_of
from training.data.det_data import main as det_data
from training.data.scene_pack import main, pack


def _scene_set(root: Path, sizes: dict[str, tuple[int, int]]) -> None:
    """A YOLO scene set: images/train, images/val and one label row per scene in labels/."""
    for split in ("train", "val"):
        (root / "images" / split).mkdir(parents=True)
        (root / "labels" / split).mkdir(parents=True)
        for stem, (h, w) in sizes.items():
            cv2.imwrite(str(root / "images" / split / f"{stem}.jpg"), np.full((h, w, 3), 180, np.uint8))
            (root / "labels" / split / f"{stem}.txt").write_text("0 0.5 0.5 0.1 0.2\n")


@pytest.fixture
def mix(tmp_path):
    # Two sets that both hold a scene called s-000: the pack must keep them apart.
    _scene_set(tmp_path / "big", {"s-000": (1200, 1600), "s-001": (900, 1200)})
    _scene_set(tmp_path / "real", {"s-000": (300, 400)})
    assert det_data(["--out", str(tmp_path / "mix"), str(tmp_path / "big"), f"{tmp_path / 'real'}*3"]) == 0
    return tmp_path / "mix"


def test_each_scene_is_written_once_and_the_repeats_stay_in_the_list(mix, tmp_path):
    scenes, lines, size = pack(mix, tmp_path / "p")
    train = (tmp_path / "p" / "train.txt").read_text().split()
    assert (scenes, lines) == (2 + 1 + 2 + 1, 2 + 3)
    assert train.count("./images/train/1_s-000.webp") == 3
    assert "./images/train/0_s-000.webp" in train and size > 0
    assert len(list((tmp_path / "p" / "images" / "train").iterdir())) == 3


def test_a_large_scene_is_shrunk_to_the_training_size_and_a_small_one_kept(mix, tmp_path):
    pack(mix, tmp_path / "p", max_side=480)
    images = tmp_path / "p" / "images" / "train"
    assert cv2.imread(str(images / "0_s-000.webp")).shape[:2] == (360, 480)
    assert cv2.imread(str(images / "1_s-000.webp")).shape[:2] == (300, 400)


def test_the_labels_travel_unchanged_beside_their_scenes(mix, tmp_path):
    pack(mix, tmp_path / "p")
    for line in (tmp_path / "p" / "val.txt").read_text().split():
        image = tmp_path / "p" / line
        assert image.is_file()
        assert label_of(image).read_text() == "0 0.5 0.5 0.1 0.2\n"


def test_ultralytics_finds_the_labels_where_it_looks_for_them():
    assert label_of(Path("/x/images/train/a.webp")) == Path("/x/labels/train/a.txt")
    assert label_of(Path("/images/d/images/val/b.jpg")) == Path("/images/d/labels/val/b.txt")
    with pytest.raises(ValueError, match="not under an images/ folder"):
        label_of(Path("/x/scenes/a.jpg"))


def test_the_command_zips_the_pack_in_parts_that_unzip_into_the_pack(mix, tmp_path):
    assert main([str(mix), "--out", str(tmp_path / "p"), "--zip-parts", "2"]) == 0
    unpacked = tmp_path / "u"
    for part in (tmp_path / "p.1.zip", tmp_path / "p.2.zip"):
        zipfile.ZipFile(part).extractall(unpacked)
    assert sorted(f.relative_to(unpacked / "p") for f in unpacked.rglob("*") if f.is_file()) == \
        sorted(f.relative_to(tmp_path / "p") for f in (tmp_path / "p").rglob("*") if f.is_file())
    assert "path:" not in (unpacked / "p" / "data.yaml").read_text()


def test_a_folder_that_is_no_mix_is_refused_with_a_message(tmp_path, capsys):
    assert main([str(tmp_path), "--out", str(tmp_path / "p")]) == 2
    assert "train.txt" in capsys.readouterr().err


@pytest.mark.train
def test_ultralytics_reads_the_unpacked_pack_with_every_label(mix, tmp_path):
    pytest.importorskip("ultralytics", reason="the train extra (torch, ultralytics) is not installed")
    from ultralytics.data.dataset import YOLODataset
    from ultralytics.data.utils import check_det_dataset

    main([str(mix), "--out", str(tmp_path / "p"), "--zip-parts", "1"])
    zipfile.ZipFile(tmp_path / "p.zip").extractall(tmp_path / "elsewhere")
    data = check_det_dataset(str(tmp_path / "elsewhere" / "p" / "data.yaml"))
    scenes = YOLODataset(img_path=data["train"], data=data, imgsz=64, augment=False)
    assert len(scenes.labels) == 5  # the real scene three times
    assert all(len(label["cls"]) == 1 for label in scenes.labels)
    assert all(str(tmp_path / "elsewhere") in label["im_file"] for label in scenes.labels)


def test_blurred_copies_keep_their_scenes_labels_and_repeats_and_only_train_gets_them(tmp_path):
    # A scene with edges to blur: a white card on a dark table.
    for split in ("train", "val"):
        (tmp_path / "s" / "images" / split).mkdir(parents=True)
        (tmp_path / "s" / "labels" / split).mkdir(parents=True)
        for i in range(4):
            img = np.zeros((300, 400, 3), np.uint8)
            cv2.rectangle(img, (100, 80), (220, 240), (255, 255, 255), -1)
            cv2.imwrite(str(tmp_path / "s" / "images" / split / f"s-{i}.jpg"), img)
            (tmp_path / "s" / "labels" / split / f"s-{i}.txt").write_text(f"0 0.3 0.{i + 2} 0.05 0.1\n")
    assert det_data(["--out", str(tmp_path / "mix"), f"{tmp_path / 's'}*2"]) == 0
    pack(tmp_path / "mix", tmp_path / "p", blurred=1.0, seed=3)
    train = (tmp_path / "p" / "train.txt").read_text().split()
    assert len(train) == 4 * 2 * 2 and train.count("./images/train/0_s-1-blur.webp") == 2
    assert not any("blur" in line for line in (tmp_path / "p" / "val.txt").read_text().split())
    images = tmp_path / "p" / "images" / "train"
    sharp, soft = (cv2.imread(str(images / name)).astype(float) for name in ("0_s-1.webp", "0_s-1-blur.webp"))
    assert np.abs(np.diff(soft, axis=1)).max() < np.abs(np.diff(sharp, axis=1)).max()
    labels = tmp_path / "p" / "labels" / "train"
    assert (labels / "0_s-1-blur.txt").read_text() == (labels / "0_s-1.txt").read_text()


def test_no_share_writes_no_blurred_copy_and_the_same_seed_the_same_ones(mix, tmp_path):
    pack(mix, tmp_path / "none")
    assert not list((tmp_path / "none").rglob("*-blur*"))
    for name in ("a", "b"):
        pack(mix, tmp_path / name, blurred=0.5, seed=9)
    assert (tmp_path / "a" / "train.txt").read_text() == (tmp_path / "b" / "train.txt").read_text()
    assert [f.read_bytes() for f in sorted((tmp_path / "a").rglob("*-blur.webp"))] == \
        [f.read_bytes() for f in sorted((tmp_path / "b").rglob("*-blur.webp"))]
