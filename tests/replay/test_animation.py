"""render/animation.py and render/tiles.py on their own: frames in, a GIF out; pictures in,
tiles out and the same pictures back."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageSequence

from render.animation import (
    CAPTION_SIZE, FRAME_MS, LAST_FRAME_MS, MIN_SCALE, ReplayFrame, animate, canvas_height, caption_height,
    caption_lines, compose,
)
from render.style import SMALL
from render.tiles import TILE, rebuild, tile_pictures


def png(size: tuple[int, int], colour: tuple[int, int, int], mark: tuple[int, int] | None = None) -> bytes:
    """A plain picture, with a black square at ``mark``."""
    image = Image.new("RGB", size, colour)
    if mark:
        image.paste((0, 0, 0), (*mark, mark[0] + 20, mark[1] + 20))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_a_frame_per_picture_on_one_canvas_that_loops():
    frames = [ReplayFrame(png=png((600, 400), (200, 220, 200)), caption="#1 alice (nato): move"),
              ReplayFrame(png=png((750, 500), (220, 200, 200)), caption="#2 bob (soviet): fire"),
              ReplayFrame(png=png((560, 380), (200, 200, 220)), caption="#3 alice (nato): pass")]
    made = animate(frames)
    gif = Image.open(io.BytesIO(made.gif))
    assert gif.format == "GIF" and gif.n_frames == made.frames == 3
    assert gif.size == (made.width, made.height)
    # The middle height (400), or 0.8 of the tallest (500 → 400): the tall one is shrunk.
    assert made.width == 600 and 400 < made.height < 500  # under a caption
    assert gif.info["loop"] == 0
    durations = [f.info["duration"] for f in ImageSequence.Iterator(gif)]
    assert durations == [FRAME_MS, FRAME_MS, LAST_FRAME_MS]


def test_the_caption_is_drawn_above_each_picture_and_differs_with_the_step():
    pictures = [Image.new("RGB", (600, 300), (240, 240, 240))] * 2
    one, two = compose(pictures, ["#1 alice (nato): move unit:A to:3", "#2 bob (soviet): pass"])
    strip = (0, 0, 600, 40)
    assert ImageChops.difference(one.crop(strip), two.crop(strip)).getbbox() is not None
    # The picture itself is the same under both captions.
    assert ImageChops.difference(one.crop((0, 60, 600, 300)), two.crop((0, 60, 600, 300))).getbbox() is None


def test_a_long_caption_wraps_and_is_cut_at_three_lines():
    long = "#7 alice (nato): " + "move unit:INF-DE1 to:12 " * 20
    lines = caption_lines(long, 600)
    assert len(lines) == 3 and lines[-1].endswith("..")
    assert CAPTION_SIZE >= SMALL  # the house minimum text size


def test_one_tall_picture_does_not_pad_every_frame_with_blank():
    """Issue 25 point 14: frames were padded to the tallest picture (up to 40% blank).  The
    canvas is the middle height or 0.8 of the tallest; the tall picture is shrunk no more."""
    sizes = [(750, 600), (750, 620), (750, 640), (750, 610), (750, 1000)]
    pictures = [Image.new("RGB", size, (30, 60, 90)) for size in sizes]
    frames = compose(pictures, ["#1 a"] * len(pictures))
    strip = caption_height(1)
    room = frames[0].height - strip
    assert room == 800 == canvas_height([h for _, h in sizes])
    for (w, h), frame in zip(sizes, frames):
        # The picture's own pixels (dark) start under the caption; the blank is what is left.
        box = Image.eval(frame.crop((0, strip, frame.width, frame.height)).convert("L"),
                         lambda v: 255 if v < 80 else 0).getbbox()
        assert box is not None and box[1] == 0
        shown_h = box[3] - box[1]
        assert shown_h == min(h, room)
        assert (room - shown_h) / room <= 0.25  # at most a quarter blank (was 40% at 600/1000)
        if h > room:
            assert (box[2] - box[0]) == round(w * room / h) >= round(w * MIN_SCALE)


def test_no_frames_is_an_error():
    with pytest.raises(ValueError):
        animate([])


def test_tiles_give_back_every_picture_exactly_and_keep_repeated_tiles_once():
    pictures = [png((300, 200), (200, 220, 200)), png((300, 200), (200, 220, 200), mark=(10, 10)),
                png((300, 260), (200, 220, 200), mark=(250, 150))]
    mosaic = tile_pictures(pictures)
    for k, picture in enumerate(pictures):
        original = Image.open(io.BytesIO(picture)).convert("RGB")
        assert ImageChops.difference(rebuild(mosaic, k), original).getbbox() is None
    per_picture = -(-300 // TILE) * -(-200 // TILE)
    # The second picture changes one tile of the first; the third adds a row and one changed tile.
    assert len(mosaic.tiles) < 3 * per_picture
    assert mosaic.frames[0].tiles[1:] == mosaic.frames[1].tiles[1:]


def test_the_readme_shows_a_replay_gif_from_docs_img():
    from pathlib import Path

    readme = Path("README.md").read_text("utf-8")
    assert "docs/img/tannenbruck-replay.gif" in readme
    gif = Image.open("docs/img/tannenbruck-replay.gif")
    assert gif.format == "GIF" and gif.n_frames >= 5 and gif.width <= 750
    assert Path("docs/img/tannenbruck-replay.gif").stat().st_size < 1_000_000
