"""Photo decoding: upright via EXIF, reduced-scale decode, and clear errors for bad files."""

import struct

import cv2
import numpy as np
import pytest
from support import as_heic

from vision.decode import LOCAL, ImageError, decode_photo, read_photo
from vision.formats import read_header


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
    assert read_header(with_orientation(jpeg(40, 20), 6)).orientation == 6
    assert read_header(jpeg(40, 20)).orientation == 1


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


def test_a_12_mp_jpeg_decodes_at_a_quarter_and_finer_on_request():
    photo = decode_photo(jpeg(4000, 3000, 60))
    assert photo.scale == 4.0 and photo.image.shape[:2] == (750, 1000)
    half = photo.finer()
    assert half.scale == 2.0 and half.image.shape[:2] == (1500, 2000) and half.original_size == (4000, 3000)
    full = half.finer()
    assert full.scale == 1.0 and full.image.shape[:2] == (3000, 4000) and full.finer is None


def test_a_photo_decoded_whole_has_nothing_finer():
    assert decode_photo(jpeg(800, 600)).finer is None


@pytest.mark.parametrize("data,reason", [
    (b"", "empty"),
    (b"hello, this is text", "not an image"),
    (jpeg(200, 100)[:-400], "truncated"),
    (b"\xff\xd8" + b"\x00" * (21 * 1024 * 1024), "limit is 20 MB"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64,
     "HEIC/HEIF or AVIF .* cannot be decoded"),
])
def test_bad_files_get_a_reason(data, reason):
    with pytest.raises(ImageError, match=reason):
        decode_photo(data)


def heif(w: int, h: int, fmt: str, orientation: int = 1) -> bytes:
    """A photo saved as an iPhone does (HEIC) or as AVIF, with a red block at the top-left corner."""
    img = np.zeros((h, w, 3), np.uint8)
    img[: h // 2, : w // 2] = (0, 0, 255)
    return as_heic(img, fmt, orientation)


@pytest.mark.parametrize("fmt,brand", [("HEIF", b"heic"), ("AVIF", b"avif")])
def test_an_iphone_heic_photo_and_an_avif_one_are_read_upright(fmt, brand):
    data = heif(40, 20, fmt, orientation=6)
    assert data[8:12] == brand
    photo = decode_photo(data)
    assert photo.image.shape[:2] == (40, 20)  # stored sideways, turned upright as a JPEG is
    assert photo.image[2, -3, 2] > 200 and photo.image[2, 2, 2] < 50


def test_a_big_heic_photo_is_shrunk_as_a_jpeg_decode_would_be():
    photo = decode_photo(heif(3400, 2000, "HEIF"), min_long_side=1600)
    assert photo.scale == 2.0
    assert photo.image.shape[:2] == (1000, 1700)
    assert photo.original_size == (3400, 2000)


def test_a_heic_photo_cut_short_gets_a_reason():
    data = heif(400, 300, "HEIF")
    with pytest.raises(ImageError, match="cannot be decoded"):
        decode_photo(data[: len(data) // 2])


def test_too_many_megapixels_is_refused_before_decoding():
    header = jpeg(16, 16)
    # Patch the SOF0 size fields to claim 10000x6000 = 60 MP.
    sof = header.index(b"\xff\xc0")
    patched = header[: sof + 5] + struct.pack(">HH", 6000, 10000) + header[sof + 9 :]
    with pytest.raises(ImageError, match="megapixels"):
        decode_photo(patched)


def padded(data: bytes, megabytes: int) -> bytes:
    """``data`` (a JPEG) with application segments of nothing after its start: as big a file as a
    48-50 MP phone photo, without the encoding time."""
    segment = b"\xff\xef" + struct.pack(">H", 65535) + b"\0" * 65533
    return data[:2] + segment * (megabytes * 16) + data[2:]


def test_a_file_of_ones_own_may_be_bigger_than_an_upload(tmp_path):
    big = padded(jpeg(400, 300), 25)
    assert 25 * 1024 * 1024 < len(big) < LOCAL.bytes
    with pytest.raises(ImageError, match="limit is 20 MB"):
        decode_photo(big)  # sent to the service
    path = tmp_path / "fifty-megapixel-phone.jpg"
    path.write_bytes(big)
    assert read_photo(path).image.shape[:2] == (300, 400)


def test_a_file_of_ones_own_over_120_megapixels_is_refused_before_decoding(tmp_path):
    header = jpeg(16, 16)
    sof = header.index(b"\xff\xc0")
    path = tmp_path / "huge.jpg"
    path.write_bytes(header[: sof + 5] + struct.pack(">HH", 10000, 13000) + header[sof + 9 :])
    with pytest.raises(ImageError, match="the limit is 120 megapixels"):
        read_photo(path)


def test_screening_refuses_what_is_plainly_no_photo_without_pillow(monkeypatch):
    from bombs import HOSTILE

    from vision import formats
    from vision.decode import UnsupportedImage, screen_photo

    monkeypatch.setattr(formats, "_pillow", lambda fmt: pytest.fail("screening opened Pillow"))
    screen_photo(jpeg(400, 300))  # a photo passes
    with pytest.raises(UnsupportedImage, match="is a TIFF image"):
        screen_photo(HOSTILE["tiff-30000x30000"][0]())
    for name in ("jpeg-40000-scans", "jpeg-4.7M-segments", "png-1M-chunks"):
        with pytest.raises(ImageError, match=HOSTILE[name][2]):
            screen_photo(HOSTILE[name][0]())


def test_a_jpeg_may_have_256_scans_and_no_more():
    from bombs import jpeg_with_scans, small_jpeg

    from vision.formats import MAX_JPEG_SCANS, FormatError, check_structure

    progressive = small_jpeg(64, 64, progressive=True)
    extra = MAX_JPEG_SCANS - progressive.count(b"\xff\xda")
    check_structure(jpeg_with_scans(extra), "JPEG")
    with pytest.raises(FormatError, match="over 256 scans"):
        check_structure(jpeg_with_scans(extra + 1), "JPEG")
