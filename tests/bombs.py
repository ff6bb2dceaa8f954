"""Hostile photo files, generated small: each row of issue 70's table as bytes, with what it must get.

Each is a few bytes to a few MB in memory (nothing written to disk): a header claiming a huge image
over a tiny body, or a valid small photo padded the way the probes padded theirs. ``HOSTILE`` maps a
name to (bytes, HTTP status, a regex the reason must match); the API, CLI and decoder tests and
``benchmarks/hostile.py`` all use it.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from support import FakeRecognizer


def small_jpeg(w: int = 48, h: int = 32, *, progressive: bool = False) -> bytes:
    """A small colour JPEG (a red block on blue)."""
    img = np.full((h, w, 3), (200, 60, 20), np.uint8)
    img[: h // 2, : w // 2] = (20, 20, 220)
    params = [cv2.IMWRITE_JPEG_QUALITY, 90] + ([cv2.IMWRITE_JPEG_PROGRESSIVE, 1] if progressive else [])
    return cv2.imencode(".jpg", img, params)[1].tobytes()


def small_png(w: int = 48, h: int = 32) -> bytes:
    img = np.full((h, w, 3), (200, 60, 20), np.uint8)
    return cv2.imencode(".png", img)[1].tobytes()


def webp_claiming(w: int, h: int) -> bytes:
    """A lossless WebP whose header says ``w`` x ``h`` (the pixels of a 1x1 one follow)."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (1, 1), (10, 200, 30)).save(out, "WEBP", lossless=True)
    data = bytearray(out.getvalue())
    assert data[12:16] == b"VP8L" and data[20] == 0x2F
    bits = struct.unpack("<I", data[21:25])[0] & ~((1 << 28) - 1)  # keep alpha and version bits
    data[21:25] = struct.pack("<I", bits | (w - 1) | ((h - 1) << 14))
    return bytes(data)


def gif_claiming(w: int, h: int) -> bytes:
    """A GIF header (logical screen ``w`` x ``h``) and one 1x1 frame."""
    return (b"GIF89a" + struct.pack("<HHBBB", w, h, 0x80, 0, 0) + b"\0\0\0\xff\xff\xff"
            + b"," + struct.pack("<HHHHB", 0, 0, w, h, 0) + b"\x02\x02\x44\x01\x00;")


def rle_bmp_claiming(w: int, h: int) -> bytes:
    """An 8-bit RLE BMP of ``w`` x ``h`` with an end-of-bitmap right away."""
    palette = b"\0\0\0\0" * 256
    pixels = b"\x00\x01"
    offset = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 8, 1, len(pixels), 2835, 2835, 256, 0)
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette + pixels


def tiff_claiming(w: int, h: int) -> bytes:
    """A little-endian TIFF header whose first IFD says ``w`` x ``h``, 8-bit RGB."""
    entries = [(256, 4, 1, w), (257, 4, 1, h), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 2),
               (273, 4, 1, 8), (277, 3, 1, 3), (278, 4, 1, h), (279, 4, 1, 1)]
    ifd = struct.pack("<H", len(entries)) + b"".join(struct.pack("<HHII", *e) for e in entries) + b"\0\0\0\0"
    return b"II*\x00" + struct.pack("<I", 8) + ifd


def jpeg_claiming(w: int, h: int, *, fill_bytes: int = 0) -> bytes:
    """A small JPEG whose frame header says ``w`` x ``h``, with ``fill_bytes`` legal 0xFF fill bytes
    before that marker (which a hand-written header scan missed)."""
    data = small_jpeg(16, 16)
    sof = data.index(b"\xff\xc0")
    patched = data[: sof + 5] + struct.pack(">HH", h, w) + data[sof + 9:]
    return patched[:sof] + b"\xff" * fill_bytes + patched[sof:]


def jpeg_with_scans(n: int) -> bytes:
    """A progressive JPEG with ``n`` empty scans (its last scan's header, repeated) before its end."""
    data = small_jpeg(64, 64, progressive=True)
    sos = data.rindex(b"\xff\xda")
    header = data[sos: sos + 2 + int.from_bytes(data[sos + 2: sos + 4], "big")]
    return data[:-2] + header * n + data[-2:]


def jpeg_with_segments(n: int) -> bytes:
    """A small JPEG padded with ``n`` empty comment segments after its start (4 bytes each)."""
    data = small_jpeg()
    return data[:2] + b"\xff\xfe\x00\x02" * n + data[2:]


def png_with_chunks(n: int) -> bytes:
    """A small PNG with ``n`` empty private chunks before its pixels (12 bytes each)."""
    import zlib

    data = small_png()
    chunk = struct.pack(">I", 0) + b"prVt" + struct.pack(">I", zlib.crc32(b"prVt"))
    return data[:33] + chunk * n + data[33:]


REFUSED_FORMAT = r"is a (GIF|BMP|TIFF) image; send the photo as JPEG, PNG, WebP, HEIC or AVIF"
HOSTILE: dict[str, tuple[Callable[[], bytes], int, str]] = {
    "webp-16383x16383": (lambda: webp_claiming(16383, 16383), 422, "over 50 megapixels"),
    "gif-30000x30000": (lambda: gif_claiming(30000, 30000), 415, REFUSED_FORMAT),
    "rle-bmp-20000x20000": (lambda: rle_bmp_claiming(20000, 20000), 415, REFUSED_FORMAT),
    "tiff-30000x30000": (lambda: tiff_claiming(30000, 30000), 415, REFUSED_FORMAT),
    "jpeg-30000x30000-fill-byte": (lambda: jpeg_claiming(30000, 30000, fill_bytes=1), 422,
                                   "over 50 megapixels"),
    "jpeg-40000-scans": (lambda: jpeg_with_scans(40_000), 422, "over 256 scans"),
    "jpeg-4.7M-segments": (lambda: jpeg_with_segments(4_700_000), 422, "over 4096 header segments"),
    "png-1M-chunks": (lambda: png_with_chunks(1_000_000), 422, "over 4096 header segments"),
}
"""name -> (make the bytes, the service's status, the reason's pattern)."""


# -- recognizers that misbehave inside a photo worker (pickled to it: module-level classes) -------

@dataclass
class SlowRecognizer(FakeRecognizer):
    """Takes ``delay_s`` over every photo: a decode or model run that hangs."""

    delay_s: float = 30.0

    def recognize_photo(self, photo, expected=None):
        import time

        time.sleep(self.delay_s)
        return super().recognize_photo(photo, expected)


@dataclass
class GreedyRecognizer(FakeRecognizer):
    """Touches ``megabytes`` of memory over every photo: a decoder that runs away with it."""

    megabytes: int = 4000

    def recognize_photo(self, photo, expected=None):
        import numpy

        hoard = numpy.ones(self.megabytes * 1024 * 1024, numpy.uint8)
        return super().recognize_photo(photo, expected) if hoard[-1] else None
