"""Close-up detector scenes cut from sharp phone-size renders: indices as big as a photo taken close makes them.

Why: the detector trained on 640 px scenes, where a corner index comes out 10-55 px on its
long side at the 480 px it trains at (median 20; docs/experiments, "Big indices"). A phone
held close over a show makes indices of 40-80 px at the 608 px the detector sees a phone photo
at, and there its boxes slip: on the tuning renders a card whose best index is 15-30 px at the
detector's scale is missed 2.3-2.9% of the time, 30-50 px 5-6%, 50 px and more 12-16%, a third of
those missed for want of a box that fits the index (IoU 0.5). Rendering close-ups would need a new camera in the
scene engine; cutting them from the phone-size renders (1000-2600 px, sharp at any cut) gives
the same pixels a close photo would, with the labels the engine already wrote.

Each cut is a window of the render's shape around one of its indices (moved off it at random),
sized so that the render's median index comes out ``lo``-``hi`` px at ``train_size``, scaled to
``size`` px on its long side. An index cut by the window's edge keeps its label when 30% of its
box or more is inside (the renders' own rule for an index under another card,
:data:`training.synth.export.MIN_LABEL_VISIBLE`), its box clipped to the window.

    python -m training.data.close_ups data/hires/yolo --out data/closeups --per-scene 2 --seed 5
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

from training.data import yolo
from training.synth.export import MIN_LABEL_VISIBLE
from vision.detections import long_sides

INDEX_CLASS = 0


def read_boxes(label: Path, width: int, height: int) -> np.ndarray:
    """The index boxes of one YOLO label file, (N, 4) xyxy in pixels (other classes left out)."""
    return yolo.read_boxes(label, width, height, cls=INDEX_CLASS)[1]


def zoom_window(boxes: np.ndarray, width: int, height: int, index_px: float, train_size: int,
                rng: random.Random) -> tuple[float, float, float, float] | None:
    """A window (x0, y0, x1, y1) of the render's shape in which its median index comes out
    ``index_px`` on its long side once the window is seen at ``train_size``; ``None`` where that
    window would be (nearly) the whole render: the indices are that big already."""
    if not len(boxes):
        return None
    median = float(np.median(long_sides(boxes)))
    long_side = median * train_size / index_px
    if long_side >= 0.9 * max(width, height):
        return None
    w, h = (long_side, long_side * height / width) if width >= height else (long_side * width / height, long_side)
    x0, y0, x1, y1 = boxes[rng.randrange(len(boxes))]
    cx = (x0 + x1) / 2 + rng.uniform(-0.3, 0.3) * w
    cy = (y0 + y1) / 2 + rng.uniform(-0.3, 0.3) * h
    left = min(max(0.0, cx - w / 2), width - w)
    top = min(max(0.0, cy - h / 2), height - h)
    return left, top, left + w, top + h


def labels_in_window(boxes: np.ndarray, window: tuple[float, float, float, float],
                     min_inside: float = MIN_LABEL_VISIBLE) -> np.ndarray:
    """YOLO rows (N, 4: cx, cy, w, h as fractions of the window) of the boxes with ``min_inside``
    of their area or more inside the window, each clipped to it."""
    x0, y0, x1, y1 = window
    inner = np.column_stack([np.maximum(boxes[:, 0], x0), np.maximum(boxes[:, 1], y0),
                             np.minimum(boxes[:, 2], x1), np.minimum(boxes[:, 3], y1)]).reshape(-1, 4)
    iw, ih = np.clip(inner[:, 2] - inner[:, 0], 0, None), np.clip(inner[:, 3] - inner[:, 1], 0, None)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    keep = (iw * ih >= min_inside * area) & (iw > 0) & (ih > 0)
    b = inner[keep]
    w, h = x1 - x0, y1 - y0
    return np.column_stack([((b[:, 0] + b[:, 2]) / 2 - x0) / w, ((b[:, 1] + b[:, 3]) / 2 - y0) / h,
                            (b[:, 2] - b[:, 0]) / w, (b[:, 3] - b[:, 1]) / h])


def close_ups(src: Path, out: Path, per_scene: int, seed: int, lo: float = 35.0, hi: float = 80.0,
              size: int = 640, train_size: int = 480) -> dict[str, int]:
    """Cut ``per_scene`` close-ups from every render of ``src`` (a YOLO scene set: ``images/{train,val}``
    with ``labels/`` beside) into the same layout under ``out``; returns the cuts written per split.
    Seeded: the same arguments write the same files."""
    rng = random.Random(seed)
    written: dict[str, int] = {}
    for split in ("train", "val"):
        images = sorted((src / "images" / split).glob("*.jpg"))
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
        n = 0
        for path in images:
            img = cv2.imread(str(path))
            if img is None:
                raise ValueError(f"{path}: not an image")
            height, width = img.shape[:2]
            boxes = read_boxes(src / "labels" / split / f"{path.stem}.txt", width, height)
            for k in range(per_scene):
                window = zoom_window(boxes, width, height, rng.uniform(lo, hi), train_size, rng)
                if window is None:
                    continue
                x0, y0, x1, y1 = (int(round(v)) for v in window)
                cut = img[y0:y1, x0:x1]
                scale = size / max(cut.shape[:2])
                cut = cv2.resize(cut, (round(cut.shape[1] * scale), round(cut.shape[0] * scale)), interpolation=cv2.INTER_AREA)
                name = f"{path.stem}-close{k}"
                cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), cut, [cv2.IMWRITE_JPEG_QUALITY, 90])
                rows = labels_in_window(boxes, (x0, y0, x1, y1))
                yolo.write_rows(out / "labels" / split / f"{name}.txt",
                                (yolo.fraction_row(INDEX_CLASS, xywh) for xywh in rows))
                n += 1
        written[split] = n
    (out / "data.yaml").write_text(f"# Written by python -m training.data.close_ups from {src}\npath: {out.resolve()}\n"
                                   "train: images/train\nval: images/val\nnames:\n  0: index\n")
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.data.close_ups", description=__doc__.splitlines()[0])
    p.add_argument("src", type=Path, help="a YOLO scene set of sharp renders (e.g. data/hires/yolo)")
    p.add_argument("--out", required=True, type=Path)
    p.add_argument("--per-scene", type=int, default=3, help="cuts per render")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--index-px", default="35:80", help="LO:HI, the median index's long side at 480 px")
    a = p.parse_args(argv)
    try:
        lo, hi = (float(v) for v in a.index_px.split(":"))
        if not 0 < lo <= hi:
            raise ValueError
    except ValueError:
        print(f"error: --index-px {a.index_px!r}: expected LO:HI, e.g. 35:80", file=sys.stderr)
        return 2
    if not (a.src / "images" / "train").is_dir():
        print(f"error: {a.src}: no images/train (a YOLO scene set, e.g. data/hires/yolo)", file=sys.stderr)
        return 2
    try:
        written = close_ups(a.src, a.out, a.per_scene, a.seed, lo, hi)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{a.out}: " + ", ".join(f"{k} {v}" for k, v in written.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
