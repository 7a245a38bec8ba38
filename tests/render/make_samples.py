"""Write the sample snapshots shown in the README: ``python -m tests.render.make_samples``.

Uses the engines' real views where they exist (the St Nazaire set-up; Tannenbruck once its
map data is in), and the hand-built fixtures otherwise.
"""

from __future__ import annotations

from pathlib import Path

from render import snapshot
from tests.render.fixtures import area_view, network_view, table_view

OUT = Path(__file__).resolve().parents[2] / "docs" / "img"


def views() -> dict[str, object]:
    """The views to write, by file stem."""
    from rules.commando.system import CommandoRaid
    from rules.core.dice import ScriptedDice

    out: dict[str, object] = {"areamap-sample": area_view(), "network-sample": network_view(),
                              "table-sample": table_view()}
    commando = CommandoRaid()
    out["commando-st-nazaire"] = commando.view(commando.setup("st_nazaire", {}, ScriptedDice([])).state)
    try:
        from tests.render.real import tannenbruck_view
    except ImportError:
        return out
    view = tannenbruck_view()
    if view is not None:
        out["tannenbruck"] = view
    return out


def main() -> None:
    """Render each view and write it as PNG."""
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, view in views().items():
        shot = snapshot(view)  # type: ignore[arg-type]
        path = OUT / f"{stem}.png"
        path.write_bytes(shot.png)
        print(f"{path} {shot.width}x{shot.height} {len(shot.png) // 1024} kB")


if __name__ == "__main__":
    main()
