"""Raid and Riposte's own invariants, checked after every order of the kit's random legal
playouts (``rules.core.playout.play(SYSTEM, seed, check=check_step)``)."""

from __future__ import annotations

from typing import Any

from rules.core.contract import GameSystem
from rules.core.playout import PlayedStep
from rules.rr import SYSTEM
from rules.rr.board import STACK_LIMIT, Board, is_hind
from rules.rr.state import RRState


def check_invariants(state: RRState) -> None:
    """5.1 stacking, 0 <= AP <= max, one place per unit, one marker at most, JSON round trip."""
    b = Board(state, frozen=True)
    points: dict[tuple[str, str], int] = {}
    nations: dict[str, set[str]] = {}
    for unit in state.on_map():
        spec = b.spec(unit.id)
        key = (unit.area or "", unit.side)
        points[key] = points.get(key, 0) + spec.stacking
        if not is_hind(spec):
            nations.setdefault(unit.area or "", set()).add(spec.nation)
    for (area, side), total in points.items():
        assert total <= STACK_LIMIT, f"area {area} over-stacked for {side}: {total}"
    for area, present in nations.items():
        assert not {"de", "us"} <= present, f"Germans and Americans share {area}"
        assert not ({"de", "su"} <= present or {"us", "su"} <= present) or state.pending, (
            f"both sides in area {area} outside an assault"
        )
    for unit in state.units.values():
        assert 0 <= unit.ap <= max(b.max_ap(unit.id), 0), f"{unit.id} has {unit.ap} AP"
        assert (unit.area is not None) == (unit.place == "map"), unit
        assert (unit.attached_to is not None) == (unit.place == "attached"), unit
        if unit.place == "attached":
            assert state.units[unit.attached_to or ""].place == "map", unit
        if unit.status != "ok":
            assert unit.place == "map", unit
        if unit.status == "suppressed":  # 6.2.1; a Recovering unit may hold the HQ's AP (9.10)
            assert unit.ap == 0, unit
    assert SYSTEM.load_state(state.model_dump_json()) == state


def check_step(system: GameSystem[Any], played: PlayedStep) -> None:
    """After each order: the invariants, event lines a phone can show (<= 160 characters,
    ``info`` aside), and 7.0: a side to act in the operations phase has an order but pass."""
    state = played.step.state
    assert isinstance(state, RRState)
    check_invariants(state)
    assert all(len(e.text) <= 160 for e in played.step.events), [e.text for e in played.step.events]
    if state.phase == "ops" and not state.pending:
        names = {a.name for a in system.legal_actions(state, state.active)}
        assert names - {"pass", "standing", "info"}, f"{state.active} left with only pass (7.0)"
