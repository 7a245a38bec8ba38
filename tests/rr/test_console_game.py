"""Two people play Tannenbruck from setup to the 12.0 verdict through the real service, on a
real SQLite file, typing only console lines built from the legal orders."""

from __future__ import annotations

import random
from pathlib import Path

from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from rules.core.contract import Action
from rules.core.playout import choose
from rules.rr import SYSTEM
from rules.rr.state import RRState

SEATS = {"nato": "alice", "soviet": "bob"}


async def test_a_whole_game_through_the_service(tmp_path: Path) -> None:
    """Setup, seven turns and the verdict, every order a typed line; nothing is refused."""
    service = await Service.open(Settings(db=tmp_path / "rr.sqlite3", snapshot_dir=tmp_path / "s"))
    count = 0

    async def say(user: str, line: str) -> str:
        """Send one typed line as ``user``; it must be accepted."""
        nonlocal count
        count += 1
        parts = line.split()
        options = dict(p.split(":", 1) for p in parts[2:])
        reply = await service.handle(Invocation(
            channel_id="rr-chan", guild_id="g", user_id=user, user_name=user,
            is_moderator=False, command=[parts[0].lstrip("/"), parts[1]] if len(parts) > 1 else [parts[0]],
            options=options, interaction_id=f"rr-{count}",
        ))
        assert not reply.error, f"{line}: {reply.text}"
        return reply.text

    try:
        await say("alice", "/game new system:rr")
        await say("alice", "/game join side:nato")
        await say("bob", "/game join side:soviet")
        rng = random.Random(5)
        last = ""
        previous: dict[str, Action] = {}
        for _ in range(3000):
            game = await service.store.active_game("rr-chan")
            assert game is not None
            state = SYSTEM.load_state(game.state_json)
            assert isinstance(state, RRState)
            waiting = SYSTEM.waiting_on(state)
            if not waiting:
                break
            offered = [a for a in SYSTEM.legal_actions(state, waiting[0]) if not a.read_only]
            order = choose(SYSTEM, offered, rng, previous.get(waiting[0]))
            previous[waiting[0]] = order
            last = await say(SEATS[waiting[0]], f"/rr {order.summary()}")
        assert state.result is not None and state.turn == 7
        assert "(12.0)" in last
    finally:
        await service.close()
