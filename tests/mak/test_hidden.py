"""Hidden information in Maschinen Krieger (issue 28), by rule number, with scripted dice:
minefields laid at set-up (19.1, 19.1.1, 19.1.5) and found (14.4.1, 19.1.2, 19.1.8), artillery
mines (19.1.6), concealment (15.4.1-15.4.3) and the duty chart (10.1.1), each secret sealed
and opened as the rules say; the public view never shows what its owner alone may see."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from rules.core.dice import ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import air_actions as AA
from rules.mak import secret_actions as SA
from rules.mak.concealment import begin
from rules.mak.state import Minefield, Position
from tests.mak.test_system import game


def public(step):
    """The lines every player reads."""
    return [e.text for e in step.events if e.to is None]


def private(step, side):
    return [e.text for e in step.events if e.to == side]


def at_setup(units, points=None, concealment=False, markers=None):
    """A board-5 game at set-up with ``units`` placed."""
    s = game(units)
    s.mine_points = points or {}
    if concealment:
        begin(s, markers)
    s.setup = [side for side in ("merc", "strahl") if (points or {}).get(side) or concealment]
    return s


# -- 19.1 laying -------------------------------------------------------------------------------


def test_19_1_the_minefields_scenario_opens_with_a_set_up_both_sides_give():
    step = SYS.setup("minefields", None, SeededDice(b"s"))
    assert SYS.phase_of(step.state) == "setup" and step.waiting_on == ["merc", "strahl"]
    assert "lay 20 points" in public(step)[-1] and "lay 30 points" in public(step)[-1]
    assert step.state.mine_points == {"merc": 20, "strahl": 30}


def test_19_1_the_picture_header_names_the_set_up_and_the_air_commitment_phase_10_1():
    # the play-test: the header read "Mercenary phase" while both sides laid their mines
    step = SYS.setup("minefields", None, SeededDice(b"s"))
    assert SYS.view(step.state).header.phase == "Set-up"
    assert SYS.view_for(step.state, "strahl").header.phase == "Set-up"
    air = SYS.setup("air", None, SeededDice(b"s"))
    assert SYS.phase_of(air.state) == "air" and SYS.view(air.state).header.phase == "Air Commitment"


def test_19_1_a_layout_is_one_sealed_order_padded_so_its_count_does_not_leak():
    s = at_setup([("S-PKA1", "PKA", "strahl", "5:0812")], {"strahl": 30})
    step = SYS.apply(s, "strahl", SA.LayMines(fields="5:0409=7 5:0410:13, 5:0411=10"), ScriptedDice([]))
    (seal,) = step.seals
    assert seal.key == "mines:strahl" and seal.what == "laid its minefields"
    assert [json.loads(i) for i in seal.items] == [{"attack": 7, "hex": "5:0409"}, {"attack": 13, "hex": "5:0410"},
                                                   {"attack": 10, "hex": "5:0411"}]
    assert seal.pad_to == 6  # 30 points make at most six minefields of 5 (19.1.1)
    assert public(step) == [] and "5:0409 attack 7" in private(step, "strahl")[0]
    assert step.state.mines["5:0410"].attack == 13 and not step.state.mines["5:0410"].revealed
    # 19.1.1: the public picture shows none of them; the owner's shows all three
    assert not [m for m in SYS.view(step.state).markers if m.kind.startswith("mine")]
    assert sorted(m.text for m in SYS.view_for(step.state, "strahl").markers if m.kind == "mine_own") == ["10", "13", "7"]
    assert not [m for m in SYS.view_for(step.state, "merc").markers if m.kind.startswith("mine")]
    assert SYS.action_type("mines lay").sealed


@pytest.mark.parametrize("fields, words", [
    ("5:0409=4", "5 to 13, not 4 (19.1.1)"),
    ("5:0409=14", "5 to 13, not 14 (19.1.1)"),
    ("5:0409=13 5:0410=13 5:0411=5", "take 1 off"),
    ("5:0409=7 5:0409=6", "named twice"),
    ("5:0812=7", "holds an enemy unit"),
    ("9:0409=7", "not a hex of this map"),
    ("0409", "write hex=attack"),
])
def test_19_1_1_a_layout_out_of_the_rules_is_refused_with_a_sentence(fields, words):
    s = at_setup([("S-PKA1", "PKA", "strahl", "5:0812")], {"merc": 30})
    with pytest.raises(RuleError, match=words.replace("(", r"\(").replace(")", r"\)")):
        SYS.apply(s, "merc", SA.LayMines(fields=fields), ScriptedDice([]))


def test_19_1_5_a_side_lays_once_and_mines_are_laid_only_at_set_up():
    s = at_setup([], {"merc": 20})
    s = SYS.apply(s, "merc", SA.LayMines(fields="5:0409=7"), ScriptedDice([])).state
    with pytest.raises(RuleError, match=r"cannot be moved or removed once placed \(19.1.5\)"):
        SYS.apply(s, "merc", SA.LayMines(fields="5:0509=7"), ScriptedDice([]))
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    assert SYS.phase_of(s) == "act" and s.setup == []
    with pytest.raises(RuleError, match="not an order of this phase"):
        SYS.apply(s, "merc", SA.LayMines(fields="5:0509=7"), ScriptedDice([]))


def test_19_1_a_side_the_scenario_gives_no_mines_lays_none():
    s = at_setup([], {"merc": 20})
    with pytest.raises(RuleError, match="not your turn"):  # nothing to do at set-up: not waited on
        SYS.apply(s, "strahl", SA.LayMines(fields="5:0409=7"), ScriptedDice([]))
    s = at_setup([], {"merc": 20}, concealment=True)  # waited on for its markers, not for mines
    with pytest.raises(RuleError, match="no land mines"):
        SYS.apply(s, "strahl", SA.LayMines(fields="5:0409=7"), ScriptedDice([]))


def laid(units, owner, fields, active="merc"):
    """A game in play with ``owner``'s layout laid and sealed."""
    s = at_setup(units, {owner: 30})
    s = SYS.apply(s, owner, SA.LayMines(fields=fields), ScriptedDice([])).state
    s.setup, s.active = [], active
    return s


