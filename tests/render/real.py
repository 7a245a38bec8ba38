"""A full Tannenbruck view built from the real scenario data, for the renderer's tests.

Until the Raid and Riposte engine's ``view(state)`` lands, this places every counter of the
scenario the way a mid-game position looks: each deployment's units spread over its allowed
areas, the main objective crowded, attached counters with their unit, markers on a few, and
one impulse's marks (a move, a fire line, an assault).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rules.core.views import AreaMapView, AreaView, CounterView, Header, LineFeature, Mark, SideStyle

if TYPE_CHECKING:
    from rules.core.dice import SeededDice
    from rules.rr.state import RRState
    from rules.rr.system import RaidAndRiposte

FACTION = {"de": "nato_de", "us": "nato_us", "su": "soviet"}
SIDES = [
    SideStyle(key="nato_de", label="NATO (W. German)", letter="G", colour="#5d6d7e"),
    SideStyle(key="nato_us", label="NATO (US)", letter="A", colour="#3f7a3a"),
    SideStyle(key="soviet", label="Soviet", letter="S", colour="#b8322a"),
]


def tannenbruck_view() -> AreaMapView | None:
    """The view, or None while ``rules/rr/data/tannenbruck.json`` is not there yet."""
    from rules.rr import scenario as module

    if not (Path(module.__file__).parent / "data" / "tannenbruck.json").exists():
        return None
    scenario = module.load_scenario("tannenbruck")
    areas = [
        AreaView(id=a.id, polygon=list(a.polygon), centre=a.centre, terrain=a.terrain, tm=a.tm,
                 objective=("main" if a.id == scenario.main_objective else
                            "secondary" if a.id in scenario.secondary_objectives else None),
                 controller=("soviet" if a.id == scenario.main_objective else
                             "nato_de" if a.id in scenario.secondary_objectives[:2] else None))
        for a in scenario.areas
    ]
    placed: dict[str, str] = {}
    for deployment in scenario.deployments:
        allowed = [a for a in deployment.areas if a in scenario.area_by_id] or [scenario.areas[0].id]
        spread = allowed[: max(1, len(deployment.units) // 2)]
        for k, unit_id in enumerate(u for u in deployment.units if u in scenario.unit_by_id):
            placed.setdefault(unit_id, spread[k % len(spread)])
    # Crowd the main objective: the NATO units that hold the town's heart.
    nato = [u.id for u in scenario.units if u.side == "nato" and u.id in placed and u.attached_to is None]
    for unit_id in nato[:6]:
        placed[unit_id] = scenario.main_objective
    counters = []
    for k, unit in enumerate(scenario.units):
        area = placed.get(unit.id)
        if unit.attached_to and unit.attached_to in placed:
            area = placed[unit.attached_to]
        reduced = unit.reduced is not None and k % 4 == 1
        values = unit.reduced if reduced and unit.reduced else unit.full
        markers = ["suppressed"] if k % 6 == 2 else (["recovering"] if k % 7 == 3 else [])
        if unit.kind == "hind":
            markers.append("hind")
        ap = 0 if "suppressed" in markers else max(0, values.ap - k % 3)
        counters.append(CounterView(
            id=unit.id, label=unit.id, area=area, faction=FACTION[unit.nation], reduced=reduced,
            ap=ap, ap_max=values.ap, markers=markers, attached_to=unit.attached_to,
        ))
    by_id = scenario.area_by_id
    ids = [a.id for a in scenario.areas]
    marks = [
        Mark(kind="move", points=[by_id[ids[0]].centre, by_id[ids[1]].centre], text="moved 1 AP",
             side="soviet"),
        Mark(kind="fire", points=[by_id[ids[2]].centre, by_id[scenario.main_objective].centre],
             text="4+3+2 = 9 vs 7: 1 hit", side="soviet"),
        Mark(kind="assault", points=[by_id[ids[5]].centre, by_id[ids[6]].centre],
             text="assault: 2 hits", side="nato_de"),
    ]
    lines = [LineFeature(kind="river", points=list(r)) for r in scenario.rivers]
    lines += [LineFeature(kind="bridge", points=list(b)) for b in scenario.bridges]
    header = Header(title=scenario.title, turn=3, max_turn=scenario.turns, phase="Operations",
                    facts=["Initiative: Soviet", "Impulse: NATO", "Airstrike: NATO", "Hind: no"])
    return AreaMapView(header=header, width=scenario.width, height=scenario.height, areas=areas,
                       lines=lines, counters=counters, marks=marks, sides=SIDES)


def engine_game(seed: bytes) -> tuple[RaidAndRiposte, RRState, SeededDice]:
    """``(system, state, dice)``: the Raid and Riposte engine's Tannenbruck, both sides set up
    with the default deployment (11.0) and ready, so the first impulse is next."""
    from rules.core.dice import SeededDice
    from rules.core.errors import RuleError
    from rules.rr import actions as rr
    from rules.rr.system import RaidAndRiposte

    system = RaidAndRiposte()
    dice = SeededDice(seed)
    state = system.setup("tannenbruck", {}, dice).state
    for _ in range(2):
        for side in ("nato", "soviet"):
            for order in (rr.DeployDefault(), rr.Ready()):
                try:
                    state = system.apply(state, side, order, dice).state
                except RuleError:  # the other side's turn, or its setup already done
                    continue
    return system, state, dice
