"""The rules contract every game system implements (see DESIGN.md, "The rules contract").

A system is one :class:`GameSystem` registered by key.  Its orders are :class:`Action`
models: the model's ``name`` is the subcommand (``/rr move``), its docstring the description,
its fields the options.  The Discord command tree, the console parser, ``/game help`` and the
validation are all generated from these models, so an order is written down once.

``apply`` is pure: it takes a state and returns a :class:`Step` with a *new* state; it never
mutates its input, and it raises :class:`RuleError` with a player-readable sentence when the
order is not allowed.  Every random draw goes through the :class:`Dice` passed in.
"""

from __future__ import annotations

import enum
import types
import typing
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rules.core.dice import Dice
from rules.core.errors import RuleError

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

    @classmethod
    def description(cls) -> str:
        """First line of the docstring: what the order does (at most 100 characters)."""
        doc = (cls.__doc__ or cls.name).strip().splitlines()[0]
        return doc[:100]

    @classmethod
    def help_text(cls) -> str:
        """The whole docstring, for ``/game help order``."""
        return " ".join(line.strip() for line in (cls.__doc__ or "").strip().splitlines())

    @classmethod
    def options(cls) -> list["OptionSpec"]:
        """The options of this order, in field order."""
        return [OptionSpec.from_field(n, f) for n, f in cls.model_fields.items()]

    def summary(self) -> str:
        """The order as a player would type it, e.g. ``move unit:VDV-1 to:12``."""
        parts = [self.name]
        for key, value in self.model_dump(exclude_defaults=True).items():
            if isinstance(value, enum.Enum):
                value = value.value
            parts.append(f"{key}:{value}")
        return " ".join(parts)


OptionKind = Literal["id", "int", "bool", "enum", "text", "user"]


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
        else:
            kind = "id"
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


class Choice(BaseModel):
    """One autocomplete suggestion: the value sent and the label shown (<= 100 chars)."""

    value: str
    label: str


class Event(BaseModel):
    """Something that happened in a step, with the line a player reads.

    ``text`` is complete on its own, dice and rule number included, e.g.
    ``🎲 4+3 +2 RCM +1 support = 10 vs DF 6 +1 TM = 7 → +3: two hits (7.3.3)``.
    ``data`` is structured detail for renderers and tests (ids, figures).
    """

    kind: str
    text: str
    rule: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)


class Step(BaseModel):
    """What one accepted order produced.

    * ``state``: the new state (a fresh object; the old one is untouched);
    * ``events``: what happened, in order;
    * ``snapshot``: an impulse, battle round or turn ended, so the service renders the map;
    * ``waiting_on``: the sides that must act next, including a decision owed by the *other*
      side (a defender choosing whether to retreat);
    * ``turn_part``: a label of the current turn-part; the service mentions the player who
      must act only when ``(waiting_on, turn_part)`` changes;
    * ``reveals``: new information other than dice came out (a card drawn, a hidden marker
      turned); together with dice this forbids ``/game undo``;
    * ``game_over``: the game has ended; ``result`` says how.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: BaseModel
    events: list[Event] = Field(default_factory=list)
    snapshot: bool = False
    waiting_on: list[str] = Field(default_factory=list)
    turn_part: str = ""
    reveals: bool = False
    game_over: bool = False
    result: str | None = None


class GameSystem(ABC):
    """One refereed game system.  Subclass, fill the class attributes, register an instance."""

    key: ClassVar[str]
    title: ClassVar[str]
    #: Seat names, e.g. ``("nato", "soviet")``.  Solitaire systems have one.
    sides: ClassVar[tuple[str, ...]]
    #: Scenario keys; the first is the default of ``/game new``.
    scenarios: ClassVar[tuple[str, ...]]
    actions: ClassVar[tuple[type[Action], ...]]
    state_model: ClassVar[type[BaseModel]]

    # -- the pure core ---------------------------------------------------------------------

    @abstractmethod
    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> Step:
        """Create the opening state of ``scenario``.  Raise RuleError for an unknown one."""

    @abstractmethod
    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        """Resolve ``action`` given by ``side``.  Pure; raises RuleError when not allowed."""

    @abstractmethod
    def choices(
        self, state: BaseModel, side: str, action: str, field: str, partial: dict[str, Any]
    ) -> list[Choice]:
        """Autocomplete for ``field`` of order ``action``, given the options typed so far."""

    @abstractmethod
    def legal_actions(self, state: BaseModel, side: str) -> list[Action]:
        """Orders ``side`` may give now (a representative, complete-enough list).

        Used by random-legal drivers, fuzzing and the "what can I do" line of status.  It
        must be non-empty whenever ``side`` is in :meth:`waiting_on`.
        """

    @abstractmethod
    def waiting_on(self, state: BaseModel) -> list[str]:
        """The sides that must act now (empty once the game is over)."""

    @abstractmethod
    def turn_part(self, state: BaseModel) -> str:
        """A short label of where the game stands, e.g. ``Turn 2/7 · Operations · NATO``."""

    @abstractmethod
    def status(self, state: BaseModel) -> list[str]:
        """Lines for ``/game status``: turn, phase, who acts, objectives, what they can do."""

    @abstractmethod
    def view(self, state: BaseModel) -> BaseModel:
        """The view model the renderer draws (one of :mod:`rules.core.views`)."""

    # -- shared helpers --------------------------------------------------------------------

    def result(self, state: BaseModel) -> str | None:
        """How the game ended, or None while it goes on."""
        return None

    def load_state(self, data: str | bytes) -> BaseModel:
        """Rebuild a state from its JSON."""
        return self.state_model.model_validate_json(data)

    def make_step(
        self,
        state: BaseModel,
        events: list[Event] | None = None,
        *,
        snapshot: bool = False,
        reveals: bool = False,
    ) -> Step:
        """Build a :class:`Step`, deriving ``waiting_on``, ``turn_part`` and the result."""
        result = self.result(state)
        return Step(
            state=state,
            events=list(events or []),
            snapshot=snapshot or result is not None,
            waiting_on=[] if result is not None else self.waiting_on(state),
            turn_part=self.turn_part(state),
            reveals=reveals,
            game_over=result is not None,
            result=result,
        )

    def action_type(self, name: str) -> type[Action]:
        """The order model called ``name``, or a RuleError listing the orders there are."""
        for action in self.actions:
            if action.name == name:
                return action
        known = ", ".join(a.name for a in self.actions)
        raise RuleError(f"There is no order '{_clip(name)}' in {self.title}; orders: {known}.")

    def parse(self, name: str, options: dict[str, Any]) -> Action:
        """Validate raw options (strings from the console, typed values from Discord).

        Every problem becomes one RuleError sentence naming the option and what it accepts.
        """
        model = self.action_type(name)
        specs = {spec.name: spec for spec in model.options()}
        for key, value in options.items():
            if key not in specs:
                allowed = ", ".join(specs) or "no options"
                raise RuleError(f"'{name}' has no option '{_clip(key)}'; it takes: {allowed}.")
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


def _clip(text: str, limit: int = 40) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _explain(order: str, specs: dict[str, OptionSpec], exc: ValidationError) -> str:
    error = exc.errors()[0]
    field = str(error["loc"][0]) if error["loc"] else ""
    spec = specs.get(field)
    if error["type"] == "missing":
        return f"'{order}' needs the option '{field}' ({spec.description if spec else field})."
    if spec is None:
        return f"'{order}' was given something it does not take: {error['msg']}."
    given = _clip(error.get("input", ""))
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
