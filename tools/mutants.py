#!/usr/bin/env python3
"""A mutation run over the store, the order pipeline, the verifier and the issue-29 guards:
each mutant plants one fault, the named test files run against it, and the run says which
test caught it (or that none did: a hole in the suite).

Usage:  python tools/mutants.py [--only NAME …] [--list]

The work happens in a copy of the repository in a temporary folder (the worktree is never
edited); each mutant is a literal replacement that must match exactly once, so a mutant
that no longer applies after a refactor is reported as such rather than silently passing.
Issue 29, point 4, planted the first three: the verifier skipping reverted steps' rolls, the
head-update guard weakened to ``version >= ?``, ``synchronous=OFF``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("bot", "rules", "render", "tests", "tools", "migrations", "pyproject.toml", "bench")


@dataclass(frozen=True)
class Mutant:
    """One planted fault: in ``path``, ``old`` becomes ``new``; ``tests`` should catch it."""

    name: str
    path: str
    old: str
    new: str
    tests: tuple[str, ...]


P = "tests/platform/"
MUTANTS = (
    # -- issue 29, point 4 --------------------------------------------------------------
    Mutant("verifier skips the rolls of reverted steps", "tools/verify_dice.py",
           "            if good != value:",
           "            if good != value and step.get(\"reverted_by\") is None:", (P + "test_chain.py",)),
    Mutant("head update guard weakened to version >= ?", "bot/writer.py",
           "WHERE id = ? AND version = ?", "WHERE id = ? AND version >= ?", ("tests/store/test_guard.py",)),
    Mutant("synchronous=OFF", "bot/writer.py", '"synchronous=FULL")', '"synchronous=OFF")',
           ("tests/reliability/test_durability.py",)),
    Mutant("synchronous=NORMAL (WAL: synced at checkpoints only)", "bot/writer.py",
           '"synchronous=FULL")', '"synchronous=NORMAL")', ("tests/reliability/test_durability.py",)),
    # -- the store and the pipeline -------------------------------------------------------
    Mutant("revert marks not written", "bot/pipeline.py",
           "db.revert_after(game.row.id, change.revert_after, audit_id)",
           "db.revert_after(game.row.id, change.revert_after + 10**6, audit_id)", (P + "test_verify_dice.py",)),
    Mutant("export drops reverted_by", "bot/gamecmds.py", '"reverted_by": s.reverted_by,',
           '"reverted_by": None,', (P + "test_verify_dice.py",)),
    Mutant("steps chained after the same record", "bot/record.py", "        prev = step.hash or prev",
           "        prev = prev", (P + "test_chain.py",)),
    Mutant("a seal writes a wrong hash", "bot/record.py",
           'return step.model_copy(update={"prev_hash": prev, "hash": digest})',
           'return step.model_copy(update={"prev_hash": prev, "hash": "0" * 64})', (P + "test_chain.py",)),
    Mutant("audit entry left out of the chain", "bot/pipeline.py",
           "chain_head = sealed_audit.hash or chain_head", "chain_head = chain_head", (P + "test_chain.py",)),
    Mutant("announcements without the head", "bot/record.py",
           "    if reply.ephemeral or reply.error or not line or line in reply.text:",
           "    if True:", (P + "test_chain.py",)),
    # -- the verifier ---------------------------------------------------------------------
    Mutant("verifier: no active-line check", "tools/verify_dice.py",
           "structure = _line(document) + _chain(document, anchors or [])",
           "structure = _chain(document, anchors or [])", (P + "test_verify_dice.py",)),
    Mutant("verifier: the channel's heads ignored", "tools/verify_dice.py",
           "    return problems + _anchored(order, current, anchors)", "    return problems",
           (P + "test_verify_dice.py",)),
    Mutant("verifier: the genesis not checked", "tools/verify_dice.py",
           "current, seen = genesis(document), set()",
           'current, seen = next((r["prev_hash"] for _, r, _ in records if r.get("prev_hash")), ""), set()',
           (P + "test_chain.py",)),
    Mutant("verifier: record hashes not recomputed", "tools/verify_dice.py",
           "        if record_hash(kind, record) != record[\"hash\"]:", "        if False:",
           (P + "test_chain.py",)),
    # -- the other guards of issue 29 -----------------------------------------------------
    Mutant("acceptance of a seat not checked again", "bot/pacing/commands.py",
           '    check_seat(game, inv.user_id, inv.user_name, offer.side, "accept")', "    ...",
           (P + "test_seats.py",)),
    Mutant("a private option echoed", "rules/core/contract.py",
           'f"{key}:{SEALED if key in self.private else option_text(value)}"',
           'f"{key}:{option_text(value)}"', (P + "test_sealed.py",)),
    Mutant("a running game's export not sealed", "bot/gamecmds.py",
           'if game.status == "active" else None)', "if False else None)", (P + "test_sealed.py",)),
    Mutant("a step number read with isdigit() (takes ①)", "bot/pacing/digest.py",
           "if raw.isascii() and raw.isdigit() and len(raw) <= 9:",
           "if raw.isdigit() and int(raw) < 10**6:", (P + "test_sentences.py",)),
    Mutant("a Unix time out of range not caught", "bot/pacing/times.py",
           "except (ValueError, OverflowError, OSError):", "except ZeroDivisionError:",
           (P + "test_sentences.py",)),
    Mutant("health skips the integrity check", "bot/cli.py",
           "problems = await integrity_problems(store)", "problems = []", (P + "test_sentences.py",)),
    Mutant("a full disk answered as an incident", "bot/service.py",
           "said = storage.for_player(exc)", "said = None", (P + "test_sentences.py",)),
    Mutant("replays not limited", "bot/limits.py", 'if group != "game" or name not in costly:',
           'if group != "game" or name not in costly or name == "replay":', (P + "test_limits.py",)),
    Mutant("undo bound off by one", "bot/gamecmds.py",
           "if await undos_in_a_row(svc, game, inv.user_id) >= limit:",
           "if await undos_in_a_row(svc, game, inv.user_id) > limit:", (P + "test_limits.py",)),
)


def copy_repository(into: Path) -> Path:
    """The parts of the repository the tests need, in ``into``."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache", "snapshots")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=skip)
        elif source.exists():
            shutil.copy2(source, into / name)
    return into


