"""Scenarios as files a club writes: reading, limits, located errors, the set-up registry.

Every system's scenario is a pydantic model (``rules/<system>/scenario.py``).  This module
holds what every system shares (issue 27):

* :func:`read` turns uploaded bytes into plain data: UTF-8 only (a BOM is dropped), at most
  :data:`MAX_BYTES` and :data:`MAX_DEPTH` levels, checked *before* parsing; JSON, or YAML read
  with a safe loader that refuses anchors and aliases (no alias bombs), custom tags and the
  YAML 1.1 surprises (``no`` as false, ``5:20`` as a base-60 number).  Each value's line is
  kept, so an error can say where it is.
* :func:`validate` runs the system's model and its cross-field checks and reports every
  problem as ``units[3].at (line 12): …``: the field path, the line, what is wrong.
* :func:`register` keeps a validated scenario's data under a key made of its own key and
  the hash of its text, so a state that names the key can be played in this process; the
  text itself is stored with the game by the bot, and registered again when the game is
  opened, exported or replayed.  The systems' ``load_scenario`` ask :func:`registered` first.

Nothing here reads a file or the network: the caller hands in bytes.
"""

from __future__ import annotations

import bisect
import difflib
import hashlib
import json
import logging
import re
import math
import threading
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Annotated, Any, Callable, TypeVar

import yaml
from pydantic import BaseModel, BeforeValidator, ValidationError, ValidationInfo, WithJsonSchema

from rules.core import bounds, table
from rules.core.errors import RuleError
from rules.core.scenariorepair import SetAside, repair

#: 1 MB: a scenario is a few kilobytes; anything near this is not a scenario (issue 27).
MAX_BYTES = 1_000_000
#: Units (counters, teams, forces) in one scenario; the biggest shipped has under 60.
MAX_UNITS = 10_000
#: Levels of nesting: the deepest shipped scenario has 6.
MAX_DEPTH = 20
#: Problems listed by a check; past these, "and N more".
MAX_PROBLEMS = 25

log = logging.getLogger("referee.scenarios")
Loc = tuple[str | int, ...]
M = TypeVar("M", bound=BaseModel)


class Problem(BaseModel):
    """One thing wrong with a scenario file: where (field path, line) and what."""

    path: str
    line: int | None = None
    message: str

    def text(self) -> str:
        """``units[3].at (line 12): 5:2099 is not a hex of board 5``; a problem of the whole
        file is its message alone (``line 4: …`` when it has a line)."""
        if not self.path:
            return self.message if self.line is None else f"line {self.line}: {self.message}"
        where = self.path if self.line is None else f"{self.path} (line {self.line})"
        return f"{where}: {self.message}"