# -- finding them ------------------------------------------------------------------------------


def test_19_1_2_an_enemy_unit_entering_opens_that_hex_alone():
    s = laid([("M-AFS1", "AFS", "merc", "5:1012")], "strahl", "5:0808=9 5:1013=7")
    # a hit roll that misses (2d6 = 12 against attack 7 - defence): only the reveal matters here
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1013"), ScriptedDice([6, 6]))
    (unseal,) = step.unseals
    assert (unseal.key, unseal.index) == ("mines:strahl", 1)  # the second item: 5:1013 alone
    assert unseal.why == "entered by M-AFS1 (19.1.2)" and step.reveals
    assert step.state.mines["5:1013"].revealed and not step.state.mines["5:0808"].revealed
    assert [m.text for m in SYS.view(step.state).markers if m.kind == "mine"] == ["7"]


def test_14_4_1_an_engineer_finds_the_minefield_before_entering_on_1_to_5():
    s = laid([("M-EngSQ1", "EngSQ", "merc", "5:1012")], "strahl", "5:1013=7")
    step = SYS.apply(s, "merc", A.Move(unit="M-EngSQ1", to="5:1013"), ScriptedDice([5]))
    assert step.unseals[0].why == "found by M-EngSQ1 (14.4.1)"
    assert step.state.unit("M-EngSQ1").hex == "5:1012"  # it stays out
    missed = SYS.apply(s, "merc", A.Move(unit="M-EngSQ1", to="5:1013"), ScriptedDice([6, 6, 6]))
    assert missed.unseals[0].why == "entered by M-EngSQ1 (19.1.2)"  # a 6: it walks in


def test_19_1_8_friendly_units_passing_through_reveal_their_own_minefield():
    s = laid([("S-PKA1", "PKA", "strahl", "5:1012")], "strahl", "5:1013=7", active="strahl")
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA1", to="5:1013"), ScriptedDice([6, 6]))
    assert step.unseals[0].why == "entered by S-PKA1 (its own side's, 19.1.8)"
    assert any("Minefield 5:1013 (Strahl) attacks S-PKA1" in t for t in public(step))


def test_19_1_scenario_minefields_still_attack_and_have_no_seal():
    s = game([("M-AFS1", "AFS", "merc", "5:1012")])
    s.mines["5:1013"] = Minefield(owner="strahl", attack=7)
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1013"), ScriptedDice([6, 6]))
    assert step.unseals == [] and step.state.mines["5:1013"].revealed


# -- 19.1.6 artillery mines ---------------------------------------------------------------------


