"""Orders declared once: how each is resolved, when it may be given, and which are legal now.

An order is declared once, on the rule function of the chapter module that holds its rule
(``rules/rr/combat.py`` for 9.0 fire), and the system lists its chapter modules::

    # rules/duel/play.py
    def roll_offers(state: DuelState, side: str) -> list[Roll]:
        return [Roll()]

    @order(Roll, phases="play", offers=roll_offers)
    def roll(ctx: Ctx[DuelState], action: Roll) -> None:
        value = ctx.dice.die(6, f"{ctx.side} roll")
        ctx.say("roll", f"🎲 {value} (D1)", "D1")

    # rules/duel/system.py
    class Duel(GameSystem[DuelState]):
        order_modules = (play,)

A resolver is ``(ctx, action) -> None`` and an offers function ``(state, side) -> orders``:
neither sees the system object, so a chapter module needs nothing but its state model and the
kit.  The base class (:class:`rules.core.contract.GameSystem`) then derives everything else from
these declarations: the dispatch of ``apply`` (with the checks every system used to write by
hand: the state's type, the side, whose turn it is, the game being over, the phase), the legal
orders of ``legal_actions``, the autocomplete of ``choices`` (values drawn from the legal
orders, so a suggestion always leads to an order the rules accept), and the "orders now" lines
of errors and ``/game help``.

``offers`` is where a system states which orders are legal: it yields complete orders, built
with the same checks (``*_problem`` functions) that ``resolve`` raises on, so the two cannot
drift; the conformance kit (``tests/conformance``) sends every offer and every autocomplete
path and fails on any refusal.  An order whose values are not finite (a point on a table)
offers a representative sample; ``resolve`` still accepts any legal value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from rules.core.actions import Action
from rules.core.dice import Dice
from rules.core.secrets import Seal, Unseal
from rules.core.steps import Event

StateT = TypeVar("StateT", bound=BaseModel)


@dataclass
class Ctx(Generic[StateT]):
    """What one order's resolution works on: a private copy of the state and the dice.

    Handlers change ``state`` freely (the caller's state is never touched), append events
    with :meth:`say`, and set ``snapshot`` (an impulse, battle round or turn ended) or
    ``reveals`` (new information other than dice came out: a card drawn) as the rules say.
    A secret choice is sealed with :meth:`seal` and revealed with :meth:`unseal` (issue 28,
    :mod:`rules.core.secrets`).
    """

    state: StateT
    side: str
    dice: Dice
    events: list[Event] = field(default_factory=list)
    snapshot: bool = False
    reveals: bool = False
    seals: list[Seal] = field(default_factory=list)
    unseals: list[Unseal] = field(default_factory=list)

    def say(self, kind: str, text: str, rule: str | None = None, **data: Any) -> Event:
        """Record one event (the line a player reads, its rule and structured data)."""
        event = Event(kind=kind, text=text, rule=rule, data=data)
        self.events.append(event)
        return event

    def seal(self, key: str, side: str, what: str, items: list[str], pad_to: int = 0) -> None:
        """Seal a secret choice of ``side`` (see :class:`rules.core.secrets.Seal`): the bot
        commits ``items`` publicly and keeps them from every public output until revealed."""
        self.seals.append(Seal(key=key, side=side, what=what, items=list(items), pad_to=pad_to))

    def unseal(self, key: str, index: int, why: str) -> None:
        """Reveal item ``index`` of the seal ``key`` (``why``: public words with the rule).
        New information came out, so the step :attr:`reveals` (undo stops there)."""
        self.unseals.append(Unseal(key=key, index=index, why=why))
        self.reveals = True

    def extend(self, events: Iterable[Event]) -> None:
        """Add events produced by a rules function that returns its own list."""
        self.events.extend(events)


#: ``resolve(ctx, order)``: apply one order to ``ctx.state``; raise RuleError if refused.  A
#: system whose ``resolve_order`` hands its rules a context of its own (Raiders' mission
#: context, a subclass of :class:`Ctx`) declares its resolvers on that type.
Resolver = Callable[[Any, Any], None]
CtxT = TypeVar("CtxT", bound=Ctx[Any])
ActionT = TypeVar("ActionT", bound=Action)
#: ``offers(state, side)``: the complete orders of this kind that are legal now.
Offers = Callable[[Any, str], Iterable[Action]]


@dataclass(frozen=True)
class OrderRule:
    """One order of a system: its model, the phases it belongs to, its resolver and offers.

    ``phases`` names the phases (see :meth:`GameSystem.phase_of`) in which the order is given;
    ``None`` means every phase.  Anytime and read-only orders are declared on the
    :class:`Action` model itself (``anytime = True``, ``read_only = True``).
    """

    action: type[Action]
    resolve: Resolver
    offers: Offers | None = None
    phases: frozenset[str] | None = None

    def open_in(self, phase: str) -> bool:
        """Whether the order may be given in ``phase``."""
        return self.phases is None or phase in self.phases

    def run(self, ctx: Ctx[Any], action: Action) -> None:
        """Resolve ``action`` on ``ctx`` (see :meth:`GameSystem.resolve_order`, which a
        system overrides to wrap every order of its own)."""
        self.resolve(ctx, action)

    def offered(self, state: Any, side: str) -> Iterable[Action]:
        """The offers as the rules yield them: lazily, when the offers function is a
        generator (a caller that needs only the first few stops early); none when the order
        declares no offers."""
        return () if self.offers is None else self.offers(state, side)


def order(
    action: type[ActionT],
    *,
    phases: Iterable[str] | str | None = None,
    offers: Callable[[Any, str], Iterable[Action]] | None = None,
) -> Callable[[Callable[[CtxT, ActionT], None]], OrderRule]:
    """Declare the decorated module-level function as the resolver of ``action`` (see the
    module docstring): ``phases`` the phases it is given in (None: every phase), ``offers`` a
    function ``(state, side) -> Iterable[Action]`` of its legal orders now."""
    wanted = frozenset([phases] if isinstance(phases, str) else phases) if phases is not None else None

    def wrap(resolve: Callable[[CtxT, ActionT], None]) -> OrderRule:
        return OrderRule(action=action, resolve=resolve, offers=offers, phases=wanted)

    return wrap


#: Discord shows at most this many autocomplete suggestions.
MAX_SUGGESTIONS = 25
#: When no value matches what is typed, lists up to this long are searched in their labels
#: ("gunner" finds ``G1``); longer ones (a map's hexes) never are: a label can cost a path
#: search, and a keystroke must not label a whole map (issue 25: p99 <= 50 ms).
LABEL_SEARCH_LIMIT = 40


def matching(values: Sequence[str], typed: str, label: Callable[[str], str] | None = None,
             limit: int = MAX_SUGGESTIONS) -> list[str]:
    """The values that match what is typed, best first, at most ``limit``: filtered BEFORE
    the cut, so every value is reachable by typing it, in full or by a prefix (issue 25).

    The order: the value typed exactly, then values starting with it (shorter first, so
    ``12`` comes before ``120``), then values containing it; when none does (short lists
    only, see :data:`LABEL_SEARCH_LIMIT`), the values whose ``label`` contains it.  Case is ignored;
    nothing typed keeps the values' own order.
    """
    text = typed.strip().casefold()
    if not text:
        return list(values[:limit])
    exact: list[str] = []
    starts: list[str] = []
    inside: list[str] = []
    rest: list[str] = []
    for value in values:
        folded = value.casefold()
        if folded == text:
            exact.append(value)
        elif folded.startswith(text):
            starts.append(value)
        elif text in folded:
            inside.append(value)
        else:
            rest.append(value)
    starts.sort(key=len)  # stable: equal lengths keep the values' order
    found = exact + starts + inside
    if not found and label is not None and len(values) <= LABEL_SEARCH_LIMIT:
        found = [v for v in rest if text in label(v).casefold()]
    return found[:limit]


def collect_rules(modules: Iterable[ModuleType]) -> dict[type[Action], OrderRule]:
    """The :class:`OrderRule` values declared at the top level of ``modules``, by order model.

    A model declared twice (two modules, or a module that imports another's rule under a new
    name) is a mistake the kit refuses, rather than silently keeping the last.
    """
    found: dict[type[Action], OrderRule] = {}
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, OrderRule):
                continue
            known = found.get(value.action)
            if known is not None and known is not value:
                raise TypeError(f"{value.action.__name__} is declared twice (the second in "
                                f"{module.__name__}): declare each order once")
            found[value.action] = value
    return found


__all__ = ["LABEL_SEARCH_LIMIT", "MAX_SUGGESTIONS", "Ctx", "OrderRule", "Offers", "Resolver",
           "StateT", "collect_rules", "matching", "order"]
