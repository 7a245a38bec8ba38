"""The orders of close quarters fought out, engineers, smoke and the AMU (9.3, 14.4, 16.2,
19.2), and the airdrop and booster moves ``ground_orders.enter`` and ``move`` hand over to.

Each order states its legality once (a ``*_problem`` or a list of legal values from
``cqc.py``, ``hazards.py`` or ``special.py``): the resolver raises it, the offers list exactly
the orders without one.
"""

from __future__ import annotations

from typing import Any

from rules.core.contract import Action
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.mak import cqc, hazards, special
from rules.mak import special_actions as S
from rules.mak.legal import hex_problem, mines_problem, move_targets, raze_problem, some_of
from rules.mak.refusals import stuck
from rules.mak.resolve import arrive, close_window, finish_moving, open_window, window_defenders
from rules.mak.state import SIDE_NAMES, Blow, Exchange, MakState, Mark, UnitState, other
from rules.mak.table import Table

MakCtx = Ctx[MakState]

#: 16.2: what ``amu do:`` may be, and the rule that says when.
AMU_DOS = {"collect": special.collect_problem, "destroy": special.scrap_problem, "leave": special.withdraw_problem}


def _own(t: Table, side: str, uid: str) -> UnitState:
    u = t.s.find(uid)
    if u is None or u.side != side:
        raise RuleError(f"'{uid[:20]}' is not one of your units.")
    return u


def _under_way(t: Table) -> bool:
    """Something else is under way (a move over the stacking limit, an assault)."""
    return stuck(t) is not None or t.s.assault is not None


def _trial(state: MakState, label: str) -> Table:
    """The table as it would be with close quarters opened in ``label`` (nothing changed)."""
    return Table(state.model_copy(update={"exchange": Exchange(hex=label)}))


# -- 9.3 continuing close quarters combat ------------------------------------------------


def engage_offers(state: MakState, side: str) -> list[Action]:
    """9.3.1-9.3.2: the blows of the combat under way, or of each hex where one may open."""
    t = Table(state)
    if state.exchange is not None:
        blows = cqc.blow_offers(t, side)
    elif _under_way(t) or side != state.active:
        blows = []
    else:  # 9.3.1 1: the first target named opens the combat in that hex
        blows = [b for h in cqc.melee_hexes(t, side) for b in cqc.blow_offers(_trial(state, h), side)]
    return [S.Engage(unit=b.unit, target=b.target, unarmed=b.unarmed) for b in blows]


@order(S.Engage, phases=("act", "melee"), offers=engage_offers)
def engage(ctx: MakCtx, o: S.Engage) -> None:
    """9.3.2: a target for one unit; the side's attacks resolve once each unit has one (or
    the player passes)."""
    t = Table(ctx.state)
    u, e = ctx.state.find(o.unit), ctx.state.find(o.target)
    blow = Blow(unit=u.id if u else o.unit, target=e.id if e else o.target, unarmed=o.unarmed)
    if ctx.state.exchange is None:
        hexes = cqc.melee_hexes(t, ctx.side) if not _under_way(t) else []
        if u is None or u.side != ctx.side or u.hex not in hexes:
            raise RuleError(f"No close quarters combat of yours to fight with {o.unit[:20]} "
                            f"(hexes: {', '.join(hexes) or 'none'}) (9.3.1).")
        problem = cqc.blow_problem(_trial(ctx.state, u.hex or ""), ctx.side, blow)
        if problem:
            raise RuleError(problem)
        finish_moving(ctx.state)
        cqc.open_exchange(t, ctx, u.hex or "")
    problem = cqc.blow_problem(t, ctx.side, blow)
    if problem:
        raise RuleError(problem)
    cqc.declare(t, ctx, blow)


# -- 14.4.2 / 19.2: fire and smoke --------------------------------------------------------


def lay_offers(state: MakState, side: str) -> list[Action]:
    """19.2 smoke, 14.4.2 arson, 11.3.3 razing; 14.4.3 arson in a defensive window."""
    t = Table(state)
    if state.window is not None:
        return [S.Lay(unit=u.id, what="fire", at=h) for u in t.on_map(side) for h in hazards.defensive_arson_hexes(t, u)]
    if _under_way(t) or side != state.active:
        return []
    return ([S.Lay(unit=u.id, what="smoke", at=h) for u in t.on_map(side) for h in special.smoke_hexes(t, u)]
            + [S.Lay(unit=u.id, what="fire", at=h) for u in t.on_map(side) for h in hazards.arson_hexes(t, u)]
            + [S.Lay(unit=u.id, what="raze", at=u.hex or "") for u in t.on_map(side)
               if raze_problem(t, side, u.id) is None])