class ScenarioError(RuleError):
    """A scenario file refused; ``problems`` lists everything found, the message says the
    first (and how many more), as one sentence a player reads."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        first = problems[0].text().rstrip(".")
        more = len(problems) - 1
        tail = (f" (and {more} more problem{'s' if more > 1 else ''}; `referee scenario check` "
                "lists them all)") if more else ""
        super().__init__(f"{first}{tail}.")


def refuse(message: str, path: str = "", line: int | None = None) -> ScenarioError:
    """A ScenarioError of one problem."""
    return ScenarioError([Problem(path=path, line=line, message=message)])


@dataclass
class Document:
    """A scenario file read into plain data, with the line of every value by its path."""

    data: Any
    text: str
    lines: dict[Loc, int] = field(default_factory=dict)

    def line_of(self, loc: Loc) -> int | None:
        """The line of ``loc``, or of its nearest parent that has one."""
        loc = tuple(loc)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), None)


# -- reading -----------------------------------------------------------------------------------


def decode(raw: bytes) -> str:
    """The text of an upload: UTF-8 (a BOM is dropped), else one sentence saying so."""
    if len(raw) >= MAX_BYTES:
        raise refuse(f"the file is {len(raw):,} bytes; a scenario may be at most "
                     f"{MAX_BYTES - 1:,} bytes (1 MB).")
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(raw) > 1 and raw[1:2] == b"\x00"):
        raise refuse("the file is UTF-16; save it as UTF-8 (most editors: Save with Encoding).")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise refuse(f"byte {exc.start} is not UTF-8; save the file as UTF-8.", line=line) from None
    if "\x00" in text:
        raise refuse("the file holds a NUL character: it is not a text file.")
    return text


_CONTROL = re.compile(r"[\x01-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def _check_characters(text: str) -> None:
    """Control characters (other than tab and line ends) have no place in a scenario: YAML
    refuses them, and in JSON they hide in names; say where the first one is."""
    found = _CONTROL.search(text)
    if found:
        line = text.count("\n", 0, found.start()) + 1
        raise refuse(f"the file holds the control character U+{ord(found.group()):04X}; only "
                     "printable text, tabs and line ends are accepted.", line=line)


def read(raw: bytes | str) -> Document:
    """Bytes (or text) of a JSON or YAML scenario, checked against the limits, parsed."""
    text = decode(raw) if isinstance(raw, bytes) else raw
    if len(text.encode("utf-8")) >= MAX_BYTES:
        raise refuse(f"the file is over {MAX_BYTES - 1:,} bytes; a scenario may be at most 1 MB.")
    _check_characters(text)
    _check_depth(text)
    if not text.strip():
        raise refuse("the file is empty; a scenario is a JSON or YAML mapping (key: value).")
    if text.lstrip()[:1] in "{[":
        document = _read_json(text)
    else:
        document = _read_yaml(text)
    if not isinstance(document.data, dict):
        raise refuse("a scenario is a mapping of fields (key: value, or a JSON object), "
                     f"not a {_kind(document.data)}.", line=1)
    # An editor's pointer to the schema (``"$schema": "mak.schema.json"``) is for the editor.
    document.data.pop("$schema", None)
    return document


def _kind(value: Any) -> str:
    return {list: "list", str: "text", int: "number", float: "number", bool: "yes/no"}.get(
        type(value), type(value).__name__)


_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` before any parser recurses into it:
    brackets outside quotes, and YAML block indentation (two columns a level, generously)."""
    depth = deepest = 0
    for number, line in enumerate(text.splitlines(), 1):
        body = _QUOTED.sub('""', line.split(" #")[0] if not line.lstrip().startswith("#") else "")
        indent = len(body) - len(body.lstrip(" -"))
        for char in body:
            if char in "[{":
                depth += 1
                deepest = max(deepest, depth)
            elif char in "]}":
                depth -= 1
        levels = depth + (indent // 2 if body.strip() else 0)
        if levels > MAX_DEPTH * 2 or deepest > MAX_DEPTH:
            raise refuse(f"the data nests deeper than {MAX_DEPTH} levels; a scenario needs "
                         "far fewer (each unit, area or piece is a few levels).", line=number)


def _read_json(text: str) -> Document:
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise refuse(f"this is not valid JSON: {exc.msg}.", line=exc.lineno) from None
    except RecursionError:
        raise refuse(f"the data nests deeper than {MAX_DEPTH} levels.") from None
    lines: dict[Loc, int] = {}
    walker = _JsonLines(text, lines)
    try:
        walker.value(0, ())
    except (ValueError, IndexError):
        pass  # lines are a help to the reader; a value the walker misreads keeps its parent's
    if walker.twice:
        raise _given_twice(*walker.twice[0])
    _check_tree(data)
    return Document(data=data, text=text, lines=lines)


def _no_constant(name: str) -> None:
    raise refuse(f"{name} is not a number a scenario can use; write a plain number.")


class _JsonLines:
    """The line of each value of a JSON text already known to be valid, by path."""

    _ATOM = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null")

    def __init__(self, text: str, lines: dict[Loc, int]) -> None:
        self.text = text
        self.lines = lines
        #: Keys given twice in one object: ``(path, first line, second line)`` (issue 45).
        self.twice: list[tuple[Loc, int, int]] = []
        # Where each line starts: a value's line is a binary search, not a count from the
        # top (which made a 1 MB file take minutes).
        self.starts = [m.end() for m in re.finditer("\n", text)]

    def _skip(self, pos: int) -> int:
        while pos < len(self.text) and self.text[pos] in " \t\r\n":
            pos += 1
        return pos

    def _line(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) + 1

    def value(self, pos: int, loc: Loc) -> int:
        pos = self._skip(pos)
        self.lines[loc] = self._line(pos)
        char = self.text[pos]
        if char == "{":
            return self._object(pos + 1, loc)
        if char == "[":
            return self._array(pos + 1, loc)
        if char == '"':
            return _scan_string(self.text, pos + 1)[1]
        match = self._ATOM.match(self.text, pos)
        return match.end() if match else pos + 1

    def _object(self, pos: int, loc: Loc) -> int:
        pos = self._skip(pos)
        seen: dict[str, int] = {}
        while self.text[pos] != "}":
            line = self._line(self._skip(pos))
            key, pos = _scan_string(self.text, self._skip(pos) + 1)
            if key in seen:
                self.twice.append((loc + (key,), seen[key], line))
            seen.setdefault(key, line)
            pos = self._skip(pos) + 1  # the colon
            pos = self._skip(self.value(pos, loc + (key,)))
            if self.text[pos] == ",":
                pos = self._skip(pos + 1)
        return pos + 1

    def _array(self, pos: int, loc: Loc) -> int:
        pos = self._skip(pos)
        index = 0
        while self.text[pos] != "]":
            pos = self._skip(self.value(pos, loc + (index,)))
            index += 1
            if self.text[pos] == ",":
                pos = self._skip(pos + 1)
        return pos + 1


def _scan_string(text: str, pos: int) -> tuple[str, int]:
    """The JSON string whose body starts at ``pos`` (after its quote): its value and the
    position after its closing quote (the standard library's own scanner)."""
    value, end = json.decoder.scanstring(text, pos)  # type: ignore[attr-defined]
    return str(value), int(end)


#: libyaml's parser when PyYAML has it (some 50x faster: a 1 MB file in well under a
#: second rather than a minute of CPU), else PyYAML's own.
_BASE_LOADER: Any = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader


class _SafeLoader(_BASE_LOADER):  # type: ignore[misc]
    """PyYAML's safe loader with YAML 1.2's plain scalars: only ``true``/``false`` are
    booleans, no base-60 numbers, no timestamps.  Anchors and aliases are refused by
    :func:`_no_aliases` before anything is composed."""


def _line_of(event: yaml.Event) -> int | None:
    """The 1-based line a parser event starts at, when the parser marked it."""
    return None if event.start_mark is None else event.start_mark.line + 1


def _no_aliases(text: str) -> None:
    """Refuse anchors (``&a``) and aliases (``*a``) from the parser's events: an alias bomb
    never expands, since nothing is composed before this pass ends."""
    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.AliasEvent):
            raise refuse("YAML aliases (*name) are not accepted; write the value out.",
                         line=_line_of(event))
        if getattr(event, "anchor", None):
            raise refuse("YAML anchors (&name) are not accepted; write each value out.",
                         line=_line_of(event))


_SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp",
                           "tag:yaml.org,2002:int", "tag:yaml.org,2002:float")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _tag, _pattern, _first in (
    ("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("tag:yaml.org,2002:int", r"^[-+]?(?:0|[1-9][0-9_]*)$", "-+0123456789"),
    ("tag:yaml.org,2002:float", r"^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]+(?:[eE][-+]?[0-9]+)?$", "-+.0123456789"),
):
    _SafeLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_first))


def _yaml_refusal(text: str, exc: yaml.MarkedYAMLError) -> ScenarioError:
    """A YAML error as one located sentence.  An unclosed quote is named at the line that
    opens it: the parser reports it where it gave up (the end of the file, or the next
    quote, lines later), which is not where the fault is."""
    quote = _unclosed_quote(text, (exc.problem_mark.line + 1) if exc.problem_mark else None)
    if quote is not None:
        line, char = quote
        return refuse(f"this is not valid YAML: the quote {char} opened on this line is never "
                      f"closed; end the text with {char} on the same line.", line=line)
    quoted = "quoted scalar" in (exc.context or "")
    mark = (exc.context_mark if quoted else None) or exc.problem_mark or exc.context_mark
    reason = (exc.problem or exc.context or "unreadable").rstrip(".")
    return refuse(f"this is not valid YAML: {reason}.", line=mark.line + 1 if mark else None)


