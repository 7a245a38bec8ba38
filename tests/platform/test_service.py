"""The service on a real SQLite file: games, seats, orders, permissions, undo, rollback, reroll."""

from __future__ import annotations

import asyncio
import gzip
import json

import pytest

from bot.config import Settings
from bot.service import Service
from tests.platform.conftest import Table


async def start(table: Table) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")


async def state_json(table: Table) -> str:
    game = await table.service.games.load(table.channel)
    assert game is not None
    return game.state.model_dump_json()


async def test_new_game_posts_the_seed_hash_and_refuses_a_second(table: Table) -> None:
    reply = await table("alice", "/game new system:duel")
    assert not reply.error
    assert "seed hash" in reply.text.lower()
    game = await table.service.games.load(table.channel)
    assert game and game.row.seed_hash in reply.text
    again = await table("bob", "/game new system:duel")
    assert again.error and again.ephemeral and "already has" in again.text


async def test_unknown_system_and_scenario_are_refused(table: Table) -> None:
    reply = await table("alice", "/game new system:chess")
    assert reply.error and "duel" in reply.text
    reply = await table("alice", "/game new system:duel scenario:moon")
    assert reply.error and "standard" in reply.text
    assert await table.service.games.load(table.channel) is None


async def test_join_and_hot_seat(table: Table) -> None:
    await table("alice", "/game new system:duel")
    assert not (await table("alice", "/game join side:red")).error
    taken = await table("bob", "/game join side:red")
    assert taken.error and "held by @alice" in taken.text
    assert not (await table("alice", "/game join side:blue")).error  # hot-seat
    first = await table("alice", "/duel roll")
    second = await table("alice", "/duel roll")
    assert not first.error and "(red)" in first.text
    assert not second.error and "(blue)" in second.text


async def test_spectators_and_out_of_turn_orders_are_refused_naming_who_acts(table: Table) -> None:
    await start(table)
    before = await state_json(table)
    spectator = await table("carol", "/duel roll")
    assert spectator.error and "not seated" in spectator.text
    early = await table("bob", "/duel roll")
    assert early.error and "@alice" in early.text and "red" in early.text
    assert await state_json(table) == before


async def test_anytime_and_read_only_orders(table: Table) -> None:
    await start(table)
    assert not (await table("bob", "/duel stance mode:careful")).error  # out of turn, allowed
    peek = await table("bob", "/duel peek")
    assert peek.ephemeral and "Scores" in peek.text
    game = await table.service.games.load(table.channel)
    assert game and game.row.head_seq == 1  # peek stored nothing


async def test_mentions_next_player_once_per_turn_part(table: Table) -> None:
    await start(table)
    reply = await table("alice", "/duel roll")
    assert reply.mentions == ["bob"]
    stance = await table("alice", "/duel stance mode:bold")  # still bob's turn
    assert stance.mentions == []


async def test_step_is_committed_before_reply_and_survives_reopen(settings: Settings) -> None:
    svc = await Service.open(settings)
    table = Table(svc)
    await start(table)
    await table("alice", "/duel roll")
    await table("bob", "/duel wait")
    before = await state_json(table)
    await svc.close()
    again = await Service.open(settings)
    try:
        game = await again.games.load(table.channel)
        assert game is not None and game.state.model_dump_json() == before
        assert game.row.head_seq == 2
    finally:
        await again.close()


async def test_same_interaction_twice_is_applied_once(table: Table) -> None:
    await start(table)
    inv = table.invocation("alice", "/duel roll", interaction="discord-42")
    first = await table.service.handle(inv)
    second = await table.service.handle(inv)
    assert first == second
    steps = await table.service.store.steps((await table.service.games.load(table.channel)).row.id)
    assert [s.interaction_id for s in steps].count("discord-42") == 1


async def test_same_interaction_twice_at_once_is_applied_once(table: Table) -> None:
    await start(table)
    inv = table.invocation("alice", "/duel roll", interaction="discord-43")
    first, second = await asyncio.gather(table.service.handle(inv), table.service.handle(inv))
    assert first.text == second.text
    game = await table.service.games.load(table.channel)
    assert game and game.row.head_seq == 1


