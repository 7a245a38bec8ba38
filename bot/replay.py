"""``referee replay FILE``: re-run an exported log and confirm every recorded state.

The chain, the dice and the seals are checked first (``bot/exportcheck.py``: they never
depend on the rules); then each step is applied again, on the recorded state of the step it
followed, with the dice it recorded.  A step made under today's rules version must give its
recorded state exactly; one made under an older version (or before versioning) that
resolves otherwise is reported as a rules change with the rule and both outcomes, never as
forged (issue 42, ``bot/rerun.py``).  This is the check moderators can run on any export,
reverted steps included.

Every field the replay reads is checked first (issue 45): the scenario file against its
``scenario_sha256``, and a final export (one holding the seed) withholds nothing, so a step
marked ``"sealed"`` in it is a problem, not a step to skip.  A file that is not an export
(truncated, not gzip, not JSON, a key missing, a value of the wrong type) is refused with
one sentence (:class:`BadExport`), never a traceback.
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.exportcheck import integrity_problems
from bot.rerun import Verdict, rerun, verdict
from rules.core import registry, scenariofile
from rules.core.contract import GameSystem
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


class BadExport(Exception):
    """A file that is not an export the replay can read; its message is the one sentence
    the user reads."""


#: The export formats the replay reads (``referee-log/2``: issue 45, the chain's scheme
#: and record count added; the steps are the same).
FORMATS = ("referee-log/1", "referee-log/2")


class _Step(BaseModel):
    """The fields of an exported step the replay reads, with their types (extra ones pass)."""

    model_config = ConfigDict(extra="allow", strict=True)

    seq: int
    parent_seq: int | None = None
    side: str | None = None
    action: dict[str, Any] | None = None
    dice: list[dict[str, Any]]
    events: list[Any] = Field(default_factory=list)
    state: Any = None
    sealed: bool = False


class _Export(BaseModel):
    """The fields of an export the replay reads, with their types."""

    model_config = ConfigDict(extra="allow", strict=True)

    format: str
    system: str
    scenario: str
    scenario_text: str | None = None
    scenario_sha256: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seed: str | None = None
    steps: list[_Step]
    audit: list[dict[str, Any]] = Field(default_factory=list)


def load_export(path: Path) -> dict[str, Any]:
    """An export file as a document: ``.json.gz`` (what the bot sends) or plain ``.json``,
    its shape checked (:func:`check_shape`); :class:`BadExport` says why it is not one.

    Recognised by its content (gzip's magic bytes), not its name: a renamed file works too.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BadExport(f"Cannot read {path}: {exc.strerror or exc}.") from None
    try:
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        document = json.loads(data.decode("utf-8"))
    except (OSError, EOFError, zlib.error) as exc:  # gzip.BadGzipFile is an OSError
        raise BadExport(f"{path} is gzipped but damaged or cut short ({exc}); ask for the"
                        " export again (/game export).") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadExport(f"{path} is not JSON (or gzipped JSON): {exc}.") from None
    except RecursionError:
        raise BadExport(f"{path} is nested too deeply to be a Referee export.") from None
    check_shape(document, str(path))
    return dict(document)


def check_shape(document: Any, name: str = "the export") -> None:
    """Raise :class:`BadExport` naming the first field of ``document`` that is missing or of
    the wrong type, or a format this replay does not read."""
    if not isinstance(document, dict):
        raise BadExport(f"{name} is not a Referee export: it holds a JSON "
                        f"{type(document).__name__}, not an object.")
    if document.get("format") not in FORMATS:
        raise BadExport(f"{name} is not a Referee export (format {str(document.get('format'))[:40]!r},"
                        f" expected one of {', '.join(FORMATS)}).")
    try:
        _Export.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise BadExport(f"{name} is not a usable Referee export: {where}: {first['msg'].lower()}.") from None
    if not document["steps"]:
        raise BadExport(f"{name} is not a usable Referee export: it holds no steps.")


def document_problems(document: dict[str, Any]) -> list[str]:
    """What is wrong with the export's own fields before any step is replayed (issue 45):
    its scenario file against ``scenario_sha256``, and a step marked sealed in a final
    export (one holding the seed: nothing is withheld once the game has ended)."""
    problems = []
    text, digest = document.get("scenario_text"), document.get("scenario_sha256")
    if (scenariofile.sha256(text) if text is not None else None) != digest:
        problems.append(f"the export's scenario_sha256 ({str(digest)[:16]}…) is not the SHA-256 of"
                        " its scenario file: the file or its hash was changed")
    if document.get("seed"):
        sealed = [s["seq"] for s in document["steps"] if s.get("sealed")]
        if sealed:
            problems.append(f"steps {', '.join(f'#{n}' for n in sealed[:8])} are marked sealed in a final"
                            " export (it holds the seed, so it withholds nothing): a final export"
                            " hides no step from the replay")
    return problems


def replay(document: dict[str, Any]) -> ReplayReport:
    """Replay an export (formats :data:`FORMATS`); its shape is checked first
    (:class:`BadExport`), then its own fields, chain, dice and seals (``bot/exportcheck.py``:
    they never depend on the rules), then every step is run again and judged by the rules
    version it was made under (``bot/rerun.py``)."""
    check_shape(document)
    report = ReplayReport(problems=document_problems(document))
    try:
        system = registry.get(document["system"])
    except (KeyError, RuleError):
        raise BadExport(f"the export is a game of {document['system'][:40]!r}, whose rules are not"
                        " installed here.") from None
    final = bool(document.get("seed"))
    if document.get("scenario_text"):
        # The scenario file the game was set up from, carried by the export (issue 27).
        try:
            system.scenario_from_file(document["scenario_text"], prove=False)
        except RuleError as exc:
            report.problems.append(f"the export's scenario file does not load: {exc}")
            return report
    try:
        report.problems += integrity_problems(document)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:  # a record of the wrong shape
        raise BadExport(f"the export's records are not of a shape its chain, dice and seals can be"
                        f" checked in ({type(exc).__name__}: {str(exc)[:80]}).") from None
    recorded: dict[int, dict[str, Any]] = {}
    seals: dict[str, dict[str, Any]] = {}  # the newest recorded seal of each key
    for entry in sorted(document["steps"], key=lambda s: s["seq"]):
        if entry.get("sealed") and not final:
            continue  # a running game's secret round (10.1.1): checked once revealed
        report.steps += 1
        recorded[entry["seq"]] = entry["state"]
        _judge(report, _step_verdict(system, document, entry, recorded, seals))
    return report


def _step_verdict(system: GameSystem[Any], document: dict[str, Any], entry: dict[str, Any],
                  recorded: dict[int, Any], seals: dict[str, dict[str, Any]]) -> Verdict:
    """One step run again on the recorded state of its parent, judged by its versions."""
    seq = entry["seq"]
    parent = None
    if entry["action"] is not None:
        parent = recorded.get(entry["parent_seq"])
        if parent is None:
            return Verdict(seq=seq, kind="problem", text=f"#{seq}: the step it followed (#{entry['parent_seq']}) is missing")
    try:
        return verdict(system, entry, rerun(system, document, entry, parent, seals))
    except Exception as exc:  # noqa: BLE001 - a step the rules cannot read is a failed step
        return Verdict(seq=seq, kind="problem",
                       text=f"#{seq}: could not be applied again ({type(exc).__name__}: {str(exc)[:120]})")


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


__all__ = ["FORMATS", "BadExport", "ReplayReport", "check_shape", "document_problems", "load_export", "replay"]
