"""Two people play the raid in the console: orders by text, the bot measures and draws."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

TRANSCRIPT = [
    "@alice /game new system:commando",
    "@alice /game join side:commandos",
    "@bob /game join side:germans",
    "@alice /commando direct officer:O1 unit:A1",
    "@alice /commando roll",
    "@alice /commando move unit:D1 to:caisson",
    "@alice /commando move unit:D2 to:40,5",
    "@alice /commando demolish unit:D1 target:caisson",
    "@alice /commando end",
    "@bob /commando roll",
    "@bob /commando shoot unit:PB2 target:D2",
    "@bob /commando end",
]
# Activation of 8 commando units, the demolition, 11 German activations, a shot and a save.
DICE = [5] * 8 + [6] + [6] * 11 + [6, 2]


async def test_a_raid_turn_in_the_console(tmp_path: Path) -> None:
    """Orders with places by name and x,y; a refusal with the figure; snapshots after turns."""
    refused, text, console = await run(tmp_path, TRANSCRIPT, DICE)
    assert refused == 1, text
    assert 'O1 directs A1 2.0": +1 (Officers)' in text
    assert "A1: 🎲 5 +1 officer = 6 → 3 actions" in text
    assert 'D1 moves 2.6" → Dock gate (caisson) (1 action, Movement)' in text
    # 25.7" is more than D2's 18", but PB2's 6" line halts it after 0.6": a move cut short
    # (issue 25, 9), not a move too long.
    assert ('D2 would stop after 0.6" at 37.1,29.9: stopped 6" from PB2 (Movement). '
            'Send to:37.1,29.9, or add confirm:yes.') in text
    assert "🎲 6 need 4+ → 💥 BANG! Dock gate (caisson) destroyed" in text
    assert 'PB2 shoots D2 at 6.4" (Shooting)' in text
    assert "D2 saves 🎲 2: need 4+ → 1 fail: eliminated" in text
    assert len(console.snapshots) >= 3  # the opening table and one per side's turn
    assert all(path.exists() for path in console.snapshots)


async def test_a_spectator_may_measure(tmp_path: Path) -> None:
    """The tape measure is read-only: anyone watching may use it, seated or not; it stores
    nothing, and other orders still need a seat."""
    refused, text, _ = await run(tmp_path, [
        "@alice /game new system:commando",
        "@alice /game join side:commandos",
        "@carol /commando measure unit:D2 to:pumphouse",
        "@carol /commando roll",
    ], [5] * 20)
    assert refused == 1, text
    assert '📏 D2 → Pump house: 6.7" to contact' in text
    assert 'stopped 6" from PB2' in text  # where a move there would really stop
    assert "not seated" in text


async def test_the_fall_back_after_the_caisson_goes_the_full_3_inches(tmp_path: Path) -> None:
    """The play-tester's game: D1 blows the caisson with O1 standing on the 3" point.
    Demolition: "the unit moves 3 inches away"; Movement: "Units may pass through friendly
    units without penalty": D1 goes on through O1's base to clear ground, not 1.5"."""
    refused, text, _ = await run(tmp_path, [
        "@alice /game new system:commando",
        "@alice /game join side:commandos",
        "@bob /game join side:germans",
        "@alice /commando roll unit:D1",
        "@alice /commando move unit:D1 to:caisson",
        "@alice /commando demolish unit:D1 target:caisson",
    ], [6, 5])
    assert refused == 0, text
    assert ('D1 falls back 3.5" (Demolition): on through O1\'s base to clear ground '
            "(bases never overlap)") in text


async def test_the_last_reply_says_the_result_once(tmp_path: Path) -> None:
    """A one-turn raid (``options:turns=1``): the reply to the last ``end`` gives the result
    once, and ``/game status`` afterwards says the raid is over, not whose turn it is."""
    refused, text, _ = await run(tmp_path, [
        "@alice /game new system:commando options:turns=1",
        "@alice /game join side:commandos",
        "@bob /game join side:germans",
        "@alice /commando end",
        "@bob /commando end",
        "@bob /game status",
    ], [])
    assert refused == 0, text
    reply = text[text.index("#2 bob"):text.index("> @bob /game status")]
    result = "Draw 0-0: 0 targets destroyed, 0 commando and 0 German units lost."
    assert reply.split("📣")[0].count(result) == 1, reply
    assert "🏁 Game over — reveal the dice with /game end." in reply
    assert reply.count(result) == 2, reply  # and once in the turn's digest
    status = text[text.index("> @bob /game status"):]
    assert "Turn 1/1 · Raid over · Draw 0-0" in status and "· command" not in status


async def test_game_map_is_posted_for_a_seated_player_private_for_a_spectator(
    tmp_path: Path,
) -> None:
    """``/game map`` follows one rule in every system (bot/gamecmds.py ``cmd_map``): posted
    for a seated player, private to a spectator unless ``post:`` (the Discord service test of
    that issue).  A commando game's creator is not seated until ``/game join``: unlike a
    Raiders game (solitaire: the creator takes the one seat), its map is then private."""
    refused, text, _ = await run(tmp_path, [
        "@alice /game new system:commando",
        "@alice /game map",
        "@alice /game join side:commandos",
        "@alice /game map",
    ], [])
    assert refused == 0, text
    first, second = text.split("> @alice /game map")[1:]
    assert first.lstrip().startswith("(only @alice sees this) 🗺️ Turn 1/8")
    assert second.lstrip().startswith("🗺️ Turn 1/8")
