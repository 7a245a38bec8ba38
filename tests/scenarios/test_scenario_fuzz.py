"""Fuzzing scenario files of every system (issue 27, point 5): a value replaced, a field
dropped or added, a list item repeated, the text cut or a byte changed, as JSON or YAML.
Every file is either a checked scenario that sets up, or refused with a RuleError sentence:
never a traceback, and through the service never a game started on a refused file."""

from __future__ import annotations

import copy
import itertools
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.config import Settings
from bot.models import Invocation, Upload
from bot.service import Service
from rules.core import scenariofile
from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.core.registry import get
from tests.scenarios.helpers import STARTS, as_json, as_yaml, data
from tests.seeds import slow_variant

ODD_VALUES: list[Any] = [None, True, False, 0, -1, 7, 10**9, 1.5, float("inf"), "", "x", "5:2099",
                        "⑤0606", "1⑤Q", "🙂" * 3, [], {}, [1, 2], {"a": 1}, [[0, 0]], "no"]


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, here + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:6]):
            out += _paths(item, here + (index,))
    return out


def _parent(value: Any, path: tuple) -> Any:
    for part in path[:-1]:
        value = value[part]
    return value


def mutate(system: str, rng: random.Random) -> bytes:
    """A built-in scenario of ``system`` with one to three changes, written out as JSON or
    YAML, sometimes cut short or with one byte changed."""
    value = data(system, rng.choice(get(system).scenarios))
    for _ in range(rng.randint(1, 3)):
        path = rng.choice([p for p in _paths(value) if p])
        parent = _parent(value, path)
        how = rng.choice(["replace", "drop", "add", "repeat"])
        if how == "replace":
            parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif how == "drop":
            del parent[path[-1]]
        elif how == "add" and isinstance(parent, dict):
            parent[rng.choice(["colour", "id", "units", "x", "turns"])] = copy.deepcopy(rng.choice(ODD_VALUES))
        elif how == "repeat" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    raw = rng.choice([as_json, as_yaml])(value)
    cut = rng.choice(["none", "none", "truncate", "byte"])
    if cut == "truncate":
        raw = raw[: rng.randint(0, len(raw))]
    elif cut == "byte":
        at = rng.randrange(len(raw))
        raw = raw[:at] + bytes([rng.randrange(256)]) + raw[at + 1:]
    return raw


def outcome(system: str, raw: bytes) -> scenariofile.Checked | None:
    """The checked scenario, or None for a refusal in a sentence; anything else fails."""
    try:
        checked = get(system).scenario_from_file(raw)
    except RuleError as exc:
        text = str(exc)
        assert text and "\n" not in text and "Traceback" not in text
        assert len(text) < 2000
        return None
    get(system).setup(checked.key, None, SeededDice(b"fuzz"))
    return checked


# Files per system: 40 in the README's line, 120 behind ``slow`` (a YAML file of a big map
# reads in ~0.1 s).
@pytest.mark.parametrize("system", sorted(STARTS))
@slow_variant(40, 120, "files")
def test_a_mutated_file_is_a_scenario_or_a_sentence(system: str, files: int, caplog) -> None:
    @settings(max_examples=files, deadline=None, derandomize=True,  # the same examples in every CI run
              phases=[Phase.explicit, Phase.reuse, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow])
    @given(rng=st.randoms(use_true_random=False))
    def one_file(rng: random.Random) -> None:
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="referee.scenarios"):
            outcome(system, mutate(system, rng))
        # The safety nets (a cross-field check or a trial set-up that raised) must not be needed.
        assert not caplog.records, caplog.records[0].exc_info

    one_file()


_ids = itertools.count(1)


@pytest.mark.parametrize("system", sorted(STARTS))
async def test_no_game_starts_on_a_refused_file(system: str, tmp_path: Path) -> None:
    """Through the service: a refused file answers with an error and stores no game; an
    accepted one starts a game holding its text."""
    service = await Service.open(Settings(db=tmp_path / "fuzz.sqlite3", snapshot_dir=tmp_path))
    try:
        rng = random.Random(27)
        for n in range(12):
            raw = mutate(system, rng)
            channel = user = f"fuzz-{n}"
            reply = await service.handle(Invocation(
                channel_id=channel, guild_id="g", user_id=user, user_name=user, command=["game", "new"],
                options={"system": system, "scenario-file": Upload(name="f.yaml", size=len(raw), data=raw)},
                interaction_id=f"fuzz-{next(_ids)}"))
            stored = await service.store.active_game(channel)
            if outcome(system, raw) is None:
                assert reply.error and stored is None, reply.text
            else:
                assert not reply.error and stored is not None and stored.scenario_text is not None
    finally:
        await service.close()


@pytest.mark.parametrize("system", sorted(STARTS))
@slow_variant(20, 50, "files")
def test_every_problem_of_a_readable_file_names_its_field_path(system: str, files: int) -> None:
    """Issue 27, point 2: once a file reads (its text and limits are fine), every problem
    the model, the cross-field checks or the trial set-up finds says where it is (the first
    20 files of the seed in the README's line, all 50 behind ``slow``)."""
    rng = random.Random(5)
    for _ in range(files):
        raw = mutate(system, rng)
        try:
            scenariofile.read(raw)
        except scenariofile.ScenarioError:
            continue  # the text itself: its sentence has the line
        try:
            get(system).scenario_from_file(raw)
        except scenariofile.ScenarioError as exc:
            unplaced = [p.text() for p in exc.problems if not p.path and "units; at most" not in p.message]
            assert not unplaced, unplaced
