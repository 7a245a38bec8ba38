"""A whole single mission played in a channel through the real service and SQLite store.

The orders are chosen from ``legal_actions`` by the purposeful test player and sent as
slash-command invocations, as Discord or the console would send them.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from rules.raiders import SYSTEM
from rules.raiders.state import RaidersState
from tests.raiders.purposeful import smart

_ids = itertools.count(1)


def invocation(line: str, **options: object) -> Invocation:
    """An invocation from user 'ann' in one channel."""
    path = line.strip("/").split()
    return Invocation(
        channel_id="raid-1", guild_id="g", user_id="ann", user_name="ann", is_moderator=False,
        command=path, options=dict(options), interaction_id=f"r{next(_ids)}",
    )


async def test_a_mission_in_a_channel(tmp_path: Path) -> None:
    """New game, seat, orders until the mission ends; every order accepted; campaign shown."""
    service = await Service.open(Settings(db=tmp_path / "r.sqlite3", snapshot_dir=tmp_path / "snaps"))
    try:
        reply = await service.handle(invocation("/game new", system="raiders", options="single,mission=M3"))
        assert not reply.error and "Prison break" in reply.text
        # A solitaire game seats the player who starts it (issue 12 point 14).
        assert "@ann takes raiders (solitaire)" in reply.text
        joined = await service.handle(invocation("/game join", side="raiders"))
        assert joined.error and "already hold raiders" in joined.text
        rng = random.Random(3)
        for _ in range(400):
            game = await service.games.load("raid-1")
            assert game is not None
            state = game.state
            assert isinstance(state, RaidersState)
            if SYSTEM.result(state) is not None:
                break
            action = smart(state, [a for a in SYSTEM.legal_actions(state, "raiders") if not a.read_only], rng)
            options = action.model_dump(mode="json", exclude_defaults=True)
            reply = await service.handle(invocation(f"/raiders {action.name}", **options))
            assert not reply.error, (action, reply.text)
        else:
            raise AssertionError("the mission did not end")
        game = await service.games.load("raid-1")
        assert game is not None and SYSTEM.result(game.state) is not None
        assert len(game.state.campaign.record) == 1
        report = await service.handle(invocation("/raiders campaign"))
        # 6.0: a single mission has no campaign record (25.0), only its own result.
        assert not report.error and "no campaign" in report.text and "M3 " in report.text
    finally:
        await service.close()
