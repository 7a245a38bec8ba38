"""One style for every renderer: palette, fonts, sizes, side letters/shapes, and the canvas.

Everything a snapshot draws goes through :class:`Canvas`, which takes coordinates in *final*
image pixels and draws at :data:`SCALE` times that size, then scales down once: Pillow's
``ImageDraw`` has no anti-aliasing, and supersampling gives smooth lines and text for the
price of one box-filter reduce.

Sizes are fixed for a 1280-pixel-wide image, the narrowest the issue allows, so a phone that
shows the image 1080 pixels wide still shows the smallest text at about 14 physical pixels.
Sides are never told apart by colour alone: each side has a letter and a badge shape
(square, circle, diamond, triangle), so a greyscale print still reads.
"""

from __future__ import annotations

import math
import struct
import threading
import zlib
from functools import lru_cache, partial
from typing import Callable, Hashable, Iterable, Literal, Sequence, TypeAlias

from isal import isal_zlib
from PIL import Image, ImageDraw, ImageFont

from render import textglyphs
from render.caches import MISSING, cached, keep, on_clear, recall
from rules.core.views import SideStyle

#: Supersampling factor: draw at 2x, reduce once.
SCALE = 2
#: Width of every snapshot in final pixels (the issue asks for at least 1280).
WIDTH = 1280
#: Outer margin of the image.
MARGIN = 12

#: Masks of at least this many pixels are painted through a solid image (:meth:`Frame.paint`).
SOLID_AT = 4096
#: PNG palette size and deflate level (ISA-L's 0-3, see :func:`png_bytes`).
PNG_COLOURS = 192
PNG_LEVEL = 2

# Text sizes in final pixels.  Nothing is drawn below SMALL (the issue: about 16 px at 1280).
TITLE = 30
BIG = 24
BODY = 20
SMALL = 17

RGB = tuple[int, int, int]


def hex_rgb(value: str) -> RGB:
    """``"#a1b2c3"`` to an RGB tuple."""
    value = value.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


#: The generic palette: ink, paper, chrome, common terrain words and mark colours.  No
#: system's factions here: a view names its sides' colours (:class:`SideStyle`), or gets the
#: colour-blind safe defaults (:data:`SIDE_DEFAULTS`).  Terrain colours are pale so chips and
#: marks stand out on them.
PALETTE: dict[str, RGB] = {
    name: hex_rgb(value)
    for name, value in {
        # ink and paper
        "ink": "#1d1f24",
        "ink_soft": "#4a4f58",
        "paper": "#f7f5ef",
        "panel": "#ecebe6",
        "header": "#22303c",
        "header_ink": "#ffffff",
        "halo": "#ffffff",
        "grid": "#b9b6a8",
        "neutral": "#7a6a55",
        # terrain
        "clear": "#eee9d2",
        "fields": "#e8dc9c",
        "woods": "#a4c78e",
        "forest": "#a4c78e",
        "city": "#cdbda9",
        "town": "#cdbda9",
        "hills": "#dcc597",
        "river": "#93bde3",
        "water": "#93bde3",
        "sea": "#8bb3d9",
        "port": "#b7c7d6",
        "airfield": "#d5d5cf",
        "building": "#a8907a",
        "dock": "#b4aa9a",
        "quay": "#c9c3b5",
        "target": "#e8c766",
        "wire": "#6e5b4c",
        "cover": "#b8d09c",
        "rubble": "#bdb2a4",
        "road": "#b49a6c",
        "rail": "#555555",
        "bridge": "#6b5a48",
        "marsh": "#b6cfb8",
        "hedge": "#7fa36a",
        "wall": "#a39a8c",
        "smoke": "#d9d9d4",
        "template": "#f0d27a",
        # markers and marks
        "suppressed": "#e0592a",
        "recovering": "#e7c12f",
        "reduced": "#ffffff",
        "changed": "#e69f00",
        "eliminated": "#9a9a9a",
        "move": "#1f4e8c",
        "fire": "#c0262d",
        "assault": "#7a1fa2",
        "objective_main": "#d4a017",
        "objective_secondary": "#f2d675",
        "edge": "#8c6d1f",
    }.items()
}


#: Side colours for sides that name none: the Okabe-Ito colour-blind safe set (blue,
#: vermillion, bluish green, orange, reddish purple, sky blue), in that order.
SIDE_DEFAULTS: tuple[str, ...] = ("#0072b2", "#d55e00", "#009e73", "#e69f00", "#cc79a7", "#56b4e9")


def colour(key: str | None, default: str = "neutral") -> RGB:
    """A colour: ``#rrggbb`` as given, else a palette key, else ``default``'s colour."""
    if key and key.startswith("#") and len(key) == 7:
        return hex_rgb(key)
    if key is not None and key in PALETTE:
        return PALETTE[key]
    return PALETTE[default] if default in PALETTE else hex_rgb(default)


def tint(rgb: RGB, amount: float) -> RGB:
    """Mix a colour towards white by ``amount`` (0: unchanged, 1: white)."""
    r, g, b = (round(c + (255 - c) * amount) for c in rgb)
    return (r, g, b)


def ink_on(fill: RGB) -> RGB:
    """Dark text on a light fill, white text on a dark one (legible in greyscale too)."""
    luminance = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2]
    return PALETTE["ink"] if luminance >= 135 else PALETTE["header_ink"]


def shade(rgb: RGB, amount: float) -> RGB:
    """Mix a colour towards black by ``amount``."""
    r, g, b = (round(c * (1 - amount)) for c in rgb)
    return (r, g, b)


# -- sides: letter + shape, never colour alone ------------------------------------------------

Shape = Literal["square", "circle", "diamond", "triangle"]
SHAPES: tuple[Shape, ...] = ("square", "circle", "diamond", "triangle")


class SideLook:
    """How one faction is drawn: colour, letter and badge shape."""

    def __init__(self, key: str, letter: str, rgb: RGB, shape: Shape, label: str) -> None:
        self.key = key
        self.letter = letter
        self.rgb = rgb
        self.shape = shape
        self.label = label


