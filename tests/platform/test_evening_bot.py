"""The first evening, bot side (issue 40): what a new club met, in console transcripts."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot import tutorial
from bot.config import Settings
from bot.console import Console
from bot.gamecmds import GAME
from bot.pacing.commands import GAME_PACING
from bot.pacing.digest import rolls_bullet
from bot.store import StepRow
from rules.core import registry
from rules.core.answers import chosen_words, option_question, title_of
from rules.core.dice import Roll, SeededDice
from bot.models import Reply
from bot.service import ScriptedDiceSource, Service
from tests.console_run import run

START = ["@alice /game new system:rr", "@alice /game join side:nato", "@bob /game join side:soviet"]


async def test_undo_shows_the_answers_of_the_position_it_went_back_to(tmp_path: Path):
    """1: after /game undo the numbered answers are those of the step gone back to, and a
    number picks from them (it picked from the undone step's stale list)."""
    script = [*START, "@alice /rr deploy-default", "@alice /rr standing retreat:ask",
              "@alice /game undo", "@alice 1"]
    out: list[str] = []
    refused, text, _ = await run(tmp_path, script, [], out=out)
    assert refused == 0, text
    undo = next(m for m in out if m.startswith("↩️"))
    assert "NATO may answer (tap, or type the number):\n1. Ready" in undo
    assert "#3 alice (nato): ready" in text  # "1" picked Ready, from the undo's list


async def test_rollback_shows_the_answers_of_the_side_now_waited_on(tmp_path: Path):
    """1: a rollback's reply offers the answers of the position it went back to."""
    script = [*START, "@alice /rr deploy-default", "@alice /rr ready",
              "@alice /mod rollback to:1 reason:misclick", "@alice 1"]
    out: list[str] = []
    refused, text, _ = await run(tmp_path, script, [], out=out, moderators=("alice",))
    assert refused == 0, text
    rollback = next(m for m in out if m.startswith("⏪"))
    assert "NATO may answer (tap, or type the number):\n1. Ready" in rollback
    assert "#3 alice (nato): ready" in text


async def test_an_early_end_says_who_won_by_the_rules_as_status_does(tmp_path: Path):
    """2: /game end of a game ended early names the side /game status says would win now
    (12.0 read at that point), not only "ended before its last turn"."""
    script = [*START, "@alice /game status", "@alice /game end"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("alice",))
    assert refused == 0, text
    assert "If it ended now: Soviets win" in text
    assert "🏁 Game over: ended before its last turn; Soviets win by 12.0 at this point.\n" in text


async def test_an_early_end_says_nobody_won_where_the_rules_name_nobody(tmp_path: Path):
    """2: a system whose rules name no winner mid-game says so in words."""
    script = ["@alice /game new system:commando", "@alice /game end"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("alice",))
    assert refused == 0, text
    assert "🏁 Game over: ended before its last turn; by the rules nobody has won at this point.\n" in text


async def test_a_rollback_says_the_dice_are_not_rolled_back(tmp_path: Path):
    """3: after /mod rollback the same order draws the next rolls of the seeded sequence
    (the counter is not wound back); the rollback's reply says so and names /mod reroll."""
    settings = Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(settings)  # the game's own seeded dice, not scripted ones
    out: list[str] = []
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append, moderator=["alice"])
        ready = [*START, "@alice /rr deploy-default", "@alice /rr ready", "@bob /rr deploy-default",
                 "@bob /rr ready"]  # 6.1: the initiative is rolled
        assert await console.run_script([*ready, "@alice /mod rollback to:3 reason:misclick",
                                         "@bob /rr ready"]) == 0, "\n".join(out)
        game = await service.games.require(console.channel)
        steps = await service.store.steps(game.row.id)
    finally:
        await service.close()
    rollback = next(m for m in out if m.startswith("⏪"))
    assert "🎲 The dice are not rolled back: the next roll is roll 2 of this game's seeded sequence" in rollback
    assert "/mod reroll" in rollback
    struck, again = (s for s in steps if s.action and s.action["name"] == "ready" and s.side == "soviet")
    assert [r.index for r in struck.dice] == [0, 1] and [r.index for r in again.dice] == [2, 3]


async def test_a_rollback_over_steps_without_dice_says_nothing_of_dice(tmp_path: Path):
    """3: nothing struck rolled dice: no dice line."""
    script = [*START, "@alice /rr deploy-default", "@alice /mod rollback to:0 reason:misclick"]
    refused, text, _ = await run(tmp_path, script, [], moderators=("alice",))
    assert refused == 0, text
    assert "⏪" in text and "dice are not rolled back" not in text


