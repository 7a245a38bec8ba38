"""The scenario docs and the ``referee scenario`` commands (issue 27, points 1 and 6): the
worked examples on docs/scenarios.md are the files the conformance kit plays, the README
shows the three commands, and the commands work as the page says."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from tests.scenarios.helpers import systems

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "scenarios.md").read_text("utf-8")


def test_every_worked_example_on_the_page_is_its_file_word_for_word() -> None:
    shown = re.findall(r"\[`docs/scenarios/([^`]+)`\]\(scenarios/[^)]+\):\n\n```yaml\n(.*?)```", PAGE, re.S)
    assert {name.split("-")[0] for name, _ in shown} == set(systems())
    for name, text in shown:
        assert (ROOT / "docs" / "scenarios" / name).read_text("utf-8") == text, name


def test_the_readme_shows_the_three_commands() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for command in ("referee scenario schema", "referee scenario check", "scenario-file:"):
        assert command in readme


@pytest.mark.parametrize("system", sorted(systems()))
def test_schema_prints_a_json_schema_of_the_model(system: str, capsys) -> None:
    assert main(["scenario", "schema", system]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert {"key", "title"} <= set(schema["properties"]) and "key" in schema["required"]
    assert schema["additionalProperties"] is False  # an unknown field is an error in editors too


def test_new_then_check_writes_a_copy_and_draws_its_set_up(tmp_path: Path, capsys) -> None:
    copy = tmp_path / "ridge.yaml"
    assert main(["scenario", "new", "mak", "--from", "ridge", "--out", str(copy)]) == 0
    assert main(["scenario", "new", "mak", "--from", "ridge", "--out", str(copy)]) == 1  # exists
    assert main(["scenario", "check", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "a good Maschinen Krieger scenario" in out and "sha256" in out
    with Image.open(copy.with_suffix(".png")) as picture:
        assert picture.format == "PNG" and picture.width > 600


def test_check_lists_every_problem_with_its_path_and_line(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.yaml"
    text = (ROOT / "docs" / "scenarios" / "mak-ford.yaml").read_text("utf-8")
    broken.write_text(text.replace('"6:1408": -1', '"6:2099": -1').replace("unit: Gustav", "unit: Gustavo"))
    assert main(["scenario", "check", str(broken), "--system", "mak"]) == 1
    out = capsys.readouterr().out
    assert "✗ broken.yaml: 2 problems" in out
    assert "positions.6:2099 (line 19): 6:2099 is not a hex of board 6" in out
    assert "sides[1].forces[1].unit (line 17): 'Gustavo' is not a unit type; did you mean 'Gustav'?" in out
    for line in out.splitlines()[1:]:  # the page shows this very answer
        assert line in PAGE, line


def _in_play(title: str) -> str:
    """The "What the fields do in play" paragraph of the page's section on a system."""
    section = PAGE.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
    return section.split("**What the fields do in play.**", 1)[1].split("\n\n", 1)[0]


@pytest.mark.parametrize(("title", "fields"), [
    ("Raid and Riposte", ["tm", "blocks_los", "city", "east_of_river", "rivers", "bridges"]),
    ("Raiders", ["staging", "airfield", "port", "leader: true", "names", "stop", "edge_tie"]),
    ("Commando raid", ["facing", "water", "wire", "building", "cover", "quay", "landing: true", "gun: true"]),
    ("Platoon skirmish", ["fp", "range", "at", "barrage", "facing", "training", "victory", "radius", "year"]),
    ("Maschinen Krieger", ["first", "depots", "mines", "points", "night", "amu", "attacker"]),
])
def test_every_field_with_an_effect_in_play_is_said_with_its_rule(title: str, fields: list[str]) -> None:
    said = _in_play(title)
    for name in fields:
        assert f"`{name}`" in said, name
    assert re.search(r"\(\d+\.\d|\((Shooting|Pillboxes|Barbed Wire|Moving)", said)


def test_the_page_says_a_files_facing_and_an_orders_heading_differ() -> None:
    said = _in_play("Commando raid")
    assert "0 east, 90 south, 180 west, 270\nnorth" in said and "`move to:0:18` the 0 is north" in said


def test_the_mak_unit_types_on_the_page_are_the_catalogues() -> None:
    from rules.mak.scenario import unit_type_table

    assert unit_type_table() in PAGE
    assert "4 MP (walks)" in unit_type_table()


def test_the_readmes_three_commands_run_as_printed_from_a_checkout(tmp_path: Path, capsys, monkeypatch) -> None:
    import shlex

    from bot.scenariocli import start_hint

    readme = (ROOT / "README.md").read_text("utf-8")
    block = readme.split("### Your own scenarios", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [shlex.split(line.split("#")[0]) for line in block.splitlines() if line.startswith(".venv/bin/referee ")]
    assert [c[1:3] for c in commands] == [["scenario", "schema"], ["scenario", "check"], ["console", "--scenario-file"]]
    monkeypatch.chdir(tmp_path)  # outputs land here; the paths printed are the checkout's
    schema, check, console = commands
    assert main(schema[1:schema.index(">")]) == 0 and json.loads(capsys.readouterr().out)["$defs"]
    args = [str(ROOT / a) if a.startswith("docs/") else a for a in check[1:]]
    assert main(args) == 0 and "a good Maschinen Krieger scenario" in capsys.readouterr().out
    assert (tmp_path / "ford.png").exists()
    assert "/game new system:mak starts it" in start_hint(ROOT / console[3])
