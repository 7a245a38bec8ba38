"""Computing Operational Goal Points (the scenario book's "Computing Operational Goal Points").

"(Items) ① The victory point value of enemy units that have been destroyed, immobilized, or
disarmed.  ② The victory point value of friendly artillery used  ③ Additional victory points
designated by the scenario ... (Formula) (O.G.P.) = ①+③−②  ※③ is still applied if it is a
negative number".
"""

from __future__ import annotations

from pydantic import BaseModel

from rules.mak.artillery import vp_used
from rules.mak.data import ScenarioPoints, scenario, unit_stats
from rules.mak.pilots import escaped_points
from rules.mak.state import SIDES, MakState, other


class OGP(BaseModel):
    """One side's operation goal points and their three items."""

    enemy: int  # ①
    artillery: int  # ②
    scenario: int  # ③ (may be negative)

    @property
    def total(self) -> int:
        """① + ③ − ②."""
        return self.enemy + self.scenario - self.artillery

    def text(self) -> str:
        """``7 (① 5 + ③ 4 − ② 2)``."""
        return f"{self.total} (① {self.enemy} + ③ {self.scenario} − ② {self.artillery})"


def enemy_losses(state: MakState, side: str) -> int:
    """①: victory points of the enemy's units destroyed, immobilised or disarmed, and of the
    enemy pilots killed (18.2.2, 18.2.5)."""
    units_lost = sum(unit_stats(u.type).vp for u in state.units
                     if u.side == other(side) and (u.status == "destroyed" or u.immobilized or u.disarmed))
    return units_lost + escaped_points(state)[side]


def _earned(state: MakState, p: ScenarioPoints) -> bool:
    """Whether the scenario's condition ``p`` holds now (``hold`` is judged as it stands)."""
    if p.kind == "hold":
        here = state.at(p.hex)
        return any(u.side == p.side for u in here) and not any(u.side != p.side for u in here)
    return p.hex not in state.depots  # "depot": the side's Depot there is gone (11.3.3)


def scenario_points(state: MakState, side: str) -> int:
    """③: the scenario's points for ``side`` (negative ones too)."""
    try:
        spec = scenario(state.scenario)
    except FileNotFoundError:
        return 0
    return sum(p.points for p in spec.points if p.side == side and _earned(state, p))


def ogp(state: MakState) -> dict[str, OGP]:
    """Both sides' O.G.P."""
    return {s: OGP(enemy=enemy_losses(state, s), artillery=vp_used(state, s), scenario=scenario_points(state, s))
            for s in SIDES}
