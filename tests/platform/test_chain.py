"""The hash chain of a game's record (issue 29): what the bot writes, what the announcements
show, and the verifier's chain checks beyond the 18 tamperings of ``test_verify_dice.py``."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot import chain, record
from tests.platform.conftest import Table
from tests.platform.test_verify_dice import (
    chain_position, channel_file, entry, finished_game, reseal, run, step,
)
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite only (the checks read an export)."""
    return tmp_path / "referee.sqlite3"


@pytest.fixture
async def game(table: Table) -> tuple[dict[str, Any], str, int, str]:
    return await finished_game(table)


async def test_the_bot_and_the_verifier_hash_alike(game) -> None:
    """bot/chain.py (the writer) and tools/verify_dice.py (standard library only, standalone)
    give every record of a real game the same hash, from the same genesis."""
    document = game[0]
    assert document["chain_format"] == chain.CHAIN_FORMAT_2 == verify_dice.CHAIN_FORMATS[1]
    assert verify_dice.genesis(document) == chain.genesis(
        document["system"], document["scenario"], document["options"], document["seed_hash"],
        fmt=document["chain_format"], scenario_sha256=document["scenario_sha256"])
    assert step(document, 0)["prev_hash"] == verify_dice.genesis(document)
    for s in document["steps"]:
        assert s["hash"] == chain.step_hash(s["prev_hash"], s) == verify_dice.record_hash("step", s)
    for a in document["audit"]:
        assert a["hash"] == chain.audit_hash(a["prev_hash"], a) == verify_dice.record_hash("audit", a)
    assert document["chain_head"] == entry(document, "end")["hash"]  # the end is the last record
    assert verify_dice.verify(document) == []  # one chain, each record after the one before


async def test_every_announcement_carries_the_head_and_the_end_posts_it_whole(table: Table) -> None:
    """Each public reply ends with the short form of the chain head as it stood after it,
    an error shows none, and /game end posts the whole head, the one the export ends at."""
    new = await table("alice", "/game new system:duel options:target=30")
    assert re.search(r" · 1 \(\+1\) · [0-9a-f]{8}$", new.text), new.text  # the setup: the chain's first record
    svc = table.service
    count = 1
    # A join writes no record (+0); an order one step (+1); a rollback its audit entry (+1).
    for user, line, added in [("alice", "/game join side:red", 0), ("bob", "/game join side:blue", 0),
                              ("alice", "/duel roll", 1), ("bob", "/duel wait", 1),
                              ("mod", "/mod rollback to:1 reason:x", 1)]:
        reply = await table(user, line, moderator=user == "mod")
        game = await svc.games.load(table.channel)
        assert game is not None and game.row.chain_head
        count += added
        assert game.row.chain_count == count
        head = game.row.chain_head[:chain.SHORT]
        tag = verify_dice.anchor_tag(game.row.seed, head, count, added)  # the tool's, from the seed
        assert reply.text.endswith(f"🔗 {head} · {count} (+{added}) · {tag}"), reply.text
    refused = await table("alice", "/duel roll")  # blue is waited on after the rollback
    assert refused.error and "🔗" not in refused.text
    end = await table("mod", "/game end", moderator=True)
    whole = re.search(rf"Chain head: 🔗 ([0-9a-f]{{64}}) · {count + 1} \(\+1\) · ([0-9a-f]{{8}})$", end.text, re.M)
    assert whole and whole.group(2) == chain.anchor_tag(game.row.seed, whole.group(1), count + 1, 1), end.text
    exported = await table("mod", "/game export")
    document = json.loads(__import__("gzip").decompress(exported.attachments[0].data))
    assert document["chain_head"] == whole.group(1)


