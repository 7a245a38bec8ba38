"""What the public reads of concealed units (15.4.1-15.4.3, issue 28's play-test): the public
view names no unit under a marker nor counts them, "what changed" and the turn digest read a
marker for its stack, and a refusal naming an unseen enemy unit is the sentence for a unit that
does not exist."""

from __future__ import annotations

import copy
import enum

import pytest

from bot.pacing.digest import digest_lines
from bot.store import StepRow
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.core.views import changes_along, changes_between
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import secret_actions as SA
from rules.mak.state import Minefield
from tests.mak.test_hidden import FAR, at_setup, public


def row(seq: int, state, side: str | None = "merc", step=None) -> StepRow:
    """A stored step of ``state`` (the digest reads only these fields)."""
    return StepRow(game_id=1, seq=seq, parent_seq=seq - 1 if seq else None, kind="order" if side else "setup",
                   side=side, state_json=state.model_dump_json(),
                   events=step.events if step else [])


def hidden_then_mined():
    """M-AFS1 and M-AFS2 in 5:0829, M-Con1 put on M-AFS1 (sealed), then M-Con1 moves into a
    Strahl minefield in 5:0828 that destroys M-AFS1 (19.1.3): the states after each."""
    s0 = at_setup(FAR, concealment=True)
    s0.mines["5:0828"] = Minefield(owner="strahl", attack=13)  # a scenario's own: no seal
    hide = SYS.apply(copy.deepcopy(s0), "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([]))
    s1 = hide.state
    s1.setup = []
    # 19.1.3: 2d6 6+6 = 12 hits; the damage roll D destroys (scripted high)
    mined = SYS.apply(copy.deepcopy(s1), "merc", A.Move(unit="M-Con1", to="5:0828"), ScriptedDice([1, 1, 6, 6]))
    return s0, hide, s1, mined


def test_15_4_1_the_public_view_names_no_unit_under_a_marker_nor_their_count():
    _, _, s1, _ = hidden_then_mined()
    pub = SYS.view(s1)
    text = pub.model_dump_json()
    assert "M-AFS1" not in text and "M-AFS2" not in text
    assert pub.away == {}
    assert [c.id for c in pub.counters if c.cover] == ["M-Con1"]


def test_15_4_1_what_changed_reads_hiding_as_no_change_and_a_marker_put_down_as_no_move():
    s0, _, s1, _ = hidden_then_mined()
    changes = changes_between(SYS.view(s0), SYS.view(s1))
    assert changes == []  # not "eliminated", not "left", not M-Con1 "arrived"


def test_19_1_3_a_concealed_unit_destroyed_is_a_loss_the_public_was_told_of():
    s0, hide, s1, mined = hidden_then_mined()
    assert mined.state.unit("M-AFS1").status == "destroyed", public(mined)
    changes = changes_along([SYS.view(s) for s in (s0, s1, mined.state)])
    assert ("M-AFS1", "eliminated") in [(c.id, c.what) for c in changes]
    assert "M-AFS2" not in [c.id for c in changes if c.what != "moved"]


def test_the_turn_digest_names_no_hidden_unit_lists_no_still_marker_and_counts_the_loss():
    s0, hide, s1, mined = hidden_then_mined()
    lines = digest_lines(SYS, row(0, s0, None), [row(1, s1, "merc", hide), row(2, mined.state, "merc", mined)],
                         "📰 Turn 1 digest")
    text = "\n".join(lines)
    assert "under a concealment marker" not in text and "Off the map" not in text, text
    assert "M-AFS2" not in text, text  # still under M-Con1? no: the marker went back when M-AFS1 died
    assert "Losses: eliminated M-AFS1" in text, text
    assert not any(line.startswith("Moved:") and "M-Con1" in line for line in lines), text


def two_stacks():
    """M-Con1 over M-AFS1 in 5:0829, M-Con2 over M-AFS2 in 5:0929, both out of S-PKA1's sight."""
    units = [("M-AFS1", "AFS", "merc", "5:0829"), ("M-AFS2", "AFS", "merc", "5:0929"),
             ("S-PKA1", "PKA", "strahl", "5:0812")]
    s = at_setup(units, concealment=True)
    s = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([])).state
    s = SYS.apply(s, "merc", SA.Hide(unit="M-AFS2"), ScriptedDice([])).state
    s.setup, s.active = [], "strahl"
    return s


def test_15_4_1_two_markers_in_two_hexes_lifted_by_one_move_each_name_their_own_hex_and_unit():
    step = SYS.apply(two_stacks(), "strahl", A.Move(unit="S-PKA1", to="5:0514"), ScriptedDice([]))
    lifted = sorted(t for t in public(step) if "lifted" in t)
    assert lifted == ["Mercenary concealment M-Con1 in 5:0829 lifted, seen by S-PKA1 (15.4.1): under it: M-AFS1",
                      "Mercenary concealment M-Con2 in 5:0929 lifted, seen by S-PKA1 (15.4.1): under it: M-AFS2"]


def test_15_4_1_a_lift_names_only_the_units_the_markers_hid_not_one_seen_in_the_open_it_passed():
    # the play-test: two markers over M-AFS1 in 5:0829 move through 5:0828, where M-EngSQ1
    # stands in the open, and are seen there: M-EngSQ1 was never under them
    units = [("M-AFS1", "AFS", "merc", "5:0829"), ("M-EngSQ1", "EngSQ", "merc", "5:0828"),
             ("S-PKA1", "PKA", "strahl", "5:0311")]
    s = at_setup(units, concealment=True)
    s = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1", count=2), ScriptedDice([])).state
    s.setup = []
    assert "M-EngSQ1" in [c.id for c in SYS.view(s).counters]  # in the open before the move
    step = SYS.apply(s, "merc", A.Move(unit="M-Con1", to="5:0827"), ScriptedDice([1] * 20))
    (line,) = [t for t in public(step) if "lifted" in t]
    assert line == ("Mercenary concealment M-Con1, M-Con2 in 5:0828 lifted, seen by S-PKA1 (15.4.1): "
                    "under them: M-AFS1")


