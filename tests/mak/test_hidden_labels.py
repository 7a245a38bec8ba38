"""15.4.1 in the autocomplete (issue 28): the other side typing a hidden unit's own id reads
the label a name no unit has gets, and a marker's label says where the counter is, never
what is under it (its type was shown: "M-Con1 (A.F.S.) 5:0829")."""

from __future__ import annotations

import pytest

from tests.mak.test_hidden import SYS, hidden_game

#: (order, option) pairs that take a unit name, the enemy's or one's own.
NAMED = (("fire", "target"), ("fire", "unit"), ("strike", "target"), ("carry", "load"),
         ("indirect", "spotter"), ("volley", "units"), ("move", "unit"))


@pytest.fixture
def state():
    """The Mercenaries' M-AFS1 carries marker M-Con1 in 5:0829, M-AFS2 is in its stack."""
    s = hidden_game().state
    s.setup, s.active = [], "strahl"
    return s


@pytest.mark.parametrize("order,field", NAMED)
def test_15_4_1_a_hidden_units_id_is_labelled_as_a_name_no_unit_has(state, order: str, field: str) -> None:
    for name in ("M-AFS1", "M-AFS2"):  # carrying the marker, or only in its stack
        assert SYS.label(state, "strahl", order, field, name, {}) == \
            SYS.label(state, "strahl", order, field, "M-XYZ9", {}).replace("M-XYZ9", name)
        listed = SYS.label(state, "strahl", order, field, f"S-PKA1,{name}", {})
        assert listed == SYS.label(state, "strahl", order, field, "S-PKA1,M-XYZ9", {}).replace("M-XYZ9", name)
        assert "M-Con1" not in listed and "A.F.S" not in listed


@pytest.mark.parametrize("order,field", NAMED)
def test_15_4_1_a_markers_label_says_where_it_is_never_what_is_under_it(state, order: str, field: str) -> None:
    assert SYS.label(state, "strahl", order, field, "m-con1", {}) == "M-Con1 (?) 5:0829"


def test_15_4_1_the_owner_still_reads_its_own_units_labels(state) -> None:
    assert "A.F.S" in SYS.label(state, "merc", "move", "unit", "M-AFS1", {})



def test_15_4_1_a_concealed_stacks_move_says_no_movement_points_in_public(state) -> None:
    """A play-test read "M-Con1 moves 5:0829 → 5:0825 (4 of 4 MP)" against "(1 of 1 MP)":
    the allowance tells a mech from infantry (7.1.2), which the marker hides."""
    from rules.core.dice import ScriptedDice
    from rules.mak import actions as A

    state.active = "merc"
    step = SYS.apply(state, "merc", A.Move(unit="M-Con1", to="5:0827"), ScriptedDice([6] * 12))
    public = [e.text for e in step.events if e.to is None]
    moved = [t for t in public if "moves" in t]
    assert moved and all("MP" not in t and "M-AFS" not in t for t in moved), public
    assert all("MP" not in (m.text or "") for m in SYS.view(step.state).marks)


def test_5_3_3_a_volleys_example_names_only_the_sides_own_units(state) -> None:
    """The refusal's example was a fixed "units:M-AFS1,M-AFS2": read by the Strahl, with those
    very units under M-Con1, it named them. It now names the side's own stacked units."""
    from rules.core.dice import ScriptedDice
    from rules.core.errors import RuleError
    from rules.mak import actions as A

    with pytest.raises(RuleError) as strahl:
        SYS.apply(state, "strahl", A.Volley(units="S-PKA1", target="M-XYZ9"), ScriptedDice([]))
    assert "M-AFS" not in str(strahl.value)
    state.active = "merc"
    with pytest.raises(RuleError) as merc:
        SYS.apply(state, "merc", A.Volley(units="M-AFS1", target="S-PKA1"), ScriptedDice([]))
    assert str(merc.value) == ("A Simultaneous Attack needs two or more of your units stacked in one hex, "
                               "e.g. units:M-AFS1,M-AFS2 (5.3.3).")
