"""Tiles keyed by a palette picture's indices (``render/tiles.py``, issue 19 item 5; issue
41: the page's tiling): a tile recurs only where its colours recur, never across two
palettes, and every frame comes back exactly from its tiles."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render.tiles import TILE, MosaicBuilder, rebuild


def palette_png(palette: list[int], mark: int) -> bytes:
    """A 2 x 1 tile palette picture: index 1 everywhere, index 2 in a square at ``mark``."""
    image = Image.new("P", (2 * TILE, TILE), 1)
    image.putpalette(palette)
    ImageDraw.Draw(image).rectangle((mark, 10, mark + 20, 30), fill=2)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_same_indices_under_another_palette_are_another_tile_and_each_frame_comes_back() -> None:
    grey = [0, 0, 0, 200, 200, 200, 255, 0, 0] + [0] * (256 * 3 - 9)
    blue = [0, 0, 0, 0, 0, 200, 255, 0, 0] + [0] * (256 * 3 - 9)
    pngs = [palette_png(grey, 10), palette_png(grey, TILE + 10), palette_png(blue, 10)]
    builder = MosaicBuilder()
    for png in pngs:
        builder.add(png)
    frames = [f.tiles for f in builder.mosaic.frames]
    # The second map is the first with its two tiles swapped: both recur, none is new.
    assert frames[0][0] != frames[0][1] and frames[1] == [frames[0][1], frames[0][0]]
    assert not set(frames[2]) & set(frames[0] + frames[1])  # the blue map shares none
    for k, png in enumerate(pngs):
        source = Image.open(io.BytesIO(png)).convert("RGB")
        assert rebuild(builder.mosaic, k).tobytes() == source.tobytes()
