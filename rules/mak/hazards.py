"""Mines and fire on the map: one model for engineers (14.4) and the special rules (19.1, 19.4).

The state holds minefields by hex (``MakState.mines``: owner, attack power, revealed) and the
hexes on fire (``MakState.fire``); everything that lays, finds, enters, lights or suffers them
goes through here.

* 19.1.3-19.1.4: a unit entering a minefield hex, and leaving it, is attacked with the
  minefield's power ("no modifiers applied for pilot ability or terrain"), then rolls its
  usual durability test; 19.1.8: friendly units too, and the minefield is revealed.  ``step``
  is every hex crossed (moves, charges, assaults, overruns, booster flights), a unit carried
  (7.3.2) attacked as well.
* 14.4.1 / 19.5.2: an engineer (or the Kröte Pioneer) about to enter an enemy minefield rolls
  one die: on 1-5 it is discovered and the unit stops before it.
* 19.1.6-19.1.7: artillery adds power to a hex (at most 20); units already there are spared
  until they move.
* 14.4.2: arson by engineer squads at an adjacent building hex, rolled at the end of the troop
  phase (2d6 + modifier <= 5); 14.4.3: instead of a defensive attack, by a squad fired upon
  without damage.
* 19.4.1: a D by a missile (rockets, PanzerFaust) or gun, or by artillery, on a unit in a
  building hex lights a fire on 2d6 <= 4.  19.4.2: infantry in a fire hex are attacked in the
  enemy's phase with 2d6 as the attack power.  19.4.3: fire blocks sight (``sight.py``);
  19.4.4: it burns to the end; 19.4.5: a Depot in it explodes, one die of such attacks on every
  unit in the hex.
"""

from __future__ import annotations

from rules.core.hexes import Hex, neighbours
from rules.core.orders import Ctx
from rules.mak.combat import AttackTarget, roll_damage, roll_hit
from rules.mak.concealment import shown_as
from rules.mak.damage import apply_result
from rules.mak.data import Weapon
from rules.mak.infantry import arson_modifier, arson_succeeds, detects_mines
from rules.mak.state import SIDE_NAMES, Arson, MakState, Mark, Minefield, UnitState
from rules.mak.table import Table

MakCtx = Ctx[MakState]

MINE_MIN, MINE_MAX = 5, 13  # 19.1.1: laid by the players
MINE_CAP = 20  # 19.1.6: raised by artillery
STOPPED = ("stop", "found")  # ``step``: the unit stays where it was (19.1.4; 14.4.1)
IGNITE_ON = 4  # 19.4.1 (1): two dice, four or less
MISSILE_AND_GUN = (Weapon.ROCKET, Weapon.PF, Weapon.GUN)  # 19.4.1 (1): "missile (M) or gun (G)"
BURNABLE = ("building",)  # 19.4 "all building hexes"; 14.4.2 "a block or building hex"


# -- mines -----------------------------------------------------------------------------------


def known_mines(t: Table) -> set[Hex]:
    """The minefield hexes both sides know of: those revealed (19.1.1).  Nothing public may
    depend on any other: a way that went round a minefield not yet revealed (the enemy's,
    or the mover's own, 19.1.8) would show where it lies, as plainly as walking into it."""
    return {t.hex_of(label) for label, f in t.s.mines.items() if f.revealed}


def lay_by_artillery(state: MakState, label: str, side: str, power: int) -> Minefield:
    """19.1.6-19.1.7: one artillery shot adds ``power`` to the hex's minefield (at most 20);
    units standing there are not attacked until they move."""
    field = state.mines.get(label)
    if field is None:
        field = state.mines[label] = Minefield(owner=side, attack=max(MINE_MIN, min(power, MINE_CAP)))  # type: ignore[arg-type]
    else:
        field.attack = min(MINE_CAP, field.attack + power)
    field.spared = sorted(set(field.spared) | {u.id for u in state.at(label)})
    return field


