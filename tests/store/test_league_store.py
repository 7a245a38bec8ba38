"""A league's rows on both stores (issue 44, migration 0013): a pairing's game opened in its
channel, a concession and a deadline loss counted in the transaction that ends each game,
the figures read back exactly as computed (PostgreSQL keeps them as DOUBLE PRECISION), and
their recomputation from the games' logs equal to them."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.autoplay import order_options
from bot.config import Settings
from bot.league import history, records
from bot.models import ThreadOpening
from bot.pacing.clock import ManualClock
from bot.service import Service
from rules.core.playout import choose
from tests.league.season import inv


async def test_a_concession_and_a_deadline_loss_are_counted_and_recomputed(store_url: Path | str) -> None:
    clock = ManualClock(datetime(2026, 12, 1, 12, tzinfo=timezone.utc))
    svc = await Service.open(Settings(db=str(store_url), html_at_end=False), clock=clock)
    try:
        made = await svc.handle(inv("mo", "lobby", ["league", "new"], {"name": "Winter", "systems": "rr"},
                                    moderator=True))
        assert not made.error, made.text
        for who in ("alice", "bob"):
            assert not (await svc.handle(inv(who, "lobby", ["league", "join"]))).error
        league = (await records.leagues(svc.store, "console"))[0]
        outcomes = []
        for round_no in (1, 2):
            sched = await svc.handle(inv("mo", "lobby", ["league", "schedule"], {"how": "round-robin"},
                                         moderator=True))
            assert not sched.error, sched.text
            [opening] = sched.threads
            channel = f"thread-{round_no}"
            opened = await svc.open_pairing(opening, channel, None)
            assert not opened.error and "round" in opened.text, opened.text
            again = await svc.open_pairing(opening, "elsewhere", None)  # opened once only
            assert again.error
            game = await svc.games.require(channel)
            first = game.system.waiting_on(game.state)[0]
            holder = game.holder(first)
            assert holder is not None
            if round_no == 1:
                ended = await svc.handle(inv(holder.user_id, channel, ["game", "concede"]))
            else:
                assert not (await svc.handle(inv("mo", channel, ["game", "pace"], {"hours": 24},
                                                 moderator=True))).error
                # The first side keeps its deadlines (orders given in time, the game moves on);
                # the other side is then waited on past its own.
                rng = random.Random(44)
                while game.system.waiting_on(game.state)[0] == first:
                    legal = [a for a in game.system.legal_actions(game.state, first) if not a.read_only]
                    action = choose(game.system, legal, rng)
                    given = await svc.handle(inv(holder.user_id, channel, ["rr", *action.path().split()],
                                                 order_options(action)))
                    assert not given.error, given.text
                    game = await svc.games.require(channel)
                late = game.system.waiting_on(game.state)[0]
                early = await svc.handle(inv("mo", channel, ["mod", "forfeit"], {"side": late, "reason": "silent"},
                                             moderator=True))
                assert early.error and "has not passed yet" in early.text
                clock.advance(timedelta(hours=25))
                ended = await svc.handle(inv("mo", channel, ["mod", "forfeit"], {"side": late, "reason": "silent"},
                                             moderator=True))
                keeper, silent = holder.user_id, (game.holder(late) or holder).user_id
            assert not ended.error, ended.text
            outcomes.append(ended.text)
        assert "counted as a concession" in outcomes[0] and "counted as a deadline loss" in outcomes[1]
        results = await records.results(svc.store, league.id)
        assert [r.outcome for r in results] == ["concession", "deadline"]
        members = {m.user_id: m for m in await records.members(svc.store, league.id)}
        assert sum(m.deadline_losses for m in members.values()) == 1
        # Reliability counts deadlines: the keeper met each of theirs, the silent player
        # missed the one they were forfeited on (issue 44).
        assert members[keeper].deadlines_met >= 1 and members[keeper].deadlines_missed == 0
        assert (members[silent].deadlines_met, members[silent].deadlines_missed) == (0, 1)
        assert members[silent].reliability_words() == (
            "met 0 of 1 deadline, abandoned 0 of 2 games, 1 lost on a deadline")
        table = await svc.handle(inv("alice", "lobby", ["league", "standings"]))
        assert f"{members[silent].user_name}: rating" in table.text and "met 0 of 1 deadline" in table.text
        # The system's pool and the overall one moved alike (one system), stored exactly.
        rows = {(r.pool, r.user_id): r for r in await records.ratings(svc.store, league.id)}
        for user in ("alice", "bob"):
            assert rows[("rr", user)].figure == rows[("*", user)].figure
            after = results[-1].ratings["rr"][user]["after"]
            assert rows[("rr", user)].figure == after
        recomputed = await history.recompute(svc.store, league)
        assert recomputed.problems == []
        assert recomputed.figures() == await history.stored(svc.store, league)
        document = await history.export(svc.store, league)
        assert document["format"] == "referee-league/1" and len(document["results"]) == 2
    finally:
        await svc.close()
