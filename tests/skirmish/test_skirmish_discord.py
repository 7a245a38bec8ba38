"""A whole platoon skirmish through discord.py's command tree and the real service (offline).

Gateway payload -> discord.py's tree -> our adapter -> Service on a SQLite file in tmp_path ->
the HTTP requests Discord would get.  Alice holds the Americans, Bob the Germans; each order is
a legal one for the side the game waits on, typed as a player would, until the game ends; the
turn snapshots come back as real PNGs.
"""

from __future__ import annotations

import itertools
import random

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.service import Service
from tests.discord.conftest import feed_gateway, recorder, settings, start_client  # noqa: F401 - fixtures
from tests.discord.dpy_harness import ALICE, BOB, CHANNEL_ID, interaction_payload, open_png

_ids = itertools.count(5000)
USERS = {"us": (ALICE, "Alice"), "germans": (BOB, "Bob")}


async def test_a_whole_skirmish_through_the_discord_tree(settings: Settings, recorder) -> None:
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0)
    rng = random.Random(3)

    async def send(user, group, sub, options=None):
        start = len(recorder.sent)
        await feed_gateway(client, interaction_payload(group, sub, options, user=user,
                                                       interaction_id=next(_ids)))
        return recorder.sent[start:]

    try:
        await send(USERS["us"], "game", "new",
                   {"system": "skirmish", "scenario": "open_field", "options": "turns=2"})
        await send(USERS["us"], "game", "join", {"side": "us"})
        await send(USERS["germans"], "game", "join", {"side": "germans"})
        pngs = refused = orders = 0
        for _ in range(600):
            game = await service.games.load(str(CHANNEL_ID))
            assert game is not None
            if game.system.result(game.state) is not None:
                break
            side = game.system.waiting_on(game.state)[0]
            legal = [a for a in game.system.legal_actions(game.state, side)
                     if not a.read_only and a.name != "defaults"]
            action = rng.choice(legal)
            sent = await send(USERS[side], "skirmish", action.name,
                              action.model_dump(mode="json", exclude_defaults=True))
            orders += 1
            refused += any(s.ephemeral for s in sent)
            for s in sent:
                for data in s.files.values():
                    open_png(data)
                    pngs += 1
        game = await service.games.load(str(CHANNEL_ID))
        assert game is not None and game.system.result(game.state) is not None
        assert refused == 0 and orders > 10 and pngs >= 2
    finally:
        await client.close()
