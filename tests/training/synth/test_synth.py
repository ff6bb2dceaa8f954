"""The synthetic photo engine: labels land on the pixels, decks stay in their splits,
a seed fixes the bytes, every scene type occurs, and the exports have the right shape.

Procedural decks need no system art, so most tests use them; tests of installed SVG
decks skip when ``gnome-cards-data`` is missing. Each test renders only a few 640 px scenes.
"""

from __future__ import annotations

import json
from collections import Counter

import cv2
import numpy as np
import pytest

pytest.importorskip("PIL", reason="the synth extra (pillow, cairosvg) is not installed")

from scorer.cards import Card
from training.synth import decks as deckmod
from training.synth.export import (
    CLASS_NAMES,
    SizeSpec,
    back_corner_boxes,
    back_corner_crops_of,
    choose_deck,
    render_dataset,
    render_sample,
    yolo_lines,
)
from training.synth.layouts import SCENE_TYPES, TableProps, make_scene
from training.synth.legibility import index_across, index_height, legible
from training.synth.photo import Focus, develop
from training.synth.props import cribbage_board
from training.synth.scene import labels, make_camera, render

TRAIN_DECK = "proc-classic"
HELD_OUT_PROC = "proc-slab"
SIZE = SizeSpec.parse("640")


@pytest.fixture(scope="module", autouse=True)
def _cache(tmp_path_factory):
    """A cache shared by this module's tests (procedural decks build in about a second)."""
    import os

    old = os.environ.get("CRIBCOUNT_CACHE")
    if not old:
        os.environ["CRIBCOUNT_CACHE"] = str(tmp_path_factory.mktemp("synth-cache"))
    deckmod._LOADED.clear()
    yield
    if not old:
        os.environ.pop("CRIBCOUNT_CACHE", None)
    deckmod._LOADED.clear()


def _gray(img):
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)


def _poly_mask(shape, quad):
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(m, np.round(np.array(quad) * 16).astype(np.int32), 1, cv2.LINE_8, shift=4)
    return m.astype(bool)


# --- decks and splits -------------------------------------------------------------------------

def test_held_out_decks_never_in_train_or_val():
    held = set(deckmod.HELD_OUT_DECKS)
    assert len(held) >= 3
    assert not held & set(deckmod.deck_names("train"))
    assert not held & set(deckmod.deck_names("val"))
    assert set(deckmod.deck_names("test")) <= held


def test_held_out_families_cover_installed_and_procedural():
    families = {n.split("-")[0] for n in deckmod.HELD_OUT_DECKS}
    assert {"gnome", "kde", "proc"} <= families


def test_choose_deck_never_draws_a_held_out_deck_for_training():
    rng = np.random.default_rng(0)
    drawn = {choose_deck(rng, split) for split in ("train", "val") for _ in range(300)}
    assert not drawn & set(deckmod.HELD_OUT_DECKS)
    assert {choose_deck(rng, "test") for _ in range(50)} <= set(deckmod.HELD_OUT_DECKS)


def test_naming_a_held_out_deck_for_training_is_refused():
    with pytest.raises(ValueError, match="held-out"):
        render_sample(0, "train", 0, SIZE, decks=[HELD_OUT_PROC])


def test_eval_only_deck_is_in_no_train_val_or_test_split():
    eval_names = {d.name for d in deckmod.EVAL_DECKS}
    assert "younestouati" in " ".join(d.path for d in deckmod.EVAL_DECKS)
    assert "younestouati" not in " ".join(d.path for d in deckmod.all_decks())
    for split in ("train", "val", "test"):
        assert not eval_names & set(deckmod.deck_names(split))
    assert set(deckmod.deck_names("eval")) <= eval_names


def test_naming_the_eval_only_deck_for_training_is_refused():
    for kwargs in ({"decks": ["npm-younestouati"]}, {"deck": "npm-younestouati"}):
        with pytest.raises(ValueError, match="eval-only"):
            render_sample(0, "train", 0, SIZE, **kwargs)


@pytest.mark.skipif(not deckmod.EVAL_DECKS[0].available, reason="the eval-only npm deck is not installed")
def test_the_eval_split_renders_the_eval_only_deck_and_never_writes_crops(tmp_path):
    render_dataset(tmp_path, 1, seed=3, split="eval", workers=1, progress=False)  # crops asked for
    (label,) = (tmp_path / "yolo" / "images" / "eval").glob("*.json")
    assert json.loads(label.read_text())["deck"] == "npm-younestouati"
    assert not list(tmp_path.rglob("cls/**/*.jpg"))


