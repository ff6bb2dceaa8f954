"""Decode: a photo file, its bytes or an array in memory -> upright BGR pixels, guarded.

EXIF orientation, reduced-scale JPEG decode, HEIC, size limits.
The header is read first (:mod:`vision.formats`: the format sniffed from the bytes, the size and
EXIF orientation from Pillow's lazy open), so a file over the pixel limit is refused before any
pixel is decoded. Phones store pixels sideways and say so in EXIF tag 0x0112: OpenCV decodes with
its own rotation off and the tag Pillow read is applied, so every decoder path agrees. Big JPEGs
decode at 1/2, 1/4 or 1/8 scale (libjpeg's DCT scaling, several times faster) where that leaves
enough pixels for the corner indices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from os import PathLike
from pathlib import Path

import cv2
import numpy as np

from vision.formats import (
    TOO_BIG,
    FormatError,
    Header,
    UnsupportedFormat,
    check_structure,
    jpeg_has_end,
    orientation_of,
    read_header,
    sniff,
)

DECODE_LONG_SIDE = 1000
"""The long side a big JPEG is decoded at, at least (``RecognizerConfig.min_long_side``): enough for
the detector's 608 px look and for the classifiers' 96 px crops of all but the smallest indices."""
MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 50_000_000


class ImageError(ValueError):
    """The bytes are not a photo we can read (empty, not an image, truncated, too large)."""


class UnsupportedImage(ImageError):
    """An image, but of a format not accepted (GIF, BMP, TIFF...): the service answers 415."""


@dataclass(frozen=True)
class Limits:
    """How large a photo may be: its file in bytes, its image in pixels (checked from the header
    before decoding where the format allows)."""

    bytes: int
    pixels: int


UPLOAD = Limits(MAX_BYTES, MAX_PIXELS)
"""A photo sent to the service (``POST /api/count``): a stranger's bytes, kept to what a phone's
12-50 MP photo needs, so that a crafted file cannot take the server's memory."""
LOCAL = Limits(100 * 1024 * 1024, 120_000_000)
"""A photo of one's own (``cribcount count PHOTO``, ``vision.recognize``): a 48-50 MP phone photo
saved as JPEG can pass 20 MB, and a 108 MP one 50 megapixels; a JPEG that big still decodes at an
eighth of its size (libjpeg's DCT scaling), so only a bomb of a PNG is kept out."""


@dataclass(frozen=True)
class Photo:
    """A decoded photo (BGR, upright) and how it maps to the original pixels."""

    image: np.ndarray
    """BGR uint8, EXIF orientation applied, possibly decoded at reduced scale."""
    scale: float
    """Original pixels per decoded pixel (1, 2, 4 or 8)."""
    original_size: tuple[int, int]
    """(width, height) of the upright original image."""
    finer: Callable[[], Photo] | None = field(default=None, repr=False, compare=False)
    """Decodes the same photo at twice this size (``None``: at full size already): the recognizer asks
    for it where the indices come out too small here, or its doubt is over a small part of the frame."""


def _apply_orientation(img: np.ndarray, orientation: int) -> np.ndarray:
    if orientation in (2, 4, 5, 7):
        img = cv2.flip(img, 1)
    rotate = {3: cv2.ROTATE_180, 4: cv2.ROTATE_180, 5: cv2.ROTATE_90_COUNTERCLOCKWISE,
              6: cv2.ROTATE_90_CLOCKWISE, 7: cv2.ROTATE_90_CLOCKWISE, 8: cv2.ROTATE_90_COUNTERCLOCKWISE}
    if orientation in (5, 7):  # transpose / transverse: mirror then rotate the other way
        turn = cv2.ROTATE_90_COUNTERCLOCKWISE if orientation == 5 else cv2.ROTATE_90_CLOCKWISE
        return cv2.rotate(img, turn)
    return cv2.rotate(img, rotate[orientation]) if orientation in rotate else img


def _decode_heif(data: bytes, min_long_side: int, limits: Limits) -> Photo:
    """A HEIC/HEIF or AVIF still (an iPhone's photo), decoded by Pillow (AVIF) and pillow-heif (HEIC):
    OpenCV's wheels decode neither. The pixels go through :func:`photo_from_array`, as a Pillow image
    handed over does: upright (pillow-heif applies the container's rotation and clears the EXIF tag),
    greyscale refused, a big photo shrunk as a JPEG decode would. :func:`decode_photo` has read its
    header already (:func:`vision.formats.read_header`: the decoder is there, the size within limits)."""
    import io

    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data), formats=("HEIF", "AVIF"))
        image.load()
    except Exception:  # what a damaged file raises depends on the decoder and on
        # whoever patched Pillow in this process (ultralytics' Image.open retries with a plugin
        # it may not have: ModuleNotFoundError); for the sender it is one thing, a file not decoded
        raise ImageError("the HEIC/HEIF or AVIF photo cannot be decoded (damaged or cut short); "
                         "send it again, or as JPEG") from None
    return photo_from_array(image, min_long_side=min_long_side, limits=limits)


