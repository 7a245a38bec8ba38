"""Every picture of ``docs/img``, drawn again from its seed, in one command:

    .venv/bin/python tools/pictures.py            # write them all (and docs/gallery.md)
    .venv/bin/python tools/pictures.py --check    # compare only; exit 1 naming each that differs

(``.venv`` as made by the README's test line: the samples reuse the tests' fixtures.)

Three sources, each seeded, so the same code draws the same pixels:

* ``gallery``: every system's pictures, mid-game and final, whole and phone-width
  (``tools/gallery.py``, which also writes ``docs/gallery.md``);
* ``samples``: the hand-built fixture of each geometry (``tests/render/make_samples.py``);
* ``replay``: the README's replay GIF (``tests/replay/make_sample.py``).

Pictures are compared by their pixels (and a GIF by its frames and their durations), not
their bytes, so a different zlib or Pillow build that encodes the same image differently
does not count as a change.  ``tests/render/test_docs_pictures.py`` runs the check.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere

from PIL import Image, ImageChops, ImageSequence  # noqa: E402

from render import focus, snapshot  # noqa: E402

OUT = ROOT / "docs" / "img"
#: The command that regenerates the pictures, as the check's message gives it.
COMMAND = ".venv/bin/python tools/pictures.py"


def _both(views: dict[str, object]) -> dict[str, bytes]:
    """Each view drawn whole (``stem.png``) and phone-width (``stem-phone.png``)."""
    out: dict[str, bytes] = {}
    for stem, view in views.items():
        out[f"{stem}.png"] = snapshot(view).png  # type: ignore[arg-type]
        out[f"{stem}-phone.png"] = focus(view).png  # type: ignore[arg-type]
    return out


def gallery_pictures() -> dict[str, bytes]:
    """The systems' pictures (``tools/gallery.py``)."""
    from tools import gallery  # noqa: PLC0415

    return _both(gallery.views())


def sample_pictures() -> dict[str, bytes]:
    """The geometries' fixture pictures (``tests/render/make_samples.py``)."""
    from tests.render import make_samples  # noqa: PLC0415

    return _both(make_samples.views())


def replay_pictures() -> dict[str, bytes]:
    """The README's replay GIF (``tests/replay/make_sample.py``)."""
    from tests.replay import make_sample  # noqa: PLC0415

    gif, _ = asyncio.run(make_sample.draw())
    return {make_sample.OUT.name: gif}


GROUPS: dict[str, Callable[[], dict[str, bytes]]] = {
    "gallery": gallery_pictures, "samples": sample_pictures, "replay": replay_pictures,
}


def _frames(image: Image.Image) -> list[tuple[Image.Image, int]]:
    return [(frame.convert("RGBA"), int(frame.info.get("duration", 0)))
            for frame in ImageSequence.Iterator(image)]


def difference(drawn: bytes, committed: Path) -> str | None:
    """How the committed picture differs from the one drawn (a phrase), or None."""
    if not committed.exists():
        return "is not committed"
    with Image.open(io.BytesIO(drawn)) as new, Image.open(committed) as old:
        if new.size != old.size:
            return f"is {old.size[0]}x{old.size[1]}, the code draws {new.size[0]}x{new.size[1]}"
        ours, theirs = _frames(new), _frames(old)
        if len(ours) != len(theirs):
            return f"has {len(theirs)} frame(s), the code draws {len(ours)}"
        for n, ((a, da), (b, db)) in enumerate(zip(ours, theirs)):
            box = ImageChops.difference(a, b).getbbox(alpha_only=False)
            if box is not None:
                where = f"frame {n + 1}, " if len(ours) > 1 else ""
                return f"differs in {where}pixels {box}"
            if da != db:
                return f"shows frame {n + 1} for {db} ms, the code for {da} ms"
    return None


def stale(group: str) -> list[str]:
    """The pictures of ``group`` whose committed file differs from what the code draws."""
    return [f"docs/img/{name} {why}" for name, drawn in GROUPS[group]().items()
            if (why := difference(drawn, OUT / name)) is not None]


def main(argv: list[str] | None = None) -> int:
    """Write (or ``--check``) the pictures of the groups asked for (all by default)."""
    parser = argparse.ArgumentParser(description="Draw every picture of docs/img again.")
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 if any differs")
    parser.add_argument("groups", nargs="*", metavar="GROUP",
                        help=f"some of {', '.join(GROUPS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown group {unknown[0]!r}: the groups are {', '.join(GROUPS)}")
    groups = args.groups or list(GROUPS)
    if args.check:
        problems = [line for group in groups for line in stale(group)]
        for line in problems:
            print(line)
        print(f"{len(problems)} picture(s) differ; run {COMMAND}" if problems
              else "every picture matches what the code draws")
        return 1 if problems else 0
    if "gallery" in groups:
        from tools import gallery  # noqa: PLC0415 - also writes docs/gallery.md

        gallery.main()
    for group in (g for g in groups if g != "gallery"):
        for name, data in GROUPS[group]().items():
            (OUT / name).write_bytes(data)
            print(f"docs/img/{name} {len(data) // 1024} kB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
