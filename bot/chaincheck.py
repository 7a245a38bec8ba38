"""The stored records checked against their hash chain (issue 45): what ``referee health``
reads, and why the console will not start on a damaged record.

SQLite's integrity check reads pages, not meaning: one byte changed in a stored state passed
it, ``referee health`` and the log check, and only an export run through the verifier
noticed.  Here every record of every game is hashed again from its stored content, as the
verifier hashes it from an export (``bot/chain.py``), and the revert marks and the head are
worked out again from the records in the order they were written: each rollback, reroll
and undo reverts the active line above its base, a rollback forward makes its steps active
again, a step written becomes the head, a rollback moves it to its target; a rollback to
another line and ``/mod rules-adopt`` (issue 42) revert above the step the lines share.  A
revert mark deleted (a public rollback undone outside the record) or a head moved is named with the
audit entry it contradicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot import chain, record
from bot.store import AuditRow, BaseStore, GameRow, StepRow

#: The most problems named for one game (a database rewritten wholesale names its first).
SHOWN = 8


async def record_problems(store: BaseStore) -> list[str]:
    """Every problem of every game's stored records (empty: each record matches its hash
    and the marks and heads are the ones its records make)."""
    damaged = await damaged_games(store, await store.game_ids())
    return [f"game {game_id}: {p}" for game_id, found in damaged.items() for p in found]


async def damaged_games(store: BaseStore, game_ids: list[int]) -> dict[int, list[str]]:
    """The games of ``game_ids`` whose stored records fail the check, each with its first
    :data:`SHOWN` problems (``referee health`` reads every game; the bot, when it starts,
    its running ones, which it then refuses to play: issue 45)."""
    damaged: dict[int, list[str]] = {}
    for game_id in game_ids:
        game = await store.game(game_id)
        steps, audit = await store.steps(game_id), await store.audit(game_id)
        found = content_problems(steps, audit) + links_problems(game, steps, audit) + \
            marks_problems(game, steps, audit)
        if found:
            damaged[game_id] = found[:SHOWN]
    return damaged


def content_problems(steps: list[StepRow], audit: list[AuditRow]) -> list[str]:
    """Each hashed record whose stored content does not give its hash."""
    problems = []
    for step in steps:
        if step.hash and step.prev_hash is not None and step.hash != chain.step_hash(
                step.prev_hash, record.step_fields(step, None), state_json=step.state_json):
            problems.append(f"step #{step.seq}: its stored content does not match its hash"
                            " (changed after it was written)")
    for entry in audit:
        if entry.hash and entry.prev_hash is not None and \
                entry.hash != chain.audit_hash(entry.prev_hash, record.audit_fields(entry)):
            problems.append(f"audit entry {entry.id} ({entry.action}): its stored content does not"
                            " match its hash (changed after it was written)")
    return problems


@dataclass
class _Line:
    """The head and revert marks as the records, replayed in the order written, make them."""

    parents: dict[int, int | None]
    head: int | None = None
    marks: dict[int, int] = field(default_factory=dict)

    def written(self, step: StepRow) -> None:
        self.head = step.seq

    def audited(self, entry: AuditRow) -> None:
        data = entry.data
        direction = data.get("direction") if entry.action == "rollback" else None
        if direction == "forward":
            for seq in data.get("steps") or []:
                self.marks.pop(seq, None)
            self.head = data.get("to")
            return
        base = self._base(entry)
        if base is None:
            return  # an entry that reverts nothing (seat, kick, look, end, …)
        self._revert_above(base, entry.id)
        if direction == "across":
            # To another line (issue 42): back to the step the two share, then the target's
            # line made active again above it.
            for seq in self._line(data.get("to")):
                if seq > base:
                    self.marks.pop(seq, None)
        self.head = self._head_after(entry, base)

    def _base(self, entry: AuditRow) -> int | None:
        """The step above which ``entry`` reverted the active line (None: it reverts none)."""
        data, base = entry.data, None
        if entry.action == "rollback":
            base = {"back": data.get("to"), "across": data.get("base")}.get(str(data.get("direction")))
        elif entry.action == "reroll":
            base = data["step"] - 1 if isinstance(data.get("step"), int) else None
        elif entry.action == "undo":
            base = self.parents.get(data.get("seq", -1))
        elif entry.action == "rules-adopt":  # issue 42: from the parent of the first re-derived
            base = self.parents.get(data.get("from", -1))
        return base if isinstance(base, int) else None

    def _revert_above(self, base: int, audit_id: int) -> None:
        seq = self.head
        while seq is not None and seq > base:
            self.marks.setdefault(seq, audit_id)
            seq = self.parents.get(seq)

    def _line(self, seq: object) -> list[int]:
        line: list[int] = []
        current = seq if isinstance(seq, int) else None
        while current is not None and current in self.parents and current not in line:
            line.append(current)
            current = self.parents[current]
        return line

    def _head_after(self, entry: AuditRow, base: int) -> int | None:
        """The rollback's target; the base of a re-derivation; the parent of the step rerolled
        or undone (the steps applied again are records of their own, after this one)."""
        data = entry.data
        if entry.action == "rollback":
            to = data.get("to")
            return to if isinstance(to, int) else None
        if entry.action == "rules-adopt":
            return base
        undone = data.get("step", data.get("seq"))
        return self.parents.get(undone if isinstance(undone, int) else -1)


def links_problems(game: GameRow, steps: list[StepRow], audit: list[AuditRow]) -> list[str]:
    """The records as one line: each follows the one whose hash it names, from the first to
    the game's stored chain head, as many as the game counts (a record deleted from the
    middle leaves the line broken there; one deleted from its end, the head and count moved
    with it, is for the channel's heads to catch: ``tools/verify_dice.py``)."""
    records: list[StepRow | AuditRow] = [s for s in steps if s.hash] + [a for a in audit if a.hash]
    if not records:
        return []  # a game older than the chain
    hashes = {r.hash for r in records}
    starts = [r for r in records if r.prev_hash not in hashes]
    problems = [f"{_named(r)} follows a record that is not there (a record before it was removed)"
                for r in starts[1:]]
    order = _chain_order(steps, audit)
    if not problems and len(order) < len(records):
        problems.append(f"its records fork: {len(records) - len(order)} of them are off the line")
    if order and game.chain_head and order[-1].hash != game.chain_head:
        problems.append(f"its stored chain head {chain.short(game.chain_head)} is not its last record"
                        f" ({_named(order[-1])}, {chain.short(order[-1].hash or '')})")
    if game.chain_count and game.chain_count != len(records):
        problems.append(f"it counts {game.chain_count} records, but holds {len(records)}")
    return problems


