"""Issue 14, items 1-11: each found by trying to break the bot as a hostile player or a
careless moderator would; each test here failed on the code before the fix."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.logcheck import check_log, query
from bot.logcheck import table_rows as every_table
from bot.config import Settings
from bot.service import Service
from tests.platform.conftest import Table
from tests.platform.duel import DUEL
from tests.platform.test_service import start


async def head(table: Table) -> int:
    game = await table.service.games.load(table.channel)
    assert game is not None
    return game.row.head_seq


# -- 1. a rerolled setup --------------------------------------------------------------------

async def test_1_a_rerolled_setup_is_a_new_root_the_old_tree_unreachable(
        table: Table, settings: Settings) -> None:
    """Raiders draws its mission in setup: reroll it, then roll back to the old recruit.
    The head must never sit on a reverted step nor go back to the old mission."""
    assert not (await table("ann", "/game new system:raiders")).error  # solitaire: ann sits
    assert not (await table("ann", "/raiders recruit unit:sas at:matruh")).error
    reroll = await table("mod", "/mod reroll reason:wrong-mission", moderator=True)
    assert not reroll.error, reroll.text
    game = await table.service.games.load(table.channel)
    assert game is not None
    steps = {s.seq: s for s in await table.service.store.steps(game.row.id)}
    assert steps[2].kind == "reroll" and steps[2].parent_seq is None  # a new root
    back = await table("mod", "/mod rollback to:1 reason:undo-it", moderator=True)
    assert back.error and "rerolled" in back.text, back.text
    assert check_log(settings.db, linear=False) == []
    after = await table("ann", "/game status")
    assert not after.error


# -- 2. an atomic reroll --------------------------------------------------------------------

async def test_2_a_reroll_failing_midway_changes_nothing(
        table: Table, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    await start(table)
    assert not (await table("alice", "/duel roll")).error
    assert not (await table("bob", "/duel wait")).error
    before = every_table(settings.db)
    real = DUEL.apply

    def broken(state, side, action, dice):  # type: ignore[no-untyped-def]
        if action.name == "wait":  # the re-applied later order
            raise RuntimeError("disk on fire")
        return real(state, side, action, dice)

    monkeypatch.setattr(DUEL, "apply", broken)
    reply = await table("mod", "/mod reroll reason:test", moderator=True)
    assert reply.error and "Nothing was changed" in reply.text
    assert every_table(settings.db) == before


# -- 3. undo needs the seat -----------------------------------------------------------------

@pytest.mark.parametrize("how", ["kicked", "replaced", "departed"])
async def test_3_a_player_who_lost_the_seat_cannot_undo(table: Table, settings: Settings, how: str) -> None:
    await start(table)
    assert not (await table("alice", "/duel wait")).error
    command = {"kicked": ("mod", "/mod kick user:alice reason:rude"),
               "replaced": ("mod", "/mod seat side:red user:carol"),
               "departed": ("alice", "/game leave")}[how]
    assert not (await table(command[0], command[1], moderator=command[0] == "mod")).error
    before = every_table(settings.db)
    undo = await table("alice", "/game undo")
    assert undo.error and "no longer hold red" in undo.text, undo.text
    assert every_table(settings.db) == before


# -- 4. kick is enforced --------------------------------------------------------------------

async def test_4_a_kicked_player_may_return_only_when_a_moderator_seats_them(table: Table) -> None:
    await start(table)
    kick = await table("mod", "/mod kick user:alice reason:rude", moderator=True)
    assert not kick.error and "/game join side:red to take over" not in kick.text
    back = await table("alice", "/game join side:red")
    assert back.error and "only a moderator can seat you" in back.text
    assert not (await table("mod", "/mod seat side:red user:alice", moderator=True)).error
    assert not (await table("alice", "/duel wait")).error  # seated again, playing


# -- 5. ending a game mid-way ----------------------------------------------------------------

async def test_5_taking_a_free_seat_does_not_let_a_player_end_the_game(table: Table) -> None:
    await start(table)
    assert not (await table("alice", "/duel wait")).error
    assert not (await table("bob", "/game leave")).error
    assert not (await table("alice", "/game join side:blue")).error  # alice created it
    end = await table("alice", "/game end")
    assert end.error and "Only a moderator" in end.text
    assert await table.service.games.load(table.channel) is not None


async def test_5_a_stranger_cannot_take_both_seats_and_end_a_fresh_game(table: Table) -> None:
    assert not (await table("host", "/game new system:duel")).error
    assert not (await table("eve", "/game join side:red")).error
    second = await table("eve", "/game join side:blue")
    assert second.error and "hot-seat" in second.text
    end = await table("eve", "/game end")
    assert end.error and "Only a moderator" in end.text


async def test_5_hot_seat_by_its_creator_may_still_end(table: Table) -> None:
    assert not (await table("solo", "/game new system:duel")).error
    assert not (await table("solo", "/game join side:red")).error
    assert not (await table("solo", "/game join side:blue")).error
    assert not (await table("solo", "/duel wait")).error
    assert not (await table("solo", "/game end")).error


# -- 6. standing orders ----------------------------------------------------------------------

async def test_6_standing_orders_are_limited_and_never_block_the_other_undo(
        table: Table, settings: Settings) -> None:
    await start(table)
    assert not (await table("alice", "/duel wait")).error  # red's dice-free move
    for mode in ("bold", "careful", "bold"):
        assert not (await table("alice", f"/duel stance mode:{mode}")).error
    before = every_table(settings.db)
    flood = await table("alice", "/duel stance mode:careful")
    assert flood.error and "standing orders in a row" in flood.text, flood.text
    assert every_table(settings.db) == before
    assert not (await table("bob", "/duel wait")).error  # the game moves on ...
    assert not (await table("alice", "/duel stance mode:careful")).error  # ... and so may she


async def test_6_an_opponents_standing_order_does_not_block_undo(table: Table) -> None:
    await start(table)
    assert not (await table("alice", "/duel wait")).error        # #1 red
    assert not (await table("bob", "/duel stance mode:bold")).error  # #2 blue, anytime
    undo = await table("alice", "/game undo")
    assert not undo.error, undo.text
    game = await table.service.games.load(table.channel)
    assert game is not None and game.state.turn == "red"
    assert game.state.stance == {"blue": "bold"}  # bob's standing order is kept


async def test_6_the_count_read_back_from_the_store_follows_the_head(table: Table) -> None:
    """A game read back into the cache (a restart, another process) counts the standing
    orders in a row at its head as the live game did: its ancestry walked by parent links,
    so a rollback's head does not count the steps it undid."""
    await start(table)
    assert not (await table("alice", "/duel wait")).error            # red's move
    assert not (await table("alice", "/duel stance mode:bold")).error
    first = await head(table)                                          # the first standing order
    assert not (await table("alice", "/duel stance mode:careful")).error
    live = await table.service.games.load(table.channel)
    assert live is not None and live.standing == {"red": 2}
    table.service.games.forget(table.channel)
    cold = await table.service.games.load(table.channel)
    assert cold is not None and cold.standing == {"red": 2}
    assert not (await table("alice", "/duel stance mode:bold")).error  # the third of three
    table.service.games.forget(table.channel)
    flood = await table("alice", "/duel stance mode:careful")
    assert flood.error and "standing orders in a row" in flood.text, flood.text

    # Back to the first standing order: its head's ancestry holds one, the two undone
    # after it are in the log but not on the line.
    back = await table("mod", f"/mod rollback to:{first} reason:test", moderator=True)
    assert not back.error, back.text
    table.service.games.forget(table.channel)
    again = await table.service.games.load(table.channel)
    assert again is not None and again.row.head_seq == first and again.standing == {"red": 1}
    # A new standing order on that line: numbered after the undone two, its parent the
    # first, so two in a row (not four), and one more is still allowed.
    assert not (await table("alice", "/duel stance mode:careful")).error
    table.service.games.forget(table.channel)
    line = await table.service.games.load(table.channel)
    assert line is not None and line.standing == {"red": 2}
    assert not (await table("alice", "/duel stance mode:bold")).error