async def test_a_hash_changed_alone_or_a_record_dropped_breaks_the_chain(game, tmp_path: Path) -> None:
    document = game[0]
    changed = copy.deepcopy(document)
    step(changed, 4)["hash"] = "0" * 64
    code, out = run(tmp_path, changed)
    assert code == 1 and "not on the chain" in out, out
    dropped = copy.deepcopy(document)
    dropped["audit"] = [a for a in dropped["audit"] if a["action"] != "rollback"]
    code, out = run(tmp_path, dropped)
    assert code == 1 and "not on the chain" in out, out
    edited = copy.deepcopy(document)
    step(edited, 4)["created_at"] = "2020-01-01T00:00:00.000+00:00"  # a time moved back
    code, out = run(tmp_path, edited)
    assert code == 1 and "step #4: its hash does not match its content" in out, out


async def test_a_fork_and_a_wrong_head_are_named(game, tmp_path: Path) -> None:
    document = game[0]
    forked = copy.deepcopy(document)
    twin = copy.deepcopy(step(forked, 12))
    twin.update(seq=13, reverted_by=entry(forked, "rollback")["id"], turn_part="twin")
    twin["hash"] = verify_dice.record_hash("step", twin)  # sealed after the same record as #12
    forked["steps"].append(twin)
    code, out = run(tmp_path, forked)
    assert code == 1 and "the chain forks" in out, out
    wrong = copy.deepcopy(document)
    wrong["chain_head"] = step(wrong, 3)["hash"]
    code, out = run(tmp_path, wrong)
    assert code == 1 and "is not its last record's hash" in out, out


async def test_stripped_hashes_do_not_pass_as_an_old_game(game, tmp_path: Path) -> None:
    """A forger who removes every hash (to pass as a game older than the chain) is caught as
    soon as a head from the channel is given."""
    document, posted, rolls, channel = game
    stripped = copy.deepcopy(document)
    for record in [*stripped["steps"], *stripped["audit"]]:
        record["hash"] = record["prev_hash"] = None
    stripped["chain_head"] = ""
    code, out = run(tmp_path, stripped, "--anchors", channel_file(tmp_path, channel))
    assert code == 1 and "carry no hashes" in out, out
    code, out = run(tmp_path, stripped)
    assert code == 0 and "no hash chain" in out, out


async def test_records_after_the_end_and_reverts_by_the_wrong_entry(game, tmp_path: Path) -> None:
    document = game[0]
    late = copy.deepcopy(document)
    extra = copy.deepcopy(entry(late, "rollback"))
    extra.update(id=99, hash=None, created_at="9999-01-01T00:00:00.000+00:00")
    late["audit"].append(extra)
    reseal(late, chain_position(document))
    code, out = run(tmp_path, late)
    assert code == 1 and "audit entries follow /game end" in out, out
    wrong = copy.deepcopy(document)
    step(wrong, 6)["reverted_by"] = entry(wrong, "end")["id"]
    code, out = run(tmp_path, wrong)
    assert code == 1 and "marked reverted by a 'end' entry" in out, out


async def test_heads_are_read_from_a_channel_saved_as_json_or_html(game, tmp_path: Path) -> None:
    """A channel export (JSON: every string; HTML: emoji images by their alt text) gives the
    same heads as the pasted text; a head of another game is reported."""
    document, posted, rolls, channel = game
    heads = verify_dice.anchors_in(channel)
    assert len(heads) >= 15 and all(re.fullmatch(r"[0-9a-f]{16,64}", h) for h in heads)
    as_json = json.dumps({"messages": [{"content": line} for line in channel.split("\n")]})
    assert verify_dice.anchors_in(as_json) == heads
    emoji = '<img class="emoji" alt="🔗" src="https://cdn.example/1f517.svg">'
    as_html = "".join(f'<div class="msg">{line.replace("🔗", emoji)}</div>'
                      for line in channel.split("\n"))
    assert verify_dice.anchors_in(as_html) == heads
    code, out = run(tmp_path, document, "--anchor", "0123456789abcdef")
    assert code == 1 and "1 of the 1 chain heads" in out, out
    code, out = run(tmp_path, document, "--anchor", "not-a-head")
    assert code == 2 and "16 to 64 hex digits" in out, out