@order(S.Lay, phases=("act", "defence"), offers=lay_offers)
def lay(ctx: MakCtx, o: S.Lay) -> None:
    """19.2.1 smoke at any time of the troop phase; 14.4.2 arson (rolled at the end of the
    phase), or 14.4.3 instead of a defensive attack; 11.3.3 razing a Depot."""
    t = Table(ctx.state)
    u = _own(t, ctx.side, o.unit)
    if o.what == "raze":
        _raze(t, ctx, u, o.at)
    elif ctx.state.window is not None:
        _defensive_arson(t, ctx, u, o)
    elif o.what == "smoke":
        hexes = special.smoke_hexes(t, u) if not _under_way(t) else []
        if o.at not in hexes:
            raise RuleError(f"{u.id} has no smoke equipment (19.2.2)." if t.stats(u).smoke is None else
                            f"{u.id} cannot lay smoke in {o.at[:12]} now (in range and left this turn: "
                            f"{some_of(hexes, 6) if hexes else 'none'}) (19.2.2).")
        special.lay_smoke(t, ctx, u, o.at)
    else:
        _arson(t, ctx, u, o.at)


# -- 16.2 the AMU --------------------------------------------------------------------------


def amu_offers(state: MakState, side: str) -> list[Action]:
    """16.2: each unit's AMU actions legal now."""
    t = Table(state)
    if _under_way(t):
        return []
    return [S.Amu(unit=u.id, do=do) for u in t.on_map(side) for do, problem in AMU_DOS.items()  # type: ignore[arg-type]
            if problem(t, side, u) is None]


@order(S.Amu, phases="act", offers=amu_offers)
def amu(ctx: MakCtx, o: S.Amu) -> None:
    """16.2.3 collect (the unit's move ends), 16.2.4 destroy, 16.2.3 leave the map with it."""
    t = Table(ctx.state)
    u = _own(t, ctx.side, o.unit)
    why = AMU_DOS[o.do](t, ctx.side, u) or ("Finish the move under way first." if _under_way(t) else None)
    if why:
        raise RuleError(why)
    if o.do != "destroy":
        finish_moving(ctx.state)
    if o.do == "collect":
        special.take_amu(ctx, u.hex or "")
        u.amu, u.move_done = True, True
        ctx.say("amu", f"{u.id} collects the AMU in {u.hex}; it scores when carried off the map (16.2.3)", "16.2.3")
    elif o.do == "destroy":
        special.take_amu(ctx, u.hex or "")
        ctx.say("amu", f"{u.id} destroys the AMU in {u.hex} (16.2.4)", "16.2.4")
    else:
        special.withdraw(ctx, u)


def _raze(t: Table, ctx: MakCtx, u: UnitState, at: str) -> None:
    """11.3.3: one movement point and the unit's attack; the Depot token is removed."""
    problem = raze_problem(t, ctx.side, u.id)
    if t.s.window is not None:
        problem = f"{u.id} may raze a Depot only in its own movement phase, not in defensive fire (11.3.3)."
    if problem:
        raise RuleError(problem)
    assert u.hex is not None
    if at.strip().lower() != u.hex.lower():
        raise RuleError(f"{u.id} razes only the Depot in its own hex: at:{u.hex} (11.3.3).")
    finish_moving(ctx.state)
    u.mp_spent += 1.0
    u.attacked = True
    del ctx.state.depots[u.hex]
    ctx.say("raze", f"{u.id} destroys the {SIDE_NAMES[other(ctx.side)]} Depot in {u.hex} (11.3.3)", "11.3.3")
    ctx.state.marks.append(Mark(kind="blast", hexes=[u.hex], side=u.side, text="Depot destroyed"))
    ctx.snapshot = True


def _arson(t: Table, ctx: MakCtx, u: UnitState, label: str) -> None:
    """14.4.2: declared now, rolled at the end of the troop phase."""
    hexes = hazards.arson_hexes(t, u) if not _under_way(t) else []
    if label not in hexes:
        raise RuleError(f"{u.id} cannot set {label[:12]} alight: an engineer squad that has not moved or "
                        f"attacked, at an adjacent building hex ({', '.join(hexes) or 'none'}) (14.4.2).")
    finish_moving(ctx.state)
    hazards.declare_arson(t, ctx, u, label)


def _defensive_arson(t: Table, ctx: MakCtx, u: UnitState, o: S.Lay) -> None:
    """14.4.3: alone, at once, instead of the squad's defensive attack."""
    hexes = hazards.defensive_arson_hexes(t, u)
    if o.what != "fire" or o.at not in hexes:
        raise RuleError(f"Now {u.id} may only try arson, and only if it was just fired upon without damage, "
                        f"at an adjacent building hex ({', '.join(hexes) or 'none'}) (14.4.3).")
    assert ctx.state.window is not None
    ctx.state.window.used.append(u.id)
    hazards.roll_arson(t, ctx, o.at, 1, "14.4.3")
    if not window_defenders(t):
        close_window(t, ctx)


