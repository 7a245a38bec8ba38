"""How strong the computer player is (issue 43): whole games, printed as a table.

For each system and each side, ``--games`` games of the computer at ``--level`` (normal)
against each ``--against`` player (the random legal player, ``easy``), the computer seeing
its side's observation only.  Printed per row: wins, draws and losses of the computer
(draws counted apart), the CPU seconds per order it chose (mean, p95, max: the thinking
process's own CPU time, not the wall clock of a shared machine), the orders the rules
refused (none should be), and the machine's load average while the row ran.

    .venv/bin/python tools/strength.py                       # every system, 100 games a row
    .venv/bin/python tools/strength.py --systems rr --games 20 --jobs 2
    .venv/bin/python tools/strength.py --markdown >> docs/computer-player.md
    .venv/bin/python tools/strength.py --decisions 20 --level hard   # CPU a decision only
    .venv/bin/python tools/strength.py --minutes 60 --log run.jsonl  # stop beginning games after an hour
    .venv/bin/python tools/strength.py --table run.jsonl other.jsonl  # the table of logged games
    .venv/bin/python tools/strength.py --log docs/strength/games.jsonl --resume --minutes 120  # go on
    .venv/bin/python tools/strength.py --balance random,easy --log docs/strength/balance.jsonl  # both sides alike

Games are played round by round (game n of every row, then game n+1), so a run cut short
has about as many games in every row.

A solitaire system (Raiders) has one side: its row is the computer's campaigns against the
rules' hostiles, beside the random player's own record on the same seeds (``random`` row).
Not a test: figures to read, not asserted (the suite plays a few short games only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from itertools import islice
from pathlib import Path
from typing import cast, get_args

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.core import registry  # noqa: E402 - after the path above
from rules.core.computer import BUDGETS, think  # noqa: E402
from rules.core.matches import Match, PlayerKind, play_match  # noqa: E402
from rules.core.playout import play  # noqa: E402

SYSTEMS = ("rr", "raiders", "commando", "skirmish", "mak")


def code_version() -> str:
    """The commit the games were played with (a log kept over many sittings may span
    changes to the player: its table can then be read commit by commit), ``+changes`` when
    the code the games run (``bot``, ``rules``, ``tools``) differs from it in the working
    tree; the logs themselves, appended as games end, do not count."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=root, check=True, timeout=10).stdout.strip()
        changed = subprocess.run(["git", "status", "--porcelain", "--", "bot", "rules", "tools"],
                                 capture_output=True, text=True, cwd=root, check=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (head or "unknown") + ("+changes" if changed else "")


CODE = code_version()


def one_game(args: tuple[str, int, dict[str, PlayerKind]]) -> Match:
    """One game (a module-level function, so a worker process can run it)."""
    key, seed, players = args
    return play_match(registry.get(key), seed, players)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(0.95 * len(ordered)) - 1))]


Row = tuple[str, str, PlayerKind, PlayerKind]  # system, the computer's side, its level, the opponent


def players_of(key: str, side: str, level: PlayerKind, against: PlayerKind) -> dict[str, PlayerKind]:
    """Who plays each side in a row's games: the computer at ``level`` on ``side``."""
    players: dict[str, PlayerKind] = {s: against for s in registry.get(key).sides}
    players[side] = level
    return players


def one_logged(args: tuple[Row, int]) -> dict[str, object]:
    """One game of a row, as a log line: the row, the match, the load as it ended."""
    (key, side, level, against), seed = args
    match = one_game((key, seed, players_of(key, side, level, against)))
    return {"row": [key, side, level, against], "load": os.getloadavg()[0], "code": CODE,
            "match": match.model_dump(mode="json")}


def summed(row_key: Row, logged: list[dict[str, object]]) -> dict[str, object]:
    """One row's games summed up: wins, draws and losses of the computer, its CPU per order."""
    key, side, level, against = row_key
    matches = [Match.model_validate(entry["match"]) for entry in logged]
    cpu = [t.cpu_seconds for m in matches for t in m.thoughts if t.side == side]
    # A game cut off at the order limit is no result: its score as it stood is not a win.
    score = [m.scores[side] for m in matches if m.finished]
    loads = [float(entry["load"]) for entry in logged]  # type: ignore[arg-type]
    return {
        "system": key, "side": side, "level": level,
        "against": against if len(registry.get(key).sides) > 1 else "hostiles",
        "games": len(matches), "won": sum(s > 0.5 for s in score), "drawn": sum(s == 0.5 for s in score),
        "lost": sum(s < 0.5 for s in score), "unfinished": sum(not m.finished for m in matches),
        "orders": len(cpu), "cpu_mean": statistics.fmean(cpu) if cpu else 0.0, "cpu_p95": p95(cpu),
        "cpu_max": max(cpu, default=0.0), "illegal": sum(m.illegal for m in matches),
        "load": statistics.fmean(loads) if loads else 0.0,
    }


