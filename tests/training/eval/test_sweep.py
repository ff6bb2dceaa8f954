"""Settings measured side by side (``python -m training.eval.sweep``): the models answer each input once,
a variant changes only the settings it names, and what a user types wrong is said plainly."""

from pathlib import Path

import numpy as np
import pytest

from training.eval.sweep import Memo, PhotoSet, main, parse_try, remembering, variant
from vision.config import MODELS_DIR
from vision.pipeline import Recognizer

SAMPLES = Path(__file__).resolve().parents[3] / "sample_images"


class _Counting:
    """A session that doubles its input and counts the rows it was asked about."""

    def __init__(self) -> None:
        self.rows_read = 0

    def get_inputs(self):
        return [type("Input", (), {"name": "x"})()]

    def run(self, _outputs, feed):
        (x,) = feed.values()
        self.rows_read += len(x)
        return [2 * x]


def test_a_crop_read_in_one_batch_is_not_read_again_in_another():
    session = _Counting()
    memo = Memo(session, rows=True)
    a, b, c = (np.full((1, 3, 4, 4), v, np.float32) for v in (1, 2, 3))
    first = memo.run(None, {"x": np.concatenate([a, b])})[0]
    second = memo.run(None, {"x": np.concatenate([c, b, a])})[0]
    assert session.rows_read == 3  # a and b, then c alone
    np.testing.assert_array_equal(first, 2 * np.concatenate([a, b]))
    np.testing.assert_array_equal(second, 2 * np.concatenate([c, b, a]))


def test_the_same_canvas_is_seen_once():
    session = _Counting()
    memo = Memo(session, rows=False)
    canvas = np.ones((1, 3, 32, 32), np.float32)
    memo.run(None, {"x": canvas})
    memo.run(None, {"x": canvas.copy()})
    assert session.rows_read == 1 and memo.runs == 1


def test_a_variant_changes_only_the_settings_it_names_and_shares_the_models():
    base = remembering(Recognizer(MODELS_DIR))
    other = variant(base, {"nms_iou": 0.6, "crop_margins": [0.1, 0.3]})
    assert other.config.nms_iou == 0.6 and other.config.crop_margins == (0.1, 0.3)
    assert other.config.card_confidence == base.config.card_confidence
    assert other.detector is base.detector and base.config.nms_iou != 0.6


def test_a_variant_with_the_shipped_settings_reads_the_samples_as_the_recognizer_does():
    plain = Recognizer(MODELS_DIR)
    same = variant(remembering(Recognizer(MODELS_DIR)), {})
    for photo in sorted(SAMPLES.glob("*.jpg")):
        assert same.recognize(photo).card_list == plain.recognize(photo).card_list


def test_a_setting_the_recognizer_does_not_have_is_refused():
    with pytest.raises(ValueError, match="not a recognizer setting: nms"):
        variant(remembering(Recognizer(MODELS_DIR)), {"nms": 0.6})


@pytest.mark.parametrize("spec", ["line60={card_confidence: 0.6}", "line60=[0.6]", "={}"])
def test_a_variant_that_is_not_a_name_and_json_settings_is_refused(spec):
    with pytest.raises(ValueError, match="--try"):
        parse_try(spec)


def test_a_set_is_a_folder_made_over_or_not():
    assert PhotoSet.parse("data/real78") == PhotoSet(Path("data/real78"))
    assert PhotoSet.parse("data/real78@blur=2") == PhotoSet(Path("data/real78"), "blur=2")
    with pytest.raises(ValueError, match="WAY one of blur"):
        PhotoSet.parse("data/real78@fog=2")


@pytest.mark.parametrize(("spec", "says"), [("x@blur=much", "not a number"), ("x@blur=-1", "sigma"),
                                             ("x@light=moon", "no light 'moon'"), ("x@afar=2", "fraction")])
def test_a_way_made_over_with_a_value_it_cannot_take_is_refused_before_reading(spec, says):
    with pytest.raises(ValueError, match=says):
        PhotoSet.parse(spec)


def test_the_command_prints_the_shipped_figures_each_variant_and_the_pool(capsys):
    assert main([str(SAMPLES), "--try", 'tight={"crop_margins": [0.1]}']) == 0
    out = capsys.readouterr().out
    assert f"{SAMPLES}: 100.00% / 100.0% / 0 false" in out
    assert "tight: cards" in out and "pooled:" in out


def test_the_command_says_what_is_wrong_and_exits_2(capsys, tmp_path):
    assert main([str(tmp_path / "nowhere"), "--try", "a={}"]) == 2
    assert "sweep:" in capsys.readouterr().err
