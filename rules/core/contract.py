"""The rules contract every game system implements (see docs/adding-a-system.md).

A system is one :class:`GameSystem`, generic over its state model, exposed as ``SYSTEM`` by
its package and found by :mod:`rules.core.registry`.  Its orders are :class:`Action` models:
the model's ``name`` is the subcommand (``/rr move``), its docstring the description, its
fields the options.  The Discord command tree, the console parser, ``/game help`` and the
validation are all generated from these models, so an order is written down once.

Each order is declared once with :func:`rules.core.orders.order`, on the rule function that
resolves it in its chapter module, with the phases it belongs to and the legal orders of its
kind now; the system lists those modules (``order_modules``).  The value models live below
this module, in :mod:`rules.core.actions` (orders, options) and :mod:`rules.core.steps`
(steps, events, turns, outcomes), and are re-exported here.  ``apply``, ``legal_actions``
and ``choices`` (autocomplete) are derived from those declarations by the base class.

``apply`` is pure: it takes a state and returns a :class:`Step` with a *new* state; it never
mutates its input, and it raises :class:`RuleError` with a player-readable sentence when the
order is not allowed.  Every random draw goes through the :class:`Dice` passed in.  Game
options are a :class:`GameOptions` model parsed once for every front end.
"""

from __future__ import annotations

import enum
import typing
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Iterable
from random import Random
from types import ModuleType
from typing import Any, ClassVar, Generic

from pydantic import BaseModel

from rules.core import dumps, playable, scenariofile, secrets
from rules.core.dice import Dice, SeededDice
from rules.core.errors import RuleError
from rules.core.actions import (
    MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, SEALED, Action, GameOptions, OptionKind, OptionSpec,
    describe_options, option_specs, option_text, parse_model, split_options,
)
from rules.core.actions import clip
from rules.core.orders import Ctx, OrderRule, StateT, collect_rules, matching
from rules.core.hints import PlayoutHints, SearchHints
from rules.core.scenariofile import ScenarioFormat
from rules.core.steps import Choice, Event, Outcome, Step, Turn


if typing.TYPE_CHECKING:
    from rules.core.views import Seen



























#: Label of the one informational autocomplete entry shown when a side is not waited on.
NOT_YOUR_TURN = "(not your turn)"
#: Offers kept for autocomplete (see :meth:`GameSystem._values_now`): a few orders of a few
#: channels' current states.
OFFER_CACHE_SIZE = 16


