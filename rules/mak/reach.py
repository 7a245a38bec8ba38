"""Whether a card's objectives can be reached (issue 46: the playability proof's hook).

O.G.P. item 3's ``hold`` points ask a side to have a unit in a hex when the game ends: at
least one of that side's ground units must be able to walk, roll or hover there from where
it sets up or enters (12.1), over terrain its movement form may enter (7.1.8) for no
more than its allowance (7.1.3).  Flying
units (10.0) hold no hex.  A point no unit of its side can ever reach is named at its hex.
"""

from __future__ import annotations

from rules.core.errors import RuleError
from rules.core.hexes import Hex, neighbours, parse_number
from rules.core.scenariofile import Loc
from rules.mak.battlefield import Battlefield, battlefield, field_key
from rules.mak.data import ScenarioSpec, UnitStats, charts
from rules.mak.deployment import entry_hexes, parse_deploy
from rules.mak.movement import entry_cost


def _reached(field: Battlefield, stats: UnitStats, starts: list[Hex]) -> set[Hex]:
    """Every hex a unit of ``stats`` may reach from ``starts``: a step into a neighbour is
    open when its movement form may enter it (7.1.8, the Terrain Effects chart; a road,
    a ridge or wall crossed, 7.1.5, 7.1.6: :func:`entry_cost`) for no more than its whole
    allowance (7.1.3: "If a unit does not have the number of points left to meet the cost of
    the terrain, the unit cannot enter the hex"; 7.2.2)."""
    def open_to(a: Hex, b: Hex) -> bool:
        cost = entry_cost(field, stats, a, b)
        return cost is not None and cost <= stats.movement

    seen = {h for h in starts if h in field.hexes
            and charts().terrain_of(field.terrain.get(h, "clear")).cost.get(stats.move_form) is not None}
    todo = list(seen)
    while todo:
        here = todo.pop()
        for there in neighbours(here):
            if there in field.hexes and there not in seen and open_to(here, there):
                seen.add(there)
                todo.append(there)
    return seen


def unreachable(spec: ScenarioSpec, known: dict[str, UnitStats]) -> list[tuple[Loc, str]]:
    """``points`` of kind ``hold`` that no ground unit of their side (``known``: the card's
    unit types) can reach."""
    holds = [(i, p) for i, p in enumerate(spec.points) if p.kind == "hold"]
    if not holds:
        return []
    field = battlefield(tuple(spec.boards), field_key(spec.key))
    reach: dict[str, set[Hex]] = {"merc": set(), "strahl": set()}
    for side in spec.sides:
        for line in side.forces:
            stats = known.get(line.unit)
            if stats is None or stats.aeronautical:
                continue
            try:
                starts = entry_hexes(field.layout, parse_deploy(line.deploy))
            except RuleError:
                continue
            reach[side.key] |= _reached(field, stats, starts)
    out: list[tuple[Loc, str]] = []
    for i, point in holds:
        try:
            h = field.layout.hex_of(parse_number(point.hex))
        except RuleError:
            continue  # named by the card's checks
        if h not in reach[point.side]:
            out.append((("points", i, "hex"), f"no {point.side} ground unit can reach {point.hex} "
                        "from where it sets up or enters (7.1.3, 7.1.8: terrain its movement form "
                        "may not enter, or that costs more than its allowance), so this hold "
                        "point could never be scored."))
    return out
