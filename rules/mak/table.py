"""Read-only questions about a game in progress: where units are, what they see and can fire.

:class:`Table` wraps a :class:`~rules.mak.state.MakState` with its battlefield; every rule
module asks it rather than digging in the state, and the ``*_problem`` functions here are the
one statement of what is legal, used both when an order is resolved and when the legal orders
are offered (so autocomplete never offers what would be refused).
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance
from rules.mak.battlefield import Battlefield, battlefield, field_key
from rules.mak.closequarters import pinned_count
from rules.mak.combat import AttackTarget, attack_target
from rules.mak.data import UnitStats, Weapon, WeaponStats, unit_stats
from rules.mak.movement import stacking_problem
from rules.mak.pilots import manned
from rules.mak.pilots import modifiers as pilot_modifiers
from rules.mak.sight import can_see
from rules.mak.state import MakState, UnitState, other
from rules.mak.unmanned import allowance_with_amu
from rules.mak.weapons import phase_limit


#: Lines of sight already drawn, by map, hexes, target type, smoke and fire: the map never
#: changes during a game, so the answer is the same each time (asked very often by the offers).
_SIGHT: dict[tuple[object, ...], bool] = {}

SMOKE_SOFT = (Weapon.LASER, Weapon.ROCKET, Weapon.PF)  # 19.2.6: "Laser and missile weapons"
SMOKE_LASER_MISSILE = -1  # 19.2.6
SMOKE_OTHER = -4  # 19.2.6: "all direct fire"
DARKNESS = -2  # 19.3: the Fire Modifiers Chart is not in the text (stand-in)


class Table:
    """A game state and its map, for questions."""

    def __init__(self, state: MakState) -> None:
        self.s = state
        self.field: Battlefield = battlefield(tuple(state.boards), field_key(state.scenario))
        self._hex: dict[str, Hex] = {}

    # -- lookups -----------------------------------------------------------------------------

    def stats(self, u: UnitState) -> UnitStats:
        """The unit's counter."""
        return unit_stats(u.type)

    def hex(self, u: UnitState) -> Hex:
        """The unit's hex (it must be on the map)."""
        assert u.hex is not None
        return self.hex_of(u.hex)

    def hex_of(self, label: str) -> Hex:
        """A hex label to a hex (cached)."""
        if label not in self._hex:
            self._hex[label] = self.field.parse(label)
        return self._hex[label]

    def label(self, h: Hex) -> str:
        """``5:1801``."""
        return self.field.label(h)

    def on_map(self, side: str | None = None) -> list[UnitState]:
        """Units on the map, of one side or both."""
        return [u for u in self.s.units if u.on_map and (side is None or u.side == side)]

    def in_hex(self, h: Hex, side: str | None = None) -> list[UnitState]:
        """Units in hex ``h``."""
        label = self.label(h)
        return [u for u in self.s.at(label) if side is None or u.side == side]

    def enemy_hexes(self, side: str) -> set[Hex]:
        """Hexes holding enemy units."""
        return {self.hex(u) for u in self.on_map(other(side))}

    def in_melee(self, u: UnitState) -> bool:
        """Whether the unit shares its hex with an enemy (close quarters, 9.0)."""
        return u.on_map and any(e.side != u.side for e in self.s.at(u.hex or ""))

    # -- sight and weapons -------------------------------------------------------------------

    def sees(self, viewer: UnitState, target: UnitState) -> bool:
        """6.0: line of sight from the viewer's hex to the target (by the target's type)."""
        smoke = frozenset(self.hex_of(h) for h in self.s.smoke)
        fire = frozenset(self.hex_of(h) for h in self.s.fire)
        key = (tuple(self.s.boards), self.hex(viewer), self.hex(target), self.stats(target).unit_class, smoke, fire)
        seen = _SIGHT.get(key)
        if seen is None:
            if len(_SIGHT) > 100_000:
                _SIGHT.clear()
            seen = _SIGHT[key] = can_see(self.field, key[1], key[2], key[3], smoke=smoke, fire=fire)
        return seen

    def weapons(self, u: UnitState, defensive: bool) -> list[WeaponStats]:
        """The unit's weapons that may fire now (disabled, spent, drained and phase limits out)."""
        stats = self.stats(u)
        if u.disarmed or u.morale != "ok":
            return []  # 5.1.2 A; 14.3.1 1: broken squads cannot attack
        if stats.aeronautical and u.status != "aloft":
            return []  # 10.4: an aircraft's weapons are for air attacks (a landed PK41 has none)
        if stats.vehicle and self.in_melee(u) and not (self.s.overrun and self.s.overrun.unit == u.id):
            return []  # 13.2: in close quarters a vehicle "can only receive attacks"
        if any(u.id in (r.observer, r.requester) and r.turn == self.s.turn for r in self.s.requests):
            return []  # 17.1.3: observer and requester may not attack on the turn they request
        out = []
        for w in stats.weapons:
            if w.type.value in u.weapons_out:
                continue
            if w.type == Weapon.LASER and stats.infantry and u.drained_until >= self.s.turn:
                continue  # 14.4.4
            limit = phase_limit(w, defensive)
            if limit is not None and u.phase_shots.get(w.type.value, 0) >= limit:
                continue
            out.append(w)
        return out

    def unarmed_reason(self, u: UnitState, defensive: bool, wanted: str = "") -> str:
        """Why :meth:`weapons` leaves ``u`` nothing (or not ``wanted``) to fire now, by the rule
        that takes it away."""
        stats = self.stats(u)
        if u.morale != "ok":
            return (f"{u.id}'s morale is broken: it cannot attack (14.3.1 1); it may move away from "
                    f"the enemy and tries to recover at the start of your next troop phase (14.3.2)")
        if u.disarmed:
            return f"{u.id}'s armament is destroyed (A): it cannot attack (5.1.2)"
        if stats.aeronautical and u.status != "aloft":
            return f"{u.id} is on the ground: an aircraft's weapons fire in the air (10.4)"
        if stats.vehicle and self.in_melee(u):
            return f"{u.id} is a vehicle in close quarters: it can only receive attacks (13.2)"
        if any(u.id in (r.observer, r.requester) and r.turn == self.s.turn for r in self.s.requests):
            return f"{u.id} took part in an artillery request this turn and may not attack (17.1.3)"
        what = f"its {wanted}" if wanted else "no weapon"
        return (f"{u.id} has {what} able to fire now: spent, out of rounds, drained or at its "
                f"limit for the phase (5.1.2, 11.2)")

    def target_of(self, attacker: UnitState, weapon: WeaponStats, target: UnitState,
                  indirect: bool = False) -> AttackTarget:
        """The Attack Target of ``attacker`` firing ``weapon`` at ``target`` (5.1.3; the
        pilots' modifiers, 18.1.2), with smoke and darkness (19.2.6, 19.3)."""
        at = attack_target(
            self.field, attack=weapon.attack, weapon=weapon.type, source=self.hex(attacker),
            target_hex=self.hex(target), target=self.stats(target), indirect=indirect,
            immobilized=target.immobilized, position=self.position_of(target))
        at.modifiers += pilot_modifiers(self.s, attacker, target)
        at.modifiers += attack_modifiers(self, attacker, weapon, target, indirect)
        return at

    def position_of(self, u: UnitState) -> int:
        """12.3: the rating of the defensive position ``u`` is in (0 if none)."""
        pos = self.s.positions.get(u.hex or "")
        return pos.rating if pos is not None and pos.holder == u.side else 0

    def direct_problem(self, attacker: UnitState, target: UnitState, weapon: WeaponStats) -> str | None:
        """Why ``attacker`` may not fire ``weapon`` directly at ``target`` now, or None."""
        if not target.on_map or target.side == attacker.side:
            return f"{target.id} is not an enemy on the map"
        if target.aboard:
            return f"{target.id} rides in {target.aboard}: fire at the vehicle (13.1.3)"
        a, b = self.hex(attacker), self.hex(target)
        n = distance(a, b)
        if n > weapon.range:
            return f"{target.id} is {n} hexes away; the {weapon.type.value} reaches {weapon.range} (5.1.1)"
        if n > 0 and any(u.side == attacker.side for u in self.in_hex(b)):
            return f"{self.label(b)} holds your own units: no attack into it from outside (5.1.4)"
        if n > 0 and not self.sees(attacker, target):
            return f"{attacker.id} cannot see {target.id} (6.0)"
        return None

    def best_weapon(self, attacker: UnitState, target: UnitState, defensive: bool,
                    wanted: str = "") -> tuple[WeaponStats | None, str]:
        """The weapon to fire (``wanted`` or the one with the best target), or why none can."""
        options = self.weapons(attacker, defensive)
        if wanted:
            options = [w for w in options if w.type.value.lower() == wanted.strip().lower()]
        if not options:
            return None, self.unarmed_reason(attacker, defensive, wanted)
        best: tuple[int, WeaponStats] | None = None
        problem = ""
        for w in options:
            why = self.direct_problem(attacker, target, w)
            if why:
                problem = why
                continue
            value = self.target_of(attacker, w, target).value
            if best is None or value > best[0]:
                best = (value, w)
        return (best[1], "") if best else (None, problem)

    def pinned(self, u: UnitState) -> bool:
        """9.4: whether the unit is among the pinned in its close-quarters hex (phase player's
        choice of unpinned ones recorded in the state; before a choice, all may be pinned)."""
        if u.side == self.s.active or not self.in_melee(u):
            return False
        phasing = [p for p in self.s.at(u.hex or "") if p.side == self.s.active]
        able = [not p.immobilized and bool(self.weapons(p, False)) for p in phasing]
        anti = [p for p in self.s.at(u.hex or "") if p.side == u.side]
        k = pinned_count(able, len(anti))
        if k == 0:
            return False
        if k >= len(anti):
            return True
        chosen = list(self.s.pin.chosen) if self.s.pin and self.s.pin.hex == u.hex else []
        chosen += self.s.window.unpinned if self.s.window else []
        return u.id not in chosen

    def stacking(self, side: str, label: str, extra: list[UnitState] = ()) -> str | None:  # type: ignore[assignment]
        """8.2: the problem with ``side``'s units (plus ``extra``) in hex ``label``, or None."""
        group = [self.stats(u) for u in self.s.at(label) if u.side == side and u not in extra
                 and not u.aboard]  # 13.1: transported units ride inside the vehicle
        group += [self.stats(u) for u in extra]
        return stacking_problem(group)


