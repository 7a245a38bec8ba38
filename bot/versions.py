"""Which release and which rules made a step (issue 42).

Every step records the release that wrote it (the package version, :data:`bot.VERSION`) and
its system's rules version (``GameSystem.rules_version``), a number the system bumps when a
ruling changes how a recorded order resolves, with a line in its own rules changelog
(``rules/rr/CHANGELOG.md``: ``- rr 4: 7.3.3 retreat never closer to an enemy``).  Steps
written before migration 0015 record neither: they are "before versioning".

This module reads those changelogs and words the versions; ``bot/rerun.py`` uses it to tell
a rules change from a forged record, ``bot/checkgames.py`` to name the rule that changed.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

from pydantic import BaseModel

from bot import VERSION
from bot.models import Reply
from rules.core.contract import GameSystem

#: What the migration (0015) fills in for the release of a step written before it, and what
#: replies and reports call such a step.
BEFORE_VERSIONING = "before versioning"
#: A line of a rules changelog: ``- rr 4: 7.3.3 retreat never closer to an enemy``.
_LINE = re.compile(r"^- (?P<system>[a-z0-9_-]+) (?P<version>\d+): (?P<text>.+?)\s*$")
#: A rule number at the start of a changelog line's text (``7.3.3``, ``14.2.1``, ``8.0``, a
#: lettered one such as ``D2``).
_RULE = re.compile(r"^([A-Z]{0,2}\d+(?:\.\d+)*)(?=\s)")


class StepVersions(BaseModel):
    """The release and rules version a step was made under."""

    release: str
    rules: int


class RulesChange(BaseModel):
    """One line of a system's rules changelog."""

    system: str
    version: int
    text: str

    @property
    def rule(self) -> str | None:
        """The rule number the line names first, if any (``7.3.3``)."""
        match = _RULE.match(self.text)
        return match.group(1) if match else None

    def line(self) -> str:
        """The line as the changelog writes it: ``rr 4: 7.3.3 retreat …``."""
        return f"{self.system} {self.version}: {self.text}"


def made_now(system: GameSystem[Any]) -> StepVersions:
    """What a step written now records."""
    return StepVersions(release=VERSION, rules=system.rules_version)


def label(system_key: str, rules: int | None) -> str:
    """``rr 3``, or ``before versioning`` for a step that records no rules version."""
    return BEFORE_VERSIONING if rules is None else f"{system_key} {rules}"


def today(system: GameSystem[Any]) -> str:
    """Today's rules of ``system`` as a label: ``rr 4``."""
    return label(system.key, system.rules_version)


def changelog_text(system: GameSystem[Any]) -> str:
    """The text of the system's rules changelog (``CHANGELOG.md`` in its package; empty for a
    system that ships none, a test's own)."""
    package = type(system).__module__.rpartition(".")[0] or type(system).__module__
    try:
        return resources.files(package).joinpath("CHANGELOG.md").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return ""


@lru_cache(maxsize=32)
def _parsed(key: str, text: str) -> tuple[RulesChange, ...]:
    changes = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match and match.group("system") == key:
            changes.append(RulesChange(system=key, version=int(match.group("version")),
                                       text=match.group("text")))
    return tuple(changes)


def changelog(system: GameSystem[Any]) -> list[RulesChange]:
    """Every versioned line of the system's rules changelog, in the file's order."""
    return list(_parsed(system.key, changelog_text(system)))


def changes_after(system: GameSystem[Any], version: int | None) -> list[RulesChange]:
    """The changelog lines of the versions after ``version`` up to today's (None: before
    versioning, so every line), oldest first."""
    since = 0 if version is None else version
    found = [c for c in changelog(system) if since < c.version <= system.rules_version]
    return sorted(found, key=lambda c: c.version)


def changed_rule(system: GameSystem[Any], version: int | None, rule: str | None) -> RulesChange | None:
    """The changelog line since ``version`` that names ``rule`` (or the newest such line
    naming a rule ``rule`` belongs to: ``7.3.3`` for an event citing ``7.3.3.1``), if any."""
    if rule is None:
        return None
    for change in reversed(changes_after(system, version)):
        named = change.rule
        if named is not None and (rule == named or rule.startswith(named + ".")):
            return change
    return None


def export_header(system: GameSystem[Any], made: Iterable[tuple[str, int | None]]) -> dict[str, Any]:
    """The export's ``versions`` (issue 42): the release that wrote the file, today's rules
    version of its system, and each release and rules version its steps were made under
    (``made``: each step's ``(release, rules_version)``), in the order first met."""
    seen: list[dict[str, Any]] = []
    for release, rules in made:
        entry = {"release": release, "rules": rules, "label": label(system.key, rules)}
        if entry not in seen:
            seen.append(entry)
    return {"exported_by": VERSION, "rules": system.rules_version, "rules_label": today(system),
            "steps_made_under": seen}


def rules_news(system: GameSystem[Any], head_rules: int | None, first_seq: int) -> str | None:
    """The line a game's first step under other rules than its head's announces, once
    (issue 42): stored states stay authoritative, the game plays on from its head.  None
    when the head was made under today's rules."""
    if head_rules == system.rules_version:
        return None
    stand = f"steps before #{first_seq} stand as played"
    if head_rules is not None and head_rules > system.rules_version:
        return (f"📜 Rules changed to {today(system)} (step #{first_seq - 1} was made under the newer"
                f" {label(system.key, head_rules)}); {stand}.")
    changes = "; ".join(c.text if c.version == system.rules_version else c.line()
                        for c in changes_after(system, head_rules)) or "see the rules changelog"
    return f"📜 Rules updated to {today(system)}: {changes}; {stand}."


def with_rules_news(reply: Reply, system: GameSystem[Any], head_rules: int | None,
                    first_seq: int | None) -> Reply:
    """``reply`` with :func:`rules_news` at its top when its commit adds steps on a head made
    under other rules (``first_seq``: the first new step; None: the commit adds none on the
    head).  A private or refused reply is left as it is."""
    if first_seq is None or reply.ephemeral or reply.error:
        return reply
    news = rules_news(system, head_rules, first_seq)
    return reply if news is None else reply.model_copy(update={"text": f"{news}\n{reply.text}"})


def fingerprint(systems: Iterable[GameSystem[Any]]) -> str:
    """This release and every system's rules version, one line (what ``referee check-games``
    records and ``referee health`` compares): ``0.1.0 · commando 1 · mak 1 · rr 4``."""
    return " · ".join([VERSION, *(today(s) for s in sorted(systems, key=lambda s: s.key))])


__all__ = ["BEFORE_VERSIONING", "RulesChange", "StepVersions", "changed_rule", "changelog", "changelog_text",
           "changes_after", "export_header", "fingerprint", "label", "made_now", "rules_news", "today",
           "with_rules_news"]
