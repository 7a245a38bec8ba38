"""Playing a transcript in the console on a real SQLite file, for any system's tests."""

from __future__ import annotations

from pathlib import Path

from bot.config import Settings
from bot.console import Console
from bot.service import ScriptedDiceSource, Service


async def run(tmp_path: Path, script: list[str], dice: list[int],
              out: list[str] | None = None, moderators: tuple[str, ...] = ()) -> tuple[int, str, Console]:
    """Play ``script`` in the console on a real SQLite file in ``tmp_path`` (kept between
    runs, so a later run goes on with the same game); (refusals, transcript, console).
    ``out`` collects each message printed; ``moderators`` may use ``/mod`` (``--moderator``)."""
    settings = Settings(db=tmp_path / "game.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(settings, dice_source=ScriptedDiceSource(dice))
    out = [] if out is None else out
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append,
                          moderator=list(moderators))
        refused = await console.run_script(script)
    finally:
        await service.close()
    return refused, "\n".join(said(line) for line in out), console


def said(line: str) -> str:
    """A printed line as the transcript tests read it: a picture's line keeps its path, not
    its description (its alt text repeats the step's lines, issue 41; the console's printing
    of it is tested in ``tests/platform/test_render_pool.py``)."""
    return line.split(" — ", 1)[0] if line.startswith("📎") else line
