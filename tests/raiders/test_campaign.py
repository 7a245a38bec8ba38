"""The campaign game (25.0): what carries over, the Mission deck, winning and losing."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.battle import leader_roll
from rules.raiders.campaign import end_mission
from rules.raiders.state import RaidersState
from tests.raiders.helpers import ctx, do, mission, mission_state, put


def finish(state: RaidersState, won: bool, dice: list[int] | None = None) -> RaidersState:
    """End the mission in play, won (two targets destroyed) or lost."""
    c = ctx(state, dice or [])
    if won:
        for mk in c.m.markers[:2]:
            mk.revealed, mk.type, mk.destroyed = True, "aircraft", True
    end_mission(c)
    return c.state


def test_a_won_mission_carries_rp_alert_success_and_leaders() -> None:
    """25.1: card removed, RP kept, alert +1 next time, Success gained; 25.0 leaders stay."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Ldr-2")
    state.mission.rp = 5
    after = finish(state, won=True)
    camp = after.campaign
    assert after.phase == "between" and "M1" not in camp.deck and camp.record[-1].won
    assert (camp.rp, camp.success_rp, camp.alert_bonus, camp.leaders) == (5, 3, 1, ["Ldr-2"])
    # Next mission: pick 4 of the 5 left (M2..M6) → M5: alert 3 +1, RP 11 + 5 + 3.
    step = do(after, A.NextMission(), [4])
    m = mission(step)
    assert m.card == "M5" and m.alert == 4 and m.rp == 19 and step.reveals
    # The kept leader is placed free during recruiting.
    placed = do(step.state, A.Recruit(unit="Ldr-2", at="matruh"))
    assert mission(placed).rp == 19
    assert next(u for u in mission(placed).units if u.id == "Ldr-2").space == "matruh"


