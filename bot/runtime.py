"""Process-wide settings of a long-running referee (the bot, the console, the benchmark).

Why tune the garbage collector: the service keeps up to 256 games parsed in memory, hundreds
of thousands of small objects that live for hours.  With CPython's default thresholds a full
collection ran every second or two under load and walked all of them, 30-90 ms during which
no channel got an answer; that was most of the 99th percentile in ``bench/run.py`` (200
channels: p99 155 ms before, 30-45 ms after).  Young collections still run often (every
10,000 allocations instead of 700), so cyclic garbage is still freed quickly.
"""

from __future__ import annotations

import gc

#: (young, middle, old) thresholds; CPython's defaults are (700, 10, 10).
GC_THRESHOLDS = (10_000, 20, 20)


def tune_gc() -> None:
    """Raise the collection thresholds and move what exists now (modules, scenario data)
    out of the collector's sight for good: it is never garbage."""
    gc.set_threshold(*GC_THRESHOLDS)
    gc.collect()
    gc.freeze()
