"""Scenarios a club brings (issue 27): ``/game new scenario-file:``, the server's library
(``/mod scenario add:|remove:``, ``/game scenarios``) and the library's SQL (migration 0010).

A file is checked by its system (``GameSystem.scenario_from_file``: limits, located errors,
cross-field rules, a trial set-up) before anything is stored; a refusal is one sentence and
stores nothing.  A game keeps the text it was set up from (``games.scenario_text``), so a
scenario removed from the library later still plays, exports and replays.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from bot import replies
from bot.models import Invocation, Reply, Upload
from bot.declare import File, SystemPick, Text, command
from bot.moderation import require_moderator
from bot.store import BaseStore
from bot.writer import Writer, utcnow
from rules.core import registry, scenariofile
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

if TYPE_CHECKING:
    from bot.pipeline import Pipeline

#: Names in the library: what ``/game new scenario:`` takes (letters, digits, - and _).
NAME_LENGTH = 40


class LibraryEntry(BaseModel):
    """One scenario of a server's library."""

    id: int
    guild_id: str
    system: str
    name: str
    title: str
    text: str
    sha256: str
    added_by: str
    added_by_name: str
    added_at: str


@dataclass(frozen=True)
class Chosen:
    """The scenario ``/game new`` sets up: its key, and the file's text and hash if any."""

    key: str
    title: str
    text: str | None = None
    sha256: str | None = None


def library_key(inv: Invocation) -> str:
    """Whose library: the server's, or a direct-message channel's own."""
    return inv.guild_id or f"dm:{inv.channel_id}"


def upload_bytes(value: Any) -> bytes:
    """The bytes of an attached scenario file, or one sentence: too big (refused before it is
    fetched), unreadable, or no attachment at all."""
    if not isinstance(value, Upload):
        raise RuleError("scenario-file takes an attached file (a .json or .yaml scenario).")
    if value.size >= scenariofile.MAX_BYTES or (value.data is not None and len(value.data) >= scenariofile.MAX_BYTES):
        raise RuleError(f"{value.name[:40]} is {value.size:,} bytes; a scenario may be at most "
                        f"{scenariofile.MAX_BYTES - 1:,} bytes (1 MB).")
    if value.data is None:
        raise RuleError(f"{value.name[:40]} could not be fetched from Discord; attach it again.")
    return value.data


async def checked_file(system: GameSystem[Any], value: Any) -> scenariofile.Checked:
    """A checked scenario file of ``system``, or the first problem as one sentence (the file's
    name first).  Checked in a worker thread: a large file takes a second of CPU, which other
    channels' orders must not wait for."""
    raw = upload_bytes(value)
    named = _named(raw)
    if named is not None and named.key != system.key:
        raise RuleError(f"{value.name[:40]} is a {named.title} scenario, not a {system.title} "
                        f"one; start it with /game new system:{named.key}.")
    try:  # a file that names no system is checked as the one the command names
        return await asyncio.to_thread(system.scenario_from_file, raw)
    except scenariofile.ScenarioError as exc:
        raise RuleError(f"{value.name[:40]} is not a playable {system.title} scenario: {exc}") from None


def _named(raw: bytes) -> GameSystem[Any] | None:
    """The system a file names in its ``system:`` line; None if it names none or cannot be
    read (the check then says why)."""
    from bot.scenariocli import named_system  # noqa: PLC0415

    try:
        return named_system(raw)
    except RuleError:
        return None


async def chosen_scenario(svc: "Pipeline", inv: Invocation, system: GameSystem[Any],
                          opts: dict[str, Any]) -> Chosen:
    """What ``/game new`` sets up: an attached file, a built-in, or a library name."""
    upload = opts.get("scenario-file")
    if upload is not None:
        if opts.get("scenario"):
            raise RuleError("Give scenario: or scenario-file:, not both.")
        checked = await checked_file(system, upload)
        return Chosen(checked.key, replies.user_text(checked.title, 80), checked.text, checked.sha256)
    name = opts.get("scenario") or system.scenarios[0]
    if name in system.scenarios:
        return Chosen(name, name)
    entry = await library_entry(svc.store, library_key(inv), system.key, name)
    if entry is None:
        own = [e.name for e in await library_entries(svc.store, library_key(inv)) if e.system == system.key]
        raise RuleError(f"{system.title} has no scenario '{name[:40]}'; scenarios: "
                        f"{', '.join(list(system.scenarios) + own)} (or attach one: scenario-file:).")
    checked = await asyncio.to_thread(system.scenario_from_file, entry.text)
    return Chosen(checked.key, replies.user_text(entry.title, 80), checked.text, checked.sha256)


