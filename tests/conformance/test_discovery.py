"""A new system is one package: installed from a temporary folder, with no file of ours edited,
it shows in ``/game new``, plays in the console and has its group in the Discord tree."""

from __future__ import annotations

import importlib
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.config import Settings
from bot.console import Console
from bot.discord.tree import RefereeTree, install_commands
from bot.service import Service
from rules.core import registry

#: The whole throwaway system, as a maintainer would write it in its own distribution.
TOY = textwrap.dedent('''
    """Coin: call heads or tails, first to three right calls wins (a throwaway system)."""
    import sys
    from typing import Any, Literal

    from pydantic import BaseModel, Field

    from rules.core.contract import Action, Event, GameOptions, GameSystem, Step
    from rules.core.orders import Ctx, order
    from rules.core.views import AreaMapView, AreaView, Header


    class CoinState(BaseModel):
        turn: str = "a"
        right: dict[str, int] = Field(default_factory=lambda: {"a": 0, "b": 0})
        needed: int = 3


    class CoinOptions(GameOptions):
        needed: int = Field(3, ge=1, le=9, description="right calls to win")


    class Call(Action):
        """Call the toss."""

        name = "call"
        rule = "C1"
        face: Literal["heads", "tails"] = Field(description="heads or tails")


    def call_offers(state: CoinState, side: str) -> list[Call]:
        return [Call(face="heads"), Call(face="tails")]


    @order(Call, offers=call_offers)
    def call(ctx: Ctx[CoinState], action: Call) -> None:
        toss = "heads" if ctx.dice.die(2, "toss") == 1 else "tails"
        if toss == action.face:
            ctx.state.right[ctx.side] += 1
        ctx.say("toss", f"🎲 {toss}: {ctx.side} has {ctx.state.right[ctx.side]} (C1)", "C1")
        ctx.state.turn = "b" if ctx.side == "a" else "a"
        ctx.snapshot = True


    class Coin(GameSystem[CoinState]):
        key = "coin"
        order_modules = (sys.modules[__name__],)
        title = "Coin"
        sides = ("a", "b")
        scenarios = ("plain",)
        actions = (Call,)
        state_model = CoinState
        options_model = CoinOptions

        def start(self, scenario: str, options: Any, dice: Any) -> Step:
            return self.make_step(CoinState(needed=options.needed), [Event(kind="setup", text="a calls first")])

        def waiting_on(self, state: CoinState) -> list[str]:
            return [] if self.result(state) else [state.turn]

        def turn_part(self, state: CoinState) -> str:
            return f"{state.turn} calls"

        def status(self, state: CoinState) -> list[str]:
            return [f"Right calls: a {state.right['a']}, b {state.right['b']}"]

        def view(self, state: CoinState) -> BaseModel:
            square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
            return AreaMapView(header=Header(title="Coin"), width=100, height=100,
                               areas=[AreaView(id="1", polygon=square, centre=(50, 50), terrain="clear")])

        def result(self, state: CoinState) -> str | None:
            return next((f"{s} wins" for s, n in state.right.items() if n >= state.needed), None)


    SYSTEM = Coin()
''')


@pytest.fixture
def installed_toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy as an installed distribution: a package and a dist-info with its entry point."""
    site = tmp_path / "site"
    (site / "referee_coin").mkdir(parents=True)
    (site / "referee_coin" / "__init__.py").write_text(TOY)
    info = site / "referee_coin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: referee-coin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[referee.systems]\ncoin = referee_coin:SYSTEM\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    yield
    registry.unregister("coin")
    sys.modules.pop("referee_coin", None)


async def test_a_system_installed_as_a_distribution_is_found_everywhere(installed_toy: None,
                                                                        tmp_path: Path) -> None:
    """Entry point ``referee.systems``: the registry, /game new, the console and Discord."""
    assert "coin" in registry.load_all()
    service = await Service.open(Settings(db=tmp_path / "referee.sqlite3", snapshot_dir=tmp_path / "snaps"))
    try:
        out: list[str] = []
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
        refused = await console.run_script([
            "/game new system:coin options:needed=9",
            "@ann /game join side:a",
            "@bob /game join side:b",
            "@ann /coin call face:heads",
            "@bob /coin call face:edge",
        ])
        text = "\n".join(out)
        assert refused == 1, text  # edge is no face
        assert "🎲" in text and "'face' must be one of heads, tails" in text
        client = discord.Client(intents=discord.Intents.none())
        tree = RefereeTree(client)
        install_commands(tree, service, "Referee Moderator")
        names = [cmd.name for cmd in tree.get_commands()]
        assert "coin" in names
        new = tree.get_command("game").get_command("new")  # type: ignore[union-attr]
        systems = [c.value for c in new._params["system"].choices]
        assert "coin" in systems
    finally:
        await service.close()


async def test_garbage_game_options_are_refused_in_the_console_with_the_known_ones(tmp_path: Path) -> None:
    """``turns=abc``, JSON, unknown names and a bare ``turns`` are refused, listing options."""
    service = await Service.open(Settings(db=tmp_path / "referee.sqlite3", snapshot_dir=tmp_path / "snaps"))
    try:
        out: list[str] = []
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
        for raw in ("turns=abc", '{"turns":5}', "nonsense=1", "turns", "turns=0"):
            reply = await console.run_line(f"/game new system:commando options:{raw}")
            assert reply is not None and reply.error, raw
            assert "turns=1..30" in reply.text, reply.text
        reply = await console.run_line("/game new system:commando options:turns=3")
        assert reply is not None and not reply.error
        assert "3 turns" in reply.text
    finally:
        await service.close()
