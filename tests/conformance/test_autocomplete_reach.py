"""Every legal value of every autocompleted option is reachable by typing it (issue 25).

Autocomplete used to cut the legal values at 25 before filtering by what was typed: a legal
hex outside the first 25 could not be found even typed in full.  Here, for every registered
system, at positions spread over a random legal game, each option of each legal order (the
others filled as in that order) is typed in full and by a prefix, and the value must be
among the suggestions: first when typed in full.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.autoplay import order_options
from rules.core import registry
from rules.core.contract import Action, GameSystem
from rules.core.orders import MAX_SUGGESTIONS, matching
from rules.core.playout import PlayedStep, play

SYSTEMS = registry.load_all()
#: Positions checked per game: the states before these orders (spread over the game).
POSITIONS = 3


def id_fields(action: Action) -> list[str]:
    """The options autocomplete offers values for: the order's ids (``str`` fields)."""
    return [spec.name for spec in action.options() if spec.kind == "id"]


def unreachable(system: GameSystem[Any], state: Any, side: str) -> list[str]:
    """Values of legal orders that the suggestions miss, typed in full or by a prefix."""
    missed: list[str] = []
    seen: set[tuple[str, str, tuple[tuple[str, str], ...]]] = set()
    for action in system.legal_actions(state, side):
        options = {k: str(v) for k, v in order_options(action).items()}
        for field in id_fields(action):
            value = options.get(field)
            if not value:
                continue
            others = tuple(sorted((k, v) for k, v in options.items() if k != field))
            if (action.path(), value, others) in seen:
                continue
            seen.add((action.path(), value, others))
            for typed in {value, value[:-1]} - {""}:
                found = [c.value for c in system.choices(
                    state, side, action.path(), field, {**dict(others), field: typed})]
                ok = value in found and (typed != value or found[0].casefold() == value.casefold())
                if not ok:
                    missed.append(f"{action.path()} {field}:{value!r} typed {typed!r}")
    return missed


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_legal_value_is_reachable_by_typing_it(key: str) -> None:
    """Issue 25: typed in full, a legal value comes first; typed but for its last key, it is
    among the 25 suggestions, for every option of every order at positions over a game."""
    system = SYSTEMS[key]
    steps: list[PlayedStep] = play(system, seed=25).steps
    picks = steps[:: max(1, len(steps) // POSITIONS)][:POSITIONS]
    checked = 0
    for played in picks:
        missed = unreachable(system, played.before, played.side)
        assert missed == [], missed[:5]
        checked += 1
    assert checked == len(picks) > 0


def test_matching_filters_before_it_cuts() -> None:
    """The 26th value and beyond are found when typed; exact first, then prefixes (shorter
    first), then the rest containing the text; labels are searched when no value matches, in
    short lists only."""
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 40) for r in range(1, 30)]
    assert "3929" not in hexes[:MAX_SUGGESTIONS]
    assert matching(hexes, "3929") == ["3929"]
    assert matching(hexes, "392")[:3] == ["3920", "3921", "3922"]
    assert matching(["120", "12", "312", "a"], "12") == ["12", "120", "312"]
    assert matching(["G1", "G2"], "gunner", {"G1": "G1 gunner team", "G2": "G2 rifles"}.get) == ["G1"]
    assert matching(["G1", "G12"], "G1", {"G1": "G1", "G12": "G12 gunner"}.get) == ["G1", "G12"]
    assert matching(hexes, "gunner", lambda v: "gunner") == []  # 1,131 values: by value only
    assert len(matching(hexes, "")) == MAX_SUGGESTIONS