class GameSystem(ABC, Generic[StateT]):
    """One refereed game system.  Subclass, fill the class attributes, declare its orders.

    A system states its orders once, with :func:`rules.core.orders.order` (resolver, phases,
    legal offers); :meth:`apply`, :meth:`legal_actions` and :meth:`choices` are derived from
    those declarations here.  What is left to write is the rules: ``setup``, ``phase_of``,
    ``waiting_on``, ``turn_part``, ``status``, ``view`` and ``result``.  The package that holds
    the system exposes it as ``SYSTEM`` in its ``__init__`` and is found by
    :mod:`rules.core.registry` without being named anywhere else.
    """

    key: ClassVar[str]
    title: ClassVar[str]
    #: Seat names, e.g. ``("nato", "soviet")``.  Solitaire systems have one.
    sides: ClassVar[tuple[str, ...]]
    #: Seat names as players read them (``{"nato": "NATO"}``); the key, capitalised, otherwise.
    side_names: ClassVar[dict[str, str]] = {}
    #: Scenario keys; the first is the default of ``/game new``.
    scenarios: ClassVar[tuple[str, ...]]
    actions: ClassVar[tuple[type[Action], ...]]
    state_model: ClassVar[type[BaseModel]]
    #: The options of ``/game new options:`` (see :class:`GameOptions`).
    options_model: ClassVar[type[GameOptions]] = GameOptions
    #: The system's scenario file format (issue 27): model, built-ins, cross-field checks.
    #: None: scenarios of this system cannot come from a file.
    scenario_format: ClassVar[ScenarioFormat | None] = None
    #: How the conformance kit's random legal player plays this system (optional).
    playout_hints: ClassVar[PlayoutHints] = PlayoutHints()
    #: How the computer player spends its budget on this system (optional, issue 43).
    search_hints: ClassVar[SearchHints] = SearchHints()
    #: The chapter modules whose top-level ``@order`` functions are this system's orders
    #: (:mod:`rules.core.orders`); ``system.py`` lists them and declares no order itself.
    order_modules: ClassVar[tuple[ModuleType, ...]] = ()
    #: Filled by ``__init_subclass__`` from the ``@order`` declarations, by order model.
    order_rules: ClassVar[dict[type[Action], OrderRule]] = {}
    #: What each order group is for (issue 28), shown as the Discord subcommand group's
    #: description: ``{"air": "Air duty: commit and strike (10.1)"}``; a group not listed
    #: reads "<Group> orders".
    group_descriptions: ClassVar[dict[str, str]] = {}
    #: The system keeps secrets (issue 28): sealed choices, a side's own view
    #: (:meth:`view_for`).  Its export before the end carries no states and no secret items;
    #: the non-interference test (``tests/conformance/test_secrets.py``) runs on it.
    private_info: ClassVar[bool] = False
    #: The rules version (issue 42): a number the system bumps whenever a ruling changes how a
    #: recorded order resolves, with a line naming the rule in its package's ``CHANGELOG.md``
    #: (``rr 4: 7.3.3 retreat never closer to an enemy``).  Every step records it, so a replay
    #: tells a rules change from a forged record (``bot/rerun.py``).
    rules_version: ClassVar[int] = 1
    #: The order a side that does not act by its deadline is taken to give, by phase
    #: (:meth:`phase_of`): the rules' pass, where they have one (issue 19).  A phase not
    #: listed has none: the bot then makes no order for a silent side.
    idle_orders: ClassVar[dict[str, Action]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # A subclass keeps its base's orders; the modules it lists itself add to them or
        # replace one of them (a variant that rules one order otherwise).
        own = collect_rules(cls.__dict__.get("order_modules", ()))
        declared = [name for name, value in vars(cls).items() if isinstance(value, OrderRule)]
        if declared:
            raise TypeError(f"{cls.__name__} declares {declared} on its class: declare each order "
                            "on its rule function in a chapter module listed by order_modules")
        cls.order_rules = {**cls.order_rules, **own}

    # -- what each system writes ------------------------------------------------------------

    @abstractmethod
    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Create the opening state of ``scenario`` with ``options``, an instance of
        :attr:`options_model`.  Raise RuleError for an unknown scenario."""

    @abstractmethod
    def waiting_on(self, state: StateT) -> list[str]:
        """The sides that must act now (empty once the game is over)."""

    @abstractmethod
    def turn_part(self, state: StateT) -> str:
        """A short label of where the game stands, e.g. ``Turn 2/7 · Operations · NATO``."""

    @abstractmethod
    def status(self, state: StateT) -> list[str]:
        """Lines for ``/game status``: turn, phase, who acts, objectives, what they can do."""

    @abstractmethod
    def view(self, state: StateT) -> BaseModel:
        """The view model the renderer draws (one of :mod:`rules.core.views`): always the
        PUBLIC view (spectators, the posted picture, the ping), never a side's secret."""

    def view_for(self, state: StateT, side: str) -> BaseModel:
        """What ``side`` sees (its player's ``/game map``, issue 28): the public view by
        default; a system with secrets (:attr:`private_info`) adds that side's own secrets
        on top (its unrevealed minefields), never another side's."""
        return self.view(state)

    def answers_in_public(self, state: StateT) -> bool:
        """Whether a side's orders may be listed, with their labels, under a public message
        (issue 30's answers to tap).  A system whose labels would show a side's own secret to
        everyone says False for such a state (Maschinen Krieger with concealment: a label
        names the unit under a marker, 15.4.1); its players then build orders privately
        (``/game act``)."""
        return True

    def secret_words(self, key: str, item: str) -> str:
        """A revealed sealed item (issue 28) as a player reads it in the public line: by
        default its fields in order (``hex 0409, attack 7``); a system words its own
        (``a minefield in 5:0409, attack 7``).  ``key`` is the seal's, ``item`` its canonical
        JSON text as recorded (the record keeps that; only the words change)."""
        return secrets.plain_words(item)

    def phase_of(self, state: StateT) -> str:
        """The phase an order is checked against (``@order(..., phases=...)``)."""
        return "play"

    def phase_title(self, state: StateT) -> str:
        """The phase as a player reads it, for "orders now are" sentences."""
        return self.phase_of(state).replace("_", " ").capitalize()

    def result(self, state: StateT) -> str | None:
        """How the game ended, or None while it goes on."""
        return None

    def turn(self, state: StateT) -> Turn:
        """The turn a state is in (see :class:`Turn`).  By default read from the view's
        header, which builds a whole view: a system overrides it with the few fields it
        needs, and ``tests/conformance`` holds the two to agree."""
        header = getattr(self.view(state), "header", None)
        return Turn(number=getattr(header, "turn", None), word=getattr(header, "turn_word", "Turn"),
                    waiting_on=self.waiting_on(state))

    def fired(self, state: StateT) -> frozenset[str]:
        """The units the public view of ``state`` shows firing (:func:`rules.core.views.
        fired_in`): what "what changed since your last order" reads of every step between
        that order and a picture (issue 23).  The default builds the view; a system whose
        view copies its marks from the state reads them there, so the steps that posted no
        picture cost no view (``tests/conformance/test_fired.py`` holds the two equal)."""
        from rules.core.views import fired_in  # noqa: PLC0415 - the views import nothing of this

        return frozenset(fired_in(self.view(state)))

    def seen(self, state: StateT) -> "Seen":
        """What "what changed" keeps of the public view of ``state`` (:func:`rules.core.views.
        seen`): read for a side's last order that drew no picture.  The default builds the
        view; a system may read the few facts from the state instead
        (``tests/conformance/test_fired.py`` holds the two equal)."""
        from rules.core.views import seen  # noqa: PLC0415 - the views import nothing of this

        return seen(self.view(state))

    def outcome(self, state: StateT) -> Outcome | None:
        """How the game ended (None while it goes on): by default the result's sentence with
        no winner named; a system that knows its winner says so."""
        text = self.result(state)
        return None if text is None else Outcome(termination=text)

    def outcome_now(self, state: StateT) -> Outcome | None:
        """Who the rules say has won if the game ends at ``state``, before its last turn
        (``/game end`` of a game ended early, issue 40): by default the game's
        :meth:`outcome` (None mid-game: the rules name nobody); a system whose victory
        conditions can be read at any point (``If it ended now: …``) overrides it."""
        return self.outcome(state)

    # -- what the computer player asks (issue 43, rules/core/computer.py) -----------------

    def observe(self, state: StateT, side: str) -> StateT:
        """What ``side`` may know of ``state``, as a state: the other sides' secrets (sealed
        choices, units under their markers, unfound minefields) replaced by one canonical
        blank, so that two states ``side`` cannot tell apart observe to the same value.  The
        computer is given this, never the state.  A system without secrets has nothing to
        hide: the state itself.  A system with secrets (:attr:`private_info`) must say."""
        if self.private_info:
            raise NotImplementedError(f"{self.key} keeps secrets: it must write observe and determinize")
        return state

    def determinize(self, observed: StateT, side: str, rng: Random) -> StateT:
        """One full state consistent with ``side``'s observation (:meth:`observe`), the
        other sides' secrets drawn from ``rng``: what the computer imagines each time it
        looks ahead.  The observation itself when there is nothing hidden."""
        return observed

    def evaluate(self, state: StateT, side: str) -> float:
        """How good ``state`` is for ``side``, 0 to 1: at the end 1 a win, 0 a loss, 0.5 a
        draw or no winner; before it, what the rules say now (:meth:`outcome_now`), nudged.
        A system may know better (its victory points)."""
        over = self.outcome(state)
        now = over if over is not None else self.outcome_now(state)
        if now is None or now.winner is None:
            return 0.5
        sure = 1.0 if over is not None else 0.7
        return sure if now.winner == side else 1.0 - sure

    def order_prior(self, state: StateT, side: str, action: Action) -> float:
        """How promising ``action`` looks before any search, 0 to 1 (the computer tries the
        likelier first): all alike by default; a pass is tried last (the rare orders of
        :attr:`playout_hints`)."""
        hints = self.playout_hints
        return 0.2 if {action.name, action.path()} & hints.rare else 0.5

    def free_order(self, state: StateT, side: str, action: Action) -> bool:
        """Whether ``action``, given by ``side`` in ``state``, leaves the game where it was
        (no card drawn, no Op, segment or turn spent): one of :attr:`search_hints`' ``free``
        orders by default.  Judged before the order, from the state and the order, so the
        computer can leave such orders out of its candidates without playing each one."""
        return bool({action.name, action.path()} & self.search_hints.free)

    def secret_open(self, state: StateT) -> bool:
        """Whether sealed choices (orders with :attr:`Action.private` options) made since
        this state's round began are still secret: an export of a running game hides the
        steps of that round until it is False again (their states hold the choices)."""
        return False

    def after_order(self, ctx: Ctx[StateT], action: Action) -> None:
        """Bookkeeping every accepted order ends with (control of areas, the end of a game)."""

    def idle_order(self, state: StateT, side: str) -> Action | None:
        """The "no action" order of ``side`` now, or None (issue 19: a deadline passed and the
        game is set to act for a silent side).  It is :attr:`idle_orders` of this phase, and
        only when ``side`` is waited on and the order is one of its legal orders now."""
        action = self.idle_orders.get(self.phase_of(state))
        if action is None or self.result(state) is not None or side not in self.waiting_on(state):
            return None
        return action if action in self.legal_actions(state, side) else None

    def label(self, state: StateT, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """The autocomplete label of ``value`` for ``field``: what a player needs to choose
        (range and roll needed, cost, where a move really stops).  The value by default."""
        return value

    # -- derived from the declarations --------------------------------------------------------

    def side_name(self, side: str) -> str:
        """``NATO`` for ``nato``."""
        return self.side_names.get(side, side.capitalize())

    def check_state(self, state: BaseModel) -> StateT:
        """The state as this system's type, or a RuleError (a game of another system)."""
        if not isinstance(state, self.state_model):
            raise RuleError(f"This is not a {self.title} game.")
        return state  # type: ignore[return-value]

    def copy_state(self, state: StateT) -> StateT:
        """A deep copy to resolve an order on (a JSON-mode round trip: ~4x deepcopy's speed),
        from the state's remembered JSON dump when its step row was written from one
        (:mod:`rules.core.dumps`, issue 23)."""
        return dumps.copy(state)

    def resolve_order(self, rule: OrderRule, ctx: Ctx[StateT], action: Action) -> None:
        """Resolve one order: its rule function on ``ctx``.  A system whose every order shares
        a wrapper (Raiders' mission context, mak's concealment guard) overrides this one
        method instead of wrapping each declaration."""
        rule.run(ctx, action)

    def offers_of(self, rule: OrderRule, state: StateT, side: str) -> Iterable[Action]:
        """The legal orders of ``rule`` now, lazily (see :meth:`OrderRule.offered`).  Every
        caller asks here, so a system may rewrite its offers in one place (mak names a
        side's hidden units by their markers)."""
        return rule.offered(state, side)

    def rule_of(self, action: type[Action] | Action) -> OrderRule:
        """The declared rule of an order model; a RuleError for another system's order."""
        kind = action if isinstance(action, type) else type(action)
        rule = self.order_rules.get(kind)
        if rule is None:
            raise RuleError(f"That is not a {self.title} order.")
        return rule

    def orders_open(self, state: StateT, side: str) -> list[OrderRule]:
        """The declared orders ``side`` may give now (anytime ones included), in model order."""
        if self.result(state) is not None:
            return []
        waited = side in self.waiting_on(state)
        phase = self.phase_of(state)
        out = []
        for action in self.actions:
            rule = self.order_rules.get(action)
            if rule is None or not rule.open_in(phase):
                continue
            if waited or action.anytime or action.read_only:
                out.append(rule)
        return out

    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        """Resolve ``action`` given by ``side`` on a copy of ``state``: pure; RuleError if refused.

        The checks every order shares come first: a state of this system, a real side, an
        order of this system, the game not over, the side waited on (unless the order is
        ``anytime`` or read-only) and the order open in this phase.
        """
        s = self.check_state(state)
        if side not in self.sides:
            names = ", ".join(self.sides)
            raise RuleError(f"'{clip(str(side), 20)}' is not a side; sides: {names}.")
        rule = self.rule_of(action)
        if action.read_only:
            ctx = Ctx(state=s, side=side, dice=dice)
            self.resolve_order(rule, ctx, action)
            return self.make_step(s, ctx.events)
        verdict = self.result(s)
        if verdict is not None:
            raise RuleError(f"The game is over: {verdict}")
        if not action.anytime and side not in self.waiting_on(s):
            raise RuleError(f"It is not your turn: waiting on {self.waiting_names(s)}.")
        if not rule.open_in(self.phase_of(s)):
            raise RuleError(self.not_now(s, side, action))
        ctx = Ctx(state=self.copy_state(s), side=side, dice=dice)
        self.resolve_order(rule, ctx, action)
        self.after_order(ctx, action)
        step = self.make_step(ctx.state, ctx.events, snapshot=ctx.snapshot, reveals=ctx.reveals)
        if ctx.seals or ctx.unseals:
            step = step.model_copy(update={"seals": list(ctx.seals), "unseals": list(ctx.unseals)})
        return step

    def setup(self, scenario: str, options: Any, dice: Dice) -> Step:
        """The opening step of ``scenario``; ``options`` is ``/game new`` text, a stored dict or
        an options model, checked by :meth:`parse_options` before :meth:`start` sees it."""
        if not self.has_scenario(scenario):
            raise RuleError(f"There is no {self.title} scenario '{scenario[:30]}'; "
                            f"scenarios: {', '.join(self.scenarios)}.")
        parsed = options if isinstance(options, self.options_model) else self.parse_options(options)
        return self.start(scenario, parsed, dice)

    def has_scenario(self, scenario: str) -> bool:
        """Whether ``scenario`` can be set up: a built-in, or a scenario file registered with
        :func:`rules.core.scenariofile.register`; a system with scenarios made at run time
        (tests' custom boards) widens it."""
        return scenario in self.scenarios or scenariofile.registered(self.key, scenario) is not None

    def in_setup(self, state: StateT) -> bool:
        """Whether the sides are still setting up, before the first turn (issue 46: the
        playability proof plays a scenario until this is False).  A system whose opening
        state is already its first turn keeps the default."""
        return False

    def scenario_from_file(self, raw: bytes | str, *, prove: bool = True) -> scenariofile.Checked:
        """A scenario file of this system read, validated, cross-checked, registered and set up
        once on trial (issue 27), or a ScenarioError whose message is one sentence and whose
        ``problems`` say where each fault is.  Nothing is registered for a refused file.

        ``prove`` (issue 46): the scenario is also shown playable (:mod:`rules.core.playable`):
        random set-ups reach the first turn, and the objectives can be reached.  A text
        already played (a stored game, an export) is read without it."""
        fmt = self.scenario_format
        if fmt is None:
            raise scenariofile.refuse(f"{self.title} scenarios cannot be read from a file yet.")
        checked = scenariofile.check(self.key, fmt, raw)
        scenariofile.register(checked)
        try:
            self.setup(checked.key, None, SeededDice(b"trial set-up"))
        except Exception as exc:  # a club's file reached a rule the checks missed: one sentence
            scenariofile.unregister(checked.system, checked.key)
            if not isinstance(exc, RuleError):
                scenariofile.log.error("a checked %s scenario failed its trial set-up", self.key,
                                       exc_info=exc)
            reason = str(exc).splitlines()[0].rstrip(".") if str(exc) else type(exc).__name__
            raise scenariofile.refuse(f"the scenario cannot be set up: {reason[:200]}.") from None
        if prove:
            self._prove_playable(fmt, checked)
        return checked

    def _prove_playable(self, fmt: ScenarioFormat, checked: scenariofile.Checked) -> None:
        """Refuse (and forget) a registered file that cannot be played: its objectives out of
        reach (the system's ``reachable`` hook), or a set-up that never reaches turn one."""
        found = fmt.reachable(checked.scenario) if fmt.reachable is not None else []
        problems = scenariofile.located(scenariofile.read(checked.text), found)
        if not problems:
            verdict = playable.prove(self, checked.key)
            if verdict is not None:
                problems = [scenariofile.Problem(path="", message=f"the scenario cannot be "
                                                 f"played: {verdict.reason}")]
        if problems:
            scenariofile.unregister(checked.system, checked.key)
            raise scenariofile.ScenarioError(problems)

    def waiting_names(self, state: StateT) -> str:
        """Who must act now, as players read it (``NATO``)."""
        return ", ".join(self.side_name(w) for w in self.waiting_on(state)) or "nobody"

    def not_now(self, state: StateT, side: str, action: Action) -> str:
        """The sentence for an order given in the wrong phase: which orders are open now."""
        # Orders with a legal offer now; the open ones when none has (a system without offers).
        names = sorted({a.path() for a in self.legal_actions(state, side)}) or \
            sorted({r.action.path() for r in self.orders_open(state, side)})
        return (f"'{action.path()}' is not an order of this phase ({self.phase_title(state)}); "
                f"orders now: {', '.join(names) or 'none'}.")

    def legal_actions(self, state: BaseModel, side: str, *, read_only: bool = True) -> list[Action]:
        """Every order ``side`` may give now: the offers of the declared orders open now.

        Used by ``/game status``, random-legal playouts, fuzzing and autocomplete.  It is
        non-empty whenever ``side`` is in :meth:`waiting_on` (the conformance kit checks it).
        ``read_only=False`` leaves out orders that change nothing (``measure``, ``info``): a
        player that only acts (the playout driver) need not build their offers.
        """
        s = self.check_state(state)
        out: list[Action] = []
        for rule in self.orders_open(s, side):
            if read_only or not rule.action.read_only:
                out += self.offers_of(rule, s, side)
        return out

    def choices(
        self, state: BaseModel, side: str, action: str, field: str, partial: dict[str, Any]
    ) -> list[Choice]:
        """Autocomplete for ``field`` of ``action``: the values of that field among the legal
        orders that agree with what was typed in the other fields, matching what is typed in
        ``field`` itself (``partial[field]``, see :func:`rules.core.orders.matching`), labelled
        by :meth:`label`, at most 25.  When ``side`` is not waited on, one informational entry says so."""
        s = self.check_state(state)
        model = self.action_type(action)
        rule = self.order_rules.get(model)
        if rule is None or field not in model.model_fields:
            return []
        open_now = rule in self.orders_open(s, side)
        if not open_now:
            return [Choice(value=NOT_YOUR_TURN, label=self._closed_label(s, side), info=True)]
        typed = str(partial.get(field) or "").strip().lower()
        others = {k: v for k, v in partial.items() if k != field}
        values, labels, needs = self._values_now(rule, s, side, field, others)

        def label(value: str) -> str:
            if value not in labels:
                labels[value] = clip(self._label_with_needs(s, side, action, field, value, others,
                                                            needs.get(value, {})), 100)
            return labels[value]

        # Filter by what is typed first, then cut at 25 (issue 25): every legal value is
        # reachable by typing it.  Only the values shown are labelled (labels can cost a
        # path search each), and kept while the state lasts.
        found = matching(values, typed, label)
        out = [Choice(value=v, label=label(v)) for v in found]
        if not out and values and typed:
            out = [Choice(value=clip(typed, 100), label=clip(f"Nothing legal matches '{typed}'", 100),
                          info=True)]
        return out

    def _label_with_needs(self, state: StateT, side: str, action: str, field: str, value: str,
                          others: dict[str, Any], needs: dict[str, str]) -> str:
        """The system's label of ``value``, and, where the value is legal only with optional
        options the player has not typed (a dog-leg move's ``via``, a water move's ``how``),
        those options: the label is asked with them, and names them (issue 40: commando
        suggested ``to:E:6`` and then refused it as cut short, for it is legal only ``via``
        a turning point)."""
        text = self.label(state, side, action, field, value, {**others, **needs})
        said = " ".join(f"{k}:{v}" for k, v in needs.items())
        return f"{text} · with {said}" if needs and said not in text else text

    def _values_now(self, rule: OrderRule, state: StateT, side: str, field: str,
                    others: dict[str, Any]) -> tuple[list[str], dict[str, str], dict[str, dict[str, str]]]:
        """The values of ``field`` among ``rule``'s offers agreeing with the ``others``
        options typed, and a dict for their labels, kept for the last few states asked about.

        A player types an option a key at a time: every keystroke asks again about the same
        state and the same other options, and a move's offers (every reachable hex of a map)
        and labels (a path search each) are the costly part.  An entry holds its state, so it
        is found by identity and never for another state (states are not changed in place:
        :meth:`apply` works on a copy).
        """
        cache: OrderedDict[tuple[int, str, type[Action]], Any] = self.__dict__.setdefault(
            "_offer_cache", OrderedDict())
        key = (id(state), side, rule.action)
        hit: tuple[StateT, list[Action], dict[tuple[Any, ...], Any]] | None
        hit = cache.get(key)
        if hit is None or hit[0] is not state:
            hit = (state, list(self.offers_of(rule, state, side)), {})
            cache[key] = hit
            while len(cache) > OFFER_CACHE_SIZE:
                cache.popitem(last=False)
        cache.move_to_end(key)
        _, offers, known = hit
        typed = (field, *sorted((k, _as_text(v).lower()) for k, v in others.items()
                                if v not in (None, "")))
        if typed not in known:
            values, needs = _field_values(offers, field, others)
            known[typed] = (values, {}, needs)
        found: tuple[list[str], dict[str, str], dict[str, dict[str, str]]] = known[typed]
        return found

    def _closed_label(self, state: StateT, side: str) -> str:
        if self.result(state) is not None:
            return "The game is over"
        if side not in self.waiting_on(state):
            return f"Not your turn: waiting on {self.waiting_names(state)}"
        return f"Not an order of this phase ({self.phase_title(state)})"

    # -- shared helpers --------------------------------------------------------------------

    def load_state(self, data: str | bytes) -> StateT:
        """Rebuild a state from its JSON."""
        return self.state_model.model_validate_json(data)  # type: ignore[return-value]

    def make_step(
        self,
        state: BaseModel,
        events: list[Event] | None = None,
        *,
        snapshot: bool = False,
        reveals: bool = False,
    ) -> Step:
        """Build a :class:`Step`, deriving ``waiting_on``, ``turn_part`` and the result."""
        s = self.check_state(state)
        result = self.result(s)
        return Step(
            state=s,
            events=list(events or []),
            snapshot=snapshot or result is not None,
            waiting_on=[] if result is not None else self.waiting_on(s),
            turn_part=self.turn_part(s),
            reveals=reveals,
            game_over=result is not None,
            result=result,
        )

    def action_type(self, name: str) -> type[Action]:
        """The order model at ``name``: its :meth:`Action.path` (``move``, ``air commit``),
        or a leaf name no other order shares; a RuleError listing the orders there are."""
        wanted = " ".join(str(name).split())
        for action in self.actions:
            if action.path() == wanted:
                return action
        leaves = [a for a in self.actions if a.name == wanted]
        if len(leaves) == 1:
            return leaves[0]
        known = ", ".join(a.path() for a in self.actions)
        if leaves:
            raise RuleError(f"'{clip(name)}' is an order of several groups in {self.title}: "
                            f"{', '.join(a.path() for a in leaves)}.")
        raise RuleError(f"There is no order '{clip(name)}' in {self.title}; orders: {known}.")

    def parse(self, name: str, options: dict[str, Any]) -> Action:
        """Validate raw options (strings from the console, typed values from Discord).

        Every problem becomes one RuleError sentence naming the option and what it accepts.
        """
        model = self.action_type(name)
        return parse_model(model, name, options)

    def parse_options(self, raw: str | dict[str, Any] | None) -> GameOptions:
        """``/game new options:`` text (``turns=5,scouting``) or a stored dict, validated.

        A bare word is a yes/no option set to yes; an unknown or malformed option is refused
        with the list of the known ones and their ranges.
        """
        values = split_options(raw) if not isinstance(raw, dict) else dict(raw)
        specs = {s.name: s for s in option_specs(self.options_model)}
        known = describe_options(specs.values())
        for key, value in values.items():
            spec = specs.get(key)
            if spec is None:
                raise RuleError(f"{self.title} has no option '{clip(key)}'; options: {known}.")
            if value is True and spec.kind != "bool":
                raise RuleError(f"The option '{key}' needs a value: {describe_options([spec])}.")
        try:
            return parse_model(self.options_model, "options", values)
        except RuleError as exc:
            raise RuleError(f"{exc} {self.title} options: {known}.") from None

    def check_declarations(self) -> None:
        """Raise TypeError at start-up for an order or option the front ends cannot express,
        or an order model without a declared rule."""
        # A system written before the kit dispatches in its own ``apply``: no rules to check.
        declared = type(self).apply is GameSystem.apply
        for action in self.actions:
            action.options()
            if declared and action not in self.order_rules:
                raise TypeError(f"{self.key}: order {action.__name__} has no @order rule")
        option_specs(self.options_model)


def _field_values(orders: list[Action], field: str,
                  partial: dict[str, Any]) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The distinct values of ``field`` among ``orders`` that agree with ``partial``, and for
    the values offered only with optional options left untyped, those options that every
    offer of the value sets alike (:func:`_untyped_extras`): what makes them legal."""
    seen: list[str] = []
    needs: dict[str, dict[str, str]] = {}
    for candidate in orders:
        if field not in type(candidate).model_fields:
            continue
        if any(_disagrees(candidate, key, typed) for key, typed in partial.items() if key != field):
            continue
        value = _as_text(getattr(candidate, field))
        if not value:
            continue
        extras = _untyped_extras(candidate, field, partial)
        if value not in seen:
            seen.append(value)
            if extras:
                needs[value] = extras
        elif value in needs:
            # Only what every offer of the value sets alike is a need (a Falke's ``mission``
            # may be any of four: the player chooses it, the label need not name one).
            common = {k: v for k, v in needs[value].items() if extras.get(k) == v}
            if common:
                needs[value] = common
            else:
                del needs[value]
    return seen, needs


def _untyped_extras(candidate: Action, field: str, partial: dict[str, Any]) -> dict[str, str]:
    """The optional options of ``candidate`` set away from their default and not typed."""
    out: dict[str, str] = {}
    for key, info in type(candidate).model_fields.items():
        if key == field or info.is_required() or partial.get(key) not in (None, ""):
            continue
        value = getattr(candidate, key)
        if value != info.default and _as_text(value):
            out[key] = _as_text(value)
    return out


def _disagrees(candidate: Action, key: str, typed: Any) -> bool:
    if key not in type(candidate).model_fields or typed in (None, ""):
        return False
    return _as_text(getattr(candidate, key)).lower() != _as_text(typed).lower()


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


#: The contract's names, re-exported from the modules that hold them (:mod:`rules.core.actions`,
#: :mod:`rules.core.steps`), so a system imports its kit from one place.
__all__ = ["MAX_OPTION_LENGTH", "MAX_TEXT_LENGTH", "NOT_YOUR_TURN", "SEALED", "Action", "Choice", "Event",
           "GameOptions", "GameSystem", "OptionKind", "OptionSpec", "Outcome", "Step", "Turn",
           "describe_options", "option_specs", "option_text", "parse_model", "split_options"]
