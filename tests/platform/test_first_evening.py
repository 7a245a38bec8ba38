"""The first evening of a new club, in the console transcript (issue 25, points 6 and 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core import registry
from tests.console_run import run


async def test_help_without_a_game_lists_the_systems_and_how_to_start(tmp_path: Path):
    """10: ``/game help`` with no game is a short list of the systems and the first steps,
    not every order of every system (it was about 100 lines)."""
    refused, text, _ = await run(tmp_path, ["/game help"], [])
    assert refused == 0
    lines = text.splitlines()
    assert len(lines) <= 15
    assert "/game new system:<key>" in text and "/game join side:<side>" in text
    for key in registry.load_all():
        assert any(line.startswith(f"• {key}: ") for line in lines)
    assert "orders (/" not in text


@pytest.mark.parametrize(("typed", "side"), [("soviets", "soviet"), ("NATO", "nato"),
                                              ("Soviet", "soviet")])
async def test_a_side_is_found_by_its_plural_and_any_case(tmp_path: Path, typed: str, side: str):
    """10: ``side:soviets`` joins the soviet side."""
    refused, text, _ = await run(tmp_path, ["/game new system:rr", f"/game join side:{typed}"], [])
    assert refused == 0, text
    assert f"takes {side}." in text


async def test_an_unknown_side_is_refused_with_the_sides(tmp_path: Path):
    refused, text, _ = await run(tmp_path, ["/game new system:rr", "/game join side:martians"], [])
    assert refused == 1
    assert "has no side 'martians'; sides: nato, soviet." in text


async def test_game_over_has_one_full_stop(tmp_path: Path, monkeypatch):
    """6: a result that ends in its own full stop is not given a second ("lost..")."""
    system = registry.get("commando")
    monkeypatch.setattr(type(system), "result", lambda self, state: "The commandos lost.")
    script = ["/game new system:commando", "/game join side:commandos", "/game join side:germans",
              "/game end"]
    refused, text, _ = await run(tmp_path, script, [])
    assert refused == 0, text
    assert "🏁 Game over: The commandos lost.\n" in text + "\n"
    assert ".." not in text
