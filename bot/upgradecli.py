"""The operator's commands around an upgrade (issue 42): ``referee replay FILE [--release]``
and ``referee check-games [--db]``, and the line ``referee health`` adds about them.

What each prints is for a person at a terminal: one line per finding, a last line that says
what it means, never a traceback (docs/upgrades.md).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bot import VERSION, versions
from bot.checkgames import CHECKED_KEY, check_games, summary
from bot.logcheck import Target
from bot.replay import BadExport, ReplayReport, load_export, replay
from bot.store import BaseStore
from bot.storage import shown
from rules.core import registry

#: Where the project's source is published (the README's clone line).
SOURCE = "https://github.com/referee-bot/referee"


def made_by(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The releases and rules versions the export's steps were made under: its header's,
    or read from the steps of an export that has none."""
    header = document.get("versions")
    if isinstance(header, dict) and isinstance(header.get("steps_made_under"), list):
        return [m for m in header["steps_made_under"] if isinstance(m, dict)]
    return [{"release": versions.BEFORE_VERSIONING, "rules": None, "label": versions.BEFORE_VERSIONING}]


def versions_line(document: dict[str, Any]) -> str:
    """Which releases and rules made the file, and which replay it now."""
    system = registry.get(document["system"])
    made = ", ".join(versions.BEFORE_VERSIONING if m.get("rules") is None
                     else f"under {m['label']} (release {m['release']})" for m in made_by(document))
    return f"Steps made {made}; replayed by release {VERSION} with today's rules ({versions.today(system)})."


def release_instructions(document: dict[str, Any], path: Path) -> str:
    """How to replay the file under the release that made it, for an exact check: that
    release's source and its pinned lock file (``requirements.lock``, hash-checked)."""
    releases = list(dict.fromkeys(m["release"] for m in made_by(document) if m.get("rules") is not None))
    if releases:
        lines = [f"This file's steps were made by release {', '.join(releases)}."
                 " For an exact check, replay it with that release, installed from its pinned lock file:"]
    else:
        started = next((s.get("created_at") for s in document["steps"] if s.get("seq") == 0), None) or "its start"
        lines = ["This file's steps were made before versioning: they do not record their release. The"
                 f" release that ran the game at {started} (your deployment's records, or the project's"
                 " CHANGELOG.md by date) gives an exact check, installed from its pinned lock file:"]
        releases = ["RELEASE"]
    for release in releases:
        lines += [f"  git clone {SOURCE} referee-{release} && cd referee-{release} && git checkout v{release}",
                  "  python3.11 -m venv .venv && .venv/bin/pip install --require-hashes --no-deps"
                  " -r requirements.lock && .venv/bin/pip install --no-deps -e .",
                  f"  .venv/bin/referee replay {path}"]
    lines.append("Every step made under that release must then reproduce exactly; under this release"
                 " a step made under older rules is reported as a rules change, never as forged.")
    return "\n".join(lines)


def print_report(report: ReplayReport, document: dict[str, Any]) -> None:
    """The replay's findings: problems, then rules changes, then the count."""
    print(versions_line(document))
    detail = {f.text: f.detail() for f in report.verdicts if f.kind == "problem"}
    for problem in report.problems:
        print("✗", problem)
        if problem in detail:
            print(f"    {detail[problem]}: made under today's rules, it must reproduce exactly")
    for note in report.explained:
        print("△", note)
    print(f"{report.matched}/{report.steps} steps reproduced exactly"
          + (f", {len(report.explained)} {'resolves' if len(report.explained) == 1 else 'resolve'}"
             " otherwise under today's rules (a rules change, not a"
             " forgery: referee replay --release says how to check them exactly)" if report.explained else "")
          + ".")


def run_replay(path: Path, release: bool) -> int:
    """``referee replay FILE [--release]``: exit 0 when the file checks out, 1 when it does
    not, 2 when it is not an export (one sentence, issue 45: never a traceback)."""
    try:
        document = load_export(path)
        if release:
            print(release_instructions(document, path))
            return 0
        report = replay(document)
    except BadExport as exc:
        print(str(exc), file=sys.stderr)
        return 2
    print_report(report, document)
    return 0 if report.ok else 1


def run_check_games(target: Target) -> int:
    """``referee check-games``: exit 0 when every live game resolves as recorded, 1 when
    some differ (nothing is changed either way)."""
    if isinstance(target, Path) and not target.is_file():
        print(f"There is no database {target} (give it with --db or REFEREE_DB).", file=sys.stderr)
        return 2
    checks = check_games(target)
    for check in checks:
        print(check.line())
    print(summary(checks))
    return 1 if any(c.first is not None for c in checks) else 0


async def health_note(store: BaseStore, db: Path | str) -> str | None:
    """``referee health``'s line on a database whose live games were not checked against
    this release and its rules versions (None: checked, or no live game)."""
    live = await store.count_active_games()
    if not live:
        return None
    checked = await store.meta(CHECKED_KEY)
    now = versions.fingerprint(registry.load_all().values())
    if checked == now:
        return None
    was = f" (last checked against {checked})" if checked else ""
    return (f"the {live} live game(s) of {shown(db)} were not checked against this release ({now}){was}:"
            " run referee check-games to see which steps today's rules resolve otherwise")


__all__ = ["health_note", "made_by", "print_report", "release_instructions", "run_check_games", "run_replay",
           "versions_line"]
