"""Render labelled scenes and write them as training sets.

``OUT/yolo/images/<split>/<stem>.jpg`` with the scene's JSON label beside it,
``OUT/yolo/labels/<split>/<stem>.txt`` (class 0 ``index``; optional class 1 ``card``),
``OUT/yolo/data.yaml``, and classifier crops ``OUT/cls/<split>/<AC..KS|none>/*.jpg`` (cut by
:mod:`training.synth.crops`).
Every image is a pure function of (seed, split, number): same seed, same bytes.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm  # a well-kept progress bar, rather than one of our own

from training.data.yolo import box_row

# The crops were part of this module; callers still import them from here.
from training.synth.crops import (
    NONE_CLASS,
    back_corner_boxes,
    back_corner_crops,
    classifier_crops,
    index_and_clutter_crops,
    square_crop,
)
from training.synth.decks import HELD_OUT_DECKS, build_all, card_names, deck_names
from training.synth.layouts import SCENE_TYPES, USUAL_TABLE, TableProps, make_scene
from training.synth.photo import develop, jpeg
from training.synth.scene import labels, make_camera, render

SPLITS = ("train", "val", "test", "eval")
_SPLIT_IDS = {"train": 0, "val": 1, "test": 2, "eval": 3}
CLASS_NAMES = [*card_names(), NONE_CLASS]
# Detector labels: an index at least this visible gets a box; the rest is background.
MIN_LABEL_VISIBLE = 0.3
# Procedural decks are a third of the scenes: enough to teach shapes, not so many they dominate.
PROCEDURAL_SHARE = 0.33


@dataclass(frozen=True)
class SizeSpec:
    """Long side of the photo in px: fixed, or drawn from a range."""

    lo: int
    hi: int

    @classmethod
    def parse(cls, text: str | int) -> SizeSpec:
        """``"640"`` or ``"640:2000"``. Raises ``ValueError`` otherwise."""
        parts = str(text).split(":")
        try:
            nums = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"size must be N or LO:HI in px, got {text!r}") from None
        if len(nums) == 1:
            nums = nums * 2
        if len(nums) != 2 or not 160 <= nums[0] <= nums[1] <= 6000:
            raise ValueError(f"size must be N or LO:HI with 160 <= LO <= HI <= 6000, got {text!r}")
        return cls(nums[0], nums[1])

    def draw(self, rng: np.random.Generator) -> tuple[int, int]:
        long_side = int(rng.integers(self.lo, self.hi + 1))
        r = rng.random()
        # Phone photos are mostly 4:3, some 16:9; squares stand for cropped/shared photos.
        ratio = 4 / 3 if r < 0.6 else (16 / 9 if r < 0.8 else 1.0)
        short = int(round(long_side / ratio))
        return (long_side, short) if rng.random() < 0.5 else (short, long_side)


def image_rng(seed: int, split: str, number: int) -> np.random.Generator:
    return np.random.default_rng([seed, _SPLIT_IDS[split], number])


def split_pool(split: str, only: Iterable[str] | None = None) -> list[str]:
    """Decks a split may use, narrowed to ``only`` when given. Raises ``ValueError`` if none is left."""
    names = deck_names(split)
    if only is not None:
        only = list(only)
        names = [n for n in names if n in only]
        if not names:
            raise ValueError(f"none of the decks {only} may be used in the {split} split "
                             f"(held-out decks only in test, the eval-only deck only in eval)")
    return names


def choose_deck(rng: np.random.Generator, split: str, only: Iterable[str] | None = None) -> str:
    names = split_pool(split, only)
    proc = [n for n in names if n.startswith("proc-")]
    art = [n for n in names if not n.startswith("proc-")]
    pool = proc if (proc and (not art or rng.random() < PROCEDURAL_SHARE)) else art
    return pool[int(rng.integers(len(pool)))]


def _draw_deck(rng: np.random.Generator, split: str, deck: str | None, decks: Iterable[str] | None) -> str:
    """A scene's first draw: its deck (a named one is only checked against the split)."""
    if deck is not None:
        split_pool(split, [deck])  # a named deck keeps to its split too
        return deck
    return choose_deck(rng, split, decks)


def scene_deck(seed: int, split: str, number: int, deck: str | None = None,
               decks: Iterable[str] | None = None) -> str:
    """The deck :func:`render_sample` will draw for these arguments, known without rendering,
    so a run rasterizes only the decks its scenes use."""
    return _draw_deck(image_rng(seed, split, number), split, deck, decks)


@dataclass
class Sample:
    stem: str
    jpeg: bytes
    label: dict
    image: np.ndarray
    """The final photo as decoded from the JPEG (what crops are cut from)."""


