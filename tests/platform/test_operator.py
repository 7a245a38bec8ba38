"""The chain against an operator who holds the database (issue 45, breaks 1 to 4).

Each attack is written the way the issue's attacker made it: the export forged with every
hash recomputed, or the SQLite rows edited while the bot is stopped (a row hashed with the
public algorithm on top of ``games.chain_head``, the head moved), the bot started again and
the game played on.  The verifier is then given what the channel saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gzip
import hashlib
import io
import json
import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot import cli, record
from bot.config import Settings
from bot.ledger import Ledger, Outcome
from bot.pipeline import apply_recorded
from bot.replay import replay
from bot.service import Service
from rules.core import registry
from rules.core.dice import RecordedDice
from tests.platform.conftest import Table
from tests.platform.test_verify_dice import chain_position, channel_file, reseal, run, step
from tests.platform.test_verify_dice import game  # noqa: F401 - the finished game, played once a module
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite: the attacks edit the file's rows as an operator would."""
    return tmp_path / "referee.sqlite3"


class Channel:
    """A channel whose service can be stopped and started again around an operator's edit;
    every public message is kept, as a channel's history keeps it."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "referee.sqlite3"
        self.settings = Settings(db=self.db, snapshot_dir=tmp_path / "snaps", html_at_end=False)
        self.messages: list[str] = []
        self.service: Service | None = None

    async def start(self) -> None:
        self.service = await Service.open(self.settings)

    async def stop(self) -> None:
        assert self.service is not None
        await self.service.close()
        self.service = None

    async def say(self, user: str, line: str) -> Any:
        assert self.service is not None
        reply = await Table(self.service)(user, line, moderator=user == "mod")
        assert not reply.error, (line, reply.text)
        if not reply.ephemeral:
            self.messages.append(reply.text)
        return reply

    def text(self) -> str:
        return "\n".join(self.messages)


#: A duel opened and both sides seated (a target no few rolls reach: it never ends alone).
OPENING = [("alice", "/game new system:duel options:target=30"), ("alice", "/game join side:red"),
           ("bob", "/game join side:blue")]


async def played(tmp_path: Path, lines: list[tuple[str, str]] | None = None) -> Channel:
    """A channel whose duel was opened and played (``lines``; default a roll and a wait),
    its bot stopped: the operator's moment."""
    channel = Channel(tmp_path)
    await channel.start()
    for user, line in OPENING + (lines if lines is not None else [("alice", "/duel roll"), ("bob", "/duel wait")]):
        await channel.say(user, line)
    await channel.stop()
    return channel


def forge_step(db: Path, side: str, actor: str, action: dict[str, Any]) -> int:
    """What the operator does with the database and the public algorithm: an order of
    ``side`` applied with the rules on the head's state, sealed on top of
    ``games.chain_head`` with the bot's own code, inserted, and the head, chain head and
    record count moved to it.  Returns the forged step's number."""
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        game = conn.execute("SELECT * FROM games").fetchone()
        head = conn.execute("SELECT * FROM step_log WHERE game_id = ? AND seq = ?",
                            (game["id"], game["head_seq"])).fetchone()
        seq = conn.execute("SELECT MAX(seq) + 1 FROM step_log").fetchone()[0]
        system = registry.get(game["system"])
        done, parsed = apply_recorded(system, game["scenario"], json.loads(game["options_json"]),
                                      system.load_state(head["state_json"]), action, side, RecordedDice([]))
        outcome = Outcome(step=done, dice=RecordedDice([]), action=parsed, side=side, actor=(actor, actor))
        row, canonical = Ledger.step_row(game["id"], seq, head["seq"], outcome, None, False)
        row = record.seal_step(row, game["chain_head"], canonical)
        conn.execute(
            "INSERT INTO step_log (game_id, seq, parent_seq, kind, actor_id, actor_name, side,"
            " action_json, dice_json, events_json, state_json, reveals, snapshot, turn_part,"
            " created_at, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (row.game_id, row.seq, row.parent_seq, row.kind, row.actor_id, row.actor_name, row.side,
             json.dumps(row.action), "[]", json.dumps([e.record() for e in row.events]), row.state_json,
             int(row.reveals), int(row.snapshot), row.turn_part, row.created_at, row.prev_hash, row.hash))
        conn.execute("UPDATE games SET head_seq = ?, chain_head = ?, chain_count = chain_count + 1,"
                     " version = version + 1 WHERE id = ?", (seq, row.hash, game["id"]))
    return int(seq)


async def final_export(channel: Channel) -> dict[str, Any]:
    reply = await channel.say("mod", "/game end")
    return dict(json.loads(gzip.decompress(reply.attachments[0].data)))


