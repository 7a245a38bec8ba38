"""Reading scenario files (issue 27, point 5): limits before parsing, encodings, YAML without
anchors or aliases, located errors, unknown fields: one sentence each, nothing registered."""

from __future__ import annotations

import pytest

from rules.core import scenariofile as sf
from rules.core.registry import get
from tests.scenarios.helpers import as_json, as_yaml, builtins, data


@pytest.mark.parametrize(("system", "builtin"), builtins())
@pytest.mark.parametrize("writer", [as_json, as_yaml], ids=["json", "yaml"])
def test_every_builtin_reads_back_through_the_file_path(system: str, builtin: str, writer) -> None:
    original = data(system, builtin)
    checked = get(system).scenario_from_file(writer(original))
    assert checked.key.startswith(builtin.replace("_", "_")[:24].lower())
    assert "~" in checked.key and sf.registered(system, checked.key) is not None
    assert get(system).has_scenario(checked.key)
    model = get(system).scenario_format.model  # type: ignore[union-attr]
    assert checked.scenario == model.model_validate({**original, "key": checked.key})


def test_same_text_same_key_and_a_changed_text_another() -> None:
    a = get("mak").scenario_from_file(as_json(data("mak")))
    b = get("mak").scenario_from_file(as_json(data("mak")))
    changed = data("mak")
    changed["turns"] = 5
    c = get("mak").scenario_from_file(as_json(changed))
    assert a.key == b.key and a.sha256 == b.sha256
    assert c.key != a.key


def _refusal(raw: bytes | str, system: str = "mak") -> sf.ScenarioError:
    with pytest.raises(sf.ScenarioError) as caught:
        get(system).scenario_from_file(raw)
    error = caught.value
    assert str(error).endswith(".") and "\n" not in str(error) and "Traceback" not in str(error)
    return error


def test_a_file_of_one_megabyte_is_refused_before_parsing_saying_the_limit() -> None:
    raw = b"{" + b" " * sf.MAX_BYTES + b"}"
    error = _refusal(raw)
    assert "1 MB" in str(error) and "999,999" in str(error)


def test_ten_thousand_units_are_refused_saying_the_limit() -> None:
    value = data("rr")
    value["units"] = [{"id": f"U{i}"} for i in range(sf.MAX_UNITS)]
    error = _refusal(as_json(value), "rr")
    assert "10,000 units" in str(error) and "at most 9,999" in str(error)


def test_utf16_and_latin1_files_are_refused_asking_for_utf8() -> None:
    assert "UTF-16" in str(_refusal(as_json(data("mak")).decode().encode("utf-16")))
    error = _refusal('title: "Gefecht bei Kr\u00f6te"\n'.encode("latin-1"))
    assert "not UTF-8" in str(error) and error.problems[0].line == 1


def test_a_utf8_bom_is_accepted() -> None:
    get("mak").scenario_from_file(b"\xef\xbb\xbf" + as_json(data("mak")))


def test_yaml_aliases_and_anchors_are_refused_so_no_alias_bomb_expands() -> None:
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n" \
           "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    error = _refusal(bomb)
    assert "anchors" in str(error) and error.problems[0].line == 1
    assert "aliases" in str(_refusal("key: *nothing\n"))


def test_deep_nesting_is_refused_before_the_parser_recurses() -> None:
    assert "nests deeper" in str(_refusal("[" * 100_000))
    assert "nests deeper" in str(_refusal("a: " + "[" * 50 + "]" * 50))


def test_yaml_keeps_hex_numbers_and_no_as_written() -> None:
    # YAML 1.1 reads 5:20 as 320 (base 60) and no as false; a scenario means what it says.
    document = sf.read("hex: 5:20\nanswer: no\nwhen: 2024-01-01\nturns: 6\nrate: 0.5\nok: true\n")
    assert document.data == {"hex": "5:20", "answer": "no", "when": "2024-01-01", "turns": 6,
                             "rate": 0.5, "ok": True}


def test_python_tags_are_refused() -> None:
    error = _refusal("key: !!python/object/apply:os.system ['true']\n")
    assert "not valid YAML" in str(error)


def test_broken_json_and_yaml_say_the_line() -> None:
    error = _refusal('{\n "key": "x",\n "turns": 6,,\n}')
    assert error.problems[0].line == 3 and "not valid JSON" in str(error)
    error = _refusal("key: x\nsides:\n  - key: merc\n   forces: []\n")
    assert "not valid YAML" in str(error) and error.problems[0].line == 4


def test_a_list_or_empty_file_is_not_a_scenario() -> None:
    assert "mapping" in str(_refusal("[1, 2]"))
    assert "empty" in str(_refusal("   \n"))


@pytest.mark.parametrize("writer", [as_json, as_yaml], ids=["json", "yaml"])
def test_unknown_fields_are_located_with_their_path_and_line(writer) -> None:
    value = data("mak")
    value["sides"][1]["forces"][1]["colour"] = "grey"
    error = _refusal(writer(value))
    problem = error.problems[0]
    assert problem.path == "sides[1].forces[1].colour"
    text = writer(value).decode().splitlines()
    assert problem.line is not None and "colour" in text[problem.line - 1]
    assert "not a field" in problem.message


def test_every_problem_is_listed_with_path_and_line() -> None:
    value = data("mak")
    value["turns"] = 99
    value["first"] = "nobody"
    error = _refusal(as_json(value))
    paths = {p.path for p in error.problems}
    assert {"turns", "first"} <= paths
    assert "and 1 more problem" in str(error)


def test_a_refused_file_registers_nothing() -> None:
    value = data("mak")
    value["positions"] = {"5:2099": -1}
    value["key"] = "refused-one"
    with pytest.raises(sf.ScenarioError):
        get("mak").scenario_from_file(as_json(value))
    assert not [k for k in sf._REGISTERED if k[1].startswith("refused-one")]


def test_an_editors_schema_pointer_is_not_an_unknown_field() -> None:
    from rules.core.registry import get
    from tests.scenarios.helpers import as_json, as_yaml, data

    checked = get("mak").scenario_from_file(as_json({"$schema": "mak.schema.json", **data("mak")}))
    assert "$schema" not in checked.data
    get("mak").scenario_from_file(b"# yaml-language-server: $schema=mak.schema.json\n" + as_yaml(data("mak")))
