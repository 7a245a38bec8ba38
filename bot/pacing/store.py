"""Every SQL statement of pacing (migration 0006), in one place, in :mod:`bot.store`'s style.

Writes are functions on a :class:`~bot.writer.Writer`, so a command's pacing rows are
committed in the same transaction as its audit entry and reply.  The statements are plain
SQL that PostgreSQL runs as well (``ON CONFLICT``, ``RETURNING``, partial unique index): a
message is claimed by one conditional ``UPDATE … WHERE state = 'due' RETURNING id``, the
guarantee that one process, once, sends it.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from bot.pacing.clock import iso, parse_iso
from bot.pacing.times import DEFAULT_REMINDERS
from bot.store import BaseStore
from bot.writer import Writer


class Pace(BaseModel):
    """A game's pace and the deadline of its current turn-part."""

    game_id: int
    channel_id: str = ""
    hours: float | None = None
    #: "pass": the bot makes the system's idle order; "ai": the computer plays the silent
    #: side until its player is back (issue 43; kept in ``bot_meta``, :func:`save_then`).
    on_deadline: str = "nothing"
    reminders: list[str] = Field(default_factory=lambda: list(DEFAULT_REMINDERS))
    part_key: str | None = None
    part_started: datetime | None = None
    deadline_at: datetime | None = None


class Scheduled(BaseModel):
    """A message the bot sends on its own: a reminder, a deadline passing, a digest."""

    id: int = 0
    game_id: int
    channel_id: str
    kind: str  # reminder, deadline, digest
    part_key: str
    side: str = ""
    due_at: datetime
    data: dict[str, Any] = Field(default_factory=dict)


def digest_message(game_id: int, channel_id: str, turn: tuple[int, str], head_seq: int,
                   now: datetime) -> Scheduled:
    """The digest of ``turn``, which step ``head_seq`` ended, due now (one per game turn and
    head step: :func:`schedule` adds it once)."""
    return Scheduled(
        game_id=game_id, channel_id=channel_id, kind="digest",
        part_key=f"turn:{turn[0]}:{head_seq}", due_at=now,
        data={"turn": turn[0], "word": turn[1], "head": head_seq},
    )


class Away(BaseModel):
    """A player away until a time."""

    user_id: str
    user_name: str
    until: datetime


class SubOffer(BaseModel):
    """A side offered to a substitute."""

    to_user_id: str
    to_user_name: str
    side: str
    from_user_id: str


# -- reads ---------------------------------------------------------------------------------

#: ``then:ai`` (issue 43) is kept in ``bot_meta`` beside the column (whose CHECK knows
#: ``nothing`` and ``pass``), and read over it.
_PACE_COLUMNS = ("p.game_id, g.channel_id, p.hours, COALESCE((SELECT NULLIF(m.value, '') FROM bot_meta m"
                 " WHERE m.key = 'pace-then:' || p.game_id), p.on_deadline), p.remind_json, p.part_key,"
                 " p.part_started, p.deadline_at")


def _pace(row: Any) -> Pace:
    return Pace(
        game_id=row[0], channel_id=row[1], hours=row[2], on_deadline=row[3],
        reminders=json.loads(row[4]), part_key=row[5],
        part_started=parse_iso(row[6]) if row[6] else None,
        deadline_at=parse_iso(row[7]) if row[7] else None,
    )


_MESSAGE_COLUMNS = "id, game_id, channel_id, kind, part_key, side, due_at, data_json"


def _message(row: Any) -> Scheduled:
    return Scheduled(id=row[0], game_id=row[1], channel_id=row[2], kind=row[3], part_key=row[4],
                     side=row[5], due_at=parse_iso(row[6]), data=json.loads(row[7]))


async def active_paces(store: BaseStore) -> dict[int, Pace]:
    """The pace of every active game that has one, by game id."""
    async with store.transaction() as db:
        rows = await db.fetchall(
            f"SELECT {_PACE_COLUMNS} FROM game_pace p JOIN games g ON g.id = p.game_id"
            " WHERE g.status = 'active'")
    return {row[0]: _pace(row) for row in rows}


