"""Raiders single missions played by the computer (issue 43): one line per seed, then the totals.

As ``tools/strength.py`` plays a game (:func:`rules.core.matches.play_match`, the same seeds
and dice), but with option ``single`` (6.0: the mission is the game), so a mission's win rate
is read without a campaign's 25.3 around it.  Figures to read, not asserted:

    nice -n 19 .venv/bin/python tools/raiders_single.py --seeds 1000-1019
    nice -n 19 .venv/bin/python tools/raiders_single.py --seeds 1020 --max-orders 600
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core import registry  # noqa: E402 - after the path above
from rules.core.dice import SeededDice  # noqa: E402
from rules.core.matches import Match, PlayerKind, play_match  # noqa: E402
from rules.core.playout import scenario_for  # noqa: E402


def seeds_of(text: str) -> list[int]:
    """``1000-1019`` or ``1020`` or ``1000,1005``: the seeds named."""
    out: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out += list(range(int(first), int(last or first) + 1))
    return out


def mission_of(seed: int) -> str:
    """The Mission card the game of ``seed`` opens with (drawn as play_match's set-up draws it)."""
    system = registry.get("raiders")
    dice = SeededDice(f"{system.key}-match-{seed}".encode())
    state = system.setup(scenario_for(system, seed), dict(system.playout_hints.options), dice).state
    mission = getattr(state, "mission", None)
    return str(mission.card) if mission is not None else "?"


def play_one(seed: int, level: PlayerKind, max_orders: int) -> tuple[str, Match]:
    """One single mission of ``seed`` played by ``level``."""
    return mission_of(seed), play_match(registry.get("raiders"), seed, {"raiders": level}, max_orders=max_orders)


def p95(values: list[float]) -> float:
    """The 95th percentile (0 for none)."""
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    """Play the seeds and print a line per game and the totals (JSON lines with ``--log``)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1000-1019")
    parser.add_argument("--level", default="normal")
    parser.add_argument("--max-orders", type=int, default=4000)
    parser.add_argument("--log", type=Path)
    parser.add_argument("--free-in-a-row", default="", help="the cap on free orders to try (none: no cap)")
    args = parser.parse_args()
    system = registry.get("raiders")
    if args.free_in_a_row:  # a cap to try instead of the system's (SearchHints.free_in_a_row)
        cap = None if args.free_in_a_row == "none" else int(args.free_in_a_row)
        system.search_hints = system.search_hints.model_copy(update={"free_in_a_row": cap})  # type: ignore[misc]
    # This process's system plays one mission (6.0), as docs/computer-player.md's runs did.
    system.playout_hints = system.playout_hints.model_copy(  # type: ignore[misc]
        update={"options": {**system.playout_hints.options, "single": True}})
    won = unfinished = orders = 0
    cpus: list[float] = []
    for seed in seeds_of(args.seeds):
        mission, game = play_one(seed, args.level, args.max_orders)
        cpu = [t.cpu_seconds for t in game.thoughts]
        cpus += cpu
        win = game.finished and game.scores["raiders"] >= 1.0
        won += win
        unfinished += not game.finished
        orders += game.orders
        line = {"seed": seed, "mission": mission, "won": win, "finished": game.finished, "orders": game.orders,
                "score": round(game.scores["raiders"], 3),
                "longest_free_run": max((t.free_run for t in game.thoughts), default=0), "p95": round(p95(cpu), 3), "illegal": game.illegal}
        print(json.dumps(line), flush=True)
        if args.log:
            with args.log.open("a") as out:
                out.write(json.dumps(line) + "\n")
    print(f"games {len(seeds_of(args.seeds))} won {won} unfinished {unfinished} orders {orders}"
          f" cpu/order p95 {p95(cpus):.3f} s max {max(cpus, default=0):.3f} s load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
