"""Scenario files cannot exhaust the bot (issue 45, break 9): table sizes, coordinates, outline
corners and counts of pieces and units within the rulebooks' scale (``rules/core/bounds.py``),
refused while the file is validated, before anything is drawn, by ``referee scenario check``
and ``/game new scenario-file:`` alike, each with a sentence saying what is wrong and what is
allowed.  The files of the attack: skirmish ``width: 1e308`` (the render took over 4 GB),
skirmish 1,000,000 by 1,000,000 (425 s to draw), commando 100,000 by 100,000 (51 s), an rr
area of 20,000 corners (2.2 s of CPU)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any, Callable

import pytest

from bot.cli import main
from bot.config import Settings
from bot.models import Invocation, Upload
from bot.service import Service
from rules.core import bounds, scenariofile
from rules.core.registry import get
from tests.scenarios.helpers import as_json, as_yaml, data

_ids = itertools.count(1)


def _set(**fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda value: value.update(fields)


def _corners(value: dict[str, Any]) -> None:
    # An area's outline as a circle of 20,000 corners (the attack's rr file).
    x, y = value["areas"][0]["centre"]
    value["areas"][0]["polygon"] = [[round(x + 10 * math.cos(k / 3183), 1), round(y + 10 * math.sin(k / 3183), 1)]
                                    for k in range(20_000)]


def _far_team(value: dict[str, Any]) -> None:
    value["units"][0]["teams"][0]["x"] = 1e308


def _infinite_corner(value: dict[str, Any]) -> None:
    value["terrain"][0]["polygon"] = [[0, 0], [10, 0], ["inf", 10]]


def _many_forces(value: dict[str, Any]) -> None:
    line = value["sides"][0]["forces"][0]
    value["sides"][0]["forces"] = [dict(line, count=30) for _ in range(15)]  # 450 units


def _many_corners(value: dict[str, Any]) -> None:
    # Every area's outline walked with 199 corners a side: each within the 200, 6,000 passed.
    for area in value["areas"]:
        (x1, y1), (x2, y2) = area["polygon"][0], area["polygon"][1]
        area["polygon"] = [[round(x1 + (x2 - x1) * k / 199, 2), round(y1 + (y2 - y1) * k / 199, 2)]
                           for k in range(199)] + area["polygon"][1:]
        area["polygon"] = area["polygon"][:200]


def _many_routes(value: dict[str, Any]) -> None:
    value["routes"] = value["routes"] * 20  # 700 routes


#: (system, what the file does, the change, words the refusal must hold).
ATTACKS = [
    ("skirmish", "width 1e308", _set(width=1e308), ["width", "1e+308 inches", "6 to 240 inches"]),
    ("skirmish", "1,000,000 by 1,000,000", _set(width=1_000_000, height=1_000_000), ["width", "6 to 240 inches"]),
    ("skirmish", "a team at 1e308", _far_team, ["units[0].teams[0].x", "-10,000 to 10,000"]),
    ("skirmish", "a table 200 by 24", _set(width=200, height=20), ["200 by 20", "at most 8 times"]),
    ("commando", "100,000 by 100,000", _set(width=100_000, height=100_000), ["width", "6 to 240 inches"]),
    ("commando", "an infinite corner", _infinite_corner, ["terrain[0].polygon", "inf", "-10,000 to 10,000"]),
    ("rr", "an area of 20,000 corners", _corners, ["areas[0].polygon", "20,000 corners", "at most 200"]),
    ("rr", "6,000 corners in all", _many_corners, ["corners in all", "at most 6,000"]),
    ("rr", "a map 1e12 wide", _set(width=1e12), ["width", "100 to 5000 map units"]),
    ("raiders", "700 routes", _many_routes, ["routes", "700 routes", "at most 400"]),
    ("mak", "450 units more", _many_forces, ["sets up 4", f"units; a game may have at most {bounds.UNITS}"]),
]


def attacked(system: str, change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    value = data(system)
    change(value)
    return value


@pytest.mark.parametrize(("system", "what", "change", "words"), ATTACKS, ids=[a[1] for a in ATTACKS])
def test_a_file_beyond_the_rulebooks_scale_is_refused_with_what_is_allowed(
        system: str, what: str, change: Callable[[dict[str, Any]], None], words: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    fmt = get(system).scenario_format
    assert fmt is not None
    # Nothing is set up or drawn: the refusal comes from validation.
    monkeypatch.setattr(type(get(system)), "setup", lambda *a, **k: pytest.fail("set up before refusing"))
    with pytest.raises(scenariofile.ScenarioError) as refused:
        scenariofile.check(system, fmt, as_json(attacked(system, change)))
    text = str(refused.value)
    assert all(w in text for w in words), text
    assert "Traceback" not in text and refused.value.problems


def test_referee_scenario_check_refuses_the_4_gb_table_and_draws_nothing(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    path.write_bytes(as_yaml(attacked("skirmish", _set(width=1e308))))
    assert main(["scenario", "check", str(path), "--system", "skirmish"]) == 1
    out = capsys.readouterr()
    assert "6 to 240 inches" in out.out + out.err
    assert not path.with_suffix(".png").exists()


async def test_game_new_with_the_file_refuses_it_and_stores_no_game(tmp_path: Path) -> None:
    service = await Service.open(Settings(db=tmp_path / "club.sqlite3", snapshot_dir=tmp_path / "snaps"))
    try:
        raw = as_yaml(attacked("commando", _set(width=100_000, height=100_000)))
        reply = await service.handle(Invocation(
            channel_id="c1", guild_id="club", user_id="alice", user_name="alice", is_moderator=False,
            command=["game", "new"], interaction_id=f"b{next(_ids)}",
            options={"system": "commando", "scenario-file": Upload(name="big.yaml", size=len(raw), data=raw)}))
        assert reply.error and reply.ephemeral and "6 to 240 inches" in reply.text, reply.text
        assert await service.games.load("c1") is None
    finally:
        await service.close()


@pytest.mark.parametrize("system", ["skirmish", "commando"])
def test_the_longest_table_the_limits_allow_is_still_a_scenario(system: str) -> None:
    """The limits bound, they do not forbid: a table as long as its shape allows (4 times its
    depth, within 20 feet) passes, its pieces where they were."""
    value = data(system)
    value["width"] = min(bounds.TABLE_INCHES[1], value["height"] * bounds.ASPECT)
    fmt = get(system).scenario_format
    assert fmt is not None
    scenariofile.check(system, fmt, as_json(value))
