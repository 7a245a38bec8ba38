"""A random-legal driver for Raid and Riposte, checking the invariants after every order."""

from __future__ import annotations

import random

from rules.core.dice import Dice, RecordedDice, SeededDice
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
            assert unit.place == "map" and unit.ap == 0, unit
    assert SYSTEM.load_state(state.model_dump_json()) == state


def check_choices(state: RRState, side: str) -> None:
    """Autocomplete for every option of every order: at most 25 choices, labels <= 100."""
    for model in SYSTEM.actions:
        for field in model.model_fields:
            for partial in ({}, {"unit": next(iter(state.units))}):
                found = SYSTEM.choices(state, side, model.name, field, partial)
                assert len(found) <= 25 and all(len(c.label) <= 100 for c in found)


def play(seed: int, dice: Dice | None = None, limit: int = 4000,
         replay_every: int = 25) -> tuple[RRState, int]:
    """One whole game with random legal orders from setup to the 12.0 verdict; every
    ``replay_every`` orders the step is replayed with its recorded dice (rollback, reroll)."""
    rng = random.Random(seed)
    dice = dice or SeededDice(f"rr-{seed}".encode())
    step = SYSTEM.setup("tannenbruck", {}, dice)
    state = step.state
    assert isinstance(state, RRState)
    orders = 0
    while SYSTEM.waiting_on(state):
        side = SYSTEM.waiting_on(state)[0]
        legal = SYSTEM.legal_actions(state, side)
        assert legal, f"dead end: nothing legal for {side} at {SYSTEM.turn_part(state)}"
        weights = [0.2 if a.name in ("pass", "done", "skip", "take-hits") else 1.0 for a in legal]
        action = rng.choices(legal, weights)[0]
        before = state.model_dump_json()
        start = len(dice.rolls)
        step = SYSTEM.apply(state, side, action, dice)
        assert state.model_dump_json() == before, "apply changed its input"
        new = step.state
        assert isinstance(new, RRState)
        check_invariants(new)
        assert all(len(e.text) <= 120 for e in step.events), [e.text for e in step.events]
        if replay_every and orders % (replay_every * 8) == 0:
            check_choices(state, side)
        if replay_every and orders % replay_every == 0:
            again = SYSTEM.apply(state, side, action, RecordedDice(dice.rolls[start:]))
            assert again.state == new, "replaying the recorded dice gave another state"
        state = new
        orders += 1
        assert orders < limit, f"the game does not end ({SYSTEM.turn_part(state)})"
    assert SYSTEM.result(state) is not None and state.turn == 7
    return state, orders
