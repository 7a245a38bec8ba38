"""Permissions: every cell of the table in :mod:`tests.reliability.permissions`, each tried
on its own fresh game, through the real service on a real SQLite file.

A refused cell must change nothing at all (every table compared, not just the game's head);
an allowed cell must have its effect (the seat taken, the audit entry with its reason, the
step stored, the game ended …), not merely come back without an error.
"""

from __future__ import annotations

import gzip
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.answers import Token
from bot.autoplay import Channel, order_options
from bot.logcheck import check_log, table_rows
from bot.models import Invocation, Reply, Upload
from bot.service import Service
from rules.core.answers import OrderBuilder
from rules.core.contract import Action
from rules.core.dice import DiceExhausted, ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.core.registry import get
from tests.reliability.conftest import SYSTEM
from tests.reliability.permissions import ALLOW, ROLES, TABLE, Rule, markdown


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite only: who may do what is decided above the store, and the store's half (a
    refusal changes nothing) runs on both engines in tests/platform."""
    return tmp_path / "referee.sqlite3"


DOC = Path(__file__).resolve().parents[2] / "docs" / "permissions.md"
_channels = itertools.count(1)
SUB = "sub"
REASON = "permission test"


async def find_order(service: Service, channel: Channel, *, rolls: bool) -> Action | None:
    """A legal order of the waiting side that rolls dice (``rolls``) or rolls none and
    reveals nothing (tried on the rules alone; nothing is stored)."""
    game = await service.games.load(channel.channel)
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
        game = await service.games.load(channel.channel)
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


@dataclass
class Situation:
    """A fresh channel in a rule's situation, the role's prelude played."""

    channel: Channel
    waiting: str
    other: str
    #: Who holds the waiting seat after the prelude.
    waiting_holder: str


async def send_ok(channel: Channel, user: str, command: list[str], options: dict | None = None,
                  *, moderator: bool = False) -> None:
    """A command of the set-up, which must be accepted."""
    reply = await channel.send(channel.invocation(user, command, options or {}, moderator=moderator))
    assert not reply.error, (command, reply.text)


async def situation(service: Service, rule: Rule, role: str) -> Situation:
    """A fresh channel in the rule's situation, then the role's prelude."""
    channel = Channel(service, SYSTEM, f"perm-{next(_channels)}")
    sides = service.systems[SYSTEM].sides
    if rule.command == "/game new":
        return Situation(channel, sides[0], sides[1], "")
    if rule.command == "/game join side:(free)":
        await send_ok(channel, channel.moderator, ["game", "new"], {"system": SYSTEM})
        return Situation(channel, sides[0], sides[1], "")
    await channel.open()
    if rule.command.startswith("/game undo"):
        rolls = "after a roll" in rule.command
        if not await play_until(service, channel, rolls=rolls):
            pytest.skip(f"{SYSTEM} offered no order {'with' if rolls else 'without'} dice to undo")
    elif rule.command == "/mod reroll":
        if not await play_until(service, channel, rolls=True):
            pytest.skip(f"{SYSTEM} offered no order that rolls dice")
    elif rule.command == "/mod rollback to:0":
        _, reply = await channel.order()
        assert not reply.error, reply.text
    elif rule.command.startswith("/mod extend"):
        await send_ok(channel, channel.moderator, ["game", "pace"], {"hours": 24}, moderator=True)
    elif rule.command.startswith("/mod scenario remove"):
        await send_ok(channel, channel.moderator, ["mod", "scenario"],
                      {"add": club_file(), "name": "ours"}, moderator=True)
    game = await service.games.load(channel.channel)
    assert game is not None
    waiting = game.system.waiting_on(game.state)[0]
    if rule.command.startswith("/game undo"):
        # The one who may undo is whoever gave the last order.
        head = await service.store.step(game.row.id, game.row.head_seq)
        assert head is not None and head.side is not None
        waiting = head.side
    other = next(s for s in game.system.sides if s != waiting)
    holder = channel.user(waiting)
    mod = channel.moderator
    if role == "kicked player":
        await send_ok(channel, mod, ["mod", "kick"], {"user": holder, "reason": "prelude"}, moderator=True)
        await send_ok(channel, mod, ["mod", "seat"], {"side": waiting, "user": SUB}, moderator=True)
        holder = SUB
    elif role == "replaced player":
        await send_ok(channel, mod, ["mod", "seat"], {"side": waiting, "user": SUB}, moderator=True)
        holder = SUB
    elif role in ("departed player", "took the seat over"):
        await send_ok(channel, holder, ["game", "leave"])
        await send_ok(channel, SUB, ["game", "join"], {"side": waiting})
        holder = SUB
    elif role == "seated moderator":
        await send_ok(channel, mod, ["mod", "seat"], {"side": other, "user": mod}, moderator=True)
    return Situation(channel, waiting, other, holder)


def club_file() -> Upload:
    """A club's scenario file of the system under test: its first built-in, renamed."""
    system = get(SYSTEM)
    value = json.loads(system.scenario_format.builtin(system.scenarios[0]))  # type: ignore[union-attr]
    value.update(key="ours", title="Our own scenario")
    raw = json.dumps({"system": SYSTEM, **value}).encode()  # a file names its game (issue 46)
    return Upload(name="ours.json", size=len(raw), data=raw)