async def pace_of(db: Writer, game_id: int) -> Pace | None:
    """One game's pace, read inside a transaction."""
    row = await db.fetchone(
        f"SELECT {_PACE_COLUMNS} FROM game_pace p JOIN games g ON g.id = p.game_id"
        " WHERE p.game_id = ?", (game_id,))
    return _pace(row) if row else None


#: How many due messages are read at once (a tick reads page after page).
DUE_BATCH = 50


async def due_messages(store: BaseStore, now: datetime, limit: int = DUE_BATCH,
                       after: tuple[datetime, int] | None = None) -> list[Scheduled]:
    """Messages due by ``now`` and not yet sent, oldest first; ``after``: only those after
    the message due then with that id (the next page: messages still due because they
    failed come again on the next tick, not before the ones after them)."""
    since = "" if after is None else " AND (due_at > ? OR (due_at = ? AND id > ?))"
    more: tuple[Any, ...] = () if after is None else (iso(after[0]), iso(after[0]), after[1])
    async with store.transaction() as db:
        rows = await db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM scheduled_messages"
            f" WHERE state = 'due' AND due_at <= ?{since} ORDER BY due_at, id"
            " LIMIT ?", (iso(now), *more, limit))
    return [_message(r) for r in rows]


async def pending_messages(store: BaseStore, game_id: int) -> list[Scheduled]:
    """A game's messages not yet sent, earliest first (``/game status`` and tests)."""
    async with store.transaction() as db:
        rows = await db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM scheduled_messages"
            " WHERE game_id = ? AND state = 'due' ORDER BY due_at, id",
            (game_id,))
    return [_message(r) for r in rows]


async def away_players(db: Writer, game_id: int, now: datetime) -> list[Away]:
    """The players of a game away at ``now``."""
    rows = await db.fetchall(
        "SELECT user_id, user_name, until_at FROM away WHERE game_id = ? AND until_at > ?"
        " ORDER BY user_id", (game_id, iso(now)))
    return [Away(user_id=r[0], user_name=r[1], until=parse_iso(r[2])) for r in rows]


async def proposals(db: Writer, game_id: int, setting: str) -> dict[str, str]:
    """``user_id -> value`` of a setting proposed by players."""
    rows = await db.fetchall(
        "SELECT user_id, value_json FROM pace_proposals WHERE game_id = ? AND setting = ?",
        (game_id, setting))
    return {r[0]: r[1] for r in rows}


async def sub_offer(db: Writer, game_id: int, to_user_id: str) -> SubOffer | None:
    """The side offered to a user in a game, if any."""
    row = await db.fetchone(
        "SELECT to_user_id, to_user_name, side, from_user_id FROM sub_offers"
        " WHERE game_id = ? AND to_user_id = ?", (game_id, to_user_id))
    return SubOffer(to_user_id=row[0], to_user_name=row[1], side=row[2],
                    from_user_id=row[3]) if row else None


# -- writes --------------------------------------------------------------------------------

def save_pace(db: Writer, pace: Pace, now: datetime) -> None:
    """Insert or replace a game's pace row."""
    db.execute(
        "INSERT INTO game_pace (game_id, hours, on_deadline, remind_json, part_key, part_started,"
        " deadline_at, updated_at) VALUES (?,?,?,?,?,?,?,?)"
        " ON CONFLICT (game_id) DO UPDATE SET hours = excluded.hours,"
        " on_deadline = excluded.on_deadline, remind_json = excluded.remind_json,"
        " part_key = excluded.part_key, part_started = excluded.part_started,"
        " deadline_at = excluded.deadline_at, updated_at = excluded.updated_at",
        (pace.game_id, pace.hours, pace.on_deadline if pace.on_deadline in ("nothing", "pass") else "nothing",
         json.dumps(pace.reminders), pace.part_key,
         iso(pace.part_started) if pace.part_started else None,
         iso(pace.deadline_at) if pace.deadline_at else None, iso(now)),
    )