async def test_help_lists_every_declared_game_command(tmp_path: Path):
    """4: /game help's list is built from the declarations: act, help and scenarios were
    left out of the hand-written one; no declared command can be now."""
    refused, text, _ = await run(tmp_path, [*START, "@alice /game help"], [])
    assert refused == 0, text
    listed = text.split("> @alice /game help\n", 1)[1].split("\n\n", 1)[0]
    words = {w for line in listed.splitlines() for w in line.split("/game ", 1)[1].split(" · ")}
    assert words == {c.name for c in GAME.commands}
    assert {"act", "help", "scenarios"} <= words
    # In the order Discord shows them: the help and the command list read alike.
    assert listed.splitlines()[0].endswith("/game new · tutorial · scenarios · join · leave · status · act · map"
                                           " · log · undo · replay · export · help · concede · end")
    assert listed.splitlines()[1] == "Pacing: /game " + " · ".join(c.name for c in GAME_PACING)


def test_a_digest_line_says_whose_dice_each_roll_is():
    """5: "#8 alice (us): decide choice:stand — 🎲 3 5 6 6" credited the German rifles' dice
    to alice: a step where another side's unit rolled says which side rolled which."""
    system = registry.get("skirmish")
    state = system.setup(system.scenarios[0], {}, SeededDice(b"seed", 0)).state
    view = system.view(state)
    rolls = [Roll(reason="sq2 Training Check", sides=6, value=3),
             Roll(reason="sq2 Training Check", sides=6, value=5),
             Roll(reason='g1 Rifles 2 FP at 1pl (7.8")', sides=6, value=6),
             Roll(reason='g1 Rifles 2 FP at 1pl (7.8")', sides=6, value=6)]
    step = StepRow(game_id=1, seq=8, parent_seq=7, kind="order", actor_id="alice", actor_name="alice",
                   side="us", action={"name": "decide", "options": {"choice": "stand"}}, dice=rolls,
                   state_json="{}")
    line = rolls_bullet(system, step, [view, view])
    assert line == "• #8 alice (us): decide choice:stand — 🎲 Americans 3 5 · Germans 6 6"
    own = step.model_copy(update={"dice": rolls[:2]})  # only alice's side rolled: as the log says
    assert rolls_bullet(system, own, [view, view]) == "• #8 alice (us): decide choice:stand — 🎲 3 5"


async def test_the_console_never_pings_the_user_who_gave_the_command(tmp_path: Path):
    """6: "🔔 @bob" after bob's own order; the console skips the invoker as Discord does,
    and still pings the player whose turn it now is."""
    out: list[str] = []
    refused, text, _ = await run(tmp_path, [*START, "@alice /rr deploy-default", "@alice /rr ready",
                                            "@bob /rr deploy-default"], [], out=out)
    assert refused == 0, text
    assert "🔔 @alice" not in text  # alice's join seated the side to act: she typed it
    pings = [line for line in out if line.startswith("🔔")]
    assert pings == ["🔔 @bob"]  # alice's ready hands over to bob
    assert out[out.index("🔔 @bob") - 1].startswith("#2 alice (nato): ready")  # not under bob's own order


async def test_a_space_not_on_the_map_is_refused_with_the_spaces_to_go_to(tmp_path: Path):
    """7: "pick one from the list" showed no list: the refusal gives the list (main's
    raiders fix, held here by the console transcript)."""
    script = ["@alice /game new system:raiders", "@alice /raiders recruit at:matruh unit:commando",
              "@alice /raiders begin", "@alice /raiders move force:F1 to:atlantis"]
    refused, text, _ = await run(tmp_path, script, [3] * 20)
    assert refused == 1, text
    assert "⛔ There is no space 'atlantis'; spaces: " in text and "jarabub" in text
    assert "from the list" not in text


def test_menu_words_read_as_english_for_every_system():
    """8: "Which air?", "Which at?", "air true", "Hq: INF-DE2": an option is asked in its
    description's words, a yes/no as a question, and no question is "Which <name>?"."""
    rr, mak = registry.get("rr"), registry.get("mak")
    fire, hq = rr.action_type("fire"), rr.action_type("hq")
    assert option_question(fire, "air") == "Add your airstrike?"
    assert option_question(fire, "target") == "Choose the enemy unit fired on"
    assert option_question(mak.action_type("indirect"), "at") == "Choose the target hex"
    assert option_question(mak.action_type("air commit"), "mission") == "Choose the mission"
    assert title_of(hq) == "HQ"
    assert chosen_words(fire, "air", "true") == "add your airstrike"
    assert chosen_words(registry.get("skirmish").action_type("action"), "kind", "fire-and-move") == "fire and move"
    for system in registry.load_all().values():
        for action in system.actions:
            for key in action.model_fields:
                asked = option_question(action, key)
                assert not asked.startswith("Which"), (system.key, action.path(), asked)
                assert asked != f"Choose {key}", (system.key, action.path(), asked)