_YAML_VALUE_START = re.compile(r"""(?:^\s*-\s+|:\s+|[\[{,]\s*)(["'])""")


def _unclosed_quote(text: str, until: int | None) -> tuple[int, str] | None:
    """The first line (up to ``until``) where a quoted value opens and does not close on the
    same line, with its quote character; scenario files never need a quote across lines."""
    for number, line in enumerate(text.splitlines(), 1):
        if until is not None and number > until:
            return None
        if line.lstrip().startswith("#"):
            continue
        for opened in _YAML_VALUE_START.finditer(line):
            char = opened.group(1)
            rest = line[opened.end():]
            closing = re.search(r'(?<!\\)"' if char == '"' else "'", rest.replace("''", "  "))
            if closing is None:
                return number, char
            break  # the first quoted value of the line is closed: the line is fine
    return None


def _read_yaml(text: str) -> Document:
    try:
        _no_aliases(text)
        loader = _SafeLoader(text)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_refusal(text, exc) from None
    except yaml.YAMLError as exc:
        raise refuse(f"this is not valid YAML: {str(exc).splitlines()[0]}.") from None
    try:
        node = loader.get_single_node()
        if node is None:
            raise refuse("the file is empty; a scenario is a YAML mapping (key: value).")
        lines: dict[Loc, int] = {}
        _yaml_lines(node, (), lines, 0)
        data = loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        raise _yaml_refusal(text, exc) from None
    except yaml.YAMLError as exc:
        raise refuse(f"this is not valid YAML: {str(exc).splitlines()[0]}.") from None
    except RecursionError:
        raise refuse(f"the data nests deeper than {MAX_DEPTH} levels.") from None
    finally:
        loader.dispose()
    _check_tree(data)
    return Document(data=data, text=text, lines=lines)


def _yaml_lines(node: Any, loc: Loc, lines: dict[Loc, int], depth: int) -> None:
    if depth > MAX_DEPTH:
        raise refuse(f"the data nests deeper than {MAX_DEPTH} levels.", line=node.start_mark.line + 1)
    lines[loc] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            name = key.value if isinstance(key, yaml.ScalarNode) else str(len(lines))
            if name in seen:  # PyYAML keeps the last silently (issue 45)
                raise _given_twice(loc + (name,), seen[name], key.start_mark.line + 1)
            seen[name] = key.start_mark.line + 1
            _yaml_lines(value, loc + (name,), lines, depth + 1)
    elif isinstance(node, yaml.SequenceNode):
        for index, value in enumerate(node.value):
            _yaml_lines(value, loc + (index,), lines, depth + 1)


def _given_twice(loc: Loc, first: int, again: int) -> ScenarioError:
    """A key given twice in one mapping (issue 45: the reader kept one of them silently)."""
    return refuse(f"'{str(loc[-1])[:30]}' is given twice in one mapping (first on line {first}); "
                  "give each field once.", path=path_text(loc), line=again)


