"""The recipe of the shipped models: one command a model, its renders named once, run end to end tiny."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training.data.sources import NEW_DECKS, RENDERS, Render, crop_sources, deck_family
from training.recipe import MODELS, PHOTOS, main
from training.train.offline import PROJECT_ROOT


def test_every_shipped_model_has_a_recipe():
    shipped = sorted(p.stem for p in (PROJECT_ROOT / "models").glob("*.onnx"))
    assert sorted(MODELS) == shipped


def test_a_render_is_drawn_at_its_tiny_size_in_a_smoke_test():
    render = Render(4000, 24, 11, "640", decks="new")
    assert render.args(tiny=True)[:3] == ["--numbered-boards", "--n", "24"]
    assert render.args(tiny=False)[:3] == ["--numbered-boards", "--n", "4000"]
    assert render.args(tiny=False)[-2:] == ["--decks", ",".join(NEW_DECKS)]


def test_a_render_without_crops_or_with_more_boards_says_so():
    assert RENDERS["det608"].args(tiny=False)[-1] == "--no-crops"
    assert RENDERS["nbT"].args(tiny=False)[-2:] == ["--board-chance", "0.9"]


def test_every_render_has_its_own_seed():
    seeds = [r.seed for r in RENDERS.values()]
    assert len(seeds) == len(set(seeds))


def test_the_old_decks_are_those_before_the_font_suit_decks_and_the_randomized_ones():
    old = deck_family("old")
    assert old and not set(old) & set(NEW_DECKS)
    assert not any(name.startswith("proc-rand-") for name in old)
    assert deck_family("chunky") and not set(deck_family("chunky")) & set(deck_family("random"))


def test_an_unknown_deck_family_is_an_error():
    with pytest.raises(ValueError, match="no deck family"):
        deck_family("spanish")


def test_the_crop_sources_name_every_render_and_harvest(tmp_path: Path):
    sources = crop_sources(tmp_path, Path("m"), Path("r"), Path("c"))
    assert f"nb={tmp_path / 'nbT' / 'cls'}" in sources
    assert sources[-3:] == ["mined=m", "real=r", "mid=c"]


def test_a_tiny_run_into_the_checkout_is_refused(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["detector", "--tiny"])
    assert exit_.value.code == 2
    assert "a --root of its own" in capsys.readouterr().err


def test_a_folder_without_photos_is_a_usage_error(tmp_path: Path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["detector", "--root", str(tmp_path), "--photos", str(tmp_path / "none")])
    assert exit_.value.code == 2
    assert "no real training photos" in capsys.readouterr().err


@pytest.fixture(scope="module")
def tiny_root(tmp_path_factory) -> Path:
    pytest.importorskip("ultralytics", reason="the train extra (torch, ultralytics) is not installed")
    if not (PHOTOS / "images").is_dir():
        pytest.skip(f"no real training photos at {PHOTOS}")
    return tmp_path_factory.mktemp("recipe")


@pytest.mark.slow
@pytest.mark.train
@pytest.mark.parametrize("model", ["detector", "classifier3", "classifier2", "classifier"])
def test_each_models_recipe_runs_end_to_end_on_tiny_data(tiny_root: Path, model: str):
    """Renders, harvests, packs, one epoch a run and the export, into a models/ of its own."""
    parent = PROJECT_ROOT / "models" / "classifier3.onnx"
    third = ["--third-parent", str(parent)] if model == "classifier3" else []
    assert main([model, "--root", str(tiny_root), "--tiny", *third]) == 0
    sidecar = json.loads((tiny_root / "models" / f"{model}.json").read_text())
    assert (tiny_root / "models" / f"{model}.onnx").stat().st_size > 100_000
    assert sidecar["task"] == ("detect" if model == "detector" else "classify")
