"""The first evening, bot side (issue 40): what a new club met, in console transcripts."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

START = ["@alice /game new system:rr", "@alice /game join side:nato", "@bob /game join side:soviet"]


async def test_undo_shows_the_answers_of_the_position_it_went_back_to(tmp_path: Path):
    """1: after /game undo the numbered answers are those of the step gone back to, and a
    number picks from them (it picked from the undone step's stale list)."""
    script = [*START, "@alice /rr deploy-default", "@alice /rr standing retreat:ask",
              "@alice /game undo", "@alice 1"]
    out: list[str] = []
    refused, text, _ = await run(tmp_path, script, [], out=out)
    assert refused == 0, text
    undo = next(m for m in out if m.startswith("↩️"))
    assert "NATO may answer (tap, or type the number):\n1. Ready" in undo
    assert "#3 alice (nato): ready" in text  # "1" picked Ready, from the undo's list


async def test_rollback_shows_the_answers_of_the_side_now_waited_on(tmp_path: Path):
    """1: a rollback's reply offers the answers of the position it went back to."""
    script = [*START, "@alice /rr deploy-default", "@alice /rr ready",
              "@alice /mod rollback to:1 reason:misclick", "@alice 1"]
    out: list[str] = []
    refused, text, _ = await run(tmp_path, script, [], out=out, moderators=("alice",))
    assert refused == 0, text
    rollback = next(m for m in out if m.startswith("⏪"))
    assert "NATO may answer (tap, or type the number):\n1. Ready" in rollback
    assert "#3 alice (nato): ready" in text
