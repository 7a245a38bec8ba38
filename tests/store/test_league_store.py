"""A league's rows on both stores (issue 44, migration 0013): a pairing's game opened in its
channel, a concession and a deadline loss counted in the transaction that ends each game,
the figures read back exactly as computed (PostgreSQL keeps them as DOUBLE PRECISION), and
their recomputation from the games' logs equal to them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from bot.config import Settings
from bot.league import history, records
from bot.models import ThreadOpening
from bot.pacing.clock import ManualClock
from bot.service import Service
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
                early = await svc.handle(inv("mo", channel, ["mod", "forfeit"], {"side": first, "reason": "silent"},
                                             moderator=True))
                assert early.error and "has not passed yet" in early.text
                clock.advance(timedelta(hours=25))
                ended = await svc.handle(inv("mo", channel, ["mod", "forfeit"], {"side": first, "reason": "silent"},
                                             moderator=True))
            assert not ended.error, ended.text
            outcomes.append(ended.text)
        assert "counted as a concession" in outcomes[0] and "counted as a deadline loss" in outcomes[1]
        results = await records.results(svc.store, league.id)
        assert [r.outcome for r in results] == ["concession", "deadline"]
        members = {m.user_id: m for m in await records.members(svc.store, league.id)}
        assert sum(m.deadline_losses for m in members.values()) == 1
        assert sorted(m.reliability_words() for m in members.values()) == ["100%", "50% (1 deadline lost)"]
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