def scenario_label(scenario: str, text: str | None) -> str:
    """How ``/game status`` names a game's scenario: a built-in's key, or a file's own key
    and the start of its hash (``ford (file 2a140804fc)``)."""
    if text is None or "~" not in scenario:
        return scenario
    name, _, digest = scenario.partition("~")
    return f"{name} (file {digest})"


def proof_line(chosen: Chosen) -> str:
    """The line ``/game new`` posts beside the dice seed's hash for a scenario from a file."""
    return f"Scenario file hash: `{chosen.sha256}` (SHA-256 of its text; /game export holds it)."


# -- /game scenarios -----------------------------------------------------------------------


@command("scenarios", "The built-in scenarios and this server's own",
         SystemPick("system", "Only this system", required=False), private=True)
async def cmd_scenarios(svc: "Pipeline", inv: Invocation) -> Reply:
    """``/game scenarios [system:]``: the built-in scenarios and the server's own."""
    wanted = inv.options.get("system")
    systems = registry.load_all()
    own = await library_entries(svc.store, library_key(inv))
    lines = ["**Scenarios** (/game new system: scenario:, or attach your own: scenario-file:)"]
    for key, system in systems.items():
        if wanted and key != wanted:
            continue
        lines.append(f"**{system.title}** (`{key}`): built-in {', '.join(system.scenarios)}")
        for entry in (e for e in own if e.system == key):
            lines.append(f"· `{entry.name}` — {replies.user_text(entry.title, 60)}, added by @{entry.added_by_name} "
                         f"on {entry.added_at[:10]}")
    if not own:
        lines.append("This server has no scenarios of its own yet; a moderator adds one with "
                     "/mod scenario add:<file>.")
    return Reply(text="\n".join(lines), ephemeral=True)


# -- /mod scenario add: | remove: ------------------------------------------------------------


def _guess(value: Any) -> GameSystem[Any]:
    """The system a file is written for: the one its ``system:`` line names."""
    from bot.scenariocli import named_system  # noqa: PLC0415

    try:
        return named_system(upload_bytes(value))
    except scenariofile.ScenarioError as exc:
        raise RuleError(f"{replies.user_text(str(getattr(value, 'name', 'The file')), 40)} cannot be read: {exc}") from None


def _name(text: str) -> str:
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in text.strip().lower()).strip("-")
    if not name or len(name) > NAME_LENGTH:
        raise RuleError(f"A library name is 1 to {NAME_LENGTH} letters, digits, - or _; "
                        f"not '{text[:NAME_LENGTH]}'.")
    return name


@command("scenario", "Keep a scenario file in this server's library, or take one out",
         File("add", "A scenario file to keep (.json or .yaml)", required=False),
         Text("remove", "The name of a scenario to take out", required=False),
         Text("name", "Its name in the library (default: its key)", required=False),
         SystemPick("system", "Its system (default: found from the file)", required=False),
         moderator_only=True)
