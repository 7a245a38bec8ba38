"""The conformance kit on scenario files (issue 27, point 6): every system that reads them,
every built-in scenario written out (JSON and YAML, as ``referee scenario new`` writes
them) and read back through the file path, plays random legal games to the end; and the
worked examples of ``docs/scenarios.md`` (written from the page alone) do too.

Nothing here names a system: a new system with a ``scenario_format`` is held to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules.core import registry
from rules.core.contract import GameSystem
from rules.core.dice import SeededDice
from rules.core.playout import play
from tests.seeds import seed_split

SYSTEMS = {k: s for k, s in registry.load_all().items() if s.scenario_format is not None}
BUILTINS = [(k, sc) for k, s in SYSTEMS.items() for sc in s.scenarios]
#: Random legal games per scenario read back from a file: the first in the README's line,
#: the second behind ``slow`` (each format of each built-in plays a whole game in both).
SEEDS = seed_split(1, 2)
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "scenarios"


def written(system: GameSystem[Any], builtin: str, fmt: str) -> bytes:
    """A built-in scenario as a club's file: JSON or block YAML."""
    value = json.loads(system.scenario_format.builtin(builtin))  # type: ignore[union-attr]
    if fmt == "yaml":
        return yaml.safe_dump(value, sort_keys=False, allow_unicode=True).encode()
    return json.dumps(value, indent=1, ensure_ascii=False).encode()


def _without_key(state: Any, key: str, builtin: str) -> str:
    return state.model_dump_json().replace(f'"{key}"', f'"{builtin}"')


@pytest.mark.parametrize(("key", "builtin"), BUILTINS)
@pytest.mark.parametrize("fmt", ["json", "yaml"])
@SEEDS
def test_a_builtin_read_back_from_a_file_is_the_same_game_and_plays_to_the_end(
        key: str, builtin: str, fmt: str, seeds: range) -> None:
    system = SYSTEMS[key]
    checked = system.scenario_from_file(written(system, builtin, fmt))
    # The same opening as the built-in, but for the scenario's key (name~hash).
    from_file = system.setup(checked.key, None, SeededDice(b"same"))
    shipped = system.setup(builtin, None, SeededDice(b"same"))
    assert _without_key(from_file.state, checked.key, builtin) == shipped.state.model_dump_json()
    for seed in seeds:
        game = play(system, seed, scenario=checked.key, keep_steps=False)  # raises if endless
        assert game.final is not None and not system.waiting_on(game.final)


def examples() -> list[tuple[str, Path]]:
    """The worked examples of docs/scenarios.md, by system (the folder's first word)."""
    return sorted((p.name.split("-")[0], p) for p in EXAMPLES.glob("*.*") if p.suffix in (".yaml", ".json"))


def test_every_system_has_a_worked_example() -> None:
    assert {system for system, _ in examples()} >= set(SYSTEMS)


@pytest.mark.parametrize(("key", "path"), examples(), ids=lambda v: getattr(v, "name", v))
@seed_split(3, 10)
def test_a_worked_example_of_the_docs_plays_to_the_end(key: str, path: Path, seeds: range) -> None:
    """Ten random games of each worked example: three in the README's line, seven behind
    ``slow``."""
    system = SYSTEMS[key]
    checked = system.scenario_from_file(path.read_bytes())
    for seed in seeds:
        game = play(system, seed, scenario=checked.key, keep_steps=False)
        assert game.final is not None and not system.waiting_on(game.final)
