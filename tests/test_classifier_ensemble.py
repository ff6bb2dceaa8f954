"""A second classifier reads the indices the first is unsure of, and their readings are averaged;
a second classifier that names other classes is refused rather than averaged into nonsense."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import Detections
from vision.recognizer import CLASSIFIER_FILES, MODELS_DIR, Recognizer, RecognizerConfig

SAMPLE = Path(__file__).resolve().parent.parent / "sample_images"

pytestmark = pytest.mark.skipif(not (MODELS_DIR / CLASSIFIER_FILES[1]).exists(),
                                reason="the shipped models have one classifier")


def _models_dir(tmp_path: Path, name: str, classifiers: dict[str, str]) -> Path:
    """A models folder holding the shipped detector and ``classifiers`` (target file -> shipped file)."""
    d = tmp_path / name
    d.mkdir()
    for f in ("detector.onnx", "detector.json"):
        (d / f).symlink_to(MODELS_DIR / f)
    for target, source in classifiers.items():
        (d / target).symlink_to(MODELS_DIR / source)
        (d / target).with_suffix(".json").symlink_to((MODELS_DIR / source).with_suffix(".json"))
    return d


def _three_ways(tmp_path, config):
    first, second = CLASSIFIER_FILES
    both = Recognizer(MODELS_DIR, config)
    one = Recognizer(_models_dir(tmp_path, "one", {first: first}))
    other = Recognizer(_models_dir(tmp_path, "other", {first: second}))
    assert len(both.classifiers) == 2 and len(one.classifiers) == 1
    image = cv2.imread(str(sorted(SAMPLE.glob("*.jpg"))[0]))
    indices = both.detect_indices(image)
    assert len(indices) >= 5
    return tuple(r.classify(image, indices) for r in (both, one, other))


def test_asked_always_the_two_classifiers_are_averaged(tmp_path):
    p_both, p_one, p_other = _three_ways(tmp_path, RecognizerConfig(second_opinion_below=1.1))
    np.testing.assert_allclose(p_both, (p_one + p_other) / 2, atol=1e-5)
    # They are different models: averaging them is not a no-op.
    assert np.abs(p_one - p_other).max() > 1e-3


def test_the_second_classifier_is_asked_only_where_the_first_is_unsure(tmp_path):
    p_both, p_one, p_other = _three_ways(tmp_path, RecognizerConfig(second_opinion_below=0.97))
    unsure = p_one.max(axis=1) < 0.97
    assert unsure.any() and not unsure.all(), "the sample should hold both kinds of index"
    np.testing.assert_allclose(p_both[~unsure], p_one[~unsure], atol=1e-5)
    np.testing.assert_allclose(p_both[unsure], (p_one[unsure] + p_other[unsure]) / 2, atol=1e-5)


def test_a_second_classifier_with_other_classes_is_refused(tmp_path):
    first, second = CLASSIFIER_FILES
    d = _models_dir(tmp_path, "bad", {first: first})
    shutil.copyfile(MODELS_DIR / second, d / second)
    meta = json.loads((MODELS_DIR / second).with_suffix(".json").read_text())
    meta["names"] = list(reversed(meta["names"]))
    (d / second).with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="classes differ"):
        Recognizer(d)


def test_no_indices_read_as_no_probabilities():
    probs = Recognizer(MODELS_DIR).classify(np.zeros((50, 50, 3), np.uint8), Detections.empty())
    assert probs.shape[0] == 0
