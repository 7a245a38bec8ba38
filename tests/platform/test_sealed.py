"""A sealed choice stays out of public text until its reveal (issue 29, point 1): the
Maschinen Krieger air assignment (10.1.1, "Once both players are finished assigning their
units, the assignments are compared") in the public reply, ``/game log`` and ``/game
export``; the record keeps it, and the export shows it once both sides are ready."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.platform.conftest import Table


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


async def export(table: Table) -> tuple[dict[str, Any], str]:
    reply = await table("s", "/game export")
    raw = gzip.decompress(reply.attachments[0].data).decode()
    return json.loads(raw), raw


async def test_10_1_1_an_air_assignment_is_secret_until_both_are_ready(table: Table) -> None:
    for user, line in [("m", "/game new system:mak scenario:air"), ("m", "/game join side:merc"),
                       ("s", "/game join side:strahl")]:
        assert not (await table(user, line)).error
    commit = await table("m", "/mak commit unit:M-Falke1 mission:air")
    assert not commit.error and not commit.ephemeral, commit.text
    assert "commit unit:M-Falke1 mission:🔒" in commit.text and "mission:air" not in commit.text
    log = await table("s", "/game log")
    assert "mission:🔒" in log.text and "mission:air" not in log.text, log.text
    document, raw = await export(table)
    step = document["steps"][-1]
    assert step["sealed"] and step["state"] is None and step["action"]["options"]["mission"] == "🔒"
    assert '"M-Falke1": "air"' not in raw and '"mission": "air"' not in raw
    assert document["steps"][0].get("sealed") is None  # the setup, before the round: shown
    # The Strahl assign too; both say they are done: the assignments are compared.
    for user, line in [("s", "/mak commit unit:S-PK401 mission:air"), ("m", "/mak commit"),
                       ("s", "/mak commit")]:
        reply = await table(user, line)
        assert not reply.error, reply.text
        assert "mission:air" not in reply.text
    document, raw = await export(table)
    assert not any(s.get("sealed") for s in document["steps"])
    assert document["steps"][1]["action"]["options"]["mission"] == "air"
    assert document["steps"][1]["state"]["air"]["duty"]["M-Falke1"] == "air"
