"""A crop pack: every crop of the sources kept whole, half of one repeated source, none of its
copy, the none class capped, a share of val; WebP; the same seed makes the same pack."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from training.data.crop_pack import main, pack


@pytest.fixture
def crops(tmp_path):
    root = tmp_path / "cls"
    for split, n in (("train", 1), ("val", 1)):
        for cls in ("5S", "none"):
            d = root / split / cls
            d.mkdir(parents=True)
            names = ([f"nb_{i}.jpg" for i in range(6 * n)] + [f"real_{i}.jpg" for i in range(8 * n)]
                     + [f"real2_{i}.jpg" for i in range(8 * n)])
            for name in names:
                cv2.imwrite(str(d / name), np.full((20, 20, 3), 200, np.uint8))
    return root


def _names(folder):
    return sorted(p.name for p in folder.iterdir())


def test_the_pack_keeps_whole_sources_half_of_one_none_of_its_copy(crops, tmp_path):
    n, size = pack(crops, tmp_path / "p", half=("real_",), drop=("real2_",), none=5, val_fraction=0.25)
    train = _names(tmp_path / "p" / "train" / "5S")
    assert sum(f.startswith("nb_") for f in train) == 6
    assert sum(f.startswith("real_") for f in train) == 4
    assert not any(f.startswith("real2_") for f in train)
    assert len(_names(tmp_path / "p" / "train" / "none")) == 5
    assert len(_names(tmp_path / "p" / "val" / "5S")) == 22 // 4
    assert all(f.endswith(".webp") for f in train) and size > 0
    assert n == 10 + 5 + 2 * (22 // 4)


def test_the_same_seed_makes_the_same_pack_and_another_another(crops, tmp_path):
    for name, seed in (("a", 7), ("b", 7), ("c", 8)):
        pack(crops, tmp_path / name, half=("real_",), drop=("real2_",), none=5, seed=seed)
    assert _names(tmp_path / "a" / "train" / "none") == _names(tmp_path / "b" / "train" / "none")
    assert _names(tmp_path / "a" / "train" / "none") != _names(tmp_path / "c" / "train" / "none")


def test_the_command_writes_a_zip_and_refuses_a_folder_that_is_no_crop_set(crops, tmp_path, capsys):
    assert main([str(crops), "--out", str(tmp_path / "p"), "--zip"]) == 0
    assert (tmp_path / "p.zip").stat().st_size > 0
    assert main([str(tmp_path), "--out", str(tmp_path / "q")]) == 2
    assert "not a crop set" in capsys.readouterr().err


def test_max_side_shrinks_only_the_crops_larger_than_it(tmp_path):
    root = tmp_path / "cls"
    for split in ("train", "val"):
        d = root / split / "5S"
        d.mkdir(parents=True)
        cv2.imwrite(str(d / "big.jpg"), np.full((160, 120, 3), 200, np.uint8))
        cv2.imwrite(str(d / "small.jpg"), np.full((40, 40, 3), 200, np.uint8))
    pack(root, tmp_path / "p", val_fraction=1.0, max_side=96)
    big = cv2.imread(str(tmp_path / "p" / "train" / "5S" / "big.webp"))
    small = cv2.imread(str(tmp_path / "p" / "train" / "5S" / "small.webp"))
    assert big.shape[:2] == (96, 72) and small.shape[:2] == (40, 40)


def test_zip_parts_split_the_pack_and_together_hold_every_crop_once(crops, tmp_path):
    import zipfile

    assert main([str(crops), "--out", str(tmp_path / "p"), "--zip-parts", "3"]) == 0
    parts = [tmp_path / f"p.{i}.zip" for i in (1, 2, 3)]
    names = [n for part in parts for n in zipfile.ZipFile(part).namelist()]
    packed = sorted(str(Path("p") / f.relative_to(tmp_path / "p")) for f in (tmp_path / "p").rglob("*.webp"))
    assert sorted(names) == packed and len(set(names)) == len(names)
    assert all(len(zipfile.ZipFile(part).namelist()) >= len(packed) // 3 for part in parts)


@pytest.mark.parametrize("flag", [["--zip-parts", "0"], ["--max-side", "0"]])
def test_parts_and_sides_below_one_are_refused(crops, tmp_path, flag, capsys):
    with pytest.raises(SystemExit) as stop:
        main([str(crops), "--out", str(tmp_path / "p"), *flag])
    assert stop.value.code == 2 and "must be 1 or more" in capsys.readouterr().err


def test_a_val_class_too_small_for_its_share_keeps_one_crop(tmp_path):
    root = tmp_path / "cls"
    for split, n in (("train", 3), ("val", 2)):
        d = root / split / "5S"
        d.mkdir(parents=True)
        for i in range(n):
            cv2.imwrite(str(d / f"nb_{i}.jpg"), np.full((20, 20, 3), 200, np.uint8))
    pack(root, tmp_path / "p", val_fraction=0.15)
    assert len(_names(tmp_path / "p" / "val" / "5S")) == 1