def drop_in(t: Table, ctx: MakCtx, u: UnitState, label: str) -> None:
    """12.2: an airdropped unit's ``enter``: placed in the hex; among enemies, anti-aircraft
    fire first (endurance C, M destroys), then it neither moves nor attacks this phase."""
    finish_moving(ctx.state)
    u.status, u.hex = "on", label
    u.moved = u.move_done = True
    ctx.state.marks.append(Mark(kind="place", hexes=[label], side=u.side, text=f"{u.id} airdrop"))
    ctx.snapshot = True
    ctx.say("airdrop", f"{u.id} is dropped into {label} (12.2)", "12.2")
    if label in ctx.state.mines:
        hazards.mine_attack(t, ctx, u, label, "as it lands")  # 19.1.3 (no search from the air)
    enemies = t.in_hex(t.hex_of(label), other(u.side)) if u.on_map else []
    if enemies:
        u.attacked = True  # 12.2: "cannot attack or move during the current phase"
        ctx.state.drop = u.id
        ctx.say("airdrop", f"{u.id} lands among the enemy: anti-aircraft fire at endurance C, "
                           "M destroys it (12.2)", "12.2")
        open_window(t, ctx, "airdrop", [u], enemies)
        if ctx.state.window is None and ctx.state.pin is None:
            ctx.state.drop = None
    elif u.on_map:
        arrive(t, ctx, u)


def boost_move(t: Table, ctx: MakCtx, u: UnitState, label: str, through_mines: bool = False) -> None:
    """19.5.3: a ``move`` with the booster (asked for, or to a hex beyond the unit's walk);
    enemies it comes in range of may fire anti-aircraft.  A flight moves through the hexes it
    crosses ("the hexes the unit moves through"), so it meets their minefields as a move does
    (19.1.4): round those both sides know of, or through them only when the player says so."""
    hexes = special.boost_targets(t, u) if not _under_way(t) else []
    if label not in hexes:
        raise RuleError(f"{u.id} cannot boost to {label[:12]}: a unit with a booster that has not moved (or "
                        f"flies on), twice a scenario, {t.stats(u).booster or 0} hexes, no enemy hex (19.5.3).")
    crossed = special.flight_mines(t, u, label)
    if crossed and not through_mines:
        every = f"Every flight to {label} within {special.hexes_left(t, u)} hexes"
        raise RuleError(mines_problem(t, u, label, crossed, every, "19.1.4, 19.5.3"))
    finish_moving(ctx.state, u.id)
    defenders = special.boost(t, ctx, u, label)
    if u.on_map:
        arrive(t, ctx, u)
        if defenders:
            open_window(t, ctx, "boost", [u], defenders)


def wants_boost(t: Table, side: str, u: UnitState | None, to: str, asked: bool | None) -> bool:
    """Whether a ``move`` is a booster move.  "The controlling player selects whether to use
    the booster when the unit moves" (19.5.3): ``boost:true`` flies, ``boost:false`` walks;
    unsaid, a flight under way goes on, and a hex only the booster reaches is asked about
    (RuleError naming both ways) rather than spending one of its two booster turns."""
    if u is None or u.side != side or t.stats(u).booster is None:
        return False
    if asked is not None:
        return asked
    if special.boosting(t.s, u):
        return to in special.boost_targets(t, u)
    if to not in move_targets(t, u) and to in special.boost_targets(t, u):
        used = len(u.boosts)
        raise RuleError(
            f"{to[:12]} is beyond {u.id}'s walk ({t.stats(u).movement} MP); only its booster reaches it, "
            f"and a booster move spends one of its {special.BOOSTER_TURNS} booster turns ({used} used). "
            f"Say which: move unit:{u.id} to:{to[:12]} boost:true to fly, or a hex in its walk "
            f"(19.5.3).")
    return False


def walk_note(t: Table, u: UnitState | None, to: str, asked: bool | None) -> str | None:
    """For a unit with a booster: what ``boost:false`` did (echoed with the move), or, for a hex
    beyond its walk, that the booster would reach it (added to the refusal) (19.5.3)."""
    if u is None or asked is not False or t.stats(u).booster is None:
        return None
    if to in move_targets(t, u):
        left = special.BOOSTER_TURNS - len(u.boosts)
        return f"{u.id} walks, booster not used (boost:false; {left} booster turn{'s' if left != 1 else ''} left) (19.5.3)"
    if to in special.boost_targets(t, u):
        return f"Its booster reaches {to[:12]}: boost:true (19.5.3)."
    return None


def labels(state: MakState, side: str, action: str, field: str, value: str, partial: dict[str, Any]) -> str | None:
    """Autocomplete labels for the orders here (None: the system's own labels apply)."""
    unit = state.find(str(partial.get("unit") or ""))
    if action == "enter" and field == "at" and unit is not None and unit.airdrop:
        foes = [u for u in state.at(value) if u.side != side]
        return f"{value} · airdrop, {len(foes)} enemy: AA fire" if foes else f"{value} · airdrop"
    if action == "lay" and field == "at":
        kind = {"smoke": "smoke", "raze": "enemy Depot"}.get(str(partial.get("what") or ""), "building")
        return f"{value} · {kind}"
    if action == "move" and field == "to" and unit is not None and partial.get("boost"):
        t = Table(state)
        mine = unit.side == side and unit.on_map and hex_problem(t, value) is None
        crossed = special.flight_mines(t, unit, value) if mine else []
        return f"{value} · booster" + (f" · through minefield {', '.join(crossed)}" if crossed else "")  # 19.1.2
    return None