def _named(item: StepRow | AuditRow) -> str:
    return f"step #{item.seq}" if isinstance(item, StepRow) else f"audit entry {item.id} ({item.action})"


def marks_problems(game: GameRow, steps: list[StepRow], audit: list[AuditRow]) -> list[str]:
    """The stored revert marks and head against those the records make (issue 45: no hash
    covers a mark, so a deleted one broke nothing before)."""
    line = _Line({s.seq: s.parent_seq for s in steps})
    for item in _chain_order(steps, audit):
        if isinstance(item, StepRow):
            line.written(item)
        else:
            line.audited(item)
    if line.head is None:
        return []  # a game older than the chain: nothing to replay
    named = {a.id: a for a in audit}
    problems = [_mark_problem(s, line.marks.get(s.seq), named) for s in steps
                if s.hash and s.reverted_by != line.marks.get(s.seq)]
    if game.head_seq != line.head:
        problems.append(f"its head is step #{game.head_seq}, but its records put it at step #{line.head}:"
                        " the head was moved outside the record")
    return problems


def _mark_problem(step: StepRow, made: int | None, audit: dict[int, AuditRow]) -> str:
    if made is None:
        return f"step #{step.seq} is marked reverted by audit entry {step.reverted_by}, but no record reverts it"
    entry = audit[made]
    return (f"step #{step.seq} is {'active' if step.reverted_by is None else 'marked otherwise'}, but audit"
            f" entry {made} ({entry.action}) reverted it and no record made it active again: the revert"
            " was undone outside the record")


def _chain_order(steps: list[StepRow], audit: list[AuditRow]) -> list[StepRow | AuditRow]:
    """The hashed records in the order they were written: each follows the one whose hash
    it names (the first follows none of them)."""
    records: list[StepRow | AuditRow] = [s for s in steps if s.hash] + [a for a in audit if a.hash]
    after = {r.prev_hash: r for r in records}
    hashes = {r.hash for r in records}
    start = next((r.prev_hash for r in records if r.prev_hash not in hashes), None)
    order: list[StepRow | AuditRow] = []
    while start in after and len(order) < len(records):
        order.append(after[start])
        start = after[start].hash
    return order


__all__ = ["content_problems", "damaged_games", "links_problems", "marks_problems", "record_problems"]
