"""Hex geometry figures: building a map of several 20x30 boards and one line-of-sight query.

The issue's target: each well under a millisecond at the book's scale.  CPU time, medians.
"""

from __future__ import annotations

import time

from bench.stats import Row, median
from rules.core.hexes import MapLayout, distance, line_clear


def us(seconds: float) -> str:
    """Seconds as microseconds."""
    return f"{seconds * 1e6:.0f} µs"


def _cpu(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.process_time_ns()
        fn()
        times.append((time.process_time_ns() - start) / 1e9)
    return median(times)


def measure(runs: int = 200, boards: tuple[int, ...] = (1, 2, 4)) -> list[Row]:
    """One row for the build and one for the longest line of sight, per board count."""
    rows: list[Row] = []
    for count in boards:
        numbers = list(range(1, count + 1))
        build = _cpu(lambda: MapLayout.side_by_side(numbers), runs)
        layout = MapLayout.side_by_side(numbers)
        a = layout.parse("1:0101")
        b = layout.parse(f"{count}:2030")
        blocked = {layout.parse("1:0505")}
        los = _cpu(lambda: line_clear(a, b, lambda i, h: h not in blocked), runs)
        ok = build < 0.001 and los < 0.001
        rows.append(Row(
            figure=f"hex geometry, {count} board(s) of 20×30 (median CPU)",
            measured=f"build {us(build)}, LOS over {distance(a, b)} hexes {us(los)}",
            floor="—",
            target="each < 1 ms",
            ok=ok,
        ))
    return rows


if __name__ == "__main__":
    from bench.stats import table

    print(table(measure()))
