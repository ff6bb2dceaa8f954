"""Photos handed to ``vision.recognize`` in memory (arrays, Pillow images) read as their files do,
greyscale photos are refused (they cannot tell hearts from spades), and anything else is a clear
``ImageError``."""

import io

import cv2
import numpy as np
import pytest
from support import load_samples, real_models_reason

from vision.decode import GREYSCALE, ImageError, decode_photo, photo_from_array, read_photo


def table(w: int = 400, h: int = 300) -> np.ndarray:
    """Green felt with a white card holding a red mark near the top-left corner."""
    img = np.full((h, w, 3), (40, 110, 30), np.uint8)
    img[20:120, 20:90] = 245
    img[25:45, 25:40] = (30, 30, 200)
    return img


def jpeg(img: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes()


def test_a_bgr_array_is_the_photo_as_it_is():
    img = table()
    photo = photo_from_array(img)
    assert photo.scale == 1.0 and photo.original_size == (400, 300)
    assert np.array_equal(photo.image, img)


def test_a_bgra_array_drops_its_alpha():
    img = table()
    photo = photo_from_array(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA))
    assert np.array_equal(photo.image, img)


@pytest.mark.parametrize("as_type", [
    lambda img: img.astype(np.float32),            # floats in 0..255
    lambda img: img.astype(np.float64) / 255,      # floats in 0..1
    lambda img: img.astype(np.uint16) * 257,       # 16-bit
])
def test_other_number_types_are_read_as_8_bit(as_type):
    img = table()
    assert np.abs(photo_from_array(as_type(img)).image.astype(int) - img).max() <= 1


def test_a_big_array_is_shrunk_as_a_big_jpeg_is_decoded():
    img = cv2.resize(table(), (4000, 3000), interpolation=cv2.INTER_NEAREST)
    from_array, from_file = photo_from_array(img), decode_photo(jpeg(img))
    assert from_array.scale == from_file.scale == 4.0
    assert from_array.image.shape == from_file.image.shape == (750, 1000, 3)
    assert from_array.original_size == from_file.original_size == (4000, 3000)
    assert from_array.finer().image.shape == from_file.finer().image.shape == (1500, 2000, 3)


def test_a_pillow_image_is_turned_from_rgb_and_set_upright():
    Image = pytest.importorskip("PIL.Image", reason="pillow (the synth extra) is not installed")
    img = table()
    rgb = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    assert np.array_equal(photo_from_array(rgb).image, img)
    exif = Image.Exif()
    exif[0x0112] = 6  # stored sideways: turn a quarter clockwise
    buf = io.BytesIO()
    rgb.save(buf, "JPEG", quality=95, exif=exif)
    upright = photo_from_array(Image.open(io.BytesIO(buf.getvalue()))).image
    assert upright.shape[:2] == (400, 300)
    assert upright[30, -35, 2] > 150 and upright[30, -35, 0] < 100  # the red mark is now top-right


def test_a_greyscale_file_is_refused():
    grey = cv2.cvtColor(table(), cv2.COLOR_BGR2GRAY)
    with pytest.raises(ImageError, match="greyscale"):
        decode_photo(jpeg(grey))  # one channel in the file
    with pytest.raises(ImageError, match="greyscale"):
        decode_photo(jpeg(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)))  # three, all the same


def test_a_greyscale_array_or_pillow_image_is_refused():
    grey = cv2.cvtColor(table(), cv2.COLOR_BGR2GRAY)
    for image in (grey, grey[:, :, None], cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)):
        with pytest.raises(ImageError, match="greyscale"):
            photo_from_array(image)
    Image = pytest.importorskip("PIL.Image", reason="pillow (the synth extra) is not installed")
    with pytest.raises(ImageError, match="greyscale"):
        photo_from_array(Image.fromarray(grey))


def test_a_photo_of_black_cards_on_a_grey_table_is_colour_enough():
    img = np.full((300, 400, 3), 128, np.uint8)
    img[20:120, 20:90] = 245
    img[25:45, 25:40] = 20
    noisy = np.clip(img + np.random.default_rng(0).normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    assert decode_photo(jpeg(noisy)).image.shape == (300, 400, 3)  # sensor noise is colour


@pytest.mark.parametrize("image,reason", [
    (np.zeros((0, 5, 3), np.uint8), "empty"),
    (np.zeros((5, 5, 2), np.uint8), "not shape"),
    (np.zeros((5, 5, 3), bool), "not bool"),
    (np.full((5, 5, 3), np.nan, np.float32), "NaN"),
    (np.zeros((11000, 11000, 3), np.uint8), "megapixels"),  # never touched: refused by its shape
    ([[1, 2], [3, 4]], "not list"),
    (42, "not int"),
])
def test_what_is_not_a_photo_says_why(image, reason):
    with pytest.raises(ImageError, match=reason):
        photo_from_array(image)


def test_a_path_that_is_no_photo_file_says_which_it_is(tmp_path):
    with pytest.raises(ImageError, match="no such file"):
        read_photo(tmp_path / "none.jpg")
    with pytest.raises(ImageError, match="a folder, not a photo"):
        read_photo(tmp_path)


def test_recognize_refuses_a_greyscale_photo_with_the_reason():
    import vision

    with pytest.raises(ImageError, match="greyscale"):
        vision.recognize(jpeg(cv2.cvtColor(table(), cv2.COLOR_BGR2GRAY)))
    assert "take it in colour" in GREYSCALE


@pytest.mark.skipif(real_models_reason() is not None, reason=str(real_models_reason()))
def test_the_shipped_models_read_a_sample_the_same_from_a_path_an_array_and_a_pillow_image():
    import vision

    Image = pytest.importorskip("PIL.Image", reason="pillow (the synth extra) is not installed")
    path = load_samples()[0].path
    by_path = vision.recognize(path)
    for image in (cv2.imread(str(path)), cv2.imread(str(path), cv2.IMREAD_UNCHANGED), Image.open(path)):
        dets = vision.recognize(image)
        assert dets.cards == by_path.cards
        assert np.abs(dets.xyxy - by_path.xyxy).max() < 2
