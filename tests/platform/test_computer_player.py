"""The computer at the table (issue 43), through the console and the real service on a
SQLite file: seated with ``@ai`` / ``/game join ai:`` / ``/mod seat ai:``, its orders logged as
"played by the computer for soviet", a side a player holds never played, a deadline paced
``then:ai`` handed to it and handed back, and a move it was thinking about when the bot
stopped made after the restart (the same move).

The whole game of Raid and Riposte a newcomer plays against it is behind ``slow``; the
default run plays its set-up and first operations.
"""

from __future__ import annotations

import asyncio
import random
import shlex
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.computer import seed_of
from bot.config import Settings
from bot.console import Console
from bot.models import Invocation, Reply
from bot.pacing.clock import ManualClock
from bot.service import Service
from rules.core.computer import candidates, think
from rules.core.playout import choose


def settings_in(tmp_path: Path) -> Settings:
    return Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps", html_at_end=False)


def typed(system_key: str, action: object) -> str:
    """An order as a player types it in the console."""
    options = action.model_dump(mode="json", exclude_defaults=True)  # type: ignore[attr-defined]
    words = [f"{k}:{shlex.quote(str(v).lower() if isinstance(v, bool) else str(v))}" for k, v in options.items()]
    return " ".join([f"/{system_key} {action.path()}", *words])  # type: ignore[attr-defined]


async def play_nato(console: Console, service: Service, out: list[str], *, until_turn: int | None,
                    rng: random.Random) -> None:
    """The newcomer plays NATO with legal orders (as the console offers them) until the
    game ends or ``until_turn`` begins; the computer answers after each line."""
    for _ in range(2000):
        game = await service.games.load("console")
        assert game is not None
        if game.system.result(game.state) is not None:
            return
        if until_turn is not None and (game.system.turn(game.state).number or 0) >= until_turn:
            return
        assert game.system.waiting_on(game.state) == ["nato"], game.system.turn_part(game.state)
        order = choose(game.system, candidates(game.system, game.state, "nato"), rng)
        reply = await console.run_line(typed("rr", order))
        assert reply is not None and not reply.error, reply.text if reply else order
    raise AssertionError("the game did not end")


async def newcomer(tmp_path: Path, level: str, until_turn: int | None) -> tuple[list[str], Service]:
    out: list[str] = []
    service = await Service.open(settings_in(tmp_path))
    console = Console(service, user="alice", snapshot_dir=tmp_path / "snaps", write=out.append)
    for line in ("/game new system:rr", "/game join side:nato", f"@ai:{level} /game join side:soviet"):
        reply = await console.run_line(line)
        assert reply is not None and not reply.error, reply.text if reply else line
    await play_nato(console, service, out, until_turn=until_turn, rng=random.Random(7))
    return out, service


async def test_a_newcomer_plays_nato_against_the_computer_in_the_console(tmp_path: Path) -> None:
    out, service = await newcomer(tmp_path, "easy", until_turn=2)
    try:
        text = "\n".join(out)
        assert "🤖 @alice seats the computer (easy) as soviet" in text
        assert "📣 #" in text and "🤖 played by the computer for soviet: deploy" in text
        game = await service.games.load("console")
        assert game is not None and game.system.turn(game.state).number == 2
        log = await service.store.steps(game.row.id)
        by_computer = [s for s in log if s.actor_id == "computer:easy:soviet"]
        assert by_computer and all(s.side == "soviet" for s in by_computer)
        assert not [s for s in log if s.side == "nato" and s.actor_id != "alice" and s.kind == "order"]
        reply = await service.handle(Invocation(channel_id="console", user_id="alice", user_name="alice",
                                                command=["game", "log"], options={"last": 50}))
        assert "played by the computer for soviet" in reply.text
    finally:
        await service.close()


@pytest.mark.slow
async def test_a_newcomer_plays_a_whole_game_against_the_normal_computer(tmp_path: Path) -> None:
    out, service = await newcomer(tmp_path, "normal", until_turn=None)
    try:
        console = Console(service, user="alice", snapshot_dir=tmp_path / "snaps", write=out.append)
        reply = await console.run_line("/game end")
        assert reply is not None and not reply.error and "🏁 Game over" in reply.text, reply.text if reply else ""
    finally:
        await service.close()


