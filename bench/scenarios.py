"""Scenario file figures (issue 27): checking a club's file, and refusing a hostile one.

* each system's largest built-in read back through the file path (JSON and YAML): read,
  limits, model, cross-field checks and the trial set-up, as ``/game new scenario-file:``
  runs them on every upload (target: well under a second on a phone's wait);
* a file of 1 MB refused before parsing, and the largest file under it (some 3,300 rr
  counters none of which is deployed) read, validated and refused by the cross-field checks
  (targets: a few ms, and under two seconds).

CPU time, medians.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import yaml

from bench.hexes import _cpu
from bench.stats import Row
from rules.core import registry, scenariofile


def ms(seconds: float) -> str:
    """Seconds as milliseconds."""
    return f"{seconds * 1e3:.1f} ms"


def _refused(fn: Callable[[], Any]) -> Callable[[], None]:
    def run() -> None:
        try:
            fn()
        except scenariofile.ScenarioError:
            return
        raise AssertionError("the file was accepted")
    return run


def measure(runs: int = 5) -> list[Row]:
    """One row per system (its largest built-in, JSON and YAML), then the two refusals."""
    rows: list[Row] = []
    for key, system in registry.load_all().items():
        fmt = system.scenario_format
        if fmt is None:
            continue
        builtin = max(system.scenarios, key=lambda k: len(fmt.builtin(k)))
        value = json.loads(fmt.builtin(builtin))
        for name, raw in (("JSON", json.dumps(value, indent=1).encode()),
                          ("YAML", yaml.safe_dump(value, sort_keys=False, allow_unicode=True).encode())):
            took = _cpu(lambda: system.scenario_from_file(raw), runs)
            rows.append(Row(figure=f"check {key}/{builtin} ({name}, {len(raw) / 1000:.0f} kB)",
                            measured=ms(took), floor="", target="< 250 ms", ok=took < 0.25))
    rr = registry.get("rr")
    big = b"{" + b" " * scenariofile.MAX_BYTES + b"}"
    took = _cpu(_refused(lambda: rr.scenario_from_file(big)), runs)
    rows.append(Row(figure="refuse a 1 MB file (before parsing)", measured=ms(took), floor="",
                    target="< 5 ms", ok=took < 0.005))
    value = json.loads(rr.scenario_format.builtin("tannenbruck"))  # type: ignore[union-attr]
    unit = value["units"][0]
    value["units"] = [{**unit, "id": f"U{i}"} for i in range(scenariofile.MAX_UNITS)]
    each = len(json.dumps(value["units"][0]).encode()) + 2
    del value["units"][(scenariofile.MAX_BYTES - 40_000) // each:]  # the rest of the file: ~35 kB
    near = json.dumps(value).encode()
    took = _cpu(_refused(lambda: rr.scenario_from_file(near)), runs)
    rows.append(Row(figure=f"refuse {len(value['units']):,} units ({len(near) / 1e6:.2f} MB JSON)",
                    measured=ms(took), floor="", target="< 2 s", ok=took < 2.0,
                    note="the largest file under 1 MB: read, validated, refused by the checks"))
    return rows
