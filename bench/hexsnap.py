"""The full-board hex snapshot against its floor (issue 17): Maschinen Krieger's two-board
scenario, the whole map (``/game map``) and the focus crop, each against Pillow encoding an
image of the same size and mode (the rendered image itself, decoded)."""

from __future__ import annotations

import io

from PIL import Image

from bench.snapshots import cpu_times
from bench.stats import Row, median, ms
from render import snapshot
from rules.core.dice import SeededDice
from rules.core.registry import get


def _views():  # type: ignore[no-untyped-def]
    system = get("mak")
    step = system.setup("ridge", None, SeededDice(b"bench"))
    state = step.state
    for u in state.units:  # every unit on the map, for a busy picture
        if u.status == "waiting":
            u.status, u.hex = "on", f"{5 if u.side == 'merc' else 6}:{10 + len(u.id) % 8:02d}{12 + int(u.id[-1]):02d}"
    view = system.view(state)
    return view.model_copy(update={"whole": True}), f"{len(view.cells)} hexes, {len(view.counters)} counters"


def measure(runs: int) -> Row:
    """The whole-map row of the table."""
    view, what = _views()
    shot = snapshot(view)
    image = Image.open(io.BytesIO(shot.png))
    image.load()

    def bare_encode() -> None:
        image.save(io.BytesIO(), format="PNG")

    full = median(cpu_times(lambda: snapshot(view), runs))
    floor = median(cpu_times(bare_encode, runs))
    ok = full <= 0.150 and full <= 3 * floor
    return Row(
        figure=f"hex snapshot, whole map of 2 boards ({what}) (median CPU)",
        measured=f"{ms(full)} ({full / floor:.1f}× floor), PNG {len(shot.png) / 1024:.0f} kB",
        floor=f"Pillow PNG encode of {shot.width}×{shot.height} {image.mode}: {ms(floor)}",
        target="≤ 150 ms, ≤ 3× floor",
        ok=ok,
    )


if __name__ == "__main__":
    from bench.stats import table

    print(table([measure(9)]))
