"""Weapons (11.0): usage limits, rounds, rocket count tokens, PF reloading.

* 11.2.1: a laser whose attack roll is a natural 5+6 or 6+6 is drained (no further attacks);
  14.4.4: the Anti-AFS rifle squad's laser is only drained for the next turn.
* 11.2.2: a machine gun breaks on a natural 6+6; 14.2.4: an infantry squad's MG never does.
* 11.2.3: a drained laser or broken MG puts "Arm. Disabled" on the unit.
* 11.2.4: rockets once per phase; two PF ("PDF") rounds a phase only in defensive (and
  anti-aircraft) fire; rounds carried by unit.
* 11.2.5: the rocket count token shows rounds fired; at the last round it is replaced by
  "Arm. Disabled" until reloaded (11.3).
* 11.3: PF units (not the Krachen Vogel) reload to full in a Depot hex with no enemy there.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.mak.data import UnitStats, Weapon, WeaponStats

LASER_DRAIN = {(5, 6), (6, 5), (6, 6)}


@dataclass
class Expenditure:
    """What firing did to the weapon: the token to show, and whether the weapon is now gone."""

    disabled: bool  # "Arm. Disabled" for this weapon (drained, broken or out of rounds)
    drained_one_turn: bool = False  # 14.4.4
    rounds_fired: int = 0
    token: str | None = None  # "R3" / "PF1": the count token (11.2.5)
    why: str = ""


def expend(unit: UnitStats, weapon: WeaponStats, dice: tuple[int, int], fired_before: int) -> Expenditure:
    """The usage limit check every executed attack ends with (5.3.4, 11.2)."""
    pair = (dice[0], dice[1])
    if weapon.type == Weapon.LASER and pair in LASER_DRAIN:
        if unit.infantry:
            return Expenditure(disabled=False, drained_one_turn=True, why="laser drained for a turn (14.4.4)")
        return Expenditure(disabled=True, why="laser drained (11.2.1)")
    if weapon.type == Weapon.MG and pair == (6, 6) and not unit.infantry:
        return Expenditure(disabled=True, why="machine gun broke down (11.2.2)")
    if weapon.rounds is not None:
        fired = fired_before + 1
        prefix = "R" if weapon.type == Weapon.ROCKET else "PF"
        if fired >= weapon.rounds:
            return Expenditure(disabled=True, rounds_fired=fired, why=f"last {prefix} round fired (11.2.5)")
        return Expenditure(disabled=False, rounds_fired=fired, token=f"{prefix}{fired}")
    return Expenditure(disabled=False)


def rounds_left(weapon: WeaponStats, fired: int) -> int | None:
    """Rounds still carried (None: no limit)."""
    return None if weapon.rounds is None else max(0, weapon.rounds - fired)


def phase_limit(weapon: WeaponStats, defensive: bool) -> int | None:
    """11.2.4: rockets fire once a phase; PF twice a phase only in defensive fire (else once)."""
    if weapon.type == Weapon.ROCKET:
        return 1
    if weapon.type == Weapon.PF:
        return 2 if defensive else 1
    return None


def can_reload(unit: UnitStats, weapon: WeaponStats, in_depot: bool, enemy_in_hex: bool) -> bool:
    """11.3.1: PF (not the Krachen Vogel) reloads in a Depot hex with no enemy in it."""
    return (weapon.type == Weapon.PF and unit.key != "KrachenVogel" and in_depot
            and not enemy_in_hex)