def reveal(ctx: MakCtx, label: str, why: str) -> None:
    """The minefield in ``label`` is known to both now (19.1.1 "only revealed for the
    appropriate hex where a minefield is discovered"): a laid one's sealed item is opened
    (``minefields.py``); ``why`` is the public words, with the rule."""
    field = ctx.state.mines[label]
    if field.revealed:
        return
    field.revealed = True
    field.suspected = False
    ctx.reveals = True
    if field.seal:
        ctx.unseal(field.seal, field.index, why)


def mine_attack(t: Table, ctx: MakCtx, u: UnitState, label: str, when: str) -> bool:
    """19.1.3: the minefield in ``label`` attacks ``u`` (entering or leaving); True if the unit
    is still on the map.  The minefield is revealed (19.1.2, 19.1.8)."""
    field = ctx.state.mines[label]
    own = "its own side's, 19.1.8" if field.owner == u.side else "19.1.2"
    name = shown_as(ctx.state, u)  # 15.4.1: a concealed unit stays under its marker
    verb = "left" if "leaves" in when else "landed in" if "lands" in when else "entered"
    reveal(ctx, label, f"{verb} by {name} ({own})")
    at = AttackTarget(attack=field.attack, defense=t.stats(u).defense)  # no terrain, no pilot
    hit = roll_hit(ctx.dice, at.value, ctx.state.method, f"minefield {label} attacks {name}")
    text = f"Minefield {label} ({SIDE_NAMES[field.owner]}) attacks {u.id} {when}: target {at.text()}; 🎲 {hit.text()}"
    if hit.hit:
        damage = roll_damage(ctx.dice, t.stats(u).endurance, hit, f"{name} endurance")
        text += f"; {damage.text()} → {apply_result(t, ctx, u, damage.result)}"
    ctx.say("mine", text + " (19.1.3)", "19.1.3")
    ctx.state.marks.append(Mark(kind="blast", hexes=[label], side=field.owner, text="mine"))
    ctx.snapshot = True
    return u.on_map


def leave_hex(t: Table, ctx: MakCtx, u: UnitState, label: str) -> bool:
    """19.1.4: a unit leaving a minefield hex is attacked again; True if it goes on."""
    field = ctx.state.mines.get(label)
    if field is None:
        return True
    if u.id in field.spared:
        field.spared.remove(u.id)  # 19.1.7: spared only "as long as it does not move"
    return mine_attack(t, ctx, u, label, "as it leaves")


def enter_hex(t: Table, ctx: MakCtx, u: UnitState, label: str) -> str:
    """About to enter ``label``: ``"found"`` (an engineer found an enemy minefield there and
    stays out, 14.4.1), ``"hit"`` (attacked and destroyed or stopped) or ``"go"``."""
    field = ctx.state.mines.get(label)
    if field is None:
        return "go"
    if field.owner != u.side and not field.revealed and t.stats(u).finds_mines:
        name = shown_as(ctx.state, u)  # 15.4.1: searching does not lift a concealment marker
        die = ctx.dice.die(6, f"{name} looks for mines in {label}")
        if detects_mines(die):
            reveal(ctx, label, f"found by {name} (14.4.1)")
            ctx.say("mine", f"{u.id} finds a minefield ({field.attack}) in {label} before entering: "
                            f"🎲 {die} ≤ 5; it stays out (14.4.1)", "14.4.1")
            ctx.snapshot = True
            return "found"
        ctx.say("mine", f"{u.id} looks for mines in {label}: 🎲 {die}, nothing found (14.4.1)", "14.4.1")
    return "go" if mine_attack(t, ctx, u, label, "as it enters") else "hit"


