"""Copy training data rendered before the mirror fix, with the synthetic images mirrored back.

Until the fix in ``vision/synth/scene.py`` (``make_camera``), every render showed its cards
mirrored; the fixed engine renders the same scenes mirrored left to right. So data rendered
before it is put right by mirroring its synthetic images left to right (and, for detector
scenes, their boxes), while real photos and crops, which were never mirrored, are linked as
they are. This is how the release after the fix fine-tuned its models without rendering
everything again (models/HISTORY.md, "Mirrored renders"); data rendered by the fixed engine
needs none of it.

    python scripts/unmirror_data.py classify SRC DST --real real real2 mid
    python scripts/unmirror_data.py detect LIST.txt DST --real realdet

``classify``: SRC is a folder of ``train|val/<class>/<file>``; a file whose name starts with
one of the ``--real`` prefixes (then ``_``) is linked, every other one mirrored. ``detect``:
LIST.txt names one image per line (an Ultralytics list file; labels beside in ``labels/``);
an image whose path contains one of the ``--real`` words is linked, every other one mirrored
with its boxes (x -> 1 - x). DST gets the same layout and, for ``detect``, ``train.txt``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import cv2

from vision.det_data import label_of


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not dst.exists():
        os.link(src, dst)


def _mirror_image(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    img = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise SystemExit(f"cannot read {src}")
    cv2.imwrite(str(dst), cv2.flip(img, 1), [cv2.IMWRITE_JPEG_QUALITY, 95])


def classify(src: Path, dst: Path, real: list[str]) -> tuple[int, int]:
    mirrored = linked = 0
    for f in sorted(src.glob("*/*/*")):
        out = dst / f.relative_to(src)
        if any(f.name.startswith(p + "_") for p in real):
            _link(f, out)
            linked += 1
        else:
            _mirror_image(f, out)
            mirrored += 1
    return mirrored, linked


def detect(listing: Path, dst: Path, real: list[str]) -> tuple[int, int]:
    mirrored = linked = 0
    lines = []
    for n, line in enumerate(listing.read_text().split()):
        img = Path(line)
        is_real = any(w in str(img) for w in real)
        out = dst / "images" / f"{n:06d}_{img.name}"
        lab_out = dst / "labels" / out.with_suffix(".txt").name
        lab = label_of(img)
        rows = [r.split() for r in lab.read_text().splitlines() if r.strip()] if lab.exists() else []
        if is_real:
            _link(img, out)
            linked += 1
        else:
            _mirror_image(img, out)
            for r in rows:  # class cx cy w h: only the centre's x moves
                r[1] = f"{1 - float(r[1]):.6f}"
            mirrored += 1
        lab_out.parent.mkdir(parents=True, exist_ok=True)
        lab_out.write_text("\n".join(" ".join(r) for r in rows) + "\n")
        lines.append(str(out.resolve()))
    (dst / "train.txt").write_text("\n".join(lines) + "\n")
    return mirrored, linked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["classify", "detect"])
    ap.add_argument("src", type=Path)
    ap.add_argument("dst", type=Path)
    ap.add_argument("--real", nargs="+", default=[], help="what marks real (never mirrored) data")
    a = ap.parse_args()
    mirrored, linked = (classify if a.kind == "classify" else detect)(a.src, a.dst, a.real)
    print(f"{a.dst}: {mirrored} mirrored, {linked} real linked")


if __name__ == "__main__":
    main()
