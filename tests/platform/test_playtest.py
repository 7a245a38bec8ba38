"""What a play-test in the console found after the state moved to the head step (issue 23,
migration 0011): each test plays the console on a real SQLite file, as players and
moderators did, and holds one thing that was wrong."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from PIL import Image

from render import focus
from rules.core import registry
from tests.console_run import run

RR_START = ["@alice /game new system:rr", "@alice /game join side:nato", "@bob /game join side:soviet",
            "@alice /rr deploy-default"]


def after(text: str, command: str) -> str:
    """The transcript from the last time ``command`` was played."""
    return text[text.rindex(f"> {command}"):]


async def test_an_order_played_again_after_its_undo_pings_the_side_it_hands_over_to(tmp_path: Path):
    """``ready`` (11.0) hands the set-up to the Soviets and pings @bob; NATO takes it back
    with /game undo and gives it again: @bob must be pinged again, or the player waiting
    on a notification never learns it is his move (the undo left the ping of the undone
    step as the last one given, so the same hand-over counted as already announced)."""
    refused, text, _ = await run(tmp_path, [*RR_START, "@alice /rr ready", "@alice /game undo",
                                            "@alice /rr ready"], [])
    assert refused == 0, text
    assert text.count("🔔 @bob") == 2, text
    assert "🔔 @bob" in after(text, "@alice /rr ready")


async def test_an_undo_in_one_run_and_the_order_again_in_the_next_still_ping(tmp_path: Path):
    """The same, with the console closed between the undo and the order given again: the
    last ping is read back from the games row, so it must be right there too."""
    refused, text, _ = await run(tmp_path, [*RR_START, "@alice /rr ready", "@alice /game undo"], [])
    assert refused == 0, text
    refused, text, _ = await run(tmp_path, ["@alice /rr ready"], [])
    assert refused == 0, text
    assert "🔔 @bob" in text, text


async def test_deploy_default_with_every_unit_set_up_is_refused_and_stores_nothing(tmp_path: Path):
    """11.0: deploy-default sets up "every unit still waiting".  With none waiting it was
    accepted as a step that changed nothing (an empty "#2 deploy-default" in the log and a
    picture posted); it must be refused in one sentence, the game left at step #1."""
    refused, text, _ = await run(tmp_path, [*RR_START, "@alice /rr deploy-default", "/game status"], [])
    assert refused == 1, text
    assert "⛔ Every NATO unit is already set up" in after(text, "@alice /rr deploy-default")
    assert "(step #1)" in after(text, "/game status")


async def test_a_game_ended_before_any_roll_says_none_were_made(tmp_path: Path):
    """/game end announces the rolls made, for verify_dice --rolls: a game without one said
    "Rolls made: 0 (numbered 0 to -1)"."""
    refused, text, _ = await run(tmp_path, [*RR_START[:3], "@mo /game end"], [], moderators=("mo",))
    assert refused == 0, text
    assert "Rolls made: none.\n" in text
    assert "--rolls 0 " in text


async def test_a_rollback_of_one_step_says_step_in_the_singular(tmp_path: Path):
    """A rollback over one step read "Steps #2 are kept, struck through"."""
    script = [*RR_START, "@alice /rr ready", "@mo /mod rollback to:1 reason:slip",
              "@mo /mod rollback to:2 reason:back"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("mo",))
    assert refused == 0, text
    assert "Step #2 is kept, struck through; /mod rollback to:2 restores it." in text
    assert "Step #2 is active again." in text


async def test_status_right_after_your_own_order_lists_nothing_since_it(tmp_path: Path):
    """/game status's "Since your last order" is what the others did since: asked right
    after your own order, it listed that order's own effects (the BMD player read "Fired:
    BMD, Eliminated: M48-2" under "Since your last order").  The other side still sees it."""
    opening = [*RR_START, "@alice /rr ready", "@bob /rr deploy-default", "@bob /rr ready"]
    # Initiative 6 for NATO, 1 for the Soviets: NATO acts first (6.1).
    script = [*opening, "@alice /rr move units:LUCHS to:4", "@alice /game status", "@bob /game status"]
    refused, text, _ = await run(tmp_path, script, [6, 1])
    assert refused == 0, text
    mine = after(text, "@alice /game status")
    mine = mine[:mine.index("> @bob /game status")]
    assert "Since your last order" not in mine, mine
    assert "Since your last order:\nMoved: LUCHS" in after(text, "@bob /game status")