def run_mutant(mutant: Mutant, work: Path) -> tuple[str, str, float]:
    """``(verdict, what caught it, seconds)``; the file is restored afterwards."""
    target = work / mutant.path
    original = target.read_text("utf-8")
    if original.count(mutant.old) != 1:
        return "NOT APPLIED", f"{mutant.old[:50]!r} found {original.count(mutant.old)} times", 0.0
    target.write_text(original.replace(mutant.old, mutant.new), "utf-8")
    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *mutant.tests, "-x", "-q", "-p", "no:cacheprovider",
             "-o", "addopts="], cwd=work, capture_output=True, text=True, timeout=1800)
    finally:
        target.write_text(original, "utf-8")
    seconds = time.monotonic() - start
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in done.stdout.splitlines()
              if line.startswith(("FAILED tests/", "ERROR tests/"))]
    if done.returncode == 0:
        return "SURVIVED", "no test failed", seconds
    return "caught", failed[0] if failed else f"pytest exit {done.returncode}", seconds


def main(argv: list[str] | None = None) -> int:
    """Run the mutants (all, or those named) and print what caught each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="names (or parts of names) to run")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTANTS if not args.only or any(o in m.name for o in args.only)]
    if args.list:
        for m in chosen:
            print(f"{m.name}  ({m.path}; {', '.join(m.tests)})")
        return 0
    survived = 0
    with tempfile.TemporaryDirectory(prefix="referee-mutants-") as tmp:
        work = copy_repository(Path(tmp))
        for mutant in chosen:
            verdict, by, seconds = run_mutant(mutant, work)
            survived += verdict != "caught"
            print(f"{verdict:8} {mutant.name}  [{mutant.path}]\n         by {by}  ({seconds:.0f} s)", flush=True)
    print(f"{len(chosen) - survived} of {len(chosen)} mutants caught.")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
