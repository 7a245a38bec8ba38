"""The non-interference harness's cases and its machinery (issue 28).

A :class:`SecretCase` is two games of one system that differ only in a sealed choice: the
same scenario and options, the same orders but for the secret ones (``orders_a`` and
``orders_b``), up to ``reveal_at``, the index of the first order whose step the rules let
reveal it.  :func:`public_record` plays one of them through the real service on a real
SQLite file and gathers everything the side that does not hold the secret, and anyone
watching, can see after each order: every public reply and announcement with its picture's
bytes, what the bot posts on its own (the turn digest and its map, ticked as the bot's loop would), that side's own private replies, ``/game status``, ``/game log``, ``/game map`` (the
public picture, and that side's own view), the autocomplete it is offered for each of its
orders, the answer ``/game undo`` gives to whoever gave the order (asked of a copy of the
database, so the game itself goes on untouched: an undo allowed in one game and refused in
the other says whether the move could have met a secret, issue 45), and the export, every
field of every step.  The two records must be equal, byte for byte, once what may
differ by design is masked: commitments (a seal's root and leaves: hashes of the secret
under a key nobody holds), the slot a revealed item sat in among its seal's padded,
shuffled slots (as random as a leaf: ``rules/core/secrets.py``), and the hash chain's heads
and times.

The same cases show that the computer player does not peek (issue 43): :func:`decisions`
gives what it decides for the side without the secret, from that side's observation, at every
point up to the reveal; the two games must give the same decisions (and the same observations).

A system with secrets supplies its cases as ``CASES: list[SecretCase]`` in
``tests/<system>/secret_cases.py``; ``tests/conformance/test_secrets.py`` runs them all.
"""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bot.config import Settings
from bot.console import parse_line
from bot.models import Invocation, Reply
from bot.service import ScriptedDiceSource, Service
from rules.core import registry
from rules.core.computer import Budget, think
from rules.core.dice import Dice, ScriptedDice, SeededDice

#: Hex runs that are commitments or chain heads (8 digits and more, a shortened one with "…").
HEX = re.compile(r"[0-9a-f]{8,64}…?")
#: Record fields that differ between two runs by design: times, hashes, commitments.
MASKED_FIELDS = frozenset({"created_at", "hash", "prev_hash", "chain_head", "leaves", "root"})
#: The seed both games of a case are played with (their dice and keys alike).
SEED = bytes(range(32))


class SecretCase(BaseModel):
    """Two games differing only in a sealed choice, up to the order that reveals it.

    ``orders_a``/``orders_b``: ``(side, "/mak … options")`` in the order given; a sealed
    order is given privately by the harness.  ``reveal_at``: the index of the first order
    that reveals (everything before it is compared); ``digest``: a turn ends before it.  ``system``: found from the orders'
    command when left empty.  ``dice``: scripted dice for both games (empty: both games
    roll the same seeded dice)."""

    scenario: str
    options: str | None = None
    orders_a: list[tuple[str, str]]
    orders_b: list[tuple[str, str]]
    reveal_at: int
    system: str = ""
    dice: list[int] = Field(default_factory=list)
    name: str = ""
    #: The case plays past a game turn's end before it reveals: its record must hold the
    #: turn digest the bot posts (so the digest is compared, not skipped).
    digest: bool = False

    def system_key(self) -> str:
        """The system the case plays."""
        return self.system or parse_line(self.orders_a[0][1])[1][0]

    def secret_side(self) -> str:
        """The side whose order differs first: the one holding the secret."""
        for (side, a), (_, b) in zip(self.orders_a, self.orders_b):
            if a != b:
                return side
        raise ValueError(f"case {self.name or self.scenario}: the two games give the same orders")


