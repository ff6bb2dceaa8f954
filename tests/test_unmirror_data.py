"""scripts/unmirror_data.py: data rendered before the mirror fix is put right by mirroring its
synthetic images left to right (detector boxes with them), while real photos and crops, never
mirrored, are kept byte for byte."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np

_spec = importlib.util.spec_from_file_location(
    "unmirror_data", Path(__file__).resolve().parent.parent / "scripts" / "unmirror_data.py")
unmirror = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(unmirror)


def _half_dark(path: Path) -> None:
    """A 40x40 image, black on its left half, white on its right."""
    img = np.full((40, 40, 3), 255, np.uint8)
    img[:, :20] = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)


def _left_is_dark(path: Path) -> bool:
    img = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    return img[:, :20].mean() < img[:, 20:].mean()


def test_synthetic_crops_are_mirrored_and_real_crops_kept(tmp_path):
    src, dst = tmp_path / "cls", tmp_path / "out"
    _half_dark(src / "train" / "7H" / "rpA_s307-train-000001_02.jpg")
    _half_dark(src / "train" / "7H" / "real_IMG_0001_00.jpg")
    mirrored, linked = unmirror.classify(src, dst, ["real"])
    assert (mirrored, linked) == (1, 1)
    assert not _left_is_dark(dst / "train" / "7H" / "rpA_s307-train-000001_02.jpg")
    real = dst / "train" / "7H" / "real_IMG_0001_00.jpg"
    assert real.read_bytes() == (src / "train" / "7H" / "real_IMG_0001_00.jpg").read_bytes()


def test_a_rendered_scene_is_mirrored_with_its_boxes_and_a_real_one_kept(tmp_path):
    render = tmp_path / "det" / "images" / "train" / "s1.jpg"
    real = tmp_path / "realdet" / "images" / "train" / "r1.jpg"
    for img, row in ((render, "0 0.25 0.5 0.1 0.2"), (real, "0 0.25 0.5 0.1 0.2")):
        _half_dark(img)
        label = img.parent.parent.parent / "labels" / "train" / img.with_suffix(".txt").name
        label.parent.mkdir(parents=True, exist_ok=True)
        label.write_text(row + "\n")
    listing = tmp_path / "train.txt"
    listing.write_text(f"{render}\n{real}\n")
    assert unmirror.detect(listing, tmp_path / "out", ["realdet"]) == (1, 1)
    images = (tmp_path / "out" / "train.txt").read_text().split()
    labels = [Path(i.replace("/images/", "/labels/")).with_suffix(".txt").read_text().split() for i in images]
    assert not _left_is_dark(Path(images[0])) and labels[0] == ["0", "0.750000", "0.5", "0.1", "0.2"]
    assert _left_is_dark(Path(images[1])) and labels[1] == ["0", "0.25", "0.5", "0.1", "0.2"]
