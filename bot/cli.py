"""The ``referee`` command.

``referee`` alone connects to Discord when ``DISCORD_TOKEN`` is set, and otherwise opens the
local console on the SQLite default, so anyone can play at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from typing import TYPE_CHECKING

from bot.config import Settings
from bot.runtime import tune_gc

if TYPE_CHECKING:
    from bot.pacing.clock import ManualClock

NO_TOKEN_HINT = (
    "No DISCORD_TOKEN set: opening the local console "
    "(set DISCORD_TOKEN to connect to Discord; see the README)."
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one subcommand per way of running the referee."""
    parser = argparse.ArgumentParser(
        prog="referee",
        description="Referee umpires play-by-post wargames on Discord or in a local console. "
        "With no subcommand: the Discord bot if DISCORD_TOKEN is set, else the console.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    bot = sub.add_parser("bot", help="connect to Discord (needs DISCORD_TOKEN)")
    bot.add_argument("--force-sync", action="store_true",
                     help="send the slash commands to Discord even if unchanged since the last run")
    bot.add_argument("--shards", metavar="IDS",
                     help="the shards this process runs, e.g. 0-3 (default: $REFEREE_SHARDS, else all)")
    bot.add_argument("--shard-count", type=int, metavar="N",
                     help="how many shards the bot runs in all processes together "
                          "(default: $REFEREE_SHARD_COUNT, else Discord's advice)")

    migrate = sub.add_parser("migrate-db", help="copy a SQLite database into PostgreSQL")
    migrate.add_argument("--from", dest="source", required=True, type=Path,
                         help="the SQLite file (stop the bot first)")
    migrate.add_argument("--to", dest="target", required=True,
                         help="the PostgreSQL URL, postgresql://user:password@host/database (empty)")

    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    _console_options(console)

    render = sub.add_parser("render", help="write the snapshots of a transcript as PNG files")
    render.add_argument("--script", required=True, type=Path, help="the transcript to play")
    render.add_argument("--out", required=True, type=Path, help="the folder for the PNG files")
    render.add_argument("--dice", help="scripted dice, e.g. 3,5,6 (default: seeded random)")

    replay = sub.add_parser("replay", help="re-run an exported log and check every state")
    replay.add_argument("file", type=Path, help="a log from /game export or /game end (.json.gz or .json)")

    html = sub.add_parser("export-html", help="write a game as one HTML file: log, dice, every map")
    html.add_argument("game", type=int, help="the game's number (in its export file names)")
    html.add_argument("--db", type=Path, help="the SQLite file (default: $REFEREE_DB)")
    html.add_argument("--out", type=Path, help="the file or folder to write (default: here)")

    sub.add_parser("health", help="exit 0 if the database opens and is migrated (HEALTHCHECK)")
    return parser


def _console_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", type=Path, help="run a transcript instead of the prompt")
    parser.add_argument("--dice", help="scripted dice for the whole session, e.g. 3,5,6")
    parser.add_argument("--moderator", action="store_true", help="you may use /mod commands")
    parser.add_argument("--user", default="player", help="your name (default: player)")
    parser.add_argument("--db", type=Path, help="the SQLite file (default: $REFEREE_DB)")
    parser.add_argument("--snapshots", type=Path, help="where PNG snapshots go")
    parser.add_argument("--clock", nargs="?", const="now", metavar="START",
                        help="time stands still until /clock advance hours:N moves it "
                             "(START: a UTC date and time, default now)")


def shard_settings(settings: Settings, shards: str | None, count: int | None) -> Settings:
    """The settings with ``--shards``/``--shard-count`` applied over the environment's,
    checked as the environment's are (a clear SystemExit when they do not fit)."""
    values = settings.model_dump()
    if shards:
        values["shards"] = shards
    if count:
        values["shard_count"] = count
    try:
        return Settings.model_validate(values)
    except ValueError as exc:
        raise SystemExit(f"referee bot: {exc}") from None


def parse_dice(text: str | None) -> list[int] | None:
    """``"3,5,6"`` -> ``[3, 5, 6]``; a clear SystemExit on anything else."""
    if not text:
        return None
    try:
        values = [int(part) for part in text.replace(" ", "").split(",") if part]
    except ValueError:
        raise SystemExit(f"--dice takes whole numbers separated by commas, not {text!r}") from None
    if any(v < 1 for v in values):
        raise SystemExit("--dice values must be 1 or more")
    return values


def parse_clock(text: str | None) -> "ManualClock | None":
    """``--clock [START]``: a clock that moves only with ``/clock advance``."""
    from datetime import datetime, timezone  # noqa: PLC0415

    from bot.pacing.clock import ManualClock  # noqa: PLC0415

    if text is None:
        return None
    if text == "now":
        return ManualClock()
    try:
        start = datetime.fromisoformat(text)
    except ValueError:
        raise SystemExit(f"--clock takes a UTC date and time such as 2026-11-30T18:00, not {text!r}") from None
    return ManualClock(start if start.tzinfo else start.replace(tzinfo=timezone.utc))


async def run_console(settings: Settings, args: argparse.Namespace) -> int:
    """The console, interactive or on a transcript; returns the exit code."""
    from bot.console import Console  # noqa: PLC0415 - keep `referee --help` light
    from bot.service import ScriptedDiceSource, Service

    values = parse_dice(args.dice)
    clock = parse_clock(getattr(args, "clock", None))
    service = await Service.open(
        settings, dice_source=ScriptedDiceSource(values) if values else None, clock=clock,
    )
    try:
        console = Console(
            service, user=args.user, moderator=args.moderator,
            snapshot_dir=args.snapshots or settings.snapshot_dir, clock=clock,
        )
        if args.script:
            lines = args.script.read_text("utf-8").splitlines()
            await console.run_script(lines)
        else:
            await console.repl()
    finally:
        await service.close()
    return 0


async def run_render(settings: Settings, args: argparse.Namespace) -> int:
    """Play a transcript on a throwaway database and keep every snapshot in ``--out``."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = settings.model_copy(update={"db": Path(tmp) / "render.sqlite3"})
        args.snapshots, args.moderator, args.user = args.out, True, "player"
        await run_console(scratch, args)
    pngs = sorted(args.out.glob("*.png"))
    print(f"{len(pngs)} snapshot(s) in {args.out}")
    return 0 if pngs else 1


def run_replay(path: Path) -> int:
    """Check an export reproduces exactly."""
    from bot.replay import load_export, replay  # noqa: PLC0415

    report = replay(load_export(path))
    for problem in report.problems:
        print("✗", problem)
    print(f"{report.matched}/{report.steps} steps reproduced exactly.")
    return 0 if report.ok else 1


async def run_export_html(settings: Settings, args: argparse.Namespace) -> int:
    """Write the self-contained HTML page of a game (bot/export_html.py)."""
    from bot.export_html import write_export  # noqa: PLC0415

    if not settings.db.exists():
        print(f"There is no database {settings.db} (give it with --db).", file=sys.stderr)
        return 1
    try:
        path = await write_export(settings.db, args.game, args.out)
    except KeyError:
        print(f"There is no game #{args.game} in {settings.db}.", file=sys.stderr)
        return 1
    print(f"Wrote {path} ({path.stat().st_size / 1e6:.1f} MB): open it in any browser, offline.")
    return 0


async def run_health(settings: Settings) -> int:
    """Open the database (applying migrations), check its integrity and close it: the
    container HEALTHCHECK.  Exit 1 with a sentence when a check fails (issue 29)."""
    from bot.storage import integrity_problems  # noqa: PLC0415
    from bot.stores import open_store  # noqa: PLC0415

    store = await open_store(settings.db)
    try:
        await store.schema_versions()
        problems = await integrity_problems(store)
    finally:
        await store.close()
    if problems:
        print(f"Database trouble: {settings.db} fails its integrity check ({problems[0][:120]};"
              f" {len(problems)} problem(s)): stop the bot, keep a copy of the file, restore the"
              " last backup (or try `sqlite3 FILE .recover`).", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``referee`` console script.  A database that cannot be used (full
    disk, read-only, damaged, unreachable) is said in one sentence, exit code 1, never a
    traceback (issue 29)."""
    from bot.storage import for_operator  # noqa: PLC0415

    args = build_parser().parse_args(argv)
    tune_gc()
    settings = Settings()
    if args.command in ("console", "render", "export-html") and getattr(args, "db", None):
        settings = settings.model_copy(update={"db": args.db})
    if args.command == "bot" and (args.shards or args.shard_count):
        settings = shard_settings(settings, args.shards, args.shard_count)
    logging.basicConfig(level=settings.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return _run(args, settings)
    except Exception as exc:
        said = for_operator(exc, settings.db)
        if said is None:
            raise
        print(said, file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, settings: Settings) -> int:
    """Run the command ``main`` parsed."""
    command = args.command
    if command is None:
        if settings.discord_token is None:
            print(NO_TOKEN_HINT)
            parser = build_parser()
            args = parser.parse_args(["console"])
            command = "console"
        else:
            command = "bot"
    if command == "bot":
        if settings.discord_token is None:
            raise SystemExit("referee bot needs DISCORD_TOKEN in the environment.")
        from bot.discord.client import run_bot  # noqa: PLC0415

        run_bot(settings, force_sync=getattr(args, "force_sync", False))
        return 0
    if command == "console":
        return asyncio.run(run_console(settings, args))
    if command == "render":
        return asyncio.run(run_render(settings, args))
    if command == "replay":
        return run_replay(args.file)
    if command == "export-html":
        return asyncio.run(run_export_html(settings, args))
    if command == "health":
        return asyncio.run(run_health(settings))
    if command == "migrate-db":
        from bot.migratedb import copy_database  # noqa: PLC0415

        counts = asyncio.run(copy_database(args.source, args.target))
        print("copied " + ", ".join(f"{n} {table}" for table, n in counts.items() if n))
        return 0
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    sys.exit(main())