def step(t: Table, ctx: MakCtx, u: UnitState, here: str, there: str) -> str:
    """One hex of a move, a charge, an assault or an overrun, from ``here`` into ``there``
    (19.1.4: "resolved when a unit enters a minefield hex and when it exits"): ``"go"``,
    ``"held"`` (it entered ``there`` and was immobilised there: it stops in it), ``"stop"``
    (it stays in ``here``: destroyed or immobilised as it left) or ``"found"`` (an engineer
    found a minefield in ``there`` and stays in ``here``, free to go on, 14.4.1): ``STOPPED``
    holds the last two.  A squad whose morale the mine breaks stops too: it "can
    only move away from enemy units" (14.3.1 2), the way it was going is no longer its choice.
    The caller moves the unit."""
    steady = u.morale == "ok"

    def halted() -> bool:
        return not u.on_map or u.immobilized or (steady and u.morale != "ok")

    if here in ctx.state.mines:
        if not leave_hex(t, ctx, u, here) or halted():
            return "stop"
        _carried_too(t, ctx, u, here, "as it leaves, carried")
    if there not in ctx.state.mines:
        return "go"
    entered = enter_hex(t, ctx, u, there)
    if entered == "found":
        return "found"
    if not u.on_map:
        return "stop"
    _carried_too(t, ctx, u, there, "as it enters, carried")
    return "held" if halted() else "go"


def _carried_too(t: Table, ctx: MakCtx, u: UnitState, label: str, when: str) -> None:
    """7.3.2 "both units involved are still targeted separately": the unit ``u`` carries (if
    it still does: damaged, ``u`` dropped it, 7.3.3) meets the minefield too (19.1.3)."""
    carried = ctx.state.find(u.carrying) if u.carrying else None
    if carried is None or not carried.on_map:
        return
    carried.hex = label  # they move together (7.3.1)
    if not mine_attack(t, ctx, carried, label, when):
        u.carrying = None


# -- fire ------------------------------------------------------------------------------------


def burnable(t: Table, label: str) -> bool:
    """Whether a fire can start in ``label`` (a building hex not yet burning, 19.4)."""
    return t.field.terrain.get(t.hex_of(label)) in BURNABLE and label not in t.s.fire


def after_destroyed(t: Table, ctx: MakCtx, label: str, weapon: Weapon | None) -> None:
    """19.4.1 (1): a D by a missile or gun in a building hex may light a fire (2d6 <= 4).
    Artillery (17.0, part 2) calls this with ``weapon`` None."""
    if (weapon is not None and weapon not in MISSILE_AND_GUN) or not burnable(t, label):
        return
    a, b = ctx.dice.roll(2, 6, f"fire in {label}?")
    lit = a + b <= IGNITE_ON
    ctx.say("fire", f"A D in the building hex {label}: fire? 🎲 {a}+{b} = {a + b} "
                    f"{'≤ 4: it burns' if lit else '> 4: no fire'} (19.4.1)", "19.4.1")
    if lit:
        ignite(t, ctx, label)


def ignite(t: Table, ctx: MakCtx, label: str) -> None:
    """A fire marker in ``label`` (19.4.1), to the end of the game (19.4.4); a Depot there
    explodes (19.4.5)."""
    if label in ctx.state.fire:
        return
    ctx.state.fire.append(label)
    ctx.state.marks.append(Mark(kind="blast", hexes=[label]))  # the FIRE marker says the rest
    ctx.snapshot = True
    if label in ctx.state.depots:
        del ctx.state.depots[label]
        n = ctx.dice.die(6, f"depot explosion in {label}")
        ctx.say("fire", f"The Depot in {label} explodes: {n} attacks on every unit there (19.4.5)", "19.4.5")
        for _ in range(n):
            for u in ctx.state.at(label):
                fire_attack(t, ctx, u, "the explosion", "19.4.5")


def fire_attack(t: Table, ctx: MakCtx, u: UnitState, source: str, rule: str) -> None:
    """19.4.2: two dice make the attack power, resolved as a direct attack on ``u``."""
    a, b = ctx.dice.roll(2, 6, f"{source} power on {u.id}")
    at = AttackTarget(attack=a + b, defense=t.stats(u).defense)
    hit = roll_hit(ctx.dice, at.value, ctx.state.method, f"{source} attacks {u.id}")
    text = f"{source.capitalize()} attacks {u.id} with power 🎲 {a}+{b}: target {at.text()}; 🎲 {hit.text()}"
    if hit.hit:
        damage = roll_damage(ctx.dice, t.stats(u).endurance, hit, f"{u.id} endurance")
        text += f"; {damage.text()} → {apply_result(t, ctx, u, damage.result)}"
    ctx.say("fire", f"{text} ({rule})", rule)


