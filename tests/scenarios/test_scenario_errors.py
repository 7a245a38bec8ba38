"""What a club member reads when a file is wrong (issue 46): a misspelt field or value gets
"did you mean"; every problem of a file comes in one run, those of the fields and those of
the cross-field checks together; an unclosed quote is named at its own line; a file that
names no game is refused with a sentence, never checked as the game it fits best."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from rules.core import scenariofile as sf
from rules.core.registry import get

ROOT = Path(__file__).resolve().parents[2]
FARM = (ROOT / "docs" / "scenarios" / "skirmish-farm-lane.yaml").read_text("utf-8")
FORD = (ROOT / "docs" / "scenarios" / "mak-ford.yaml").read_text("utf-8")


def refusal(system: str, text: str) -> sf.ScenarioError:
    with pytest.raises(sf.ScenarioError) as caught:
        get(system).scenario_from_file(text.encode())
    return caught.value


def test_a_misspelt_field_or_value_is_answered_with_the_closest_name() -> None:
    text = (FORD.replace("turns: 5", "tunrs: 5\nturns: 5").replace("first: merc", "first: mrec")
            .replace("{unit: InfSQ, count: 1,", "{unit: InfSQ, cuont: 1,"))
    problems = {p.path: p.message for p in refusal("mak", text).problems}
    assert "did you mean 'turns'?" in problems["tunrs"]
    assert "did you mean 'count'?" in problems["sides[0].forces[1].cuont"]
    assert "did you mean 'merc'?" in problems["first"]


def test_every_problem_of_a_file_is_reported_in_one_run() -> None:
    # Three kinds at once: a misspelt field, a value out of range, and what the cross-field
    # checks find on the rest (a team off the table, an objective that is no point).
    text = (FARM.replace("training: trained", "trainnig: trained\n    training: trained")
            .replace("mg42:    {name: MG 42, range: 16, fp: 5}", "mg42:    {name: MG 42, range: 16, fp: 50}")
            .replace("x: 21, y: 32", "x: 90, y: 32").replace("objective: yard", "objective: barn"))
    error = refusal("skirmish", text)
    paths = [p.path for p in error.problems]
    assert "units[0].trainnig" in paths and "weapons.mg42.fp" in paths
    assert any(p.startswith("units[0].teams[2]") for p in paths), paths  # off the table
    assert "victory.objective" in paths
    # every one at the line of the file as written
    lines = FARM.splitlines()
    off = next(p for p in error.problems if p.path.startswith("units[0].teams[2]"))
    assert off.line is not None and "us-b" in text.splitlines()[off.line - 1]
    assert len(lines) + 1 == len(text.splitlines())


def test_an_entry_set_aside_is_not_reported_again_by_the_checks_of_the_rest() -> None:
    # The team with a bad kind is set aside; its unit's leader check and the weapon only it
    # carried must not echo it.
    text = FARM.replace("{id: de-mg, kind: infantry", "{id: de-mg, kind: infantry_mg")
    error = refusal("skirmish", text)
    assert [p.path for p in error.problems] == ["units[1].teams[1].kind"], error.problems


def test_an_unclosed_quote_is_reported_at_its_own_line() -> None:
    text = FORD.replace('title: The ford on board 6', 'title: "The ford on board 6')
    (problem,) = refusal("mak", text).problems
    assert problem.line == 4 and text.splitlines()[3].startswith('title: "')
    assert "never closed" in problem.message


def test_a_file_without_system_is_refused_with_a_sentence(tmp_path: Path, capsys) -> None:
    bare = tmp_path / "bare.yaml"
    bare.write_text(FORD.replace("system: mak\n", ""), "utf-8")
    assert main(["scenario", "check", str(bare)]) == 1
    out = capsys.readouterr().out
    assert "does not say which game it is for" in out and "system: KEY" in out
    assert main(["scenario", "check", str(bare), "--system", "mak"]) == 0  # named on the line


def test_a_file_of_another_system_is_never_checked_as_this_one(tmp_path: Path, capsys) -> None:
    error = refusal("rr", FORD)
    assert error.problems[0].path == "system" and "not a rr scenario" in str(error)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(FORD.replace("system: mak", "system: mack"), "utf-8")
    assert main(["scenario", "check", str(wrong)]) == 1
    assert "did you mean 'mak'?" in capsys.readouterr().out
