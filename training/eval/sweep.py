"""Recognizer settings measured side by side: each variant of the shipped settings against them,
paired by photo.

    python -m training.eval.sweep data/real78 'data/real78@blur=2' data/tune780 \
        --try nms60='{"nms_iou": 0.6}' --try line60='{"card_confidence": 0.6}'

Why: a setting is chosen on the tuning sets by reading every photo once per value tried, and most
of that reading is the same each time (the detector sees the same photo, the classifiers the same
crops). Here the models' answers are kept by their input (:class:`Memo`), so each variant costs only
what it reads differently: fourteen variants over the eight tuning sets took about 25 minutes on
two cores, against some 100 for as many ``cribcount eval --against`` runs. A folder may be made over
in memory as ``cribcount eval`` does (``@blur=SIGMA``, ``@light=dim|warm|dim-warm``,
``@afar=FRACTION``, ``@turn=DEGREES``, ``@oblique=DEGREES``: :mod:`training.eval.made_over`). Each
set prints the shipped settings' figures and, per variant, the paired difference
(``training.eval.compare.compare``); then the variants pooled over the sets.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from pathlib import Path

import numpy as np

from training.eval.compare import compare
from training.eval.made_over import WAYS
from vision.classify import Classifier
from vision.config import MODELS_DIR, RecognizerConfig
from vision.evaluate import evaluate, load_labelled
from vision.pipeline import Recognizer


def way_value(way: str, text: str) -> float | str:
    """The value of a made-over way (:data:`training.eval.made_over.WAYS`) from text, checked by the way's
    module before any photo is read: ``ValueError`` saying what is wrong."""
    if way not in WAYS:
        raise ValueError(f"expected folder@WAY=VALUE, WAY one of {', '.join(WAYS)}")
    value: float | str = text
    if WAYS[way].numeric:
        try:
            value = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
    WAYS[way].check(value)
    return value


class Memo:
    """An ONNX session whose answers are kept by input: a batch of crops row by row (a crop read
    once is not read again in another batch), any other input (the detector's canvas) whole."""

    def __init__(self, session, rows: bool) -> None:
        self.session, self.rows, self.kept = session, rows, {}
        self.runs = 0

    def get_inputs(self):
        return self.session.get_inputs()

    @staticmethod
    def _key(x: np.ndarray) -> bytes:
        return hashlib.blake2b(x.tobytes(), digest_size=16).digest() + str(x.shape).encode()

    def run(self, outputs, feed: dict[str, np.ndarray]) -> list[np.ndarray]:
        (name, x), = feed.items()
        if not self.rows:
            key = self._key(x)
            if key not in self.kept:
                self.runs += 1
                self.kept[key] = self.session.run(outputs, feed)
            return self.kept[key]
        keys = [self._key(row) for row in x]
        new = [i for i, k in enumerate(keys) if k not in self.kept]
        if new:
            self.runs += 1
            out = self.session.run(outputs, {name: np.ascontiguousarray(x[new])})[0]
            self.kept.update((keys[i], out[j]) for j, i in enumerate(new))
        return [np.stack([self.kept[k] for k in keys])]


def remembering(recognizer: Recognizer) -> Recognizer:
    """``recognizer`` with its detector and classifiers answering through :class:`Memo`."""
    recognizer.detector = Memo(recognizer.detector, rows=False)
    recognizer.classifiers = [Classifier(Memo(c.session, rows=True), c.size) for c in recognizer.classifiers]
    return recognizer


def variant(recognizer: Recognizer, settings: dict) -> Recognizer:
    """A recognizer sharing ``recognizer``'s models (and what they remember), with ``settings`` over
    its config. Raises ``ValueError`` for a setting :class:`RecognizerConfig` does not have."""
    known = {f.name for f in fields(RecognizerConfig)}
    if unknown := sorted(set(settings) - known):
        raise ValueError(f"not a recognizer setting: {', '.join(unknown)}")
    other = copy.copy(recognizer)
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in settings.items()}
    other.config = replace(recognizer.config, **values)
    return other