_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def _reduction(long_side: int, min_long_side: int) -> int:
    """The largest of 1, 2, 4 and 8 that keeps ``long_side`` divided by it at ``min_long_side`` or
    more: libjpeg's DCT scales, which a photo handed over as an array is shrunk by too."""
    factor = 1
    while factor < 8 and long_side // (factor * 2) >= min_long_side:
        factor *= 2
    return factor


def decode_photo(data: bytes, *, min_long_side: int = DECODE_LONG_SIDE, limits: Limits = UPLOAD) -> Photo:
    """Decode image bytes upright, at the smallest JPEG scale whose long side stays ≥ ``min_long_side``.

    Raises :class:`ImageError` for empty, oversized (``limits``: an upload's unless told),
    truncated, greyscale or non-image data.
    """
    _check_bytes(data, limits)
    header = _header(data, limits)  # format sniffed, structure bounded, size and EXIF: no pixels yet
    _check_pixels(*header.size, limits)
    if header.format == "JPEG" and not jpeg_has_end(data):  # libjpeg would fill the rest with grey
        raise ImageError("the JPEG is truncated (no end-of-image marker)")
    if header.format == "HEIF":
        return _decode_heif(data, min_long_side, limits)
    factor = _reduction(max(header.size), min_long_side) if header.format == "JPEG" else 1
    flag = _REDUCED.get(factor, cv2.IMREAD_COLOR) | cv2.IMREAD_IGNORE_ORIENTATION
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if img is None:
        raise ImageError(f"the {header.format} photo cannot be decoded (damaged or cut short); send it again")
    if img.shape[0] * img.shape[1] * factor * factor > limits.pixels:
        raise ImageError(f"the image has over {limits.pixels // 1_000_000} megapixels")
    img = _apply_orientation(_in_colour(img), header.orientation)
    h, w = img.shape[:2]
    finer = partial(decode_photo, data, min_long_side=max(header.size) * 2 // factor,  # half this factor
                    limits=limits) if factor > 1 else None
    return Photo(image=img, scale=float(factor), original_size=(w * factor, h * factor), finer=finer)


def _header(data: bytes, limits: Limits) -> Header:
    try:
        return read_header(data)
    except UnsupportedFormat as exc:
        raise UnsupportedImage(str(exc)) from None
    except FormatError as exc:
        raise ImageError(f"the image is over {limits.pixels // 1_000_000} megapixels" if str(exc) == TOO_BIG
                         else str(exc)) from None


GREYSCALE = ("the photo is greyscale: without colour hearts and diamonds cannot be told from spades "
             "and clubs; take it in colour")


def _in_colour(img: np.ndarray) -> np.ndarray:
    """``img``, or :class:`ImageError` when it holds no colour (its channels equal to within 1 at
    every sampled pixel: a greyscale file, a phone's mono filter). Why: the models read a red 2♥ in a
    grey photo as 2♠ at full confidence, a wrong count said surely; a colour photo, even of black
    cards on a white table, always carries a little tint or sensor colour."""
    sample = img[::7, ::7].astype(np.int16)
    spread = np.maximum(np.abs(sample[..., 0] - sample[..., 1]), np.abs(sample[..., 1] - sample[..., 2]))
    if spread.size and int(spread.max()) <= 1:
        raise ImageError(GREYSCALE)
    return img


def _mb(n: int) -> str:
    return f"{n // (1024 * 1024)} MB"


def _check_pixels(w: int, h: int, limits: Limits) -> None:
    if w < 1 or h < 1:
        raise ImageError(f"the image has no pixels ({w}x{h})")
    if w * h > limits.pixels:
        raise ImageError(f"the image is {w}x{h} ({w * h / 1e6:.0f} megapixels); "
                         f"the limit is {limits.pixels // 1_000_000} megapixels")


def not_a_file(path: Path) -> str:
    """Why ``path`` cannot be read as a photo when it is no regular file: a folder or a device (such as
    /dev/null) is named as one, and "no such file" kept for a path that is not there."""
    if path.is_dir():
        return f"{path}: a folder, not a photo"
    if path.exists():
        return f"{path}: not a regular file (a device, pipe or socket), not a photo"
    return f"{path}: no such file"


def check_photo_file(path: str | Path, *, limits: Limits = LOCAL) -> bytes:
    """The bytes of a photo file, refused where :func:`decode_photo` would refuse them from the header
    alone (not a file, too big, a format not accepted, over the pixel limit), without decoding: the
    CLI asks this before it spends a second loading the models, then decodes the bytes returned."""
    data = _file_bytes(path, limits)
    _check_bytes(data, limits)
    _check_pixels(*_header(data, limits).size, limits)
    return data


def _file_bytes(path: str | Path, limits: Limits) -> bytes:
    """The bytes of a photo file: a regular file within the size limit (refused before it is read)."""
    p = Path(path)
    if not p.is_file():
        raise ImageError(not_a_file(p))
    if p.stat().st_size > limits.bytes:
        raise ImageError(f"{p}: {p.stat().st_size / 1e6:.1f} MB; the limit is {_mb(limits.bytes)}")
    return p.read_bytes()


