"""`Detections`: the one type every vision stage passes on.

The detector fills boxes and confidences (``card`` is ``None``), the classifier
fills ``card`` and ``card_confidence``, merging joins the two corner indices of
one card, the starter finder sets ``is_starter``, and the annotator and the
evaluation only read. Like supervision's ``Detections``: arrays checked in
``__post_init__``, boolean-mask indexing gives a new object.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from scorer.cards import Card


def box_overlaps(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every box of ``a`` against every box of ``b`` (xyxy): the (N, M) shared areas, and each
    box's own area."""
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    shared = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    return shared, (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]), (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])


def box_gaps(boxes: np.ndarray) -> np.ndarray:
    """(N, N) empty space between every two boxes (xyxy) in pixels: 0 where they overlap or touch."""
    dx = np.maximum(boxes[:, None, 0], boxes[None, :, 0]) - np.minimum(boxes[:, None, 2], boxes[None, :, 2])
    dy = np.maximum(boxes[:, None, 1], boxes[None, :, 1]) - np.minimum(boxes[:, None, 3], boxes[None, :, 3])
    return np.hypot(np.clip(dx, 0, None), np.clip(dy, 0, None))


def linked(boxes: np.ndarray, reach: float | np.ndarray) -> list[list[int]]:
    """``boxes`` (N, 4) in clusters: single linkage over gaps of at most ``reach`` pixels (one
    distance, or (N, N): one per pair)."""
    near = box_gaps(boxes) <= reach
    clusters: list[list[int]] = []
    left = set(range(len(boxes)))
    while left:
        todo = [min(left)]
        left.discard(todo[0])
        cluster = []
        while todo:
            i = todo.pop()
            cluster.append(i)
            joined = [j for j in left if near[i, j]]
            left.difference_update(joined)
            todo += joined
        clusters.append(sorted(cluster))
    return clusters


def long_sides(boxes: np.ndarray) -> np.ndarray:
    """Each box's (xyxy) longer side in pixels: an index's size whichever way its card is turned."""
    return np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) intersection over union of every box of ``a`` with every box of ``b`` (xyxy)."""
    shared, area_a, area_b = box_overlaps(a, b)
    return shared / (area_a[:, None] + area_b[None, :] - shared + 1e-9)


@dataclass(frozen=True)
class Expected:
    """What the player has told the product a photo holds: ``cards`` cards besides ``besides``.

    Counting a show, the product knows how many cards the photo should hold: five (the hand and the
    starter), or four when the player named the starter, which may then be in view or not. Told
    so, the recognizer makes up a missing card from the readings short of the line
    (:attr:`~vision.config.RecognizerConfig.show_fill_floor`) and the count sets one too many
    aside (:func:`vision.roles.surest`); read as anything else, a photo carries no such
    knowledge and each card stands on its own.
    """

    cards: int
    """How many cards the photo holds, not counting ``besides``."""
    besides: Card | None = None
    """A card the player named (the starter) that may or may not be in view: kept if read, never
    counted among ``cards``."""

    def __post_init__(self) -> None:
        if self.cards < 0:
            raise ValueError(f"a photo holds 0 or more cards, not {self.cards}")


CHECK_BELOW = 0.95
"""A card read below this is one for the player to check (the page marks it, the CLI names it).