class SideBook:
    """The looks of every faction of one view, built from its :class:`SideStyle` list.

    A side with no colour, or a faction not listed (the engines may leave ``sides`` empty),
    gets the next colour-blind safe default colour (:data:`SIDE_DEFAULTS`), its key's first
    letter and the next free shape, in order of first use, so the result is deterministic.
    """

    def __init__(self, sides: Sequence[SideStyle]) -> None:
        self._looks: dict[str, SideLook] = {}
        for side in sides:
            self._add(side.key, side.letter or side.key[:1].upper(), side.colour, side.label)

    def _add(self, key: str, letter: str, colour_key: str, label: str) -> SideLook:
        n = len(self._looks)
        shape = SHAPES[n % len(SHAPES)]
        rgb = colour(colour_key or SIDE_DEFAULTS[n % len(SIDE_DEFAULTS)],
                     SIDE_DEFAULTS[n % len(SIDE_DEFAULTS)])
        look = SideLook(key, clean(letter)[:2] or "?", rgb, shape, label)
        self._looks[key] = look
        return look

    def look(self, key: str | None) -> SideLook:
        """The look of a faction key, registering unknown keys on first use."""
        key = key or "neutral"
        if key not in self._looks:
            return self._add(key, key[:1].upper(), "", key)
        return self._looks[key]

    def all(self) -> list[SideLook]:
        """Every look in registration order (for the legend)."""
        return list(self._looks.values())


# -- fonts --------------------------------------------------------------------------------------


#: The service renders in worker threads and a FreeType face is not safe to share between
#: threads, so every use of the shared fonts goes through this lock (only cache misses pay).
_FONT_LOCK = threading.RLock()