def mask(value: Any) -> Any:
    """``value`` with what differs by design replaced (see :data:`MASKED_FIELDS`, :data:`HEX`);
    a reveal's slot (``index`` of a record that opens a ``leaf``) too: it is the place the
    keyed shuffle gave the item among its seal's slots, uniform whatever the count."""
    if isinstance(value, dict):
        masked = MASKED_FIELDS | ({"index"} if {"leaf", "nonce"} <= value.keys() else set())
        return {k: "<masked>" if k in masked else mask(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask(v) for v in value]
    if isinstance(value, str):
        return HEX.sub("<hex>", value)
    return value


class Player:
    """A seat's user in one of the two games: sends lines as the console would."""

    def __init__(self, service: Service, channel: str) -> None:
        self.service = service
        self.channel = channel
        self.count = 0

    def invocation(self, user: str, line: str, *, private: bool = False,
                   moderator: bool = False) -> Invocation:
        """One command of ``user``."""
        _, path, options = parse_line(line)
        self.count += 1
        return Invocation(channel_id=self.channel, guild_id="g", user_id=user, user_name=user,
                          is_moderator=moderator, command=path, options=options, private=private,
                          interaction_id=f"{self.channel}-{self.count}")

    async def send(self, user: str, line: str, **kw: Any) -> Reply:
        """Run one line; the reply."""
        return await self.service.handle(self.invocation(user, line, **kw))


async def seen(service: Service, reply: Reply) -> list[Any]:
    """A reply as its reader sees it: the text, the mentions, the picture's bytes."""
    if reply.snapshot_key and not reply.error:
        reply = await service.attach_snapshot(reply)
    return [reply.text, reply.ephemeral, reply.error, sorted(reply.mentions),
            [(a.filename, a.data) for a in reply.attachments]]


async def public_record(settings: Settings, case: SecretCase, orders: list[tuple[str, str]]) -> list[Any]:
    """Play ``orders[:reveal_at]`` of ``case`` and return everything the side without the
    secret and a spectator can see, after the set-up and after each order."""
    system = registry.get(case.system_key())
    dice = ScriptedDiceSource(case.dice) if case.dice else None
    service = await Service.open(settings, dice_source=dice)
    try:
        player = Player(service, "table")
        other = next(s for s in system.sides if s != case.secret_side())
        options = f" options:{case.options}" if case.options else ""
        record: list[Any] = [await seen(service, await player.send(
            "mo", f"/game new system:{system.key} scenario:{case.scenario}{options}", moderator=True))]
        for side in system.sides:
            record.append(await seen(service, await player.send(side, f"/game join side:{side}")))
        for index, (side, line) in enumerate(orders[:case.reveal_at]):
            path = parse_line(line)[1]
            sealed = system.action_type(" ".join(path[1:])).sealed
            reply = await player.send(side, line, private=sealed)
            assert not reply.error, f"order {index} ({line}) was refused: {reply.text}"
            if not reply.ephemeral or side == other:
                record.append([index, "reply", await seen(service, reply)])
            for owed_id, posted in await service.owed("table"):
                record.append([index, "posted", await seen(service, posted)])
                await service.settle(owed_id)
            record += [[index, "paced", post] for post in await paced(service)]
            record.append([index, "looks", await looks(service, player, system, other)])
            record.append([index, "undo", await undo_answer(settings, side, side == other, index)])
        exported = await player.send("watcher", "/game export")
        document = json.loads(gzip.decompress(exported.attachments[0].data))
        record.append(["export", document])
        return mask(record)
    finally:
        await service.close()


async def paced(service: Service) -> list[Any]:
    """What the bot posts on its own now (a turn's digest with its map, issue 19), as the
    channel sees it: the pacer is ticked as the running bot's loop would."""
    posts: list[Any] = []

    async def send(channel_id: str, reply: Reply) -> None:
        posts.append([channel_id, await seen(service, reply)])

    await service.pacer.tick(send)
    return posts


async def looks(service: Service, player: Player, system: Any, other: str) -> list[Any]:
    """What the side without the secret and a spectator can ask for now."""
    out = []
    for user in (other, "watcher"):
        for line in ("/game status", "/game log", "/game map"):
            out.append([user, line, await seen(service, await player.send(user, line))])
    game = await service.games.load("table")
    assert game is not None
    for action in system.actions:
        if action.sealed:
            continue
        for field in (o.name for o in action.options() if o.kind == "id"):
            inv = player.invocation(other, f"/{system.key} {action.path()}")
            found = await service.autocomplete(inv, field)
            out.append([action.path(), field, [(c.value, c.label, c.info) for c in found]])
    return out


async def undo_answer(settings: Settings, side: str, public: bool, index: int) -> list[Any]:
    """What ``/game undo`` by the player of ``side`` (who gave the last order) answers now,
    asked of a copy of the game's database so the game goes on as if nobody asked.  Whether
    it is allowed is public (the step goes, in the channel); the words of a refusal only its
    asker reads, so for the side with the secret only the refusal itself is compared."""
    copy = settings.db.with_name(f"{settings.db.stem}-undo{index}.sqlite3")
    source, target = sqlite3.connect(settings.db), sqlite3.connect(copy)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    probe = await Service.open(settings.model_copy(update={
        "db": copy, "snapshot_dir": settings.snapshot_dir.with_name(f"{copy.stem}-snaps")}))
    try:
        player = Player(probe, "table")
        invocation = player.invocation(side, "/game undo").model_copy(update={"interaction_id": f"undo-{index}"})
        reply = await probe.handle(invocation)
        if reply.error and not public:
            return ["refused"]
        return await seen(probe, reply)
    finally:
        await probe.close()
        copy.unlink()


def first_difference(a: list[Any], b: list[Any]) -> str | None:
    """Where two public records part, in words; None when they are equal."""
    for index, (left, right) in enumerate(zip(a, b)):
        if left != right:
            return f"entry {index}: {json.dumps(left, default=repr)[:600]}\n  vs {json.dumps(right, default=repr)[:600]}"
    if len(a) != len(b):
        return f"one record is longer ({len(a)} vs {len(b)} entries)"
    return None


#: The computer's budget in the harness (issue 43): enough to choose, small for the suite.
BLIND_BUDGET = Budget(iterations=8, cpu_seconds=60, rollout=4)


def decisions(case: SecretCase, orders: list[tuple[str, str]], system_key: str | None = None, *,
              observations: bool = True) -> list[Any]:
    """What the computer playing the side without the secret decides (issue 43), at every
    point of ``orders[:reveal_at]`` where that side is waited on, and at the reveal itself
    (decided before the revealing order is given): ``[index, side, order, options]``, each
    beside the observation it was given (unless ``observations`` is False).  Played on the
    rules directly, with the case's dice (the same in both games); ``system_key``: play
    another system the case fits."""
    system = registry.get(system_key or case.system_key())
    other = next(s for s in system.sides if s != case.secret_side())
    dice: Dice = ScriptedDice(case.dice) if case.dice else SeededDice(SEED)
    state = system.setup(case.scenario, case.options or {}, dice).state
    out: list[Any] = []
    for index in range(case.reveal_at + 1):
        if other in system.waiting_on(state):
            seen = system.observe(state, other)
            chosen = think(system, seen, other, f"blind-{index}", BLIND_BUDGET)
            out.append([index, other, chosen.path, chosen.action]
                       + ([seen.model_dump_json()] if observations else []))
        if index == case.reveal_at:
            break
        side, line = orders[index]
        _, path, options = parse_line(line)
        state = system.apply(state, side, system.parse(" ".join(path[1:]), options), dice).state
    return out


def settings_for(folder: Path, name: str) -> Settings:
    """A service's settings on a fresh SQLite file (no page at the end: nothing ends here)."""
    return Settings(db=folder / f"{name}.sqlite3", snapshot_dir=folder / f"{name}-snaps",
                    html_at_end=False)


__all__ = ["BLIND_BUDGET", "SEED", "SecretCase", "decisions", "first_difference", "mask", "public_record",
           "settings_for"]