def save_then(db: Writer, game_id: int, then: str) -> None:
    """Keep what a deadline makes the bot do where the column cannot: ``ai`` in ``bot_meta``
    (empty for ``nothing`` and ``pass``, which the column holds)."""
    db.set_meta(f"pace-then:{game_id}", "ai" if then == "ai" else "")


async def claim_part(db: Writer, game_id: int, old_key: str | None, new_key: str,
                     version: int) -> bool:
    """Move a game's pace to a new turn-part, only if it is still at ``old_key`` and the
    game still at ``version``, the one the new turn-part was read from: of two processes
    noticing the same new turn-part, one schedules its reminders, and a copy of the game
    read before a later commit (a tick holds no channel's turn) never moves the pace back
    to a turn-part that commit ended."""
    rows = await db.fetchall(
        "UPDATE game_pace SET part_key = ? WHERE game_id = ? AND COALESCE(part_key, '') = ?"
        " AND EXISTS (SELECT 1 FROM games WHERE games.id = game_pace.game_id"
        " AND games.version = ?) RETURNING game_id", (new_key, game_id, old_key or "", version))
    return bool(rows)


#: No condition (:func:`still_at`): the statement runs as written.
ALWAYS: tuple[str, tuple[Any, ...]] = ("", ())


def still_at(game_id: int, old_key: str | None, new_key: str) -> tuple[str, tuple[Any, ...]]:
    """The condition (SQL and its values) under which a commit's new turn-part rows are
    written (:func:`move_part`): the pace is at the part the command saw, or already moved
    by this very transaction (the unit's statements run in turn: on PostgreSQL too, as a
    script, since ``bot.pgstore.unit_statement`` makes no one statement of a unit with a
    ``SELECT`` or an ``ON CONFLICT``).  A pace another process moved meanwhile gets none."""
    return (" AND EXISTS (SELECT 1 FROM game_pace WHERE game_id = ?"
            " AND COALESCE(part_key, '') IN (?, ?))", (game_id, old_key or "", new_key))


def move_part(db: Writer, pace: Pace, old_key: str | None, now: datetime) -> None:
    """In a command's own transaction: move a game's pace to ``pace``'s turn-part and drop
    the other parts' messages, only if the pace is still at ``old_key`` (of two processes
    noticing the same new turn-part, one schedules its reminders, as :func:`claim_part`;
    the new part's messages go with :func:`schedule` under :func:`still_at`); reads
    nothing back."""
    new_key = pace.part_key or ""
    db.execute(
        "UPDATE game_pace SET part_key = ?, part_started = ?, deadline_at = ?, updated_at = ?"
        " WHERE game_id = ? AND COALESCE(part_key, '') = ?",
        (new_key, iso(pace.part_started) if pace.part_started else None,
         iso(pace.deadline_at) if pace.deadline_at else None, iso(now), pace.game_id, old_key or ""))
    drop_other_parts(db, pace.game_id, new_key, still_at(pace.game_id, old_key, new_key))


def drop_other_parts(db: Writer, game_id: int, part_key: str,
                     condition: tuple[str, tuple[Any, ...]] = ALWAYS) -> None:
    """Reminders and deadline notices of other turn-parts will never be sent (but a notice
    acted on and due again because posting it failed, ``sent_by`` set, still is); only
    under ``condition`` (:func:`still_at`)."""
    db.execute(
        "UPDATE scheduled_messages SET state = 'dropped' WHERE game_id = ? AND state = 'due'"
        " AND kind IN ('reminder', 'deadline') AND part_key <> ? AND sent_by IS NULL"
        + condition[0], (game_id, part_key, *condition[1]))


def drop_part(db: Writer, game_id: int) -> None:
    """Every reminder and deadline notice of a game still due is dropped (rescheduling),
    but one acted on whose posting failed."""
    db.execute(
        "UPDATE scheduled_messages SET state = 'dropped' WHERE game_id = ? AND state = 'due'"
        " AND kind IN ('reminder', 'deadline') AND sent_by IS NULL", (game_id,))