def role_user(channel: Channel, role: str, waiting: str, other: str) -> tuple[str, bool]:
    """``(user id, is moderator)`` of a role."""
    return {
        "spectator": (f"{channel.channel}-spectator", False),
        "waiting seat": (channel.user(waiting), False),
        "other seat": (channel.user(other), False),
        "moderator": (channel.moderator, True),
        "kicked player": (channel.user(waiting), False),
        "replaced player": (channel.user(waiting), False),
        "departed player": (channel.user(waiting), False),
        "took the seat over": (SUB, False),
        "seated moderator": (channel.moderator, True),
    }[role]


async def invocation(service: Service, rule: Rule, where: Situation, role: str) -> Invocation:
    """The rule's command as sent by ``role``."""
    channel, waiting, other = where.channel, where.waiting, where.other
    user, moderator = role_user(channel, role, waiting, other)
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
        "/game undo (after a roll)": (["game", "undo"], {}),
        "/mod rollback to:0": (["mod", "rollback"], {"to": 0, "reason": REASON}),
        "/mod reroll": (["mod", "reroll"], {"reason": REASON}),
        "/mod seat side:(waiting) user:sub": (["mod", "seat"], {"side": waiting, "user": "sub2"}),
        "/mod kick user:(waiting seat)": (["mod", "kick"], {"user": where.waiting_holder, "reason": REASON}),
        "/game pace hours:24": (["game", "pace"], {"hours": 24}),
        "/game away until:3d": (["game", "away"], {"until": "3d"}),
        "/game sub user:sub3": (["game", "sub"], {"user": "sub3"}),
        "/game digest since:0": (["game", "digest"], {"since": "0"}),
        "/mod extend hours:12": (["mod", "extend"], {"hours": 12, "reason": REASON}),
        "/game scenarios": (["game", "scenarios"], {}),
        "/mod scenario add:(file)": (["mod", "scenario"], {"add": club_file(), "name": "ours"}),
        "/mod scenario remove:(name)": (["mod", "scenario"], {"remove": "ours"}),
        "/mod look side:(waiting)": (["mod", "look"], {"side": waiting}),
        "/game concede": (["game", "concede"], {}),
        "/mod forfeit side:(waiting)": (["mod", "forfeit"], {"side": waiting, "reason": REASON}),
        "system order (the waiting side's)": (None, {}),
        "/game act": (["game", "act"], {}),
        "press (the waiting side's answer)": (["press"], {}),
    }[rule.command]
    if command is None:
        game = await service.games.load(channel.channel)
        assert game is not None
        action = next(a for a in game.system.legal_actions(game.state, waiting)
                      if not a.read_only and not a.anytime)
        command, options = [SYSTEM, action.name], order_options(action)
    return channel.invocation(user, command, options, moderator=moderator)


async def sending_press(service: Service, where: Situation) -> str:
    """The custom id of a "Send" button for a legal order of the waiting side, as the menus
    of /game act build it (the first entry of every menu)."""
    game = await service.games.load(where.channel.channel)
    assert game is not None
    builder = OrderBuilder(game.system, game.state, where.waiting)
    while builder.menu() is not None:
        builder = OrderBuilder(game.system, game.state, where.waiting, builder.path + [0])
    return Token("c", game.row.id, game.row.head_seq, where.waiting, tuple(builder.path)).encode()


def changed(before: dict[str, list[str]], after: dict[str, list[str]]) -> dict[str, list[str]]:
    """Rows added to each table (``after`` minus ``before``)."""
    return {name: [r for r in after[name] if r not in set(before.get(name, []))] for name in after}


