"""The ``referee`` command.

``referee`` alone connects to Discord when ``DISCORD_TOKEN`` is set, and otherwise opens the
local console on the SQLite default, so anyone can play at once.

Every subcommand that opens a database reads ``REFEREE_DB`` (a SQLite file or a
``postgresql://`` URL) and takes ``--db`` to override it; ``migrate-db`` reads it for
whichever side it fits.  Settings come from the environment and ``.env`` (bot/config.py);
logging is set up once (bot/logsetup.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot import VERSION, scenariocli
from bot.config import Settings, describe_error, load_settings
from bot.logsetup import setup_logging
from bot.runtime import tune_gc
from bot.storage import shown

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
    parser.add_argument("--version", action="version", version=f"referee {VERSION}")
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
    migrate.add_argument("--from", dest="source",
                         help="the SQLite file (stop the bot first; default: $REFEREE_DB "
                              "when it is a file)")
    migrate.add_argument("--to", dest="target",
                         help="the PostgreSQL URL, postgresql://user:password@host/database "
                              "(empty; default: $REFEREE_DB when it is a URL)")

    backup = sub.add_parser("backup", help="copy the SQLite database while the bot runs")
    backup.add_argument("--to", dest="target", required=True, type=Path,
                        help="the backup file to write (replaced if it exists)")
    _db_option(backup)
    restore = sub.add_parser("restore", help="put a backup back in place (stop the bot first)")
    restore.add_argument("--from", dest="source", required=True, type=Path,
                         help="a file written by referee backup")
    _db_option(restore)

    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    _console_options(console)

    render = sub.add_parser("render", help="write the snapshots of a transcript as PNG files")
    render.add_argument("--script", required=True, type=Path, help="the transcript to play")
    render.add_argument("--out", required=True, type=Path, help="the folder for the PNG files")
    render.add_argument("--dice", help="scripted dice, e.g. 3,5,6 (default: seeded random)")

    replay = sub.add_parser("replay", help="re-run an exported log and check every state")
    replay.add_argument("file", type=Path, help="a log from /game export or /game end (.json.gz or .json)")
    replay.add_argument("--release", action="store_true",
                        help="say how to replay the file under the release that made it (its pinned "
                             "lock file), for an exact check of steps made under older rules")

    check = sub.add_parser("check-games", help="replay every live game under this release's rules and "
                           "list the first step each resolves otherwise (changes no game)")
    _db_option(check)

    html = sub.add_parser("export-html", help="write a game as one HTML file: log, dice, every map")
    html.add_argument("game", type=int, help="the game's number (in its export file names)")
    _db_option(html)
    html.add_argument("--out", type=Path, help="the file or folder to write (default: here)")

    health = sub.add_parser("health", help="exit 0 if the database opens and is migrated and, "
                            "with REFEREE_HEARTBEAT, the bot is connected (HEALTHCHECK)")
    _db_option(health)
    scenariocli.add_parser(sub)
    return parser


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="the SQLite file or a postgresql:// URL "
                                     "(default: $REFEREE_DB, else ./referee.sqlite3)")


def _console_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--script", type=Path, help="run a transcript instead of the prompt")
    parser.add_argument("--dice", help="scripted dice for the whole session, e.g. 3,5,6")
    parser.add_argument("--moderator", nargs="?", const="", default=None, metavar="NAMES",
                        help="who may use /mod commands: alone, you (--user); with names, "
                             "those users (e.g. --moderator alice,bob); other players may not")
    parser.add_argument("--user", default="player", help="your name (default: player)")
    _db_option(parser)
    parser.add_argument("--snapshots", type=Path, help="where PNG snapshots go")
    parser.add_argument("--scenario-file", type=Path, metavar="FILE",
                        help="a scenario file (.json/.yaml) that /game new plays when it names none")
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
    except ValidationError as exc:
        raise SystemExit("referee bot: " + " ".join(describe_error(e) for e in exc.errors())) from None


def moderators(names: str | None, user: str) -> set[str]:
    """``--moderator [NAMES]``: nobody (left out), the console's own user (alone), or the
    users named, comma-separated, ``@`` optional; ``*``: anyone."""
    if names is None:
        return set()
    named = {n.strip().lstrip("@") for n in names.split(",") if n.strip().lstrip("@")}
    return named or {user}


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
    damaged = await damaged_database(settings)
    if damaged is not None:
        print(damaged, file=sys.stderr)
        return 1
    service = await Service.open(
        settings, dice_source=ScriptedDiceSource(values) if values else None, clock=clock,
    )
    try:
        console = Console(
            service, user=args.user, moderator=moderators(args.moderator, args.user),
            snapshot_dir=args.snapshots or settings.snapshot_dir, clock=clock,
            scenario_file=getattr(args, "scenario_file", None),
        )
        if args.script:
            lines = args.script.read_text("utf-8").splitlines()
            await console.run_script(lines)
        else:
            await console.repl()
    finally:
        await service.close()
    return 0


async def damaged_database(settings: Settings) -> str | None:
    """Why the console will not start on the database (issue 45: it started on one that
    ``referee health`` calls damaged), or None: a new database, or one whose pages and
    records check out (``bot/storage.py``)."""
    from bot.storage import damaged_sentence, database_problems  # noqa: PLC0415
    from bot.stores import open_store  # noqa: PLC0415

    if isinstance(settings.db, Path) and not settings.db.exists():
        return None
    store = await open_store(settings.db)
    try:
        problems = await database_problems(store)
    finally:
        await store.close()
    if not problems:
        return None
    return (f"The console will not start on it. {damaged_sentence(settings.db, problems)}"
            f" (referee health --db {shown(settings.db)} lists what is wrong.)")


async def run_render(settings: Settings, args: argparse.Namespace) -> int:
    """Play a transcript on a throwaway database and keep every snapshot in ``--out``."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = settings.model_copy(update={"db": Path(tmp) / "render.sqlite3"})
        # A transcript rendered for pictures: anyone it names may moderate (``*``).
        args.snapshots, args.moderator, args.user = args.out, "*", "player"
        await run_console(scratch, args)
    pngs = sorted(args.out.glob("*.png"))
    print(f"{len(pngs)} snapshot(s) in {args.out}")
    return 0 if pngs else 1