def schedule(db: Writer, message: Scheduled, now: datetime,
             condition: tuple[str, tuple[Any, ...]] = ALWAYS) -> None:
    """Add a message to send; one already there for the same moment is due again if it was
    dropped, and left alone if it was sent; a turn's digest is added once.  Only under
    ``condition`` (:func:`still_at`: a commit's new turn-part)."""
    tail = (" ON CONFLICT DO NOTHING" if message.kind == "digest" else
            " ON CONFLICT (game_id, kind, part_key, side, due_at) DO UPDATE SET state = 'due',"
            " data_json = excluded.data_json WHERE scheduled_messages.state = 'dropped'")
    # ``SELECT … WHERE`` rather than ``VALUES`` only with a condition: the plain insert stays
    # one that PostgreSQL's one-statement unit may take.
    values = "VALUES (?,?,?,?,?,?,?,?)" if not condition[0] else \
        "SELECT ?,?,?,?,?,?,?,? WHERE TRUE" + condition[0]
    db.execute(
        "INSERT INTO scheduled_messages (game_id, channel_id, kind, part_key, side, due_at,"
        " data_json, created_at) " + values + tail,
        (message.game_id, message.channel_id, message.kind, message.part_key, message.side,
         iso(message.due_at), json.dumps(message.data), iso(now), *condition[1]),
    )


async def claim_message(db: Writer, message_id: int, process: str, now: datetime,
                        data: dict[str, Any] | None = None) -> bool:
    """Mark a message sent before sending it; True only for the one caller that did.
    At most once: a crash after this loses the message rather than sending it twice.
    ``data``: the message's data as sent (a digest keeps what it said, to compare a later
    digest of the same turn with)."""
    kept, more = ("", ()) if data is None else (", data_json = ?", (json.dumps(data),))
    rows = await db.fetchall(
        f"UPDATE scheduled_messages SET state = 'sent', sent_by = ?, sent_at = ?{kept}"
        " WHERE id = ? AND state = 'due' RETURNING id", (process, iso(now), *more, message_id))
    return bool(rows)


def claim_with(db: Writer, message: Scheduled, process: str, now: datetime) -> None:
    """Mark a deadline's message sent inside the transaction of the order it gives (a
    ``Change.extra``): only while it is due and its game's pace is still at its turn-part,
    else :class:`~bot.writer.Conflict` and the order is not stored either.  So the order
    and the message being sent are one fact: neither is kept without the other."""
    db.execute_guarded(
        "UPDATE scheduled_messages SET state = 'sent', sent_by = ?, sent_at = ?"
        " WHERE id = ? AND state = 'due' AND EXISTS (SELECT 1 FROM game_pace"
        " WHERE game_pace.game_id = scheduled_messages.game_id"
        " AND game_pace.part_key = scheduled_messages.part_key)",
        (process, iso(now), message.id))


async def release_message(db: Writer, message_id: int, process: str, data: dict[str, Any]) -> bool:
    """A message this process claimed could not be posted: due again, with ``data`` (the
    reply kept, the tries counted), for the next tick.  ``sent_by`` stays: what it told
    is done (a deadline's order is stored), so no new turn-part drops it.  True if it was
    still ours."""
    rows = await db.fetchall(
        "UPDATE scheduled_messages SET state = 'due', sent_at = NULL, data_json = ?"
        " WHERE id = ? AND state = 'sent' AND sent_by = ? RETURNING id",
        (json.dumps(data), message_id, process))
    return bool(rows)


async def sent_digests(store: BaseStore, game_id: int, turn: int) -> list[Scheduled]:
    """The digests of a game's turn ``turn`` already posted, the latest first (a turn that
    ends again after a step of it was taken back; Raiders' Ops restart each mission, so
    the caller compares the word too)."""
    async with store.transaction() as db:
        rows = await db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM scheduled_messages"
            " WHERE game_id = ? AND kind = 'digest' AND state = 'sent'"
            " AND part_key LIKE ? ORDER BY id DESC", (game_id, f"turn:{turn}:%"))
    return [_message(r) for r in rows]


