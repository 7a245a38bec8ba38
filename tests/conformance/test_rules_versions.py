"""Every system declares its rules version and explains it (issue 42): ``rules_version`` on its
own ``GameSystem`` class, and a line for that version (and every one before it) in its own
``CHANGELOG.md``, where ``referee replay`` and ``referee check-games`` read which rule changed."""

from __future__ import annotations

import pytest

from bot import versions
from rules.core import registry
from tests.golden.record import SYSTEMS


@pytest.mark.parametrize("key", SYSTEMS)
def test_each_system_declares_its_rules_version_with_a_changelog_line(key: str) -> None:
    system = registry.get(key)
    assert "rules_version" in vars(type(system)), f"{key} declares no rules_version of its own"
    assert isinstance(system.rules_version, int) and system.rules_version >= 1
    numbers = [c.version for c in versions.changelog(system)]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers), f"{key}: {numbers}"
    assert numbers == list(range(1, system.rules_version + 1)), (
        f"rules/{key}/CHANGELOG.md has versions {numbers}; {key} is at {system.rules_version}:"
        f" add '- {key} {system.rules_version}: RULE what changed'")


def test_a_changelog_line_names_its_rule() -> None:
    change = versions.RulesChange(system="rr", version=4, text="7.3.3 retreat never closer to an enemy")
    assert change.rule == "7.3.3" and change.line() == "rr 4: 7.3.3 retreat never closer to an enemy"
    assert versions.RulesChange(system="rr", version=1, text="first versioned release").rule is None
