"""A line of text's coverage mask built from cached glyphs: the very pixels Pillow draws.

Pillow rasterises every glyph of a text through FreeType each time it draws it, and a bold
label (a one-pixel stroke) goes through FreeType's stroker glyph by glyph: a new label of
twenty letters took 0.8 ms plain and 2.3 ms bold at drawing scale, and a table's focus
picture draws four or five new mark labels (issue 41).  A glyph looks the same wherever it
sits, so it is rasterised once per character, size and stroke here and the line is put
together from those masks, as Pillow's own renderer does it:

* the font's layout is Pillow's basic one (no shaping): glyph after glyph, the pen moved by
  each glyph's advance and the pair's kerning, both whole pixels for the bundled font
  (hinted), so each glyph lands on a whole pixel;
* a glyph's mask is pasted into the line as Pillow merges glyphs, by a 255 fill through the
  glyph's coverage (where two glyphs overlap, the later covers the earlier by its coverage);
* the line's box is the union of its glyphs' boxes, the anchor's offset that of Pillow's
  ``getbbox`` (a whole pixel; ``m`` rounds half an odd width away from the anchor).

Whatever this cannot build exactly (a vertical anchor that depends on the ink, several lines,
a fractional advance) returns ``None`` and is drawn by Pillow: ``tests/render/test_textglyphs.py``
holds the two equal over every size, anchor and stroke the renderer uses.
"""

from __future__ import annotations

from PIL import Image, ImageFont

from render.caches import cached

#: Vertical anchors whose offset from the baseline depends on the font only (ascender,
#: middle, baseline, descender), not on the text's ink ("t" and "b" do).
_FONT_ROWS = frozenset("amsd")


@cached(maxsize=4096)
def _glyph(face: ImageFont.FreeTypeFont, ch: str, stroke: int) -> tuple[Image.Image | None, tuple[int, int],
                                                                        tuple[int, int, int, int]]:
    """``ch``'s coverage mask (None when it has no ink: a space), the mask's offset and the
    glyph's box, both from the pen on the baseline."""
    core, offset = face.getmask2(ch, "L", stroke_width=stroke, anchor="ls", ink=255, stroke_filled=True)
    mask = Image.Image()._new(core)  # a core image wrapped, as Pillow's own modules do
    box = tuple(int(v) for v in face.getbbox(ch, anchor="ls", stroke_width=stroke))
    return (mask if mask.getbbox() else None), (int(offset[0]), int(offset[1])), (box[0], box[1], box[2], box[3])


@cached(maxsize=4096)
def _advance(face: ImageFont.FreeTypeFont, ch: str) -> float:
    """How far ``ch`` moves the pen, in drawing pixels."""
    return face.getlength(ch)


@cached(maxsize=16384)
def _kerning(face: ImageFont.FreeTypeFont, left: str, right: str) -> float:
    """The kerning between ``left`` and ``right`` (what their pair's length adds)."""
    return face.getlength(left + right) - face.getlength(left) - face.getlength(right)


@cached(maxsize=64)
def _row_offset(face: ImageFont.FreeTypeFont, row: str) -> int:
    """How far the vertical anchor ``row`` puts a line's box below the baseline anchor's."""
    return int(face.getbbox("x", anchor="l" + row)[1]) - int(face.getbbox("x", anchor="ls")[1])


def text_mask(face: ImageFont.FreeTypeFont, text: str, anchor: str,
              stroke: int) -> tuple[Image.Image, tuple[int, int]] | None:
    """The coverage mask of one line ``text`` in ``face`` and its top-left's offset from the
    anchor, exactly as ``ImageDraw.text`` draws it into an "L" image (fill and stroke both
    255); None where it cannot be built from glyphs exactly (the module docstring)."""
    if not text or "\n" in text or anchor[1] not in _FONT_ROWS or anchor[0] not in "lmr":
        return None
    pen, placed = 0, []
    left = top = 1 << 30
    right = bottom = -(1 << 30)
    previous = ""
    for ch in text:
        if previous:
            kern = _kerning(face, previous, ch)
            if kern != int(kern):
                return None
            pen += int(kern)
        glyph, (ox, oy), (gl, gt, gr, gb) = _glyph(face, ch, stroke)
        left, top, right, bottom = min(left, pen + gl), min(top, gt), max(right, pen + gr), max(bottom, gb)
        if glyph is not None:
            placed.append((glyph, pen + ox, oy))
        step = _advance(face, ch)
        if step != int(step):
            return None
        pen += int(step)
        previous = ch
    # The pen sits at (-left, -top) of the mask whatever the anchor: an anchor moves the box.
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    for glyph, x, y in placed:
        mask.paste(255, (x - left, y - top, x - left + glyph.width, y - top + glyph.height), glyph)
    shift = {"l": 0, "m": -((pen + 1) // 2), "r": -pen}[anchor[0]]
    return mask, (left + shift, top + _row_offset(face, anchor[1]))
