"""An order as a model (:class:`Action`), its options as front ends read them
(:class:`OptionSpec`), a system's game options (:class:`GameOptions`), and the one parser that
turns raw options into a model with a player-readable sentence for every problem.

The model's ``name`` is the subcommand (``/rr move``), its docstring the description, its
fields the options: the Discord command tree, the console parser, ``/game help`` and the
validation all read these, so an order is written down once.
"""

from __future__ import annotations

import enum
import functools
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.core.errors import RuleError

#: What a private option's value reads as in public text.
SEALED = "🔒"

#: The end of a sentence in a docstring: a full stop after a word or a rule number's
#: bracket, then a space or the end ("Col. Nikolas" is on a first line that ends its own).
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)])\.(?=\s|$)")


#: Longest text a player may put into one option; longer input is refused before parsing.
MAX_OPTION_LENGTH = 100


#: Longest free text (a moderator's reason): room for a sentence, on Discord and the console.
MAX_TEXT_LENGTH = 200


class Action(BaseModel):
    """Base of every order.  Subclasses set ``name`` (the subcommand) and ``rule``.

    Field conventions, read by every front end:

    * ``str`` fields are ids (units, areas, spaces, points) and get autocomplete from
      :meth:`GameSystem.choices`;
    * ``int`` and ``bool`` fields are typed options; ``enum.Enum`` fields become fixed choices;
    * a field with a default is optional;
    * ``Field(description=...)`` is the option's help text (Discord allows 100 characters).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    name: ClassVar[str] = ""
    rule: ClassVar[str] = ""
    #: A read-only order (e.g. ``/raiders campaign``): the service shows the events of the
    #: returned Step but stores no step and keeps the state as it was.
    read_only: ClassVar[bool] = False
    #: An order a seated side may give when it is not waited on (a standing choice such as
    #: "never retreat"); every other order from a side that is not waited on is refused by
    #: the service, naming who must act now.
    anytime: ClassVar[bool] = False
    #: Options whose values are secret when given (a sealed choice, e.g. Maschinen Krieger's
    #: air assignment, 10.1.1): never echoed in public text (:meth:`summary`, the log); the
    #: record keeps them, and an export shows them once the system says the secret is out
    #: (:meth:`GameSystem.secret_open`).  The seam the hidden-information work builds on.
    private: ClassVar[tuple[str, ...]] = ()
    #: The whole order is private (issue 28): it is given privately (an ephemeral reply on
    #: Discord, ``secret /…`` on the console), its options never appear in public text; the
    #: public line is its seal's ("Strahl laid its minefields (sealed: 3f0b…)") or "Strahl
    #: gave a sealed order" when it seals nothing.  Numbered public answers never offer it.
    sealed: ClassVar[bool] = False
    #: A subcommand group (issue 28): ``/mak air commit`` is ``group = "air"``,
    #: ``name = "commit"``.  Discord nests it as a group of the system's command; the console
    #: and ``/game help`` take the two words.  Empty: a subcommand of the command itself.
    group: ClassVar[str] = ""

    @classmethod
    def path(cls) -> str:
        """The order's words after the system's command: ``move``, or ``air commit`` in a
        group.  Unique in a system (names may repeat across groups)."""
        return f"{cls.group} {cls.name}" if cls.group else cls.name

    @classmethod
    def description(cls) -> str:
        """What the order does, in at most 100 characters (Discord's limit for a command's
        description): the docstring's first line when it ends its sentence, else its first
        sentence, shortened at a word with "…" (a first line cut mid-sentence read "… one
        target together; the defensive" in /game help)."""
        lines = (cls.__doc__ or cls.name).strip().splitlines()
        if lines[0].rstrip().endswith("."):
            return lines[0].strip()[:100]
        text = " ".join(line.strip() for line in lines)
        end = _SENTENCE_END.search(text)
        text = text[:end.end()].rstrip() if end else text
        if len(text) <= 100:
            return text
        return text[:99].rsplit(" ", 1)[0].rstrip(",;:") + "…"

    @classmethod
    def help_text(cls) -> str:
        """The whole docstring, for ``/game help order``."""
        return " ".join(line.strip() for line in (cls.__doc__ or "").strip().splitlines())

    @classmethod
    def options(cls) -> list["OptionSpec"]:
        """The options of this order, in field order."""
        return [OptionSpec.from_field(n, f) for n, f in cls.model_fields.items()]

    def summary(self) -> str:
        """The order as a player would type it, e.g. ``move unit:VDV-1 to:12``; a
        :attr:`private` option shows as ``mission:🔒``.  A :attr:`sealed` order's options
        are all private: the bot never puts this text in public."""
        parts = [self.path()]
        for key, value in self.model_dump(exclude_defaults=True).items():
            parts.append(f"{key}:{SEALED if key in self.private else option_text(value)}")
        return " ".join(parts)


def option_text(value: Any) -> str:
    """An option's value as a player types it: an enum's value, a bool as ``true``/``false``."""
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: ``file``: an attached file (a scenario, issue 27); only ``/game`` and ``/mod`` take one.
OptionKind = Literal["id", "int", "bool", "enum", "text", "user", "file"]


class OptionSpec(BaseModel):
    """One option of an order, as front ends need it."""

    name: str
    kind: OptionKind
    required: bool
    description: str
    choices: list[str] = Field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None

    @classmethod
    def from_field(cls, name: str, field: Any) -> "OptionSpec":
        """Describe a pydantic field of an :class:`Action`."""
        annotation = _strip_optional(field.annotation)
        choices: list[str] = []
        minimum = maximum = None
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            kind: OptionKind = "enum"
            choices = [str(member.value) for member in annotation]
        elif annotation is bool:
            kind = "bool"
        elif annotation is int:
            kind = "int"
            for meta in field.metadata:
                minimum = getattr(meta, "ge", minimum)
                maximum = getattr(meta, "le", maximum)
        elif typing.get_origin(annotation) is Literal:
            kind = "enum"
            choices = [str(v) for v in typing.get_args(annotation)]
        elif annotation is str:
            kind = "id"
        else:
            # float, list[int], a model...: no front end can take it; fail at start-up.
            raise TypeError(f"option {name!r}: type {annotation!r} is not one of str, int, bool, "
                            "an Enum or a Literal")
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if extra.get("free_text"):
            kind = "text"
        return cls(
            name=name,
            kind=kind,
            required=field.is_required(),
            description=(field.description or name)[:100],
            choices=choices,
            minimum=minimum,
            maximum=maximum,
        )


def _strip_optional(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


class GameOptions(BaseModel):
    """Base of a system's options for ``/game new options:`` (none by default).

    A system subclasses it with typed fields (``turns: int = Field(7, ge=1, le=30,
    description=...)``); unknown or malformed options are refused with the list of the known
    ones and their ranges by :meth:`GameSystem.parse_options`, on Discord and the console alike.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)


def split_options(text: str | None) -> dict[str, Any]:
    """``coordinated,turns=5`` into ``{"coordinated": True, "turns": "5"}`` (commas or spaces)."""
    options: dict[str, Any] = {}
    for part in (text or "").replace(";", ",").split(","):
        for word in part.split():
            key, sep, value = word.partition("=")
            options[key.strip().lower()] = value.strip() if sep else True
    return options


def option_specs(model: type[BaseModel]) -> list[OptionSpec]:
    """Describe the fields of an options or order model (TypeError on one it cannot express)."""
    return [OptionSpec.from_field(name, f) for name, f in model.model_fields.items()]


def describe_options(specs: Any) -> str:
    """``turns=1..30, scouting (yes/no)``: the options a player may give, with their ranges."""
    words = []
    for spec in specs:
        if spec.kind == "bool":
            words.append(f"{spec.name} (yes/no)")
        elif spec.kind == "int":
            low = "" if spec.minimum is None else spec.minimum
            high = "" if spec.maximum is None else spec.maximum
            words.append(f"{spec.name}={low}..{high}" if (low, high) != ("", "") else f"{spec.name}=<number>")
        elif spec.kind == "enum":
            words.append(f"{spec.name}={'|'.join(spec.choices)}")
        else:
            words.append(f"{spec.name}=<text>")
    return ", ".join(words) or "none"


@functools.cache
def _specs_of(model: type[BaseModel]) -> types.MappingProxyType[str, OptionSpec]:
    """A model's option specs by name, described once per model (a model's fields never
    change; issue 23: every order described its model's fields again)."""
    return types.MappingProxyType({spec.name: spec for spec in option_specs(model)})


ModelT = typing.TypeVar("ModelT", bound=BaseModel)


def parse_model(model: type[ModelT], name: str, options: dict[str, Any]) -> ModelT:
    """Validate ``options`` into ``model``; every problem one RuleError sentence."""
    specs = _specs_of(model)
    for key, value in options.items():
        if key not in specs:
            allowed = ", ".join(specs) or "no options"
            raise RuleError(f"'{name}' has no option '{clip(key)}'; it takes: {allowed}.")
        limit = MAX_TEXT_LENGTH if specs[key].kind == "text" else MAX_OPTION_LENGTH
        if isinstance(value, str) and len(value) > limit:
            raise RuleError(
                f"The value of '{key}' is {len(value)} characters long; "
                f"at most {limit} are accepted."
            )
    try:
        return model.model_validate(options)
    except ValidationError as exc:
        raise RuleError(_explain(name, specs, exc)) from None


def clip(text: str, limit: int = 40) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _explain(order: str, specs: Mapping[str, OptionSpec], exc: ValidationError) -> str:
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    spec = specs.get(field)
    if error["type"] == "missing":
        return f"'{order}' needs the option '{field}' ({spec.description if spec else field})."
    if spec is None:
        return f"'{order}' was given something it does not take: {error['msg']}."
    given = clip(error.get("input", ""))
    if spec.kind == "int":
        bounds = ""
        if spec.minimum is not None or spec.maximum is not None:
            bounds = f" from {spec.minimum if spec.minimum is not None else '…'}"
            bounds += f" to {spec.maximum if spec.maximum is not None else '…'}"
        return f"'{field}' must be a whole number{bounds}, not '{given}'."
    if spec.kind == "enum":
        return f"'{field}' must be one of {', '.join(spec.choices)}, not '{given}'."
    if spec.kind == "bool":
        return f"'{field}' must be yes or no (true/false), not '{given}'."
    return f"'{field}' is not valid: {error['msg']}."