def render_sample(seed: int, split: str, number: int, size: SizeSpec, deck: str | None = None,
                  scene_type: str | None = None, decks: Iterable[str] | None = None,
                  table: TableProps = USUAL_TABLE) -> Sample:
    """One labelled photo, fully determined by its arguments (``decks`` narrows the split's pool)."""
    rng = image_rng(seed, split, number)
    deck = _draw_deck(rng, split, deck, decks)
    spec = make_scene(rng, deck, scene_type, table)
    W, H = size.draw(rng)
    cam = make_camera(rng, (W, H), spec.items)
    rendered = render(rng, spec, cam)
    photo, focus = develop(rng, rendered.image, rendered.card_mask)
    data = jpeg(rng, photo)
    stem = f"s{seed}-{split}-{number:06d}"
    lab = {"image": f"{stem}.jpg", "width": W, "height": H, "deck": deck, "scene_type": spec.scene_type,
           "seed": seed, "split": split, "number": number,
           "camera_elevation_deg": round(cam.elevation_deg, 1),
           **labels(spec, cam, rendered, focus)}
    final = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    return Sample(stem, data, lab, final)


# --- writers ----------------------------------------------------------------------------

def yolo_lines(label: dict, with_cards: bool = False) -> list[str]:
    """Ultralytics detect rows ``class cx cy w h`` (normalized) for one label dict."""
    W, H = label["width"], label["height"]
    rows = []
    for card in label["cards"]:
        for idx in card["indices"]:
            if idx["visible_fraction"] < MIN_LABEL_VISIBLE or not idx["visible_box_xyxy"]:
                continue
            # Partly hidden indices get the box of what shows, not of the whole glyph group.
            box = idx["box_xyxy"] if idx["visible_fraction"] >= 0.95 else idx["visible_box_xyxy"]
            rows.append(box_row(0, box, W, H))
        if with_cards:
            rows.append(box_row(1, card["box_xyxy"], W, H))
    return [r for r in rows if r]



def write_data_yaml(out: Path, with_cards: bool = False) -> Path:
    yolo = out / "yolo"
    yolo.mkdir(parents=True, exist_ok=True)
    names = "  0: index\n" + ("  1: card\n" if with_cards else "")
    text = (f"# Written by `cribcount synth`: corner indices (rank+suit glyph groups) of playing cards.\n"
            f"path: {yolo.resolve()}\ntrain: images/train\nval: images/val\ntest: images/test\n"
            f"names:\n{names}")
    (yolo / "data.yaml").write_text(text)
    return yolo / "data.yaml"


@dataclass(frozen=True)
class Job:
    out: str
    seed: int
    split: str
    number: int
    size: SizeSpec
    with_cards: bool = False
    crops: bool = True
    deck: str | None = None
    scene_type: str | None = None
    decks: tuple[str, ...] | None = None
    back_corners: bool = False
    table: TableProps = USUAL_TABLE


def _crop_rng(seed: int, split: str, number: int) -> np.random.Generator:
    """The classifier crops' own generator for one scene, so they can be cut again from its saved photo."""
    return np.random.default_rng([seed, _SPLIT_IDS[split], number, 7])