def rows_of(opts: argparse.Namespace) -> list[Row]:
    """Every row the options ask for: each system, side and opponent (a solitaire system:
    the computer, then the random player, against the rules' hostiles)."""
    out: list[Row] = []
    for key in opts.systems.split(","):
        system = registry.get(key)
        if opts.balance:
            out += balance_rows(key, opts.balance.split(","))
            continue
        opponents: list[PlayerKind] = opts.against.split(",") if len(system.sides) > 1 else ["random"]
        level: PlayerKind = opts.level
        for side in [s for s in system.sides if not opts.sides or s in opts.sides.split(",")]:
            out += [(key, side, level, against) for against in opponents]
        if len(system.sides) == 1:  # the random player's own record, for comparison
            out.append((key, system.sides[0], "random", "random"))
    return out


def balance_rows(key: str, levels: list[str]) -> list[Row]:
    """The scenario's balance, for reading a strength row beside it: both sides played at
    the same level, the first side's record (a two-sided system only).  A side that wins
    most games whoever plays it is a scenario question (its stand-in values), not the
    computer's: ``normal`` on the other side starts from that deficit."""
    sides = registry.get(key).sides
    if len(sides) < 2:
        return []
    return [(key, sides[0], cast(PlayerKind, level), cast(PlayerKind, level)) for level in levels]


def play_rows(rows: list[Row], opts: argparse.Namespace) -> dict[Row, list[dict[str, object]]]:
    """Play the rows' games round by round (game n of every row, then game n+1), so that a
    run cut short by ``--minutes`` has about as many games in every row; each game is
    appended to ``--log`` as it ends (a run stopped halfway keeps what it played)."""
    done: dict[Row, list[dict[str, object]]] = {r: [] for r in rows}
    played: set[tuple[Row, int]] = set()
    if opts.resume and opts.log and Path(opts.log).exists():
        # A run continued (issue 43's 100 games a row take many sittings): the games the
        # log holds count, and are not played again.
        for logged_row, entries in read_log([opts.log]).items():
            if logged_row in done:
                done[logged_row] += entries
                played |= {(logged_row, seed_of(e)) for e in entries}
    work = [(r, opts.seed + n) for n in range(opts.games) for r in rows if (r, opts.seed + n) not in played]
    stop = time.monotonic() + 60 * opts.minutes if opts.minutes else float("inf")
    with ProcessPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        pending = iter(work)
        running = {pool.submit(one_logged, w) for w in islice(pending, max(1, opts.jobs))}
        while running:
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                entry = future.result()
                row_key: Row = tuple(entry["row"])  # type: ignore[assignment, arg-type]
                done[row_key].append(entry)
                note(entry, opts.log)
            if time.monotonic() < stop:
                running |= {pool.submit(one_logged, w) for w in islice(pending, len(finished))}
    return done


def seed_of(entry: dict[str, object]) -> int:
    """The seed of a logged game."""
    match = entry["match"]
    assert isinstance(match, dict)
    return int(match["seed"])


def note(entry: dict[str, object], log: str) -> None:
    """Tell a finished game on stderr, and append it to the log file (if any)."""
    row = entry["row"]
    assert isinstance(row, list)
    key, side, level, against = (str(part) for part in row)
    m = Match.model_validate(entry["match"])
    print(f"  {key} seed {m.seed}: {side} ({level}) vs {against}: {m.scores[side]:.2f} after "
          f"{m.orders} orders, illegal {m.illegal}", file=sys.stderr, flush=True)
    if log:
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")


def read_log(paths: list[str]) -> dict[Row, list[dict[str, object]]]:
    """The games of earlier runs' logs, by row (in the order first met)."""
    out: dict[Row, list[dict[str, object]]] = {}
    for path in paths:
        for text in Path(path).read_text(encoding="utf-8").splitlines():
            entry = json.loads(text)
            key, side, level, against = entry["row"]
            out.setdefault((key, side, level, against), []).append(entry)
    return out