async def resumed_and_verified(channel: Channel, tmp_path: Path, user: str, line: str,
                               *, unchecked: bool = False) -> tuple[int, str]:
    """The bot started again after the operator's edit, one more order, /game end, and the
    final export verified against every message of the channel: ``(exit code, output)``.
    ``unchecked``: a bot that does not hold a game whose records fail the check when it
    starts (an older release, or one the operator changed), which plays on."""
    await channel.start()
    if unchecked:
        assert channel.service is not None
        channel.service.games.damaged.clear()
    await channel.say(user, line)
    document = await final_export(channel)
    await channel.stop()
    return run(tmp_path, document, "--anchors", channel_file(tmp_path, channel.text()))


async def health(db: Path) -> tuple[int, str]:
    """``referee health --db DB`` as the operator runs it: ``(exit code, what it said)``."""
    said = io.StringIO()
    with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
        code = await asyncio.to_thread(cli.main, ["health", "--db", str(db)])
    return code, said.getvalue()


async def test_a_step_inserted_between_two_announcements_is_named(tmp_path: Path) -> None:
    """Break 3: while the bot is stopped, the operator inserts a "wait" for blue (a forged
    pass) on top of the chain head, with its hash and the head moved; the bot resumes, red
    plays on and the game ends.  Every head the channel saw is in the file, but the channel's
    counts show that no announcement wrote the forged record: the verifier names it."""
    channel = await played(tmp_path)
    forged = forge_step(channel.db, "red", "alice", {"name": "wait", "options": {}})
    forge_step(channel.db, "blue", "bob", {"name": "wait", "options": {}})
    code, out = await resumed_and_verified(channel, tmp_path, "alice", "/duel roll")
    assert code == 1, out
    assert re.search(rf"records \d+ to \d+ of the file \(step #{forged}, step #{forged + 1}\) were announced"
                     r" by no message", out), out