# -- 7. see test_verify_dice.py -----------------------------------------------------------------

# -- 8. a huge step number ---------------------------------------------------------------------

async def test_8_a_huge_step_number_is_refused_in_a_sentence(table: Table) -> None:
    await start(table)
    reply = await table("mod", "/mod rollback to:99999999999999999999 reason:x", moderator=True)
    assert reply.error and "something went wrong" not in reply.text
    assert "at most" in reply.text


# -- 9. a blank reason -------------------------------------------------------------------------

@pytest.mark.parametrize("reason", ["   ", "\u200b", "\u200b \u2060", "\n"])
async def test_9_a_required_reason_cannot_be_blank(table: Table, settings: Settings, reason: str) -> None:
    await start(table)
    await table("alice", "/duel roll")
    before = every_table(settings.db)
    reply = await table("mod", "/mod reroll", moderator=True, reason=reason)
    assert reply.error and "needs reason" in reply.text, reply.text
    assert every_table(settings.db) == before


# -- 10. raw newlines ---------------------------------------------------------------------------

async def test_10_refusals_never_echo_newlines(table: Table) -> None:
    await start(table)
    for user, line, extra in [
        ("alice", "/game join", {"side": "red\n⛔ fake second message"}),
        ("alice", "/duel roll", {"label\nx": "1"}),
        ("alice", "/game help", {"order": "x\r\ny\u2028z"}),
    ]:
        reply = await table(user, line, **extra)
        assert reply.error
        assert not any(c in reply.text for c in "\n\r\u2028\u2029"), repr(reply.text)
    for path in (["ga\nme", "status"], ["game", "st\natus"], ["duel", "ro\r\nll"]):
        inv = table.invocation("alice", "/game status").model_copy(update={"command": path})
        reply = await table.service.handle(inv)
        assert reply.error and "\n" not in reply.text and "\r" not in reply.text, repr(reply.text)


