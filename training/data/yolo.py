"""The YOLO label format, read and written in one place: one ``class cx cy w h`` line per box.

Ultralytics' detect sets keep each image's boxes in a text file under ``labels/``, beside the image
under ``images/``: a line per box, its class id, then its centre, width and height as fractions of
the image. The renders (:mod:`training.synth.export`), the real scenes, the close-ups, the detector
mixes and packs and the real crops' whole-card labels all speak it, so its details (clipping, six
decimals, a missing file as no boxes) live here once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

DECIMALS = 6
"""Fractions written to six places: a millionth of a 4000 px photo is well under a pixel."""


def box_row(cls: int, box: Sequence[float], width: int, height: int) -> str | None:
    """The line for a pixel box ``(x0, y0, x1, y1)``, clipped to the image; ``None`` when what is
    left is under a pixel (a box off the image is no box)."""
    x0, y0 = max(0.0, float(box[0])), max(0.0, float(box[1]))
    x1, y1 = min(float(width), float(box[2])), min(float(height), float(box[3]))
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return fraction_row(cls, ((x0 + x1) / 2 / width, (y0 + y1) / 2 / height, (x1 - x0) / width,
                              (y1 - y0) / height))


def fraction_row(cls: int, xywh: Sequence[float]) -> str:
    """The line for a box already in fractions of the image: centre x, centre y, width, height."""
    return f"{cls} " + " ".join(f"{float(v):.{DECIMALS}f}" for v in xywh)


def write_rows(label: Path, rows: Iterable[str | None]) -> None:
    """One label file, a line per row (rows that are ``None`` left out); an image with no box gets
    an empty file, which Ultralytics reads as a background image."""
    label.parent.mkdir(parents=True, exist_ok=True)
    label.write_text("".join(f"{row}\n" for row in rows if row))


def read_rows(label: Path) -> list[tuple[int, np.ndarray]]:
    """Each box of a label file as ``(class, xywh fractions)``; a missing file is an image with no
    box (as Ultralytics reads it), and a line that is not five numbers is skipped."""
    if not label.is_file():
        return []
    rows = []
    for line in label.read_text().splitlines():
        parts = line.split()
        if len(parts) == 5:
            rows.append((int(parts[0]), np.array([float(v) for v in parts[1:]], np.float64)))
    return rows


def read_boxes(label: Path, width: int, height: int, cls: int | None = None) -> tuple[list[int], np.ndarray]:
    """The classes and the pixel boxes, (N, 4) xyxy, of a label file for an image of this size;
    with ``cls``, that class's boxes only."""
    rows = [(c, xywh) for c, xywh in read_rows(label) if cls is None or c == cls]
    xywh = np.array([r[1] for r in rows], np.float64).reshape(-1, 4) * [width, height, width, height]
    cx, cy, w, h = xywh.T
    return [c for c, _ in rows], np.column_stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])


def label_of(image: Path) -> Path:
    """Where Ultralytics looks for an image's labels: ``.../labels/...`` beside ``.../images/...``."""
    parts = list(image.parts)
    if "images" not in parts:
        raise ValueError(f"{image}: not under an images/ folder, so its labels cannot be found")
    at = len(parts) - 1 - parts[::-1].index("images")
    return Path(*parts[:at], "labels", *parts[at + 1:]).with_suffix(".txt")
