"""Starter geometry: which of five cards the layout sets apart as the starter (pure geometry, no model).

At the show a player lays the four hand (or crib) cards together and leaves the
starter where it was cut: on the deck, above or below the row, off to one side,
or turned sideways. :func:`find_starter` scores each of the five cards for being
the odd one out with three geometric cues, computed from the boxes the
recognizer reports (corner-index boxes, or the card boxes when that is all
there is), and turns the scores into a probability per card:

- *apart*: its gap to the nearest of the other four, in units of their own
  spacing (a card twice as far away as the row's pitch stands apart);
- *out of row*: when the other four form a line, how far this card sits off it;
- *turned*: the corner indices of an upright card are taller than wide; a
  card turned a quarter from the other four has them wider than tall.

No model runs here: pure geometry on :class:`~vision.detections.Detections`.
:func:`vision.roles.assign_roles` then splits the cards into hand and starter.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detections import Detections

SHOW_CARDS = 5
"""Four hand (or crib) cards and the starter."""

SURE = 0.6
"""Below this the layout does not settle the starter: ask the player to pick it.

With five evenly spaced cards every card scores 0.2; a card a clear gap beyond
the row (2.5 pitches) scores about 0.8, one above or below the row over 0.95.
"""

# Softmax sharpness: with 3, a card 2.5 row pitches beyond the end of the row gets ~0.8.
_SHARPNESS = 3.0
# Weights of the cues against log(apart); out-of-row is in row pitches, turned in log(h/w) units
# (a quarter turn of a 2:1 index box is ~0.7, weighted to ~1.4: as strong as a card well out of the row).
_OUT_OF_ROW_WEIGHT = 0.8
_TURNED_WEIGHT = 2.0
# The other four form a row when their RMS distance from their fitted line is under this many pitches.
_ROW_RESIDUAL = 0.3
# Cap so one huge distance cannot swamp the other cues.
_MAX_OUT_OF_ROW = 3.0


@dataclass(frozen=True)
class StarterGuess:
    """The card the layout says is the starter, and how sure that is."""

    index: int
    """Row in the :class:`Detections` passed to :func:`find_starter`."""
    confidence: float
    """Probability, 0..1, that this card is the starter (the others share the rest)."""
    reason: str
    """Why, in a player's words: 'set apart above the row', 'turned differently', ..."""
    probabilities: tuple[float, ...]
    """Each card's probability of being the starter, by row."""

    @property
    def sure(self) -> bool:
        """Whether the layout settles it (see :data:`SURE`)."""
        return self.confidence >= SURE


def _orientation(indices: np.ndarray) -> float:
    """log(height / width) of a card's corner-index boxes: > 0 upright, < 0 turned a quarter."""
    w = np.maximum(indices[:, 2] - indices[:, 0], 1e-3)
    h = np.maximum(indices[:, 3] - indices[:, 1], 1e-3)
    return float(np.median(np.log(h / w)))


def _pitch(points: np.ndarray, floor: float) -> float:
    """The typical spacing of ``points``: median distance from each to its nearest neighbour."""
    d = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    return max(float(np.median(d.min(axis=1))), floor)


@dataclass(frozen=True)
class _Cues:
    apart: float
    out_of_row: float
    turned: float
    above: bool
    vertical_row: bool

    @property
    def score(self) -> float:
        return (np.log(max(self.apart, 1e-3)) + _OUT_OF_ROW_WEIGHT * self.out_of_row
                + _TURNED_WEIGHT * self.turned)


def _cues(i: int, centers: np.ndarray, orientations: np.ndarray, floor: float) -> _Cues:
    others = np.delete(np.arange(len(centers)), i)
    rest = centers[others]
    pitch = _pitch(rest, floor)
    apart = float(np.linalg.norm(rest - centers[i], axis=1).min()) / pitch
    mean = rest.mean(axis=0)
    # The line through the other four: their principal axis.
    eigvals, eigvecs = np.linalg.eigh(np.cov((rest - mean).T))
    along, normal = eigvecs[:, 1], eigvecs[:, 0]
    residual = float(np.sqrt(max(eigvals[0], 0.0))) / pitch
    offset = float((centers[i] - mean) @ normal)
    out_of_row = min(abs(offset) / pitch, _MAX_OUT_OF_ROW) if residual < _ROW_RESIDUAL else 0.0
    rest_orient = orientations[others]
    turned = 0.0
    rest_agree = np.all(np.sign(rest_orient) == np.sign(rest_orient[0]))
    if rest_agree and np.sign(orientations[i]) != np.sign(rest_orient[0]):
        # How far past square the odd card is, at most as far as the others are: a card tilted
        # just past 45 degrees (boxes nearly square) is barely turned, a quarter turn fully.
        turned = min(abs(orientations[i]), abs(float(np.median(rest_orient))))
    return _Cues(apart=apart, out_of_row=out_of_row, turned=turned,
                 above=bool(centers[i][1] < mean[1]), vertical_row=bool(abs(along[1]) > abs(along[0])))


def _reason(cues: _Cues, sure: bool) -> str:
    if not sure:
        return "no card stands apart from the other four: check the starter"
    parts = {
        "turned": _TURNED_WEIGHT * cues.turned,
        "row": _OUT_OF_ROW_WEIGHT * cues.out_of_row,
        "apart": float(np.log(max(cues.apart, 1e-3))),
    }
    strongest = max(parts, key=parts.get)
    if strongest == "turned":
        return "turned differently from the other four"
    if strongest == "row":
        if cues.vertical_row:
            return "set apart beside the column of the other four"
        return f"set apart {'above' if cues.above else 'below'} the row of the other four"
    return "set apart from the other four"


def find_starter(detections: Detections) -> StarterGuess:
    """The starter among five detected cards: the one the layout sets apart.

    Raises ``ValueError`` unless there are exactly five detections.
    """
    n = len(detections)
    if n != SHOW_CARDS:
        raise ValueError(f"finding the starter needs {SHOW_CARDS} cards, got {n}")
    centers = detections.center.astype(np.float64)
    orientations = np.array([_orientation(ind) for ind in detections.indices])
    # Two cards' boxes can nearly coincide (a fanned hand); half an index height keeps pitches sane.
    index_heights = np.concatenate([ind[:, 3] - ind[:, 1] for ind in detections.indices])
    floor = max(0.5 * float(np.median(index_heights)), 1.0)
    cues = [_cues(i, centers, orientations, floor) for i in range(n)]
    scores = np.array([c.score for c in cues]) * _SHARPNESS
    probs = np.exp(scores - scores.max())
    probs /= probs.sum()
    best = int(probs.argmax())
    confidence = float(probs[best])
    return StarterGuess(index=best, confidence=confidence, reason=_reason(cues[best], confidence >= SURE),
                        probabilities=tuple(float(p) for p in probs))
