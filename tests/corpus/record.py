"""The corpus of recorded games (issue 42): ten whole games of every system, each exported
at its ``/game end`` by today's code, kept in ``tests/fixtures/games/`` and replayed on every
test run (``tests/corpus/test_corpus.py``).

    .venv/bin/python -m tests.corpus.record            # every system
    .venv/bin/python -m tests.corpus.record rr         # one (after bumping rr's rules version)

A game is fixed by its number: its dice seed, the robots' random choices, its scenario (the
system's built-ins in turn, and a scenario file where the system reads them), its options
(concealment and minefields for Maschinen Krieger's secrets, fewer turns, the optional
rules), and which moderator tools it uses: a reroll, a rollback (the orders given after it
make a second branch), a player's undo.  The robots play the golden transcripts' way
(``tests/golden/record.py``); pictures are not drawn.

Re-record a system only when its rules changed on purpose: bump its ``rules_version`` and
add the line naming the rule to its ``CHANGELOG.md`` first, so the corpus test can tell the
change from an accident.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.autoplay import order_options
from bot.models import Invocation, Reply, Upload
from bot.service import Service
from rules.core import registry
from tests.golden.record import CHANNEL, SYSTEMS, Recorder, seeded_service

ROOT = Path(__file__).resolve().parent.parent.parent
#: Where the recorded games are kept.
FIXTURES = ROOT / "tests" / "fixtures" / "games"
#: Games per system.
GAMES = 10
#: The most robot orders of a game played until the rules end it (two games a system).
UNTIL_THE_END = 400
#: The options each system's games take in turn ("" is the defaults).
OPTIONS: dict[str, tuple[str, ...]] = {
    "commando": ("", "turns=2"),
    "mak": ("", "concealment", "turns=2", "escape", "dice=product"),
    "raiders": ("", "scouting", "coordinated", "single"),
    "rr": ("",),
    "skirmish": ("", "turns=2"),
}
#: The scenario file of each system (docs/scenarios): played by the last game of each.
SCENARIO_FILES = {
    "commando": "commando-lock-gate.yaml", "mak": "mak-ford.yaml", "raiders": "raiders-jungle-bridge.yaml",
    "rr": "rr-mill-bridge.yaml", "skirmish": "skirmish-farm-lane.yaml",
}


@dataclass(frozen=True)
class GamePlan:
    """What one recorded game does."""

    system: str
    number: int
    scenario: str | None
    options: str
    scenario_file: str | None
    orders: int
    reroll: bool
    rollback: bool
    undo: bool

    @property
    def name(self) -> str:
        """The fixture's file name: ``rr-03.json.gz``."""
        return f"{self.system}-{self.number:02d}.json.gz"


def plans(system_key: str) -> list[GamePlan]:
    """The :data:`GAMES` games of a system, each different from the others."""
    system = registry.get(system_key)
    options = OPTIONS.get(system_key, ("",))
    found = []
    for n in range(GAMES):
        from_file = SCENARIO_FILES.get(system_key) if n == GAMES - 1 and system.scenario_format else None
        found.append(GamePlan(
            system=system_key, number=n,
            scenario=None if from_file else system.scenarios[n % len(system.scenarios)],
            options="" if from_file else options[n % len(options)], scenario_file=from_file,
            orders=UNTIL_THE_END if n % 5 == 3 else 25 + 8 * (n % 5), reroll=n % 2 == 0, rollback=n % 3 != 2, undo=n % 4 == 1,
        ))
    return found


#: How many orders the robots play on looking for one an undo may take back.
UNDO_TRIES = 40


