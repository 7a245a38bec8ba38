"""Write the docs gallery (``docs/img/``): ``.venv/bin/python tools/gallery.py``.

For every registered system, pictures of a seeded random legal game
(:mod:`rules.core.samples`), each written twice: the whole map (``stem.png``, what
``/game map`` and the turn's end post) and the phone-width focus picture posted after an order
(``stem-phone.png``, at most 750 px wide, read inline at about 400 px):

* ``<system>-game``: a picture in mid-game, marked with what changed since the pinged
  player's last order (the letters M, F, H, X ... and their legend);
* ``<system>-final``: the last picture, with the result banner;
* ``raiders-battle``: a battle round, with the rounds fought earlier in the same order.

It also writes ``docs/gallery.md``, which shows each pair side by side.  Same seed, same
pictures: rerun it after a change to the renderer or a system's view.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from pydantic import BaseModel  # noqa: E402

from render import focus, snapshot  # noqa: E402
from rules.core import registry  # noqa: E402
from rules.core.samples import final_view, marked_view, orders  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
SYSTEMS = ("rr", "raiders", "commando", "skirmish", "mak")
#: Pictures into a game for the mid-game sample (each system's game is paced differently).
GAME_PICTURES = {"rr": 40, "raiders": 14, "commando": 4, "skirmish": 12, "mak": 12}
#: The playouts' seed: an even seed plays each system's first scenario (St Nazaire, the
#: hedgerow village, the patrol).
SEED = 2


def _busy(view: BaseModel) -> int:
    """How much a picture shows of what a player wants to read: its changes and marks."""
    return len(getattr(view, "changes", [])) + 2 * len(getattr(view, "marks", []))


def game_view(system: object, count: int) -> BaseModel:
    """Of the last few pictures up to the ``count``-th, the one showing most changes and marks."""
    _, game = orders(system, count, SEED)  # type: ignore[arg-type]
    shots = [k for k, o in enumerate(game) if o.picture][-4:]
    views = [marked_view(system, game, k) for k in shots]  # type: ignore[arg-type]
    return max(reversed(views), key=_busy)


def battle_view(system: object) -> BaseModel | None:
    """A Raiders-like picture of a battle round (a view with a battle panel showing dice),
    preferring one that also lists rounds fought earlier in the same order."""
    _, game = orders(system, 60, SEED)  # type: ignore[arg-type]
    found = None
    for k, o in enumerate(game):
        if not o.picture:
            continue
        view = system.view(o.state)  # type: ignore[attr-defined]
        battle = getattr(view, "battle", None)
        if battle is not None and battle.shots and (found is None or battle.earlier):
            found = marked_view(system, game, k)  # type: ignore[arg-type]
            if battle.earlier:
                break
    return found


def views() -> dict[str, BaseModel]:
    """The gallery's views by file stem."""
    systems = registry.load_all()
    out: dict[str, BaseModel] = {}
    for key in SYSTEMS:
        if key not in systems:
            continue
        system = systems[key]
        out[f"{key}-game"] = game_view(system, GAME_PICTURES.get(key, 10))
        out[f"{key}-final"] = final_view(system, SEED)
        if key == "raiders":
            battle = battle_view(system)
            if battle is not None:
                out["raiders-battle"] = battle
    return out


def main() -> None:
    """Render each view, whole and phone-width, and write the gallery page."""
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    for stem, view in views().items():
        sizes = []
        for suffix, render in (("", snapshot), ("-phone", focus)):
            shot = render(view)
            path = OUT / f"{stem}{suffix}.png"
            path.write_bytes(shot.png)
            sizes.append(f"{shot.width}×{shot.height}")
            print(f"{path.relative_to(ROOT)} {shot.width}x{shot.height} {len(shot.png) // 1024} kB")
        rows.append(f"| `{stem}` | ![{stem}](img/{stem}.png) {sizes[0]} | "
                    f"![{stem} on a phone](img/{stem}-phone.png) {sizes[1]} |")
    page = [
        "# Gallery: every system's pictures, whole and on a phone",
        "",
        "Written by `tools/gallery.py` from seeded random legal games (`rules/core/samples.py`).",
        "The left picture is the whole map (`/game map`, and the picture at a turn's end); the",
        "right one is the focus picture posted after an order, at most 750 px wide so that its",
        "smallest text shows at 9 px or more on a phone that shows it 400 px wide.  A unit",
        "marked with a letter changed since the pinged player's last order: M moved, F fired,",
        "H hit, X eliminated, N new on the map, A acted.",
        "",
        "| picture | whole map | phone (focus) |",
        "|---|---|---|",
        *rows,
        "",
    ]
    (ROOT / "docs" / "gallery.md").write_text("\n".join(page))


if __name__ == "__main__":
    main()