@lru_cache(maxsize=None)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` final pixels, loaded once (drawn at ``size * SCALE``).

    ``load_default(size=...)`` is Pillow's bundled Aileron: no system font needed.  Without
    FreeType Pillow falls back to a fixed bitmap font that cannot be sized, and every
    measurement here would be wrong, so that is refused with a sentence.
    """
    face = ImageFont.load_default(size=size * SCALE)
    if not isinstance(face, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: the renderer needs it to size text")
    return face


_REPLACEMENTS = {
    "→": "->",
    "←": "<-",
    "×": "x",
    "″": '"',
    "′": "'",
    "–": "-",
    "—": "-",
    "½": "1/2",
    "✓": "ok",
    "≤": "<=",
    "≥": ">=",
    "•": "·",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "✖": "X",
    "✗": "x",
    "✔": "ok",
    "★": "*",
    "⚑": "!",
}


@cached(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (it covers Latin-1 letters, not symbols)."""
    if ch.isascii():
        return True
    probe = font(SMALL)
    with _FONT_LOCK:
        missing = probe.getmask("\U000f0000")
        mask = probe.getmask(ch)
    return bytes(mask) != bytes(missing) or mask.size != missing.size


@cached(maxsize=4096)
def clean(text: str) -> str:
    """Text the bundled font can draw: common symbols spelled out, others dropped.

    Event lines carry emoji (the die) and arrows; a box glyph would read as noise.
    """
    out = []
    for ch in text:
        ch = _REPLACEMENTS.get(ch, ch)
        if all(_has_glyph(c) for c in ch):
            out.append(ch)
    return "".join(out).strip()


# -- the canvas ---------------------------------------------------------------------------------

Box = tuple[float, float, float, float]


class Canvas:
    """An RGB image drawn at :data:`SCALE` times its final size; coordinates are final pixels."""

    def __init__(self, width: int, height: int, background: str | None = "paper",
                 origin: tuple[float, float] = (0.0, 0.0), premultiplied: bool = False) -> None:
        self.width = width
        self.height = height
        #: The final-pixel point at this canvas's top-left (a patch of a bigger picture).
        self.origin = origin
        if background is None:
            # A transparent patch (a cached chip), pasted later through its own alpha.  A
            # patch of opaque shapes only may be drawn premultiplied ("RGBa"): each pixel is
            # left clear or written opaque, which premultiplying leaves as it is, so it reduces
            # to the same pixels without the conversion (a third of a patch's cost).
            self.image = Image.new("RGBa" if premultiplied else "RGBA", (width * SCALE, height * SCALE),
                                   (0, 0, 0, 0))
        else:
            self.image = Image.new("RGB", (width * SCALE, height * SCALE), colour(background))
        self.draw = ImageDraw.Draw(self.image)
        #: Every text drawn, with its size in final pixels (the legibility and glyph tests).
        self.texts: list[tuple[str, int]] = []

    def note_texts(self, texts: Iterable[tuple[str, int]]) -> None:
        """Record texts drawn from a cached piece (a chip), for the layout's checks."""
        self.texts.extend((t, s) for t, s in texts if t)

    @classmethod
    def over(cls, image: Image.Image) -> "Canvas":
        """A canvas drawing on ``image`` (an RGB image at drawing scale, e.g. a copy of a
        cached static layer): no background fill, which at full-map sizes costs more than
        the copy."""
        canvas = cls.__new__(cls)
        canvas.width = image.width // SCALE
        canvas.height = image.height // SCALE
        canvas.origin = (0.0, 0.0)
        canvas.image = image
        canvas.draw = ImageDraw.Draw(image)
        canvas.texts = []
        return canvas

    def paste(self, patch: Image.Image, x: float, y: float) -> None:
        """Paste a transparent patch drawn at drawing scale with its top-left at ``(x, y)``."""
        ox, oy = self.origin
        self.image.paste(patch, (round((x - ox) * SCALE), round((y - oy) * SCALE)), patch)

    def paste_made(self, make: Callable[[], Image.Image], size: tuple[float, float], x: float,
                   y: float) -> None:
        """:meth:`paste` the patch ``make()`` returns (here at once; a :class:`Frame` waits
        until its pixels are asked for)."""
        self.paste(make(), x, y)

    def _p(self, points: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
        ox, oy = self.origin
        return [((x - ox) * SCALE, (y - oy) * SCALE) for x, y in points]

    def _box(self, box: Box) -> tuple[float, float, float, float]:
        ox, oy = self.origin
        return ((box[0] - ox) * SCALE, (box[1] - oy) * SCALE, (box[2] - ox) * SCALE,
                (box[3] - oy) * SCALE)

    def arc(self, box: Box, start: float, end: float, fill: RGB, width: float,
            pie: RGB | None = None) -> None:
        """An arc of the ellipse in ``box`` (degrees clockwise from +x); ``pie``: filled wedge."""
        if pie is not None:
            self.draw.pieslice(self._box(box), start, end, fill=pie, outline=fill,
                               width=max(1, round(width * SCALE)))
        else:
            self.draw.arc(self._box(box), start, end, fill=fill, width=max(1, round(width * SCALE)))

    def reduced(self) -> Image.Image:
        """The drawing at final size (RGB; a transparent patch as premultiplied-then-plain RGBA,
        so its anti-aliased edges keep their colour when composited)."""
        if self.image.mode == "RGBA":
            return self.image.convert("RGBa").reduce(SCALE).convert("RGBA")
        if self.image.mode == "RGBa":
            return self.image.reduce(SCALE).convert("RGBA")
        return self.image.reduce(SCALE)

    # measuring
    @staticmethod
    def text_size(text: str, size: int) -> tuple[float, float]:
        """Width and height of ``text`` at ``size`` in final pixels (ink box of the line)."""
        return _text_size(text, size)

    # shapes
    def polygon(self, points: Sequence[tuple[float, float]], fill: RGB | None = None,
                outline: RGB | None = None, width: float = 1) -> None:
        """A filled and/or outlined polygon."""
        pts = self._p(points)
        if fill is not None:
            self.draw.polygon(pts, fill=fill)
        if outline is not None:
            self.draw.line(pts + pts[:1], fill=outline, width=max(1, round(width * SCALE)),
                           joint="curve")

    def rect(self, box: Box, fill: RGB | None = None, outline: RGB | None = None,
             width: float = 1, radius: float = 0) -> None:
        """A (rounded) rectangle."""
        x0, y0, x1, y1 = self._box(box)
        line = max(1, round(width * SCALE)) if outline else 0
        if radius <= 0:
            # Square corners: the plain primitive is several times faster.
            self.draw.rectangle((x0, y0, x1, y1), fill=fill, outline=outline, width=line)
            return
        self.draw.rounded_rectangle((x0, y0, x1, y1), radius=radius * SCALE, fill=fill,
                                    outline=outline, width=line)

    def ellipse(self, cx: float, cy: float, r: float, fill: RGB | None = None,
                outline: RGB | None = None, width: float = 1) -> None:
        """A circle of radius ``r`` centred on ``(cx, cy)``."""
        self.draw.ellipse(self._box((cx - r, cy - r, cx + r, cy + r)), fill=fill, outline=outline,
                          width=max(1, round(width * SCALE)) if outline else 0)

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 2) -> None:
        """A polyline with round joints."""
        self.draw.line(self._p(points), fill=fill, width=max(1, round(width * SCALE)),
                       joint="curve")

    def dashed(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 2,
               dash: float = 12, gap: float = 8) -> None:
        """A dashed polyline (fire lines, water routes: a pattern, not just a colour)."""
        for segment in _segment_dashes(points, dash, gap):
            for a, b in segment:
                self.line([a, b], fill, width)

    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB,
             anchor: str = "la", halo: RGB | None = None, bold: bool = False) -> None:
        """Text at ``xy`` (Pillow anchor), with an optional halo so it reads over anything.

        Each text is rasterised once into a cached mask (:func:`_text_mask`) and pasted: the
        same labels recur from one snapshot of a game to the next.
        """
        if size < SMALL:
            raise ValueError(f"text size {size} is below the {SMALL} px minimum")
        self.texts.append((text, size))
        x, y = round((xy[0] - self.origin[0]) * SCALE), round((xy[1] - self.origin[1]) * SCALE)
        if halo is not None:
            mask, (ox, oy) = _text_mask(text, size, anchor, 3 * SCALE)
            self.image.paste(halo, (x + ox, y + oy), mask)
        # The bundled font has one weight; a thin stroke of the text colour thickens it.
        mask, (ox, oy) = _text_mask(text, size, anchor, 1 if bold else 0)
        self.image.paste(fill, (x + ox, y + oy), mask)

    def text_in(self, box: Box, text: str, size: int, fill: RGB, bold: bool = False,
                halo: RGB | None = None) -> None:
        """Text centred in ``box``."""
        self.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size, fill,
                  anchor="mm", bold=bold, halo=halo)

    def badge(self, cx: float, cy: float, size: float, look: SideLook,
              letter_size: int = SMALL) -> None:
        """A side badge: the side's shape in its colour with its letter in white."""
        r = size / 2
        ink = PALETTE["header_ink"]
        edge = shade(look.rgb, 0.45)
        if look.shape == "square":
            self.rect((cx - r, cy - r, cx + r, cy + r), fill=look.rgb, outline=edge, width=1.5)
        elif look.shape == "circle":
            self.ellipse(cx, cy, r, fill=look.rgb, outline=edge, width=1.5)
        elif look.shape == "diamond":
            r *= 1.25
            self.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)],
                         fill=look.rgb, outline=edge, width=1.5)
        else:
            r *= 1.3
            self.polygon([(cx, cy - r), (cx + r, cy + r * 0.8), (cx - r, cy + r * 0.8)],
                         fill=look.rgb, outline=edge, width=1.5)
            cy += r * 0.2
        self.text((cx, cy), look.letter, letter_size, ink, anchor="mm", bold=True)

    def arrow(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 5,
              head: float = 18, dashed: bool = False, casing: RGB | None = None,
              part: str = "all") -> None:
        """A polyline ending in an arrowhead, with a light casing so it shows on any terrain.

        ``part``: ``"shaft"`` or ``"head"`` draws only that part (a renderer may draw shafts
        under its chips and heads over them), ``"all"`` both.
        """
        if len(points) < 2:
            return
        pts = list(points)
        tip = arrow_tip(pts, head)
        shaft = pts[:-1] + [arrow_base(pts, head)]
        if part in ("all", "shaft"):
            if casing is not None:
                self.line(shaft, casing, width + 4)
            if dashed:
                self.dashed(shaft, fill, width)
            else:
                self.line(shaft, fill, width)
        if part in ("all", "head"):
            if casing is not None:
                self.polygon(tip, fill=None, outline=casing, width=4)
            self.polygon(tip, fill=fill)

    def png(self) -> bytes:
        """Scale down once and encode; no metadata, so the same drawing gives the same bytes.

        A 192-colour palette keeps anti-aliased edges smooth and makes the file about 2.5
        times smaller and faster to encode than 24-bit RGB (measured: 135 kB in 47 ms
        against 305 kB in 115 ms for a full area map).
        """
        return png_bytes(self.image.reduce(SCALE).quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE))


@cached(maxsize=2048)
def _text_mask(text: str, size: int, anchor: str, stroke: int) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage mask of ``text`` at ``size`` (drawn scale) and its offset from the anchor."""
    f = font(size)
    with _FONT_LOCK:
        # From cached glyphs where that gives Pillow's very pixels (render.textglyphs: a new
        # bold label's mask in a third of the time), else by Pillow.
        built = textglyphs.text_mask(f, text, anchor, stroke)
        if built is not None:
            return built
        left, top, right, bottom = f.getbbox(text, anchor=anchor, stroke_width=stroke)
        # FreeType boxes are whole pixels (typed float in Pillow's stubs).
        left, top, right, bottom = int(left), int(top), int(right), int(bottom)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255)
    return mask, (left, top)


@cached(maxsize=8192)
def _text_size(text: str, size: int) -> tuple[float, float]:
    if not text:
        return (0.0, float(size))
    with _FONT_LOCK:
        x0, _, x1, _ = font(size).getbbox(text, anchor="ls")
        # Height is the font's line height so rows of text line up whatever their letters.
        ascent, descent = font(size).getmetrics()
    return ((x1 - min(x0, 0)) / SCALE, (ascent + descent) / SCALE)


@cached(maxsize=256)
def ink_height(text: str, size: int) -> float:
    """How far below its top the ink of ``text`` reaches when drawn top-anchored (``mt``),
    in final pixels: digits end well above a line's full height."""
    with _FONT_LOCK:
        return font(size).getbbox(text, anchor="mt")[3] / SCALE


def fit_text(text: str, size: int, max_width: float) -> str:
    """``text`` cut with ``..`` so it fits ``max_width`` at ``size``."""
    if _text_size(text, size)[0] <= max_width:
        return text
    while text and _text_size(text + "..", size)[0] > max_width:
        text = text[:-1]
    return text + ".."


def wrap(text: str, size: int, max_width: float) -> list[str]:
    """Greedy word wrap into lines no wider than ``max_width``."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}".strip()
        if current and _text_size(trial, size)[0] > max_width:
            lines.append(current)
            current = word
        else:
            current = trial
    if current:
        lines.append(current)
    return [fit_text(line, size, max_width) for line in lines]


# -- the frame: the picture at final size, composed from anti-aliased pieces --------------------


#: One drawing step of a :class:`Frame`: the final-pixel box it may touch, and how to do
#: it on an image whose top-left is at a given final-pixel point.
Op = tuple[tuple[int, int, int, int], "Callable[[Image.Image, int, int], None]"]


class Frame:
    """The finished picture at final size (RGB), built from pieces drawn at :data:`SCALE`.

    Drawing a whole snapshot at twice its size and reducing it cost most of a snapshot's
    time (bench/run.py).  A frame instead starts from a cached, already reduced static layer
    and composites each piece: a cached chip or strip (reduced once), a text mask (reduced
    once), or a small transparent :class:`Canvas` patch for a drawn shape (:meth:`later`).
    Every piece is reduced with premultiplied alpha, so edges stay anti-aliased.  The same
    pieces in the same order give the same pixels whatever was cached before: an
    incremental snapshot is byte-identical to one rendered from cold caches (tested).

    Each piece is kept as a step (:data:`Op`: the box it may touch and how to draw it),
    and nothing is drawn until pixels are asked for: :attr:`image` draws every step once,
    :meth:`crop` only the steps that touch its box, on an image of that box alone (issue
    41: the focus picture is a crop of the board, and composing the whole board for it was
    38-67% of its render).  Every step lands on whole final pixels, so a crop's pixels are
    exactly those of the whole picture there.

    A frame offers the :class:`Canvas` drawing methods, each drawn in its own patch, so the
    shared drawing code (chips, pills, marks, headers) works on either.
    """

    def __init__(self, width: int, height: int, background: str = "paper",
                 base: Image.Image | None = None) -> None:
        self.width = width
        self.height = height
        self.background = colour(background)
        #: The drawing steps, in order (see the class docstring).
        self.ops: list[Op] = []
        self._image: Image.Image | None = None
        if base is not None:
            self.put(base, 0, 0)
        #: A fixed palette (a "P" image, see :func:`fixed_palette`) for the encode, or None:
        #: an octree of the picture itself.
        self.palette: Image.Image | None = None
        #: Every text drawn, with its size in final pixels (the legibility and glyph tests).
        self.texts: list[tuple[str, int]] = []

    @property
    def image(self) -> Image.Image:
        """The whole picture, every step drawn (once; later steps are drawn on it as made)."""
        if self._image is None:
            self._image = self._drawn((0, 0, self.width, self.height))
        return self._image

    def _drawn(self, box: tuple[int, int, int, int]) -> Image.Image:
        """A new image of ``box`` with every step that touches it drawn, in order."""
        x0, y0, x1, y1 = box
        out = Image.new("RGB", (x1 - x0, y1 - y0), self.background)
        for (a, b, c, d), draw in self.ops:
            if a < x1 and c > x0 and b < y1 and d > y0:
                draw(out, x0, y0)
        return out

    def op(self, box: tuple[int, int, int, int], draw: "Callable[[Image.Image, int, int], None]") -> None:
        """Add a drawing step touching at most ``box`` (final pixels, whole): ``draw(image,
        left, top)`` draws it on an image whose top-left is the final pixel (left, top)."""
        self.ops.append((box, draw))
        if self._image is not None:
            draw(self._image, 0, 0)

    def note_texts(self, texts: Iterable[tuple[str, int]]) -> None:
        """Record texts drawn from a cached piece (a chip, a strip), for the layout's checks."""
        self.texts.extend((t, s) for t, s in texts if t)

    # composing
    def put(self, piece: Image.Image, x: int, y: int) -> None:
        """Composite a final-size piece (RGB: opaque; RGBA: through its alpha) at ``(x, y)``."""
        self.op((x, y, x + piece.width, y + piece.height), _pasting(piece, x, y))

    def paint(self, fill: RGB, x: int, y: int, mask: Image.Image) -> None:
        """Paint ``fill`` through a final-size coverage ``mask`` ("L"; or "1", all or nothing,
        which paints as an "L" mask of 0 and 255 does, and several times faster) whose
        top-left is at ``(x, y)``."""
        if mask.width * mask.height < SOLID_AT and mask.mode != "1":
            self.op((x, y, x + mask.width, y + mask.height),
                    lambda im, ox, oy: im.paste(fill, (x - ox, y - oy), mask))
            return

        def solid(im: Image.Image, ox: int, oy: int) -> None:
            # Pillow fills a colour through a mask several times slower than it pastes an
            # image through one (a mode test per channel per pixel); the blend is the same.
            # Only the part inside ``im`` is pasted.
            x0, y0 = max(x, ox), max(y, oy)
            x1, y1 = min(x + mask.width, ox + im.width), min(y + mask.height, oy + im.height)
            if x0 < x1 and y0 < y1:
                part = mask.crop((x0 - x, y0 - y, x1 - x, y1 - y))
                im.paste(Image.new(im.mode, part.size, fill), (x0 - ox, y0 - oy), part)

        self.op((x, y, x + mask.width, y + mask.height), solid)

    def piece(self, key: tuple[Hashable, ...], box: Box, draw: "Callable[[Canvas], object]", pad: float = 3.0,
              lazy: bool = False, shapes: bool = False) -> None:
        """Composite a piece drawn by ``draw`` over ``box``, cached by ``key`` and the box's
        size and sub-pixel phase (an area's label, an objective tag: the same every time).

        ``key`` must name everything ``draw`` shows; the box's position is added here.
        ``lazy``: the piece is looked up (and drawn, when new) only when pixels it covers
        are first asked for, and its texts are noted then (as :meth:`when_seen`), so a
        label or a base new since the last picture but outside the focus crop is never
        drawn (issue 41: such pieces were a fifth of a table's focus picture); the texts
        noted do not depend on what was cached before.  ``draw`` then runs after the
        caller has moved on: it must not read variables the caller changes later (a loop's).
        ``shapes``: ``draw`` draws opaque shapes only, no text (drawn premultiplied, as
        :meth:`later`: the same pixels without a conversion of the whole patch).
        """
        x0, y0 = math.floor(box[0] - pad), math.floor(box[1] - pad)
        # Exact offsets, not rounded ones: a piece is reused only where it would be drawn
        # the very same (a map's labels sit at the same spots in every snapshot).
        phase = (box[0] - x0, box[1] - y0, box[2] - box[0], box[3] - box[1])
        ident = (key, phase, pad)
        # The reduced piece is exactly this size: its canvas is, at drawing scale.
        w, h = math.ceil(box[2] + pad) - x0 + 1, math.ceil(box[3] + pad) - y0 + 1
        if not lazy:
            image, texts = _piece_image(ident, (x0, y0, w, h), draw, shapes)
            self.op((x0, y0, x0 + w, y0 + h), _compositing(image, x0, y0))
            self.texts.extend(texts)
            return
        made: list[Callable[[Image.Image, int, int], None]] = []

        def paint(im: Image.Image, ox: int, oy: int) -> None:
            if not made:
                image, texts = _piece_image(ident, (x0, y0, w, h), draw, shapes)
                self.texts.extend(texts)
                made.append(_compositing(image, x0, y0))
            made[0](im, ox, oy)

        self.op((x0, y0, x0 + w, y0 + h), paint)

    def later(self, box: Box, pad: float, draw: "Callable[[Canvas], object]", shapes: bool = False,
              key: tuple[Hashable, ...] | None = None, points: Sequence[tuple[float, float]] = ()) -> None:
        """A shape drawn by ``draw`` on a transparent drawing-scale patch over ``box`` (final
        pixels, padded by ``pad``) and composited, only when pixels it touches are asked for
        (and then once): a shape out of the focus crop is never drawn (the class docstring).
        ``shapes``: ``draw`` draws opaque shapes only, no text (the patch is then drawn
        premultiplied, :class:`Canvas`).  ``key`` and ``points``: name all ``draw`` draws,
        ``points`` being every place it reads (final pixels), so the patch is kept for the
        next pictures: a patch depends only on those points less its whole-pixel origin
        (exact in floating point), so the same shape at the same sub-pixel phase anywhere
        (a die, a unit's frame, a mark that stays) is drawn once (issue 41: these patches
        were a fifth of a network map's focus picture)."""
        x0, y0 = math.floor(box[0] - pad - 2), math.floor(box[1] - pad - 2)
        x1, y1 = max(math.ceil(box[2] + pad + 2), x0 + 1), max(math.ceil(box[3] + pad + 2), y0 + 1)
        ident = None if key is None else (key, tuple((x - x0, y - y0) for x, y in points), x1 - x0, y1 - y0, shapes)
        done: list[Image.Image] = []

        def patch(left: int, top: int, right: int, bottom: int) -> Image.Image:
            canvas = Canvas(max(1, right - left), max(1, bottom - top), background=None, origin=(left, top),
                            premultiplied=shapes)
            draw(canvas)
            return canvas.reduced()

        def paint(im: Image.Image, ox: int, oy: int) -> None:
            # Drawn whole even where a crop shows part of it: Pillow rounds a shape's
            # points past a patch's edge (negative) otherwise than inside it, so a patch cut
            # to the crop moved the pixels along a mark's whole line.
            if not done:
                whole = MISSING if ident is None else recall(_LATER, ident)
                if whole is MISSING:
                    whole = patch(x0, y0, x1, y1)
                    if ident is not None:
                        keep(_LATER, ident, whole, LATER_KEPT)
                done.append(whole)
            im.paste(done[0], (x0 - ox, y0 - oy), done[0])

        self.op((x0, y0, x1, y1), paint)

    def when_seen(self, box: tuple[int, int, int, int],
                  make: "Callable[[], tuple[Image.Image, tuple[tuple[str, int], ...]]]") -> None:
        """An opaque piece over ``box`` from its top-left, made by ``make`` (the image and the
        texts it shows) only when pixels it covers are first asked for: its texts are noted
        then (a header strip the focus picture never shows is never drawn)."""
        done: list[Image.Image] = []

        def paint(im: Image.Image, ox: int, oy: int) -> None:
            if not done:
                image, texts = make()
                done.append(image)
                self.note_texts(texts)
            im.paste(done[0], (box[0] - ox, box[1] - oy))

        self.op(box, paint)

    def paste(self, patch: Image.Image, x: float, y: float) -> None:
        """Paste a transparent patch drawn at drawing scale (a cached chip) at ``(x, y)``."""
        x2, y2 = round(x * SCALE), round(y * SCALE)
        piece, (dx, dy) = _reduced_patch(patch, x2 % SCALE, y2 % SCALE)
        self.put(piece, x2 // SCALE + dx, y2 // SCALE + dy)

    def paste_made(self, make: Callable[[], Image.Image], size: tuple[float, float], x: float,
                   y: float) -> None:
        """:meth:`paste` the patch ``make()`` returns, at most ``size`` final pixels (less one
        on each axis), made and reduced only when pixels it covers are first asked for: a
        chip outside the focus crop is never looked up, drawn or reduced (issue 41: a new
        chip's patch was a few ms of an area map's focus picture wherever it lay).  The
        same pixels as :meth:`paste` (the step only clips to a box it may touch)."""
        x2, y2 = round(x * SCALE), round(y * SCALE)
        fx, fy = x2 // SCALE, y2 // SCALE
        # The reduced patch is at most its size plus one pixel, plus one for the phase
        # (:func:`_reduced_patch` pads by a drawing pixel or two); a larger box only tests true
        # for crops the paste then clips to nothing.
        box = (fx, fy, fx + math.ceil(size[0]) + 4, fy + math.ceil(size[1]) + 4)
        made: list[Callable[[Image.Image, int, int], None]] = []

        def paint(im: Image.Image, ox: int, oy: int) -> None:
            if not made:
                piece, (dx, dy) = _reduced_patch(make(), x2 % SCALE, y2 % SCALE)
                made.append(_pasting(piece, fx + dx, fy + dy))
            made[0](im, ox, oy)

        self.op(box, paint)

    # text
    def text(self, xy: tuple[float, float], text: str, size: int, fill: RGB,
             anchor: str = "la", halo: RGB | None = None, bold: bool = False) -> None:
        """Text as :meth:`Canvas.text` draws it, from a mask reduced once and cached."""
        if size < SMALL:
            raise ValueError(f"text size {size} is below the {SMALL} px minimum")
        self.texts.append((text, size))
        x2, y2 = round(xy[0] * SCALE), round(xy[1] * SCALE)
        if halo is not None:
            mask, (ox, oy) = _small_mask(text, size, anchor, 3 * SCALE, x2, y2)
            self.paint(halo, ox, oy, mask)
        mask, (ox, oy) = _small_mask(text, size, anchor, 1 if bold else 0, x2, y2)
        self.paint(fill, ox, oy, mask)

    def text_in(self, box: Box, text: str, size: int, fill: RGB, bold: bool = False,
                halo: RGB | None = None) -> None:
        """Text centred in ``box``."""
        self.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size, fill,
                  anchor="mm", bold=bold, halo=halo)

    text_size = staticmethod(Canvas.text_size)

    # shapes, each in its own patch, drawn when its pixels are asked for
    def rect(self, box: Box, fill: RGB | None = None, outline: RGB | None = None,
             width: float = 1, radius: float = 0) -> None:
        """A (rounded) rectangle; a plain opaque one is filled directly."""
        if outline is None and radius <= 0 and fill is not None:
            x0, y0, x1, y1 = (round(v) for v in box)
            self.op((x0, y0, max(x1, x0 + 1), max(y1, y0 + 1)),
                    lambda im, ox, oy: im.paste(fill, (x0 - ox, y0 - oy, x1 - ox, y1 - oy)))
            return
        self.later(box, width, lambda c: c.rect(box, fill, outline, width, radius), shapes=True,
                   key=("rect", fill, outline, width, radius),
                   points=((box[0], box[1]), (box[2], box[3])))

    def polygon(self, points: Sequence[tuple[float, float]], fill: RGB | None = None,
                outline: RGB | None = None, width: float = 1) -> None:
        """A filled and/or outlined polygon."""
        pts = list(points)
        self.later(_bounds(pts), width, lambda c: c.polygon(pts, fill, outline, width), shapes=True,
                   key=("polygon", fill, outline, width), points=pts)

    def ellipse(self, cx: float, cy: float, r: float, fill: RGB | None = None,
                outline: RGB | None = None, width: float = 1) -> None:
        """A circle."""
        self.later((cx - r, cy - r, cx + r, cy + r), width, lambda c: c.ellipse(cx, cy, r, fill, outline, width), shapes=True,
                   key=("ellipse", r, fill, outline, width), points=((cx, cy),))

    def line(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 2) -> None:
        """A polyline."""
        pts = list(points)
        self.later(_bounds(pts), width, lambda c: c.line(pts, fill, width), shapes=True,
                   key=("line", fill, width), points=pts)

    def dashed(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 2,
               dash: float = 12, gap: float = 8) -> None:
        """A dashed polyline, its dashes in patches of a few each: one patch over the whole
        line's box, mostly clear, was most of its cost (issue 41: a long slanting fire line
        0.8 ms).  Dashes never share a pixel along a segment (the gap is wider than the
        anti-aliased edge), so the pixels are those of one patch.  Each patch is kept by
        its dashes' ends (:meth:`later`: a dashed line that stays is drawn once)."""
        for part in _dash_runs(points, dash, gap):
            ends = [p for d in part for p in d]
            self.later(_bounds(ends), width, partial(_draw_dashes, part, fill, width), shapes=True,
                       key=("dashes", fill, width), points=ends)

    def badge(self, cx: float, cy: float, size: float, look: SideLook,
              letter_size: int = SMALL) -> None:
        """A side badge (its letter noted twice, as the patch and the frame each did)."""
        r = size * 0.75 + 2
        self.later((cx - r, cy - r, cx + r, cy + r), 2, lambda c: c.badge(cx, cy, size, look, letter_size))
        self.texts += [(look.letter, letter_size), (look.letter, letter_size)]

    def arrow(self, points: Sequence[tuple[float, float]], fill: RGB, width: float = 5,
              head: float = 18, dashed: bool = False, casing: RGB | None = None,
              part: str = "all") -> None:
        """An arrow (its head alone in a patch over the head: a patch over the whole line's
        box, mostly clear, was most of the cost of drawing a mark's head)."""
        pts = list(points)
        reach = _bounds(arrow_tip(pts, head)) if part == "head" and len(pts) > 1 else _bounds(pts)
        self.later(reach, width + head, lambda c: c.arrow(pts, fill, width, head, dashed, casing, part), shapes=True,
                   key=("arrow", fill, width, head, dashed, casing, part), points=pts)

    def arc(self, box: Box, start: float, end: float, fill: RGB, width: float,
            pie: RGB | None = None) -> None:
        """An arc or a filled wedge."""
        self.later(box, width, lambda c: c.arc(box, start, end, fill, width, pie), shapes=True,
                   key=("arc", start, end, fill, width, pie), points=((box[0], box[1]), (box[2], box[3])))

    # out
    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        """Part of the picture (the focus view's board): only the steps that touch it are
        drawn, on an image of it alone; the very pixels of :attr:`image` there."""
        if self._image is not None:
            return self._image.crop(box)
        return self._drawn(box)

    def png(self) -> bytes:
        """Quantize and encode (see :func:`encode`)."""
        return encode(self.image, self.palette)


#: What the shared drawing code (chips, pills, marks, labels, panels) draws on: a drawing-scale
#: :class:`Canvas` (a cached strip or patch) or the final-size :class:`Frame`, which offers the
#: same drawing methods.
Surface: TypeAlias = "Canvas | Frame"


def piece(canvas: Surface, key: tuple[Hashable, ...], box: Box, draw: Callable[[Canvas], object],
          lazy: bool = False) -> None:
    """Draw a piece that looks the same wherever it goes (``key`` names all it shows):
    cached on a frame (:meth:`Frame.piece`, ``lazy`` as there), direct on a canvas."""
    if isinstance(canvas, Frame):
        canvas.piece(key, box, draw, lazy=lazy)
    else:
        draw(canvas)


def encode(image: Image.Image, palette: Image.Image | None = None) -> bytes:
    """A 192-colour PNG with no metadata: the same picture always gives the same bytes.

    A palette keeps anti-aliased edges smooth and makes the file about 2.5 times smaller and
    faster to encode than 24-bit RGB (measured: 135 kB in 47 ms against 305 kB in 115 ms for
    a full area map).  With a fixed ``palette`` (built once per map) the mapping is four
    times faster than an octree of each picture (3 ms against 14 ms for a full map).
    """
    if palette is not None:
        small = image.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        small = image.quantize(PNG_COLOURS, method=Image.Quantize.FASTOCTREE)
    return png_bytes(small)


#: The eight bytes every PNG file starts with.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_bytes(small: Image.Image) -> bytes:
    """The PNG file of a palette ("P") image: its palette, its rows unfiltered (a palette
    picture's rows gain nothing from PNG's filters, which Pillow does not use on one either),
    deflated by ISA-L and no metadata, so the same pixels always give the same bytes.

    ISA-L's level 2 deflates a focus picture in 0.9 ms where Pillow's zlib-ng at level 3
    took 5.7 ms, for a file 3% bigger (49.0 against 47.6 kB; issue 41: the encode was a
    fifth of every system's focus picture).
    """
    if small.mode != "P" or (small.palette is not None and small.palette.mode != "RGB") \
            or "transparency" in small.info:
        # This writer has no tRNS chunk: a transparent picture would come out opaque.
        raise ValueError(f"png_bytes writes opaque palette pictures only, not {small.mode} "
                         f"({'with transparency' if 'transparency' in small.info else 'this palette'})")
    w, h = small.size
    # Each row of a PNG opens with its filter byte (0: none): a one-pixel column of index 0
    # left of the picture gives the rows so in one C-level paste.
    rows = Image.new("P", (w + 1, h), 0)
    rows.paste(small, (1, 0))
    palette = small.getpalette() or [0, 0, 0]
    colours = min(len(palette) // 3, 256)
    return b"".join((
        PNG_SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", bytes(palette[:3 * colours])),
        _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), PNG_LEVEL)),
        _chunk(b"IEND", b""),
    ))


def _chunk(tag: bytes, data: bytes) -> bytes:
    """One PNG chunk: its length, tag, data and the CRC of tag and data."""
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))


def arrow_base(points: Sequence[tuple[float, float]], head: float) -> tuple[float, float]:
    """Where the shaft of an arrow along ``points`` (two or more) meets its head."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.dist((x0, y0), (x1, y1)) or 1.0
    return (x1 - (x1 - x0) / length * head, y1 - (y1 - y0) / length * head)


def arrow_tip(points: Sequence[tuple[float, float]], head: float) -> list[tuple[float, float]]:
    """The head of an arrow along ``points`` (two or more): its point and its two wings."""
    (x0, y0), (x1, y1) = points[-2], points[-1]
    length = math.dist((x0, y0), (x1, y1)) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    base = arrow_base(points, head)
    wing = head * 0.55
    return [(x1, y1), (base[0] - uy * wing, base[1] + ux * wing), (base[0] + uy * wing, base[1] - ux * wing)]


#: About how long a run of dashes one patch of :meth:`Frame.dashed` holds (final pixels).
DASHED_PATCH = 60


Dash: TypeAlias = "tuple[tuple[float, float], tuple[float, float]]"


def _segment_dashes(points: Sequence[tuple[float, float]], dash: float, gap: float) -> list[list[Dash]]:
    """The dashes of a dashed polyline along ``points``, segment by segment: each segment
    starts a dash at its first point, then ``dash`` drawn and ``gap`` left, the last dash
    cut at its end."""
    out = []
    for a, b in zip(points, points[1:]):
        length = math.dist(a, b)
        if length == 0:
            continue
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        pos, segment = 0.0, []
        while pos < length:
            end = min(pos + dash, length)
            segment.append(((a[0] + ux * pos, a[1] + uy * pos), (a[0] + ux * end, a[1] + uy * end)))
            pos = end + gap
        out.append(segment)
    return out


def _dash_runs(points: Sequence[tuple[float, float]], dash: float, gap: float) -> list[list[Dash]]:
    """The dashes of a polyline in runs of about :data:`DASHED_PATCH` pixels, cut only
    between two dashes of one segment: the two dashes that meet at a corner may share a
    pixel, so they stay in one patch and are drawn as before."""
    per = max(1, math.ceil(DASHED_PATCH / (dash + gap)))
    runs: list[list[Dash]] = []
    for segment in _segment_dashes(points, dash, gap):
        for k, d in enumerate(segment):
            if runs and (k == 0 or len(runs[-1]) < per):
                runs[-1].append(d)
            else:
                runs.append([d])
    return runs


def _draw_dashes(run: Sequence[Dash], fill: RGB, width: float,
                 canvas: Canvas) -> None:
    """Draw the dashes ``run`` (:func:`_dash_runs`) on ``canvas``, as :meth:`Canvas.dashed` does."""
    for a, b in run:
        canvas.line([a, b], fill, width)


def _bounds(points: Sequence[tuple[float, float]]) -> Box:
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    return (min(xs), min(ys), max(xs), max(ys))


def _pasting(piece: Image.Image, x: int, y: int) -> "Callable[[Image.Image, int, int], None]":
    """The drawing step compositing a final-size ``piece`` (RGBA: through its alpha) with
    its top-left at ``(x, y)`` (:meth:`Frame.put`)."""
    if piece.mode == "RGBA":
        return lambda im, ox, oy: im.paste(piece, (x - ox, y - oy), piece)
    return lambda im, ox, oy: im.paste(piece, (x - ox, y - oy))


def _compositing(piece: Image.Image, x: int, y: int) -> "Callable[[Image.Image, int, int], None]":
    """The drawing step compositing a cached piece at ``(x, y)``: a big one with an alpha
    by its tiles (:func:`_tiled`), any other whole (:func:`_pasting`)."""
    if piece.mode == "RGBA" and piece.width * piece.height >= TILED_AT:
        return _tiled(piece, x, y)
    return _pasting(piece, x, y)


def _piece_image(ident: tuple[Hashable, ...], where: tuple[int, int, int, int],
                 draw: "Callable[[Canvas], object]",
                 shapes: bool = False) -> tuple[Image.Image, tuple[tuple[str, int], ...]]:
    """The reduced image and the texts of the piece ``ident`` (:meth:`Frame.piece`), drawn by
    ``draw`` on a transparent canvas ``where`` (left, top, width, height) when not cached
    (premultiplied with ``shapes``: opaque shapes only)."""
    with _REDUCED_LOCK:
        hit = _PIECES.get(ident)
    if hit is None:
        x0, y0, w, h = where
        canvas = Canvas(w, h, background=None, origin=(x0, y0), premultiplied=shapes)
        draw(canvas)
        hit = (canvas.reduced(), tuple(canvas.texts))
        with _REDUCED_LOCK:
            if len(_PIECES) > 4096:
                _PIECES.clear()
            _PIECES[ident] = hit
    return hit


def _tiled(piece: Image.Image, x: int, y: int) -> "Callable[[Image.Image, int, int], None]":
    """The drawing step compositing a big cached piece (a range ring, a fire arc) tile by
    tile: clear tiles are skipped and opaque ones copied (a ring's box is mostly clear, and
    compositing it whole was a sixth of a table's focus crop).  The same pixels: a clear
    pixel composites to what was under it, an opaque one to itself."""
    tiles = _tiles_of(piece)

    def draw(im: Image.Image, ox: int, oy: int) -> None:
        # Pillow's own core paste, which clips to ``im`` as ``Image.paste`` does: the
        # checks around it cost more than a small tile's pixels.
        core = im.im
        for tx, ty, tile, opaque in tiles:
            px, py = x + tx - ox, y + ty - oy
            w, h = tile.size
            if px < im.width and py < im.height and px + w > 0 and py + h > 0:
                if opaque:
                    core.paste(tile.im, (px, py, px + w, py + h))
                else:
                    core.paste(tile.im, (px, py, px + w, py + h), tile.im)

    return draw


_REDUCED: "dict[tuple[int, int, int], tuple[Image.Image, Image.Image, tuple[int, int]]]" = {}
#: The held cache of :meth:`Frame.later`'s keyed patches, and how many it keeps (a focus
#: picture draws about ten, most under 60 kB each, within the shared budget).
_LATER = "render.style.Frame.later"
LATER_KEPT = 128
#: A cached piece at least this big (pixels) is composited by tiles (:func:`_tiled`).
TILED_AT = 96 * 96
#: The tiles' side (final pixels).
TILE = 32
#: Each big cached piece's tiles, by the piece's id (the piece kept, so the id stays its).
_TILES: "dict[int, tuple[Image.Image, list[tuple[int, int, Image.Image, bool]]]]" = {}
_REDUCED_LOCK = threading.Lock()
_PIECES: "dict[tuple[Hashable, ...], tuple[Image.Image, tuple[tuple[str, int], ...]]]" = {}


@on_clear
def _forget_patches() -> None:
    """Empty the reduced patches and the drawn pieces (:mod:`render.caches`)."""
    with _REDUCED_LOCK:
        _REDUCED.clear()
        _PIECES.clear()
        _TILES.clear()


def _tiles_of(piece: Image.Image) -> list[tuple[int, int, Image.Image, bool]]:
    """The tiles of an RGBA piece that are not clear: ``(x, y, tile, opaque)``, an opaque
    one as RGB (cached by piece)."""
    with _REDUCED_LOCK:
        hit = _TILES.get(id(piece))
        if hit is not None and hit[0] is piece:
            return hit[1]
    alpha = piece.getchannel("A")
    tiles: list[tuple[int, int, Image.Image, bool]] = []
    for ty in range(0, piece.height, TILE):
        for tx in range(0, piece.width, TILE):
            box = (tx, ty, min(tx + TILE, piece.width), min(ty + TILE, piece.height))
            low, high = alpha.crop(box).getextrema()
            if high == 0:
                continue
            tile = piece.crop(box)
            tiles.append((tx, ty, tile.convert("RGB") if low == 255 else tile, low == 255))
    with _REDUCED_LOCK:
        if len(_TILES) > 1024:
            _TILES.clear()
        _TILES[id(piece)] = (piece, tiles)
    return tiles


def _reduced_patch(patch: Image.Image, px: int, py: int) -> tuple[Image.Image, tuple[int, int]]:
    """A drawing-scale patch reduced to final size for a sub-pixel phase (cached by patch).

    The patch is shifted by the phase before reducing, so a chip lands where the drawing-
    scale paste would have put it.
    """
    key = (id(patch), px, py)
    with _REDUCED_LOCK:
        hit = _REDUCED.get(key)
        if hit is not None and hit[0] is patch:
            return hit[1], hit[2]
    w, h = patch.size
    shifted = Image.new("RGBA", (w + px + SCALE, h + py + SCALE), (0, 0, 0, 0))
    shifted.paste(patch, (px, py))
    piece = shifted.convert("RGBa").reduce(SCALE).convert("RGBA")
    with _REDUCED_LOCK:
        if len(_REDUCED) > 4096:
            _REDUCED.clear()
        _REDUCED[key] = (patch, piece, (0, 0))
    return piece, (0, 0)


@cached(maxsize=4096)
def _small_mask(text: str, size: int, anchor: str, stroke: int, x2: int,
                y2: int) -> tuple[Image.Image, tuple[int, int]]:
    """The final-size coverage mask of a text whose anchor is at ``(x2, y2)`` drawing pixels,
    and the final-pixel position of its top-left.  Keyed by position so the sub-pixel phase
    and the placement are exact; the drawing-scale mask itself is shared (:func:`_text_mask`).
    """
    mask, (ox, oy) = _text_mask(text, size, anchor, stroke)
    left, top = x2 + ox, y2 + oy
    fx, fy = left // SCALE, top // SCALE
    px, py = left - fx * SCALE, top - fy * SCALE
    w, h = mask.size
    padded = Image.new("L", (w + px + SCALE, h + py + SCALE), 0)
    padded.paste(mask, (px, py))
    return padded.reduce(SCALE), (fx, fy)


def fixed_palette(base: Image.Image, colours: Sequence[RGB]) -> Image.Image:
    """A palette image for :func:`encode`: the chrome's and the view's colours exactly, each
    with tints and shades for anti-aliased edges, a grey ramp for text, and an octree of
    ``base`` (the static map) for the rest.  A pure function of its inputs, so a snapshot
    encodes the same whatever was rendered before.
    """
    wanted: list[RGB] = []
    for rgb in list(colours) + [PALETTE[k] for k in ("ink", "ink_soft", "paper", "panel",
                                                       "header", "header_ink", "halo", "grid",
                                                       "changed", "objective_main",
                                                       "objective_secondary", "edge")]:
        for c in (rgb, tint(rgb, 0.4), tint(rgb, 0.8), shade(rgb, 0.35)):
            if c not in wanted:
                wanted.append(c)
    for k in range(0, 256, 32):
        if (k, k, k) not in wanted:
            wanted.append((k, k, k))
    wanted = wanted[:PNG_COLOURS - 64]
    rest = PNG_COLOURS - len(wanted)
    octree = base.convert("RGB").quantize(rest, method=Image.Quantize.FASTOCTREE)
    octree_palette = octree.getpalette()
    assert octree_palette is not None  # a quantized ("P") image always has one
    values = [v for c in wanted for v in c] + octree_palette[: rest * 3]
    values += [0] * (PNG_COLOURS * 3 - len(values))
    palette = Image.new("P", (1, 1))
    palette.putpalette(values)
    return palette