def allowance(t: Table, u: UnitState) -> float:
    """Movement points left this phase (5.5.1: a spotter only half its allowance)."""
    full = float(allowance_with_amu(t.stats(u), u.amu))  # 16.2.5
    if u.spotted:
        full = full / 2
    return max(0.0, full - u.mp_spent)


# -- modifiers -------------------------------------------------------------------------------


def attack_modifiers(t: Table, attacker: UnitState, weapon: WeaponStats, target: UnitState,
                     indirect: bool) -> list[tuple[str, int]]:
    """19.2.6 smoke in the attacker's or the target's hex (direct fire); 19.3 darkness."""
    out: list[tuple[str, int]] = []
    if not indirect and (attacker.hex in t.s.smoke or target.hex in t.s.smoke):
        out.append(("smoke", SMOKE_LASER_MISSILE if weapon.type in SMOKE_SOFT else SMOKE_OTHER))
    return out + darkness(t, attacker)


def darkness(t: Table, attacker: UnitState | None) -> list[tuple[str, int]]:
    """19.3: "Manned units fighting at night receive the darkness penalty listed in the Fire
    Modifiers Chart": every attack of a manned unit at night, anti-aircraft fire (10.4.3) and
    air attacks included (darkness is neither terrain nor range).  An unmanned unit controlled
    by its pilot (PC, 16.1.1) is manned; ``None`` is an off-board battery, manned (17.0)."""
    if not t.s.night:
        return []
    if attacker is not None and t.stats(attacker).unmanned and not manned(t.s, attacker):
        return []
    return [("night", DARKNESS)]


def flak_modifiers(t: Table, gunner: UnitState, aircraft: UnitState) -> list[tuple[str, int]]:
    """10.4.3: anti-aircraft fire is "not modified by terrain or range": the pilots' modifiers
    (18.1.2) and darkness (19.3) only."""
    return pilot_modifiers(t.s, gunner, aircraft) + darkness(t, gunner)
