"""Random and mutated images thrown at the decoder: a photo or an ImageError, never anything else.

Small valid photos of every accepted format (and a progressive JPEG) are cut, overwritten, padded
and spliced by hypothesis; random bytes behind each format's magic reach each header parser. What
comes back is either a colour photo of a sane size or :class:`ImageError` with a reason: no other
exception, no hang (each example is bounded generously; the precise times are benchmarks/hostile.py's).
"""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import as_heic

from vision.decode import ImageError, Photo, decode_photo, screen_photo


def _photo() -> np.ndarray:
    rng = np.random.default_rng(3)
    img = rng.integers(0, 255, (40, 56, 3), dtype=np.uint8)
    img[:20, :28] = (20, 20, 220)
    return img


def _encoded() -> dict[str, bytes]:
    img = _photo()
    out = {ext: cv2.imencode(ext, img)[1].tobytes() for ext in (".jpg", ".png", ".webp")}
    out["progressive"] = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes()
    out["heic"] = as_heic(img, orientation=6)
    return out


VALID = _encoded()
MAGIC = [b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x10\x00\x00WEBPVP8 ", b"\x00\x00\x00\x18ftypheic",
         b"\x00\x00\x00\x1cftypavif", b"GIF89a", b"BM", b"II*\x00"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(VALID[draw(st.sampled_from(sorted(VALID)))])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "splice", "fill"]))
        pos = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip":
            data[pos] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[pos:pos + draw(st.integers(1, 400))]
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=64))
        elif kind == "splice":  # a stretch of the file repeated: segments, chunks, scans twice over
            n = draw(st.integers(1, 200))
            data[pos:pos] = bytes(data[pos:pos + n]) * draw(st.integers(1, 30))
        else:
            data[pos:pos] = b"\xff" * draw(st.integers(1, 32))
    return bytes(data)


random_behind_magic = st.builds(lambda m, tail: m + tail, st.sampled_from(MAGIC), st.binary(max_size=512))


def check(data: bytes) -> None:
    """Either outcome with a reason; how long it takes is the hostile benchmarks' figure
    (``python -m benchmarks.hostile``), not an assertion here."""
    try:
        screen_photo(data)  # the service's quick look: the same two outcomes
    except ImageError as exc:
        assert str(exc)
    try:
        photo = decode_photo(data)
    except ImageError as exc:
        assert str(exc)  # a reason, always
    else:
        assert isinstance(photo, Photo)
        assert photo.image.dtype == np.uint8 and photo.image.ndim == 3 and photo.image.shape[2] == 3
        assert min(photo.original_size) >= 1


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_photo_decodes_or_gets_a_reason(data):
    check(data)


@settings(max_examples=150, deadline=None)
@given(st.one_of(random_behind_magic, st.binary(max_size=256)))
def test_random_bytes_get_a_reason(data):
    check(data)


def test_the_valid_photos_decode():
    for name, data in VALID.items():
        assert decode_photo(data).image.shape[2] == 3, name