Chosen on the tuning renders read as shows (docs/experiments, Wrong counts given as sure): at 0.8,
28 of 1,299 shows had a false card read above the line and nothing marked; at 0.95, 14, for a fifth
of shows marked instead of one in thirteen. Real photos read surer: the 78 real tuning photos had 1
photo marked at 0.8 and 3 at 0.95."""


@dataclass(frozen=True, eq=False)
class Detection:
    """One card found in a photo (a read-only view of one row of :class:`Detections`)."""

    card: Card | None
    """What the classifier read; ``None`` before classification."""
    confidence: float
    """How sure the recognizer is of this card, 0..1 (detector x classifier)."""
    xyxy: tuple[float, float, float, float]
    """Box in original-image pixels: the union of the indices seen, or the whole card."""
    quad: tuple[tuple[float, float], ...]
    """Four corners (clockwise from top-left of the box) in original-image pixels."""
    indices: tuple[tuple[float, float, float, float], ...]
    """Boxes of the corner indices (rank + suit glyphs) that were seen, original pixels."""
    is_starter: bool = False
    """Whether the starter finder picked this card as the starter."""
    made_up: bool = False
    """Read short of the card line and taken only to make up the number of cards the player said
    the photo holds (:class:`Expected`): always one for the player to check."""

    @property
    def to_check(self) -> bool:
        """Whether the player should check this card: read below :data:`CHECK_BELOW`, or taken only to
        make up a show's number (:attr:`made_up`), however it read. A wrong card not so marked is the
        one a player has no reason to doubt (:attr:`vision.evaluate.PhotoResult.unmarked_false`)."""
        return self.confidence < CHECK_BELOW or self.made_up

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.xyxy
        return ((x0 + x1) / 2, (y0 + y1) / 2)


def _quad_of(xyxy: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = xyxy
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


@dataclass(frozen=True, eq=False)
class Detections:
    """N detections as parallel arrays; iterate to get :class:`Detection` rows.

    ``xyxy`` (N, 4) and ``quad`` (N, 4, 2) are in original-image pixels.
    ``indices`` holds, per row, the (K, 4) boxes of the corner indices seen.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    cards: tuple[Card | None, ...] = ()
    quad: np.ndarray | None = None
    indices: tuple[np.ndarray, ...] = ()
    is_starter: np.ndarray | None = None
    data: dict[str, np.ndarray] = field(default_factory=dict)
    """Extra per-row arrays (e.g. ``class_probs``), indexed along with the rest."""

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(-1, 4)
        n = len(xyxy)
        object.__setattr__(self, "xyxy", xyxy)
        conf = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        if conf.shape != (n,):
            raise ValueError(f"confidence has {conf.shape[0]} rows, xyxy has {n}")
        object.__setattr__(self, "confidence", conf)
        cards = tuple(self.cards) if self.cards else (None,) * n
        if len(cards) != n:
            raise ValueError(f"cards has {len(cards)} rows, xyxy has {n}")
        object.__setattr__(self, "cards", cards)
        quad = (np.stack([_quad_of(b) for b in xyxy]) if n else np.zeros((0, 4, 2), np.float32)) \
            if self.quad is None else np.asarray(self.quad, dtype=np.float32).reshape(-1, 4, 2)
        if len(quad) != n:
            raise ValueError(f"quad has {len(quad)} rows, xyxy has {n}")
        object.__setattr__(self, "quad", quad)
        indices = tuple(np.asarray(i, np.float32).reshape(-1, 4) for i in self.indices) \
            if self.indices else tuple(b[None, :].copy() for b in xyxy)
        if len(indices) != n:
            raise ValueError(f"indices has {len(indices)} rows, xyxy has {n}")
        object.__setattr__(self, "indices", indices)
        starter = np.zeros(n, bool) if self.is_starter is None else np.asarray(self.is_starter, bool)
        if starter.shape != (n,):
            raise ValueError(f"is_starter has {starter.shape[0]} rows, xyxy has {n}")
        object.__setattr__(self, "is_starter", starter)
        for key, arr in self.data.items():
            if len(arr) != n:
                raise ValueError(f"data[{key!r}] has {len(arr)} rows, xyxy has {n}")

    @classmethod
    def from_onnx(cls, output: np.ndarray) -> Detections:
        """The boxes of a YOLO detector's raw ONNX output (4 + classes, N): each column a box as centre
        and size, then its score per class; the box's confidence is its best class score."""
        cx, cy, w, h = output[:4]
        x0, y0 = cx - w / 2, cy - h / 2
        return cls(xyxy=np.column_stack([x0, y0, x0 + w, y0 + h]), confidence=output[4:].max(axis=0))

    @classmethod
    def empty(cls) -> Detections:
        return cls(xyxy=np.zeros((0, 4), np.float32), confidence=np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __iter__(self) -> Iterator[Detection]:
        return (self.row(i) for i in range(len(self)))

    def row(self, i: int) -> Detection:
        return Detection(
            card=self.cards[i],
            confidence=float(self.confidence[i]),
            xyxy=tuple(float(v) for v in self.xyxy[i]),
            quad=tuple((float(x), float(y)) for x, y in self.quad[i]),
            indices=tuple(tuple(float(v) for v in b) for b in self.indices[i]),
            is_starter=bool(self.is_starter[i]),
            made_up=bool(self.data["made_up"][i]) if "made_up" in self.data else False,
        )

    def __getitem__(self, key: int | slice | np.ndarray | Sequence[int]) -> Detection | Detections:
        """``d[i]`` is one :class:`Detection`; ``d[mask]``, ``d[1:]``, ``d[[2, 0]]`` a new ``Detections``."""
        if isinstance(key, (int, np.integer)):
            return self.row(int(key))
        idx = np.arange(len(self))[key]
        return Detections(
            xyxy=self.xyxy[idx],
            confidence=self.confidence[idx],
            cards=tuple(self.cards[i] for i in idx),
            quad=self.quad[idx],
            indices=tuple(self.indices[i] for i in idx),
            is_starter=self.is_starter[idx],
            data={k: np.asarray(v)[idx] for k, v in self.data.items()},
        )

    def with_(self, **changes) -> Detections:
        """A copy with some fields replaced (the type is frozen)."""
        return replace(self, **changes)

    @property
    def card_list(self) -> list[Card]:
        """The cards read, skipping unread rows."""
        return [c for c in self.cards if c is not None]

    @property
    def center(self) -> np.ndarray:
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2

    @classmethod
    def merge(cls, parts: Sequence[Detections]) -> Detections:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        keys = set.intersection(*(set(p.data) for p in parts))
        return cls(
            xyxy=np.concatenate([p.xyxy for p in parts]),
            confidence=np.concatenate([p.confidence for p in parts]),
            cards=tuple(c for p in parts for c in p.cards),
            quad=np.concatenate([p.quad for p in parts]),
            indices=tuple(i for p in parts for i in p.indices),
            is_starter=np.concatenate([p.is_starter for p in parts]),
            data={k: np.concatenate([p.data[k] for p in parts]) for k in keys},
        )
