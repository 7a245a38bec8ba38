"""The shared style: fonts cached, text never below the minimum, sides told apart without colour."""

from __future__ import annotations

import pytest

from render.layout import Placer, overlaps, overlapping_pairs, LayoutItem
from render.style import SMALL, Canvas, SideBook, clean, font
from rules.core.views import SideStyle


def test_fonts_are_loaded_once() -> None:
    assert font(SMALL) is font(SMALL)


def test_text_below_the_minimum_size_is_refused() -> None:
    with pytest.raises(ValueError, match="minimum"):
        Canvas(40, 40).text((0, 0), "x", SMALL - 1, (0, 0, 0))


def test_sides_get_distinct_letters_and_shapes() -> None:
    """Greyscale must still tell sides apart: each side has its own letter and badge shape."""
    book = SideBook([SideStyle(key="nato", label="NATO", letter="N", colour="nato"),
                     SideStyle(key="soviet", label="Soviet", letter="S", colour="soviet")])
    looks = [book.look("nato"), book.look("soviet"), book.look("hostile")]
    assert len({(look.letter, look.shape) for look in looks}) == 3
    assert len({look.shape for look in looks}) == 3


def test_clean_spells_out_symbols_the_font_lacks() -> None:
    assert clean("4+3 → 2 hits ½") == "4+3 -> 2 hits 1/2"
    assert clean("🎲 6") == "6"


def test_placer_never_hands_out_overlapping_boxes() -> None:
    placer = Placer((0, 0, 400, 300))
    boxes = [placer.place_near((200, 150), (60, 20)) for _ in range(20)]
    items = [LayoutItem(kind="label", id=str(k), box=b) for k, b in enumerate(boxes)]
    assert overlapping_pairs(items) == []
    assert not overlaps((0, 0, 10, 10), (10, 0, 20, 10))


def test_unknown_view_is_refused() -> None:
    from render import snapshot

    with pytest.raises(TypeError, match="no renderer"):
        snapshot(SideStyle(key="x", label="x", letter="X", colour="x"))  # type: ignore[arg-type]


def test_png_has_no_metadata_chunks() -> None:
    """Deterministic bytes: no time or text chunks in the PNG, only image data."""
    png = Canvas(40, 30).png()
    chunks = []
    pos = 8
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big")
        chunks.append(png[pos + 4:pos + 8].decode())
        pos += 12 + length
    assert set(chunks) <= {"IHDR", "PLTE", "IDAT", "IEND"}


def test_renders_in_parallel_threads_give_the_same_bytes() -> None:
    """The service renders off the event loop, possibly several at once."""
    from concurrent.futures import ThreadPoolExecutor

    from render import snapshot
    from tests.render.fixtures import area_view, network_view, table_view

    views = [area_view(), network_view(), table_view()] * 2
    alone = [snapshot(v).png for v in views]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda v: snapshot(v).png, views))
    assert together == alone