# -- 11. bounded memory, shared renders, caps, pruning, rate limits --------------------------------

async def test_11_the_lock_pool_shrinks_back(table: Table) -> None:
    await start(table)
    others = [Table(table.service, f"chan-x{i}") for i in range(50)]
    await asyncio.gather(*(t("u", "/game status") for t in others))
    assert len(table.service._locks) == 0


async def test_11_concurrent_renders_of_one_state_share_one_render(table: Table) -> None:
    await start(table)
    drawn = table.service.pictures.stats.drawn  # the render workers' count (issue 41)
    replies = await asyncio.gather(*(table(f"u{i}", "/game map") for i in range(30)))
    keys = {r.snapshot_key for r in replies}
    assert len(keys) == 1
    shots = await asyncio.gather(*(table.service.snapshot(next(iter(keys))) for _ in range(30)))
    assert len({png for _, png in shots}) == 1
    assert table.service.pictures.stats.drawn - drawn == 1


async def test_11_open_games_per_user_are_capped(service: Service) -> None:
    cap = service.settings.max_open_games
    for i in range(cap):
        assert not (await Table(service, f"c{i}")("greedy", "/game new system:duel")).error
    more = await Table(service, "c-more")("greedy", "/game new system:duel")
    assert more.error and "still open" in more.text
    assert await service.games.load("c-more") is None


async def test_11_old_interactions_are_pruned(table: Table, settings: Settings) -> None:
    await start(table)
    total = query(settings.db, "SELECT COUNT(*) FROM interactions")[0][0]
    assert total >= 3
    later = datetime.now(timezone.utc) + timedelta(hours=settings.interaction_retention_hours + 1)
    await table.service.prune_interactions(later)
    assert query(settings.db, "SELECT COUNT(*) FROM interactions")[0][0] == 0


async def test_11_floods_get_slow_down_and_change_nothing(tmp_path: Path) -> None:
    settings = Settings(db=tmp_path / "r.sqlite3", rate_limits=True, user_orders_per_minute=4,
                        channel_orders_per_minute=100, user_renders_per_minute=2)
    service = await Service.open(settings)
    try:
        table = Table(service)
        await start(table)
        answers = [await table(who, "/duel stance mode:bold")
                   for who in ("bob", "bob", "bob", "alice", "bob", "bob")]
        assert [a.error for a in answers[:4]] == [False, False, False, False]
        assert answers[5].error and "Slow down" in answers[5].text
        maps = [await table("carol", "/game map") for _ in range(3)]
        assert [m.error for m in maps] == [False, False, True] and "Slow down" in maps[2].text
    finally:
        await service.close()


async def test_11_rate_limits_are_on_for_a_discord_bot_only(tmp_path: Path) -> None:
    assert Settings(db=tmp_path / "r", discord_token="x").limits_on
    assert not Settings(db=tmp_path / "r").limits_on
    assert not Settings(db=tmp_path / "r", discord_token="x", rate_limits=False).limits_on


# -- issue 11, item 7: spectators' read-only orders, one parse path ------------------------------

async def test_a_spectator_may_use_a_read_only_order(table: Table, settings: Settings) -> None:
    await start(table)
    before = every_table(settings.db)
    peek = await table("carol", "/duel peek")  # carol holds no seat
    assert not peek.error and "Scores" in peek.text
    assert every_table(settings.db) == before  # read-only: nothing stored
    roll = await table("carol", "/duel roll")
    assert roll.error and "not seated" in roll.text


async def test_orders_and_game_commands_share_one_parse_path(table: Table) -> None:
    await start(table)
    for line, extra in [("/duel roll", {"nope": "1"}), ("/game status", {"nope": "1"}),
                        ("/mod reroll", {"nope": "1"})]:
        reply = await table("alice", line, moderator=True, **extra)
        assert reply.error and "has no option 'nope'; it takes:" in reply.text, reply.text
    for line, extra in [("/duel stance", {"mode": "\u200b"}), ("/mod rollback", {"to": "1", "reason": " "})]:
        reply = await table("bob", line, moderator=True, **extra)
        assert reply.error and "needs " in reply.text, reply.text
