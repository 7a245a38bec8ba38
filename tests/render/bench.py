"""Time the renderers on the realistic fixtures: ``python -m tests.render.bench``.

Prints, per view, the median of several full renders (layout, drawing, reduce, quantize,
encode), the PNG size, and for comparison Pillow's bare encode of an RGB image of the same
size (the floor any renderer pays).
"""

from __future__ import annotations

import io
import statistics
import time

from PIL import Image

from render import snapshot
from tests.render.fixtures import area_view, network_view, table_view


def median_ms(fn, runs: int = 9) -> float:  # type: ignore[no-untyped-def]
    """Median CPU time of ``fn()`` in milliseconds.

    CPU time, not wall time: the machine is shared, and other processes' load would
    otherwise swamp the figures.
    """
    fn()
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    """Print the timings."""
    from tests.render.real import tannenbruck_view

    views = [("areamap", area_view()), ("network", network_view()), ("table", table_view())]
    real = tannenbruck_view()
    if real is not None:
        views.insert(0, ("tannenb.", real))
    for name, view in views:
        shot = snapshot(view)
        image = Image.open(io.BytesIO(shot.png)).convert("RGB")

        def bare_encode() -> None:
            image.save(io.BytesIO(), format="PNG")

        full = median_ms(lambda: snapshot(view))
        bare = median_ms(bare_encode)
        print(f"{name:8} {shot.width}x{shot.height} {len(shot.png) / 1024:6.0f} kB "
              f"render {full:6.1f} ms   bare PNG encode {bare:6.1f} ms")


if __name__ == "__main__":
    main()