async def test_the_computer_never_plays_a_side_a_player_holds(tmp_path: Path) -> None:
    service = await Service.open(settings_in(tmp_path))
    try:
        for user, line, options in (("alice", ["game", "new"], {"system": "rr"}),
                                    ("alice", ["game", "join"], {"side": "nato"})):
            reply = await service.handle(Invocation(channel_id="t", user_id=user, user_name=user,
                                                    command=line, options=options))
            assert not reply.error
        refused = await service.handle(Invocation(
            channel_id="t", user_id="computer:normal:nato", user_name="computer (normal)",
            command=["rr", "deploy-default"], as_side="nato"))
        assert refused.error and "its player does" in refused.text
        # Nothing of the computer's to play: alice holds the side waited on.
        assert await service.computer.play("t", _ignore) == 0
        stranger = await service.handle(Invocation(channel_id="t", user_id="bob", user_name="bob",
                                                   command=["game", "join"], options={"side": "soviet", "ai": "easy"}))
        assert stranger.error and "Only a player of this game" in stranger.text
        taken = await service.handle(Invocation(channel_id="t", user_id="alice", user_name="alice",
                                                command=["game", "join"], options={"side": "nato", "ai": "easy"}))
        assert taken.error and "held by @alice" in taken.text
    finally:
        await service.close()


async def _ignore(channel_id: str, reply: Reply) -> None:
    """A sender that posts nowhere."""


async def test_a_moderator_seats_the_computer_over_a_player(tmp_path: Path) -> None:
    service = await Service.open(settings_in(tmp_path))
    try:
        for user, line, options, mod in (("alice", ["game", "new"], {"system": "raiders"}, False),
                                         ("mo", ["mod", "seat"], {"side": "raiders", "ai": "easy"}, True)):
            reply = await service.handle(Invocation(channel_id="t", user_id=user, user_name=user,
                                                    is_moderator=mod, command=line, options=options))
            assert not reply.error, reply.text
        assert "seats computer (easy) as raiders (replacing @alice)" in reply.text
        posted: list[Reply] = []

        async def send(channel_id: str, reply: Reply) -> None:
            posted.append(reply)

        made = await service.computer.play("t", send, most=5)
        moves = [p for p in posted if not p.text.startswith("🤔 The computer is thinking for Raiders…")]
        assert made == len(moves) == 5 and all("played by the computer for raiders" in p.text for p in moves)
    finally:
        await service.close()