async def test_the_database_holds_no_running_games_seed(tmp_path: Path) -> None:
    """Break 3: the seed a running game's dice come from is nowhere in the database (its
    bytes or hex in any row of any table), so the operator cannot compute the next roll; the
    game's dice roll as committed, and /game end stores and reveals the seed."""
    channel = Channel(tmp_path)
    await channel.start()
    await channel.say("alice", "/game new system:duel options:target=30")
    assert channel.service is not None
    game = await channel.service.store.active_game(Table(channel.service).channel)
    assert game is not None and hashlib.sha256(game.seed).hexdigest() == game.seed_hash
    with sqlite3.connect(channel.db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        stored = [value for name in tables for row in conn.execute(f"SELECT * FROM {name}") for value in row]
    assert all(game.seed not in (v if isinstance(v, bytes) else str(v).encode()) for v in stored)
    assert all(game.seed.hex() not in str(v) for v in stored)
    for user, line in [("alice", "/game join side:red"), ("bob", "/game join side:blue"), ("alice", "/duel roll")]:
        await channel.say(user, line)
    document = await final_export(channel)
    await channel.stop()
    assert document["seed"] == game.seed.hex()
    assert verify_dice.verify(document) == []
    with sqlite3.connect(channel.db) as conn:
        assert conn.execute("SELECT seed FROM games").fetchone()[0] == game.seed  # public now


async def test_a_running_game_without_its_seed_key_refuses_to_roll(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Another key (the key file lost, or the database moved without it) gives no seed: the
    game's dice refuse with a sentence, never other dice, and nothing is stored."""
    channel = await played(tmp_path, [])
    monkeypatch.setenv("REFEREE_SEED_KEY", "11" * 32)
    channel.settings = Settings(db=channel.db, snapshot_dir=tmp_path / "snaps")
    await channel.start()
    assert channel.service is not None
    refused = await Table(channel.service)("alice", "/duel roll")
    assert refused.error and "seed key" in refused.text and "nothing was stored" in refused.text, refused.text
    await channel.stop()


def test_the_key_file_is_made_once_owner_only_and_a_bad_one_is_said(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.seedkey import SeedKeyError, load_key  # noqa: PLC0415

    path = tmp_path / "keys" / "seed-key"
    key = load_key(None, path)
    assert len(key) == 32 and load_key(None, path) == key
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text("not a key")
    with pytest.raises(SeedKeyError, match="64 hex digits"):
        load_key(None, path)
    assert load_key("22" * 32, path) == bytes.fromhex("22" * 32)  # REFEREE_SEED_KEY wins


def test_a_key_file_others_may_read_is_said_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from bot.seedkey import load_key  # noqa: PLC0415

    path = tmp_path / "seed-key"
    key = load_key(None, path)
    path.chmod(0o644)
    with caplog.at_level("WARNING", logger="referee.seedkey"):
        assert load_key(None, path) == key
    assert any("readable by other users" in r.getMessage() and "chmod 600" in r.getMessage()
               for r in caplog.records), caplog.records


def test_the_repository_carries_no_seed_key() -> None:
    """A key file committed to the repository (one was, made by a run in the checkout) is
    every clone's key: a bot started there without a key of its own wraps its seeds with a
    public key, and the database alone foresees the dice again.  Git must track none, and the
    Docker build context leaves it out."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    tracked = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True)
    assert not [f for f in tracked.stdout.splitlines() if f.endswith("seed-key")], tracked.stdout
    assert "referee.seed-key" in (root / ".dockerignore").read_text().splitlines()


async def test_a_public_rollback_undone_silently_is_caught(tmp_path: Path) -> None:
    """Break 4: a moderator rolls back in public; the operator deletes the revert marks and
    moves the head back to where it was before the rollback (no hash covers either).  The
    rollback's audit entry says what it reverted: the health check of the database names the
    steps made active again and the head moved, the bot holds the game when it starts, and
    when a bot that does not check plays it on to the end, the verifier names them too."""
    channel = await played(tmp_path, [("alice", "/duel roll"), ("bob", "/duel wait"), ("alice", "/duel wait"),
                                      ("mod", "/mod rollback to:1 reason:misclick")])
    with sqlite3.connect(channel.db) as conn:
        rollback = conn.execute("SELECT id FROM audit WHERE action = 'rollback'").fetchone()[0]
        conn.execute("DELETE FROM step_reverts WHERE audit_id = ?", (rollback,))
        conn.execute("UPDATE games SET head_seq = 3, version = version + 1")
    code, said = await health(channel.db)
    assert code == 1 and f"audit entry {rollback}" in said, said
    await channel.start()  # the bot will not play the game on
    assert channel.service is not None
    refused = await Table(channel.service)("bob", "/duel wait")
    assert refused.error and "on hold" in refused.text, refused.text
    await channel.stop()
    code, out = await resumed_and_verified(channel, tmp_path, "bob", "/duel wait", unchecked=True)
    assert code == 1, out
    assert f"step #2 is active in the file, but audit entry {rollback} (rollback to #1) reverted it" in out, out


async def test_a_final_export_with_edited_states_marked_sealed_fails(game, tmp_path: Path) -> None:
    """Break 1: the states of the last 8 steps edited and those steps marked ``"sealed"`` in
    the final export (it holds the seed), the chain recomputed: ``referee replay`` re-runs
    them and fails, and the verifier says the final export hides nothing, never that it was
    taken before /game end."""
    document = game[0]
    forged = copy.deepcopy(document)
    last = sorted(forged["steps"], key=lambda s: s["seq"])[-8:]  # the attack's 8 steps
    assert len(forged["steps"]) > len(last)
    for entry in last:
        entry["state"]["scores"] = {"red": 29, "blue": 0}
        entry["sealed"] = True
    reseal(forged, chain_position(document))
    report = replay(forged)
    assert not report.ok and report.matched < report.steps == len(forged["steps"]), report
    assert any("marked sealed in a final export" in p for p in report.problems), report.problems
    code, out = run(tmp_path, forged)
    assert code == 1 and "marked sealed in a final export" in out and "before /game end" not in out, out


async def test_the_scenario_hash_of_the_export_is_checked(game, tmp_path: Path) -> None:
    """Break 2: 64 zeros as ``scenario_sha256`` (or a scenario file whose hash does not
    match) is a problem for the verifier and the replay."""
    forged = copy.deepcopy(game[0])
    forged["scenario_sha256"] = "0" * 64
    code, out = run(tmp_path, forged)
    assert code == 1 and "not to its scenario_sha256 0000000000000000" in out, out
    assert any("scenario_sha256" in p for p in replay(forged).problems)


def test_old_exports_still_read(tmp_path: Path) -> None:
    """An export of format referee-log/1 (chain referee-chain/1) verifies and replays as
    before: the recorded Raid and Riposte game of ``test_chain.py``."""
    from tests.platform.test_chain import OLD_HEAD, OLD_RECORD  # noqa: PLC0415

    document = verify_dice.load(str(OLD_RECORD))
    assert document["format"] == "referee-log/1" and "chain_format" not in document
    code, out = run(tmp_path, document, "--anchor", OLD_HEAD, raw=OLD_RECORD.read_bytes())
    assert code == 0, out
    assert step(document, 0)["prev_hash"] == verify_dice.genesis(document)


async def test_the_genesis_binds_the_scenario_files_whole_hash(game, tmp_path: Path) -> None:
    """Break 2: the chain of a game started now (``referee-chain/2``) starts from a genesis
    holding the scenario file's whole SHA-256, not the 10 hex digits of its key: a scenario
    file swapped with its hash recomputed and every record's hash made again gives other
    heads than the channel saw.  A chain ``/1`` genesis (older games) holds none."""
    document, _, _, channel = game
    assert document["chain_format"] == "referee-chain/2"
    swapped = copy.deepcopy(document)
    swapped["scenario_text"] = "title: a scenario the game was not set up from\n"
    swapped["scenario_sha256"] = hashlib.sha256(swapped["scenario_text"].encode()).hexdigest()
    assert verify_dice.genesis(swapped) != verify_dice.genesis(document)
    reseal(swapped, chain_position(document))
    code, out = run(tmp_path, swapped, "--anchors", channel_file(tmp_path, channel))
    assert code == 1 and "not the history the channel saw" in out, out
    old = {**document, "chain_format": "referee-chain/1"}
    assert verify_dice.genesis(old) == verify_dice.genesis({**swapped, "chain_format": "referee-chain/1"})


async def test_a_resealed_forgery_is_named_by_the_record_the_channel_counted(game, tmp_path: Path) -> None:
    """The verifier names the changed record, not only the missing heads: step #1's actor
    renamed and the whole chain recomputed, every head the channel saw from #1 on is missing,
    and the first of them says which record of the file sits where the channel counted it."""
    document, _, _, channel = game
    forged = copy.deepcopy(document)
    step(forged, 1).update(actor="mallory", actor_id="mallory")
    reseal(forged, chain_position(document))
    code, out = run(tmp_path, forged, "--anchors", channel_file(tmp_path, channel))
    assert code == 1, out
    assert re.search(r"as record 2; the file's record 2 is step #1, with another hash", out), out


async def test_a_look_is_told_to_the_channel_and_the_game_still_verifies(tmp_path: Path) -> None:
    """A moderator's /mod look is an audit record: its answer is the moderator's alone, and
    the channel is told, so every record between two announcements is one an announcement
    wrote and the honest game verifies against the channel."""
    channel = await played(tmp_path, [("alice", "/duel roll")])
    await channel.start()
    await channel.say("mod", "/mod look side:red")
    assert channel.service is not None
    told = [reply.text for _, reply in await channel.service.pipeline.announcements.owed(Table(channel.service).channel)]
    assert len(told) == 1 and told[0].startswith("👁️ Moderator @mod looked at ") and "🔗" in told[0], told
    channel.messages += told
    await channel.stop()
    code, out = await resumed_and_verified(channel, tmp_path, "bob", "/duel wait")
    assert code == 0, out


async def test_a_step_removed_after_its_announcement_is_named(tmp_path: Path) -> None:
    """Break 3, the other way: the operator deletes blue's announced wait and moves the head,
    chain head and count back to red's roll before it; the bot resumes and blue waits again.
    The channel's head of the removed wait is in no record, and the record the file holds
    where the channel counted it is named."""
    channel = await played(tmp_path)
    with sqlite3.connect(channel.db) as conn:
        roll = conn.execute("SELECT seq, hash FROM step_log WHERE seq = 1").fetchone()
        conn.execute("DELETE FROM step_log WHERE seq = 2")
        conn.execute("UPDATE games SET head_seq = ?, chain_head = ?, chain_count = chain_count - 1,"
                     " version = version + 1", roll)
    code, out = await resumed_and_verified(channel, tmp_path, "bob", "/duel wait")
    assert code == 1 and "not the history the channel saw" in out, out
    assert "the channel saw" in out and "as record 3; the file's record 3 is step #2, with another hash" in out, out


async def test_the_bot_holds_a_game_whose_records_were_changed_and_plays_the_others(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The service (``referee bot`` opens it as the console does) checks every running
    game's records when it starts: a game whose stored state an operator changed by one byte
    is named in the log and refused to every command with a sentence, nothing stored; a
    game beside it plays on.  Before, the bot resumed the edited game as if nothing had
    happened (only ``referee health`` and the console noticed)."""
    channel = await played(tmp_path, [("alice", "/duel roll")])
    await channel.start()
    assert channel.service is not None
    other = Table(channel.service, channel="chan-2")
    for user, line in OPENING:
        assert not (await other(user, line)).error
    await channel.stop()
    with sqlite3.connect(channel.db) as conn:
        game_id, = conn.execute("SELECT game_id FROM step_log WHERE seq = 1").fetchone()
        state = conn.execute("SELECT state_json FROM step_log WHERE seq = 1").fetchone()[0]
        at = state.index('"red":') + len('"red":')  # red's score after its roll
        conn.execute("UPDATE step_log SET state_json = ? WHERE seq = 1",
                     (state[:at] + ("9" if state[at] != "9" else "8") + state[at + 1:],))
        steps = conn.execute("SELECT COUNT(*) FROM step_log").fetchone()[0]
    with caplog.at_level("ERROR", logger="referee.service"):
        await channel.start()
    assert channel.service is not None
    said = [r.getMessage() for r in caplog.records if r.name == "referee.service"]
    assert len(said) == 1 and f"game {game_id} is on hold" in said[0] and "step #1" in said[0], said
    for line in ("/duel wait", "/game status", "/game new system:duel"):
        refused = await Table(channel.service)("bob", line)
        assert refused.error and f"Game #{game_id} in this channel is on hold" in refused.text, (line, refused.text)
    assert not (await Table(channel.service, channel="chan-2")("alice", "/duel roll")).error
    await channel.stop()
    with sqlite3.connect(channel.db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM step_log").fetchone()[0] == steps + 1  # chan-2's roll alone


async def test_health_names_a_record_removed_from_the_middle_of_the_chain(tmp_path: Path) -> None:
    """A record deleted between two others (the rows after it left as they were) breaks the
    line the records make: health names the record that follows a missing one."""
    channel = await played(tmp_path, [("alice", "/duel roll"), ("bob", "/duel wait"), ("alice", "/duel wait")])
    with sqlite3.connect(channel.db) as conn:
        conn.execute("DELETE FROM step_log WHERE seq = 2")
    code, said = await health(channel.db)
    assert code == 1 and "step #3 follows a record that is not there" in said, said


def players_lines(head: str, seed: bytes | None = None) -> list[str]:
    """What players type into the channel to imitate the bot's anchor lines: a head no
    record has, bare, with the count, with a made-up tag, a real head with a wrong count, and
    (``seed``: once /game end has revealed it) a line tagged with the revealed seed."""
    lines = ["alice: 🔗 0123456789abcdef", "bob: look 🔗 0123456789abcdef · 3 (+1)",
             "alice: 🔗 0123456789abcdef · 3 (+1) · deadbeef", f"bob: 🔗 {head} · 99 (+1)"]
    if seed is not None:
        lines.append(f"alice: 🔗 fedcba9876543210 · 4 (+1) · {verify_dice.anchor_tag(seed, 'fedcba9876543210', 4, 1)}")
    return lines


async def test_lines_a_player_types_to_imitate_the_bots_are_left_out_of_a_plain_copy(tmp_path: Path) -> None:
    """A plain copy of the channel shows no author, so a player's "🔗 0123456789abcdef · 3
    (+1)" read as the bot's made the honest export fail.  The bot's anchor lines carry a tag
    made with the game's seed, which only the bot held until /game end: lines whose tag does
    not check, untagged ones that disagree with the file, and anything after /game end (when
    the seed is public) are left out and counted; the honest export verifies against the
    whole channel, another game's messages in it included.  The operator's edits are still
    caught through the noise: the tagged heads are the bot's."""
    channel = Channel(tmp_path)
    await channel.start()
    for user, line in [*OPENING, ("alice", "/duel roll")]:  # an earlier game of the channel
        await channel.say(user, line)
    earlier = await final_export(channel)
    for user, line in [*OPENING, ("alice", "/duel roll")]:
        await channel.say(user, line)
    real = re.findall(r"🔗 ([0-9a-f]{16})", channel.messages[-1])[0]
    channel.messages[1:1] = players_lines(real)
    channel.messages += players_lines(real)
    await channel.say("bob", "/duel wait")
    document = await final_export(channel)
    channel.messages += players_lines(real, bytes.fromhex(document["seed"]))
    await channel.stop()
    for export in (document, earlier):
        code, out = run(tmp_path, export, "--anchors", channel_file(tmp_path, channel.text()))
        assert code == 0 and "left out as not the bot's" in out, out
    # The export forged with blue's announced wait removed and every hash made again.
    forged = {**document, "steps": [s for s in document["steps"] if s["seq"] != 2]}
    forged["audit"] = [a for a in document["audit"] if a["action"] != "end"]
    reseal(forged, chain_position(document))
    code, out = run(tmp_path, forged, "--anchors", channel_file(tmp_path, channel.text()))
    assert code == 1 and "not the history the channel saw" in out, out
