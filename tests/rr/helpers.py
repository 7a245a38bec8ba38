"""Small hand-built Raid and Riposte boards for rule tests, independent of the real map.

A board is a grid of square areas numbered row by row from "1"; squares sharing a side or a
corner are adjacent (7.2), so range is the larger of the column and row gaps (7.3.1).
"""

from __future__ import annotations

from typing import Any

from rules.core.contract import Action, Step
from rules.core.dice import ScriptedDice
from rules.rr import SYSTEM
from rules.rr.actions import Done, Pass
from rules.rr.board import register_scenario
from rules.rr.scenario import AreaSpec, Deployment, Scenario, UnitSpec, UnitValues
from rules.rr.state import RRState, UnitState

SIZE = 100.0


def spec(
    uid: str, side: str = "nato", *, nation: str | None = None, kind: str = "infantry",
    special: str | None = None, stacking: int = 2, vehicle: bool = False, rcm: int = 2,
    acm: int | None = 3, df: int = 7, morale: int = 7, ap: int = 3, one_step: bool = False,
    attached_to: str | None = None,
) -> UnitSpec:
    """A counter; the reduced side has one less RCM, ACM, DF and morale."""
    full = UnitValues(rcm=rcm, acm=acm, df=df, morale=morale, ap=ap)
    reduced = None if one_step else UnitValues(
        rcm=rcm - 1, acm=None if acm is None else acm - 1, df=df - 1, morale=morale - 1, ap=ap
    )
    return UnitSpec(
        id=uid, name=uid, side=side, nation=nation or ("de" if side == "nato" else "su"),  # type: ignore[arg-type]
        kind=kind, special=special, stacking=stacking, vehicle=vehicle, full=full,
        reduced=reduced, attached_to=attached_to,
    )


def board(
    key: str, cols: int, rows: int, units: list[UnitSpec], *, tm: dict[str, int] | None = None,
    blocks: tuple[str, ...] = (), city: tuple[str, ...] = (), east: tuple[str, ...] = (),
    deployments: list[Deployment] | None = None, **extra: Any,
) -> Scenario:
    """A grid scenario registered under ``key``."""
    areas = []
    for r in range(rows):
        for c in range(cols):
            aid = str(r * cols + c + 1)
            x0, y0 = c * SIZE, r * SIZE
            areas.append(AreaSpec(
                id=aid, terrain="city" if aid in city else "clear", tm=(tm or {}).get(aid, 0),
                polygon=[(x0, y0), (x0 + SIZE, y0), (x0 + SIZE, y0 + SIZE), (x0, y0 + SIZE)],
                centre=(x0 + SIZE / 2, y0 + SIZE / 2), city=aid in city, east_of_river=aid in east,
                blocks_los=aid in blocks,
            ))
    scenario = Scenario(
        key=key, title=f"test {key}", width=cols * SIZE, height=rows * SIZE, areas=areas,
        units=units, deployments=deployments or [], **extra,
    )
    register_scenario(scenario)
    return scenario


def game(scenario: Scenario, where: dict[str, str], **fields: Any) -> RRState:
    """Operations phase of turn 1, NATO to act; units in ``where`` on the map with full AP."""
    units = {}
    for u in scenario.units:
        state = UnitState(id=u.id, side=u.side)
        if u.id in where:
            state.place, state.area, state.ap = "map", where[u.id], u.full.ap
        units[u.id] = state
    for u in scenario.units:
        if u.attached_to and u.attached_to in where and u.id not in where:
            units[u.id].place, units[u.id].attached_to = "attached", u.attached_to
    base: dict[str, Any] = dict(scenario=scenario.key, turn=1, phase="ops", active="nato",
                                units=units, max_turn=scenario.turns)
    base.update(fields)
    return RRState(**base)


def act(state: RRState, side: str, action: Action, dice: list[int] | None = None) -> Step:
    """Apply an order with scripted dice; every scripted die must be used."""
    rolled = ScriptedDice(dice or [])
    step = SYSTEM.apply(state, side, action, rolled)
    assert rolled.left == 0, f"{rolled.left} scripted dice unused"
    return step


def texts(step: Step) -> list[str]:
    """The event lines of a step."""
    return [e.text for e in step.events]


def end_ops(state: RRState, dice: list[int]) -> Step:
    """Both sides pass (7.0) and finish their routes (8.0) until the turn ends; ``dice`` are
    for the automatic steps that follow (initiative, cadres, rally) and must all be used."""
    rolled = ScriptedDice(dice)
    turn = state.turn
    step: Step | None = None
    while state.turn == turn and state.phase != "over":
        order = Pass() if state.phase == "ops" else Done()
        step = SYSTEM.apply(state, SYSTEM.waiting_on(state)[0], order, rolled)
        assert isinstance(step.state, RRState)
        state = step.state
    assert step is not None and rolled.left == 0, f"{rolled.left} scripted dice unused"
    return step


def legal(state: RRState, side: str) -> list[Action]:
    """The orders ``side`` may give now, without the anytime and read-only ones."""
    return [a for a in SYSTEM.legal_actions(state, side) if not (a.anytime or a.read_only)]