def run_job(job: Job) -> tuple[str, str, str]:
    """Render and write one image with its labels and crops. Returns (split, stem, scene type)."""
    s = render_sample(job.seed, job.split, job.number, job.size, job.deck, job.scene_type, job.decks,
                      job.table)
    out = Path(job.out)
    img_dir = out / "yolo" / "images" / job.split
    lab_dir = out / "yolo" / "labels" / job.split
    (img_dir / f"{s.stem}.jpg").write_bytes(s.jpeg)
    (img_dir / f"{s.stem}.json").write_text(json.dumps(s.label, separators=(",", ":")))
    (lab_dir / f"{s.stem}.txt").write_text("\n".join(yolo_lines(s.label, job.with_cards)) + "\n")
    if job.crops:
        crng = _crop_rng(job.seed, job.split, job.number)
        for k, (cls, crop) in enumerate(classifier_crops(s, crng, job.back_corners)):
            path = out / "cls" / job.split / cls / f"{s.stem}_{k:02d}.jpg"
            cv2.imwrite(str(path), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return job.split, s.stem, s.label["scene_type"]


def _worker_init() -> None:
    # One OpenCV thread per worker: the processes already use every core.
    cv2.setNumThreads(1)


def plan_jobs(out: Path, n: int, seed: int, split: str | None, size: SizeSpec, with_cards: bool = False,
              crops: bool = True, val_share: float = 0.1, test_share: float = 0.05,
              decks: Iterable[str] | None = None, scene_type: str | None = None,
              back_corners: bool = False, table: TableProps = USUAL_TABLE) -> list[Job]:
    """``n`` jobs in one split, or spread over train/val/test when no split is named."""
    decks = tuple(decks) if decks is not None else None
    # The eval-only deck never yields classifier crops, so none can find its way into training.
    crops = crops and split != "eval"
    if split:
        counts = {split: n}
    else:
        n_test = int(round(n * test_share))
        n_val = int(round(n * val_share))
        counts = {"train": n - n_val - n_test, "val": n_val, "test": n_test}
    if not split and decks is not None:
        # Only some decks named: splits none of them may enter get no scenes (train takes them).
        for sp in ("val", "test"):
            try:
                split_pool(sp, decks)
            except ValueError:
                counts["train"] += counts.pop(sp)
    counts = {sp: c for sp, c in counts.items() if c}
    for sp in counts:
        split_pool(sp, decks)  # fail now, not in a worker
    return [Job(str(out), seed, sp, i, size, with_cards, crops, decks=decks, scene_type=scene_type,
                back_corners=back_corners, table=table)
            for sp, c in counts.items() for i in range(c)]


def prepare_dirs(out: Path, splits: Iterable[str], crops: bool) -> None:
    for sp in splits:
        (out / "yolo" / "images" / sp).mkdir(parents=True, exist_ok=True)
        (out / "yolo" / "labels" / sp).mkdir(parents=True, exist_ok=True)
        if crops:
            for c in CLASS_NAMES:
                (out / "cls" / sp / c).mkdir(parents=True, exist_ok=True)


def run_jobs(jobs: list[Job], workers: int = 2,
             progress: bool = True) -> tuple[list[tuple[str, str, str]], float]:
    """Run jobs on ``workers`` processes. Returns the results (in job order) and images per second."""
    if not jobs:
        return [], 0.0
    out = Path(jobs[0].out)
    prepare_dirs(out, {j.split for j in jobs}, any(j.crops for j in jobs))
    # Only the decks these scenes draw are rasterized (each scene's deck is its seed's first draw),
    # before the workers start, so they only read the cache.
    used = sorted({scene_deck(j.seed, j.split, j.number, j.deck, j.decks) for j in jobs})
    build_all(used, workers=workers, progress=progress)
    from training.synth.surfaces import _bank

    _bank()  # the texture bank too, so workers never race to make it
    bar = tqdm(total=len(jobs), desc="scenes", unit="scene", file=sys.stderr, disable=not progress)
    t0 = time.perf_counter()
    results: list[tuple[str, str, str]] = []
    if workers <= 1:
        _worker_init()
        for j in jobs:
            results.append(run_job(j))
            bar.update()
    else:
        from multiprocessing import get_context

        # Spawned, not forked: the parent has run OpenCV's and numpy's thread pools by now (deck
        # rasterizing, the texture bank), and a forked child can inherit a lock held by one of
        # their threads and wait on it for ever (seen with opencv-python 5.0: both workers asleep
        # from the first job). The workers only read the caches, so they start the same.
        with get_context("spawn").Pool(workers, initializer=_worker_init) as pool:
            for r in pool.imap(run_job, jobs, chunksize=2):
                results.append(r)
                bar.update()
    rate = len(jobs) / max(time.perf_counter() - t0, 1e-9)
    bar.close()
    return results, rate


def render_dataset(out: Path, n: int, seed: int, split: str | None = None, size: str = "640",
                   workers: int = 2, with_cards: bool = False, crops: bool = True, progress: bool = True,
                   decks: Iterable[str] | None = None, scene_type: str | None = None,
                   back_corners: bool = False, table: TableProps = USUAL_TABLE) -> tuple[list, float]:
    """Render ``n`` scenes into ``out`` (YOLO + classifier layouts) and write data.yaml."""
    jobs = plan_jobs(out, n, seed, split, SizeSpec.parse(size), with_cards, crops, decks=decks,
                     scene_type=scene_type, back_corners=back_corners, table=table)
    results, rate = run_jobs(jobs, workers, progress)
    write_data_yaml(out, with_cards)
    return results, rate


def back_corner_crops_of(scenes: Path, out: Path) -> int:
    """Write only the back-corner ``none`` crops of scenes rendered before, as a crop set of their own.

    Why: the shipped classifiers trained on scene folders rendered without ``--back-corners``;
    re-rendering them with it would change those folders. The saved photo and label hold
    everything :func:`classifier_crops` needs, and its generator is seeded per scene, so the crops
    are the very bytes a render with ``--back-corners`` would have added. Returns how many.
    """
    n = 0
    for js, lab in saved_scenes(scenes):
        sample = Sample(js.stem, b"", lab, cv2.imread(str(js.with_suffix(".jpg"))))
        rng = _crop_rng(lab["seed"], lab["split"], lab["number"])
        first, sizes = index_and_clutter_crops(sample, rng)  # as the render cut them, to go on from there
        for k, (_, crop) in enumerate(back_corner_crops(sample, sizes, rng), start=len(first)):
            dest = out / js.parent.name / NONE_CLASS / f"{js.stem}_b{k:02d}.jpg"
            dest.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(dest), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
            n += 1
    return n


def saved_scenes(scenes: Path) -> Iterator[tuple[Path, dict]]:
    """(label file, label) of every scene a render saved under ``scenes`` (``yolo/images/<split>/``,
    each photo's ``.json`` beside it), split by split and in name order."""
    for split_dir in sorted(p for p in (scenes / "yolo" / "images").iterdir() if p.is_dir()):
        for js in sorted(split_dir.glob("*.json")):
            yield js, json.loads(js.read_text())


def held_out_decks_present() -> list[str]:
    return [d for d in HELD_OUT_DECKS if d in deck_names("test")]


__all__ = ["SizeSpec", "Sample", "render_sample", "scene_deck", "render_dataset", "yolo_lines",
           "classifier_crops", "square_crop", "back_corner_boxes", "back_corner_crops_of", "saved_scenes",
           "write_data_yaml", "CLASS_NAMES", "SCENE_TYPES", "SPLITS"]