async def assert_effect(service: Service, db: Path, rule: Rule, inv: Invocation, reply: Reply,
                        before: dict[str, list[str]], where: Situation) -> None:
    """An allowed command did what it says (issue 14: allowed cells used to check only that
    no error came back)."""
    added = changed(before, table_rows(db))
    game = await service.games.load(inv.channel_id)
    audit = await service.store.audit(game.row.id) if game else []
    command = rule.command
    if command == "/game act":
        assert table_rows(db) == before, "/game act changed the database"
        assert reply.ephemeral and reply.menu is not None and reply.menu.options
        return
    if command in ("/game status", "/game map", "/game log", "/game export", "/game help",
                   "/game digest since:0", "/game scenarios"):
        assert table_rows(db) == before, f"{command} changed the database"
        expected = {"/game status": "seed hash", "/game log": "#0", "/game help": "orders",
                    "/game digest since:0": "📰 Since #0", "/game scenarios": "built-in"}
        if command in expected:
            assert expected[command] in (reply.text + str(reply.fields)), reply.text
        if command == "/game map":
            assert reply.snapshot_key
        if command == "/game export":
            # The export is gzipped JSON (issue 13).
            assert json.loads(gzip.decompress(reply.attachments[0].data))["steps"]
        return
    if command == "/game new":
        assert game is not None and game.row.created_by == inv.user_id
    elif command.startswith("/game join"):
        assert game is not None and inv.options["side"] in game.sides_of(inv.user_id)
    elif command == "/game leave":
        assert game is not None and game.sides_of(inv.user_id) == []
    elif command in ("/game end", "/game concede"):
        assert game is None
        ended = await service.store.game(int(before_game_id(before)))
        assert ended.status == "ended"
        if command == "/game concede":
            end = (await service.store.audit(ended.id))[-1]
            assert (end.action, end.data["ending"], end.actor_id) == ("end", "concede", inv.user_id)
            assert "concede" in reply.text
        assert any("'end'" in row for row in added["audit"]), added
    elif command.startswith("/game undo"):
        assert game is not None and audit[-1].action == "undo"
        assert added["step_reverts"], "undo marked nothing reverted"
    elif command == "/mod rollback to:0":
        assert game is not None and game.row.head_seq == 0
        assert (audit[-1].action, audit[-1].reason) == ("rollback", REASON)
        assert added["step_reverts"]
    elif command == "/mod reroll":
        assert game is not None and (audit[-1].action, audit[-1].reason) == ("reroll", REASON)
        head = await service.store.step(game.row.id, game.row.head_seq)
        steps = await service.store.steps(game.row.id)
        assert any(s.kind == "reroll" and s.reverted_by is None for s in steps) and head is not None
    elif command.startswith("/mod seat"):
        assert game is not None and game.holder(where.waiting).user_id == "sub2"  # type: ignore[union-attr]
        assert audit[-1].action == "seat"
    elif command.startswith("/mod kick"):
        assert game is not None and game.sides_of(where.waiting_holder) == []
        assert (audit[-1].action, audit[-1].reason) == ("kick", REASON)
        assert game.kicked(where.waiting_holder)
    elif command.startswith("/game pace"):
        if inv.is_moderator:
            assert added["game_pace"] and audit[-1].action == "pace"
        else:  # a vote until every seat agrees
            assert added["pace_proposals"] and "agree" in reply.text
    elif command.startswith("/game away"):
        assert added["away"] and "away until" in reply.text
    elif command.startswith("/game sub"):
        assert added["sub_offers"] and reply.mentions == ["sub3"]
    elif command.startswith("/mod extend"):
        assert (audit[-1].action, audit[-1].reason) == ("extend", REASON)
        assert added["game_pace"]
    elif command.startswith("/mod scenario add"):
        assert added["scenario_library"] and "`ours`" in reply.text
    elif command.startswith("/mod scenario remove"):
        assert added["scenario_library"] and "removed" in reply.text  # the row, marked removed
    elif command.startswith("/mod look"):
        assert game is not None and audit[-1].action == "look"
        assert reply.ephemeral and reply.snapshot_key == f"{game.row.id}:{game.row.head_seq}:map:{where.waiting}"
    elif command.startswith("system order") or command.startswith("press"):
        assert reply.text.startswith("#"), reply.text
        assert game is not None
        head = await service.store.step(game.row.id, game.row.head_seq)
        assert head is not None and head.actor_id == inv.user_id and head.interaction_id == inv.interaction_id
    else:  # pragma: no cover - a new row must say what it does
        raise AssertionError(f"no effect check for {command}")
    if inv.interaction_id and command != "/game new":
        assert await service.store.answered(inv.interaction_id) is not None, "the reply was not kept"


def before_game_id(before: dict[str, list[str]]) -> int:
    """The id of the (only active) game in a snapshot of the tables."""
    active = [row for row in before["games"] if "'active'" in row]
    return int(active[0].split(",")[0].lstrip("("))


CELLS = [(rule, role, cell) for rule in TABLE for role, cell in zip(ROLES, rule.cells)]


@pytest.mark.parametrize(("rule", "role", "expected"), CELLS,
                         ids=[f"{r.command}|{role}" for r, role, _ in CELLS])
async def test_permission(service: Service, db_path: Path, rule: Rule, role: str, expected: str) -> None:
    """One cell: allowed -> its effect; refused -> an ephemeral sentence naming why, and
    not one row of any table changed."""
    where = await situation(service, rule, role)
    inv = await invocation(service, rule, where, role)
    before = table_rows(db_path)
    if rule.command.startswith("press"):
        reply = await service.press(inv, await sending_press(service, where))
    else:
        reply = await service.handle(inv)
    if expected == ALLOW:
        assert not reply.error, f"{role} was refused {rule.command}: {reply.text}"
        await assert_effect(service, db_path, rule, inv, reply, before, where)
    else:
        assert reply.error and reply.ephemeral, f"{role} was allowed {rule.command}: {reply.text}"
        assert expected in reply.text, reply.text
        assert table_rows(db_path) == before, f"a refused {rule.command} changed the database"
    assert check_log(db_path, linear=False) == []


def test_the_documented_table_is_the_tested_one() -> None:
    """docs/permissions.md shows exactly the table asserted above."""
    assert markdown() in DOC.read_text("utf-8")
