"""Scenario files of every system as a club member would start them: a built-in's text,
turned into data to edit and written back as JSON or YAML."""

from __future__ import annotations

import json
from typing import Any

import yaml

from rules.core.contract import GameSystem
from rules.core.registry import get, load_all

#: One built-in scenario per system to edit in the tests.
STARTS = {"rr": "tannenbruck", "raiders": "desert", "commando": "training",
          "skirmish": "open_field", "mak": "patrol"}


def systems() -> dict[str, GameSystem[Any]]:
    """Every registered system that reads scenario files."""
    return {k: s for k, s in load_all().items() if s.scenario_format is not None}


def builtins() -> list[tuple[str, str]]:
    """Every (system, built-in scenario) pair."""
    return [(k, sc) for k, s in systems().items() for sc in s.scenarios]


def data(system: str, builtin: str | None = None) -> dict[str, Any]:
    """The data of a built-in scenario, to edit."""
    fmt = get(system).scenario_format
    assert fmt is not None
    return json.loads(fmt.builtin(builtin or STARTS[system]))


def as_json(value: dict[str, Any]) -> bytes:
    """JSON, indented one space a level as the shipped files are."""
    return json.dumps(value, indent=1, ensure_ascii=False).encode("utf-8")


def as_yaml(value: dict[str, Any]) -> bytes:
    """Block YAML, as ``referee scenario new --out x.yaml`` writes it."""
    return yaml.safe_dump(value, sort_keys=False, allow_unicode=True).encode("utf-8")


def assert_refused_at(system: GameSystem[Any], text: str, path: str, words: str) -> None:
    """``text`` is refused with a problem at ``path`` whose message holds ``words``."""
    from rules.core import scenariofile  # noqa: PLC0415

    try:
        system.scenario_from_file(text)
    except scenariofile.ScenarioError as exc:
        found = {p.path: p.message for p in exc.problems}
        assert path in found and words in found[path], exc.problems
        return
    raise AssertionError(f"accepted; expected a problem at {path}")


def assert_change_refused(system: GameSystem[Any], text: str, old: str, new: str, path: str,
                          words: str) -> None:
    """``text`` with ``old`` (which it holds) changed to ``new`` is refused at ``path``."""
    assert old in text, old
    assert_refused_at(system, text.replace(old, new), path, words)
