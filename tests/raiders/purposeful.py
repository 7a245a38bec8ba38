"""A purposeful (not optimal) raider player: it shows a campaign can be won by orders alone.

Random legal play is the kit's (``rules.core.playout.play``); this is a *policy*, choosing
among ``legal_actions`` what a player heading for the objective would, used by the campaign
test and the channel test.
"""

from __future__ import annotations

import random

from rules.core.dice import SeededDice
from rules.raiders import SYSTEM
from rules.raiders.scenario import load_scenario
from rules.raiders.state import RaidersState


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
    if "fire" in names:  # a line given while fire is open only changes the next round's
        fire = [a for a in actions if a.name == "fire"]
        return max(fire, key=lambda a: (a.firepower, sc.hostile[a.target].combat))
    if "line" in names:
        return max((a for a in actions if a.name == "line"), key=lambda a: a.firepower)
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

        def score(a) -> tuple[int, int, int, bool]:  # type: ignore[no-untyped-def]
            size = sum(1 for u in m.units if u.force == a.force)
            pioneer = any(sc.unit_type[u.type].pioneer for u in m.units if u.force == a.force)
            # A hold objective is judged at the end (6.0, 11.2): a force holding it stays.
            leaves = any(u.force == a.force and u.space in targets for u in m.units) and a.to not in targets
            return (int(leaves), distance(a.to), -int(pioneer), -size, a.march)

        best = min(score(a) for a in moves)
        return rng.choice([a for a in moves if score(a) == best])
    return rng.choice(actions)


def play_smart(seed: int, options: dict[str, object], max_steps: int = 5000) -> RaidersState:
    """Play a game with the purposeful player (the invariants are checked by the caller)."""
    rng = random.Random(seed)
    dice = SeededDice(seed.to_bytes(4, "big"))
    state = SYSTEM.setup("desert", dict(options), dice).state
    assert isinstance(state, RaidersState)
    for _ in range(max_steps):
        if SYSTEM.result(state) is not None:
            return state
        actions = [a for a in SYSTEM.legal_actions(state, "raiders") if not a.read_only]
        assert actions
        action = smart(state, actions, rng)
        state = SYSTEM.apply(state, "raiders", action, dice).state
        assert isinstance(state, RaidersState)
    raise AssertionError(f"seed {seed}: no end after {max_steps} steps")