@pytest.mark.skipif(not deckmod.GNOME_DIR.exists(), reason="gnome-cards-data is not installed")
def test_at_least_twenty_french_designs():
    assert len(deckmod.all_decks()) >= 20


def _random_deck(kind: str) -> str:
    """The first randomized deck whose suits are ``drawn`` or from a ``font``."""
    from training.synth.procedural import RANDOM_DECKS

    key = "suit_shape" if kind == "drawn" else "suit_font"
    return next(d.name for d in RANDOM_DECKS if key in d.params)


@pytest.mark.parametrize("deck", [TRAIN_DECK, "proc-opensans", _random_deck("drawn"), _random_deck("font")])
def test_procedural_deck_index_boxes_hold_ink_on_paper(deck):
    art = deckmod.load_deck(deck)
    faces = art.faces[max(art.faces)]
    h, w = faces.shape[1:3]
    for i in (0, 9 * 4 + 1, 11 * 4 + 2, 51):
        g = _gray(np.ascontiguousarray(faces[i][:, :, :3]))
        for k in range(2):
            x0, y0, x1, y1 = (art.index_boxes[i, k] * [w, h, w, h]).round().astype(int)
            patch = g[y0:y1, x0:x1]
            assert patch.min() < 120, f"{Card.from_index(i)} corner {k}: no ink in the index box"
            ring = np.concatenate([g[max(0, y0 - 3), x0:x1], g[min(h - 1, y1 + 2), x0:x1]])
            assert ring.mean() > 200, f"{Card.from_index(i)} corner {k}: box cuts through ink"


def test_a_suit_font_deck_draws_that_fonts_club_and_spade():
    from scorer.cards import Suit
    from training.synth.procedural import PROCEDURAL_DECKS
    from training.synth.suits import _glyph_mask, pip_style

    spec = next(d for d in PROCEDURAL_DECKS if d.name == "proc-opensans")
    style = pip_style(spec.params)
    if not style.startswith("font:"):
        pytest.skip("fonts-dejavu-core is not installed")
    club, spade = (np.asarray(_glyph_mask(style[5:], s, 48)) for s in (Suit.CLUBS, Suit.SPADES))
    assert abs(club.shape[0] - 48) <= 2 and abs(spade.shape[0] - 48) <= 2  # scaled to the asked height
    size = (32, 32)
    a, b = (cv2.resize(m, size).astype(float) / 255 for m in (club, spade))
    assert np.abs(a - b).mean() > 0.08, "club and spade glyphs should differ"


def test_randomized_decks_are_the_same_on_every_machine_and_train_only():
    from training.synth.procedural import RANDOM_DECKS, RANDOM_SIDE_DECKS, RANK_FONTS, random_deck_params

    names = [d.name for d in RANDOM_DECKS]
    assert len(set(names)) == len(names) >= 100
    again = random_deck_params(np.random.default_rng([20261124, 7]))
    assert RANDOM_DECKS[7].params == again  # drawn from a fixed seed, not from what is installed
    assert not set(names) & set(deckmod.HELD_OUT_DECKS)
    assert set(names) <= set(deckmod.deck_names("train"))
    assert not set(names) & set(deckmod.deck_names("test"))
    chunky = [d for d in RANDOM_DECKS if "chunky" in d.name]
    assert chunky and all("suit_shape" in d.params for d in chunky)
    beside = [d for d in RANDOM_SIDE_DECKS if d.params["layout"] == "side"]
    assert len(RANDOM_SIDE_DECKS) / 3 < len(beside) < len(RANDOM_SIDE_DECKS)  # about half, not all
    slab = deckmod.get_deck_spec(HELD_OUT_PROC).params["font"]
    assert slab not in RANK_FONTS  # no randomized deck copies the held-out procedural face


