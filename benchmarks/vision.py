"""Latency of the shipped recognizer: a 12-megapixel JPEG file -> detections, decode included.

    python -m benchmarks.vision [--photo PHOTO.jpg] [--runs 30]

Without ``--photo`` it times every photo in ``sample_images/``, each made a 4000x3000 JPEG
(upscaled, with sensor-like noise so it compresses like a phone photo, ~2-4 MB): one photo
flatters, since the time grows with the indices the first classifier is unsure of (those
the others read too, and it reads turned). Prints median and p90 milliseconds per photo and
over all, and the CPU time a photo takes (every thread's: onnxruntime uses every core); never
asserts (machines are shared and noisy).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from benchmarks.figures import percentile
from vision.config import MODELS_DIR, RecognizerConfig
from vision.decode import LOCAL, ImageError, decode_photo
from vision.detections import Detections
from vision.pipeline import Recognizer, always_looking_again

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"


def make_12mp_jpeg(source: Path, out: Path, seed: int = 0) -> Path:
    """Cut ``source`` to 4:3 (or 3:4) about its centre, upscale it to 4000x3000 (3000x4000) and add
    noise so it encodes like a phone photo. Cut, not stretched: a phone does not squash its cards."""
    img = cv2.imread(str(source))
    if img is None:
        raise ValueError(f"{source} is not an image")
    h, w = img.shape[:2]
    size = (4000, 3000) if w >= h else (3000, 4000)
    if w * size[1] > h * size[0]:  # too wide for the target shape: cut the sides
        cw = h * size[0] // size[1]
        img = img[:, (w - cw) // 2:(w - cw) // 2 + cw]
    else:  # too tall: cut top and bottom
        ch = w * size[1] // size[0]
        img = img[(h - ch) // 2:(h - ch) // 2 + ch]
    big = cv2.resize(img, size, interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(seed).normal(0, 4, big.shape)
    big = np.clip(big + noise, 0, 255).astype(np.uint8)
    cv2.imwrite(str(out), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


def looks_taken(recognizer: Recognizer, data: bytes) -> int:
    """1 where the recognizer reads the photo ``data`` with its main look alone, else 1 + its second looks
    and its reads decoded finer (:meth:`Recognizer.read_finer`): each about doubles the time."""
    photo, looks = decode_photo(data, min_long_side=recognizer.config.min_long_side), 0
    while True:
        image, looks = recognizer.balanced(photo.image), looks + 1
        indices, probs, cards = recognizer.main_look(image, photo.scale)
        if photo.finer is None or not recognizer.read_finer(image, indices, probs, cards, photo.scale):
            return looks + len(recognizer.second_looks_for(image, cards, photo.scale))
        photo = photo.finer()



def time_photo(recognizer: Recognizer, data: bytes,
               runs: int) -> tuple[list[float], list[float], Detections, tuple]:
    """Milliseconds of ``runs`` recognitions of the encoded photo ``data`` (after a warm-up run), wall and
    CPU (every thread's: what a photo costs a server's cores), the last detections, and the photo's size."""
    times, cpu, _ = [], [], recognizer.recognize(data)
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        dets = recognizer.recognize(data)
        times.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return times, cpu, dets, decode_photo(data, limits=LOCAL).original_size


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.vision", description=__doc__.splitlines()[0])
    p.add_argument("--photo", type=Path, help="a 12 MP JPEG (default: made from sample_images/)")
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--models", type=Path, default=MODELS_DIR)
    p.add_argument("--always-look-again", action="store_true",
                   help="second looks at every photo, not only where the main look leaves doubt")
    a = p.parse_args(argv)
    if a.photo and not a.photo.is_file():
        p.error(f"no photo at {a.photo}")
    config = always_looking_again(RecognizerConfig()) if a.always_look_again else RecognizerConfig()
    recognizer = Recognizer(a.models, config)
    with tempfile.TemporaryDirectory() as tmp:
        photos = [a.photo] if a.photo else [make_12mp_jpeg(f, Path(tmp) / f"12mp-{f.stem}.jpg")
                                            for f in sorted(SAMPLES.glob("*.jpg"))]
        if not photos:
            p.error("no --photo and no sample_images/*.jpg")
        every, every_cpu, again = [], [], 0
        for photo in photos:
            data = photo.read_bytes()
            try:
                times, cpu, dets, size = time_photo(recognizer, data, a.runs)
            except ImageError as e:
                p.error(f"{photo}: {e}")
            every, every_cpu = every + times, every_cpu + cpu
            looks = looks_taken(recognizer, data)
            again += looks > 1
            cards = " ".join(str(c) for c in dets.card_list) or "-"
            print(f"{photo.name} ~{size[0]}x{size[1]}, {photo.stat().st_size / 1e6:.1f} MB; "
                  f"cards read: {cards}; "
                  f"{'looked again' if looks > 1 else 'one look'}; {timings(times)}, "
                  f"CPU {statistics.median(cpu):.0f} ms")
    print(f"12 MP JPEG -> detections over {len(every)} runs ({len(photos)} photo{'s' * (len(photos) > 1)}, "
          f"{again} looked at again): {timings(every)}; "
          f"CPU per photo median {statistics.median(every_cpu):.0f} ms")
    return 0


def timings(ms: list[float]) -> str:
    """The median and p90 of ``ms``, as the benchmark prints them."""
    return f"median {statistics.median(ms):.0f} ms, p90 {percentile(ms, 0.9):.0f} ms"


if __name__ == "__main__":
    raise SystemExit(main())