async def test_a_repeated_order_still_legal_is_answered_from_the_log(table: Table) -> None:
    # The second delivery would be legal again (an anytime order): the UNIQUE interaction id
    # refuses its step, and the first reply is given instead of an incident or a second step.
    await start(table)
    inv = table.invocation("bob", "/duel stance mode:bold", interaction="discord-44")
    first = await table.service.handle(inv)
    second = await table.service.handle(inv)
    assert not first.error and first == second
    game = await table.service.games.load(table.channel)
    assert game is not None and game.row.head_seq == 1
    steps = await table.service.store.steps(game.row.id)
    assert [s.interaction_id for s in steps].count("discord-44") == 1
    after = await table("alice", "/duel roll")  # the game goes on from the one stored step
    assert not after.error and "#2" in after.text


async def test_an_order_cancelled_after_its_commit_leaves_no_stale_cache(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Group commit may commit a unit whose order was cancelled meanwhile (a bot shutting
    # down); the service must not go on from its cached, now old, game.
    await start(table)
    store = table.service.store
    real = store.commit_unit

    async def committed_then_cancelled(unit) -> None:
        await real(unit)
        raise asyncio.CancelledError

    monkeypatch.setattr(store, "commit_unit", committed_then_cancelled)
    with pytest.raises(asyncio.CancelledError):
        await table.service.handle(table.invocation("alice", "/duel roll"))
    monkeypatch.setattr(store, "commit_unit", real)
    reply = await table("bob", "/duel roll")  # step 1 was stored: it is blue's turn now
    assert not reply.error and reply.text.startswith("#2"), reply.text


async def test_two_orders_at_the_same_moment_serialize(table: Table) -> None:
    await start(table)
    replies = await asyncio.gather(
        table("alice", "/duel roll"), table("bob", "/duel roll"), table("alice", "/duel roll")
    )
    # Red, then blue, then red again; the lock makes each see the one before.
    assert [r.error for r in replies] == [False, False, False]
    steps = await table.service.store.steps((await table.service.games.load(table.channel)).row.id)
    assert [s.seq for s in steps] == [0, 1, 2, 3]
    assert [s.parent_seq for s in steps] == [None, 0, 1, 2]


async def test_undo_allowed_without_dice_refused_after_dice_or_others(table: Table) -> None:
    await start(table)
    await table("alice", "/duel wait")
    undo = await table("alice", "/game undo")
    assert not undo.error and "took back #1" in undo.text
    game = await table.service.games.load(table.channel)
    assert game and game.state.turn == "red" and game.row.head_seq == 0
    await table("alice", "/duel roll")
    refused = await table("alice", "/game undo")
    assert refused.error and "rolled dice" in refused.text
    await table("bob", "/duel wait")
    other = await table("alice", "/game undo")
    assert other.error and "bob" in other.text


async def test_rollback_and_roll_forward_keep_every_step(table: Table) -> None:
    await start(table)
    for user in ("alice", "bob", "alice", "bob"):
        await table(user, "/duel wait")
    state_at_4 = await state_json(table)
    refused = await table("alice", "/mod rollback to:2 reason:oops")
    assert refused.error and "moderators" in refused.text.lower()
    back = await table("mod", "/mod rollback to:2 reason:misclick", moderator=True)
    assert not back.error and "@mod" in back.text and "misclick" in back.text
    game = await table.service.games.load(table.channel)
    assert game and game.row.head_seq == 2
    steps = await table.service.store.steps(game.row.id)
    assert len(steps) == 5 and [s.reverted_by is not None for s in steps] == [False] * 3 + [True] * 2
    log = await table("alice", "/game log")
    assert "~~#3" in log.text and "~~#4" in log.text
    forward = await table("mod", '/mod rollback to:4 reason:"was fine"', moderator=True)
    assert not forward.error
    assert await state_json(table) == state_at_4


async def test_rollback_to_another_branch_goes_back_and_along_it(table: Table) -> None:
    """Issue 42: a rollback to a step of another branch goes back to the step the two lines
    share and forward along the other, in one change (how /mod rules-adopt is undone)."""
    await start(table)
    await table("alice", "/duel wait")
    await table("bob", "/duel wait")
    at_2 = await state_json(table)
    await table("mod", "/mod rollback to:1 reason:x", moderator=True)
    await table("bob", "/duel stance mode:bold")  # a new branch on top of #1: step #3
    reply = await table("mod", "/mod rollback to:2 reason:y", moderator=True)
    assert not reply.error, reply.text
    assert "back to step #1 and forward along another line to step #2" in reply.text
    assert "Step #3 is kept, struck through" in reply.text and "Step #2 is active again" in reply.text
    assert await state_json(table) == at_2
    game = await table.service.games.load(table.channel)
    assert game is not None
    steps = await table.service.store.steps(game.row.id)
    assert [s.reverted_by is not None for s in steps] == [False, False, False, True]


async def test_rollback_walks_between_branches_and_refuses_unknown_steps(table: Table) -> None:
    await start(table)
    for user in ("alice", "bob", "alice"):
        await table(user, "/duel wait")  # steps 1-3
    state_at_3 = await state_json(table)
    missing = await table("mod", "/mod rollback to:99 reason:x", moderator=True)
    assert missing.error and "no step #99" in missing.text and "#0 to #3" in missing.text
    await table("mod", "/mod rollback to:1 reason:x", moderator=True)
    await table("bob", "/duel wait")  # step 4, a second branch on #1
    await table("alice", "/duel wait")  # step 5
    assert not (await table("mod", "/mod rollback to:4 reason:y", moderator=True)).error
    assert not (await table("mod", "/mod rollback to:5 reason:y", moderator=True)).error
    # Back to the fork, then forward along the first branch: its steps come back as they were.
    assert not (await table("mod", "/mod rollback to:1 reason:z", moderator=True)).error
    forward = await table("mod", "/mod rollback to:3 reason:z", moderator=True)
    assert not forward.error and "#2–#3 are active again" in forward.text
    assert await state_json(table) == state_at_3
    game = await table.service.games.load(table.channel)
    assert game is not None
    steps = await table.service.store.steps(game.row.id)
    assert [s.seq for s in steps if s.reverted_by is None] == [0, 1, 2, 3]


async def test_reroll_keeps_both_rolls_and_reapplies_later_orders(scripted: Service) -> None:
    table = Table(scripted)
    scripted.pipeline.dice_source.values = [2, 6]
    await start(table)
    await table("alice", "/duel roll")  # red rolls 2
    await table("bob", "/duel wait")
    reply = await table("mod", "/mod reroll reason:disputed", moderator=True)
    assert not reply.error, reply.text
    assert "~~🎲 2" in reply.text and "🎲 6" in reply.text and "disputed" in reply.text
    game = await scripted.games.load(table.channel)
    assert game and game.state.scores["red"] == 6 and game.state.turn == "red"
    steps = await scripted.store.steps(game.row.id)
    assert [(s.seq, s.kind, s.reverted_by is not None) for s in steps] == [
        (0, "setup", False), (1, "order", True), (2, "order", True),
        (3, "reroll", False), (4, "order", False),
    ]
    assert steps[4].actor_name == "bob"
    audit = await scripted.store.audit(game.row.id)
    assert audit[-1].action == "reroll" and audit[-1].reason == "disputed"


async def test_scripted_dice_running_out_change_nothing(scripted: Service) -> None:
    table = Table(scripted)
    await start(table)
    before = await state_json(table)
    reply = await table("alice", "/duel roll")
    assert reply.error and "ran out" in reply.text
    assert await state_json(table) == before


async def test_seat_and_kick_are_moderator_tools_and_announced(table: Table) -> None:
    await start(table)
    refused = await table("bob", "/mod seat side:red user:@bob")
    assert refused.error
    seat = await table("mod", "/mod seat side:red user:@sub", moderator=True)
    assert not seat.error and "@sub" in seat.text and "replacing @alice" in seat.text
    kick = await table("mod", '/mod kick user:@bob reason:"no show"', moderator=True)
    assert not kick.error and "no show" in kick.text
    game = await table.service.games.load(table.channel)
    assert game and [s.user_id for s in game.seats] == ["sub"]


async def test_end_reveals_seed_that_recomputes_every_roll(table: Table, tmp_path) -> None:
    import subprocess
    import sys

    await start(table)
    for user, order in (("alice", "roll"), ("bob", "roll"), ("alice", "wait"), ("bob", "wait")):
        assert not (await table(user, f"/duel {order}")).error  # nobody can reach 12 yet
    refused = await table("carol", "/game end")
    assert refused.error
    end = await table("mod", "/game end", moderator=True)
    assert not end.error and "seed" in end.text.lower()
    export = tmp_path / "final.json.gz"
    assert end.attachments[0].filename.endswith("-final.json.gz")
    export.write_bytes(end.attachments[0].data)
    document = json.loads(gzip.decompress(export.read_bytes()))
    assert document["seed"] and sum(len(s["dice"]) for s in document["steps"]) == 2
    done = subprocess.run([sys.executable, "tools/verify_dice.py", str(export)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    assert "all 2 rolls recompute" in done.stdout
    document["steps"][1]["dice"][0]["value"] = document["steps"][1]["dice"][0]["value"] % 6 + 1
    export = tmp_path / "tampered.json"  # the verifier reads plain JSON too
    export.write_text(json.dumps(document))
    tampered = subprocess.run([sys.executable, "tools/verify_dice.py", str(export)],
                              capture_output=True, text=True)
    assert tampered.returncode == 1
    assert await table.service.games.load(table.channel) is None


async def test_export_replays_identically(table: Table) -> None:
    from bot.replay import replay

    await start(table)
    await table("alice", "/duel roll")
    await table("bob", "/duel wait")
    await table("mod", "/mod rollback to:1 reason:test", moderator=True)
    await table("bob", "/duel roll")
    reply = await table("alice", "/game export")
    document = json.loads(gzip.decompress(reply.attachments[0].data))
    assert document["seed"] is None  # secret while the game runs
    report = replay(document)
    assert report.ok and report.steps == 4
    document["steps"][1]["state"]["scores"]["red"] += 1
    assert not replay(document).ok


async def test_garbage_gets_a_sentence_and_changes_nothing(table: Table) -> None:
    await start(table)
    before = await state_json(table)
    garbage = [
        ("alice", "/duel fly"),
        ("alice", "/duel roll label:" + "x" * 10_000),
        ("alice", "/duel roll colour:red"),
        ("alice", '/duel stance "mode:x; DROP TABLE steps; --"'),
        ("alice", "/duel stance"),
        ("alice", "/nothing here"),
        ("alice", "/game frobnicate"),
        ("alice", "/game log last:many"),
        ("alice", "/game log last:9999"),
        ("alice", "/game join side:ünïcødé🎲"),
        ("alice", "/mod rollback to:-3 reason:x"),
    ]
    for user, line in garbage:
        reply = await table(user, line)
        assert reply.error and reply.ephemeral, line
        assert "Traceback" not in reply.text and len(reply.text) < 400, line
    assert await state_json(table) == before


async def test_unexpected_exception_becomes_an_incident_id(table: Table, monkeypatch) -> None:
    await start(table)

    def boom(*args, **kwargs):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(type(table.service.systems["duel"]), "apply", boom)
    reply = await table("alice", "/duel roll")
    assert reply.error and reply.ephemeral and "incident" in reply.text
    assert "ZeroDivisionError" not in reply.text


async def test_status_help_and_autocomplete(table: Table) -> None:
    await start(table)
    status = await table("carol", "/game status")
    assert "red" in status.text and any("alice" in f.value for f in status.fields)
    helptext = await table("carol", "/game help")
    assert "roll" in helptext.text and "(D1)" in helptext.text
    one = await table("carol", "/game help order:stance")
    assert "bold" in one.text
    inv = table.invocation("alice", "/duel roll", label="be")
    choices = await table.service.autocomplete(inv, "label")
    assert [c.value for c in choices] == ["beta"]
    inv = table.invocation("alice", "/game join", side="")
    assert {c.value for c in await table.service.autocomplete(inv, "side")} == {"red", "blue"}