def burn(t: Table, ctx: MakCtx) -> None:
    """19.4.2: at the start of a phase, the other player's infantry and pilots on foot in fire
    hexes are attacked
    (it is the enemy fire phase for them)."""
    for label in list(ctx.state.fire):
        for u in ctx.state.at(label):
            if u.side != ctx.state.active and (t.stats(u).infantry or u.type == "Pilot"):
                fire_attack(t, ctx, u, f"the fire in {label}", "19.4.2")


# -- arson -----------------------------------------------------------------------------------


def arson_hexes(t: Table, u: UnitState) -> list[str]:
    """14.4.2: adjacent building hexes an engineer squad may try to set alight now."""
    if (not u.on_map or not t.stats(u).engineer or u.moved or u.attacked or u.struck
            or u.morale != "ok" or any(u.id in a.units for a in t.s.arson)):
        return []
    return sorted(t.label(n) for n in neighbours(t.hex(u)) if t.field.contains(n) and burnable(t, t.label(n)))


def declare_arson(t: Table, ctx: MakCtx, u: UnitState, label: str) -> None:
    """14.4.2: the squad neither moves nor attacks this turn; squads stacked together at the
    same hex roll once, with the assistance modifier."""
    u.attacked = u.move_done = u.moved = True
    u.arson_turn = ctx.state.turn
    for attempt in ctx.state.arson:
        first = ctx.state.unit(attempt.units[0])
        if attempt.hex == label and first.hex == u.hex:
            attempt.units.append(u.id)
            break
    else:
        ctx.state.arson.append(Arson(hex=label, units=[u.id]))
    ctx.say("arson", f"{u.id} tries to set {label} alight; rolled at the end of the phase (14.4.2)", "14.4.2")


def roll_arson(t: Table, ctx: MakCtx, label: str, squads: int, rule: str) -> None:
    """2d6 plus the assistance modifier; five or less lights a fire (14.4.2, 19.4.1 (2))."""
    if not burnable(t, label):
        return
    a, b = ctx.dice.roll(2, 6, f"arson at {label}")
    mod = arson_modifier(squads)
    ok = arson_succeeds(a + b, squads)
    ctx.say("arson", f"Arson at {label} by {squads} squad(s): 🎲 {a}+{b}{mod:+d} = {a + b + mod} "
                     f"{'≤ 5: fire' if ok else '> 5: it fails'} ({rule})", rule)
    if ok:
        ignite(t, ctx, label)


def end_of_phase_arson(t: Table, ctx: MakCtx) -> None:
    """14.4.2: "At the end of the troop phase, the player rolls two dice"."""
    attempts, ctx.state.arson = ctx.state.arson, []
    for attempt in attempts:
        squads = [x for x in attempt.units if ctx.state.unit(x).on_map]
        if squads:
            roll_arson(t, ctx, attempt.hex, len(squads), "14.4.2")


def burns_instead(t: Table, u: UnitState, opened: int) -> bool:
    """14.4.3: ``u`` was fired upon without damage in order ``opened`` and may try arson."""
    return (u.on_map and u.spared_at == opened and t.stats(u).engineer and u.morale == "ok"
            and u.arson_turn != t.s.turn
            and any(t.field.contains(n) and burnable(t, t.label(n)) for n in neighbours(t.hex(u))))


def defensive_arson_hexes(t: Table, u: UnitState) -> list[str]:
    """14.4.3: an engineer squad fired upon on the enemy's turn without damage may try arson
    instead of its defensive attack (alone: no assistance)."""
    w = t.s.window
    if (w is None or w.reason != "attack" or u.id not in w.defenders or u.id in w.used
            or u.spared_at != w.opened or not t.stats(u).engineer or u.morale != "ok" or not u.on_map):
        return []
    return sorted(t.label(n) for n in neighbours(t.hex(u)) if t.field.contains(n) and burnable(t, t.label(n)))
