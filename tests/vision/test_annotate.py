"""The annotator draws boxes, labels, the starter and the item list, and never touches a model."""

import subprocess
import sys

import numpy as np

from scorer.cards import parse_cards
from scorer.show import score_show
from vision.annotate import CardAnnotator, show_lines
from vision.detections import Detections

GREY = 128


def scene(w: int = 1000, h: int = 600) -> np.ndarray:
    return np.full((h, w, 3), GREY, np.uint8)


def dets(starter_row: int | None = 4, scale: float = 1.0) -> Detections:
    boxes = np.array([[100 + 160 * i, 300, 200 + 160 * i, 440] for i in range(4)] + [[400, 60, 500, 200]],
                     np.float32) * scale
    flags = np.zeros(5, bool)
    if starter_row is not None:
        flags[starter_row] = True
    return Detections(xyxy=boxes, confidence=np.full(5, 0.97), cards=parse_cards("5H 5D 5S JC 5C"),
                      is_starter=flags)


def colour_at(img: np.ndarray, x: int, y: int) -> tuple[int, int, int]:
    return tuple(int(v) for v in img[y, x])


def test_hand_and_starter_boxes_are_drawn_in_their_colours():
    style = CardAnnotator()
    out = style.annotate(scene(), dets())
    # Left edges of the first hand card and of the starter, half way down.
    assert colour_at(out, 100, 370) == style.hand_colour
    assert colour_at(out, 400, 130) == style.starter_colour


def test_card_labels_are_drawn_above_the_boxes():
    out = CardAnnotator().annotate(scene(), dets())
    label_strip = out[260:298, 100:200]
    assert (label_strip != GREY).any(axis=2).mean() > 0.3


def test_the_scene_is_not_changed():
    img = scene()
    CardAnnotator().annotate(img, dets())
    assert (img == GREY).all()


def test_items_are_listed_in_a_band_below_the_photo():
    show = score_show("5H 5D 5S JC", "5C")
    out = CardAnnotator().annotate_show(scene(), dets(), show)
    lines = show_lines(show)
    assert len(lines) == len(show.items) + 1
    assert out.shape[0] > 600 and out.shape[1] == 1000
    band = out[600:]
    text = (band > 200).all(axis=2)
    assert text[:, :500].any()  # white text on the dark band
    assert (out[0] == GREY).all()  # the photo itself stays on top, unshifted


def test_his_heels_gets_its_own_line():
    lines = show_lines(score_show("5H 5D 5S 4C", "JC"))
    assert "his heels (starter JC): 2 to the dealer" in lines


def test_boxes_in_original_pixels_are_scaled_to_a_reduced_scene():
    style = CardAnnotator()
    out = style.annotate(scene(), dets(scale=2.0), scale=2.0)
    assert colour_at(out, 100, 370) == style.hand_colour


def test_no_detections_draws_nothing():
    out = CardAnnotator().annotate(scene(), Detections.empty())
    assert (out == GREY).all()


def test_annotating_never_loads_a_model():
    code = ("import sys, vision.annotate; "
            "print(any(m in sys.modules for m in ('onnxruntime', 'vision.pipeline', 'torch')))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