async def test_a_move_being_thought_when_the_bot_stopped_is_made_after_the_restart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops while the computer is thinking (its "thinking…" posted, its move not
    made); the next start looks at every game with the computer and makes it: the very move
    it would have made."""
    settings = settings_in(tmp_path)
    service = await Service.open(settings)
    posted: list[Reply] = []

    async def send(channel_id: str, reply: Reply) -> None:
        posted.append(reply)

    async def never_done(*args: object) -> object:  # a search still running when the bot stops
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    try:
        for user, line, options in (("alice", ["game", "new"], {"system": "rr"}),
                                     ("alice", ["game", "join"], {"side": "nato"}),
                                     ("alice", ["game", "join"], {"side": "soviet", "ai": "easy"}),
                                     ("alice", ["rr", "deploy-default"], {}), ("alice", ["rr", "ready"], {})):
            reply = await service.handle(Invocation(channel_id="t", user_id=user, user_name=user,
                                                    command=line, options=options))
            assert not reply.error, reply.text
        game = await service.games.load("t")
        assert game is not None and game.system.waiting_on(game.state) == ["soviet"]
        expected = think(game.system, game.system.observe(game.state, "soviet"), "soviet",
                         seed_of(game, "soviet"), "easy")
        head = game.row.head_seq
        with monkeypatch.context() as thinking_for_ever:
            thinking_for_ever.setattr("bot.thinking.think", never_done)
            thinking_for_ever.setattr("bot.computer.THINKING_NOTE", 0.0)
            task = asyncio.create_task(service.computer.run(send, every=0.2))
            for _ in range(600):
                if posted:
                    break
                await asyncio.sleep(0.1)
            assert [p.text for p in posted] == ["🤔 The computer is thinking for Soviets…"]
            task.cancel()  # the bot stops mid-think
            with pytest.raises(asyncio.CancelledError):
                await task
    finally:
        await service.close()
    restarted = await Service.open(settings)
    posted.clear()
    task = asyncio.create_task(restarted.computer.run(send, every=0.2))
    try:
        for _ in range(600):
            if any(not p.text.startswith("🤔") for p in posted):
                break
            await asyncio.sleep(0.1)
        assert posted, "the restarted bot made no move"
        moves = [p for p in posted if not p.text.startswith("🤔")]
        assert moves[0].text.startswith(f"#{head + 1} 🤖 played by the computer for soviet: {expected.summary}")
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await restarted.close()


async def test_a_deadline_paced_then_ai_hands_the_turn_to_the_computer_and_back(tmp_path: Path) -> None:
    clock = ManualClock(datetime(2026, 12, 2, 9, tzinfo=timezone.utc))
    service = await Service.open(settings_in(tmp_path), clock=clock)
    out: list[str] = []
    console = Console(service, user="alice", snapshot_dir=tmp_path / "snaps", write=out.append,
                      moderator=["mo"], clock=clock)
    try:
        for line in ("/game new system:rr", "/game join side:nato", "@bob /game join side:soviet",
                     "@mo /game pace hours:1 then:ai", "/rr deploy-default", "/rr ready"):
            reply = await console.run_line(line)
            assert reply is not None and not reply.error, reply.text if reply else line
        assert "the computer plays the silent side's turn" in "\n".join(out)
        # Bob (the Soviets) is silent past the deadline: the computer sets his units up.
        out.clear()
        await console.run_line("/clock advance hours:2")
        text = "\n".join(out)
        assert "⌛ The deadline passed" in text and "🤖 The computer plays Soviets for the rest of this turn" in text
        assert "🤖 played by the computer for soviet: deploy" in text
        game = await service.games.load("console")
        assert game is not None and game.system.turn(game.state).number == 1  # its turn (setup) is done
        assert await service.pipeline.stand_ins.level(game.row.id, "soviet") == "normal"
        # Turn 1: the stand-in belonged to the set-up; bob's next order hands it back.
        while game.system.waiting_on(game.state) != ["soviet"]:
            order = choose(game.system, candidates(game.system, game.state, "nato"), random.Random(1))
            assert not (await console.run_line(typed("rr", order))).error  # type: ignore[union-attr]
            game = await service.games.load("console")
            assert game is not None
        order = choose(game.system, candidates(game.system, game.state, "soviet"), random.Random(2))
        reply = await console.run_line("@bob " + typed("rr", order))
        assert reply is not None and not reply.error and "🤝 @bob is back: the computer hands soviet back." in reply.text
        assert await service.pipeline.stand_ins.level(game.row.id, "soviet") is None
    finally:
        await service.close()


async def test_a_move_that_takes_long_is_announced_as_thinking_first(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A move that takes longer than the note's seconds (3 s; none here, so every move takes
    longer) is announced first: "The computer is thinking for Soviets…", then the move."""
    monkeypatch.setattr("bot.computer.THINKING_NOTE", 0.0)
    service = await Service.open(settings_in(tmp_path))
    try:
        for line, options in ((["game", "new"], {"system": "rr"}), (["game", "join"], {"side": "nato"}),
                              (["game", "join"], {"side": "soviet", "ai": "easy"}),
                              (["rr", "deploy-default"], {}), (["rr", "ready"], {})):
            reply = await service.handle(Invocation(channel_id="t", user_id="alice", user_name="alice",
                                                    command=line, options=options))
            assert not reply.error, reply.text
        posted: list[Reply] = []

        async def send(channel_id: str, reply: Reply) -> None:
            posted.append(reply)

        assert await service.computer.play("t", send, most=1) == 1
        assert [p.text.split(":")[0] for p in posted[:1]] == ["🤔 The computer is thinking for Soviets…"]
        assert "🤖 played by the computer for soviet: deploy" in posted[1].text
    finally:
        await service.close()


BOT_THINKING = """
import os, time
from bot import thinking
print(thinking.pool().submit(os.getpid).result(), flush=True)
time.sleep(120)
"""


def test_a_bot_killed_by_sigkill_leaves_no_thinking_worker_behind() -> None:
    """The computer's worker waits on its pool's queue, whose pipe it holds both ends of: a
    bot killed outright left it waiting for ever.  It watches the bot and ends with it."""
    import signal  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415
    import time  # noqa: PLC0415

    from tests.platform.test_render_pool import _alive  # noqa: PLC0415

    bot = subprocess.Popen([sys.executable, "-c", BOT_THINKING], stdout=subprocess.PIPE, text=True,
                           cwd=Path(__file__).resolve().parents[2])
    assert bot.stdout is not None
    worker = int(bot.stdout.readline())
    assert _alive(worker)
    bot.send_signal(signal.SIGKILL)
    bot.wait(timeout=10)
    deadline = time.monotonic() + 30
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(worker), f"the thinking worker {worker} outlived its bot"


