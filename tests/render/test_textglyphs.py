"""A line's mask built from cached glyphs is the very mask Pillow draws (render.textglyphs)."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageDraw

from render import textglyphs
from render.style import BIG, BODY, SCALE, SMALL, TITLE, font

#: Letters the renderer draws (clean() keeps the bundled font's Latin-1 and a few marks).
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;'\"-()/+*!?#%&éÉüç·"
_TEXTS = ["moved 5.5\" to the ridge", "AV", "Wa Ty fi ffl", "T.", "x", " ", "a  b ", "W/W"]
_TEXTS += ["".join(random.Random(k).choice(_LETTERS) for _ in range(1 + k % 28)) for k in range(60)]


def _pillow(text: str, size: int, anchor: str, stroke: int) -> tuple[bytes, tuple[int, int], tuple[int, int]]:
    """Pillow's own mask, drawn as render.style did before glyphs."""
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=stroke))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask.tobytes(), mask.size, (left, top)


@pytest.mark.parametrize("size", [SMALL, BODY, BIG, TITLE])
@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "mm", "ma", "md", "rm", "rs"])
@pytest.mark.parametrize("stroke", [0, 1, 3 * SCALE])
def test_glyph_masks_are_pillows(size: int, anchor: str, stroke: int) -> None:
    for text in _TEXTS:
        built = textglyphs.text_mask(font(size), text, anchor, stroke)
        assert built is not None, text
        mask, offset = built
        assert (mask.tobytes(), mask.size, offset) == _pillow(text, size, anchor, stroke), text


@pytest.mark.parametrize("text, anchor", [("", "la"), ("two\nlines", "la"), ("top", "mt"), ("low", "mb")])
def test_what_glyphs_cannot_build_is_left_to_pillow(text: str, anchor: str) -> None:
    assert textglyphs.text_mask(font(BODY), text, anchor, 0) is None
