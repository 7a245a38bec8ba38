"""Announcements owed to a channel: a committed step's reply that could not be delivered.

The Discord front end keeps one here when both the interaction and ``channel.send`` failed
(see :mod:`bot.discord.delivery`), and delivers it with the next reply in that channel.
They live in SQLite (``owed_announcements``, migration 0005) so a restart does not lose them.
Which channels owe anything is kept in memory, so the common case costs no query.
"""

from __future__ import annotations

from bot.models import Reply
from bot.store import BaseStore
from bot.writer import Writer, utcnow


class OwedAnnouncements:
    """The owed announcements of every channel, over one :class:`BaseStore`."""

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        #: Channels with at least one owed announcement; None until first read.
        self._channels: set[str] | None = None

    async def _owing(self) -> set[str]:
        if self._channels is None:
            async with self.store.transaction() as db:
                rows = await db.fetchall("SELECT DISTINCT channel_id FROM owed_announcements")
            self._channels = {row[0] for row in rows}
        return self._channels

    async def owe(self, channel_id: str, reply: Reply) -> None:
        """Keep ``reply`` (text, mentions and the map it names) for the channel's next reply:
        a late announcement carries its map (issue 25), drawn again from the step."""
        kept = reply.model_copy(update={"attachments": []})
        async with self.store.transaction() as db:
            db.execute(
                "INSERT INTO owed_announcements (channel_id, reply_json, created_at) VALUES (?,?,?)",
                (channel_id, kept.model_dump_json(), utcnow()),
            )
        (await self._owing()).add(channel_id)

    @staticmethod
    def insert(db: Writer, channel_id: str, reply: Reply) -> None:
        """Write an owed announcement inside a command's own transaction (an ended game's
        page, the public line of an order answered privately); then call :meth:`owing`."""
        db.execute("INSERT INTO owed_announcements (channel_id, reply_json, created_at) VALUES (?,?,?)",
                   (channel_id, reply.model_dump_json(), utcnow()))

    def owing(self, channel_id: str) -> None:
        """A command wrote an owed announcement in its own transaction (the HTML page of an
        ended game): look for it with the channel's next reply."""
        if self._channels is not None:
            self._channels.add(channel_id)

    async def owed(self, channel_id: str) -> list[tuple[int, Reply]]:
        """The channel's owed announcements, oldest first, with their ids."""
        if channel_id not in await self._owing():
            return []
        async with self.store.transaction() as db:
            rows = await db.fetchall(
                "SELECT id, reply_json FROM owed_announcements WHERE channel_id = ? ORDER BY id",
                (channel_id,),
            )
        if not rows:
            (await self._owing()).discard(channel_id)
        return [(row[0], Reply.model_validate_json(row[1])) for row in rows]

    async def settle(self, owed_id: int) -> None:
        """An owed announcement was delivered: forget it."""
        async with self.store.transaction() as db:
            db.execute("DELETE FROM owed_announcements WHERE id = ?", (owed_id,))