async def test_the_raiders_picture_with_no_move_shows_where_the_raiders_stand(tmp_path: Path):
    """The picture posted when Op 1 begins (7.0) had no move or battle to centre on and
    showed the middle of the board, Benghazi to Bir Hakeim, without the only force (F1 at
    Siwa): the phone-width picture must show the raiders' forces."""
    script = ["@alice /game new system:raiders", "@alice /raiders recruit unit:sas at:siwa",
              "@alice /raiders begin"]
    refused, text, console = await run(tmp_path, script, [3, 2, 4, 5, 1, 6] * 5)
    assert refused == 0, text
    posted = Image.open(console.snapshots[-1])
    assert posted.format == "PNG" and posted.width <= 750  # the phone-width picture
    with sqlite3.connect(tmp_path / "game.sqlite3") as db:
        (state_json,) = db.execute("SELECT s.state_json FROM games g JOIN step_log s"
                                   " ON s.game_id = g.id AND s.seq = g.head_seq").fetchone()
    system = registry.get("raiders")
    shown = focus(system.view(system.load_state(state_json))).layout.items
    assert [i.id for i in shown if i.kind == "force"] == ["F1"]
    assert "siwa" in [i.id for i in shown if i.kind == "space"]


async def test_a_seat_given_out_of_turn_offers_no_answers_of_the_side_to_act(tmp_path: Path):
    """/mod seat pings the player seated; when their side is not the one to act, the reply
    carried the Soviets' answers under the NATO player's ping ("Soviets: /game act ...").
    Seated on the side to act, they get its answers, as a join does."""
    script = [*RR_START, "@alice /rr ready", "@mo /mod seat side:nato user:carol",
              "@mo /mod seat side:soviet user:dave"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("mo",))
    assert refused == 0, text
    nato = after(text, "@mo /mod seat side:nato user:carol")
    nato = nato[:nato.index("> @mo /mod seat side:soviet")]
    assert "🔔 @carol" in nato and "Soviets" not in nato, nato
    soviet = after(text, "@mo /mod seat side:soviet user:dave")
    assert "🔔 @dave" in soviet and "Soviets: /game act builds an order" in soviet, soviet


def test_every_orders_description_is_whole_or_marked_short():
    """/game help lists each order with its description (also the slash command's, at most
    100 characters): Maschinen Krieger's volley read "... attack one target together; the
    defensive", its docstring's first line cut mid-sentence.  A description ends its
    sentence or says with "…" that it was shortened."""
    for key, system in registry.load_all().items():
        for action in system.actions:
            said = action.description()
            assert len(said) <= 100 and said.endswith((".", "…")), (key, action.path(), said)
    volley = next(a for a in registry.get("mak").actions if a.path() == "volley")
    assert volley.description().endswith("the defensive attacks…")


async def test_a_one_team_unit_is_offered_as_one_team(tmp_path: Path):
    """Skirmish's answers named the HQ and the tank "1 teams"."""
    script = ["@alice /game new system:skirmish", "@alice /game join side:us", "@bob /game join side:germans"]
    refused, text, _ = await run(tmp_path, script, [3, 2])  # the Americans 3, Germans 2: US first
    assert refused == 0, text
    assert "Activate: us-hq: Company HQ, 1 team, check 3+" in text, text
    assert "Activate: 1pl: 1st Rifle Platoon, 5 teams, check 4+" in text


async def test_a_moderators_pace_says_what_it_sets(tmp_path: Path):
    """/game pace by a moderator opened with the line "Moderator @mo sets" and nothing after."""
    script = [*RR_START[:3], "@mo /game pace hours:36"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("mo",))
    assert refused == 0, text
    assert "Moderator @mo sets the pace:\n⏱️ Pace: 36 h a turn-part." in text, text


async def test_undo_with_only_the_set_up_says_so(tmp_path: Path):
    """alice started the game and undid her only order; a second /game undo answered "The
    last step (#0) is alice's; you can undo only your own last step"."""
    refused, text, _ = await run(tmp_path, [*RR_START, "@alice /game undo", "@alice /game undo",
                                            "/game status"], [])
    assert refused == 1, text
    said = after(text, "@alice /game undo")
    assert "⛔ The last step (#0) is the game's set-up, not an order" in said
    assert "alice's" not in said
    assert "(step #0)" in after(text, "/game status")
