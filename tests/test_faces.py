"""`vision.faces`: the middle of a card's face, cut upright from its four corners, without its indices."""

import json

import cv2
import numpy as np
import pytest

from vision.faces import cut_faces, face_middle, main


def card_upside_down() -> tuple[np.ndarray, list[list[float]]]:
    """A white card 100 x 140 px on felt, lying upside down: its top-left corner (as printed) at the
    photo's bottom right. A black index square in that corner, a red pip near its printed top."""
    img = np.full((300, 300, 3), (40, 110, 30), np.uint8)
    img[80:220, 100:200] = 245
    img[195:215, 184:196] = 0               # the index, at the printed top-left corner
    img[190:200, 145:155] = (0, 0, 220)     # a pip near the printed top, in the middle column
    corners = [[200, 220], [100, 220], [100, 80], [200, 80]]  # TL, TR, BR, BL of the card as printed
    return img, corners


def test_the_middle_is_upright_and_leaves_the_index_out():
    img, corners = card_upside_down()
    middle = face_middle(img, corners, size=64)
    assert middle.shape == (64, 64, 3)
    assert not (middle.max(axis=2) < 60).any()  # no black: the index is cut off
    red = (middle[..., 2] > 150) & (middle[..., 1] < 100)
    ys, xs = np.nonzero(red)
    assert len(ys) and ys.mean() < 16 and 20 < xs.mean() < 44  # the pip at the top, in the middle


def test_cut_faces_files_the_cards_mostly_in_view_by_card(tmp_path):
    img, corners = card_upside_down()
    cv2.imwrite(str(tmp_path / "s1.jpg"), img)
    (tmp_path / "s1.json").write_text(json.dumps({"image": "s1.jpg", "cards": [
        {"card": "3H", "face_up": True, "visible_fraction": 1.0, "corners": corners},
        {"card": "9C", "face_up": True, "visible_fraction": 0.6, "corners": corners},   # half covered
        {"card": "KS", "face_up": False, "visible_fraction": 1.0, "corners": corners},  # a back
    ]}))
    assert cut_faces(tmp_path, tmp_path / "out") == 1
    assert [p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*.png")] == \
        ["train/3H/s1_0.png"]


def test_the_command_refuses_a_folder_that_is_not_there(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--out", str(tmp_path / "out"), str(tmp_path / "nowhere")])
    assert exc.value.code == 2
    assert "nowhere is not a folder" in capsys.readouterr().err


def test_the_command_writes_the_faces_and_says_how_many(tmp_path, capsys):
    img, corners = card_upside_down()
    cv2.imwrite(str(tmp_path / "s1.jpg"), img)
    (tmp_path / "s1.json").write_text(json.dumps({"image": "s1.jpg", "cards": [
        {"card": "3H", "face_up": True, "visible_fraction": 1.0, "corners": corners}]}))
    assert main(["--out", str(tmp_path / "out"), "--val-fraction", "1", str(tmp_path)]) == 0
    assert "1 face middles written" in capsys.readouterr().out
    assert (tmp_path / "out" / "val" / "3H" / "s1_0.png").is_file()
