"""Decoding what phones and strangers send (issue 79): data after a JPEG's end read, a truncated one
refused, a PNG's orientation read from its header without decoding it, a chunk flood refused early,
and a damaged EXIF block quiet."""

import io
import struct
import warnings
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.decode import ImageError, decode_photo
from vision.formats import FormatError, check_structure, jpeg_has_end, read_header


def colour_image(w: int = 64, h: int = 48) -> np.ndarray:
    img = np.zeros((h, w, 3), np.uint8)
    img[:, : w // 2] = (200, 60, 20)
    img[:, w // 2:] = (20, 60, 200)
    return img


def jpeg(img: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", img)[1].tobytes()


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_with_exif(orientation: int, w: int = 64, h: int = 48) -> bytes:
    """A PNG whose eXIf chunk (before the pixels, as the standard places it) holds ``orientation``."""
    out = io.BytesIO()
    Image.fromarray(colour_image(w, h)[:, :, ::-1]).save(out, "PNG")
    data = out.getvalue()
    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + b"\0\0\0\0"
    return data[:33] + chunk(b"eXIf", tiff) + data[33:]  # 33: the signature and IHDR


def test_a_jpeg_followed_by_300_kb_of_zeros_decodes_as_the_plain_jpeg():
    plain = jpeg(colour_image())
    padded = decode_photo(plain + bytes(300 * 1024))
    assert np.array_equal(padded.image, decode_photo(plain).image)


def test_a_jpeg_followed_by_another_jpeg_decodes_as_the_first():
    first = jpeg(colour_image())
    second = jpeg(colour_image(32, 32))
    assert decode_photo(first + second).original_size == (64, 48)


def test_a_jpeg_cut_in_its_pixels_is_refused_as_truncated():
    data = jpeg(colour_image(640, 480))
    with pytest.raises(ImageError, match="truncated"):
        decode_photo(data[: len(data) // 2])


def test_an_exif_thumbnail_end_marker_does_not_make_a_cut_jpeg_whole():
    """The thumbnail's own end marker lies in its EXIF segment, before the photo's first scan."""
    thumb = jpeg(colour_image(16, 12))
    app1 = b"Exif\0\0" + thumb
    data = jpeg(colour_image(640, 480))
    with_thumb = data[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + data[2:]
    assert jpeg_has_end(with_thumb)
    assert not jpeg_has_end(with_thumb[: len(with_thumb) - len(data) // 2])


@pytest.mark.parametrize("orientation, size", [(1, (64, 48)), (6, (48, 64)), (3, (64, 48)), (8, (48, 64))])
def test_a_png_is_turned_by_its_exif_orientation(orientation, size):
    assert decode_photo(png_with_exif(orientation)).original_size == size


def test_a_png_orientation_is_read_without_decoding_its_pixels(monkeypatch):
    from PIL import ImageFile

    def no_pixels(self):
        raise AssertionError("the PNG's pixels were decoded to read its header")

    monkeypatch.setattr(ImageFile.ImageFile, "load", no_pixels)
    assert read_header(png_with_exif(6)).orientation == 6


def test_a_png_of_a_million_empty_chunks_is_refused_from_its_structure():
    data = png_with_exif(1)
    empty = chunk(b"prVt", b"")
    flood = data[:33] + empty * 1_000_000 + data[33:]
    with pytest.raises(FormatError, match="header segments"):
        check_structure(flood, "PNG")


def exif_flood_jpeg(tags: int) -> bytes:
    """A JPEG whose EXIF holds ``tags`` entries, each claiming more data than the file has."""
    entries = b"".join(struct.pack("<HHII", 0xC000 + k, 4, 20_000, 8) for k in range(tags))
    tiff = b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", tags) + entries + b"\0\0\0\0"
    app1 = b"Exif\0\0" + tiff
    data = jpeg(colour_image())
    return data[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + data[2:]


def test_pillow_warns_per_tag_of_a_damaged_exif_block():
    """The control: the file below makes Pillow warn, tag by tag."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Image.open(io.BytesIO(exif_flood_jpeg(50))).getexif()
    assert len(caught) >= 50


def test_a_damaged_exif_block_of_thousands_of_tags_warns_nothing_while_its_header_is_read():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert read_header(exif_flood_jpeg(5000)).orientation == 1
    assert caught == []