async def test_a_turn_digest_has_the_focus_of_what_changed_beside_the_whole_map(tmp_path: Path):
    """9: the whole-map digest cannot be read at 400 px: the digest's reply carries a focus
    picture of the turn's changes too (a real PNG, narrower than the whole map)."""
    settings = Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(settings, dice_source=ScriptedDiceSource([]))
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=[].append)
        assert await console.run_script([*START, "@alice /rr deploy-default", "@alice /rr ready"]) == 0
        game = await service.games.require(console.channel)
        reply = Reply(text="📰 digest", snapshot_key=f"{game.row.id}:2:map", focus_key=f"{game.row.id}:0:2")
        done = await service.attach_snapshot(reply)
        unchanged = await service.attach_turn_focus(Reply(text="x", focus_key=f"{game.row.id}:1:2"))
    finally:
        await service.close()
    whole, focus = (Image.open(io.BytesIO(a.data)) for a in done.attachments)
    assert [a.filename for a in done.attachments][1].endswith("-turn0-2-focus.png")
    assert focus.width < whole.width
    assert unchanged.attachments == []  # ready moved nothing: no second picture


@pytest.mark.parametrize("key", sorted(tutorial.LESSONS))
async def test_the_tutorial_explains_each_of_its_first_steps_in_two_lines(tmp_path: Path, key: str):
    """10: /game tutorial system: seats the player on every side with fixed dice; each of
    the first replies adds two lines, what happened and what to type next, and typing what
    they say (the lessons' ``type`` lines) plays the scripted first game, every order
    accepted, with the same dice every time."""
    settings = Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(settings)  # the tutorial's own seeded dice
    out: list[str] = []
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
        script = tutorial.TUTORIALS_BY_SYSTEM[key].script("alice")
        assert await console.run_script(script) == 0, "\n".join(out)
    finally:
        await service.close()
    replies = [m for m in out if not m.startswith(("> ", "📎", "✔️", "📣"))]
    assert "@alice takes" in replies[0] and "⛔" not in "\n".join(replies)
    for reply, lesson in zip(replies, tutorial.LESSONS[key], strict=True):
        assert "\n".join(lesson.lines()) in reply
        assert [line[:1] for line in reply.splitlines() if line[:1] in "🎓👉"] == ["🎓", "👉"]


async def test_the_rr_tutorial_rolls_what_its_lessons_say(tmp_path: Path):
    """The rr lessons name the initiative dice and the first move (6.1): fixed dice."""
    settings = Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(settings)
    out: list[str] = []
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
        assert await console.run_script(tutorial.TUTORIALS_BY_SYSTEM["rr"].script("alice")) == 0
    finally:
        await service.close()
    replies = [m for m in out if not m.startswith(("> ", "📎", "✔️", "📣"))]
    assert "🪑 @alice takes nato, soviet (every side)." in replies[0]
    assert "🎲 NATO 6 · Soviets 4: NATO leads (6.1)" in replies[4]  # fixed dice, as the lesson says
    assert "#5 alice (nato): move units:M48-2 to:2" in replies[5]  # "Type 1 to move M48-2 to area 2"


def test_a_tutorial_file_is_checked() -> None:
    """A lesson file names its system, one lesson a step, and what to type after each."""
    with pytest.raises(ValueError, match="says what to type"):
        tutorial.Tutorial.model_validate({"system": "rr", "lessons": [
            {"seq": 0, "happened": "a", "next": "b"}, {"seq": 1, "happened": "c", "next": "d"}]})
    with pytest.raises(ValueError, match="same step"):
        tutorial.Tutorial.model_validate({"system": "rr", "lessons": [
            {"seq": 0, "happened": "a", "next": "b", "type": "1"}, {"seq": 0, "happened": "c", "next": "d"}]})


async def test_a_game_that_is_no_tutorial_has_no_lessons(tmp_path: Path):
    refused, text, _ = await run(tmp_path, [*START, "@alice /rr deploy-default"], [])
    assert refused == 0, text
    assert "🎓" not in text and "👉" not in text
