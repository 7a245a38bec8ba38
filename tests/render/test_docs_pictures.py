"""The pictures committed in ``docs/img`` are what the code draws from their seeds (issue 26,
point 7): a change to a renderer, a view or a scenario that changes a picture fails here
until ``.venv/bin/python tools/pictures.py`` draws them again.  Compared by pixels (a GIF by
its frames and durations), so a different PNG encoder does not count."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import pictures

IMG = Path(pictures.OUT)


@pytest.mark.parametrize("group", list(pictures.GROUPS))
def test_committed_pictures_match_what_the_code_draws(group: str) -> None:
    stale = pictures.stale(group)
    assert not stale, (f"{len(stale)} picture(s) of docs/img no longer match what the code "
                       f"draws; run {pictures.COMMAND}:\n" + "\n".join(stale))


def test_the_check_sees_a_changed_picture(tmp_path: Path) -> None:
    """The comparison itself: one pixel changed, a size changed, a frame's time changed."""
    from io import BytesIO

    from PIL import Image

    def png(image: Image.Image) -> bytes:
        out = BytesIO()
        image.save(out, "PNG")
        return out.getvalue()

    base = Image.new("RGB", (20, 10), "white")
    committed = tmp_path / "x.png"
    committed.write_bytes(png(base))
    assert pictures.difference(png(base), committed) is None
    dotted = base.copy()
    dotted.putpixel((7, 3), (0, 0, 0))
    assert pictures.difference(png(dotted), committed) == "differs in pixels (7, 3, 8, 4)"
    assert "is 20x10, the code draws 21x10" in str(pictures.difference(png(Image.new("RGB", (21, 10))), committed))
    assert pictures.difference(png(base), tmp_path / "none.png") == "is not committed"

    def gif(duration: int) -> bytes:
        out = BytesIO()
        frames = [base.convert("P"), dotted.convert("P")]
        frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=duration, loop=0)
        return out.getvalue()

    animated = tmp_path / "x.gif"
    animated.write_bytes(gif(1600))
    assert pictures.difference(gif(1600), animated) is None
    assert "for 1600 ms, the code for 900 ms" in str(pictures.difference(gif(900), animated))


def test_every_committed_picture_has_a_source() -> None:
    """No picture in docs/img that the command would not draw again (a stale leftover)."""
    from tests.render import make_samples
    from tools import gallery

    stems = [*gallery.SYSTEMS, *make_samples.views()]
    known = {p.name for p in IMG.iterdir()
             if p.suffix == ".png" and any(p.name.startswith(f"{stem}-") or p.stem == stem for stem in stems)}
    known.add("tannenbruck-replay.gif")
    assert {p.name for p in IMG.iterdir()} == known
