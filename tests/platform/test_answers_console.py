"""Numbered answers in the console (issue 30): the choices a Discord message shows as buttons
and menus are numbered in the reply's text, and ``2`` or ``@bob 2`` picks one, through the
same service path as the typed order.  Played on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

START = ["/game new system:skirmish", "@alice /game join side:us", "@bob /game join side:germans"]


async def test_a_numbered_answer_gives_that_order_as_its_player(tmp_path: Path) -> None:
    refused, text, _ = await run(tmp_path, START + ["@alice 2"], dice=[5, 2] * 30)
    assert refused == 0
    assert "1. Activate: us-hq" in text and "2. Activate: 1pl" in text
    assert "✔️ alice chose: Activate: 1pl" in text
    assert "#1 alice (us): activate unit:1pl" in text


async def test_another_player_cannot_pick_and_nothing_changes(tmp_path: Path) -> None:
    refused, text, _ = await run(tmp_path, START + ["@bob 1", "@alice 9"], dice=[5, 2] * 30)
    assert "That question is for us (@alice); only they may answer it." in text
    assert "There is no answer 9 to pick; answers: 1, 2, 3." in text
    assert "#1 " not in text
    assert refused == 1  # bob's press; the unknown number is the console's own refusal


async def test_a_number_before_any_answer_was_offered_says_where_to_look(tmp_path: Path) -> None:
    """A console opened again on a game under way has no answers numbered yet: the refusal
    says so and names /game status, rather than listing no answers."""
    refused, text, _ = await run(tmp_path, ["@alice 1"], dice=[5, 2] * 30)
    assert "There is no answer 1 to pick: no reply since the console opened offered numbered answers." in text
    assert "/game status says whose move it is" in text
    assert "answers: ." not in text


async def test_game_act_builds_an_order_by_numbers(tmp_path: Path) -> None:
    script = START + ["@alice /game act", "@alice 1", "@alice 0", "@alice 1", "@alice 1"]
    refused, text, _ = await run(tmp_path, script, dice=[5, 2] * 30)
    assert refused == 0
    assert "Americans order. Which order?" in text
    assert "0. Back" in text
    assert "1. Send it" in text or "#1 alice (us)" in text
