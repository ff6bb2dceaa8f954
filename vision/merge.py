"""Merge: index readings into cards, one card per identity, its corners' evidence combined.

A deck holds each card once, so indices read as the same card are that card's corners; boxes
that nest in one place are one index; the looks at other sizes are grouped by index first.
"""

from __future__ import annotations

import numpy as np

from scorer.cards import Card
from vision.detections import Detections, Expected, box_iou, box_overlaps, linked, long_sides


def nested(xyxy: np.ndarray, min_cover: float = 0.0) -> np.ndarray:
    """(N, N): whether boxes i and j nest, the centre of one inside the other: two boxes on one
    index (one place holds one index), however differently sized. With ``min_cover``, they must
    also share at least that fraction of the smaller box: in a tight fan the boxes on two
    neighbouring indices overlap enough for a centre to fall inside the other box, yet share
    little of either (``RecognizerConfig.nest_cover``)."""
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    inside = ((centres[:, None, 0] >= xyxy[None, :, 0]) & (centres[:, None, 0] <= xyxy[None, :, 2])
              & (centres[:, None, 1] >= xyxy[None, :, 1]) & (centres[:, None, 1] <= xyxy[None, :, 3]))
    nest = inside | inside.T
    if min_cover > 0:
        shared, area_a, area_b = box_overlaps(xyxy, xyxy)
        nest &= shared >= min_cover * np.maximum(np.minimum(area_a[:, None], area_b[None, :]), 1e-6)
    return nest


def _outread(xyxy: np.ndarray, best: np.ndarray, sure: np.ndarray, is_card: np.ndarray,
             min_cover: float = 0.0) -> np.ndarray:
    """Per index: whether a surer reading of a different card sits in the same place (:func:`nested`)."""
    n = len(best)
    later = np.arange(n)[None, :] > np.arange(n)[:, None]
    surer = (sure[None, :] > sure[:, None]) | ((sure[None, :] == sure[:, None]) & later)
    rival = nested(xyxy, min_cover) & (best[:, None] != best[None, :]) & is_card[None, :] & surer
    return is_card & rival.any(axis=1)


def merge_indices(indices: Detections, probs: np.ndarray, class_cards: list[Card | None],
                  card_confidence: float, sure_index_confidence: float = 0.0,
                  nest_cover: float = 0.0, expected: Expected | None = None,
                  fill_floor: float = 0.0, corners_apart: float | None = None) -> Detections:
    """One detection per card: indices read as the same card are its two corners.

    ``probs`` (N, classes) are the classifier's readings of the N indices; ``class_cards`` names
    the classes (``None`` for "not a card"). An index goes to the card it most likely shows,
    unless "not a card" is likelier. A card's indices combine by summing log-probabilities,
    so a clear reading of one corner outweighs a blurred other corner; the card is kept when
    the combined probability reaches ``card_confidence`` and one of its indices alone reads it
    at ``sure_index_confidence`` or more. Sorted left to right, as a player
    reads a row; a card's index boxes are listed surest-read first.

    One place holds one index: boxes that nest (the centre of one inside the other, sharing at
    least ``nest_cover`` of the smaller box) but read as different cards are the detector's second
    guesses at one index, half of it cut by an overlapping card or a pip beside it taken in, so
    only the surest reading among them counts.

    With ``corners_apart`` (a whole table, where a misread card often reads as one on the table),
    indices read alike count as one card only within that many index sizes of each other; farther
    apart they are two cards, the one read less surely taking its next likeliest
    (:func:`_each_card_once`).

    With ``expected`` (the player said how many cards the photo holds, :class:`Expected`), where
    fewer cards pass the line the likeliest of those short of it (at ``fill_floor`` or more) make
    up the number (``made_up`` on their rows); a card ``expected.besides`` names is not counted.
    Of more cards than expected none is dropped here: the count sets the least sure aside and says
    so (:func:`vision.roles.surest`).
    """
    none = [i for i, c in enumerate(class_cards) if c is None]
    card_probs = probs.copy()
    card_probs[:, none] = 0
    best = card_probs.argmax(axis=1)
    is_card = card_probs[np.arange(len(best)), best] > probs[:, none].max(axis=1, initial=0)
    is_card &= ~_outread(indices.xyxy, best, card_probs.max(axis=1), is_card, nest_cover)
    if corners_apart is not None:
        probs, best, is_card = _each_card_once(indices.xyxy, probs, none, best, is_card, corners_apart)
    groups: dict[int, list[int]] = {}
    for i in np.flatnonzero(is_card):
        groups.setdefault(int(best[i]), []).append(int(i))
    rows, short = [], []
    for cls, members in groups.items():
        # The detector's score already gated each index (index_confidence); multiplying it in
        # again would punish real photos twice, where it runs lower than on synthetic ones.
        p_card = _joint(probs[members], cls)
        members = sorted(members, key=lambda i: -probs[i, cls])  # its surest-read index first
        boxes = indices.xyxy[members]
        union = np.array([boxes[:, 0].min(), boxes[:, 1].min(), boxes[:, 2].max(), boxes[:, 3].max()])
        row = (class_cards[cls], p_card, union, boxes)
        passed = p_card >= card_confidence and probs[members, cls].max() >= sure_index_confidence
        (rows if passed else short).append(row)
    made_up = _making_up(rows, short, expected, fill_floor) if expected is not None else []
    rows = [(*r, False) for r in rows] + [(*r, True) for r in made_up]
    if not rows:
        return Detections.empty()
    rows.sort(key=lambda r: (r[2][0], r[2][1]))
    return Detections(
        xyxy=np.stack([r[2] for r in rows]),
        confidence=np.array([r[1] for r in rows]),
        cards=tuple(r[0] for r in rows),
        indices=tuple(r[3] for r in rows),
        data={"made_up": np.array([r[4] for r in rows])} if expected is not None else {},
    )