def test_every_drawn_suit_shape_keeps_club_and_spade_apart():
    from PIL import Image

    from scorer.cards import Suit
    from training.synth.suits import draw_suit, random_suit_shape

    def mask(suit, shape):
        img = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
        draw_suit(img, suit, 32, 32, 56, (0, 0, 0, 255), shape=shape)
        return np.asarray(img)[:, :, 3].astype(float) / 255

    def top_rows(m):
        return m[: 20].sum(axis=1)

    rng = np.random.default_rng(5)
    for k in range(30):
        shape = random_suit_shape(rng, fused=k % 3 == 0)
        club, spade = mask(Suit.CLUBS, shape), mask(Suit.SPADES, shape)
        assert club.sum() > 200 and spade.sum() > 200
        assert np.abs(club - spade).mean() > 0.015, shape
        # A spade comes to a point at the top; a club's top lobe is round.
        assert top_rows(club)[top_rows(club) > 0][:4].mean() > top_rows(spade)[top_rows(spade) > 0][:4].mean()


@pytest.mark.skipif(not deckmod.GNOME_DIR.exists(), reason="gnome-cards-data is not installed")
def test_svg_deck_index_boxes_hold_rank_and_suit():
    art = deckmod.load_deck("gnome-simplistic")
    faces = art.faces[max(art.faces)]
    h, w = faces.shape[1:3]
    boxes = art.index_boxes
    # Rank above suit: boxes are taller than wide (10 excepted) and sit in the corner.
    for i in range(52):
        x0, y0, x1, y1 = boxes[i, 0]
        assert x1 < 0.3 and y1 < 0.3, Card.from_index(i)
        assert y1 - y0 > (x1 - x0) * (0.9 if Card.from_index(i).rank == 10 else 1.3), Card.from_index(i)
        g = _gray(np.ascontiguousarray(faces[i][:, :, :3]))
        bx = (boxes[i, 0] * [w, h, w, h]).round().astype(int)
        assert g[bx[1]:bx[3], bx[0]:bx[2]].min() < 120


# --- scenes ------------------------------------------------------------------------------------

def test_every_scene_type_occurs():
    seen = Counter(make_scene(np.random.default_rng([7, i]), TRAIN_DECK).scene_type for i in range(80))
    assert set(seen) == set(SCENE_TYPES)


def test_same_seed_same_bytes():
    a = render_sample(11, "train", 3, SIZE, deck=TRAIN_DECK)
    b = render_sample(11, "train", 3, SIZE, deck=TRAIN_DECK)
    c = render_sample(12, "train", 3, SIZE, deck=TRAIN_DECK)
    assert a.jpeg == b.jpeg
    assert a.label == b.label
    assert a.jpeg != c.jpeg


def test_board_chance_sets_how_often_a_scene_holds_a_board():
    def boards(table):
        return sum(any(it.kind == "board" for it in make_scene(np.random.default_rng([8, i]), TRAIN_DECK,
                                                               table=table).items) for i in range(12))

    assert boards(TableProps(board_chance=1.0)) == 12
    assert boards(TableProps(board_chance=0.0)) == 0


def test_a_numbered_board_is_the_same_board_with_counts_printed_beside_its_tracks():
    plain, size = cribbage_board(np.random.default_rng(4))
    numbered, same_size = cribbage_board(np.random.default_rng(4), numerals=True)
    assert size == same_size and plain.shape == numbered.shape
    assert np.array_equal(plain[..., 3], numbered[..., 3])  # the outline stays
    changed = (plain != numbered).any(axis=2)
    h, w = changed.shape
    assert 0.003 < changed.mean() < 0.1
    # The first track's two rows of holes, between the ends, are left as they were.
    assert not changed[int(h * 0.17):int(h * 0.29), int(w * 0.1):int(w * 0.9)].any()


def test_cli_board_chance_outside_zero_to_one_is_an_error(tmp_path, capsys):
    from training.__main__ import main

    assert main(["synth", "--out", str(tmp_path / "out"), "--n", "1", "--board-chance", "1.5"]) == 2
    assert "--board-chance must be between 0 and 1" in capsys.readouterr().err


