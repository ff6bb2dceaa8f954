"""The deck cache: a render rasterizes only the decks its scenes draw, faces come back byte for byte
from their PNGs, windowed SVG cuts match whole ones, and the cache keeps to its size cap."""

from __future__ import annotations

import json
import os

import cv2
import numpy as np
import pytest

pytest.importorskip("PIL", reason="the synth extra (pillow, cairosvg) is not installed")

from scorer.cards import Card
from training.synth import decks as deckmod
from training.synth import svg_art
from training.synth.deck_store import FaceStack, evict, mark_used, max_cache_bytes, write_faces
from training.synth.export import render_dataset, scene_deck

# Procedural decks build in seconds; seed 24's first two train scenes both draw proc-casino of these five.
POOL = ["proc-classic", "proc-casino", "proc-narrow", "proc-mono", "proc-gothic"]
SEED = 24


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """Two 320 px scenes rendered into a fresh cache: (the cache, their labels)."""
    cache = tmp_path_factory.mktemp("fresh-cache")
    out = tmp_path_factory.mktemp("out")
    old = os.environ.get("CRIBCOUNT_CACHE")
    os.environ["CRIBCOUNT_CACHE"] = str(cache)
    deckmod._LOADED.clear()
    render_dataset(out, 2, seed=SEED, split="train", size="320", workers=1, progress=False, crops=False,
                   decks=POOL)
    yield cache, [json.loads(p.read_text()) for p in sorted(out.rglob("*.json"))]
    if old is None:
        os.environ.pop("CRIBCOUNT_CACHE", None)
    else:
        os.environ["CRIBCOUNT_CACHE"] = old
    deckmod._LOADED.clear()


def test_a_render_rasterizes_only_the_decks_its_scenes_draw(rendered):
    cache, labels = rendered
    drawn = {lab["deck"] for lab in labels}
    assert len(labels) == 2
    assert {p.name for p in cache.iterdir() if p.is_dir()} == drawn
    assert all(scene_deck(SEED, "train", lab["number"], decks=POOL) == lab["deck"] for lab in labels)


def test_a_deck_is_kept_as_png_faces_of_a_few_mb(rendered):
    cache, labels = rendered
    art = deckmod.load_deck(labels[0]["deck"])
    folder = cache / art.name
    assert not list(folder.glob("*.npy"))
    assert sum(p.stat().st_size for p in folder.iterdir()) < 6e6
    assert art.faces[512].shape[0] == 52 + art.n_backs
    assert art.faces[256].shape[1:] == (round(art.faces[512].shape[1] / 2), 256, 4)


def test_loading_a_deck_marks_it_used(rendered):
    cache, labels = rendered
    stamp = cache / labels[0]["deck"] / "used"
    os.utime(stamp, (1, 1))
    deckmod._LOADED.clear()
    deckmod.load_deck(labels[0]["deck"])
    assert stamp.stat().st_mtime > 1


def test_faces_come_back_byte_for_byte_at_every_width(tmp_path):
    rng = np.random.default_rng(0)
    stack = rng.integers(0, 256, (3, 50, 40, 4), dtype=np.uint8)
    stored = FaceStack(tmp_path / "faces.pngs", write_faces(tmp_path, stack), stack.shape)
    assert np.array_equal(np.asarray(stored), stack)
    assert np.array_equal(stored[-1], stack[2])
    assert not stored[0].flags.writeable
    half = FaceStack.resized(stored, 20)
    assert half.shape == (3, 25, 20, 4)
    assert np.array_equal(half[1], cv2.resize(stack[1], (20, 25), interpolation=cv2.INTER_AREA))
    with pytest.raises(IndexError):
        stored[3]


PENGUINS = next(d for d in deckmod.SVG_DECKS if d.name == "kde-penguins")
needs_penguins = pytest.mark.skipif(not PENGUINS.available, reason="kdegames-card-data-kf5 is not installed")


@pytest.fixture
def rsvg_calls(monkeypatch):
    """The windows (None: the whole element) and zooms of every rsvg-convert run."""
    calls = []
    rsvg = svg_art._rsvg

    def spy(path, el, zoom, window=None):
        calls.append((window, zoom))
        return rsvg(path, el, zoom, window)

    monkeypatch.setattr(svg_art, "_rsvg", spy)
    return calls


def _whole(element: str, zoom: float) -> np.ndarray:
    return svg_art._trim_alpha(svg_art._rsvg(PENGUINS.path, element, zoom))


@needs_penguins
def test_a_windowed_svg_cut_has_the_pixels_of_the_whole_element(rsvg_calls):
    # kde-penguins' 2 of hearts spans 16 times its card's width: the case the window is for.
    element = PENGUINS.element_id(Card.parse("2H"))
    cut = svg_art._cut_out(PENGUINS.path, element, 2.0)
    assert any(window for window, _ in rsvg_calls)
    assert np.array_equal(cut, _whole(element, 2.0))


@needs_penguins
def test_known_bounds_save_the_search_and_stale_ones_fall_back_to_the_whole_element(rsvg_calls):
    element = PENGUINS.element_id(Card.parse("2H"))
    bounds = svg_art._locate(PENGUINS.path, element)
    rsvg_calls.clear()
    cut = svg_art._cut_out(PENGUINS.path, element, 2.0, bounds)
    assert len(rsvg_calls) == 1 and rsvg_calls[0][0]
    assert np.array_equal(cut, _whole(element, 2.0))
    stale = (0, 0, 5, 5, *bounds[4:])  # a window where the card is not
    assert np.array_equal(svg_art._cut_out(PENGUINS.path, element, 2.0, stale), _whole(element, 2.0))


def _deck_folder(root, name: str, n_bytes: int, used_at: float) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "faces.pngs").write_bytes(b"x" * n_bytes)
    mark_used(folder)
    os.utime(folder / "used", (used_at, used_at))


def test_eviction_deletes_least_recently_used_decks_first_and_spares_the_running_ones(tmp_path):
    for age, name in enumerate(("newest", "middle", "oldest", "in-use")):
        _deck_folder(tmp_path, name, 1000, 1_000_000 - age * 100)
    (tmp_path / "textures_v4.npy").write_bytes(b"t" * 500)
    removed = evict(tmp_path, 2600, keep={"in-use"})
    assert removed == ["oldest", "middle"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in-use", "newest", "textures_v4.npy"]


@pytest.mark.parametrize(("value", "expected"), [("", 4e9), ("0.5", 5e8), ("12", 12e9)])
def test_cache_cap_comes_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("CRIBCOUNT_CACHE_MAX_GB", value)
    assert max_cache_bytes() == int(expected)


@pytest.mark.parametrize("value", ["lots", "0", "-1"])
def test_a_bad_cache_cap_is_refused(monkeypatch, value):
    monkeypatch.setenv("CRIBCOUNT_CACHE_MAX_GB", value)
    with pytest.raises(ValueError, match="CRIBCOUNT_CACHE_MAX_GB"):
        max_cache_bytes()