@dataclass(frozen=True)
class PhotoSet:
    """A labelled folder, and how its photos are made over before they are read (``None``: as they are)."""

    folder: Path
    made_over: str | None = None

    @classmethod
    def parse(cls, spec: str) -> PhotoSet:
        """``folder`` or ``folder@way=value`` (:data:`training.eval.made_over.WAYS`)."""
        folder, _, how = spec.partition("@")
        if how:
            way, _, value = how.partition("=")
            try:
                way_value(way, value)
            except ValueError as e:
                raise ValueError(f"{spec!r}: {e}") from None
        return cls(Path(folder), how or None)

    def reader(self, recognizer: Recognizer) -> Callable:
        """``recognizer.recognize``, reading each photo made over as the set says."""
        if self.made_over is None:
            return recognizer.recognize
        way, _, value = self.made_over.partition("=")
        return WAYS[way].over(way_value(way, value))(recognizer.recognize)

    def __str__(self) -> str:
        return f"{self.folder}" + (f" @{self.made_over}" if self.made_over else "")


def parse_try(spec: str) -> tuple[str, dict]:
    """``name=JSON`` (an object of settings) as given to ``--try``."""
    name, _, text = spec.partition("=")
    try:
        settings = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"--try {spec!r}: the settings are not JSON ({e})") from None
    if not name or not isinstance(settings, dict):
        raise ValueError(f"--try {spec!r}: expected NAME='{{\"setting\": value, ...}}'")
    return name, settings


def sweep(sets: list[PhotoSet], base: Recognizer, variants: dict[str, Recognizer]) -> dict[str, list[float]]:
    """Print each set's figures and each variant's paired difference; returns the pooled sums per
    variant: card difference times cards, cards, photos fixed, photos broken, false cards more."""
    pooled = {name: [0.0, 0, 0, 0, 0] for name in variants}
    for photo_set in sets:
        photos = load_labelled(photo_set.folder)
        ref = evaluate(photos, photo_set.reader(base), str(photo_set))
        print(f"{photo_set}: {100 * ref.card_accuracy:.2f}% / {100 * ref.hand_accuracy:.1f}% / "
              f"{ref.false_cards} false", flush=True)
        cards = sum(len(p.cards) for p in photos)
        for name, other in variants.items():
            d = compare(evaluate(photos, photo_set.reader(other), str(photo_set)), ref, "shipped")
            lo, hi = d.card_delta_95
            print(f"  {name:>12}: cards {100 * d.card_delta:+.2f} ({100 * lo:+.2f} to {100 * hi:+.2f}), "
                  f"photos fixed {d.fixed}, broken {d.broken}, false {d.false_delta:+d}", flush=True)
            for i, value in enumerate((d.card_delta * cards, cards, d.fixed, d.broken, d.false_delta)):
                pooled[name][i] += value
    return pooled


def main(argv: list[str] | None = None) -> int:
    # The docstring's first sentence, which runs over two lines.
    summary = " ".join(__doc__.split("\n\n")[0].split())
    p = argparse.ArgumentParser(prog="python -m training.eval.sweep", description=summary)
    p.add_argument("sets", nargs="+", help="labelled folders, each optionally made over: FOLDER@WAY=VALUE")
    p.add_argument("--try", dest="tries", action="append", required=True, metavar="NAME=JSON",
                   help="a variant: its name and the settings it changes, e.g. nms60='{\"nms_iou\": 0.6}'")
    p.add_argument("--models", type=Path, default=MODELS_DIR)
    a = p.parse_args(argv)
    try:
        sets = [PhotoSet.parse(s) for s in a.sets]
        tries = dict(parse_try(t) for t in a.tries)
        base = remembering(Recognizer(a.models))
        variants = {name: variant(base, settings) for name, settings in tries.items()}
        pooled = sweep(sets, base, variants)
    except (FileNotFoundError, ValueError, TypeError) as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 2
    print("pooled:")
    for name, (delta, cards, fixed, broken, false) in pooled.items():
        print(f"  {name:>12}: cards {100 * delta / max(cards, 1):+.2f} of {cards}, photos fixed {fixed}, "
              f"broken {broken}, false {false:+d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
