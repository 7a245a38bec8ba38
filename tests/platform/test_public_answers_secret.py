"""Answers to tap are public (issue 30); with Maschinen Krieger's concealment on they would
name the unit under a marker and its type (15.4.1; a play-test saw "11. Move: M-EngSQ1
(Eng.SQ) 5:0828, 5:0827" in the channel while M-Con1 stood there), so none are listed: the
side builds its order privately with /game act (issue 28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import answers
from bot.service import Service
from tests.platform.conftest import Table


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


async def played(table: Table, service: Service, options: str) -> str:
    """The answers offered under the Mercenaries' second move (only the engineer is left to
    move), as the channel reads them."""
    for user, line, private in [
            ("alice", f"/game new system:mak scenario:minefields {options}".strip(), False),
            ("alice", "/game join side:merc", False), ("bob", "/game join side:strahl", False),
            ("alice", "/mak conceal hide unit:M-EngSQ1", True),
            ("alice", "/mak end", False), ("bob", "/mak end", False),
            ("alice", "/mak move unit:M-AFS1 to:5:0626", False),
            ("alice", "/mak move unit:M-AFS2 to:5:1026", False)]:
        if "conceal" in line and "concealment" not in options:
            continue
        reply = await table(user, line, private=private)
        assert not reply.error, (line, reply.text)
    game = await service.games.load("chan-1")
    found = answers.offer(game.system, game.state, game.row.id, game.row.head_seq, "merc")
    assert found is not None
    return "\n".join(found.lines + [b.label for b in found.buttons]
                     + ([o.label for o in found.menu.options] if found.menu else []))


async def test_15_4_1_no_answer_names_a_concealed_unit_in_public(table: Table, service: Service) -> None:
    text = await played(table, service, "options:concealment=true")
    assert "M-EngSQ1" not in text and "Eng.SQ" not in text
    assert "/game act" in text


async def test_without_concealment_the_answers_are_listed(table: Table, service: Service) -> None:
    text = await played(table, service, "")
    assert "may answer (tap, or type the number)" in text and "M-EngSQ1" in text


async def test_19_1_2_a_move_past_secret_enemy_minefields_cannot_be_undone(table: Table) -> None:
    """A play-test undid each clean move and tried the next way until one hit a mine: a
    move while the enemy has minefields not yet found says where none lay, so it stays."""
    for user, line in [("alice", "/game new system:mak scenario:minefields"),
                       ("alice", "/game join side:merc"), ("bob", "/game join side:strahl")]:
        assert not (await table(user, line)).error
    laid = await table("bob", '/mak mines lay fields:"5:0420=10"', private=True)
    assert not laid.error, laid.text
    for user, line in [("alice", "/mak end"), ("bob", "/mak end"),
                       ("alice", "/mak move unit:M-AFS1 to:5:0626")]:
        reply = await table(user, line)
        assert not reply.error, (line, reply.text)
    undo = await table("alice", "/game undo")
    assert undo.error and "revealed new information" in undo.text
