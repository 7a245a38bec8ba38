"""Pictures cut into tiles, each distinct tile kept once: how the HTML export holds every
snapshot of a whole game in one file of a few megabytes (issue 19, item 5).

Two snapshots in a row differ in a few places (the header, the units that moved, the
marks), so most of a map's tiles recur from one snapshot to the next.  A picture is cut into
squares of :data:`TILE` pixels from its top-left (the right and bottom ones smaller); each
tile is keyed by its pixels and stored once as a small lossless WebP (a third smaller than
the same PNG, measured; PNG where Pillow lacks WebP); a frame is then its size and
the list of its tiles' numbers, row by row.  A viewer shows frame ``k`` by laying those
tiles in a grid: any frame can be shown at once, in any order, with no frame before it.

Measured on a whole game of the area-map system (283 snapshots of the 1280-px map): 4.9 MB of
PNG tiles against 29.5 MB of PNGs, about a sixth; a 337-snapshot game's tiles take 7.3 MB as
PNG and 5.0 MB as lossless WebP.
"""

from __future__ import annotations

import hashlib
import io
from typing import Iterable, Literal

from PIL import Image, features
from pydantic import BaseModel, Field

#: The side of a tile in pixels.
TILE = 128


class TiledFrame(BaseModel):
    """One picture: its size and its tiles' numbers, row by row from the top-left."""

    width: int
    height: int
    tiles: list[int]

    @property
    def columns(self) -> int:
        """How many tiles a row holds."""
        return -(-self.width // TILE)


#: How tiles are stored: lossless WebP when this Pillow can write it, else PNG.
TILE_FORMAT: Literal["webp", "png"] = "webp" if features.check("webp") else "png"


class Mosaic(BaseModel):
    """Every distinct tile (image bytes in ``format``) and every frame as a grid of tile
    numbers."""

    tile: int = TILE
    format: Literal["webp", "png"] = TILE_FORMAT
    tiles: list[bytes] = Field(default_factory=list)
    frames: list[TiledFrame] = Field(default_factory=list)

    def keeping(self, indexes: Iterable[int]) -> Mosaic:
        """Only the frames at ``indexes``, with only the tiles they use (renumbered)."""
        frames = [self.frames[k] for k in indexes]
        used = sorted({n for f in frames for n in f.tiles})
        new = {old: k for k, old in enumerate(used)}
        return Mosaic(tile=self.tile, format=self.format, tiles=[self.tiles[n] for n in used],
                      frames=[f.model_copy(update={"tiles": [new[n] for n in f.tiles]}) for f in frames])


class MosaicBuilder:
    """Adds pictures one at a time (so a long game need not hold every picture at once)."""

    def __init__(self) -> None:
        self.mosaic = Mosaic()
        self._known: dict[bytes, int] = {}

    def add(self, png: bytes) -> TiledFrame:
        """Cut one picture into tiles, keep the new ones, and record the frame."""
        image = Image.open(io.BytesIO(png))
        image.load()
        # A palette picture is keyed by its palette's indices, not converted to RGB first:
        # a game's maps share one fixed palette, so the indices say the same as the colours
        # at a third of the bytes to hash (a whole game's tiling 25% faster, measured); the
        # palette is in the key, so two palettes never share a tile.
        palette = _palette_key(image)
        source = image if palette is not None else image.convert("RGB")
        numbers = []
        for top in range(0, image.height, TILE):
            for left in range(0, image.width, TILE):
                box = (left, top, min(left + TILE, image.width), min(top + TILE, image.height))
                numbers.append(self._number(source, palette or b"", box))
        frame = TiledFrame(width=image.width, height=image.height, tiles=numbers)
        self.mosaic.frames.append(frame)
        return frame

    def _number(self, source: Image.Image, palette: bytes, box: tuple[int, int, int, int]) -> int:
        """The number of the tile in ``box``, storing it if it is new (keyed by its pixels)."""
        piece = source.crop(box)
        key = hashlib.blake2b(palette + piece.tobytes() + repr(piece.size).encode(), digest_size=16).digest()
        if key not in self._known:
            out = io.BytesIO()
            if self.mosaic.format == "webp":
                # Exact pixels; method 1 is as small as the default 4 on the maps, measured
                # (a whole game's tiles 2.01 MB either way), and a tenth faster.
                piece.convert("RGB").save(out, format="WEBP", lossless=True, method=1)
            else:
                # The source is a palette PNG: the tile keeps its palette (level 9 is as
                # small as ``optimize`` here, measured, and a third faster).
                piece.save(out, format="PNG", compress_level=9)
            self._known[key] = len(self.mosaic.tiles)
            self.mosaic.tiles.append(out.getvalue())
        return self._known[key]


def _palette_key(image: Image.Image) -> bytes | None:
    """What, beside its indices, says a palette picture's colours (its palette and its
    transparent index); None for a picture of another mode."""
    if image.mode != "P":
        return None
    described = bytes(image.getpalette() or []) + repr(image.info.get("transparency")).encode()
    return b"P" + hashlib.blake2b(described, digest_size=16).digest()


def tile_pictures(pngs: Iterable[bytes]) -> Mosaic:
    """The mosaic of every picture in ``pngs``, in order."""
    builder = MosaicBuilder()
    for png in pngs:
        builder.add(png)
    return builder.mosaic


def rebuild(mosaic: Mosaic, index: int) -> Image.Image:
    """Frame ``index`` laid back together from its tiles (what the viewer shows; tests
    compare it with the picture it came from)."""
    frame = mosaic.frames[index]
    image = Image.new("RGB", (frame.width, frame.height))
    for k, number in enumerate(frame.tiles):
        row, col = divmod(k, frame.columns)
        tile = Image.open(io.BytesIO(mosaic.tiles[number])).convert("RGB")
        image.paste(tile, (col * mosaic.tile, row * mosaic.tile))
    return image


__all__ = ["Mosaic", "MosaicBuilder", "TILE", "TILE_FORMAT", "TiledFrame", "rebuild", "tile_pictures"]
