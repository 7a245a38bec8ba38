"""The one parse path every command's options go through: ``/game``, ``/mod`` and orders.

The command catalogue (``bot/commands.py``) describes each command's options; here they are
checked against it: unknown names, missing required values (a value that shows nothing, such
as spaces or a zero-width space, counts as missing), over-long text, whole numbers out of
range.  ``/game`` and ``/mod`` values are converted here; an order's values then go to its
system's own model (``GameSystem.parse``), which converts and checks them further.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

from bot.commandspec import CommandSpec
from bot.models import Upload
from bot.replies import one_line as shown
from rules.core.contract import MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, OptionSpec
from rules.core.errors import RuleError

#: A whole number option without its own bounds accepts this range (SQLite's integers are
#: 64-bit; a larger number raised OverflowError in the store, issue 14).
INT_LIMIT = 10**9


def blank(value: Any) -> bool:
    """No value, or text with no visible character (spaces, zero-width spaces, controls)."""
    if value is None:
        return True
    if not isinstance(value, str):
        return False
    return not any(unicodedata.category(c)[0] in "LNPS" for c in value)


#: How one option's value is parsed: the value typed in, the converted value out, or a
#: RuleError sentence (``bot/declare.py``: each declared option's ``parse``).
Parser = Callable[[Any], Any]


def check_options(group: str, spec: CommandSpec, options: dict[str, Any], *,
                  parse: Mapping[str, Parser] | None) -> dict[str, Any]:
    """The options of one invocation, checked against its spec, and each parsed by its
    declared option object where ``parse`` gives them (``/game``, ``/mod``, pacing); an
    order's values stay raw for its system's model.  A problem is one RuleError sentence."""
    known = {o.name: o for o in spec.options}
    for key in options:
        if key not in known:
            allowed = ", ".join(known) or "no options"
            raise RuleError(
                f"/{group} {spec.path} has no option '{shown(str(key))[:40]}'; it takes: {allowed}.")
    out: dict[str, Any] = {}
    for option in spec.options:
        value = options.get(option.name)
        if blank(value):
            if option.required:
                raise RuleError(f"/{group} {spec.path} needs {option.name}: ({option.description}).")
            continue
        out[option.name] = parse[option.name](value) if parse is not None else _checked(option, value)
    return out


def _checked(option: OptionSpec, value: Any) -> Any:
    """An order's value, still raw for the system's model; its length is checked, and a
    whole number is checked to be one, within its bounds (or :data:`INT_LIMIT`)."""
    if option.kind == "int":
        _whole_number(option, value)
    elif isinstance(value, str):
        _length(option, value.strip())
    return value


def _length(option: OptionSpec, text: str) -> None:
    limit = MAX_TEXT_LENGTH if option.kind == "text" else MAX_OPTION_LENGTH
    if len(text) > limit:
        raise RuleError(f"{option.name} is {len(text)} characters long; at most {limit} are accepted.")


def convert_value(option: OptionSpec, value: Any) -> Any:
    """A ``/game`` or ``/mod`` value of the option's kind."""
    if option.kind == "user":
        return value
    if option.kind == "file":
        if not isinstance(value, Upload):
            raise RuleError(f"{option.name} takes an attached file, not text.")
        return value
    if option.kind == "int":
        return _whole_number(option, value)
    text = shown(str(value))
    _length(option, text)
    if option.kind == "enum" and text not in option.choices:
        raise RuleError(f"{option.name} must be one of {', '.join(option.choices)}, not '{text[:40]}'.")
    return text


def _whole_number(option: OptionSpec, value: Any) -> int:
    if isinstance(value, bool):
        raise RuleError(f"{option.name} must be a whole number, not '{value}'.")
    text = str(value).strip()
    try:
        # ASCII digits only: int() takes '١٢' and '1_000' too, which nobody types on purpose.
        if not isinstance(value, int) and not re.fullmatch(r"[+-]?[0-9]{1,100}", text):
            raise ValueError(text)
        number = int(text)
    except ValueError:
        raise RuleError(f"{option.name} must be a whole number, not '{shown(str(value))[:40]}'.") from None
    low = option.minimum if option.minimum is not None else -INT_LIMIT
    high = option.maximum if option.maximum is not None else INT_LIMIT
    if number < low:
        raise RuleError(f"{option.name} must be at least {low}.")
    if number > high:
        raise RuleError(f"{option.name} must be at most {high}.")
    return number