async def test_a_computer_seat_stops_giving_free_orders_after_the_cap(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43: a computer-seated Raiders side would post free orders (23.2 gear trades, 10.3
    joins, 13.0 moves between Staging Areas: no card, no Op) to the channel without end.  The
    search is replaced by the worst case, a player that gives a free order whenever its
    candidates hold one; the seat's count (``LiveGame.free_run``, carried on by each commit)
    makes the candidates leave them out after ``free_in_a_row``, so the game moves on."""
    from bot import thinking as thinking_module
    from rules.core import registry
    from rules.core.computer import Decision, free_run_after
    from rules.raiders.outlook import FREE_IN_A_ROW

    system = registry.get("raiders")
    given: list[tuple[str, object, int]] = []  # (the observation's JSON, the order, the count passed)

    async def stalling(system_key: str, observed_json: str, side: str, seed: str, level: str,
                       free_run: int = 0) -> Decision:
        observed = system.load_state(observed_json)
        offered = candidates(system, observed, side, free_run)
        free = [a for a in offered if system.free_order(observed, side, a)]
        chosen = (free or offered)[0]
        given.append((observed_json, chosen, free_run))
        return Decision(action=chosen.model_dump(mode="json", exclude_defaults=True), path=chosen.path(),
                        summary=chosen.summary(), iterations=0, cpu_seconds=0.0)

    monkeypatch.setattr(thinking_module, "think", stalling)
    service = await Service.open(settings_in(tmp_path))
    try:
        for user, line, options in (("alice", ["game", "new"], {"system": "raiders", "options": "single=yes"}),
                                    ("mo", ["mod", "seat"], {"side": "raiders", "ai": "easy"})):
            reply = await service.handle(Invocation(channel_id="t", user_id=user, user_name=user,
                                                    is_moderator=user == "mo", command=line, options=options))
            assert not reply.error, reply.text
        for _ in range(4):  # four nudges' worth: 40 orders in a row each
            await service.computer.play("t", _ignore)
        assert len(given) > 2 * FREE_IN_A_ROW
        # Counted again from what was given, order by order, in the state it was given in.
        run, longest = 0, 0
        for observed_json, action, passed in given:
            assert passed == run  # the seat told the search the run as it stood
            run = free_run_after(system, system.load_state(observed_json), "raiders", action, run)  # type: ignore[arg-type]
            longest = max(longest, run)
        assert longest == FREE_IN_A_ROW  # free orders were there to give, and never more in a row
    finally:
        await service.close()


async def test_no_ping_and_no_answers_for_the_computers_turn(tmp_path: Path) -> None:
    """A reply that leaves the computer's side to act pings no one and carries no answers to
    tap (a press must come from the side's holder, so none could be pressed; issue 30's
    answers are for players); the reply that gives the turn back to the player pings them,
    with their answers."""
    service = await Service.open(settings_in(tmp_path))
    try:
        replies: list[Reply] = []
        for line, options in ((["game", "new"], {"system": "rr"}), (["game", "join"], {"side": "nato"}),
                              (["game", "join"], {"side": "soviet", "ai": "normal"}),
                              (["rr", "deploy-default"], {}), (["rr", "ready"], {})):
            reply = await service.handle(Invocation(channel_id="t", user_id="alice", user_name="alice",
                                                    command=line, options=options))
            assert not reply.error, reply.text
            replies.append(reply)
        # 11.0: NATO sets up first; its "ready" leaves the Soviets (the computer) to set up.
        ready = replies[-1]
        assert "Setup · Soviets" in ready.text
        assert ready.mentions == []
        offered = await service.attach_offer(ready, "t")
        assert not offered.buttons and offered.menu is None
        assert "may answer" not in offered.text and "Give an order" not in offered.text

        posted: list[Reply] = []

        async def send(channel_id: str, reply: Reply) -> None:
            posted.append(reply)

        made = await service.computer.play("t", send)
        moves = [p for p in posted if "played by the computer for soviet" in p.text]
        assert made == len(moves) > 0
        game = await service.games.load("t")
        assert game is not None
        for move in moves[:-1]:
            assert not any(m.startswith("computer:") for m in move.mentions), move.text
        # The computer plays until it is no longer waited on: then NATO is, in turn 1.
        assert game.system.waiting_on(game.state) == ["nato"]
        back = moves[-1]
        assert back.mentions == ["alice"]
        answered = await service.attach_offer(back, "t")
        assert answered.buttons or answered.menu is not None
        assert "NATO may answer" in answered.text or "NATO: /game act" in answered.text
    finally:
        await service.close()