async def is_due(store: BaseStore, message_id: int) -> bool:
    """Whether a message is still due (not sent, not dropped)."""
    async with store.transaction() as db:
        row = await db.fetchone("SELECT state FROM scheduled_messages WHERE id = ?", (message_id,))
    return row is not None and row[0] == "due"


async def deadline_notices(store: BaseStore, game_id: int) -> list[tuple[str, str, datetime]]:
    """Every deadline notice a game was given, oldest first: its turn-part's key, its state
    (``sent``: told as passed; ``dropped``: the game moved on before it, or it was set
    again; ``due``: not told yet) and its deadline.  A league reads a game's kept deadlines
    from them (``bot/league/deadlines.py``)."""
    async with store.transaction() as db:
        rows = await db.fetchall(
            "SELECT part_key, state, due_at FROM scheduled_messages WHERE game_id = ? AND kind = 'deadline'"
            " ORDER BY id", (game_id,))
    return [(str(r[0]), str(r[1]), parse_iso(r[2])) for r in rows]


def drop_message(db: Writer, message_id: int) -> None:
    """A message that will not be sent (the game moved on, the player is away)."""
    db.execute("UPDATE scheduled_messages SET state = 'dropped' WHERE id = ? AND state = 'due'",
               (message_id,))


def set_away(db: Writer, game_id: int, user_id: str, user_name: str, until: datetime) -> None:
    """A player is away until ``until``."""
    db.execute(
        "INSERT INTO away (game_id, user_id, user_name, until_at) VALUES (?,?,?,?)"
        " ON CONFLICT (game_id, user_id) DO UPDATE SET user_name = excluded.user_name,"
        " until_at = excluded.until_at", (game_id, user_id, user_name, iso(until)))


def clear_away(db: Writer, game_id: int, user_id: str) -> None:
    """A player is back."""
    db.execute("DELETE FROM away WHERE game_id = ? AND user_id = ?", (game_id, user_id))


def propose(db: Writer, game_id: int, setting: str, user_id: str, value: str, now: datetime) -> None:
    """A player's vote for a setting (their earlier vote is replaced)."""
    db.execute(
        "INSERT INTO pace_proposals (game_id, setting, user_id, value_json, created_at)"
        " VALUES (?,?,?,?,?) ON CONFLICT (game_id, setting, user_id) DO UPDATE SET"
        " value_json = excluded.value_json, created_at = excluded.created_at",
        (game_id, setting, user_id, value, iso(now)))


def clear_proposals(db: Writer, game_id: int, setting: str) -> None:
    """A setting took effect: the votes are spent."""
    db.execute("DELETE FROM pace_proposals WHERE game_id = ? AND setting = ?", (game_id, setting))


def offer_sub(db: Writer, game_id: int, offer: SubOffer, now: datetime) -> None:
    """Offer a side to a substitute (replacing an earlier offer to them)."""
    db.execute(
        "INSERT INTO sub_offers (game_id, to_user_id, to_user_name, side, from_user_id, created_at)"
        " VALUES (?,?,?,?,?,?) ON CONFLICT (game_id, to_user_id) DO UPDATE SET"
        " to_user_name = excluded.to_user_name, side = excluded.side,"
        " from_user_id = excluded.from_user_id, created_at = excluded.created_at",
        (game_id, offer.to_user_id, offer.to_user_name, offer.side, offer.from_user_id, iso(now)))


def clear_sub_offers(db: Writer, game_id: int, side: str) -> None:
    """Offers of a side are void once it changed hands."""
    db.execute("DELETE FROM sub_offers WHERE game_id = ? AND side = ?", (game_id, side))


__all__ = [
    "ALWAYS", "DUE_BATCH", "Away", "Pace", "Scheduled", "SubOffer", "active_paces", "away_players",
    "claim_message", "claim_part", "claim_with", "clear_away", "clear_proposals",
    "clear_sub_offers", "deadline_notices", "digest_message", "drop_message", "drop_other_parts", "drop_part",
    "due_messages", "is_due", "move_part", "offer_sub", "pace_of", "pending_messages", "propose",
    "proposals", "release_message", "save_pace", "schedule", "sent_digests", "set_away",
    "still_at", "sub_offer",
]
