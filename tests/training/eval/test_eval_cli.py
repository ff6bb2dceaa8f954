"""`python -m training eval`: settings, other models and made-over photos measured on the samples."""

from __future__ import annotations

import json

import pytest
from support import real_models_reason

from training.eval.cli import _percentile, _sizes, _zoom_span, main


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_against_other_models_prints_the_paired_differences(capsys):
    # The shipped models against themselves on the sample photos: nothing differs.
    from pathlib import Path

    from vision.config import MODELS_DIR

    samples = str(Path(__file__).resolve().parents[3] / "sample_images")
    assert main([samples, "--against", str(MODELS_DIR), "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["photos"] == 5
    assert figures["against"]["card_delta"] == 0 and figures["against"]["card_delta_95"] == [0, 0]
    assert figures["against"]["by_deck"] == {}  # the sample photos name no deck
    # Two sets: each read against the other models, then all their photos together.
    assert main([samples, samples, "--against", str(MODELS_DIR), "--json"]) == 0
    first, second, together = json.loads(capsys.readouterr().out)
    assert together["name"] == "all 2 sets" and together["pooled"]
    paired = together["against"]
    assert paired["card_delta"] == 0 and (paired["fixed"], paired["broken"]) == (0, 0)
    assert main([samples, "--against", "no-such-folder"]) == 2
    assert "no-such-folder/detector.onnx is missing" in capsys.readouterr().err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_measures_one_look_against_the_shipped_second_looks(capsys):
    from pathlib import Path

    from vision.config import MODELS_DIR

    samples = str(Path(__file__).resolve().parents[3] / "sample_images")
    assert main([samples, "--second-looks", "none", "--against", str(MODELS_DIR), "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["photos"] == 5 and "card_delta" in figures["against"]


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_measures_looking_again_at_every_photo_against_the_shipped_reading(capsys):
    from pathlib import Path

    from vision.config import MODELS_DIR

    samples = str(Path(__file__).resolve().parents[3] / "sample_images")
    assert main([samples, "--always-look-again", "--against", str(MODELS_DIR), "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["photos"] == 5 and figures["card_accuracy"] == 1.0 and "hand_delta" in figures["against"]


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_measures_the_last_releases_whole_second_looks_against_the_shipped_reading(capsys):
    from pathlib import Path

    from vision.config import MODELS_DIR

    samples = str(Path(__file__).resolve().parents[3] / "sample_images")
    args = [samples, "--always-look-again", "--whole-second-looks", "--against", str(MODELS_DIR), "--json"]
    assert main(args) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["photos"] == 5 and figures["card_accuracy"] == 1.0 and "hand_delta" in figures["against"]


def test_second_looks_none_is_the_main_look_only():
    assert _sizes("none") == () and _sizes("608,736") == (608, 736)


@pytest.mark.parametrize("sizes", ["608,big", "", "16"])
def test_eval_refuses_second_look_sizes_that_are_not_sizes(capsys, sizes):
    assert main(["sample_images", "--second-looks", sizes]) == 2
    assert "--second-looks" in capsys.readouterr().err


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_eval_measures_reading_photos_as_shows_against_reading_them_as_they_are(capsys):
    from pathlib import Path

    from vision.config import MODELS_DIR

    samples = str(Path(__file__).resolve().parents[3] / "sample_images")
    assert main([samples, "--as-shows", "--against", str(MODELS_DIR), "--json"]) == 0
    (figures,) = json.loads(capsys.readouterr().out)
    assert figures["name"].endswith(", read as shows")
    assert figures["photos"] == 5 and figures["card_accuracy"] == 1.0 and "hand_delta" in figures["against"]


def test_none_turns_each_measured_option_off():
    assert _percentile("none") is None and _percentile("99") == 99.0  # photos read as decoded
    assert _zoom_span("none") is None and _zoom_span("608") == 608  # the whole-photo looks only


@pytest.mark.parametrize("flag,value", [
    *(("--white-balance", p) for p in ("white", "", "20", "101")),  # a percentile, 50 to 100
    *(("--zoom-look", z) for z in ("near", "", "100", "5000")),  # a size, 160 to 2048 px
])
def test_eval_refuses_an_option_value_out_of_its_range_naming_the_option(capsys, flag, value):
    assert main(["sample_images", flag, value]) == 2
    assert flag in capsys.readouterr().err


def test_eval_refuses_a_negative_number_of_scenes(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--synth", "-3"])
    assert exc.value.code == 2
    assert "--synth: give a number of scenes, 0 or more, not '-3'" in capsys.readouterr().err