async def run_export_html(settings: Settings, args: argparse.Namespace) -> int:
    """Write the self-contained HTML page of a game (bot/export_html.py)."""
    from bot.export_html import write_export  # noqa: PLC0415

    if isinstance(settings.db, Path) and not settings.db.exists():
        print(f"There is no database {settings.db} (give it with --db or REFEREE_DB).",
              file=sys.stderr)
        return 1
    try:
        path = await write_export(settings.db, args.game, args.out)
    except KeyError:
        print(f"There is no game #{args.game} in {shown(settings.db)}.", file=sys.stderr)
        return 1
    print(f"Wrote {path} ({path.stat().st_size / 1e6:.1f} MB): open it in any browser, offline.")
    return 0


async def run_health(settings: Settings) -> int:
    """The container HEALTHCHECK.  With ``REFEREE_HEARTBEAT`` (the Docker image sets it) it
    reads the bot's heartbeat: connected to the gateway, its database answering, written
    within the minute; nothing is opened or changed.  Without it (a bot run by hand, an
    operator's check), the database is opened, checked to be migrated and checked for
    integrity (``PRAGMA integrity_check``, issue 29): exit 1 with one sentence on failure."""
    from datetime import datetime, timezone  # noqa: PLC0415

    from bot.heartbeat import heartbeat_problem  # noqa: PLC0415
    from bot.storage import database_problems  # noqa: PLC0415
    from bot.stores import open_store  # noqa: PLC0415
    from bot.upgradecli import health_note  # noqa: PLC0415

    if settings.heartbeat is not None:
        problem = heartbeat_problem(settings.heartbeat, datetime.now(timezone.utc))
        if problem is not None:
            print(f"unhealthy: {problem}", file=sys.stderr)
            return 1
        print("healthy: connected to the Discord gateway, the database answering")
        return 0
    try:
        store = await open_store(settings.db)
        try:
            versions = await store.schema_versions()
            problems = await database_problems(store)
            # Only of a sound database: a damaged one is said by its integrity check.
            unchecked = None if problems else await health_note(store, settings.db)
        finally:
            await store.close()
    except Exception as exc:  # any failure is "unhealthy", said in one line
        from bot.storage import for_operator  # noqa: PLC0415

        said = for_operator(exc, settings.db) or (
            f"the database {shown(settings.db)} does not open ({type(exc).__name__}: {str(exc)[:160]})")
        print(f"unhealthy: {said}", file=sys.stderr)
        return 1
    if problems:
        from bot.storage import damaged_sentence  # noqa: PLC0415

        print(damaged_sentence(settings.db, problems), file=sys.stderr)
        for problem in problems[1:8]:
            print(f"  - {problem}", file=sys.stderr)
        return 1
    print(f"healthy: the database is migrated (version {max(versions, default=0)}), passes its "
          "integrity check and every record matches its hash chain; the gateway is not checked"
          " (REFEREE_HEARTBEAT is not set)")
    if unchecked:
        print(f"note: {unchecked}")
    return 0


