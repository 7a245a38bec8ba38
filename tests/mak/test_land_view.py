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


def test_a_launched_hornisse_left_the_map_it_was_not_eliminated():
    """10.6.2: the PK41 and its PKA take off; "since your last order" says they are off the map
    (aloft, aboard), never that they were eliminated."""
    from rules.core.views import change_lines, changes_between
    from rules.mak import air_actions as AA

    spec = [("S-PK411", "PK41", "strahl", "5:1010"), ("S-PKA1", "PKA", "strahl", "5:1010"),
            ("M-AFS1", "AFS", "merc", "5:1020")]
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in spec]
    s = MakState(scenario="test", title="test", boards=[5], turns=4, first="strahl", active="strahl",
                 phase="second", turn=2, units=made)
    after = SYS.apply(s, "strahl", AA.Land(unit="S-PK411", way="up", rider="S-PKA1"), ScriptedDice([])).state
    view = SYS.view(after)
    assert view.away == {"S-PK411": "aloft", "S-PKA1": "aboard"}
    changes = changes_between(SYS.view(s), view)
    assert sorted((c.id, c.what, c.why) for c in changes) == [
        ("S-PK411", "left", "aloft"), ("S-PKA1", "left", "aboard")]
    assert change_lines(changes) == ["Off the map: S-PK411 (aloft), S-PKA1 (aboard)"]
    gone = SYS.view(after).model_copy(update={"away": {}})  # not away: it was destroyed
    assert {c.what for c in changes_between(SYS.view(s), gone)} == {"eliminated"}


def test_a_pilot_who_left_the_map_escaped_or_was_captured_in_what_changed():
    """18.2.3: a pilot leaving by its side's entry area escapes, elsewhere is captured;
    either way it left the map alive and the words say which."""
    from rules.core.views import change_lines, changes_between
    from rules.mak import air_actions as AA
    from tests.mak.test_pilots import game, seat

    s = game([("S-Pilot10", "Pilot", "strahl", "5:0101"), ("S-Pilot2", "Pilot", "strahl", "5:2030"),
              ("S-PKA9", "PKA", "strahl", "5:1010")], active="strahl")
    s.unit("S-PKA9").deploy = "1⑤N"
    seat(s, "S-Pilot10", "strahl", 10).status = "afoot"
    seat(s, "S-Pilot2", "strahl", 2).status = "afoot"
    st = SYS.apply(s, "strahl", AA.Escape(unit="S-Pilot10"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", AA.Escape(unit="S-Pilot2"), ScriptedDice([])).state
    changes = changes_between(SYS.view(s), SYS.view(st))
    assert change_lines(changes) == ["Off the map: S-Pilot10 (escaped), S-Pilot2 (captured)"]