def world(hidden: str):
    """The Strahl S-Con1 over ``hidden`` in 5:0812 (out of the Mercenaries' sight), the
    Mercenaries to act: the public sees the same either way."""
    units = [("M-AFS1", "AFS", "merc", "5:0829"), ("M-EngSQ1", "EngSQ", "merc", "5:0828"),
             (hidden, "PKA", "strahl", "5:0812")]
    s = at_setup(units, concealment=True)
    s = SYS.apply(s, "strahl", SA.Hide(unit=hidden), ScriptedDice([])).state
    s.setup, s.active = [], "merc"
    return s


def answer(state, order):
    try:
        step = SYS.apply(state, "merc", order, ScriptedDice([1] * 40))
    except RuleError as exc:
        return exc.message
    return public(step)


def named_orders():
    """Every public Mercenary order with an option naming a unit, that option naming S-PKA1
    (the others: M-AFS1 where a unit of one's own is asked, blank otherwise)."""
    for model in SYS.actions:
        if model.sealed:
            continue
        specs = model.options()
        for spec in (o for o in specs if o.kind == "id"):
            values = {o.name: ("M-AFS1" if o.name in ("unit", "units") else "") for o in specs if o.kind == "id"}
            values[spec.name] = "S-PKA1"
            for name, f in model.model_fields.items():
                if name not in values and f.is_required():
                    kind = f.annotation
                    values[name] = next(iter(kind)) if isinstance(kind, type) and issubclass(kind, enum.Enum) \
                        else {int: 1, bool: False}.get(kind, "")
            yield model.path(), spec.name, model.model_construct(**values)


def test_15_4_1_naming_a_hidden_enemy_unit_is_answered_as_a_name_no_unit_has():
    # the play-test: "'S-PKA1' is under a concealment marker" told the Mercenaries S-PKA1 was
    # there; the same name must get the same answer whether S-PKA1 hides under S-Con1 or does
    # not exist (S-PKA9 under it instead), for every option of every order that names a unit
    there, absent = world("S-PKA1"), world("S-PKA9")
    seen = 0
    for path, field, order in named_orders():
        a, b = answer(copy.deepcopy(there), order), answer(copy.deepcopy(absent), order)
        assert a == b, (path, field, a, b)
        assert "concealment" not in str(a), (path, field, a)
        typed = {field: "S-PKA1"}
        assert SYS.choices(there, "merc", path, field, typed) == SYS.choices(absent, "merc", path, field, typed)
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("orders", [120, pytest.param(None, marks=pytest.mark.slow)])
def test_15_4_1_in_a_random_game_no_view_but_its_owners_ever_holds_a_hidden_unit(orders):
    """Random legal orders, sealed ones included (the first ``orders`` of them; slow: to the
    end): after every order the public view, and the opponent's, hold no id of a unit under
    a marker, anywhere (counters, marks, "what changed" maps, the header, the panel)."""
    import random  # noqa: PLC0415
    import re  # noqa: PLC0415

    from rules.core.dice import SeededDice  # noqa: PLC0415
    from rules.mak.concealment import hidden_units  # noqa: PLC0415

    rng = random.Random(7)
    dice = SeededDice(b"views-7")
    step = SYS.setup("minefields", "concealment", dice)
    checked = 0
    played = 0
    while not step.game_over and played != orders:
        played += 1
        side = rng.choice(step.waiting_on)
        legal = SYS.legal_actions(step.state, side)
        secret = [a for a in legal if a.sealed]
        step = SYS.apply(step.state, side, rng.choice(secret if secret and rng.random() < 0.6 else legal), dice)
        hidden = hidden_units(step.state)
        for viewer in (None, "merc", "strahl"):
            ids = [u.id for u in hidden if u.side != viewer]
            if not ids:
                continue
            text = (SYS.view(step.state) if viewer is None else SYS.view_for(step.state, viewer)).model_dump_json()
            found = [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?!\w)", text)]
            assert not found, (viewer, found)
            checked += 1
    assert checked > 20


def test_15_4_1_a_concealed_unit_seen_where_its_marker_moved_to_moved():
    # the console play: S-Con1 over S-PKA1 moves 5:0812 -> 5:0613 and is seen there; the
    # public read "S-PKA1 moves 5:0812 → 5:0613", the digest must say it moved
    units = [("M-AFS1", "AFS", "merc", "5:0829"), ("S-PKA1", "PKA", "strahl", "5:0812")]
    s = at_setup(units, concealment=True)
    s = SYS.apply(s, "strahl", SA.Hide(unit="S-PKA1"), ScriptedDice([])).state
    s.setup, s.active = [], "strahl"
    step = SYS.apply(copy.deepcopy(s), "strahl", A.Move(unit="S-Con1", to="5:0613"), ScriptedDice([]))
    assert any("S-Con1 in 5:0613 lifted" in t for t in public(step)), public(step)
    changes = changes_between(SYS.view(s), SYS.view(step.state))
    assert [(c.id, c.what) for c in changes] == [("S-PKA1", "moved")]
