"""``referee replay FILE``: re-run an exported log and confirm every recorded state.

Each step is applied again, on the recorded state of the step it followed, with the dice it
recorded (:class:`RecordedDice`); the new state must equal the recorded one exactly.  This
is the determinism check moderators can run on any export, reverted steps included.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from bot.pipeline import apply_recorded
from rules.core import registry
from rules.core.contract import Step
from rules.core.dice import DiceExhausted, RecordedDice, Roll
from rules.core.errors import RuleError


class ReplayReport(BaseModel):
    """What a replay found."""

    steps: int = 0
    matched: int = 0
    problems: list[str] = Field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Every step reproduced its recorded state."""
        return not self.problems and self.matched == self.steps


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
    """Replay an export (format ``referee-log/1``)."""
    report = ReplayReport()
    system = registry.get(document["system"])
    if document.get("scenario_text"):
        # The scenario file the game was set up from, carried by the export (issue 27).
        try:
            system.scenario_from_file(document["scenario_text"], prove=False)
        except RuleError as exc:
            report.problems.append(f"the export's scenario file does not load: {exc}")
            return report
    recorded: dict[int, dict[str, Any]] = {}
    for entry in sorted(document["steps"], key=lambda s: s["seq"]):
        if entry.get("sealed"):
            continue  # a running game's secret round (10.1.1): checked once revealed
        report.steps += 1
        seq = entry["seq"]
        recorded[seq] = entry["state"]
        dice = RecordedDice([Roll.model_validate(r) for r in entry["dice"]])
        state = None
        if entry["action"] is not None:
            parent = recorded.get(entry["parent_seq"])
            if parent is None:
                report.problems.append(f"#{seq}: the step it followed (#{entry['parent_seq']}) is missing")
                continue
            state = system.state_model.model_validate(parent)
        try:
            step, _ = apply_recorded(system, document["scenario"], document.get("options", {}),
                                     state, entry["action"], entry["side"], dice)
        except (RuleError, DiceExhausted) as exc:
            report.problems.append(f"#{seq}: could not be applied again: {exc}")
            continue
        if dice.position != len(dice.recorded):
            report.problems.append(
                f"#{seq}: used {dice.position} of its {len(dice.recorded)} recorded rolls"
            )
            continue
        again = json.loads(step.state.model_dump_json())
        if again != entry["state"]:
            report.problems.append(f"#{seq}: the state differs from the recorded one")
            continue
        events = [e.record() for e in step.events]
        if events != entry.get("events"):
            report.problems.append(f"#{seq}: the events differ from the recorded ones")
            continue
        secret = _secret_problem(step, entry.get("action") or {})
        if secret:
            report.problems.append(f"#{seq}: {secret}")
            continue
        report.matched += 1
    return report


def _secret_problem(step: Step, action: dict[str, Any]) -> str | None:
    """Whether the seals and reveals the order makes again are the recorded ones (issue 28):
    the same keys, owners, public words and padded items sealed, the same items revealed for
    the same reasons.  The verifier checks that each recorded item opens its leaf; this checks
    that the items are the ones the rules chose, so a record whose secret was swapped (and
    its leaves recomputed) does not pass."""
    again = [(s.key, s.side, s.what, s.padded()) for s in step.seals]
    recorded = [(s.get("key"), s.get("side"), s.get("what"), s.get("items")) for s in action.get("seals", [])]
    if again != recorded:
        return f"the sealed choices differ from the recorded ones ({_first_key(again, recorded)})"
    opened = [(u.key, u.index, u.why) for u in step.unseals]
    revealed = [(r.get("key"), r.get("index"), r.get("why")) for r in action.get("reveals", [])]
    if opened != revealed:
        return f"the reveals differ from the recorded ones ({_first_key(opened, revealed)})"
    return None


def _first_key(again: list[tuple[Any, ...]], recorded: list[tuple[Any, ...]]) -> str:
    """The seal named by the first entry that differs, for the report."""
    for mine, theirs in zip(again, recorded):
        if mine != theirs:
            return f"seal {str(theirs[0])[:40]!r}"
    return f"{len(again)} made again, {len(recorded)} recorded"
