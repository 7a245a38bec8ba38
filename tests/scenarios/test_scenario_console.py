"""The console started on a club's file (issue 27, point 3: ``--scenario-file``): its first
line names the file's own system and the first orders of its opening phase, never another
system's."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from bot.config import Settings
from bot.console import Console
from bot.scenariocli import start_hint
from bot.service import Service

CLUB = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "club"


async def test_the_console_on_a_mak_file_names_mak_and_its_first_order(tmp_path: Path) -> None:
    service = await Service.open(Settings(db=tmp_path / "c.sqlite3", snapshot_dir=tmp_path))
    lines: list[str] = []
    try:
        console = Console(service, write=lines.append, snapshot_dir=tmp_path,
                          scenario_file=CLUB / "mak-night-raid.yaml")
        await console.repl(io.StringIO(""))
    finally:
        await service.close()
    assert "system:rr" not in lines[0]
    assert "/game new system:mak starts it" in lines[0]
    assert "/game join side:strahl, whose first orders are /mak enter" in lines[0]


@pytest.mark.parametrize("path", sorted(CLUB.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_club_file_gets_its_own_systems_hint(path: Path) -> None:
    system = path.stem.split("-")[0]
    hint = start_hint(path)
    assert f"/game new system:{system} starts it" in hint and f", whose first orders are /{system} " in hint


def test_a_file_that_cannot_be_played_says_so_and_names_the_check(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text((CLUB / "mak-night-raid.yaml").read_text("utf-8").replace("unit: PKA", "unit: PKX"))
    hint = start_hint(broken)
    assert "broken.yaml cannot be played" in hint and "'PKX' is not a unit type" in hint
    assert "referee scenario check broken.yaml" in hint