def test_19_1_6_a_mine_round_is_seen_to_land_but_its_power_is_sealed():
    from rules.mak.artillery import fire_request
    from rules.mak.land_state import ArtilleryRequest
    from rules.mak.table import Table
    from rules.core.orders import Ctx

    s = game([("M-AFS1", "AFS", "merc", "5:1013")], active="strahl")
    s.batteries = __import__("rules.mak.artillery", fromlist=["make_batteries"]).make_batteries(
        "strahl", ["Type II … ⑤W−10×5 (2)"])
    r = ArtilleryRequest(battery="S-Art1", side="strahl", turn=1, kind="a", hex="5:1013", observer="x",
                         requester="x", rounds=2, mines=True)
    ctx = Ctx(state=s, side="strahl", dice=ScriptedDice([2, 2, 2, 2]))  # both rounds on target (17.2.1)
    fire_request(Table(s), ctx, r)
    field = s.mines["5:1013"]
    assert field.attack == 20 and field.spared == ["M-AFS1"]  # 12 + 12, capped (19.1.6, 19.1.7)
    assert [json.loads(x.items[0]) for x in ctx.seals] == [{"attack": 12, "hex": "5:1013"},
                                                          {"attack": 20, "hex": "5:1013"}]
    assert field.suspected and not field.revealed
    assert [m.text for m in SYS.view(s).markers if m.kind == "mine"] == ["?"]  # seen to land
    assert [m.text for m in SYS.view_for(s, "strahl").markers if m.kind == "mine_own"] == ["20"]
    assert not any("20" in e.text for e in ctx.events if e.to is None)


def test_19_1_6_a_round_lost_on_an_enemy_minefield_looks_like_any_other():
    """Issue 45: the Strahl scatter mines on 5:1013; whether a Mercenary minefield lay there
    (the round is lost, 19.1.6) or not, the public map shows the same MINE ? and the
    Mercenaries' later moves are treated alike (an undo refused: a minefield may lie there)."""
    from rules.mak.minefields import artillery_mines, may_lie_unfound
    from rules.core.orders import Ctx

    views, unfound = [], []
    for own in (None, Minefield(owner="merc", attack=9, seal="mines:merc", index=0)):
        s = game([("M-AFS1", "AFS", "merc", "5:1020")], active="strahl")
        if own is not None:
            s.mines["5:1013"] = own
        artillery_mines(Ctx(state=s, side="strahl", dice=ScriptedDice([])), "5:1013", "strahl", 12, "S-Art1")
        views.append([(m.kind, m.text) for m in SYS.view(s).markers if m.kind.startswith("mine")])
        unfound.append(may_lie_unfound(s, "strahl"))
    assert views[0] == views[1] == [("mine", "?")]
    assert unfound == [True, True]


def test_19_1_1_whether_an_enemy_minefield_may_lie_unfound_is_told_by_public_counts_alone():
    """Issue 45: a layout of 30 points (19.1.1: 5-13 a minefield) with 13 found may hold
    another, whatever was laid; with 26 found (4 points left) it cannot."""
    from rules.mak.minefields import may_lie_unfound

    for laid in ([("5:0827", 13)], [("5:0720", 6), ("5:0827", 13)]):
        s = game([("M-AFS1", "AFS", "merc", "5:1020")])
        s.mine_points, s.laid = {"strahl": 30}, ["strahl"]
        for index, (label, attack) in enumerate(laid):
            s.mines[label] = Minefield(owner="strahl", attack=attack, seal="mines:strahl", index=index)
        s.mines["5:0827"].revealed = True
        assert may_lie_unfound(s, "strahl")
        s.mines["5:0828"] = Minefield(owner="strahl", attack=13, seal="mines:strahl", index=9, revealed=True)
        assert not may_lie_unfound(s, "strahl")
        assert not may_lie_unfound(s, "merc")  # the Mercenaries laid none


def test_19_1_6_the_request_records_the_shot_type_and_a_plain_indirect_has_none():
    s = game([("M-AFS1", "AFS", "merc", "5:1013"), ("S-PKA1", "PKA", "strahl", "5:1015")], active="strahl")
    with pytest.raises(RuleError, match="mines are for off-board artillery"):
        SYS.apply(s, "strahl", A.Indirect(unit="S-PKA1", at="5:1013", spotter="S-PKA1", mines=True),
                  ScriptedDice([]))


# -- 15.0 concealment ---------------------------------------------------------------------------

