"""The renderer writes its PNG files itself (``render/style.png_bytes``, issue 41: rows
deflated by ISA-L): every file must be a valid PNG that any reader decodes to the very
pixels drawn, and a picture it cannot write faithfully is refused, not written wrong."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageDraw

from render.style import PNG_COLOURS, PNG_SIGNATURE, encode, png_bytes


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (tag, data) of each chunk of a PNG file, each CRC checked."""
    assert data.startswith(PNG_SIGNATURE)
    at, out = len(PNG_SIGNATURE), []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        tag, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(body, zlib.crc32(tag)), tag
        out.append((tag, body))
        at += 12 + length
    return out


def _drawing() -> Image.Image:
    """A picture with edges and text-like detail in many colours."""
    image = Image.new("RGB", (173, 91), "#e8e2d0")
    draw = ImageDraw.Draw(image)
    for k in range(12):
        draw.ellipse((k * 13, k * 5, k * 13 + 40, k * 5 + 30), outline=(20 * k, 255 - 20 * k, 90), width=2)
    draw.text((5, 70), "VDV-1 2-3-7", fill="#202020")
    return image


def test_a_written_png_is_valid_and_decodes_to_the_pixels_drawn() -> None:
    image = _drawing()
    small = image.quantize(64, method=Image.Quantize.FASTOCTREE)
    data = png_bytes(small)
    chunks = _chunks(data)
    assert [tag for tag, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height, depth, colour, *_ = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (width, height, depth, colour) == (173, 91, 8, 3)  # 8-bit palette
    colours = len(chunks[1][1]) // 3
    rows = zlib.decompress(chunks[2][1])
    assert len(rows) == height * (width + 1)
    for y in range(height):
        row = rows[y * (width + 1):(y + 1) * (width + 1)]
        assert row[0] == 0 and max(row[1:]) < colours  # no filter; every index in the palette
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "P" and list(back.getdata()) == list(small.getdata())
    assert back.convert("RGB").tobytes() == small.convert("RGB").tobytes()
    assert png_bytes(small) == data  # the same pixels, the same bytes


def test_encode_gives_the_pictures_own_pixels_in_its_palette() -> None:
    """``encode`` (the octree palette, no fixed one) writes what Pillow's quantize makes."""
    image = _drawing()
    back = Image.open(io.BytesIO(encode(image)))
    expected = image.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE)
    assert back.size == image.size
    assert back.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


@pytest.mark.parametrize("make", [
    pytest.param(lambda: Image.new("RGB", (4, 4)), id="not a palette picture"),
    pytest.param(lambda: Image.new("RGBA", (4, 4), (0, 0, 0, 0)).quantize(4), id="RGBA palette"),
    pytest.param(lambda: _transparent(), id="transparent index"),
])
def test_a_picture_it_cannot_write_faithfully_is_refused(make: object) -> None:
    with pytest.raises(ValueError, match="opaque palette pictures only"):
        png_bytes(make())  # type: ignore[operator]


def _transparent() -> Image.Image:
    small = Image.new("P", (4, 4), 0)
    small.putpalette([0, 0, 0, 255, 255, 255])
    small.info["transparency"] = 0
    return small