@pytest.mark.parametrize("scene_type", SCENE_TYPES)
def test_card_corners_land_on_the_drawn_card(scene_type):
    rng = np.random.default_rng([3, SCENE_TYPES.index(scene_type)])
    spec = make_scene(rng, TRAIN_DECK, scene_type)
    cam = make_camera(rng, (640, 480), spec.items)
    rendered = render(rng, spec, cam)
    lab = labels(spec, cam, rendered)
    item_of = {str(it.card): k for k, it in enumerate(spec.items) if it.kind == "face"}
    checked = 0
    for card in lab["cards"]:
        k = item_of[card["card"]]
        poly = _poly_mask(rendered.idmap.shape, card["corners"])
        drawn = rendered.idmap == k
        if drawn.sum() < 200:
            continue
        # A bowed card's edges leave the straight quad by up to the bow: allow that much.
        c = np.array(card["corners"])
        bow_px = int(np.ceil(abs(spec.items[k].bend) * np.linalg.norm(c[1] - c[0]))) + 1
        if bow_px > 1:
            poly = cv2.dilate(poly.astype(np.uint8), np.ones((2 * bow_px + 1,) * 2, np.uint8)).astype(bool)
        # What was drawn lies inside the labelled corners, and inside them every pixel is the
        # card itself or something laid on top of it (drawn later).
        inside = (drawn & poly).sum() / drawn.sum()
        core = _poly_mask(rendered.idmap.shape, card["corners"])
        core = cv2.erode(core.astype(np.uint8), np.ones((2 * bow_px + 1,) * 2, np.uint8)).astype(bool)
        covered = ((rendered.idmap[core] == k) | (rendered.idmap[core] > k)).mean()
        assert inside > 0.97, f"{card['card']}: only {inside:.2f} of its pixels inside its corners"
        assert covered > 0.95, f"{card['card']}: {covered:.2f} of its corners' area is the card or above it"
        checked += 1
    assert checked >= 3


def test_an_index_too_small_or_too_blurred_is_not_legible():
    assert legible(40, 14, 1.0)
    assert not legible(40, 14, 3.5)        # a 40 px index under a 3.5 px blur is a smudge
    assert not legible(11, 5, 0.0)         # under 12 px no one reads it, however sharp
    assert legible(13, 5, 0.0)
    assert not legible(13, 5, 0.65)        # blur in proportion hurts a small index more


def test_an_index_too_narrow_is_not_legible_however_tall():
    assert not legible(14, 4.5, 0.0)       # a narrow design's index, or one seen at a low angle
    assert legible(14, 5.0, 0.0)


def test_an_index_is_as_wide_as_its_quads_short_side():
    quad = [[10, 10], [14, 10], [14, 24], [10, 24]]   # 4 px across, 14 px tall
    assert index_height(quad) == 14
    assert index_across(quad) == 4
    assert not legible(index_height(quad), index_across(quad), 0.0)


def test_depth_of_field_blur_is_sharp_on_its_band_and_grows_away():
    focus = Focus(2.0, band_centre=0.5)
    assert focus.at(500, 1000) == 0.0
    assert 0 < focus.at(700, 1000) < focus.at(900, 1000) < focus.at(1000, 1000) == 2.0
    assert Focus(1.5).at(0, 1000) == Focus(1.5).at(999, 1000) == 1.5


def test_a_card_whose_indices_are_blurred_past_reading_is_not_required():
    rng = np.random.default_rng(5)
    spec = make_scene(rng, TRAIN_DECK, "row")
    cam = make_camera(rng, (640, 480), spec.items)
    rendered = render(rng, spec, cam)
    sharp = labels(spec, cam, rendered, Focus())
    smudged = labels(spec, cam, rendered, Focus(50.0))
    assert any(c["readable"] for c in sharp["cards"])
    assert not any(c["readable"] for c in smudged["cards"])
    for c in sharp["cards"]:
        for i in c["indices"]:
            assert i["legible"] == legible(i["height_px"], i["across_px"], 0.0)
            assert i["across_px"] <= i["height_px"]
            x0, y0, x1, y1 = i["box_xyxy"]
            assert i["height_px"] >= max(x1 - x0, y1 - y0) * 0.7


def test_develop_reports_the_blur_it_put_in():
    scene = np.full((300, 400, 3), 200, np.float32)
    mask = np.zeros((300, 400), np.float32)
    kinds = set()
    for seed in range(30):
        photo, focus = develop(np.random.default_rng(seed), scene, mask)
        assert photo.shape == (300, 400, 3) and photo.dtype == np.uint8
        assert 0 <= focus.sigma_px <= 2.5 * 0.4  # the widest blur drawn, at 0.4 of a 1000 px photo
        kinds.add("none" if not focus.sigma_px else "band" if focus.band_centre is not None else "even")
    assert kinds == {"none", "band", "even"}


