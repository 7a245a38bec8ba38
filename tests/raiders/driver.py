"""A random-legal driver for Raiders: plays whole missions and campaigns, checking invariants."""

from __future__ import annotations

import random

from rules.core.contract import Action, Step
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


def check_choices(state: RaidersState, action: object) -> None:
    """Autocomplete offers what the rules accept: each id option of a legal order is listed."""
    assert isinstance(action, Action)
    given = action.model_dump(exclude_defaults=True)
    for spec in action.options():
        if spec.kind != "id" or spec.name not in given:
            continue
        partial = {k: v for k, v in given.items() if k != spec.name}
        offered = SYSTEM.choices(state, "raiders", action.name, spec.name, partial)
        assert len(offered) <= 25
        assert str(given[spec.name]) in [c.value for c in offered], (action, spec.name, offered)


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
        check_choices(state, rng.choice(actions))
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
        # Lines read on a phone: short (the data's own texts set the longest ones).
        assert all(len(line) <= 48 for line in SYSTEM.status(state)), SYSTEM.status(state)
        assert all(len(e.text) <= 64 for e in step.events), [e.text for e in step.events]
        SYSTEM.view(state)
    raise AssertionError(f"seed {seed}: no end after {max_steps} steps: {SYSTEM.status(state)}")


#: What a purposeful player buys first, in order, while RP lasts (9.0).
SHOPPING = ["sapper", "sas", "lrdg", "sapper", "commando", "commando", "sas"]


def goals(state: RaidersState) -> set[str]:
    """Spaces a purposeful player heads for: markers to turn or blow up, cargo home, the space."""
    sc = load_scenario(state.scenario)
    m = state.mission
    assert m is not None
    goal = sc.mission[m.card].objective
    if goal.kind == "occupy":
        return {goal.space or ""}
    if goal.kind == "recover" and any(u.carrying for u in m.units):
        return {s.id for s in sc.spaces if s.staging}
    wanted = "target" if goal.kind == "demolish" else "cargo"
    return {
        mk.space for mk in m.markers
        if mk.space and not mk.destroyed and (mk.type is None or sc.marker_type[mk.type].kind == wanted)
    }


def smart(state: RaidersState, actions: list, rng: random.Random):  # type: ignore[no-untyped-def]
    """A purposeful (not optimal) raider player, to show campaigns can be won."""
    sc = load_scenario(state.scenario)
    names = {a.name for a in actions}
    m = state.mission
    for wanted in ("end-mission", "next-mission", "carry"):
        if wanted in names:
            return next(a for a in actions if a.name == wanted)
    if "demolish" in names:
        demo = [a for a in actions if a.name == "demolish"]
        return max(demo, key=lambda a: a.explosives)
    if "line" in names:
        return actions[0]
    if "fire" in names:
        fire = [a for a in actions if a.name == "fire"]
        return max(fire, key=lambda a: (a.firepower, sc.hostile[a.target].combat))
    if names == {"accept", "swap"}:
        card = sc.card[m.in_play] if m and m.in_play else None
        risky = card is not None and card.effect.hostiles is not None
        return next(a for a in actions if a.name == ("swap" if risky else "accept"))
    if state.phase == "recruit":
        have = [u.type for u in m.units if u.space] if m else []
        for kind in SHOPPING:
            if have.count(kind) < SHOPPING.count(kind):
                buy = [a for a in actions if a.name == "recruit" and a.unit == kind]
                if buy:
                    return buy[0]
                break
        pioneers = [u.id for u in m.units if u.space and sc.unit_type[u.type].pioneer and not u.gear] if m else []
        gear = [a for a in actions if a.name == "gear" and a.item == "explosives"]
        if pioneers and gear:
            from rules.raiders.actions import BuyGear

            return BuyGear(item="explosives", unit=pioneers[0])
        return next(a for a in actions if a.name == "begin")
    if "end-op" in names:
        return next(a for a in actions if a.name == "end-op")
    moves = [a for a in actions if a.name == "move" and a.how == "road" and not a.with_force]
    if moves and m is not None:
        targets = goals(state)

        def distance(space: str) -> int:
            paths = [sc.network.path(space, t) for t in targets]
            return min((len(p) for p in paths if p), default=99)

        def score(a) -> tuple[int, int, bool]:  # type: ignore[no-untyped-def]
            size = sum(1 for u in m.units if u.force == a.force)
            pioneer = any(sc.unit_type[u.type].pioneer for u in m.units if u.force == a.force)
            return (distance(a.to), -int(pioneer), -size, a.march)

        best = min(score(a) for a in moves)
        return rng.choice([a for a in moves if score(a) == best])
    return rng.choice(actions)


def play_smart(seed: int, options: dict[str, object], max_steps: int = 5000) -> RaidersState:
    """Play a game with the purposeful player, checking the same invariants."""
    rng = random.Random(seed)
    dice = SeededDice(seed.to_bytes(4, "big"))
    state = SYSTEM.setup("desert", dict(options), dice).state
    assert isinstance(state, RaidersState)
    for _ in range(max_steps):
        if SYSTEM.result(state) is not None:
            return state
        actions = SYSTEM.legal_actions(state, "raiders")
        assert actions
        action = smart(state, actions, rng)
        state = SYSTEM.apply(state, "raiders", action, dice).state
        assert isinstance(state, RaidersState)
        check_invariants(state)
    raise AssertionError(f"seed {seed}: no end after {max_steps} steps")
