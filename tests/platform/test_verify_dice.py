"""``tools/verify_dice.py`` as an auditor runs it (issue 14, item 7; issue 29): a real game's
final export checks out; the same export tampered in each of the 18 ways the issues list is
rejected, even when the forger recomputes the whole hash chain (then by the chain heads the
channel saw); malformed input gets a sentence and exit code 2, never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gzip
import io
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from bot.config import Settings
from bot.service import Service
from tests.platform.conftest import Table
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite only (the dice check reads an export, not the store)."""
    return tmp_path / "referee.sqlite3"


ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_dice.py"


async def finished_game(table: Table) -> tuple[dict[str, Any], str, int, str]:
    """A duel with rolls, two rerolls, a rollback and a dice-free tail (a standing order and
    two waits after the last reroll), ended by a moderator: ``(export, posted seed hash,
    announced roll count, every public message of the channel as one text)``."""
    # A target no three rolls can reach: the game must not end on its own.
    new = await table("alice", "/game new system:duel options:target=30")
    posted = re.search(r"`([0-9a-f]{64})`", new.text)
    assert posted
    channel = [new.text]
    for user, line in [("alice", "/game join side:red"), ("bob", "/game join side:blue"),
                       ("alice", "/duel roll"), ("bob", "/duel roll"), ("mod", "/mod reroll reason:r1"),
                       ("alice", "/duel wait"), ("bob", "/duel stance mode:bold"), ("bob", "/duel wait"),
                       ("mod", "/mod rollback to:5 reason:back"), ("bob", "/duel wait"),
                       ("alice", "/duel roll"), ("mod", "/mod reroll reason:r2"),
                       ("bob", "/duel stance mode:careful"), ("bob", "/duel wait"),
                       ("alice", "/duel wait")]:
        reply = await table(user, line, moderator=user == "mod")
        assert not reply.error, (line, reply.text)
        if not reply.ephemeral:
            channel.append(reply.text)
    end = await table("mod", "/game end", moderator=True)
    assert not end.error, end.text
    channel.append(end.text)
    announced = re.search(r"Rolls made: (\d+)", end.text)
    assert announced
    data = end.attachments[0].data
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data), posted.group(1), int(announced.group(1)), "\n".join(channel)


def run(tmp_path: Path, document: Any, *args: str, raw: bytes | None = None) -> tuple[int, str]:
    """The tool's ``main`` in this process, where the test-only ``duel`` system is
    registered for the replay: ``(exit code, everything it printed)``."""
    path = tmp_path / "export.json"
    path.write_bytes(raw if raw is not None else json.dumps(document).encode())
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = verify_dice.main([str(path), *args])
    return code, out.getvalue()


def run_process(tmp_path: Path, raw: bytes) -> subprocess.CompletedProcess[str]:
    """The tool as an auditor starts it, in a process of its own."""
    path = tmp_path / "export.json"
    path.write_bytes(raw)
    return subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, int, str]:
    """One finished game for the whole module (every test reads it, the tamperings work on
    deep copies): played once, not once per test."""
    folder = tmp_path_factory.mktemp("verify-dice")

    async def play() -> tuple[dict[str, Any], str, int, str]:
        service = await Service.open(Settings(db=folder / "referee.sqlite3",
                                              snapshot_dir=folder / "snaps"))
        try:
            return await finished_game(Table(service))
        finally:
            await service.close()

    return asyncio.run(play())


def channel_file(tmp_path: Path, text: str) -> str:
    """The channel's messages saved as a text file, as an auditor passes them."""
    path = tmp_path / "channel.txt"
    path.write_text(text, "utf-8")
    return str(path)


async def test_a_true_export_checks_out(game, tmp_path: Path) -> None:
    document, posted, rolls, channel = game
    code, out = run(tmp_path, document, "--seed-hash", posted, "--rolls", str(rolls),
                    "--anchors", channel_file(tmp_path, channel))
    assert code == 0, out
    assert posted in out and "replays exactly" in out and "checked against it" in out
    code, out = run(tmp_path, document)  # without the channel's values: shown to compare
    assert code == 0 and "compare it with the hash posted" in out and f"Rolls in the file: {rolls}" in out
    # In a process of its own the test-only duel system is not installed: it says so.
    alone = run_process(tmp_path, json.dumps(document).encode())
    assert alone.returncode == 0 and "was not replayed" in alone.stdout, alone.stdout