def _check_tree(data: Any) -> None:
    """Mapping keys must be text (YAML allows ``1: x`` or ``[a, b]: x``)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                if not isinstance(key, str):
                    raise refuse(f"the key {str(key)[:30]!r} is not text; quote it "
                                 f"(\"{str(key)[:30]}\": …).")
                stack.append(item)
        elif isinstance(value, list):
            stack.extend(value)


# -- validating --------------------------------------------------------------------------------


def path_text(loc: Loc) -> str:
    """``("units", 3, "at")`` as ``units[3].at``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def did_you_mean(word: Any, choices: Iterable[Any]) -> str:
    """`` did you mean 'turns'?`` for the choice closest to a misspelt ``word`` (difflib's
    ratio, case aside), or "" when none is close."""
    names = {str(c).casefold(): str(c) for c in choices}
    close = difflib.get_close_matches(str(word).casefold(), list(names), n=1, cutoff=0.6)
    return f" did you mean '{names[close[0]]}'?" if close else ""


def _inner_models(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (``list[Unit]``, ``Unit | None``,
    ``dict[str, Mine]``): where a path's next part leads."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _inner_models(arg)]


def fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    """The field names of the part of a scenario at ``loc`` (``("units", 3)``: a unit's),
    found by walking the model's annotations; [] when the path leaves the models."""
    current: list[type[BaseModel]] = [model]
    for part in loc:
        if isinstance(part, int) or not current:
            continue  # a list index (or a dict key below) keeps the item's model
        nxt: list[type[BaseModel]] = []
        for m in current:
            spec = m.model_fields.get(part)
            if spec is not None:
                nxt += _inner_models(spec.annotation)
            else:  # a key of a dict of models: the same models one level down
                nxt.append(m)
        current = nxt
    return list(dict.fromkeys(name for m in current for name in m.model_fields))


def _explain(error: Any, model: type[BaseModel] | None = None) -> str:
    kind = error["type"]
    given = error.get("input")
    shown = json.dumps(given, ensure_ascii=False, default=str)[:40] if given is not None else ""
    if kind == "missing":
        return "missing; this field is required."
    if kind == "extra_forbidden":
        loc = tuple(error["loc"])
        allowed = fields_at(model, loc[:-1]) if model is not None else []
        hint = did_you_mean(loc[-1], allowed)
        if allowed:
            return (f"is not a field of this part of the scenario;{hint or ' check the spelling.'} "
                    f"Its fields: {one_of(allowed, limit=30)}.")
        return "is not a field of this part of the scenario (check the spelling; see the schema)."
    if kind == "literal_error":
        expected = error.get("ctx", {}).get("expected", "")
        options = re.findall(r"'([^']*)'", str(expected))
        hint = did_you_mean(given, options) if isinstance(given, str) else ""
        return f"{shown} is not allowed;{hint} one of {expected}."
    if kind == "enum":
        expected = error.get("ctx", {}).get("expected", "")
        hint = did_you_mean(given, re.findall(r"'([^']*)'", str(expected))) if isinstance(given, str) else ""
        return f"{shown} is not allowed;{hint} one of {expected}."
    message = str(error["msg"]).removeprefix("Value error, ")
    return f"{message}" + (f" (given {shown})" if shown and kind != "value_error" else "") + "."


#: The validation context of a file being checked: a scenario model then leaves its
#: cross-field rules to the system's ``problems``, which name each fault's field path and line
#: (``units[3].x (line 14): …``), rather than refusing the whole file in one unlocated sentence.
FILE_CONTEXT = {"scenario_file": True}


def cross_checked(model: M, info: ValidationInfo, problems: Callable[[M], list[tuple[Loc, str]]]) -> M:
    """The body of a scenario model's cross-field validator: outside a file check (a built-in
    loaded, a test's data) the first of the located ``problems`` refuses the model, with its
    path; inside one (:data:`FILE_CONTEXT`) they are left to the check, which lists them all."""
    if info.context and info.context.get("scenario_file"):
        return model
    found = problems(model)
    if found:
        loc, message = found[0]
        raise ValueError(f"{path_text(loc)}: {message}" if loc else message)
    return model


def one_of(values: Iterable[Any], limit: int = 12) -> str:
    """What is allowed, cut to a readable length: ``a, b, c`` or ``a, b, … (40 in all)``."""
    shown = [str(v) for v in values]
    if not shown:
        return "none"
    if len(shown) <= limit:
        return ", ".join(shown)
    return f"{', '.join(shown[:limit])}, … ({len(shown)} in all)"


def _facing_angle(value: Any) -> Any:
    """A facing as written in a file: degrees on the table, or a compass letter (``SE``)."""
    given = value
    if isinstance(value, str):
        text = value.strip().upper()
        if text in table.COMPASS:
            return table.heading_to_angle(table.COMPASS[text])
        try:
            value = float(text)
        except ValueError:
            value = math.nan
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isfinite(value):
        raise ValueError(f"{json.dumps(given)[:12]} is not a facing; give a compass letter (N, NE, "
                         "E, SE, S, SW, W, NW) or degrees on the table (0 east, 90 south, 180 "
                         "west, 270 north)")
    return value


#: A unit's facing in a table scenario (commando, skirmish): a compass letter (``N``, ``SE``:
#: the same letters as an order's ``to:N:6``), or degrees *on the table*: 0 east, 90 south,
#: 180 west, 270 north (clockwise from east, y running south) -- not an order's compass
#: bearing, where 0 is north.  Kept as the table angle.
Facing = Annotated[float, BeforeValidator(_facing_angle), WithJsonSchema({
    "anyOf": [{"type": "string", "enum": list(table.COMPASS)}, {"type": "number"}],
    "description": "A compass letter (N, NE, E ...), or degrees on the table: 0 east, 90 south, "
                   "180 west, 270 north (not a compass bearing)."})]


def validate(model: type[BaseModel], document: Document, *, key: str | None = None) -> BaseModel:
    """The scenario model of ``document`` (its ``key`` replaced when given), or a
    ScenarioError listing every problem with its path and line."""
    scenario, problems, _ = validate_rest(model, document, key=key)
    if problems or scenario is None:
        raise ScenarioError(problems)
    return scenario


def validate_rest(model: type[BaseModel], document: Document, *, key: str | None = None,
                  ) -> tuple[BaseModel | None, list[Problem], SetAside]:
    """The model of ``document``, with every problem pydantic finds; when it refuses some
    parts, the model of the rest with those parts set aside (:mod:`rules.core.scenariorepair`),
    so that the cross-field checks can run on it too (None if nothing can be set aside)."""
    data = dict(document.data)
    if key is not None:
        data["key"] = key
    aside = SetAside()
    problems: list[Problem] = []
    defaults = {name for name, spec in model.model_fields.items() if not spec.is_required()}
    for _ in range(4):  # each round sets aside what the last refused; a few always suffice
        try:
            return model.model_validate(data, context=FILE_CONTEXT), problems, aside
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
        for e in errors:
            loc = aside.original(tuple(e["loc"]))
            message = _explain(e, model).replace("..", ".")
            if problems and aside.touches(loc, message):
                continue  # an echo of a part already set aside
            problems.append(Problem(path=path_text(loc), line=document.line_of(loc), message=message))
        repaired = repair(data, errors, aside, defaults)
        if repaired is None:
            break
        data = repaired
    return None, problems or [Problem(path="", message="the scenario could not be read.")], aside


def located(document: Document, found: list[tuple[Loc, str]]) -> list[Problem]:
    """Cross-field problems ``(path, message)`` with the line of each path."""
    return [Problem(path=path_text(loc), line=document.line_of(loc), message=message)
            for loc, message in found[:MAX_PROBLEMS]]


def duplicates(items: Sequence[tuple[Loc, str]], what: str = "id") -> list[tuple[Loc, str]]:
    """One problem for every id used again (case does not tell ids apart), at its second use."""
    seen: dict[str, Loc] = {}
    out = []
    for loc, ident in items:
        folded = ident.casefold()
        if folded in seen:
            out.append((loc, f"the {what} '{ident}' is used twice (first at {path_text(seen[folded])}); "
                             "every id must be different."))
        else:
            seen[folded] = loc
    return out


# -- a system's scenario format ----------------------------------------------------------------


@dataclass(frozen=True)
class ScenarioFormat:
    """What a system says about its scenario files (one per system, in its scenario module).

    * ``model``: the pydantic model of a whole scenario;
    * ``builtin``: the text of a shipped scenario by key (``referee scenario new --from``);
    * ``problems``: the cross-field checks the model alone cannot make, as ``(path, message)``
      pairs, on the validated model;
    * ``units``: how many units (counters, teams, forces) the raw data declares, counted
      before validation so a huge file is refused cheaply;
    * ``schema_extra``: optional, completes the JSON Schema with what lives in catalogues
      rather than in the model (mak's unit types and boards), so an editor offers them.
    * ``reachable``: optional (issue 46), the system's objective hook: ``(path, message)``
      for each objective or required area no side that needs it can reach, on a model that
      passed every other check (:mod:`rules.core.playable` runs it).
    """

    model: type[BaseModel]
    builtin: Callable[[str], str]
    problems: Callable[[Any], list[tuple[Loc, str]]]
    units: Callable[[dict[str, Any]], int]
    schema_extra: Callable[[dict[str, Any]], None] | None = None
    reachable: Callable[[Any], list[tuple[Loc, str]]] | None = None


def count(data: dict[str, Any], *paths: str) -> int:
    """How many entries the lists at ``paths`` hold (``units``, ``units.teams``…); not a list: 0."""
    total = 0
    for path in paths:
        level: list[Any] = [data]
        for part in path.split("."):
            nxt: list[Any] = []
            for item in level:
                value = item.get(part) if isinstance(item, dict) else None
                if isinstance(value, list):
                    nxt.extend(value)
                elif isinstance(value, dict) and part != path.split(".")[-1]:
                    nxt.append(value)
            level = nxt
        total += len(level)
    return total


@dataclass(frozen=True)
class Checked:
    """A scenario file that passed every check: its text, data, model and registry key."""

    system: str
    key: str
    text: str
    data: dict[str, Any]
    scenario: BaseModel
    sha256: str

    @property
    def title(self) -> str:
        """The scenario's title (or its key)."""
        return str(getattr(self.scenario, "title", "") or self.key)


def scenario_key(data: dict[str, Any], text: str) -> str:
    """The registry key: the file's own key (letters, digits, dashes) and 10 hex of its hash."""
    own = re.sub(r"[^a-z0-9_-]+", "-", str(data.get("key", "scenario")).lower()).strip("-")[:24]
    return f"{own or 'scenario'}~{sha256(text)[:10]}"


def sha256(text: str) -> str:
    """The SHA-256 of the scenario text, as posted at ``/game new``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: The field that names a file's game (``system: mak``): read by the front doors, set aside
#: before the system's model sees the file.
SYSTEM_FIELD = "system"


def declared_system(data: dict[str, Any]) -> str | None:
    """The system a file says it is for (``system: mak``), or None if it says none."""
    value = data.get(SYSTEM_FIELD)
    return None if value is None else str(value).strip()


def _own_system(system: str, document: Document) -> None:
    """A file that names another system is refused, never checked as this one; its
    ``system:`` is then set aside (the models do not carry it)."""
    named = declared_system(document.data)
    if named is not None and named.casefold() != system.casefold():
        raise refuse(f"this file says system: {named[:20]}, so it is not a {system} scenario; "
                     f"start it as a {named[:20]} game, or change its system: line.",
                     path=SYSTEM_FIELD, line=document.line_of((SYSTEM_FIELD,)))
    document.data.pop(SYSTEM_FIELD, None)


def check(system: str, fmt: ScenarioFormat, raw: bytes | str) -> Checked:
    """Read, limit, validate and cross-check a scenario file of ``system``; ScenarioError
    with every located problem otherwise.  Nothing is registered."""
    document = read(raw)
    marked = bounds.markup_problems(document.data)  # issue 45: file text is shown as typed
    if marked:
        raise ScenarioError(located(document, marked))
    units = fmt.units(document.data)
    if units >= MAX_UNITS:
        raise refuse(f"the scenario declares {units:,} units; at most {MAX_UNITS - 1:,} are accepted.")
    _own_system(system, document)
    key = scenario_key(document.data, document.text)
    scenario, problems, aside = validate_rest(fmt.model, document, key=key)
    if scenario is not None:
        try:
            found = fmt.problems(scenario)
        except Exception as exc:  # a check the file's oddity broke: one sentence, never a traceback
            if problems:
                raise ScenarioError(problems) from None
            log.exception("a %s scenario's cross-field check failed", system)
            raise refuse(f"the scenario could not be checked ({type(exc).__name__}); check its "
                         "ids and references against docs/scenarios.md.") from None
        moved = [(aside.original(loc), message) for loc, message in found]
        problems += located(document, [(loc, m) for loc, m in moved
                                       if aside.empty or not aside.touches(loc, m)])
    if problems:
        raise ScenarioError(problems[:MAX_PROBLEMS])
    assert scenario is not None
    data = dict(document.data)
    data["key"] = key
    return Checked(system=system, key=key, text=document.text, data=data, scenario=scenario,
                   sha256=sha256(document.text))


# -- the registry of scenarios set up from files -----------------------------------------------

_REGISTERED: dict[tuple[str, str], dict[str, Any]] = {}
_KEYS: dict[tuple[str, str], str] = {}
_CACHES: list[Callable[[], None]] = []
_LOCK = threading.Lock()


def register(checked: Checked) -> str:
    """Make a checked scenario loadable by its key in this process; returns the key."""
    with _LOCK:
        _REGISTERED[(checked.system, checked.key)] = checked.data
        _KEYS[(checked.system, checked.sha256)] = checked.key
    return checked.key


def key_of_text(system: str, text: str) -> str | None:
    """The key a scenario text is registered under in this process, or None."""
    return _KEYS.get((system, sha256(text)))


def unregister(system: str, key: str) -> None:
    """Forget a registered scenario (one refused on its trial set-up)."""
    with _LOCK:
        _REGISTERED.pop((system, key), None)
        for text_key in [k for k, v in _KEYS.items() if k[0] == system and v == key]:
            del _KEYS[text_key]


def registered(system: str, key: str) -> dict[str, Any] | None:
    """The data of a scenario from a file registered under ``key``, or None."""
    return _REGISTERED.get((system, key))


def builtin_reader(package: str, pattern: str = "{key}.json") -> Callable[[str], str]:
    """The reader of a system's shipped scenario texts in ``<package>/data/`` (a
    FileNotFoundError for a key that is not a plain name or has no file)."""

    def builtin_text(key: str) -> str:
        """The text of the shipped scenario ``key``."""
        if not key.isidentifier():
            raise FileNotFoundError(key)
        return resources.files(package).joinpath("data", pattern.format(key=key)).read_text("utf-8")

    return builtin_text


def cached_loader(system: str, model: type[M], builtin: Callable[[str], str]) -> Callable[[str], M]:
    """A system's ``load_scenario``: a scenario file registered under the key, else the
    built-in text, validated once (cached: a file's key carries the hash of its text)."""

    @lru_cache(maxsize=None)
    def load_scenario(key: str) -> M:
        """The scenario called ``key`` (FileNotFoundError if there is none)."""
        custom = registered(system, key)
        if custom is not None:
            return model.model_validate(custom)
        return model.model_validate_json(builtin(key))

    _CACHES.append(load_scenario.cache_clear)
    return load_scenario


def forget_all() -> None:
    """Forget every registered file and cached scenario, as a fresh process would start
    (tests of a game whose scenario left the library, of a replay from the export alone)."""
    with _LOCK:
        _REGISTERED.clear()
        _KEYS.clear()
    for clear in _CACHES:
        clear()


def is_file_key(key: str) -> bool:
    """Whether ``key`` names a scenario from a file (``name~hash``) rather than a built-in."""
    return "~" in key
