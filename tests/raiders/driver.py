"""A random-legal driver for Raiders: plays whole missions and campaigns, checking invariants."""

from __future__ import annotations

import random

from rules.core.contract import Step
from rules.core.dice import RecordedDice, SeededDice
from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders.forces import stack_count
from rules.raiders.scenario import load_scenario
from rules.raiders.state import RaidersState


#: Orders a random player could repeat for ever (split then join...): drawn less often.
HOUSEKEEPING = {"split", "join", "trade", "abandon"}


def check_invariants(state: RaidersState) -> None:
    """Stacking, alert 1..5, one place per unit, gear where its holder is, JSON round trip."""
    assert SYSTEM.load_state(state.model_dump_json()) == state
    m = state.mission
    if m is None or state.phase not in ("recruit", "ops"):
        return
    sc = load_scenario(state.scenario)
    assert 1 <= m.alert <= 5
    assert 0 <= m.rp <= sc.rp_max
    assert len({u.id for u in m.units}) == len(m.units)
    for u in m.units:
        assert (u.space is None) == (u.force is None), u
        for gid in u.gear:
            g = next(g for g in m.gear if g.id == gid)
            assert g.holder == u.id and u.space is not None
    for g in m.gear:
        if g.holder is not None:
            assert g.id in next(u for u in m.units if u.id == g.holder).gear
    forces: dict[str, str] = {}
    for u in m.units:
        if u.force is not None:
            assert forces.setdefault(u.force, u.space or "") == u.space, "a force in two places"
    if m.battle is None:
        for s in sc.spaces:
            if not s.staging:
                assert stack_count(sc, m, s.id) <= m.command, (s.id, m.command)


def play(seed: int, options: dict[str, object], max_steps: int = 3000) -> tuple[RaidersState, int, int]:
    """Play from set-up until the game ends; return the final state, steps and missions."""
    rng = random.Random(seed)
    dice = SeededDice(seed.to_bytes(4, "big"))
    step: Step = SYSTEM.setup("desert", dict(options), dice)
    state = step.state
    assert isinstance(state, RaidersState)
    missions = 0
    for count in range(max_steps):
        if SYSTEM.result(state) is not None:
            return state, count, missions + 1
        assert SYSTEM.waiting_on(state) == ["raiders"]
        actions = SYSTEM.legal_actions(state, "raiders")
        assert actions, SYSTEM.status(state)
        # Lean towards moving on so missions finish: recruiting is capped by RP anyway.
        main = [a for a in actions if a.name not in HOUSEKEEPING]
        action = rng.choice(main if main and rng.random() < 0.9 else actions)
        before = state.model_dump_json()
        first_roll = len(dice.rolls)
        try:
            step = SYSTEM.apply(state, "raiders", action, dice)
        except RuleError as exc:  # a listed order must be accepted
            raise AssertionError(f"legal {action!r} refused: {exc}") from exc
        assert state.model_dump_json() == before, "apply changed its input"
        # Replaying the order with its recorded dice gives the identical state (DESIGN.md).
        replay = SYSTEM.apply(state, "raiders", action, RecordedDice(dice.rolls[first_roll:]))
        assert replay.state == step.state
        if state.phase != "between" and step.state.phase == "between":
            missions += 1
        state = step.state
        assert isinstance(state, RaidersState)
        check_invariants(state)
        SYSTEM.status(state)
        SYSTEM.view(state)
    raise AssertionError(f"seed {seed}: no end after {max_steps} steps: {SYSTEM.status(state)}")
