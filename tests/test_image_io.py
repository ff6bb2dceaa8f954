"""Photo decoding: upright via EXIF, reduced-scale decode, and clear errors for bad files."""

import struct

import cv2
import numpy as np
import pytest

from vision.image_io import ImageError, decode_photo, exif_orientation


def jpeg(w: int, h: int, quality: int = 90) -> bytes:
    img = np.zeros((h, w, 3), np.uint8)
    img[: h // 2, : w // 2] = (0, 0, 255)  # red block marks the top-left corner
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()


def with_orientation(data: bytes, orientation: int) -> bytes:
    """Insert an APP1 EXIF segment holding only the orientation tag."""
    ifd = struct.pack("<H", 1) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack("<I", 0)
    tiff = b"II*\x00" + struct.pack("<I", 8) + ifd
    payload = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return data[:2] + app1 + data[2:]


def test_exif_orientation_is_read():
    assert exif_orientation(with_orientation(jpeg(40, 20), 6)) == 6
    assert exif_orientation(jpeg(40, 20)) == 1


def test_orientation_6_turns_the_photo_upright():
    photo = decode_photo(with_orientation(jpeg(40, 20), 6))
    assert photo.image.shape[:2] == (40, 20)  # landscape pixels stored sideways -> portrait
    # Rotated 90 degrees clockwise: the red top-left block is now top-right.
    assert photo.image[2, -3, 2] > 200 and photo.image[2, 2, 2] < 50


def test_big_jpeg_decodes_at_reduced_scale():
    photo = decode_photo(jpeg(4000, 3000, 60), min_long_side=1600)
    assert photo.scale == 2.0
    assert photo.image.shape[:2] == (1500, 2000)
    assert photo.original_size == (4000, 3000)


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"hello, this is text", "not an image"),
    (jpeg(200, 100)[:-400], "truncated"),
    (b"\xff\xd8" + b"\x00" * (21 * 1024 * 1024), "limit is 20 MB"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64, "HEIC/HEIF .* export it as JPEG"),
])
def test_bad_files_get_a_reason(data, reason):
    with pytest.raises(ImageError, match=reason):
        decode_photo(data)


def test_too_many_megapixels_is_refused_before_decoding():
    header = jpeg(16, 16)
    # Patch the SOF0 size fields to claim 10000x6000 = 60 MP.
    sof = header.index(b"\xff\xc0")
    patched = header[: sof + 5] + struct.pack(">HH", 6000, 10000) + header[sof + 9 :]
    with pytest.raises(ImageError, match="megapixels"):
        decode_photo(patched)
