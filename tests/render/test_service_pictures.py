"""Issue 15 through the real service and a real SQLite file: an order's picture is the
phone-width focus view marking what changed since the pinged player's last order,
``/game map`` is the whole map, and ``/game status`` lists the changes in words."""

from __future__ import annotations

import io
import random
from pathlib import Path

from PIL import Image

from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from rules.rr import SYSTEM
from rules.rr.state import RRState

SEATS = {"nato": "alice", "soviet": "bob"}


async def test_order_pictures_are_focus_views_and_status_says_what_changed(tmp_path: Path) -> None:
    service = await Service.open(Settings(db=tmp_path / "rr.sqlite3", snapshot_dir=tmp_path / "s"))
    count = 0

    async def say(user: str, line: str):  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1
        parts = line.split()
        options = dict(p.split(":", 1) for p in parts[2:])
        reply = await service.handle(Invocation(
            channel_id="pic-chan", guild_id="g", user_id=user, user_name=user,
            is_moderator=False, command=[parts[0].lstrip("/"), parts[1]],
            options=options, interaction_id=f"pic-{count}",
        ))
        assert not reply.error, f"{line}: {reply.text}"
        return reply

    try:
        await say("alice", "/game new system:rr")
        await say("alice", "/game join side:nato")
        await say("bob", "/game join side:soviet")
        rng = random.Random(11)
        pictures: list[str] = []
        turn_pictures: list[str] = []
        for _ in range(400):
            game = await service.store.active_game("pic-chan")
            assert game is not None
            state = SYSTEM.load_state(game.state_json)
            assert isinstance(state, RRState)
            waiting = SYSTEM.waiting_on(state)
            if not waiting or state.turn >= 2 and len(pictures) >= 6:
                break
            legal = SYSTEM.legal_actions(state, waiting[0], read_only=False)
            # Standing orders are limited to a few in a row (issue 14): play the others.
            pick = [a for a in legal if a.name in ("move", "fire", "assault")] or \
                [a for a in legal if not a.anytime] or legal
            reply = await say(SEATS[waiting[0]], f"/rr {rng.choice(pick).summary()}")
            after = SYSTEM.load_state((await service.store.active_game("pic-chan")).state_json)
            if reply.snapshot_key and after.turn != state.turn:
                turn_pictures.append(reply.snapshot_key)
            elif reply.snapshot_key and state.phase == "ops":
                pictures.append(reply.snapshot_key)
        assert pictures and turn_pictures
        # The picture of the order that began a new turn is the whole map.
        _, png = await service.snapshot(turn_pictures[-1])
        assert Image.open(io.BytesIO(png)).width == 1280
        _, png = await service.snapshot(pictures[-1])
        focus = Image.open(io.BytesIO(png))
        assert focus.width <= 750  # read inline on a phone (tests/render/test_focus.py)
        map_reply = await say("alice", "/game map")
        assert map_reply.snapshot_key.endswith(":map")
        _, full = await service.snapshot(map_reply.snapshot_key)
        assert Image.open(io.BytesIO(full)).width == 1280
        # Both players have given orders by now: each sees what the other did since; the
        # side whose order is the head saw nothing since it.
        game = await service.store.active_game("pic-chan")
        step = await service.store.step(game.id, game.head_seq)
        assert step is not None
        seen = []
        for side, user in SEATS.items():
            changes = await service.pipeline.changes_since("rr", step, side)
            status = await say(user, "/game status")
            if step.kind == "order" and step.side == side:
                assert "Since your last order:" not in status.text
            elif changes:
                assert "Since your last order:" in status.text
                assert all(c.id in status.text for c in changes)
                # The same words, kind by kind, as the picture's letters (M, F, H, X ...).
                from rules.core.views import change_lines

                assert all(line in status.text for line in change_lines(changes))
                seen.append(side)
        assert seen, "someone's units changed since their last order"
    finally:
        await service.close()
