"""The other classifiers read the indices the first is unsure of, and the readings are averaged;
the first also reads them turned; a classifier that names other classes is refused rather than
averaged into nonsense."""

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import cut_square, geometric_mean, square_crop_box
from vision.config import CLASSIFIER_FILES, MODELS_DIR, RecognizerConfig
from vision.detections import Detections
from vision.pipeline import Recognizer
from vision.sessions import to_tensor

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images"

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


def _each_and_all(tmp_path, config):
    """Probabilities from the shipped ensemble, then from each shipped classifier alone (whose
    readings are not turned or tilted: one classifier, sure or not, is the plain average of its crops); and
    the ensemble, the sample photo and its indices they read."""
    files = [f for f in CLASSIFIER_FILES if (MODELS_DIR / f).exists()]
    together = Recognizer(MODELS_DIR, config)
    plain = RecognizerConfig(second_opinion_turns=False, wider_crops_below=config.wider_crops_below)
    alone = [Recognizer(_models_dir(tmp_path, f"alone{i}", {CLASSIFIER_FILES[0]: f}), plain)
             for i, f in enumerate(files)]
    assert len(together.classifiers) == len(files) >= 2 and all(len(r.classifiers) == 1 for r in alone)
    image = cv2.imread(str(sorted(SAMPLE.glob("*.jpg"))[0]))
    indices = together.detect_indices(image)
    assert len(indices) >= 5
    each = [r.classify(image, indices) for r in alone]
    return together.classify(image, indices), each, together, image, indices


def test_asked_always_the_classifiers_are_averaged(tmp_path):
    config = RecognizerConfig(second_opinion_below=1.1, second_opinion_turns=False, wider_crops_below=None)
    p_all, each, *_ = _each_and_all(tmp_path, config)
    np.testing.assert_allclose(p_all, np.mean(each, axis=0), atol=1e-5)
    # They are different models: averaging them is not a no-op.
    assert np.abs(each[0] - each[1]).max() > 1e-3


def test_the_others_are_asked_only_where_the_first_is_unsure(tmp_path):
    config = RecognizerConfig(second_opinion_below=0.97, second_opinion_turns=False, wider_crops_below=None)
    p_all, each, *_ = _each_and_all(tmp_path, config)
    unsure = each[0].max(axis=1) < 0.97
    assert unsure.any() and not unsure.all(), "the sample should hold both kinds of index"
    np.testing.assert_allclose(p_all[~unsure], each[0][~unsure], atol=1e-5)
    np.testing.assert_allclose(p_all[unsure], np.mean([e[unsure] for e in each], axis=0), atol=1e-5)


def _first_reads(recognizer: Recognizer, image: np.ndarray, indices: Detections, margin: float,
                 quarters: int = 0) -> np.ndarray:
    """The first classifier's readings of ``indices`` cut at ``margin``, then turned ``quarters``."""
    first = recognizer.classifiers[0]
    crops = [np.rot90(cut_square(image, square_crop_box(b, margin), first.size), quarters)
             for b in indices.xyxy]
    batch = np.concatenate([to_tensor(c) for c in crops])
    return first.session.run(None, {first.session.get_inputs()[0].name: batch})[0]


def test_an_unsure_index_is_also_read_turned_and_that_counts_as_much_as_the_others(tmp_path):
    config = RecognizerConfig(second_opinion_below=1.1, wider_crops_below=None)
    p_all, each, together, image, indices = _each_and_all(tmp_path, config)
    tight, wide = config.crop_margins
    reads = [_first_reads(together, image, indices, tight), _first_reads(together, image, indices, wide),
             *(_first_reads(together, image, indices, tight, quarters=k) for k in (1, 2, 3))]
    turned = geometric_mean(np.array(reads))
    others = each[1:]
    np.testing.assert_allclose(p_all, (len(others) * turned + sum(others)) / (2 * len(others)), atol=1e-5)
    # Turning is not a no-op: the network reads a turned crop differently.
    assert np.abs(turned - each[0]).max() > 1e-3


def test_a_sure_index_is_read_from_its_tightest_crop_and_the_others_from_every_margin():
    recognizer = Recognizer(MODELS_DIR, RecognizerConfig(wider_crops_below=0.99, second_opinion_below=0.0))
    image = cv2.imread(str(sorted(SAMPLE.glob("*.jpg"))[0]))
    indices = recognizer.detect_indices(image)
    tight, wide = (_first_reads(recognizer, image, indices, m) for m in recognizer.config.crop_margins)
    sure = tight.max(axis=1) >= 0.99
    assert sure.any() and not sure.all(), "the sample should hold both kinds of index"
    probs = recognizer.classify(image, indices)
    np.testing.assert_allclose(probs[sure], tight[sure], atol=1e-5)
    np.testing.assert_allclose(probs[~sure], (tight[~sure] + wide[~sure]) / 2, atol=1e-5)


def test_an_index_asked_for_second_opinions_is_read_at_every_margin_whatever_the_wider_crop_line():
    image = cv2.imread(str(sorted(SAMPLE.glob("*.jpg"))[0]))
    every = Recognizer(MODELS_DIR, RecognizerConfig(second_opinion_below=1.1, wider_crops_below=None))
    indices = every.detect_indices(image)
    low_line = Recognizer(MODELS_DIR, RecognizerConfig(second_opinion_below=1.1, wider_crops_below=0.5))
    np.testing.assert_allclose(low_line.classify(image, indices), every.classify(image, indices), atol=1e-6)


def test_readings_that_disagree_make_an_unsure_geometric_mean():
    sure_a, sure_b = np.array([[0.9, 0.1, 0.0]]), np.array([[0.1, 0.9, 0.0]])
    mean = geometric_mean(np.array([sure_a, sure_b]))
    np.testing.assert_allclose(mean, [[0.5, 0.5, 0.0]], atol=1e-5)
    # A reading that rules a class out pulls it down more than the plain mean does.
    ruled_out = geometric_mean(np.array([[[0.98, 0.02]], [[0.0, 1.0]]]))
    assert ruled_out[0, 0] < 0.05 < np.mean([0.98, 0.0])
    np.testing.assert_allclose(ruled_out.sum(axis=1), 1.0)


def test_a_classifier_with_other_classes_is_refused(tmp_path):
    first, second = CLASSIFIER_FILES[:2]
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


def test_the_shipped_models_together_fit_in_30_mb():
    # The budget for the detector and classifiers together; a wider classifier must stay inside it.
    assert sum(f.stat().st_size for f in MODELS_DIR.glob("*.onnx")) <= 30_000_000