def run_backup(settings: Settings, target: Path) -> int:
    """``referee backup --to FILE``: an online copy of the SQLite database (bot/backup.py)."""
    from bot.backup import BackupError, backup  # noqa: PLC0415

    if not isinstance(settings.db, Path):
        print("referee backup copies a SQLite file; REFEREE_DB names a PostgreSQL server: "
              "back it up with pg_dump (see the README).", file=sys.stderr)
        return 1
    try:
        report = backup(settings.db, target)
    except BackupError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(report)
    return 0


def run_restore(settings: Settings, source: Path) -> int:
    """``referee restore --from FILE``: a backup back in place of the SQLite database."""
    from bot.backup import BackupError, restore  # noqa: PLC0415

    if not isinstance(settings.db, Path):
        print("referee restore writes a SQLite file; REFEREE_DB names a PostgreSQL server: "
              "restore it with pg_restore or psql.", file=sys.stderr)
        return 1
    try:
        report = restore(source, settings.db)
    except BackupError as exc:
        print(str(exc), file=sys.stderr)
        return 1
    print(report)
    return 0


def migrate_ends(settings: Settings, args: argparse.Namespace) -> tuple[Path, str]:
    """``migrate-db``'s SQLite source and PostgreSQL target, each from its option or, when
    it fits, from ``REFEREE_DB``; a clear SystemExit when one is missing or of the wrong kind."""
    from bot.stores import is_postgres_url  # noqa: PLC0415 - keep `referee --help` light

    env = settings.db
    source = args.source if args.source else (env if isinstance(env, Path) else None)
    target = args.target if args.target else (env if isinstance(env, str) else None)
    if source is None:
        raise SystemExit("referee migrate-db needs the SQLite file: --from FILE "
                         "(REFEREE_DB names a PostgreSQL server, the target).")
    if target is None:
        raise SystemExit("referee migrate-db needs the PostgreSQL database: "
                         "--to postgresql://user:password@host/database (or REFEREE_DB).")
    if is_postgres_url(str(source)):
        raise SystemExit("referee migrate-db --from takes the SQLite file, not a URL.")
    if not is_postgres_url(str(target)):
        raise SystemExit(f"referee migrate-db --to takes a postgresql:// URL, not {str(target)!r}.")
    return Path(source), str(target)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``referee`` console script.  A database that cannot be used (full
    disk, read-only, damaged, unreachable) is said in one sentence, exit code 1, never a
    traceback (issue 29)."""
    from bot.storage import for_operator  # noqa: PLC0415

    args = build_parser().parse_args(argv)
    tune_gc()
    db = getattr(args, "db", None)
    settings = load_settings(db=db) if db else load_settings()
    if args.command == "bot" and (args.shards or args.shard_count):
        settings = shard_settings(settings, args.shards, args.shard_count)
    setup_logging(settings.log_level)
    from bot.seedkey import SeedKeyError  # noqa: PLC0415

    try:
        return _run(args, settings)
    except SeedKeyError as exc:  # the server's seed key unreadable (bot/seedkey.py)
        print(exc, file=sys.stderr)
        return 1
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
        from bot.upgradecli import run_replay  # noqa: PLC0415

        return run_replay(args.file, args.release)
    if command == "check-games":
        from bot.upgradecli import run_check_games  # noqa: PLC0415

        return run_check_games(settings.db)
    if command == "export-html":
        return asyncio.run(run_export_html(settings, args))
    if command == "health":
        return asyncio.run(run_health(settings))
    if command == "scenario":
        return scenariocli.run(args)
    if command == "backup":
        return run_backup(settings, args.target)
    if command == "restore":
        return run_restore(settings, args.source)
    if command == "migrate-db":
        from bot.migratedb import copy_database  # noqa: PLC0415

        source, target = migrate_ends(settings, args)
        counts = asyncio.run(copy_database(source, target))
        print("copied " + ", ".join(f"{n} {table}" for table, n in counts.items() if n))
        return 0
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    sys.exit(main())
