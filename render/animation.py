"""The step-through replay as one animated GIF: a frame per snapshot, the step's line as its
caption (issue 19, item 5).

Why GIF and not APNG: Discord plays a GIF inline in the chat on every client, phones
included; an APNG attachment shows as a still picture there.  A GIF's LZW is weaker than
PNG's deflate, so the file is kept small in three ways:

* **the phone-width pictures** (:func:`render.focus`, at most 750 px wide) rather than the
  1280-px map: they read inline at ~400 px, and are a third of the pixels;
* **one palette for every frame** (an octree of a sample of the frames, no dithering), so an
  area that did not change between two frames has the same index bytes in both;
* **only what changed is stored**: Pillow writes each frame after the first as the box that
  differs from the frame before (same palette, so the comparison is exact).

Measured on 100-order games of the area-map system (67 to 78 snapshots): 3.5 to 4.5 MB,
against Discord's 8 MB upload limit (``tests/replay`` and ``bench/run.py`` measure it).

A GIF has one canvas size for every frame.  It is as wide as the widest picture and as tall
as the middle picture's height, or :data:`MIN_SCALE` of the tallest if that is more; a taller
picture is shrunk to fit (never below :data:`MIN_SCALE`), a shorter one keeps its size.  So
one tall picture (a battle panel, a long legend) no longer pads every other frame with blank
paper (issue 25 point 14: up to 40% of a frame was blank).  Pictures are centred
horizontally, under a caption strip of fixed height (the tallest caption), at the top, so the
map does not jump as the animation plays.
"""

from __future__ import annotations

import io
import math
from typing import Sequence

from PIL import Image
from pydantic import BaseModel, ConfigDict

from render.style import BODY, MARGIN, PALETTE, Frame, clean, wrap

#: How long each frame shows, and the last one (so a loop's end is seen), in milliseconds.
FRAME_MS = 1600
LAST_FRAME_MS = 4000
#: The caption's text size (final pixels) and the most lines a caption may take.
CAPTION_SIZE = BODY
CAPTION_LINES = 3
CAPTION_LINE_H = round(CAPTION_SIZE * 1.3)
#: Colours in the shared palette (GIF allows 256; one is kept spare).
GIF_COLOURS = 255
#: How many frames the shared palette is sampled from.
PALETTE_SAMPLES = 6
#: The least a picture taller than the canvas is shrunk to (its 17-px text stays 13.6 px).
MIN_SCALE = 0.8


class ReplayFrame(BaseModel):
    """One frame: a rendered picture (PNG bytes) and the line written above it."""

    model_config = ConfigDict(frozen=True)

    png: bytes
    caption: str


class Animation(BaseModel):
    """The encoded replay: GIF bytes, the canvas size and how many frames it holds."""

    model_config = ConfigDict(frozen=True)

    gif: bytes
    width: int
    height: int
    frames: int


def caption_lines(text: str, width: int) -> list[str]:
    """The caption wrapped to ``width`` (at most :data:`CAPTION_LINES` lines, the last cut
    with ``..`` when the text is longer)."""
    lines = wrap(clean(text), CAPTION_SIZE, width - 2 * MARGIN) or [""]
    if len(lines) > CAPTION_LINES:
        lines = lines[:CAPTION_LINES]
        lines[-1] = lines[-1].rstrip(".") + ".."
    return lines


def caption_height(lines: int) -> int:
    """The caption strip's height for ``lines`` lines."""
    return lines * CAPTION_LINE_H + MARGIN + 6


def canvas_height(heights: Sequence[int]) -> int:
    """The pictures' part of the canvas: the middle height, or :data:`MIN_SCALE` of the
    tallest if that is more (see the module docstring)."""
    ordered = sorted(heights)
    return max(ordered[(len(ordered) - 1) // 2], math.ceil(ordered[-1] * MIN_SCALE))


def fitted(picture: Image.Image, height: int) -> Image.Image:
    """``picture`` (RGB), shrunk to ``height`` if it is taller."""
    picture = picture.convert("RGB")
    if picture.height <= height:
        return picture
    scale = height / picture.height
    return picture.resize((max(1, round(picture.width * scale)), height), Image.Resampling.LANCZOS)


def compose(pictures: Sequence[Image.Image], captions: Sequence[str]) -> list[Image.Image]:
    """Each picture on the common canvas under its caption (RGB images, all one size)."""
    room = canvas_height([p.height for p in pictures])
    shown = [fitted(p, room) for p in pictures]
    width = max(p.width for p in shown)
    wrapped = [caption_lines(c, width) for c in captions]
    strip = caption_height(max(len(w) for w in wrapped))
    height = strip + room
    frames = []
    for picture, lines in zip(shown, wrapped):
        frame = Frame(width, height)
        frame.rect((0, 0, width, strip), fill=PALETTE["header"])
        for k, line in enumerate(lines):
            frame.text((MARGIN, MARGIN // 2 + 3 + k * CAPTION_LINE_H), line, CAPTION_SIZE,
                       PALETTE["header_ink"])
        frame.put(picture, (width - picture.width) // 2, strip)
        frames.append(frame.image)
    return frames


def shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame: an octree of a few frames spread over the replay."""
    count = min(PALETTE_SAMPLES, len(frames))
    picks = [frames[k * (len(frames) - 1) // max(1, count - 1)] for k in range(count)]
    width, height = frames[0].size
    sample = Image.new("RGB", (width, height * len(picks)))
    for k, frame in enumerate(picks):
        sample.paste(frame, (0, height * k))
    return sample.quantize(GIF_COLOURS, method=Image.Quantize.FASTOCTREE)


def animate(frames: Sequence[ReplayFrame]) -> Animation:
    """The replay of ``frames`` as an animated GIF that loops (ValueError if none)."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    pictures = [Image.open(io.BytesIO(f.png)) for f in frames]
    canvas = compose(pictures, [f.caption for f in frames])
    palette = shared_palette(canvas)
    indexed = [c.quantize(palette=palette, dither=Image.Dither.NONE) for c in canvas]
    durations = [FRAME_MS] * (len(indexed) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    indexed[0].save(out, format="GIF", save_all=True, append_images=indexed[1:],
                    duration=durations, loop=0, optimize=False)
    width, height = canvas[0].size
    return Animation(gif=out.getvalue(), width=width, height=height, frames=len(indexed))


__all__ = ["Animation", "ReplayFrame", "animate", "canvas_height", "caption_lines", "compose", "fitted",
           "shared_palette"]
