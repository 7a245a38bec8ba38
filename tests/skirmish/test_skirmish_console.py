"""Two people play the first turn of a skirmish in the console: orders by text, questions to
the other player, every die shown, snapshots drawn (real service, real SQLite, real PNGs)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from bot.config import Settings
from bot.console import Console
from bot.service import ScriptedDiceSource, Service
from tests.console_run import run

TRANSCRIPT = [
    "@alice /game new system:skirmish scenario:open_field",
    "@alice /game join side:us",
    "@bob /game join side:germans",
    "@alice /skirmish activate unit:1pl",
    "@alice /skirmish action kind:fire-and-move",
    "@alice /skirmish fire target:gren",
    "@bob /skirmish decide choice:stand",
    "@alice /skirmish move who:1pl to:16,33",
    "@bob /skirmish decide choice:hold",
    "@alice /skirmish move who:sq1 to:30,30",
    "@alice /skirmish done",
    "@alice /skirmish activate unit:tank",
    "@alice /skirmish action kind:move",
    "@alice /skirmish move who:sherman to:30,32",
    "@alice /skirmish done",
    "@alice /skirmish activate unit:us-hq",
    "@alice /skirmish action kind:overwatch",
    "@bob /skirmish activate unit:mortars",
    "@bob /skirmish action kind:barrage",
    "@bob /skirmish barrage target:sq2",
    "@bob /skirmish activate unit:gren",
    "@bob /skirmish action kind:fire",
    "@bob /skirmish fire target:1pl",
    "@bob /skirmish done",
    "@bob /skirmish measure team:pak40 to:sherman",
]
# Initiative 5 against 2, the first check 5, then every die a 4.
DICE = [5, 2, 5] + [4] * 300


async def test_a_skirmish_turn_in_the_console(tmp_path: Path) -> None:
    out: list[str] = []
    refused, text, console = await run(tmp_path, TRANSCRIPT, DICE, out)
    assert refused == 1, text  # sq1 has no move left
    assert "Americans 5, Germans 2 → Americans have the first Initiative (Turns)" in text
    assert "1pl fires at gren: go to ground first?" in text
    assert "sq2 Rifles and BAR 1 FP at gren (12.8\" long): to hit 3+ +1 long range = 4+ 🎲4 → 1 hit" in text
    assert "gren: 1 suppression (3 FP hit) on g1 (Suppression)" in text
    assert ("May fire at 1pl: gren: Reaction Fire (+1 To Hit), g2 7.9\": "
            "decide choice:fire unit:gren or decide choice:hold") in text
    assert "sq1 has used all of its move this activation (Moving)." in text
    assert "Americans have no unit left to act: Germans take the Initiative (Turns)" in text
    assert "mortars ranges in (observer m1) on sq2: 3+ 🎲4: on target (Indirect Fire)" in text
    assert "Barrage (3 guns, 3 FP) on sq2: 3+ 🎲4 4 4 → 3 hits" in text
    assert "1pl: 2 suppression (3 FP hit + 1 artillery) on sq2, lt (Suppression)" in text
    assert "gren Training Check 🎲4 vs 4+ +1 suppression = 5+: failed" in text
    assert "one suppression marker removed (g1); Fail actions only" in text
    assert 'pak40 → sherman: 11.4" · in sight · cover none · can fire (pak40)' in text
    assert len(console.snapshots) >= 3
    for path in console.snapshots:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 400
    assert all(len(line) <= 2000 for line in out)


async def test_a_whole_skirmish_in_the_console(tmp_path: Path) -> None:
    # Done when: "A whole game plays through the console ... with snapshots": two players type
    # legal orders (the game's own offers, as text) until the game ends, every question of the
    # other player answered by that player.
    import random
    import shlex

    from bot.console import CONSOLE_CHANNEL

    rng = random.Random(11)
    settings = Settings(db=tmp_path / "whole.sqlite3", snapshot_dir=tmp_path / "snaps")
    service = await Service.open(
        settings, dice_source=ScriptedDiceSource([rng.randint(1, 6) for _ in range(40000)]))
    out: list[str] = []
    players = {"us": "alice", "germans": "bob"}
    try:
        console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
        refused = await console.run_script([
            "@alice /game new system:skirmish scenario:open_field options:turns=2",
            "@alice /game join side:us",
            "@bob /game join side:germans",
            "@bob /skirmish defaults losses:ask allocate:ask follow:ask morale:ask",
        ])
        orders = 0
        for _ in range(1500):
            game = await service.games.load(CONSOLE_CHANNEL)
            assert game is not None
            if game.system.result(game.state) is not None:
                break
            side = game.system.waiting_on(game.state)[0]
            legal = [a for a in game.system.legal_actions(game.state, side)
                     if not a.read_only and a.name != "defaults"]
            action = rng.choice(legal)
            words = [shlex.quote(f"{k}:{v}") for k, v in
                     action.model_dump(mode="json", exclude_defaults=True).items()]
            refused += await console.run_script(
                [f"@{players[side]} /skirmish {action.name} {' '.join(words)}"])
            orders += 1
        game = await service.games.load(CONSOLE_CHANNEL)
        verdict = game.system.result(game.state) if game else None
    finally:
        await service.close()
    text = "\n".join(out)
    (tmp_path / "transcript.txt").write_text(text, "utf-8")
    assert verdict is not None and refused == 0 and orders > 20, text[-3000:]
    assert "End of turn 2 (Turns)" in text or "no unit left" in text or "retreat" in text
    assert "decide" in text and "Training Check" in text and "🎲" in text
    assert len(console.snapshots) >= 3
    for path in console.snapshots:
        with Image.open(path) as image:
            assert image.format == "PNG" and image.width >= 400
    assert all(len(line) <= 2000 for line in out)