FAR = [("M-AFS1", "AFS", "merc", "5:0829"), ("M-AFS2", "AFS", "merc", "5:0829"),
       ("S-PKA1", "PKA", "strahl", "5:0812")]


def hidden_game(markers=None):
    s = at_setup(FAR, concealment=True, markers=markers)
    step = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([]))
    return step


def test_15_4_1_a_marker_hides_the_stack_and_its_unit_is_sealed():
    step = hidden_game()
    (seal,) = step.seals
    assert seal.what == "put concealment marker M-Con1 on 5:0829 (15.4.1)"
    assert json.loads(seal.items[0]) == {"marker": "M-Con1", "unit": "M-AFS1"}
    s = step.state
    pub = SYS.view(s)
    assert [(c.id, c.label) for c in pub.counters if c.faction == "merc"] == [("M-Con1", "?")]
    assert "Mercenary: 1 on map" in pub.header.facts  # 15.4.3: the stack's size is hidden too
    own = SYS.view_for(s, "merc")
    assert sorted(c.id for c in own.counters if "Concealed" in c.markers) == ["M-AFS1", "M-AFS2"]
    assert not any("M-AFS" in line for line in SYS.status(s)[1:2])


def test_15_4_1_an_order_for_a_concealed_unit_names_its_marker_and_the_public_reads_the_marker():
    s = hidden_game().state
    s.setup = []
    with pytest.raises(RuleError, match="name the marker \\(M-Con1\\)"):
        SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:0828"), ScriptedDice([]))
    assert A.Move(unit="M-Con1", to="5:0828") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", A.Move(unit="M-Con1", to="5:0828"), ScriptedDice([]))
    assert public(step)[0].startswith("M-Con1 moves 5:0829 → 5:0828")
    assert not any("M-AFS1" in t for t in public(step))
    assert private(step, "merc") == ["M-Con1 is M-AFS1 (only you see this) (15.4.1)"]
    # the stack it left has no marker: M-AFS2 is seen again
    assert "M-AFS2" in [c.id for c in SYS.view(step.state).counters] and step.reveals


def test_15_4_1_an_enemy_unit_with_line_of_sight_lifts_the_marker_and_opens_its_seal():
    s = hidden_game().state
    s.setup, s.active = [], "strahl"
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA1", to="5:0613"), ScriptedDice([]))
    (unseal,) = step.unseals
    assert unseal.key == "conceal:M-Con1:1" and unseal.why.startswith("seen by S-PKA1")
    assert step.state.concealment.markers["M-Con1"] is None  # back to the supply
    assert "M-AFS1" in [c.id for c in SYS.view(step.state).counters]


def test_15_4_3_more_markers_on_one_unit_show_a_bigger_stack_and_all_go_at_once():
    s = at_setup(FAR, concealment=True)
    step = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1", count=3), ScriptedDice([]))
    assert len(step.seals) == 3
    pub = SYS.view(step.state)
    assert [c.id for c in pub.counters if c.faction == "merc"] == ["M-Con1", "M-Con2", "M-Con3"]
    st = step.state
    st.setup, st.active = [], "strahl"
    lifted = SYS.apply(st, "strahl", A.Move(unit="S-PKA1", to="5:0613"), ScriptedDice([]))
    assert len(lifted.unseals) == 3  # 15.4.3: all markers in the stack are removed


def test_15_4_2_markers_are_limited_and_move_between_units():
    s = at_setup(FAR, concealment=True, markers=2)
    with pytest.raises(RuleError, match=r"2 concealment marker\(s\) in your supply; the game set gives 2 \(15.4.2\)"):
        SYS.apply(s, "merc", SA.Hide(unit="M-AFS1", count=3), ScriptedDice([]))
    s = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([])).state
    step = SYS.apply(s, "merc", SA.Shift(marker="M-Con1", to="M-AFS2"), ScriptedDice([]))
    assert step.state.concealment.markers["M-Con1"] == "M-AFS2"
    assert step.seals[0].what == "moved concealment marker M-Con1 from 5:0829 to 5:0829 (15.4.2)"


