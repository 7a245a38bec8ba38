"""Issue 15: a battle's pictures keep every die: a picture when the battle starts, the rounds
fought earlier in the same order in words, the panel of a battle that ended in this order,
and none on the next order's picture (15.1, 16.0)."""

from __future__ import annotations

import io

from PIL import Image

from render import focus, snapshot
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from tests.raiders.helpers import do, mission, mission_state


def test_a_battle_started_and_fought_over_two_rounds_in_one_order_keeps_each_rounds_dice() -> None:
    state = mission_state("M1")
    state = do(state, A.Recruit(unit="sas", at="matruh")).state
    state = do(state, A.Recruit(unit="commando", at="matruh")).state
    state = do(state, A.Begin()).state
    # The same fixed dice as test_battle's casualty sequence: C4 Ambush, AC-1, Ger-1, Ita-1.
    step = do(state, A.Move(force="F1", to="sidi-rezegh"), [4, 7, 1, 11, 3, 4])
    assert step.snapshot, "the battle's opening picture (lines and Edge, 15.1)"
    assert SYSTEM.view(step.state).battle is not None
    step = do(step.state, A.Line(order="Cdo-1 SAS-1"), [5])
    step = do(step.state, A.Fire(target="AC-1"), [2, 3])
    # One order: the end of round 1 (SAS-1 hits Ger-1 on 4, Ita-1 misses on 6) and all of
    # round 2 (Ita-1 misses on 3, SAS-1 hits Ita-1 on 2): won.
    step = do(step.state, A.Fire(target="Ger-1"), [4, 6, 3, 2, 6, 1])
    assert mission(step).battle is None and step.snapshot
    view = SYSTEM.view(step.state)
    panel = view.battle
    assert panel is not None and panel.round == 2
    assert [(s.unit, s.die, s.result) for s in panel.shots] == [("Ita-1", 3, "miss"), ("SAS-1", 2, "hit Ita-1")]
    assert panel.earlier == ["Round 1: AC-1 5 miss; Cdo-1 2 hit AC-1; Ger-1 3 hit Cdo-1; "
                             "SAS-1 4 hit Ger-1; Ita-1 6 miss"]
    for shot in (snapshot(view), focus(view)):
        Image.open(io.BytesIO(shot.png)).verify()
        texts = " ".join(t for t, _ in shot.layout.texts)
        assert "Round 1:" in texts and "SAS-1 4 hit Ger-1" in texts.replace("  ", " ")
        assert not [t for t, _ in shot.layout.texts if t.endswith("..")]
    # The next order's picture: the battle is over and gone from it.
    nxt = SYSTEM.legal_actions(step.state, "raiders")[0]
    after = do(step.state, nxt)
    assert SYSTEM.view(after.state).battle is None