async def test_a_rerolled_roll_is_recomputed_too(game, tmp_path: Path) -> None:
    """The roll a reroll replaced stays in the record (reverted) and is checked against the
    seed like any other, with the channel's seed hash and roll count alone (issue 29: a
    verifier that skipped reverted steps let the original roll be altered)."""
    document, posted, rolls, _ = game
    forged = copy.deepcopy(document)
    original = next(s for s in forged["steps"] if s["reverted_by"] is not None and s["dice"])
    roll = original["dice"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1
    reseal(forged, chain_position(document))
    code, out = run(tmp_path, forged, "--seed-hash", posted, "--rolls", str(rolls))
    assert code == 1 and f"step #{original['seq']}: roll {roll['index']}" in out and "the seed gives" in out, out


async def test_a_chain_of_another_game_does_not_start_at_this_ones_genesis(game, tmp_path: Path) -> None:
    """The genesis binds the chain to the game's system, scenario, options and posted seed
    hash: the same records under another game's header are not its chain."""
    document = game[0]
    other = copy.deepcopy(document)
    other["options"] = {"target": 20}
    code, out = run(tmp_path, other)
    assert code == 1 and "no record follows the game's genesis" in out, out


#: A Raid and Riposte game (70 orders, a rollback, a reroll, /game end) recorded by the bot
#: at commit d480927, before states were stored in canonical form (issue 23): its states
#: are in the models' field order and were sealed by parsing them and encoding them again.
OLD_RECORD = Path(__file__).resolve().parent / "data" / "rr-recorded-d480927.json.gz"
OLD_HEAD = "55ea9c0d12d4fda8d5955e27754bdeae7fca47d2ba8cba97ea89d17065134437"


def test_a_game_recorded_before_canonical_states_still_verifies(tmp_path: Path) -> None:
    """The verifier and ``referee replay`` check an old record as before: its chain, its
    dice and its replay pass with the head /game end posted; a state changed in it (the
    rest left as is) is caught by its hash, and the replay of the step after it too."""
    raw = OLD_RECORD.read_bytes()
    document = verify_dice.load(str(OLD_RECORD))
    assert list(step(document, 3)["state"])[:2] == ["scenario", "turn"]  # stored unsorted
    code, out = run(tmp_path, document, "--rolls", "35", "--anchor", OLD_HEAD, raw=raw)
    # Rulings changed since it was recorded are said as rules changes, never as forgery.
    assert code == 0 and ("replays exactly" in out or "a rules change, not a forgery" in out), out
    forged = copy.deepcopy(document)
    unit = next(iter(step(forged, 50)["state"]["units"].values()))
    unit["place"] = "pool" if unit["place"] != "pool" else "1"
    code, out = run(tmp_path, forged, "--rolls", "35", "--anchor", OLD_HEAD)
    assert code == 1 and "step #50: its hash does not match its content" in out, out


async def test_a_new_step_is_sealed_from_its_state_as_the_verifier_hashes_it(table: Table) -> None:
    """A step written now is sealed from the state object in hand (issue 23), and its hash
    is the one the verifier computes from the stored text parsed; that text stays in the
    models' field order (a state read back iterates as the cached one did)."""
    await table("alice", "/game new system:duel options:target=30")
    for user, line in [("alice", "/game join side:red"), ("bob", "/game join side:blue"),
                       ("alice", "/duel roll"), ("bob", "/duel stance mode:bold")]:
        assert not (await table(user, line)).error
    game = await table.service.games.load(table.channel)
    assert game is not None
    rows = [await table.service.store.step(game.row.id, seq) for seq in range(game.row.head_seq + 1)]
    for row in rows:
        assert row is not None
        fields = {**record.step_fields(row, json.loads(row.state_json)), "prev_hash": row.prev_hash}
        assert row.hash == verify_dice.record_hash("step", fields)
    assert game.row.state_json == rows[-1].state_json == game.state.model_dump_json()