def test_15_4_1_a_unit_in_enemy_sight_cannot_be_concealed():
    s = at_setup([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1013")], concealment=True)
    with pytest.raises(RuleError, match=r"in sight of S-PKA1: a marker is removed"):
        SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([]))


def test_15_0_concealment_is_an_option_and_off_by_default():
    assert SYS.setup("patrol", None, SeededDice(b"s")).state.concealment is None
    s = SYS.setup("patrol", "concealment,markers=3", SeededDice(b"s")).state
    assert sorted(s.concealment.markers) == ["M-Con1", "M-Con2", "M-Con3", "S-Con1", "S-Con2", "S-Con3"]


def test_15_4_3_enemy_autocomplete_never_names_a_concealed_unit_nor_counts_the_stack():
    s = hidden_game().state
    s.setup, s.active = [], "strahl"
    for order in ("air strike", "indirect"):
        field = "hex" if order == "air strike" else "at"
        assert SYS.label(s, "strahl", order, field, "5:0829", {}) == "5:0829 · M-Con1"
    assert SYS.label(s, "merc", "indirect", "at", "5:0829", {}) == "5:0829 · M-AFS1, M-AFS2"


# -- 10.1 the duty chart --------------------------------------------------------------------------


def test_10_1_1_each_assignment_is_sealed_and_opened_when_both_are_ready():
    from tests.mak.test_air import game as air_game  # noqa: PLC0415

    s = air_game([], air=[("M-Falke1", "Falke", "merc", "ready"), ("S-Falke1", "Falke", "strahl", "ready")],
                 phase="air")
    step = SYS.apply(s, "merc", AA.Commit(unit="M-Falke1", mission="ground"), ScriptedDice([]))
    assert AA.Commit.sealed and AA.Commit.path() == "air commit"
    assert json.loads(step.seals[0].items[0]) == {"mission": "ground", "unit": "M-Falke1"}
    assert private(step, "merc")[0].startswith("M-Falke1: Ground Combat") and not public(step)
    s = step.state
    s = SYS.apply(s, "merc", AA.Commit(), ScriptedDice([])).state
    done = SYS.apply(s, "strahl", AA.Commit(), SeededDice(b"d"))
    assert [u.key for u in done.unseals] == [step.seals[0].key]


# -- the pictures ---------------------------------------------------------------------------------


def test_each_sides_picture_shows_its_own_secrets_and_the_public_one_none(tmp_path):
    from render import snapshot  # noqa: PLC0415

    def render_png(view):
        return snapshot(view).png

    s = laid(FAR, "merc", "5:0826=10 5:0725=10", active="merc")
    begin(s, None)
    s = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([])).state
    for name, view in (("public", SYS.view(s)), ("merc", SYS.view_for(s, "merc"))):
        png = render_png(view)
        (tmp_path / f"{name}.png").write_bytes(png)
        assert Image.open(io.BytesIO(png)).size[0] > 300
    assert render_png(SYS.view(s)) != render_png(SYS.view_for(s, "merc"))
    assert render_png(SYS.view(s)) == render_png(SYS.view_for(s, "strahl"))


def test_19_1_1_the_owners_minefield_tags_never_cover_a_counter(tmp_path):
    # the play-test: "OWN MINE 13" was drawn over the counter of the hex below; minefields
    # under a stack, in the hex above one, and beside a defensive position's tag
    from render import focus, snapshot  # noqa: PLC0415
    from render.layout import overlapping_pairs  # noqa: PLC0415

    units = [("S-InfSQ1", "InfSQ", "strahl", "5:0811"), ("S-PKA1", "PKA", "strahl", "5:0812"),
             ("S-PKA2", "PKA", "strahl", "5:0812"), ("M-AFS1", "AFS", "merc", "5:0829")]
    s = laid(units, "strahl", "5:0812=13 5:0811=7 5:0913=10", active="strahl")
    s.positions["5:0812"] = Position(rating=-1)
    view = SYS.view_for(s, "strahl")
    assert sorted(m.text for m in view.markers if m.kind == "mine_own") == ["10", "13", "7"]
    for render in (snapshot, focus):
        shot = render(view)
        (tmp_path / f"{render.__name__}.png").write_bytes(shot.png)
        tags = shot.layout.of_kind("marker")
        assert len(tags) == 4  # three minefields and the position
        covered = [(a.id, b.id) for a, b in overlapping_pairs(tags + shot.layout.of_kind("counter", "stack"))
                   if "marker" in (a.kind, b.kind)]
        assert covered == [], covered


