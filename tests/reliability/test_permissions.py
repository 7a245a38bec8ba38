"""Permissions: every cell of the table in :mod:`tests.reliability.permissions`, each tried
on its own fresh game, through the real service on a real SQLite file."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.autoplay import Channel, order_options
from bot.models import Invocation
from bot.service import Service
from rules.core.contract import Action
from rules.core.dice import DiceExhausted, ScriptedDice, SeededDice
from rules.core.errors import RuleError
from tests.reliability.conftest import SYSTEM
from tests.reliability.permissions import ALLOW, ROLES, TABLE, Rule, markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions.md"
_channels = itertools.count(1)


async def find_order(service: Service, channel: Channel, *, rolls: bool) -> Action | None:
    """A legal order of the waiting side that rolls dice (``rolls``) or rolls none and
    reveals nothing (tried on the rules alone; nothing is stored)."""
    game = await service.live_game(channel.channel)
    assert game is not None
    side = game.system.waiting_on(game.state)[0]
    for action in game.system.legal_actions(game.state, side):
        if action.read_only or action.anytime:
            continue
        dice = SeededDice(b"p" * 32) if rolls else ScriptedDice([])
        try:
            step = game.system.apply(game.state, side, action, dice)
        except (DiceExhausted, RuleError):
            continue
        if (rolls and dice.rolls) or (not rolls and not step.reveals):
            return action
    return None


async def play_until(service: Service, channel: Channel, *, rolls: bool, limit: int = 60) -> bool:
    """Play legal orders until the waiting side's order of the wanted kind is played."""
    for _ in range(limit):
        action = await find_order(service, channel, rolls=rolls)
        game = await service.live_game(channel.channel)
        assert game is not None
        side = game.system.waiting_on(game.state)[0]
        if action is not None:
            reply = await channel.send(channel.invocation(
                channel.user(side), [SYSTEM, action.name], order_options(action)))
            assert not reply.error, reply.text
            return True
        _, reply = await channel.order()
        assert not reply.error, reply.text
    return False


async def situation(service: Service, rule: Rule) -> tuple[Channel, str, str]:
    """A fresh channel in the rule's situation; ``(channel, waiting side, other side)``."""
    channel = Channel(service, SYSTEM, f"perm-{next(_channels)}")
    sides = service.systems[SYSTEM].sides
    if rule.command == "/game new":
        return channel, sides[0], sides[1]
    if rule.command == "/game join side:(free)":
        reply = await channel.send(channel.invocation(channel.moderator, ["game", "new"], {"system": SYSTEM}))
        assert not reply.error, reply.text
    else:
        await channel.open()
    if rule.command == "/game undo":
        if not await play_until(service, channel, rolls=False):
            pytest.skip(f"{SYSTEM} offered no dice-free order to undo")
    elif rule.command == "/mod reroll":
        if not await play_until(service, channel, rolls=True):
            pytest.skip(f"{SYSTEM} offered no order that rolls dice")
    elif rule.command == "/mod rollback to:0":
        _, reply = await channel.order()
        assert not reply.error, reply.text
    game = await service.live_game(channel.channel)
    assert game is not None
    waiting = game.system.waiting_on(game.state)[0]
    if rule.command == "/game undo":
        # The one who may undo is whoever gave the last order.
        head = await service.store.step(game.row.id, game.row.head_seq)
        assert head is not None and head.side is not None
        waiting = head.side
    other = next(s for s in game.system.sides if s != waiting)
    return channel, waiting, other


async def invocation(service: Service, rule: Rule, channel: Channel, role: str, waiting: str, other: str) -> Invocation:
    """The rule's command as sent by ``role``."""
    user = {"spectator": f"{channel.channel}-spectator", "waiting seat": channel.user(waiting),
            "other seat": channel.user(other), "moderator": channel.moderator}[role]
    moderator = role == "moderator"
    command, options = {
        "/game new": (["game", "new"], {"system": SYSTEM}),
        "/game join side:(free)": (["game", "join"], {"side": other if role == "other seat" else waiting}),
        "/game join side:(waiting)": (["game", "join"], {"side": waiting}),
        "/game leave": (["game", "leave"], {}),
        "/game status": (["game", "status"], {}),
        "/game map": (["game", "map"], {}),
        "/game log": (["game", "log"], {}),
        "/game export": (["game", "export"], {}),
        "/game help": (["game", "help"], {}),
        "/game end": (["game", "end"], {}),
        "/game undo": (["game", "undo"], {}),
        "/mod rollback to:0": (["mod", "rollback"], {"to": 0, "reason": "permission test"}),
        "/mod reroll": (["mod", "reroll"], {"reason": "permission test"}),
        "/mod seat side:(waiting) user:sub": (["mod", "seat"], {"side": waiting, "user": "sub"}),
        "/mod kick user:(waiting seat)": (["mod", "kick"], {"user": channel.user(waiting)}),
        "system order (the waiting side's)": (None, {}),
    }[rule.command]
    if command is None:
        game = await service.live_game(channel.channel)
        assert game is not None
        action = next(a for a in game.system.legal_actions(game.state, waiting)
                      if not a.read_only and not a.anytime)
        command, options = [SYSTEM, action.name], order_options(action)
    return channel.invocation(user, command, options, moderator=moderator)


CELLS = [(rule, role, cell) for rule in TABLE for role, cell in zip(ROLES, rule.cells)]


@pytest.mark.parametrize(("rule", "role", "expected"), CELLS,
                         ids=[f"{r.command}|{role}" for r, role, _ in CELLS])
async def test_permission(service: Service, rule: Rule, role: str, expected: str) -> None:
    """One cell: allowed -> no error; refused -> an ephemeral error naming why, nothing changed."""
    channel, waiting, other = await situation(service, rule)
    before = await service.store.active_game(channel.channel)
    inv = await invocation(service, rule, channel, role, waiting, other)
    reply = await service.handle(inv)
    if expected == ALLOW:
        assert not reply.error, f"{role} was refused {rule.command}: {reply.text}"
    else:
        assert reply.error and reply.ephemeral, f"{role} was allowed {rule.command}: {reply.text}"
        assert expected in reply.text, reply.text
        after = await service.store.active_game(channel.channel)
        assert (after.head_seq, after.state_json) == (before.head_seq, before.state_json)  # type: ignore[union-attr]


def test_the_documented_table_is_the_tested_one() -> None:
    """docs/permissions.md shows exactly the table asserted above."""
    assert markdown() in DOC.read_text("utf-8")