def _check_bytes(data: bytes, limits: Limits) -> None:
    if not data:
        raise ImageError("the file is empty")
    if len(data) > limits.bytes:
        raise ImageError(f"the file is {len(data) / 1e6:.1f} MB; the limit is {_mb(limits.bytes)}")


def screen_photo(data: bytes, *, limits: Limits = UPLOAD) -> None:
    """Refuse, in C-speed byte scans only (no Pillow, no pixel), what is plainly no photo: empty, over
    the size, a format not accepted, a header built to stall a parser (:func:`vision.formats.
    check_structure`). The service asks this in its event loop (a few ms for 20 MB), so such a file
    never costs a photo worker its copy of the bytes; :func:`decode_photo` asks it again."""
    _check_bytes(data, limits)
    try:
        check_structure(data, sniff(data))
    except UnsupportedFormat as exc:
        raise UnsupportedImage(str(exc)) from None
    except FormatError as exc:
        raise ImageError(str(exc)) from None


def read_photo(path: str | Path, *, min_long_side: int = DECODE_LONG_SIDE, limits: Limits = LOCAL) -> Photo:
    """Read and decode a photo file, one's own (:data:`LOCAL` limits); see :func:`decode_photo`."""
    return decode_photo(_file_bytes(path, limits), min_long_side=min_long_side, limits=limits)


def photo_from_array(image: object, *, min_long_side: int = DECODE_LONG_SIDE,
                     limits: Limits = LOCAL) -> Photo:
    """A photo handed over in memory (``vision.recognize`` called from other people's code), as
    :func:`decode_photo` would have decoded its file: a NumPy array in OpenCV's order (BGR, or BGRA
    with the alpha dropped) of 8-bit or 16-bit values or floats in 0..1 or 0..255, or a Pillow image
    (any mode Pillow converts, EXIF orientation applied; duck-typed). A greyscale image is refused,
    and a big one shrunk by the power of two a JPEG decode would use (area averaging, as libjpeg's
    DCT scaling), so a photo reads the same whichever way it comes in. Raises :class:`ImageError`.
    """
    if hasattr(image, "convert") and hasattr(image, "mode") and hasattr(image, "getexif"):
        _check_pixels(*image.size, limits)
        orientation = orientation_of(image)  # a damaged EXIF block reads as upright, not a traceback
        arr = np.asarray(image.convert("RGB"))
        img = _apply_orientation(_in_colour(cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)), orientation)
    elif isinstance(image, np.ndarray):
        img = _as_bgr8(image, limits)
    else:
        raise ImageError(f"not a photo: expected a path, encoded bytes, a BGR array or a Pillow image, "
                         f"not {type(image).__name__}")
    h, w = img.shape[:2]
    factor = _reduction(max(w, h), min_long_side)
    if factor == 1:
        return Photo(image=np.ascontiguousarray(img), scale=1.0, original_size=(w, h))
    finer = partial(photo_from_array, img, min_long_side=max(w, h) * 2 // factor, limits=limits)
    small = cv2.resize(img, (w // factor, h // factor), interpolation=cv2.INTER_AREA)
    return Photo(image=small, scale=float(factor), original_size=(w, h), finer=finer)


def _as_bgr8(arr: np.ndarray, limits: Limits) -> np.ndarray:
    """A BGR uint8 image from an array of the kinds :func:`photo_from_array` takes."""
    if arr.ndim == 2 or (arr.ndim == 3 and arr.shape[2] == 1):
        raise ImageError(GREYSCALE)
    if arr.ndim != 3 or arr.shape[2] not in (3, 4):
        raise ImageError(f"an image array is height x width x 3 (BGR) or 4 (BGRA), not shape {arr.shape}")
    if arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ImageError(f"the image array is empty (shape {arr.shape})")
    _check_pixels(arr.shape[1], arr.shape[0], limits)
    if arr.dtype == np.uint16:
        arr = (arr >> 8).astype(np.uint8)
    elif arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise ImageError("the image array holds NaN or infinite values")
        arr = arr * 255.0 if arr.max(initial=0) <= 1.0 else arr
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    elif arr.dtype.kind in "iu" and arr.dtype != np.uint8:
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    elif arr.dtype != np.uint8:
        raise ImageError(f"an image array holds numbers (uint8, uint16 or float), not {arr.dtype}")
    return _in_colour(arr[:, :, :3] if arr.shape[2] == 4 else arr)


def open_photo(image: str | PathLike | bytes | np.ndarray, *, min_long_side: int = DECODE_LONG_SIDE) -> Photo:
    """A photo of one's own (:data:`LOCAL` limits) given as a path, encoded bytes, a BGR array or a
    Pillow image, decoded as :func:`decode_photo` does. Raises :class:`ImageError`."""
    if isinstance(image, (bytes, bytearray)):
        return decode_photo(bytes(image), min_long_side=min_long_side, limits=LOCAL)
    if isinstance(image, (str, PathLike)):
        return read_photo(image, min_long_side=min_long_side)
    return photo_from_array(image, min_long_side=min_long_side)