def test_15_4_1_the_enemy_naming_a_concealed_unit_learns_nothing_of_it():
    s = hidden_game().state
    s.setup, s.active = [], "strahl"
    words = {}
    for name in ("M-AFS1", "M-Con1", "M-AFS2", "M-AFS7"):
        with pytest.raises(RuleError) as caught:
            SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target=name), ScriptedDice([]))
        words[name] = str(caught.value)
    # a hidden unit's own id gets the sentence of a name no unit has (M-AFS7); its marker,
    # a public counter, one that says nothing of what is under it
    assert words["M-AFS1"] == "'M-AFS1' is not an enemy unit on the map."
    assert words["M-AFS2"] == "'M-AFS2' is not an enemy unit on the map."
    assert words["M-AFS7"] == "'M-AFS7' is not an enemy unit on the map."
    assert words["M-Con1"] == "'M-Con1' is under a concealment marker: none of your units sees what is there (15.4.1)."


def test_19_1_6_a_mine_request_lands_at_the_next_own_phase_sealed_and_the_enemy_walks_into_it():
    from tests.mak.test_artillery import game as artillery_game  # noqa: PLC0415

    s = artillery_game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    o = A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1", mines=True)
    step = SYS.apply(s, "merc", o, ScriptedDice([]))
    assert "(1 round(s) of mines (19.1.6))" in public(step)[0]  # 17.1.5: the shot type is recorded
    s = SYS.apply(step.state, "merc", A.End(), ScriptedDice([])).state
    # the Mercenary phase of turn 2: deviation 3+3 = 6 ≤ 9 (type a): on target; no attack roll
    landed = SYS.apply(s, "strahl", A.End(), ScriptedDice([3, 3]))
    s = landed.state
    (seal,) = landed.seals
    assert seal.side == "merc" and json.loads(seal.items[0]) == {"attack": 12, "hex": "5:1016"}
    assert "scattered mines on 5:1016 (19.1.6)" in seal.what
    assert s.unit("S-PKA1").status == "on" and s.mines["5:1016"].spared == ["S-PKA1"]  # 19.1.7
    assert [m.text for m in SYS.view(s).markers if m.kind == "mine"] == ["?"]
    # 19.1.7 "not attacked as long as it does not move": it moves, and is attacked as it leaves
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    left = SYS.apply(s, "strahl", A.Move(unit="S-PKA1", to="5:1015"), ScriptedDice([6, 6]))
    assert left.unseals[0].key == seal.key and left.unseals[0].why == "left by S-PKA1 (19.1.2)"
    assert "as it leaves" in " ".join(public(left))


@pytest.mark.parametrize("seed", range(3))
def test_random_games_with_minefields_and_concealment_end_and_no_hidden_unit_is_ever_in_sight(seed):
    """Random legal orders, sealed ones included, to the end: every offer is accepted, and
    after every order no unit under a marker is in an enemy unit's line of sight (15.4.1)."""
    import random  # noqa: PLC0415

    from rules.mak.concealment import hidden_units  # noqa: PLC0415
    from rules.mak.table import Table  # noqa: PLC0415

    rng = random.Random(seed)
    dice = SeededDice(f"hidden-{seed}".encode())
    step = SYS.setup("minefields", "concealment", dice)
    state, used = step.state, set()
    for _ in range(3000):
        if step.game_over:
            break
        side = rng.choice(step.waiting_on)
        legal = SYS.legal_actions(state, side)
        secret = [a for a in legal if a.sealed]
        order = rng.choice(secret if secret and rng.random() < 0.6 else legal)
        step = SYS.apply(state, side, order, dice)
        state = step.state
        used.add(order.path())
        t = Table(state)
        for u in hidden_units(state):
            assert not any(t.sees(e, u) for e in t.on_map("strahl" if u.side == "merc" else "merc")), u.id
    assert step.game_over and used & {"mines lay", "conceal hide", "conceal shift"}


def test_15_4_1_aircraft_striking_a_concealed_stack_see_it():
    from tests.mak.test_air import game as air_game  # noqa: PLC0415

    s = air_game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0506")],
                 air=[("M-Falke1", "Falke", "merc", "ground")])
    begin(s, None)
    s.concealment.markers["S-Con1"] = "S-PKA1"
    s.concealment.seals["S-Con1"] = "conceal:S-Con1:1"
    s.concealment.hidden = ["S-PKA1"]
    assert [c.id for c in SYS.view(s).counters if c.faction == "strahl"] == ["S-Con1"]
    step = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([]))
    assert step.unseals[0].why == "seen by M-Falke1 over the hex (10.4.1, 15.4.1)"
    assert step.state.concealment.markers["S-Con1"] is None
