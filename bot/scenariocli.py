"""``referee scenario``: write, check and preview a scenario file without reading the code.

* ``referee scenario schema SYSTEM`` prints the JSON Schema of the system's scenario model,
  so an editor (VS Code, any YAML plug-in) completes and checks the file as it is typed;
* ``referee scenario check FILE [--system S] [--preview PNG]`` lists every problem with its
  field path and line, or says the file is good and draws the set-up;
* ``referee scenario new SYSTEM --from BUILTIN [--out FILE]`` writes a copy of a shipped
  scenario to start from.

The checks are the ones ``/game new scenario-file:`` runs (``GameSystem.scenario_from_file``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rules.core import scenariofile
from rules.core.contract import GameSystem
from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.core.registry import get, load_all


def add_parser(sub: Any) -> None:
    """Add ``scenario schema|check|new`` to the ``referee`` subcommands."""
    scenario = sub.add_parser("scenario", help="write, check and preview a scenario file")
    verbs = scenario.add_subparsers(dest="verb", metavar="VERB", required=True)
    schema = verbs.add_parser("schema", help="print the JSON Schema of a system's scenario files")
    schema.add_argument("system", help="rr, raiders, commando, skirmish or mak")
    check = verbs.add_parser("check", help="check a scenario file; every problem with its line")
    check.add_argument("file", type=Path, help="the scenario, .json or .yaml")
    check.add_argument("--system", help="the system, for a file without a system: line")
    check.add_argument("--preview", type=Path, metavar="PNG",
                       help="where to draw the set-up (default: FILE with .png)")
    new = verbs.add_parser("new", help="write a copy of a built-in scenario to start from")
    new.add_argument("system", help="rr, raiders, commando, skirmish or mak")
    new.add_argument("--from", dest="builtin", required=True, help="the built-in scenario's key")
    new.add_argument("--out", type=Path, help="the file to write, .json or .yaml (default: BUILTIN-copy.json here)")


def schema(system: GameSystem[Any]) -> dict[str, Any]:
    """The JSON Schema of ``system``'s scenario files (from its pydantic model)."""
    fmt = _format(system)
    out = fmt.model.model_json_schema(mode="validation")
    if fmt.schema_extra is not None:
        fmt.schema_extra(out)
    # The game a file is for (issue 46): read by the front doors, not by the model.
    out["properties"] = {scenariofile.SYSTEM_FIELD: {
        "title": "System", "const": system.key, "description": f"The game: {system.key}."},
        **out["properties"]}
    out["required"] = [scenariofile.SYSTEM_FIELD, *out.get("required", [])]
    out["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    out["title"] = f"{system.title} scenario"
    out["description"] = (f"A {system.title} scenario for Referee (docs/scenarios.md). "
                          "Check it with: referee scenario check FILE")
    return out


def _format(system: GameSystem[Any]) -> scenariofile.ScenarioFormat:
    if system.scenario_format is None:
        raise RuleError(f"{system.title} has no scenario file format.")
    return system.scenario_format


def named_system(raw: bytes | str, given: str | None = None) -> GameSystem[Any]:
    """The system a file names in its ``system:`` line (``given``, from ``--system``, when
    it names none).  A file that names no system is refused with a sentence, never checked
    as the system whose fields it happens to fit best (issue 46)."""
    document = scenariofile.read(raw)
    named = scenariofile.declared_system(document.data) or given
    systems = [k for k, s in load_all().items() if s.scenario_format is not None]
    if named is None:
        raise scenariofile.refuse(
            "the file does not say which game it is for; add the line `system: KEY` "
            f"with KEY one of {', '.join(systems)} (a file is never checked as a game it "
            "does not name).", line=1)
    if named not in systems:
        raise scenariofile.refuse(
            f"system: {named[:20]} is not a game of this bot;"
            f"{scenariofile.did_you_mean(named, systems)} systems: {', '.join(systems)}.",
            path=scenariofile.SYSTEM_FIELD, line=document.line_of((scenariofile.SYSTEM_FIELD,)))
    return get(named)


def check_file(path: Path, system_key: str | None, preview: Path | None) -> int:
    """``referee scenario check``: print every problem (exit 1) or draw the set-up (exit 0)."""
    raw = path.read_bytes()
    try:
        system = named_system(raw, system_key)
        checked = system.scenario_from_file(raw)
    except scenariofile.ScenarioError as exc:
        print(f"✗ {path.name}: {len(exc.problems)} problem{'s' if len(exc.problems) > 1 else ''}")
        for problem in exc.problems:
            print(f"  {problem.text()}")
        return 1
    except RuleError as exc:
        print(f"✗ {path.name}: {exc}")
        return 1
    step = system.setup(checked.key, None, SeededDice(b"preview"))
    target = preview or path.with_suffix(".png")
    target.write_bytes(preview_png(system, step.state))
    print(f"✓ {path.name}: a good {system.title} scenario, '{checked.title}'.")
    print(f"  sha256 {checked.sha256}")
    print(f"  set-up drawn in {target}")
    return 0


def start_hint(path: Path) -> str:
    """What the console says first when started with ``--scenario-file``: the file's own
    system, the ``/game new`` that starts it, and the first orders of its opening phase
    (``/game join side:strahl``, whose first orders are ``/mak enter``…); a file that cannot
    be played says why and names ``referee scenario check``."""
    try:
        raw = path.read_bytes()
        system = named_system(raw)
        checked = system.scenario_from_file(raw)
        state = system.setup(checked.key, None, SeededDice(b"hint")).state
    except (RuleError, OSError) as exc:
        reason = str(getattr(exc, "strerror", None) or exc).rstrip(".")
        return (f"Type /game help for the commands. {path.name} cannot be played: {reason[:160]}; "
                f"`referee scenario check {path.name}` lists every problem. Ctrl-D quits.")
    waiting = system.waiting_on(state)
    first = ""
    if waiting:
        names = list(dict.fromkeys(a.name for a in system.legal_actions(state, waiting[0], read_only=False)))
        if names:
            orders = ", ".join(f"/{system.key} {n}" for n in names[:3])
            first = f"; then /game join side:{waiting[0]}, whose first orders are {orders}"
    return (f"Type /game help for the commands. {path.name} is a {system.title} scenario, "
            f"'{checked.title[:60]}': /game new system:{system.key} starts it{first}. Ctrl-D quits.")


def preview_png(system: GameSystem[Any], state: Any) -> bytes:
    """The whole map of the opening state, as posted by ``/game map``."""
    from render import snapshot  # noqa: PLC0415 - Pillow only when drawing

    return snapshot(system.view(state)).png


def new_file(system: GameSystem[Any], builtin: str, out: Path | None) -> int:
    """``referee scenario new``: copy a shipped scenario's text to a file."""
    fmt = _format(system)
    if builtin not in system.scenarios:
        print(f"✗ {system.title} has no built-in scenario '{builtin[:30]}'; built-ins: "
              f"{', '.join(system.scenarios)}.", file=sys.stderr)
        return 1
    target = out or Path(f"{builtin}-copy.json")
    if target.exists():
        print(f"✗ {target} exists; give another name with --out.", file=sys.stderr)
        return 1
    data = {scenariofile.SYSTEM_FIELD: system.key, **json.loads(fmt.builtin(builtin))}
    data["key"] = f"{builtin}-copy"
    data["title"] = f"{data.get('title', builtin)} (copy)"
    if target.suffix.lower() in (".yaml", ".yml"):
        import yaml  # noqa: PLC0415

        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    else:
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    target.write_text(text, "utf-8")
    print(f"✓ wrote {target}: edit it, then referee scenario check {target}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Run ``referee scenario VERB``; the exit code."""
    try:
        if args.verb == "schema":
            print(json.dumps(schema(get(args.system)), indent=1, ensure_ascii=False))
            return 0
        if args.verb == "check":
            return check_file(args.file, args.system, args.preview)
        return new_file(get(args.system), args.builtin, args.out)
    except RuleError as exc:
        print(f"✗ {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"✗ {exc.strerror or exc}: {getattr(exc, 'filename', '')}", file=sys.stderr)
        return 1
