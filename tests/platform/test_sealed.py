"""A sealed choice stays out of public text until its reveal (issue 29, point 1; issue 28): the
Maschinen Krieger air assignment (10.1.1, "Once both players are finished assigning their
units, the assignments are compared"), a sealed order since issue 28.  Its giver reads it
privately; the public reply, ``/game log`` and ``/game export`` hold only the seal; when both
sides are done, each assignment is revealed in public; the final export holds everything."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from tests.platform.conftest import Table


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


async def export(table: Table) -> tuple[dict[str, Any], str]:
    reply = await table("s", "/game export")
    raw = gzip.decompress(reply.attachments[0].data).decode()
    return json.loads(raw), raw


async def announced(service: Service) -> str:
    """The channel's announcements owed after private answers, settled, as one text."""
    out = []
    for owed_id, reply in await service.owed("chan-1"):
        out.append(reply.text)
        await service.settle(owed_id)
    return "\n".join(out)


async def test_10_1_1_an_air_assignment_is_secret_until_both_are_ready(table: Table, service: Service) -> None:
    for user, line in [("m", "/game new system:mak scenario:air"), ("m", "/game join side:merc"),
                       ("s", "/game join side:strahl")]:
        assert not (await table(user, line)).error
    refused = await table("m", "/mak air commit unit:M-Falke1 mission:air")
    assert refused.error and "privately" in refused.text  # a sealed order given in public
    commit = await table("m", "/mak air commit unit:M-Falke1 mission:air", private=True)
    assert not commit.error and commit.ephemeral, commit.text
    assert "M-Falke1: Air Combat" in commit.text
    public = await announced(service)
    assert "Mercenary assigned an aircraft on the duty chart (10.1.1) (sealed: " in public
    assert "Air Combat" not in public and "mission" not in public
    log = await table("s", "/game log")
    assert "air commit 🔒" in log.text and "Air Combat" not in log.text, log.text
    document, raw = await export(table)
    assert all(s["state"] is None for s in document["steps"])  # a running game with secrets
    assert '"mission":"air"' not in raw and "Air Combat" not in raw
    # The Strahl assign too; both say they are done: the assignments are compared.
    for user, line in [("s", "/mak air commit unit:S-PK401 mission:air"), ("m", "/mak air commit"),
                       ("s", "/mak air commit")]:
        reply = await table(user, line, private=True)
        assert not reply.error, reply.text
    public = await announced(service)
    assert '🔓 Revealed, both sides have assigned their aircraft (10.1.1): M-Falke1: Air Combat' in public
    assert "Mercenary: Air Combat M-Falke1" in public