def _each_card_once(xyxy: np.ndarray, probs: np.ndarray, none: list[int], best: np.ndarray,
                    is_card: np.ndarray, corners_apart: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The readings ``probs`` with each card read in one place, and per index its card (``best``) and
    whether it is one (``is_card``). Indices read as one card but farther apart than ``corners_apart``
    times the larger's size (a card's corners lie closer) are two cards, one misread: a deck holds
    each card once. The place that reads the card surest keeps it (its indices' joint reading; of
    as sure, the one with more indices); at the others that card is ruled out, and their readings
    of the rest weigh the more (renormalised), so each takes its next likeliest card, or none."""
    probs = probs.copy()
    while True:
        moved = False
        for cls in np.unique(best[is_card]):
            members = np.flatnonzero(is_card & (best == cls))
            sizes = long_sides(xyxy[members])
            places = linked(xyxy[members], corners_apart * np.maximum(sizes[:, None], sizes[None, :]))
            if len(places) < 2:
                continue
            keep = max(places, key=lambda c: (_joint(probs[members[c]], cls), len(c)))
            for place in places:
                if place is not keep:
                    probs[members[place], cls] = 0
                    moved = True
        if not moved:
            return probs, best, is_card
        probs /= np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)
        card_probs = probs.copy()
        card_probs[:, none] = 0
        best = card_probs.argmax(axis=1)
        is_card &= card_probs[np.arange(len(best)), best] > probs[:, none].max(axis=1, initial=0)


def _joint(probs: np.ndarray, cls: int) -> float:
    """How surely indices ``probs`` (K, classes) read together as class ``cls``: their
    log-probabilities summed, so a clear corner outweighs a blurred one."""
    logp = np.log(np.clip(probs, 1e-6, 1)).sum(axis=0)
    joint = np.exp(logp - logp.max())
    return float(joint[cls] / joint.sum())


def _making_up(kept: list[tuple], short: list[tuple], expected: Expected, floor: float) -> list[tuple]:
    """The rows (card, confidence, ...) of ``short`` that bring ``kept`` up to ``expected.cards``: the
    likeliest, at ``floor`` or more; ``expected.besides`` neither counted nor taken."""
    counted = sum(r[0] != expected.besides for r in kept)
    likeliest = sorted((r for r in short if r[0] != expected.besides and r[1] >= floor), key=lambda r: -r[1])
    return likeliest[: max(expected.cards - counted, 0)]


def group_looks(main: Detections, others: Detections, iou: float,
                confidence: float) -> tuple[Detections, list[list[int]]]:
    """The indices of several looks at one photo: ``main``'s boxes, each a group of its own, and
    ``others`` (the detector's boxes at other sizes) taken surest first: a box overlapping a main
    box at ``iou`` or more joins its group (another reading of that index), else one overlapping an
    earlier new group's first box joins that, else, scored ``confidence`` or more, it starts a new
    group (an index the main look missed); the rest are dropped. Main boxes win over new ones, so
    a second look never moves an index the main look found.

    Returns the boxes to read (``main``'s, then the kept ``others``) and, per group, its rows in
    those boxes, the group's leading box first.
    """
    n = len(main)
    groups = [[i] for i in range(n)]
    if not len(others):
        return main, groups
    xyxy, conf = list(main.xyxy), list(main.confidence)
    for j in np.argsort(-others.confidence, kind="stable"):
        leaders = np.array([xyxy[g[0]] for g in groups], np.float32).reshape(-1, 4)
        on = box_iou(others.xyxy[j : j + 1], leaders)[0]
        if n and on[:n].max() >= iou:
            group = int(on[:n].argmax())
        elif len(on) and on.max() >= iou:
            group = int(on.argmax())
        elif others.confidence[j] >= confidence:
            group = len(groups)
            groups.append([])
        else:
            continue
        groups[group].append(len(xyxy))
        xyxy.append(others.xyxy[j])
        conf.append(others.confidence[j])
    boxes = Detections(xyxy=np.array(xyxy, np.float32).reshape(-1, 4), confidence=np.array(conf, np.float32))
    return boxes, groups
