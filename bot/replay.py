"""``referee replay FILE``: re-run an exported log and confirm every recorded state.

The chain, the dice and the seals are checked first; then each step is applied again, on
the recorded state of the step it followed, with the dice it recorded.  A step made under
today's rules version must give its recorded state exactly; one made under an older version
(or before versioning) that resolves otherwise is reported as a rules change with the rule
and both outcomes, never as forged (issue 42, ``bot/rerun.py``).  This is the check
moderators can run on any export, reverted steps included.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bot.exportcheck import integrity_problems
from bot.rerun import Verdict, rerun, verdict
from rules.core import registry
from rules.core.errors import RuleError


class ReplayReport(BaseModel):
    """What a replay found."""

    steps: int = 0
    matched: int = 0
    problems: list[str] = Field(default_factory=list)
    #: Steps that resolve otherwise today for a reason their versions give (issue 42): made
    #: under older rules, under newer ones, or before versioning.  Not problems.
    explained: list[str] = Field(default_factory=list)
    #: Every step that did not reproduce exactly, with its rule and both outcomes.
    verdicts: list[Verdict] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The chain, dice and seals check out, and every step reproduced its recorded
        state or differs only as its rules version explains."""
        return not self.problems and self.matched + len(self.explained) == self.steps


def load_export(path: Path) -> dict[str, Any]:
    """An export file as a document: ``.json.gz`` (what the bot sends) or plain ``.json``.

    Recognised by its content (gzip's magic bytes), not its name: a renamed file works too.
    """
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    document: dict[str, Any] = json.loads(data.decode("utf-8"))
    return document


def replay(document: dict[str, Any]) -> ReplayReport:
    """Replay an export (format ``referee-log/1``): its chain, dice and seals first
    (``bot/exportcheck.py``: they never depend on the rules), then every step run again
    and judged by the rules version it was made under (``bot/rerun.py``)."""
    report = ReplayReport()
    system = registry.get(document["system"])
    if document.get("scenario_text"):
        # The scenario file the game was set up from, carried by the export (issue 27).
        try:
            system.scenario_from_file(document["scenario_text"])
        except RuleError as exc:
            report.problems.append(f"the export's scenario file does not load: {exc}")
            return report
    report.problems += integrity_problems(document)
    recorded: dict[int, dict[str, Any]] = {}
    for entry in sorted(document["steps"], key=lambda s: s["seq"]):
        if entry.get("sealed"):
            continue  # a running game's secret round (10.1.1): checked once revealed
        report.steps += 1
        seq = entry["seq"]
        recorded[seq] = entry["state"]
        parent = None
        if entry["action"] is not None:
            parent = recorded.get(entry["parent_seq"])
            if parent is None:
                report.problems.append(f"#{seq}: the step it followed (#{entry['parent_seq']}) is missing")
                continue
        _judge(report, verdict(system, entry, rerun(system, document, entry, parent)))
    return report


def _judge(report: ReplayReport, found: Verdict) -> None:
    """Count a re-run step: reproduced, explained by its versions, or a problem."""
    if found.kind == "same":
        report.matched += 1
        return
    report.verdicts.append(found)
    if found.kind == "problem":
        report.problems.append(found.text)
    else:
        report.explained.append(found.text)
