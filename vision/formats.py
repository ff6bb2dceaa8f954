"""What a photo file is, how big, and which way up: read from its header before any pixel is decoded.

The format is sniffed from the bytes (a file name or a Content-Type says nothing a stranger cannot
fake), and only the formats a phone or a person sends are accepted: JPEG, PNG, WebP, HEIC/HEIF and
AVIF. Size and EXIF orientation come from Pillow's lazy open (``Image.open`` parses the header and
stops before the pixels; pillow-heif's opener does the same for HEIC), so every accepted format has
its true dimensions checked against the limit first. Why: a 10 KB WebP or a 64 KB TIFF can hold a
30000x30000 image, and decoding one whole took 4-47 s and 2-7 GB (issue 70).

Pillow's JPEG and PNG header parsers are Python loops, one step per segment (or per junk byte) and per
chunk: a file padded with millions of empty segments kept one busy for 15 s. So before Pillow looks,
:func:`check_structure` counts those steps, stopping at a cap, and counts a JPEG's scans (libjpeg
decodes each scan of a progressive JPEG over the whole image: 40,000 empty ones took 63 s). It only
counts; the size and orientation are Pillow's.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
from dataclasses import dataclass

import numpy as np

ACCEPTED = "JPEG, PNG, WebP, HEIC or AVIF"

MAX_HEADER_STEPS = 4096
"""Segments (JPEG) or chunks (PNG) before the pixels, and junk bytes between them. A phone writes a
few dozen; a 100 MB file of 64 KB application segments (the largest one's own photo) about 1,600;
Pillow takes 2-5 microseconds a step, so the cap costs it at most ~20 ms."""
MAX_JPEG_SCANS = 256
"""Start-of-scan markers in a JPEG, its thumbnails included: a progressive JPEG has about 10, and
libjpeg decodes each one over the whole image."""

_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"heim", b"heis", b"mif1", b"msf1", b"avif", b"avis"}
"""ISO media brands of HEIF/AVIF stills."""
_REFUSED = {b"GIF8": "GIF", b"BM": "BMP", b"II*\x00": "TIFF", b"MM\x00*": "TIFF", b"8BPS": "Photoshop",
            b"\x00\x00\x01\x00": "ICO", b"%PDF": "PDF", b"\xff\x4f\xff\x51": "JPEG 2000"}
"""Formats people send by mistake, named in the refusal (their decoders are not on the guarded path)."""
_PILLOW_FORMATS = {"JPEG": ("JPEG",), "PNG": ("PNG",), "WEBP": ("WEBP",), "HEIF": ("HEIF", "AVIF")}


class FormatError(ValueError):
    """The bytes are not an accepted photo format, or are built to make its parser work hard."""


class UnsupportedFormat(FormatError):
    """A real image format, but not one accepted (HTTP 415)."""


@dataclass(frozen=True)
class Header:
    """What a photo's header says, before its pixels are decoded."""

    format: str
    """'JPEG', 'PNG', 'WEBP' or 'HEIF' (HEIC, HEIF and AVIF: one container)."""
    size: tuple[int, int]
    """(width, height) as stored, before the EXIF orientation is applied."""
    orientation: int
    """EXIF orientation, 1 (upright) to 8; 1 when absent."""


def sniff(data: bytes) -> str:
    """The accepted format of ``data`` from its first bytes; raises :class:`FormatError` otherwise.

    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n" + bytes(8))
    'PNG'
    """
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        return "HEIF"
    for magic, name in _REFUSED.items():
        if data.startswith(magic):
            raise UnsupportedFormat(f"the file is a {name} image; send the photo as {ACCEPTED}")
    raise FormatError(f"the file is not an image this reader knows ({ACCEPTED})")


# One or more 0xFF (fill bytes are legal before a marker) and the marker code; junk before it is
# skipped by the regex engine, in C, as libjpeg skips it.
_JPEG_MARKER = re.compile(rb"\xff+([^\xff])")
_STANDALONE = {0x00, 0x01, *range(0xD0, 0xD9)}  # stuffing, TEM, RSTn, SOI: no length field


def check_structure(data: bytes, fmt: str) -> None:
    """Refuse, cheaply, a JPEG or PNG whose header would keep Pillow's parser (a Python loop) or
    libjpeg busy far longer than any photo: over :data:`MAX_HEADER_STEPS` segments, chunks or junk
    bytes before the pixels, or over :data:`MAX_JPEG_SCANS` scans. Counts only, stopping at the caps."""
    if fmt == "JPEG":
        if _jpeg_scans(data) > MAX_JPEG_SCANS:
            raise FormatError(f"the JPEG has over {MAX_JPEG_SCANS} scans (a photo has about 10)")
        steps = _jpeg_header_steps(data)
    elif fmt == "PNG":
        steps = _png_header_steps(data)
    else:
        return  # WebP and HEIF headers are parsed in C (libwebp's demuxer, libheif), with limits of their own
    if steps > MAX_HEADER_STEPS:
        raise FormatError(f"the {fmt} has over {MAX_HEADER_STEPS} header segments or junk bytes before "
                          f"its pixels (a photo has a few dozen)")


def _jpeg_scans(data: bytes) -> int:
    """Start-of-scan markers (0xFF 0xDA): 1.5 ms in a 3 MB photo, where ``bytes.count`` takes 4."""
    a = np.frombuffer(data, np.uint8)
    return int(np.count_nonzero(a[np.flatnonzero(a[1:] == 0xDA)] == 0xFF))


def _jpeg_header_steps(data: bytes) -> int:
    return _walk_jpeg_header(data)[0]


def _walk_jpeg_header(data: bytes) -> tuple[int, int]:
    """(steps, where the first scan starts or -1): the segments before the pixels walked by their
    lengths, so an EXIF thumbnail's own markers inside its segment are stepped over."""
    pos, steps = 2, 0
    while steps <= MAX_HEADER_STEPS:
        m = _JPEG_MARKER.search(data, pos)
        if m is None:
            return steps, -1
        steps += 1 + (m.start() - pos) + (m.end() - m.start() - 2)  # the segment, junk, extra fill
        marker = m.group(1)[0]
        if marker == 0xDA:  # start of scan: Pillow's header parser stops here
            return steps, m.start()
        pos = m.end() if marker in _STANDALONE else m.end() + int.from_bytes(data[m.end():m.end() + 2], "big")
    return steps, -1


def jpeg_has_end(data: bytes) -> bool:
    """Whether the JPEG's image ends: an end-of-image marker after its first scan. Inside the
    compressed data 0xFF is always followed by 0 or a restart marker, so the first 0xFF 0xD9 there
    is the image's end, wherever it lies: phones append depth maps, second images or padding after
    it (300 KB of zeros was refused when the marker was looked for near the file's end only)."""
    scan = _walk_jpeg_header(data)[1]
    return scan >= 0 and data.find(b"\xff\xd9", scan) >= 0


def _png_header_steps(data: bytes) -> int:
    pos, steps = 8, 0
    while steps <= MAX_HEADER_STEPS and pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        steps += 1
        if kind == b"IDAT":
            return steps
        pos += 12 + length
    return steps


def read_header(data: bytes) -> Header:
    """Format, stored size and EXIF orientation of a photo, from Pillow's lazy open (no pixel decoded).

    Raises :class:`FormatError` for a format not accepted, a header built to stall the parser, or
    a header Pillow cannot read; ``DecompressionBombError`` never escapes (see :data:`TOO_BIG`).
    """
    fmt = sniff(data)
    check_structure(data, fmt)
    try:
        Image = _pillow(fmt)
    except ImportError:  # the runtime's dependencies hold both; an install without them says so
        raise FormatError("this install has no decoder for the photo's format (pip install pillow "
                          "pillow-heif), or send it as JPEG") from None
    _quiet_exif_warnings()  # the lazy open reads a JPEG's EXIF already
    try:
        with Image.open(io.BytesIO(data), formats=_PILLOW_FORMATS[fmt]) as image:
            size = image.size
            orientation = orientation_of(image) if fmt != "HEIF" else 1  # pillow-heif turns HEIC itself
    except Image.DecompressionBombError:
        # Pillow refuses, from the header, images over twice its MAX_IMAGE_PIXELS (179 MP by default)
        # before allocating anything; any limit of ours is below that.
        raise FormatError(TOO_BIG) from None
    except Exception:  # Pillow raises SyntaxError, OSError, struct.error, ValueError,
        # EOFError... from a damaged header, by plugin; for the sender it is one thing
        raise FormatError(f"the {_NAMES[fmt]} photo cannot be decoded (damaged or cut short); "
                          f"send it again, or as JPEG") from None
    return Header(fmt, size, orientation)


TOO_BIG = "the image is over 179 megapixels"
_NAMES = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC/HEIF or AVIF"}


def orientation_of(image: object) -> int:
    """The EXIF orientation of a Pillow image, 1 (upright) when absent, out of range or unreadable."""
    _quiet_exif_warnings()
    try:
        value = int(_exif(image).get(0x0112, 1) or 1)
    except Exception:  # a damaged EXIF block: the photo is still a photo
        return 1
    return value if 1 <= value <= 8 else 1


def _exif(image: object):
    """A Pillow image's EXIF, from its header. A PNG's ``getexif`` decodes every pixel to look for an
    eXIf chunk after them (272 ms at 49 MP, then OpenCV decoded it again); the PNG standard puts eXIf
    before the pixels, where the lazy open has read it already."""
    from PIL import Image

    if getattr(image, "format", None) != "PNG":
        return image.getexif()  # type: ignore[attr-defined]
    exif = Image.Exif()
    raw = image.info.get("exif")  # type: ignore[attr-defined]
    if raw:
        exif.load(raw)
    return exif


def _quiet_exif_warnings() -> None:
    """Pillow warns once per damaged EXIF tag: a JPEG of 5,000 such tags printed 10,000 lines to the
    log. The orientation is read or taken as upright either way, so they say nothing to act on. Put
    first on every call (a filter added again only moves), so a caller's ``catch_warnings`` keeps it."""
    warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.TiffImagePlugin")


def _pillow(fmt: str):
    """Pillow's Image module, with pillow-heif's opener registered for HEIC."""
    from PIL import Image

    if fmt == "HEIF":
        import pillow_heif

        pillow_heif.register_heif_opener()
    # Our own pixel limit is checked from the size Pillow reads; its warning between 89 and 179 MP
    # would only repeat it (an error above that is caught in read_header).
    warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
    return Image
