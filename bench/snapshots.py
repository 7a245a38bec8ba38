"""The full Tannenbruck snapshot against its floor: Pillow encoding an image of the same size
and mode (the rendered image itself, decoded, so the floor compresses the same pixels)."""

from __future__ import annotations

import io
import time
from typing import Callable

from PIL import Image

from bench.stats import Row, median, ms
from render import snapshot
from rules.core.views import AreaMapView

PNG_LIMIT = 1024 * 1024


def tannenbruck() -> tuple[AreaMapView, str]:
    """``(view, what it is)``: the real scenario with every counter placed, or the renderer's
    30-area stand-in while ``rules/rr/data/tannenbruck.json`` is not there yet."""
    from tests.render.real import tannenbruck_view  # noqa: PLC0415

    try:
        view = tannenbruck_view()
    except (ImportError, AttributeError):
        view = None
    if view is not None:
        return view, f"Tannenbruck, {len(view.areas)} areas, {len(view.counters)} counters"
    from tests.render.fixtures import area_view  # noqa: PLC0415

    stand_in = area_view()
    return stand_in, (f"stand-in map ({len(stand_in.areas)} areas, {len(stand_in.counters)} "
                      "counters): Tannenbruck data not there yet")


def cpu_times(fn: Callable[[], object], runs: int) -> list[float]:
    """CPU seconds of each of ``runs`` calls (after one warm-up call).

    CPU time, not wall time: both sides of the comparison are single-threaded CPU work, and the
    machine is shared, so other processes' load would otherwise swamp the figures.
    """
    fn()
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return times


def measure(runs: int) -> Row:
    """The snapshot row of the table."""
    view, what = tannenbruck()
    shot = snapshot(view)
    image = Image.open(io.BytesIO(shot.png))
    image.load()

    def bare_encode() -> None:
        image.save(io.BytesIO(), format="PNG")

    full = median(cpu_times(lambda: snapshot(view), runs))
    floor = median(cpu_times(bare_encode, runs))
    size = len(shot.png)
    ok = full <= 0.150 and full <= 3 * floor and size <= PNG_LIMIT
    return Row(
        figure=f"snapshot, {what} (median CPU)",
        measured=f"{ms(full)} ({full / floor:.1f}× floor), PNG {size / 1024:.0f} kB",
        floor=f"Pillow PNG encode of {shot.width}×{shot.height} {image.mode}: {ms(floor)}",
        target="≤ 150 ms, ≤ 3× floor, PNG ≤ 1 MB",
        ok=ok,
    )
