"""Reading an exported HTML page back: its data block and its pictures."""

from __future__ import annotations

import base64
import io
import re

from PIL import Image

from bot.export_html import PageData
from render.tiles import TILE_FORMAT, Mosaic, TiledFrame, rebuild


def page_data(page: str) -> PageData:
    """The JSON the page's script reads."""
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page has no data block"
    return PageData.model_validate_json(found.group(1))


def mosaic(data: PageData) -> Mosaic:
    """The page's tiles and frames as a :class:`Mosaic` (to lay a frame back together)."""
    tiles = []
    for uri in data.tiles:
        head, _, body = uri.partition(",")
        assert head == f"data:image/{TILE_FORMAT};base64", head
        tiles.append(base64.b64decode(body))
    frames = [TiledFrame(width=f.w, height=f.h, tiles=f.t) for f in data.frames]
    return Mosaic(tile=data.tile, tiles=tiles, frames=frames)


def picture(data: PageData, index: int) -> Image.Image:
    """Frame ``index`` of the page as the viewer draws it."""
    return rebuild(mosaic(data), index)


def focus_picture(data: PageData, index: int) -> Image.Image:
    """The part of frame ``index`` the viewer draws on a narrow screen (its focus box)."""
    crop = data.frames[index].c
    assert crop is not None, "the frame has no focus box"
    return picture(data, index).crop(tuple(crop))


def rgb(png: bytes) -> Image.Image:
    """A PNG as an RGB image."""
    return Image.open(io.BytesIO(png)).convert("RGB")
