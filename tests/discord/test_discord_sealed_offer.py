"""No "Give an order" button when the only orders open are sealed (issue 40).

In Maschinen Krieger's air commitment (10.1.1) both sides assign their aircraft at once, each
assignment sealed: a public reply offered a "Give an order" button per side, and the button
could only answer "Sealed orders are typed, not chosen".  The public reply now says how to
type them, for each side, and offers nothing to tap; a side with an order to choose keeps
its button (``offer_to`` keeps one for every side not only sealed).
"""

from __future__ import annotations

from bot.answers import offer_to
from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import air_actions as AA
from rules.mak.state import MakState, UnitState


def air_phase(*, merc_aloft: bool = True) -> MakState:
    """Turn 1's air commitment (10.1) with one aircraft ready on each side."""
    units = [UnitState(id="M-Falke1", type="Falke", side="merc", deploy="1⑤N", status="aloft"),
             UnitState(id="S-PK401", type="PK40", side="strahl", deploy="1⑤N", status="aloft")]
    state = MakState(scenario="test", title="test", boards=[5], turns=3, first="merc", active="merc",
                     units=units, phase="air", turn=1)  # type: ignore[arg-type]
    for uid in ("M-Falke1", "S-PK401"):
        state.air.duty[uid] = "ready"  # type: ignore[assignment]
        state.air.arrived[uid] = 1
    return state


def test_10_1_1_both_sides_sealed_no_button_but_how_to_type_it():
    state = air_phase()
    assert sorted(SYS.waiting_on(state)) == ["merc", "strahl"]
    found = offer_to(SYS, state, 1, 5, ["merc", "strahl"])
    assert found is not None
    assert found.buttons == [] and found.menu is None
    assert [line.split(":")[0] for line in found.lines] == ["Mercenary", "Strahl"]
    assert all("🔒 Sealed orders are typed, not chosen: /mak air commit" in line for line in found.lines)
    assert not any("Give an order" in line or "/game act" in line for line in found.lines)



def test_10_1_1_the_side_still_assigning_alone_is_told_the_same():
    state = SYS.apply(air_phase(), "merc", AA.Commit(), ScriptedDice([])).state
    assert SYS.waiting_on(state) == ["strahl"]
    found = offer_to(SYS, state, 1, 6, ["strahl"])
    assert found is not None and found.buttons == [] and found.menu is None
    assert found.lines[0].startswith("Strahl: 🔒 Sealed orders are typed, not chosen")
