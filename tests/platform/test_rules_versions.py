"""Games that outlive a rules change (issue 42), on SQLite and PostgreSQL: every step records
its release and rules version, the first step under new rules announces them once, the game
plays on from its stored head, ``/mod rules-adopt`` re-derives it from a step with the dice
as recorded and a rollback undoes that, and ``referee check-games`` / ``referee health`` tell
the operator which live games the new rulings change.

The changed ruling is the duel's: a turn passed scores a point (D2).
"""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

from bot import VERSION, cli, versions
from bot.chaincheck import record_problems
from bot.replay import replay
from tests.platform.conftest import Table
from tests.platform.duel import Duel, play
from tests.platform.test_service import start, state_json

NEW_RULING = "- duel 2: D2 a turn passed scores a point\n"


@pytest.fixture
def change_ruling(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Called mid-game: the duel's rules become version 2, passing the turn scoring the
    passer a point (D2), with its changelog line (an upgrade, as the game sees it)."""
    passed = play.pass_turn

    def pass_turn(ctx: Any) -> None:
        ctx.state.scores[ctx.side] += 1
        ctx.say("bonus", f"+1 for {ctx.side}: a turn passed scores a point (D2)", "D2")
        passed(ctx)

    def upgrade() -> None:
        monkeypatch.setattr(play, "pass_turn", pass_turn)
        monkeypatch.setattr(Duel, "rules_version", 2)
        monkeypatch.setattr(versions, "changelog_text", lambda system: NEW_RULING if system.key == "duel" else "")
    return upgrade


async def played(table: Table) -> None:
    """Three rolls: steps #1 to #3."""
    await start(table)
    for user in ("alice", "bob", "alice"):
        assert not (await table(user, "/duel roll")).error


async def final(table: Table) -> dict[str, Any]:
    end = await table("mod", "/game end", moderator=True)
    assert not end.error, end.text
    data = next(a.data for a in end.attachments if a.filename.endswith("-final.json.gz"))
    document: dict[str, Any] = json.loads(gzip.decompress(data))
    return document


async def test_every_step_records_its_versions_and_the_export_names_them(table: Table) -> None:
    await played(table)
    document = await final(table)
    assert [s["versions"] for s in document["steps"]] == [{"release": VERSION, "rules": 1}] * 4
    assert document["versions"] == {"exported_by": VERSION, "rules": 1, "rules_label": "duel 1",
                                    "steps_made_under": [{"release": VERSION, "rules": 1, "label": "duel 1"}]}
    assert replay(document).ok


async def test_the_first_step_under_new_rules_announces_them_once(
        table: Table, change_ruling: Callable[[], None]) -> None:
    await start(table)
    assert not (await table("alice", "/duel wait")).error
    change_ruling()
    first = await table("bob", "/duel wait")
    assert first.text.startswith("📜 Rules updated to duel 2: D2 a turn passed scores a point; steps before #2"
                                 " stand as played.\n#2 bob (blue): wait"), first.text
    again = await table("alice", "/duel wait")
    assert "Rules updated" not in again.text
    game = await table.service.games.load(table.channel)
    assert game is not None
    steps = await table.service.store.steps(game.row.id)
    assert [s.rules_version for s in steps] == [1, 1, 2, 2]  # played on from its stored head


async def test_rules_adopt_rederives_with_the_recorded_dice_and_a_rollback_restores(
        table: Table, change_ruling: Callable[[], None], tmp_path: Path) -> None:
    await played(table)
    as_played = await state_json(table)
    game = await table.service.games.load(table.channel)
    assert game is not None
    counter = game.row.dice_counter
    change_ruling()
    refused = await table("bob", "/mod rules-adopt from:2 reason:D2", moderator=False)
    assert refused.error and "Only moderators" in refused.text
    reply = await table("mod", '/mod rules-adopt from:2 reason:"the D2 ruling"', moderator=True)
    assert not reply.error, reply.text
    assert "re-derived the game from step #2 under today's rules (duel 2), with the dice as recorded" in reply.text
    assert "Steps #2–#3 are kept, struck through, as played; now #4–#5. /mod rollback to:3 restores" in reply.text
    assert "#2 → #4: " in reply.text and "(D2)" in reply.text
    steps = await table.service.store.steps(game.row.id)
    old, new = {s.seq: s for s in steps}, steps[4:]
    assert [(s.kind, s.rerolls, s.rules_version) for s in new] == [("order", 2, 2), ("order", 3, 2)]
    assert [s.dice for s in new] == [old[2].dice, old[3].dice]  # the same rolls, numbers and values
    assert old[2].reverted_by is not None and old[3].reverted_by is not None
    live = await table.service.games.load(table.channel)
    assert live is not None and live.row.dice_counter == counter  # no roll drawn anew
    assert json.loads(await state_json(table))["scores"] != json.loads(as_played)["scores"]
    audit = (await table.service.store.audit(game.row.id))[-1]
    assert (audit.action, audit.data["from"], audit.data["rules"]) == ("rules-adopt", 2, "duel 2")
    # The revert marks are the ones the records make (referee health's check, issue 45).
    assert await record_problems(table.service.store) == []

    back = await table("mod", "/mod rollback to:3 reason:as played", moderator=True)
    assert not back.error, back.text
    assert await state_json(table) == as_played
    steps = await table.service.store.steps(game.row.id)
    assert [s.reverted_by is not None for s in steps] == [False, False, False, False, True, True]
    assert (await table.service.store.audit(game.row.id))[-1].data["base"] == 1  # the step both lines share
    assert await record_problems(table.service.store) == []

    document = await final(table)
    from tools import verify_dice  # noqa: PLC0415

    assert verify_dice.verify(document) == []  # both lines, the reused rolls counted once
    # The auditor reads the count /game end announced, and the reused rolls apart from it.
    from tests.platform.test_verify_dice import run  # noqa: PLC0415

    code, out = run(tmp_path, document, "--rolls", str(counter))
    assert code == 0, out
    assert f"all {counter} rolls recompute in order (2 more used again by /mod rules-adopt, counted once)" in out
    # The re-derived line's marks are replayed from the records: one made active again
    # outside the record, or the re-derivation's own entry taken away, is named.
    undone = json.loads(json.dumps(document))
    undone["steps"][4]["reverted_by"] = None
    assert any("step #4 is active in the file, but audit entry" in p and "rollback" in p
               for p in verify_dice.verify(undone))
    unadopted = json.loads(json.dumps(document))
    unadopted["steps"][4]["rerolls"], unadopted["steps"][5]["rerolls"] = 7, 7
    assert any("re-derives #7 with no /mod rules-adopt entry" in p for p in verify_dice.verify(unadopted))
    report = replay(document)
    assert report.ok and not report.problems
    assert report.explained and all("made under duel 1; today's rules (duel 2) give" in e and "forged" not in e
                                    for e in report.explained)
    assert (f"{len(report.explained)} made under older rules resolve otherwise under this release's rules"
            " (a rules change, not a forgery") in out


async def test_rules_adopt_with_nothing_to_change_says_so_and_changes_nothing(table: Table) -> None:
    await played(table)
    before = await state_json(table)
    reply = await table("mod", "/mod rules-adopt from:1 reason:check", moderator=True)
    assert reply.error and "resolve exactly as played" in reply.text and "nothing was changed" in reply.text
    assert await state_json(table) == before
    for bad, said in (("from:9", "There is no step #9"), ("from:0", "minimum")):
        refused = await table("mod", f"/mod rules-adopt {bad} reason:x", moderator=True)
        assert refused.error, bad


async def test_check_games_and_health(table: Table, change_ruling: Callable[[], None], store_url: Path | str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Before the check, health notes the live game was never checked against this release;
    check-games lists its first step today's rules resolve otherwise, with the rule and both
    outcomes, and changes no game; then health is quiet."""
    await played(table)
    before = await state_json(table)
    change_ruling()
    assert await asyncio.to_thread(cli.main, ["health", "--db", str(store_url)]) == 0
    said = capsys.readouterr().out
    assert "note: the 1 live game(s) of" in said and "were not checked against this release (0.1.0 · " in said
    assert await asyncio.to_thread(cli.main, ["check-games", "--db", str(store_url)]) == 1
    out = capsys.readouterr().out
    assert "△ game #1 (duel, channel chan-1): first differs at #1: made under duel 1; today's rules (duel 2) give" in out
    assert "D2 changed in duel 2 (duel 2: D2 a turn passed scores a point)" in out
    assert "nothing was changed" in out
    assert await state_json(table) == before
    assert await asyncio.to_thread(cli.main, ["health", "--db", str(store_url)]) == 0
    assert "note:" not in capsys.readouterr().out
