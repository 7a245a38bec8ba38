"""Issue 27's "done when": every scenario a club member wrote from docs/scenarios.md alone
(``docs/scenarios/club/``, one per system) validates, plays to the end in the console and
through the real Discord command tree (started by ``/game new`` with the file attached),
exports, and replays from the export alone (``referee replay`` in a process that has
forgotten every scenario file).

Every system plays to the end through the Discord tree in the normal run (a second or
three each); the console playouts that take longer (mak, commando: 4-8 s) are marked slow."""

from __future__ import annotations

import gzip
import json
import random
import shlex
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot import autoplay
from bot.cli import main as referee
from bot.config import Settings
from bot.console import CONSOLE_CHANNEL, Console
from bot.service import Service
from rules.core import scenariofile
from rules.core.contract import Action
from rules.core.registry import get
from tests.discord.conftest import recorder, settings  # noqa: F401 - fixtures of the harness
from tests.discord.dpy_harness import RecordingAdapter
from tests.discord.test_discord_scenarios import bot, send  # noqa: F401 - the bot fixture
from tests.scenarios.helpers import systems

CLUB = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "club"
FILES = {path.name.split("-")[0]: path for path in sorted(CLUB.glob("*.yaml"))}
SYSTEMS = sorted(FILES)
#: Orders a game may take before it must have ended (every club file is short).
LIMIT = 3000
#: The console playouts of more than a few seconds, left to ``pytest -m slow``.
CONSOLE = [pytest.param(s, marks=pytest.mark.slow) if s in ("mak", "commando") else s for s in SYSTEMS]


def test_every_system_has_a_club_file() -> None:
    assert set(FILES) == set(systems())


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_club_file_checks_good_and_its_set_up_is_drawn(system: str, tmp_path: Path, capsys) -> None:
    preview = tmp_path / "setup.png"
    assert referee(["scenario", "check", str(FILES[system]), "--preview", str(preview)]) == 0
    assert f"a good {get(system).title} scenario" in capsys.readouterr().out
    with Image.open(preview) as picture:
        picture.verify()
        assert picture.format == "PNG"


def typed(action: Action) -> str:
    """An order's name and options as a player types them: ``move unit:S-PKA1 to:6:0507``."""
    words = []
    for name, value in autoplay.order_options(action).items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, list):
            value = ",".join(map(str, value))
        words.append(f"{name}:{shlex.quote(str(value))}")
    return " ".join([action.name, *words])


def next_order(game: Any, rng: random.Random, last: dict[str, Action]) -> Action | None:
    """A random legal order of the side the game waits on (as ``autoplay`` picks them), or
    None once the game is over."""
    waiting = game.system.waiting_on(game.state)
    if not waiting or game.system.result(game.state) is not None:
        return None
    actions = [a for a in game.system.legal_actions(game.state, waiting[0], read_only=False)
               if not a.read_only]
    action = autoplay.choose(game.system, actions, rng, last.get(waiting[0]))
    last[waiting[0]] = action
    return action


def replays_alone(export: bytes, tmp_path: Path) -> dict[str, Any]:
    """The exported game replayed by ``referee replay`` with every scenario file forgotten,
    as in a fresh process; the export's document."""
    scenariofile.forget_all()
    path = tmp_path / "export.json.gz"
    path.write_bytes(export)
    assert referee(["replay", str(path)]) == 0
    return json.loads(gzip.decompress(export))


@pytest.mark.parametrize("system", CONSOLE)
async def test_a_club_file_plays_to_the_end_in_the_console_exports_and_replays(
        system: str, tmp_path: Path) -> None:
    raw = FILES[system].read_bytes()
    game_system = get(system)
    service = await Service.open(Settings(db=tmp_path / "club.sqlite3", snapshot_dir=tmp_path / "snaps"))
    out: list[str] = []
    try:
        console = Console(service, write=out.append, snapshot_dir=tmp_path / "snaps",
                          scenario_file=FILES[system])
        started = await console.run_line(f"@alice /game new system:{system}")
        assert started is not None and not started.error, started
        if len(game_system.sides) > 1:
            for side in game_system.sides:
                joined = await console.run_line(f"@alice /game join side:{side}")
                assert joined is not None and not joined.error, joined.text
        rng, last = random.Random(7), {}
        for _ in range(LIMIT):
            action = next_order(await service.games.load(CONSOLE_CHANNEL), rng, last)
            if action is None:
                break
            line = f"@alice /{system} {typed(action)}"
            reply = await console.run_line(line)
            assert reply is not None and not reply.error, (line, reply.text)
        game = await service.games.load(CONSOLE_CHANNEL)
        assert game.system.result(game.state) is not None, "the game did not end"
        assert game.row.scenario_text == raw.decode("utf-8")
        exported = await console.run_line("/game export")
        assert exported is not None and not exported.error
    finally:
        await service.close()
    document = replays_alone(exported.attachments[0].data, tmp_path)
    assert document["scenario_sha256"] == scenariofile.sha256(raw.decode("utf-8"))


async def _discord_game(bot, recorder: RecordingAdapter, system: str, orders: int) -> tuple[bytes, Any]:
    """``/game new`` with the club file attached, Alice in every seat, up to ``orders``
    random legal orders through the tree, then ``/game export``: the export's bytes and the
    game as it stands."""
    raw = FILES[system].read_bytes()
    sent = await send(bot, recorder, "game", "new", {"system": system},
                      files={"scenario-file": (FILES[system].name, raw, None)})
    assert not sent[0].ephemeral, sent[0].content
    assert scenariofile.sha256(raw.decode("utf-8")) in sent[0].content
    game_system = get(system)
    if len(game_system.sides) > 1:
        for side in game_system.sides:
            await send(bot, recorder, "game", "join", {"side": side})
    service, rng, last = bot[2], random.Random(11), {}
    channel = (await service.store._fetchall("SELECT channel_id FROM games"))[0][0]
    for _ in range(orders):
        action = next_order(await service.games.load(channel), rng, last)
        if action is None:
            break
        replies = await send(bot, recorder, system, action.name, autoplay.order_options(action))
        refused = [s.content for s in replies if s.content and s.ephemeral]
        assert not refused, (action, refused)
    game = await service.games.load(channel)
    assert game.row.scenario_text == raw.decode("utf-8")
    exported = await send(bot, recorder, "game", "export")
    files = [data for s in exported for name, data in s.files.items() if name.endswith(".gz")]
    assert files, [s.content for s in exported]
    return files[0], game


@pytest.mark.parametrize("system", SYSTEMS)
async def test_a_club_file_plays_to_the_end_through_the_discord_tree_exports_and_replays(
        bot, recorder, tmp_path: Path, system: str) -> None:
    export, game = await _discord_game(bot, recorder, system, LIMIT)
    assert game.system.result(game.state) is not None, "the game did not end"
    document = replays_alone(export, tmp_path)
    assert len(document["steps"]) > 1 and document["scenario_text"] == game.row.scenario_text
    assert document["scenario_sha256"] == scenariofile.sha256(game.row.scenario_text)
