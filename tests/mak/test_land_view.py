"""The snapshot of vehicles and artillery: riders under their vehicle, a requested strike's
target and blast template, the batteries' rounds (a real PNG, opened and checked)."""

from __future__ import annotations

import io

from PIL import Image

from render.hexmap import render_hexmap
from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak.artillery import make_batteries
from rules.mak.state import MakState, UnitState


def test_requested_strike_and_transported_units_are_drawn():
    spec = [("M-PltHQ1", "PltHQ", "merc", "5:1020", None), ("M-Truck1", "Truck", "merc", "5:1021", None),
            ("M-InfSQ1", "InfSQ", "merc", "5:1021", "M-Truck1"), ("S-PKA1", "PKA", "strahl", "5:1016", None)]
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on", aboard=a) for i, t, s, h, a in spec]
    s = MakState(scenario="test", title="test", boards=[5], turns=4, first="merc", active="merc", units=made,
                 batteries=make_batteries("merc", ["Type III … ⑤S−60×4 (2)"]))
    step = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1", rounds=2),
                     ScriptedDice([]))
    view = SYS.view(step.state)
    kinds = [(m.kind, m.text) for m in view.markers]
    assert ("artillery", "×2") in kinds
    assert sum(1 for k, _ in kinds if k == "artillery_zone") == 18  # 5.5.2: two hexes around (Type III)
    truck = next(c for c in view.counters if c.id == "M-Truck1")
    inf = next(c for c in view.counters if c.id == "M-InfSQ1")
    assert truck.top and "Transporting" in truck.markers and "Transported" in inf.markers
    assert "M-Art1: 4/4 rds, 0 now" in view.header.facts
    snap = render_hexmap(view)
    image = Image.open(io.BytesIO(snap.png))
    assert image.size == (snap.width, snap.height) and image.format == "PNG"
    assert any(i.id.startswith("artillery@") for i in snap.layout.of_kind("marker"))
    assert {i.id for i in snap.layout.of_kind("counter")} >= {"M-Truck1", "S-PKA1"}


def test_what_changed_on_a_hex_map_between_two_views():
    from rules.core.views import changes_between
    from rules.mak import actions as A

    spec = [("M-Truck1", "Truck", "merc", "5:1021"), ("S-PKA1", "PKA", "strahl", "5:1010")]
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in spec]
    s = MakState(scenario="test", title="test", boards=[5], turns=4, first="merc", active="merc", units=made)
    after = SYS.apply(s, "merc", A.Move(unit="M-Truck1", to="5:1024"), ScriptedDice([])).state
    changes = changes_between(SYS.view(s), SYS.view(after))
    assert [(c.id, c.what) for c in changes] == [("M-Truck1", "moved")]
