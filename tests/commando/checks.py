"""The commando invariants, checked after every order of a playout (``play(..., check=)``)."""

from __future__ import annotations

from typing import Any

from rules.commando import board
from rules.commando.movement import ENEMY_ZONE
from rules.commando.state import RaidState
from rules.core import table
from rules.core.contract import GameSystem
from rules.core.playout import PlayedStep


def check_invariants(state: RaidState) -> None:
    """Units on the table and out of water, wire and targets, never overlapping another
    base; actions within limits."""
    scen = state.table
    blockers = board.obstacles(state)
    alive = state.alive()
    for unit in alive:
        assert table.on_table(unit.pos, scen.width, scen.height, board.BASE_RADIUS - 1e-3), unit
        for key, shape in blockers.items():
            gap = table.distance_to_shape(unit.pos, shape)
            assert gap >= board.BASE_RADIUS - 1e-3, f"{unit.id} inside {key} ({gap:.3f})"
        for other in alive:
            if other.id < unit.id:
                gap = table.distance(unit.pos, other.pos)
                assert gap >= board.CONTACT - 2e-3, f"{unit.id} overlaps {other.id} ({gap:.3f})"
        assert 0 <= unit.actions <= 3
        if unit.kind == "pillbox":
            assert unit.actions <= 1
        if unit.kind == "searchlight":
            assert unit.actions == 0
    assert 1 <= state.turn <= state.max_turn + 1


def check_step(system: GameSystem[Any], played: PlayedStep) -> None:
    """After each order: the invariants, and no move that ended closer than 6" to an enemy
    it started more than 6" from (Movement: the move ceases on the 6" line)."""
    after = played.step.state
    assert isinstance(after, RaidState)
    check_invariants(after)
    before = played.before
    assert isinstance(before, RaidState)
    if played.action.name != "move":
        return
    mover_before = before.unit(played.action.unit)  # type: ignore[attr-defined]
    mover_after = after.unit(mover_before.id)
    for enemy in before.alive():
        if enemy.side == mover_before.side:
            continue
        if table.beyond(table.distance(mover_before.pos, enemy.pos), ENEMY_ZONE):
            gap = table.distance(mover_after.pos, enemy.pos)
            assert gap >= ENEMY_ZONE - 0.01, f"{mover_before.id} ended {gap:.2f} from {enemy.id}"
