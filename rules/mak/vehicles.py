"""Vehicle units (13.0): what a vehicle may transport, and its passengers on the state.

Pure helpers with no dependence on the resolvers, so that ``table.py`` and ``resolve.py``
can ask them (the orders are in ``transport.py`` and ``overrun.py``).

* 13.1.1 "Trucks and hover tanks of both forces have the ability to transport Type I units,
  infantry units, and pilot units."
* 13.1.5 "Each vehicle unit has a transport capacity of two stack points.  Exception: The
  Sph69-p Troop Transport can carry 6 points of Type I units only (no infantry), and the
  Green Buffalo can carry 10 stack points."
* 13.1.3 "When fired upon, the vehicle and the units it is transporting are treated as a
  single target ... if the vehicle is destroyed, the units it transports are destroyed as
  well.  If the result is immobilized or armament disabled, only the vehicle is affected."
"""

from __future__ import annotations

from rules.core.hexes import Hex
from rules.mak.data import Movement, UnitStats
from rules.mak.state import MakState, UnitState

#: 18.2.2: an escaped pilot's token (``data/units_air.json``), transported too (13.1.1, 18.2.4).
PILOT = "Pilot"
#: 13.1.5: the capacity of a truck or hover tank, in stack points.
DEFAULT_CAPACITY = 2


def capacity(stats: UnitStats) -> int:
    """13.1.1 / 13.1.5: stack points a vehicle carries (0: it transports nothing).

    The data may give a capacity (the Sph69-p's 6, the Green Buffalo's 10); otherwise trucks
    (wheels) and hover tanks carry two points and other vehicles none (13.1.1 names only
    "trucks and hover tanks")."""
    if stats.transport is not None:
        return stats.transport
    if stats.vehicle and stats.move_form in (Movement.HOVER, Movement.WHEEL):
        return DEFAULT_CAPACITY
    return 0


def ride_problem(vehicle: UnitStats, rider: UnitStats) -> str | None:
    """13.1.1 / 13.1.5: why ``rider`` may not ride in ``vehicle``, or None."""
    if capacity(vehicle) == 0:
        return f"The {vehicle.name} does not transport units (13.1.1: trucks and hover tanks)"
    if not (rider.unit_class == 1 or rider.infantry or rider.key == PILOT):
        return f"Only Type I, infantry and pilot units are transported, not the {rider.name} (13.1.1)"
    if vehicle.transport_type1_only and rider.unit_class != 1:
        return f"The {vehicle.name} carries Type I units only (13.1.5)"
    return None


def passengers(state: MakState, vehicle_id: str) -> list[UnitState]:
    """The units transported by the vehicle (13.1.2: "stacked under the vehicle unit")."""
    return [u for u in state.units if u.aboard == vehicle_id and u.status == "on"]


def load_used(state: MakState, vehicle_id: str, points: dict[str, int]) -> int:
    """Stack points already aboard (``points`` by unit type)."""
    return sum(points[u.type] for u in passengers(state, vehicle_id))


def carry_along(state: MakState, vehicle: UnitState) -> None:
    """Passengers move with their vehicle; having moved, they may not fire offensively (our
    reading: they are moved as the vehicle is)."""
    for p in passengers(state, vehicle.id):
        p.hex = vehicle.hex
        p.moved = True


def enter_with(state: MakState, vehicle: UnitState) -> None:
    """12.1 / 13.1: units set up transported enter the map with their vehicle."""
    for p in state.units:
        if p.aboard == vehicle.id and p.status == "waiting":
            p.status, p.hex, p.moved = "on", vehicle.hex, True


def lose_passengers(state: MakState, vehicle: UnitState) -> list[str]:
    """13.1.3: a destroyed vehicle destroys what it transports; returns their ids."""
    lost = []
    for p in passengers(state, vehicle.id):
        p.status = "destroyed"
        lost.append(p.id)
    return lost


def beyond(here: Hex, there: Hex) -> Hex:
    """13.2.1: the hex on the far side of ``there``, opposite the side entered from ``here``."""
    return Hex(2 * there.q - here.q, 2 * there.r - here.r)