async def cmd_mod_scenario(svc: "Pipeline", inv: Invocation) -> Reply:
    """``/mod scenario add:<file> [name:] [system:]`` keeps a checked file in the server's
    library; ``/mod scenario remove:<name> [system:]`` takes one out (its games keep it)."""
    opts = inv.options
    require_moderator(inv, svc.settings.moderator_role, "scenario",
                      "anyone may play a file with /game new scenario-file:")
    if ("add" in opts) == ("remove" in opts):
        raise RuleError("Give add:<file> to keep a scenario, or remove:<name> to take one out.")
    guild = library_key(inv)
    if "remove" in opts:
        name = _name(str(opts["remove"]))
        entries = [e for e in await library_entries(svc.store, guild) if e.name == name
                   and (not opts.get("system") or e.system == opts["system"])]
        if not entries:
            names = ", ".join(sorted({e.name for e in await library_entries(svc.store, guild)})) or "none"
            raise RuleError(f"This server's library has no scenario '{name}'; its scenarios: {names}.")
        if len(entries) > 1:
            raise RuleError(f"'{name}' is a scenario of {', '.join(e.system for e in entries)}; "
                            "say which with system:.")
        reply = Reply(text=f"🗂️ @{inv.user_name} removed the {entries[0].system} scenario "
                           f"`{name}` from this server's library; games begun on it play on.")
        async with svc.store.transaction() as db:
            remove_entry(db, entries[0].id, inv.user_id)
            _remember(db, inv, reply)
        return reply
    system = registry.get(opts["system"]) if opts.get("system") else _guess(opts["add"])
    checked = await checked_file(system, opts["add"])
    # The default name is the file's own key (the registry key is that key and a hash).
    name = _name(str(opts.get("name") or checked.key.split("~")[0]))
    if name in system.scenarios:
        raise RuleError(f"'{name}' is a built-in {system.title} scenario; give another name: name:.")
    if await library_entry(svc.store, guild, system.key, name) is not None:
        raise RuleError(f"This server already has a {system.title} scenario '{name}'; remove it "
                        "first (/mod scenario remove:) or give another name: name:.")
    reply = Reply(text=f"🗂️ @{inv.user_name} added **{replies.user_text(checked.title, 80)}** to this server's "
                       f"{system.title} scenarios as `{name}`: /game new system:{system.key} "
                       f"scenario:{name}\nSHA-256 `{checked.sha256}`")
    async with svc.store.transaction() as db:
        add_entry(db, guild, system.key, name, checked, inv)
        _remember(db, inv, reply)
    return reply


def _remember(db: Writer, inv: Invocation, reply: Reply) -> None:
    """Keep the reply with the change it acknowledges, in one transaction: a repeated
    delivery of the interaction is answered from the record, not run again ("already has")."""
    if inv.interaction_id:
        db.remember_reply(inv.interaction_id, None, reply.model_dump_json())


# -- the library's SQL ------------------------------------------------------------------------

_COLUMNS = "id, guild_id, system, name, title, text, sha256, added_by, added_by_name, added_at"


def _entry(row: Any) -> LibraryEntry:
    return LibraryEntry(**{k: row[i] for i, k in enumerate(_COLUMNS.split(", "))})


async def library_entries(store: BaseStore, guild_id: str) -> list[LibraryEntry]:
    """A server's scenarios in the library (removed ones left out), by system and name."""
    async with store.transaction() as db:
        rows = await db.fetchall(
            f"SELECT {_COLUMNS} FROM scenario_library WHERE guild_id = ? AND removed_at IS NULL"
            " ORDER BY system, name", (guild_id,))
    return [_entry(r) for r in rows]


async def library_entry(store: BaseStore, guild_id: str, system: str, name: str) -> LibraryEntry | None:
    """One scenario of a server's library by system and name, if it is there."""
    async with store.transaction() as db:
        row = await db.fetchone(
            f"SELECT {_COLUMNS} FROM scenario_library WHERE guild_id = ? AND system = ?"
            " AND name = ? AND removed_at IS NULL", (guild_id, system, name))
    return _entry(row) if row else None


def add_entry(db: Writer, guild_id: str, system: str, name: str, checked: scenariofile.Checked,
              inv: Invocation) -> None:
    """Keep a checked scenario in a server's library."""
    db.execute(
        "INSERT INTO scenario_library (guild_id, system, name, title, text, sha256, added_by,"
        " added_by_name, added_at) VALUES (?,?,?,?,?,?,?,?,?)",
        (guild_id, system, name, checked.title[:200], checked.text, checked.sha256, inv.user_id,
         inv.user_name, utcnow()))


def remove_entry(db: Writer, entry_id: int, user_id: str) -> None:
    """Take a scenario out of the library (the row stays, marked removed)."""
    db.execute("UPDATE scenario_library SET removed_at = ?, removed_by = ? WHERE id = ?",
               (utcnow(), user_id, entry_id))


__all__ = ["Chosen", "LibraryEntry", "checked_file", "chosen_scenario", "cmd_mod_scenario",
           "cmd_scenarios", "library_entries", "proof_line", "upload_bytes"]
