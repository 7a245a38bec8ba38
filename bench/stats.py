"""Timing helpers and the one table the benchmark prints."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass


def percentile(values: list[float], pct: float) -> float:
    """The nearest-rank percentile (``pct`` in 0..100) of a non-empty list."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    """The median of a non-empty list."""
    return statistics.median(values)


@dataclass
class Row:
    """One line of the table: a figure, the floor it stands on, the target and the verdict."""

    figure: str
    measured: str
    floor: str
    target: str
    #: None for a figure shown for information, with no target of its own.
    ok: bool | None
    note: str = ""


def table(rows: list[Row]) -> str:
    """The rows as one markdown table (the README copies it as is)."""
    out = [
        "| figure | measured | floor (same run) | target | |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        mark = "ℹ️ info" if row.ok is None else "✅ pass" if row.ok else "❌ miss"
        note = f" — {row.note}" if row.note else ""
        out.append(f"| {row.figure} | {row.measured}{note} | {row.floor} | {row.target} | {mark} |")
    return "\n".join(out)


def ms(seconds: float) -> str:
    """Seconds as a short millisecond figure."""
    return f"{seconds * 1000:.2f} ms" if seconds < 0.01 else f"{seconds * 1000:.1f} ms"