class CorpusRecorder(Recorder):
    """Plays one game of the corpus (the golden robots, no pictures, no transcript)."""

    def __init__(self, service: Service, plan: GamePlan, clock: Any) -> None:
        super().__init__(service, plan.system, clock)
        self.plan = plan
        self.rng.seed(f"corpus-{plan.system}-{plan.number}")

    async def send(self, user: str, command: list[str], options: dict[str, Any] | None = None,
                   *, moderator: bool = False, private: bool = False) -> Reply:
        """One command, its reply kept (no picture drawn)."""
        self.ids += 1
        return await self.service.handle(Invocation(
            channel_id=CHANNEL, guild_id="corpus", user_id=user, user_name=user, is_moderator=moderator,
            command=command, options=options or {}, interaction_id=f"corpus-{self.ids}", private=private))

    async def give(self, side: str, action: Any) -> Reply:
        """An order by its whole path (``/mak air commit``), a sealed one given privately
        (issue 28: Maschinen Krieger's air assignments, its minefields)."""
        return await self.send(self.user(side), [self.key, *action.path().split()], order_options(action),
                               private=bool(action.sealed))

    def new_options(self) -> dict[str, Any]:
        """``/game new``'s options for the plan."""
        plan = self.plan
        out: dict[str, Any] = {"system": plan.system}
        if plan.scenario_file:
            data = (ROOT / "docs" / "scenarios" / plan.scenario_file).read_bytes()
            out["scenario-file"] = Upload(name=plan.scenario_file, size=len(data), data=data)
        if plan.scenario:
            out["scenario"] = plan.scenario
        if plan.options:
            out["options"] = plan.options
        return out

    async def game(self) -> bytes:
        """Play the plan and end the game; the final export's bytes."""
        await self.play()
        end = await self.send("moderator", ["game", "end"], moderator=True)
        final = [a for a in end.attachments if a.filename.endswith("-final.json.gz")]
        assert final, f"/game end of {self.plan.name} attached no final export: {end.text[:200]}"
        return final[0].data

    async def play(self) -> list[str]:
        """Play the plan, the game left running (what ``referee check-games`` reads)."""
        plan, sides, mod = self.plan, list(self.system.sides), "moderator"
        started = await self.send(self.user(sides[0]) if len(sides) == 1 else mod, ["game", "new"],
                                  self.new_options())
        assert not started.error, started.text
        for side in sides if len(sides) > 1 else ():
            await self.send(self.user(side), ["game", "join"], {"side": side})
        await self.robot_orders(plan.orders)
        if plan.undo:
            await self.undo_last()
        if plan.reroll:
            await self.until_dice(20)
            await self.send(mod, ["mod", "reroll"], {"reason": "corpus reroll"}, moderator=True)
        if plan.rollback:
            await self.rollback(mod)
        return self.lines

    async def undo_last(self) -> None:
        """The player who gave the last order takes it back.  An undo is refused once the
        order revealed something (dice rolled, a secret shown); a refused one changes nothing
        and is recorded nowhere, so the robots play on, an order at a time, until one is
        taken back (a game with no order left to take back keeps none)."""
        for _ in range(UNDO_TRIES):
            game = await self.service.games.load(CHANNEL)
            assert game is not None
            head = await self.service.store.step(game.row.id, game.row.head_seq)
            if head is not None and head.side:
                if not (await self.send(self.user(head.side), ["game", "undo"])).error:
                    return
            if not await self.robot_orders(1):
                return

    async def rollback(self, mod: str) -> None:
        """Roll back a few steps, then play on: the old steps stay as a reverted branch."""
        game = await self.service.games.load(CHANNEL)
        assert game is not None
        if game.row.head_seq > 2:
            await self.send(mod, ["mod", "rollback"], {"to": max(1, game.row.head_seq - 3),
                                                         "reason": "corpus rollback"}, moderator=True)
            self.clock.advance(timedelta(minutes=30))
            await self.robot_orders(4)


async def record_game(plan: GamePlan) -> bytes:
    """One game of the corpus, played now on a fresh SQLite file: its final export."""
    async with seeded_service(plan.system, f"corpus-{plan.system}-{plan.number}") as (service, clock):
        return await CorpusRecorder(service, plan, clock).game()


def main(argv: list[str] | None = None) -> int:
    """Record (overwrite) the corpus games of the systems named, or of all five."""
    keys = (argv if argv is not None else sys.argv[1:]) or list(SYSTEMS)
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for key in keys:
        for plan in plans(key):
            data = asyncio.run(record_game(plan))
            (FIXTURES / plan.name).write_bytes(data)
            print(f"{(FIXTURES / plan.name).relative_to(ROOT)}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
