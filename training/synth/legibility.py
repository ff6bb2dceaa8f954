"""When a person could still read an index: how tall, how wide and how sharp it must be.

Kept apart from rendering so the evaluation and training tools that need only these limits
(``training.train.blur_aug``, the evaluation's breakdowns, ...) do not pull in the renderer.
"""

from __future__ import annotations

import math

import numpy as np

MIN_LEGIBLE_INDEX_PX = 12
"""An index (rank and suit glyphs) shorter than this is unreadable even to a person."""
MIN_LEGIBLE_INDEX_ACROSS_PX = 5
"""An index narrower than this (its quad's short side: the glyphs' width, less where the card is
seen at a low angle) is unreadable too, however tall. The height alone let a narrow design's 12-14
px index count at 3-4 px across. Chosen by eye, blind to the labels, on 106 index crops of the
seed-780 tuning renders drawn at random by width (in full view, legible by the other limits):
under 4 px none of 11 could be named, 4-5 px 7 of 15 (3 named wrong), 5-6 px 15 of 20, 6-7 px 16
of 20, 7 px and more 39 of 40 (models/HISTORY.md, Narrow indices)."""
READABLE_VISIBLE_FRACTION = 0.6
"""An index this much in view (and legible) makes its card readable: a person could name it."""
MAX_BLUR_PER_INDEX_PX = 0.065
"""An index blurred by more than this fraction of its height is a smudge no one could name.
The blur is the photo's (:class:`training.synth.photo.Focus`) combined with :data:`BASE_BLUR_PX`.
Chosen by eye on 96 index crops of held-out renders drawn at random and ordered by the ratio,
erring towards "legible" where unsure (models/README.md)."""
BASE_BLUR_PX = 0.6
"""What rendering, sensor noise and JPEG blur on their own (standard deviation, px): it is
why a 13 px index reads worse than a 40 px one blurred in proportion."""


def _quad_sides(quad) -> np.ndarray:
    q = np.asarray(quad, np.float64)
    return np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)


def index_height(quad) -> float:
    """The length of an index quad's long side: the glyph stack's height, however it is turned."""
    return float(max(_quad_sides(quad)))


def index_across(quad) -> float:
    """The length of an index quad's short side: the glyphs' width, foreshortened with the card."""
    return float(min(_quad_sides(quad)))


def legible(height_px: float, across_px: float, blur_px: float) -> bool:
    """Whether a person could name the card from an index this tall, this wide and this blurred."""
    return (height_px >= MIN_LEGIBLE_INDEX_PX and across_px >= MIN_LEGIBLE_INDEX_ACROSS_PX
            and math.hypot(blur_px, BASE_BLUR_PX) <= MAX_BLUR_PER_INDEX_PX * height_px)