def decision_row(key: str, level: PlayerKind, count: int, first_seed: int) -> str:
    """``count`` decisions of the computer at ``level`` on states met in random games (one
    a game, at a random point): the CPU each took and the iterations it ran."""
    system = registry.get(key)
    cpu: list[float] = []
    iterations: list[int] = []
    for n in range(count):
        rng = random.Random(first_seed + n)
        game = play(system, first_seed + n, keep_steps=True)
        step = rng.choice(game.steps)
        decision = think(system, system.observe(step.before, step.side), step.side, f"timing-{n}", level)  # type: ignore[arg-type]
        cpu.append(decision.cpu_seconds)
        iterations.append(decision.iterations)
        print(f"  {key} decision {n}: {decision.cpu_seconds:.3f} s, {decision.iterations} iterations",
              file=sys.stderr, flush=True)
    return (f"| {key} | {level} | {count} | {statistics.fmean(cpu):.3f} s | {p95(cpu):.3f} s | {max(cpu):.3f} s | "
            f"{statistics.fmean(iterations):.0f} | {os.getloadavg()[0]:.1f} |")


HEADER = ("| system | computer side | level | against | games | won | drawn | lost | unfinished | win % | "
          "orders | CPU/order mean | p95 | max | illegal | load |")


def line(r: dict[str, object]) -> str:
    """A row of the markdown table."""
    games = int(r["games"])  # type: ignore[call-overload]
    won = int(r["won"])  # type: ignore[call-overload]
    return (f"| {r['system']} | {r['side']} | {r['level']} | {r['against']} | {games} | {won} | {r['drawn']} | "
            f"{r['lost']} | {r['unfinished']} | {100 * won / max(1, games):.0f}% | {r['orders']} | {r['cpu_mean']:.3f} s | "
            f"{r['cpu_p95']:.3f} s | {r['cpu_max']:.3f} s | {r['illegal']} | {r['load']:.1f} |")


def main(argv: list[str] | None = None) -> int:
    """Parse the options, play the rows, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma separated system keys")
    parser.add_argument("--games", type=int, default=100, help="games a row (issue 43 asks 100)")
    parser.add_argument("--level", default="normal", choices=["easy", "normal", "hard"])
    parser.add_argument("--against", default="random,easy", help="the opponents, comma separated")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (worker processes)")
    parser.add_argument("--seed", type=int, default=1000, help="the first game's seed")
    parser.add_argument("--markdown", action="store_true", help="only the table, for docs/")
    parser.add_argument("--sides", default="", help="only these sides (comma separated; default every side)")
    parser.add_argument("--decisions", type=int, default=0,
                        help="time this many single decisions a system instead of playing games")
    parser.add_argument("--minutes", type=float, default=0,
                        help="begin no new game after this many minutes (the rows stay even)")
    parser.add_argument("--log", default="", help="append each finished game to this file (JSON lines)")
    parser.add_argument("--resume", action="store_true",
                        help="count the games already in --log and play only the rest")
    parser.add_argument("--balance", default="",
                        help="instead: both sides at each of these levels (e.g. random,easy), the scenario's balance")
    parser.add_argument("--table", nargs="*", default=None,
                        help="print the table of these logs' games instead of playing")
    opts = parser.parse_args(argv)
    levels = set(get_args(PlayerKind))
    unknown = [level for level in opts.balance.split(",") if opts.balance and level not in levels]
    if unknown:
        parser.error(f"--balance: no level {', '.join(unknown)}; the levels are {', '.join(sorted(levels))}")
    if opts.balance and not any(len(registry.get(key).sides) > 1 for key in opts.systems.split(",")):
        parser.error("--balance: a solitaire system (raiders) has no balance; name a two-sided one")
    if opts.decisions:
        print("| system | level | decisions | CPU mean | p95 | max | iterations | load |")
        print("|---|---|---|---|---|---|---|---|")
        for key in opts.systems.split(","):
            print(decision_row(key, opts.level, opts.decisions, opts.seed), flush=True)
        return 0
    if not opts.markdown and opts.table is None:
        budget = BUDGETS[opts.level]
        print(f"{opts.level}: {budget.iterations} iterations, rollouts of {budget.rollout} orders, "
              f"at most {budget.cpu_seconds} s CPU an order; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    games = read_log(opts.table) if opts.table is not None else play_rows(rows_of(opts), opts)
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    for row_key, logged in games.items():
        if logged:
            print(line(summed(row_key, logged)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