def test_a_lost_mission_goes_back_and_two_in_a_row_lose_the_campaign() -> None:
    """25.2: the card is reshuffled back; 25.3: two losses in a row lose the campaign."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    once = finish(state, won=False)
    assert "M1" in once.campaign.deck and once.phase == "between" and SYSTEM.result(once) is None
    again = do(once, A.NextMission(), [1]).state  # M1 drawn again
    twice = finish(put(again, "siwa", "Cdo-1"), won=False)
    assert twice.phase == "over" and twice.campaign.outcome == "lost"
    assert SYSTEM.result(twice) == "Campaign lost: 0 won, 2 lost (25.3)"
    assert SYSTEM.waiting_on(twice) == []
    status = "\n".join(SYSTEM.status(twice))
    assert "campaign lost (25.3)" in status and "to go" not in status  # 25.3: nothing left to play
    with pytest.raises(RuleError, match="game is over: Campaign lost"):
        do(twice, A.NextMission())


def test_winning_every_mission_wins_the_campaign() -> None:
    """25.3: the campaign is won only when every Mission card has been won."""
    state = mission_state("M1")
    state.campaign.deck = ["M1"]
    done = finish(put(state, "siwa", "Cdo-1"), won=True)
    assert done.campaign.outcome == "won" and SYSTEM.result(done).startswith("Campaign won")


def test_a_loss_between_wins_does_not_end_the_campaign() -> None:
    """25.3: only two losses *in a row* lose it."""
    state = finish(put(mission_state("M1"), "siwa", "Cdo-1"), won=False)
    state = do(state, A.NextMission(), [1]).state
    state = finish(put(state, "siwa", "Cdo-1"), won=True)
    state = do(state, A.NextMission(), [1, 1, 1]).state  # M2: its camp's two hostiles (8.0)
    state = finish(put(state, "siwa", "Cdo-1"), won=False)
    assert state.campaign.outcome is None and state.phase == "between"


def test_eliminated_leader_is_not_replaced_in_the_mission() -> None:
    """20.1: a leader lost in a mission cannot come back in it (20.2 picks only the others)."""
    state = put(mission_state("M1"), "msus", "Cdo-1")
    for u in state.mission.units:
        if u.id in ("Ldr-1", "Ldr-2"):
            u.eliminated = True
    c = ctx(state, [6, 1])  # leader roll 6; the pick is a d1: only Ldr-3 is left
    leader_roll(c, "msus")
    assert [u.id for u in c.m.units if u.space == "msus"] == ["Cdo-1", "Ldr-3"]


def test_single_mission_game_ends_after_one() -> None:
    """Option 'single': one mission, then the game is over (6.0; 25.3 needs a campaign)."""
    state = put(mission_state("M1", single=True), "siwa", "Cdo-1")
    done = finish(state, won=True)
    assert done.phase == "over" and SYSTEM.result(done) == "Mission M1 won (6.0)"


@pytest.mark.parametrize("won", [True, False])
def test_single_mission_says_the_mission_result_only(won: bool) -> None:
    """6.0: "If you have fulfilled this mission by the end of the game, you win" — with
    option 'single' no next mission, no campaign (25.3) in the events, status or picture."""
    state = put(mission_state("M1", single=True), "siwa", "Cdo-1")
    c = ctx(state)
    if won:
        for mk in c.m.markers[:2]:
            mk.revealed, mk.type, mk.destroyed = True, "aircraft", True
    end_mission(c)
    word = "won" if won else "lost"
    said = [e.text for e in c.events]
    assert said == [f"{'🏆' if won else '✗'} M1 Airfield raid {word} (6.0)"]
    shown = " ".join(said + SYSTEM.status(c.state) + [SYSTEM.turn_part(c.state)])
    view = SYSTEM.view(c.state)
    shown += " ".join([view.banner or "", *view.legend])
    for wrong in ("Campaign", "campaign", "Next mission", "25.3", "to go", "25.2"):
        assert wrong not in shown, wrong
    assert SYSTEM.status(c.state)[0] == f"M1 {word} (6.0)" and view.banner == f"M1 {word}"
    assert all(len(line) <= 40 for line in SYSTEM.status(c.state) + said)


def test_campaign_report_is_read_only() -> None:
    """The 'campaign' order shows the record and changes nothing."""
    state = finish(put(mission_state("M1"), "siwa", "Cdo-1", "Ldr-1"), won=True)
    step = do(state, A.CampaignReport())
    assert step.state is state
    lines = [e.text for e in step.events]
    assert lines[0] == "Won: M1 · Lost: none" and "RP banked: 12" in lines[2]
    assert lines[3] == "Next mission: alert +1 (25.1 (3))" and lines[4] == "Leaders: Ldr-1"
    assert A.CampaignReport.read_only


def test_setup_options_and_unknown_ones() -> None:
    """26.0 and 27.0 are options; anything else is refused in a sentence."""
    step = SYSTEM.setup("desert", {"coordinated": True, "scouting": True}, ScriptedDice([3]))
    state = step.state
    assert isinstance(state, RaidersState) and state.coordinated and state.scouting
    assert state.mission is not None and state.mission.card == "M3"
    with pytest.raises(RuleError, match="no option .fog.; options: coordinated"):
        SYSTEM.setup("desert", {"fog": True}, ScriptedDice([]))
    with pytest.raises(RuleError, match="scenario"):
        SYSTEM.setup("jungle", {}, ScriptedDice([]))


def test_success_leader_joins_the_next_mission() -> None:
    """25.1 (4), 20.0: M2's Success gives a leader for the next mission."""
    state = mission_state("M2")
    c = ctx(put(state, "siwa", "Cdo-1"), [2])  # the leader pick: Ldr-2 of 3
    for mk in c.m.markers[:2]:
        mk.revealed, mk.type, mk.destroyed = True, "fuel", True
    end_mission(c)
    assert c.state.campaign.leaders == ["Ldr-2"]
    step = do(c.state, A.NextMission(), [1])  # M1: no camp
    assert "Leaders kept (25.0): Ldr-2" in [e.text for e in step.events]
    state = do(step.state, A.Recruit(unit="commando", at="siwa")).state
    begun = do(state, A.Begin())
    assert next(u for u in mission(begun).units if u.id == "Ldr-2").space == "siwa"


def test_status_between_missions() -> None:
    """Status and turn label when a mission is over and the next waits."""
    state = finish(put(mission_state("M1"), "siwa", "Cdo-1"), won=False)
    assert SYSTEM.turn_part(state) == "Between missions"
    assert SYSTEM.status(state)[-1] == "Now: /raiders next-mission"
    assert [a.name for a in SYSTEM.legal_actions(state, "raiders") if not a.read_only] == ["next-mission"]