def test_index_boxes_contain_dark_ink_on_a_light_face():
    found = 0
    for n in range(4):
        s = render_sample(21, "train", n, SIZE, deck=TRAIN_DECK)
        g = _gray(s.image)
        for card in s.label["cards"]:
            for idx in card["indices"]:
                x0, y0, x1, y1 = idx["box_xyxy"]
                if idx["visible_fraction"] < 0.99 or min(x1 - x0, y1 - y0) < 8:
                    continue
                m = _poly_mask(g.shape, idx["quad"])
                vals = g[m]
                # Ink is much darker than the paper around it.
                assert np.percentile(vals, 10) < 0.8 * np.percentile(vals, 95), card["card"]
                found += 1
    assert found >= 4


def test_card_region_differs_from_the_table():
    s = render_sample(5, "train", 1, SIZE, deck=TRAIN_DECK)
    hsv = s.image.astype(np.float32)
    for card in s.label["cards"]:
        if card["visible_fraction"] < 0.98:
            continue
        inside = _poly_mask(hsv.shape, card["corners"])
        grown = cv2.dilate(inside.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(bool) & ~inside
        ring = grown & ~cv2.dilate(inside.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
        if ring.sum() < 50:
            continue
        # The paper's colour is not the table's (cards are whitish, tables rarely the same shade).
        d = np.abs(np.median(hsv[inside], axis=0) - np.median(hsv[ring], axis=0)).max()
        assert d > 8, card["card"]


# --- exports -------------------------------------------------------------------------------------

def test_exports_have_the_ultralytics_layouts(tmp_path):
    results, rate = render_dataset(tmp_path, 3, seed=2, split="train", workers=1, progress=False,
                                   decks=[TRAIN_DECK], with_cards=True)
    assert len(results) == 3 and rate > 0
    yaml = (tmp_path / "yolo" / "data.yaml").read_text()
    assert "train: images/train" in yaml and "0: index" in yaml and "1: card" in yaml
    images = sorted((tmp_path / "yolo" / "images" / "train").glob("*.jpg"))
    assert len(images) == 3
    for img in images:
        label = json.loads(img.with_suffix(".json").read_text())
        for key in ("image", "width", "height", "deck", "scene_type", "seed", "cards"):
            assert key in label
        for card in label["cards"]:
            Card.parse(card["card"])
            assert len(card["corners"]) == 4 and len(card["indices"]) == 2
            for idx in card["indices"]:
                assert len(idx["quad"]) == 4 and 0 <= idx["visible_fraction"] <= 1
        rows = (tmp_path / "yolo" / "labels" / "train" / f"{img.stem}.txt").read_text().split("\n")
        rows = [r for r in rows if r]
        assert rows == yolo_lines(label, with_cards=True)
        for r in rows:
            cls, *xywh = r.split()
            assert cls in ("0", "1") and all(0 <= float(v) <= 1 for v in xywh)
    classes = sorted(p.name for p in (tmp_path / "cls" / "train").iterdir())
    assert classes == sorted(CLASS_NAMES) and len(classes) == 53
    crops = list((tmp_path / "cls" / "train").rglob("*.jpg"))
    assert crops
    for c in crops[:20]:
        im = cv2.imread(str(c))
        assert im.shape[0] == im.shape[1] <= 160


def _back(corners, visible=0.5):
    return {"kind": "back", "corners": corners, "box_xyxy": [0, 0, 1, 1], "visible_fraction": visible}


def test_a_backs_corner_gives_a_none_box_where_a_face_would_have_its_index():
    # An upright back from (100, 100) to (200, 240); an index would sit ~11% in from a corner.
    lab = {"cards": [], "objects": [_back([[100, 100], [200, 100], [200, 240], [100, 240]])]}
    corners = set()
    for seed in range(40):
        (box,) = back_corner_boxes(lab, [(12.0, 24.0)], np.random.default_rng(seed))
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        corners.add((round(cx), round(cy)))
        assert 9 <= box[2] - box[0] <= 16 and 19 <= box[3] - box[1] <= 32  # index-sized
    assert corners == {(111, 115), (189, 115), (189, 225), (111, 225)}  # every corner, nowhere else


def test_no_back_corner_box_on_a_readable_index_or_a_hidden_back():
    face = {"card": "5H", "indices": [{"box_xyxy": [105, 105, 117, 127], "visible_fraction": 1.0}]}
    lab = {"cards": [face], "objects": [_back([[100, 100], [200, 100], [200, 240], [100, 240]]),
                                        _back([[300, 300], [400, 300], [400, 440], [300, 440]], visible=0.0)]}
    found = [back_corner_boxes(lab, [(12.0, 24.0)], np.random.default_rng(seed)) for seed in range(40)]
    centres = {(round((b[0] + b[2]) / 2), round((b[1] + b[3]) / 2)) for boxes in found for b in boxes}
    assert (111, 115) not in centres and centres  # the corner under the 5H's index is skipped
    assert all(b[0] < 300 for boxes in found for b in boxes)  # the hidden back gives none


def test_back_corner_crops_are_extra_none_crops_and_leave_the_others_as_they_were(tmp_path):
    def crops(out, back_corners):
        render_dataset(out, 3, seed=4, split="train", workers=1, progress=False, decks=[TRAIN_DECK],
                       scene_type="crib", back_corners=back_corners)
        return {p.relative_to(out / "cls"): p.read_bytes() for p in (out / "cls").rglob("*.jpg")}

    plain, with_backs = crops(tmp_path / "plain", False), crops(tmp_path / "backs", True)
    assert all(with_backs[k] == v for k, v in plain.items())  # the same crops, byte for byte
    extra = set(with_backs) - set(plain)
    assert extra and all(k.parts[1] == "none" for k in extra)
    # and written afterwards from the plain render's saved scenes, the very same bytes
    assert back_corner_crops_of(tmp_path / "plain", tmp_path / "later") == len(extra)
    later = {p.relative_to(tmp_path / "later"): p.read_bytes() for p in (tmp_path / "later").rglob("*.jpg")}
    assert sorted(later.values()) == sorted(with_backs[k] for k in extra)


def test_cli_back_corners_of_a_folder_without_scenes_is_an_error(tmp_path, capsys):
    from training.__main__ import main

    assert main(["synth", "--out", str(tmp_path / "out"), "--back-corners-of", str(tmp_path)]) == 2
    assert "no yolo/images/" in capsys.readouterr().err


def test_size_spec_rejects_nonsense():
    assert SizeSpec.parse("640:2000") == SizeSpec(640, 2000)
    for bad in ("abc", "2000:640", "10", "640:2000:3"):
        with pytest.raises(ValueError):
            SizeSpec.parse(bad)


def test_cli_synth_writes_a_checked_sheet(tmp_path, capsys):
    from training.__main__ import main

    sheet = tmp_path / "sheet.jpg"
    rc = main(["synth", "--out", str(tmp_path / "out"), "--n", "2", "--seed", "1", "--split", "train",
               "--workers", "1", "--decks", TRAIN_DECK, "--sheet", str(sheet), "--check"])
    assert rc == 0
    assert cv2.imread(str(sheet)) is not None
    out = capsys.readouterr().out
    assert "images/s" in out


def test_deck_and_corner_sheets_show_one_block_per_deck(tmp_path):
    from training.synth.sheet import corner_sheet, deck_sheet

    one = cv2.imread(str(deck_sheet(["proc-slab"], tmp_path / "one.jpg")))
    two = cv2.imread(str(deck_sheet(["proc-slab", "kde-standard"], tmp_path / "two.jpg")))
    assert two.shape[0] > 1.8 * one.shape[0]
    corners = cv2.imread(str(corner_sheet(["proc-slab"], tmp_path / "corners.jpg", suits=(0,))))
    assert corners.shape[0] > 0 and corners.shape[1] == 13 * 90


@pytest.mark.parametrize("scene_type", SCENE_TYPES)
def test_a_card_shows_as_printed_not_mirrored(scene_type):
    """The art's top-left, top-right, bottom-right and bottom-left corners run clockwise in the
    photo, as on a card lying face up: a mirrored card (its 7s and 4s reversed, its indices at
    the top right) is not a card, and a classifier trained on those reads real cards badly."""
    for n in range(3):
        rng = np.random.default_rng([4, SCENE_TYPES.index(scene_type), n])
        spec = make_scene(rng, TRAIN_DECK, scene_type)
        cam = make_camera(rng, (640, 480), spec.items)
        lab = labels(spec, cam, render(rng, spec, cam))
        quads = [c["corners"] for c in lab["cards"]] + [i["quad"] for c in lab["cards"] for i in c["indices"]]
        assert quads
        for q in np.array(quads):
            across, down = q[1] - q[0], q[3] - q[0]
            assert across[0] * down[1] - across[1] * down[0] > 0  # clockwise with y down the image