async def test_the_whole_hash_is_printed_and_compared(game, tmp_path: Path) -> None:
    """Issue 26, point 6: ``/game status`` shows the first 16 digits; given those (as copied,
    with the ellipsis) they match and the note says the whole hash is the stronger check;
    a wrong hash is shown whole beside the whole digest, never cut to look alike."""
    document, posted, rolls, _ = game
    code, out = run(tmp_path, document, "--seed-hash", f"{posted[:16]}…", "--rolls", str(rolls))
    assert code == 0, out
    assert f"Seed hash in the file: {posted}" in out and "first 16 digits only" in out
    wrong = posted[:16] + ("0" if posted[16] != "0" else "1") + posted[17:]
    code, out = run(tmp_path, document, "--seed-hash", wrong)
    assert code == 1
    assert f"hashes to {posted}, not to the posted {wrong}" in out
    code, out = run(tmp_path, document, "--seed-hash", posted[:12])  # too short to vouch
    assert code == 1 and f"not to the posted {posted[:12]}" in out


async def test_run_with_a_python_lacking_the_rules(game, tmp_path: Path) -> None:
    """Issue 26, point 6: from the repository, with a Python without the project's packages
    (the system one; ``-S`` here), the dice still check, and the replay either runs under the
    project's ``.venv`` or the output says exactly how to get it."""
    document, posted, rolls, _ = game
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    done = subprocess.run([sys.executable, "-S", str(TOOL), str(path), "--seed-hash", posted],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"all {rolls} rolls recompute" in done.stdout
    assert "not importable here" not in done.stdout
    if (ROOT / ".venv" / "bin" / "python").exists():
        assert "running with" in done.stdout
    else:
        assert "the Referee rules need pydantic" in done.stdout
        assert ".venv/bin/python tools/verify_dice.py" in done.stdout


def rolled(document: dict) -> list[dict]:
    return [s for s in document["steps"] if s["dice"]]


def reorder(d: dict) -> None:
    d["steps"][1], d["steps"][2] = d["steps"][2], d["steps"][1]


def reorder_renumbered(d: dict) -> None:
    a, b = rolled(d)[0], rolled(d)[1]
    a["seq"], b["seq"] = b["seq"], a["seq"]
    d["steps"].sort(key=lambda s: s["seq"])


def swap_dice(d: dict) -> None:
    a, b = rolled(d)[0], rolled(d)[1]
    a["dice"], b["dice"] = b["dice"], a["dice"]


def die_size(d: dict) -> None:
    roll = rolled(d)[0]["dice"][0]
    roll["sides"] = 8
    roll["value"] = verify_dice.roll_value(bytes.fromhex(d["seed"]), roll["index"], 8)


def truncate(d: dict) -> None:
    """The last reroll dropped, and the dice-free tail after it."""
    last = [s for s in d["steps"] if s["kind"] == "reroll"][-1]
    d["steps"] = [s for s in d["steps"] if s["seq"] < last["seq"]]
    d["head_seq"] = last["parent_seq"] if last["parent_seq"] is not None else 0
    d["audit"] = [a for a in d["audit"] if a["action"] != "reroll" or a["data"]["step"] != last["rerolls"]]
    d["rolls"] = sum(len(s["dice"]) for s in d["steps"])


def drop_audit(d: dict) -> None:
    d["audit"] = []


def rewrite_event(d: dict) -> None:
    event = rolled(d)[0]["events"][0]
    event["text"] = event["text"].replace("🎲", "🎲 6 (really)")


def forge_seed(d: dict) -> None:
    seed = bytes(32)
    d["seed"], d["seed_hash"] = seed.hex(), hashlib.sha256(seed).hexdigest()
    for step in d["steps"]:
        for roll in step["dice"]:
            roll["value"] = verify_dice.roll_value(seed, roll["index"], roll["sides"])


def change_roll(d: dict) -> None:
    roll = rolled(d)[0]["dice"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1


def step(d: dict, seq: int) -> dict:
    return next(s for s in d["steps"] if s["seq"] == seq)


def tail(d: dict) -> list[dict]:
    """The dice-free steps after the last reroll: stance, wait, wait (the head last)."""
    last = max(s["seq"] for s in d["steps"] if s["kind"] == "reroll")
    return [s for s in d["steps"] if s["seq"] > last]


def entry(d: dict, action: str) -> dict:
    return next(a for a in d["audit"] if a["action"] == action)


def recompute(d: dict, since: int) -> None:
    """What a forger with the rules does after changing step ``since``: every active step
    from there on applied again with its recorded dice, states and events rewritten."""
    from bot.pipeline import apply_recorded
    from rules.core import registry
    from rules.core.dice import RecordedDice, Roll as DiceRoll

    system = registry.get(d["system"])
    for s in sorted(d["steps"], key=lambda s: s["seq"]):
        if s["seq"] < since or s["reverted_by"] is not None or s["action"] is None:
            continue
        state = system.state_model.model_validate(step(d, s["parent_seq"])["state"])
        done, _ = apply_recorded(system, d["scenario"], d["options"], state, s["action"], s["side"],
                                 RecordedDice([DiceRoll.model_validate(r) for r in s["dice"]]))
        s["state"] = json.loads(done.state.model_dump_json())
        s["events"] = [e.model_dump(mode="json") for e in done.events]


def appended(d: dict, source: dict, *, move_head: bool) -> dict:
    """A copy of ``source`` appended as a new active step on the head."""
    copy_ = copy.deepcopy(source)
    copy_.update(seq=max(s["seq"] for s in d["steps"]) + 1, parent_seq=d["head_seq"],
                 reverted_by=None, hash=None, created_at="9999-12-31T00:00:00.000+00:00")
    d["steps"].append(copy_)
    if move_head:
        d["head_seq"] = copy_["seq"]
        entry(d, "end")["data"]["head"] = copy_["seq"]
    return copy_


def duplicate(d: dict) -> None:
    appended(d, tail(d)[-1], move_head=False)


def duplicate_recomputed(d: dict) -> None:
    new = appended(d, tail(d)[0], move_head=True)  # a standing order: legal at any time
    recompute(d, new["seq"])


def unrevert(d: dict) -> None:
    rollback = entry(d, "rollback")["id"]
    for s in d["steps"]:
        if s["reverted_by"] == rollback:
            s["reverted_by"] = None


def drop_branch(d: dict) -> None:
    """The rolled-back branch and its rollback entry removed, later steps renumbered (and
    every number that names them) so the log reads as if it never happened."""
    rollback = entry(d, "rollback")
    gone = {s["seq"] for s in d["steps"] if s["reverted_by"] == rollback["id"]}
    d["steps"] = [s for s in d["steps"] if s["seq"] not in gone]
    d["audit"] = [a for a in d["audit"] if a is not rollback]
    new = {s["seq"]: n for n, s in enumerate(sorted(d["steps"], key=lambda s: s["seq"]))}
    for s in d["steps"]:
        s["seq"] = new[s["seq"]]
        s["parent_seq"] = new.get(s["parent_seq"], s["parent_seq"])
        s["rerolls"] = new.get(s["rerolls"], s["rerolls"]) if s["rerolls"] is not None else None
    d["head_seq"] = new[d["head_seq"]]
    for a in d["audit"]:
        for key in ("step", "head"):
            if key in a["data"]:
                a["data"][key] = new.get(a["data"][key], a["data"][key])


def cut_tail(d: dict) -> None:
    stance = tail(d)[0]
    d["steps"] = [s for s in d["steps"] if s["seq"] <= stance["seq"]]
    d["head_seq"] = stance["seq"]
    entry(d, "end")["data"]["head"] = stance["seq"]


def rewrite_order(d: dict) -> None:
    stance = tail(d)[0]
    stance["action"]["options"]["mode"] = "bold"
    recompute(d, stance["seq"])


def rename_actor(d: dict) -> None:
    first = step(d, 1)
    first["actor"], first["actor_id"] = "mallory", "mallory"


def audit_moderator(d: dict) -> None:
    entry(d, "rollback").update(actor_id="admin", actor_name="admin")


def audit_reason(d: dict) -> None:
    entry(d, "rollback")["reason"] = "the player asked"


TAMPERINGS: dict[str, Callable[[dict], None]] = {
    # issue 14
    "steps reordered": reorder, "steps reordered and renumbered": reorder_renumbered,
    "dice swapped between steps": swap_dice, "a die size changed": die_size,
    "the tail truncated": truncate, "the audit removed": drop_audit,
    "an event text rewritten": rewrite_event, "a forged seed, its hash and every roll": forge_seed,
    "a roll changed": change_roll,
    # issue 29
    "a duplicated step appended": duplicate,
    "a duplicated step appended, its state recomputed, the head moved": duplicate_recomputed,
    "reverted_by cleared to hide a rollback": unrevert,
    "a rolled-back branch removed with its audit entry": drop_branch,
    "a dice-free tail cut, head and end entry fixed": cut_tail,
    "a dice-free order rewritten, later states recomputed": rewrite_order,
    "an actor renamed": rename_actor, "an audit's moderator changed": audit_moderator,
    "an audit's reason changed": audit_reason,
}

#: The forgeries only the channel's chain heads can catch once the forger recomputes the
#: whole chain (no dice, no structure changes).
NOT_THE_CHANNELS = "not the history the channel saw"

#: What the tool says for each, even with the chain recomputed: the check that catches it.
CAUGHT_BY = {
    "steps reordered": "not #0, #1, #2", "steps reordered and renumbered": "where",
    "dice swapped between steps": "comes next", "a die size changed": "replay: ",
    "the tail truncated": "were announced at /game end", "the audit removed": "missing",
    "an event text rewritten": "the events differ", "a forged seed, its hash and every roll":
    "not to the posted", "a roll changed": "the seed gives",
    "a duplicated step appended": "active steps off the line",
    "a duplicated step appended, its state recomputed, the head moved": NOT_THE_CHANNELS,
    "reverted_by cleared to hide a rollback": "active steps off the line",
    "a rolled-back branch removed with its audit entry": NOT_THE_CHANNELS,
    "a dice-free tail cut, head and end entry fixed": NOT_THE_CHANNELS,
    "a dice-free order rewritten, later states recomputed": NOT_THE_CHANNELS,
    "an actor renamed": NOT_THE_CHANNELS, "an audit's moderator changed": NOT_THE_CHANNELS,
    "an audit's reason changed": NOT_THE_CHANNELS,
}


def chain_position(document: dict) -> dict[str, int]:
    """Each record's place in the true file's chain, by hash."""
    records = [*document["steps"], *document["audit"]]
    after = {r["prev_hash"]: r for r in records}
    position, current = {}, verify_dice.genesis(document)
    while current in after:
        current = after[current]["hash"]
        position[current] = len(position)
    return position


def reseal(d: dict, position: dict[str, int]) -> None:
    """What a forger does last: every hash recomputed, records kept in their old order
    (added ones at the end), the chain head set to the new last hash."""
    records = [("step", s) for s in d["steps"]] + [("audit", a) for a in d["audit"]]
    records.sort(key=lambda kr: position.get(kr[1].get("hash"), len(position)))
    prev = verify_dice.genesis(d)
    for kind, r in records:
        r["prev_hash"] = prev
        r["hash"] = prev = verify_dice.record_hash(kind, r)
    d["chain_head"] = prev


def test_the_tamperings_are_the_eighteen_of_the_issues() -> None:
    assert len(TAMPERINGS) == 18 and set(TAMPERINGS) == set(CAUGHT_BY)


async def test_resealing_the_true_file_changes_nothing(game) -> None:
    document = game[0]
    forged = copy.deepcopy(document)
    reseal(forged, chain_position(document))
    assert forged == document


@pytest.mark.parametrize("how", TAMPERINGS)
async def test_a_tampered_export_is_rejected(game, tmp_path: Path, how: str) -> None:
    """The strongest forger: the change made, then every hash of the chain recomputed."""
    document, posted, rolls, channel = game
    forged = copy.deepcopy(document)
    TAMPERINGS[how](forged)
    reseal(forged, chain_position(document))
    assert forged != document
    code, out = run(tmp_path, forged, "--seed-hash", posted, "--rolls", str(rolls),
                    "--anchors", channel_file(tmp_path, channel))
    assert code == 1, f"{how} passed:\n{out}"
    assert CAUGHT_BY[how] in out, out


@pytest.mark.parametrize("how", TAMPERINGS)
async def test_a_tampering_without_recomputing_the_chain_breaks_it(game, tmp_path: Path, how: str) -> None:
    """Without the channel's heads or values: a change the forger did not re-hash is seen
    by the chain itself (or by the checks that need no hash)."""
    document = game[0]
    forged = copy.deepcopy(document)
    TAMPERINGS[how](forged)
    code, out = run(tmp_path, forged)
    assert code == 1, f"{how} passed:\n{out}"


async def test_a_whole_forged_chain_passes_without_the_channels_heads_and_says_so(
        game, tmp_path: Path) -> None:
    """The limit the docs state: the file alone cannot prove itself.  A rewritten actor with
    every hash recomputed passes when no head from the channel is given, and the tool says
    that is what it could not see."""
    document = game[0]
    forged = copy.deepcopy(document)
    rename_actor(forged)
    reseal(forged, chain_position(document))
    code, out = run(tmp_path, forged)
    assert code == 0 and "a forger who rewrites the whole chain goes unseen" in out, out


MALFORMED: dict[str, bytes] = {
    "empty": b"",
    "not json": b"{nope",
    "a list": b"[1, 2]",
    "no steps": json.dumps({"format": "referee-log/1", "seed_hash": "x", "system": "duel"}).encode(),
    "binary": bytes(range(256)),
    "deep": b"[" * 100_000 + b"]" * 100_000,
}


def spoil(path: str, value: Any) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        target: Any = d
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return edit


SPOILT = {
    "die of zero sides": lambda d: rolled(d)[0]["dice"][0].update(sides=0),
    "a string for a value": lambda d: rolled(d)[0]["dice"][0].update(value="six"),
    "a seed that is not hex": spoil("seed", "zz"),
    "steps not a list": spoil("steps", {"0": 1}),
    "audit data a list": lambda d: d["audit"][0].update(data=[1]),
    "a step that is a number": spoil("steps.1", 7),
    "seq a float": spoil("steps.0.seq", 0.5),
}


@pytest.mark.parametrize("how", [*MALFORMED, *SPOILT])
async def test_bad_input_gets_a_sentence_and_exit_2(game, tmp_path: Path, how: str) -> None:
    document = game[0]
    if how in MALFORMED:
        raw = MALFORMED[how]
    else:
        forged = copy.deepcopy(document)
        SPOILT[how](forged)
        raw = json.dumps(forged).encode()
    done = run_process(tmp_path, raw)
    # Unreadable: 2.  Readable but impossible (a d0 die): a problem found, 1.
    assert done.returncode in ((2,) if how in MALFORMED else (1, 2)), done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout.strip(), done.stdout + done.stderr


def test_a_missing_file_and_bad_arguments(tmp_path: Path) -> None:
    missing = subprocess.run([sys.executable, str(TOOL), str(tmp_path / "none.json")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "Cannot read" in missing.stdout
    assert "Traceback" not in missing.stderr
    bad = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.fixture
def shells_system() -> Any:
    """Shells (the test-only system with a sealed choice), registered before the table opens."""
    from rules.core import registry  # noqa: PLC0415
    from tests.platform.shells import SHELLS  # noqa: PLC0415

    registry.register(SHELLS)
    yield SHELLS
    registry.unregister(SHELLS.key)


async def test_a_forged_seal_with_its_commitments_recomputed_is_named_by_step_side_and_key(
        shells_system: Any, table: Table) -> None:
    """Issue 28: red's coin moved from cup 2 to cup 1 after the end, its leaf, root and
    reveal recomputed with the published seed: the verifier names the step that sealed it,
    red, the seal's key and the root the channel's line showed ("sealed: …"), and the reveal."""
    from tests.platform.test_sealed_orders import ok, played_to_the_end, seated  # noqa: PLC0415

    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    final = await played_to_the_end(table)
    forged = copy.deepcopy(final)
    seed = bytes.fromhex(final["seed"])
    (seal,) = forged["steps"][1]["action"]["seals"]
    posted = seal["root"][:8]
    new = '{"cup":1}'
    leaf = verify_dice.seal_leaf(verify_dice.seal_nonce(seed, "coin:red", 0), new)
    seal["items"], seal["leaves"] = [new], [leaf]
    seal["root"] = verify_dice.seal_root([leaf])
    reveal = next(s for s in forged["steps"] if (s.get("action") or {}).get("reveals"))
    reveal["action"]["reveals"][0].update(item=new, leaf=leaf)
    problems = verify_dice.verify(forged)
    assert any(p.startswith(f"step #1 (red; seal 'coin:red' (sealed: {seal['root'][:8]}…)): its hash does not match")
               for p in problems), problems
    assert any(f"step #{reveal['seq']} (blue; reveal of 'coin:red' item 0)" in p for p in problems), problems
    assert posted != seal["root"][:8]  # what the reader compares with the channel's line
