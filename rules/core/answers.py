"""Orders as answers to tap: the game's questions and the usual orders, chosen, not typed.

Every system already declares, for every side and state, the complete list of its legal
orders (:meth:`GameSystem.legal_actions`) and how to label each value
(:meth:`GameSystem.label`).  Everything a front end needs to let a player *choose* an order is
derived from those two, here, once:

* :func:`quick_answers`: when a side has few orders that change the game (a decision such
  as a retreat, or a phase with a handful of orders), each one as an :class:`Answer` with a
  label in the system's words — the buttons under a ping (issue 30).
* :class:`OrderBuilder`: the usual orders with many values (move a unit, fire at a target),
  built by choosing one field at a time among the legal orders only — the select menus of
  ``/game act``.  A choice is kept as an *index* into what was offered, so the whole path
  fits in a Discord ``custom_id`` and is re-derived from the state when a choice arrives
  (nothing to store, nothing lost by a restart).

Both are pure functions of (system, state, side): the same state always offers the same
list in the same order, which is what lets a press that arrives later be checked and
resolved against the head of the log.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel

from rules.core.contract import Action, GameSystem, option_text

#: At most this many answers are offered under a message (Discord: 25 options in a select
#: menu); a side with more legal orders builds one with :class:`OrderBuilder` instead.
MAX_ANSWERS = 25
#: Up to this many answers are shown as buttons (one row); more become a select menu.
MAX_BUTTONS = 5
#: Discord's limits for a button's label and a select option's label.
BUTTON_LABEL = 80
OPTION_LABEL = 100


class Answer(BaseModel):
    """One legal order offered to a side, ready to send as that side's player."""

    #: The order's path (the subcommand, after its group if any), e.g. ``retreat``.
    order: str
    #: Its options as a player would type them (``{"unit": "T-12", "to": "14"}``).
    options: dict[str, str]
    #: What the player reads: the order in the system's words, with what it costs or needs.
    label: str

    def command_text(self) -> str:
        """The order as typed after the system's command: ``retreat unit:T-12 to:14``."""
        return " ".join([self.order] + [f"{k}:{v}" for k, v in self.options.items()])


def _typed_options(action: Action) -> dict[str, str]:
    """The options of ``action`` that differ from their defaults, as typed text."""
    return {key: option_text(value) for key, value in action.model_dump(exclude_defaults=True).items()}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _words(text: str) -> str:
    return text.replace("_", " ").replace("-", " ").strip()


def order_title(name: str, description: str = "") -> str:
    """``Retreat`` for ``retreat``; ``Dig in`` for ``dig_in``; ``HQ`` for ``hq`` where the
    order's ``description`` spells it so (issue 40: "Hq: INF-DE2")."""
    shouted = set(re.findall(r"\b[A-Z]{2,}\b", description))
    words = [w.upper() if w.upper() in shouted else w for w in _words(name).split()]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def title_of(action: type[Action]) -> str:
    """The order's title as a player reads it (:func:`order_title` with its description)."""
    return order_title(action.path(), action.description())


#: Option names that say nothing as a noun ("Which at?"): asked as where or what instead.
_PLACES = {"to", "at", "where", "area", "hex"}
_VERBS = {"do", "what", "how", "way"}


def option_words(action: type[Action], key: str) -> str:
    """What an option is, in a few words (issue 40: "Which at?"): the head of its
    description (``the target hex``, up to its first comma, semicolon or bracket; of
    ``add your airstrike: +2`` the words before the colon, of ``down: the hex to land in``
    those after it), else its name in words."""
    found = action.model_fields.get(key)
    head = re.split(r"[,;(]| e\.g\.", found.description or "", maxsplit=1)[0].strip() if found else ""
    if ":" in head:
        before, after = (part.strip() for part in head.split(":", 1))
        # "air: Air Combat; ground: …" lists the values: it says nothing of the option
        head = before if len(before.split()) > 1 else "" if _is_value(found, before) else after
    if len(head.split()) > 1:
        return head[:1].lower() + head[1:] if head[1:2].islower() else head
    if key in _PLACES:
        return "where"
    return "what to do" if key in _VERBS else f"the {_words(key)}"


def _is_value(found: Any, word: str) -> bool:
    return word in repr(getattr(found, "annotation", ""))


def is_flag(action: type[Action], key: str) -> bool:
    """Whether the option is a yes/no."""
    found = action.model_fields.get(key)
    return found is not None and found.annotation is bool


def option_question(action: type[Action], key: str) -> str:
    """What a menu that asks for ``key`` says: ``Choose the target hex``; a yes/no option
    asks in its own words (``Add your airstrike?``), never "Which air?"."""
    words = option_words(action, key)
    if is_flag(action, key):
        return words[:1].upper() + words[1:] + "?"
    return f"Choose {words}"


def chosen_words(action: type[Action], key: str, value: str) -> str:
    """A chosen value in a label, when the system's label is just the value: a yes/no in
    words (``add your airstrike``, never "air true"), a word value alone (``fire and
    move``, not "kind fire-and-move"), a number or an id after what it is (``to 14``)."""
    if is_flag(action, key):
        return option_words(action, key) if value == "true" else f"no {_words(key)}"
    if re.fullmatch(r"[a-z][a-z_-]*", value):
        return _words(value)
    return f"{_words(key)} {value}"


def answer_label(system: GameSystem[Any], state: BaseModel, side: str, action: Action) -> str:
    """The order in the system's words: its title, then each chosen value as the system's
    autocomplete labels it (range and roll needed, cost, where a move really stops)."""
    typed = _typed_options(action)
    parts = []
    for key, value in typed.items():
        shown = system.label(state, side, action.path(), key, value, typed)
        # A label that is just the value reads better in words (``to 14``, issue 40).
        parts.append(chosen_words(type(action), key, value) if shown == value else shown)
    text = title_of(type(action))
    if parts:
        text += ": " + ", ".join(parts)
    return _clip(text, OPTION_LABEL)


def acting_orders(system: GameSystem[Any], state: BaseModel, side: str,
                  limit: int | None = None, standing: bool = True) -> list[Action]:
    """The orders ``side`` may give now that change the game, standing orders included
    unless ``standing`` is false, without repeats (two offers of one order with the same
    options are one answer).  Sealed orders (:attr:`Action.sealed`, issue 28) are never
    among them: an answer is pressed under a public message and its order and reply are
    public; a sealed order is typed privately.

    With ``limit``, stop once more than ``limit`` orders other than standing ones are found:
    a caller that only wants to know whether there are few need not build them all.
    """
    s = system.check_state(state)
    seen: set[str] = set()
    out: list[Action] = []
    pressing = 0
    for rule in system.orders_open(s, side):
        if rule.action.read_only or rule.action.sealed or (rule.action.anytime and not standing):
            continue
        for action in system.offers_of(rule, s, side):
            key = type(action).__name__ + action.model_dump_json()
            if key in seen:
                continue
            seen.add(key)
            out.append(action)
            pressing += not action.anytime
            if limit is not None and pressing > limit:
                return out
    return out


def quick_answers(system: GameSystem[Any], state: BaseModel, side: str,
                  limit: int = MAX_ANSWERS) -> list[Answer]:
    """The orders of ``side`` as answers to tap, when it is waited on and has at most
    ``limit`` of them (else none: the player builds an order with :class:`OrderBuilder`).

    Standing (``anytime``) orders are left out unless nothing else is offered: they are
    answers to no question, and would crowd the real ones off a phone's screen.
    """
    if system.result(state) is not None or side not in system.waiting_on(state):
        return []
    orders = acting_orders(system, state, side, limit)
    pressing = [a for a in orders if not a.anytime] or orders
    if not pressing or len(pressing) > limit:
        return []
    return [Answer(order=a.path(), options=_typed_options(a), label=answer_label(system, state, side, a))
            for a in pressing]


# -- building one order by choosing ------------------------------------------------------------


@dataclass(frozen=True)
class Menu:
    """One question of an order being built: which value of ``field``.

    ``values`` are the distinct legal values (as typed text), in the order offered;
    ``labels`` what the player reads for each.  ``field`` is ``""`` for the first question,
    which order to give.
    """

    field: str
    values: list[str]
    labels: list[str]
    #: What the menu asks, in words (``Which target hex?``; issue 40).
    question: str = "Which order?"


@dataclass(frozen=True)
class OrderBuilder:
    """An order built one choice at a time among the legal orders of ``side`` now.

    ``path`` holds the indices chosen so far: first the order (into :meth:`order_names`),
    then, field by field, the value (into that field's :class:`Menu`).  A field whose legal
    orders all share one value is not asked.  Derived wholly from the state (and
    ``standing``, which the caller derives from the same step), so a path can travel in a
    ``custom_id`` and be replayed after a restart.

    ``standing`` false leaves the standing (``anytime``) orders out: the caller will not
    accept another now (the bot's few in a row, ``bot/orders.py``), and a menu lists only
    what would be accepted.

    Frozen: the legal orders are derived once per builder (:attr:`_legal`) and every
    question of it reads them, so its fields must not change after construction.
    """

    system: GameSystem[Any]
    state: BaseModel
    side: str
    path: list[int] = field(default_factory=list)
    standing: bool = True

    @cached_property
    def _legal(self) -> list[Action]:
        # One derivation per builder: a press asks for the menu, the answer and the text
        # chosen so far, each of which walks the legal orders (mak's cost ~30 ms a time).
        return acting_orders(self.system, self.state, self.side, standing=self.standing)

    def _orders(self) -> list[Action]:
        return self._legal

    def order_names(self) -> list[str]:
        """The orders that change the game and are legal now, in the system's order."""
        names: list[str] = []
        for action in self._orders():
            if action.path() not in names:
                names.append(action.path())
        return names

    def _walk(self) -> tuple[list[Action], dict[str, str], Menu | None]:
        """Follow ``path``: the orders still possible, the options chosen, the next menu.

        Raises ``IndexError`` when the path does not fit the state (a stale or forged
        choice), which the caller answers with a sentence.
        """
        names = self.order_names()
        if not self.path:
            return [], {}, Menu("", names, [title_of(self.system.action_type(n)) for n in names])
        name = names[self.path[0]]
        orders = [a for a in self._orders() if a.path() == name]
        chosen: dict[str, str] = {}
        step = 1
        for key in type(orders[0]).model_fields:
            values = _distinct(orders, key)
            if len(values) <= 1:
                continue
            if step >= len(self.path):
                kind = type(orders[0])
                labels = [self._value_label(kind, key, v, chosen) for v in values]
                return orders, chosen, Menu(key, values, labels, option_question(kind, key))
            picked = values[self.path[step]]
            chosen[key] = picked
            orders = [a for a in orders if _text(getattr(a, key)) == picked]
            step += 1
        if step != len(self.path):
            raise IndexError("more choices than the order has questions")
        return orders, chosen, None

    def _value_label(self, kind: type[Action], key: str, value: str, chosen: dict[str, str]) -> str:
        if is_flag(kind, key):
            # The answer to its yes/no question (option_question), not a bare "false".
            return "Yes" if value == "true" else "No"
        if value == "":
            return f"no {option_words(kind, key)} (the order's default)"
        shown = self.system.label(self.state, self.side, kind.path(), key, value, chosen)
        return _clip(shown or value, OPTION_LABEL)

    def menu(self) -> Menu | None:
        """The next question, or None when the order is complete."""
        return self._walk()[2]

    def action(self) -> Action | None:
        """The order built, once every question is answered (the first of the legal orders
        that agree with every choice: they differ only in values never asked)."""
        orders, _, menu = self._walk()
        return orders[0] if menu is None and orders else None

    def chosen_text(self) -> str:
        """What has been chosen so far, as a player reads it (``Move · unit T-12``)."""
        if not self.path:
            return ""
        names = self.order_names()
        _, chosen, _ = self._walk()
        kind = self.system.action_type(names[self.path[0]])
        parts = [title_of(kind)] + [chosen_words(kind, k, v) for k, v in chosen.items()]
        return " · ".join(parts)

    def answer(self) -> Answer | None:
        """The complete order as an :class:`Answer`, or None while questions remain."""
        action = self.action()
        if action is None:
            return None
        return Answer(order=action.path(), options=_typed_options(action),
                      label=answer_label(self.system, self.state, self.side, action))


def _text(value: Any) -> str:
    if isinstance(value, enum.Enum):
        value = value.value
    return option_text(value) if value is not None else ""


def _distinct(orders: list[Action], key: str) -> list[str]:
    seen: list[str] = []
    for action in orders:
        value = _text(getattr(action, key))
        if value not in seen:
            seen.append(value)
    return seen


__all__ = ["Answer", "Menu", "OrderBuilder", "acting_orders", "answer_label", "chosen_words",
           "option_question", "option_words", "order_title", "title_of",
           "quick_answers", "MAX_ANSWERS", "MAX_BUTTONS", "BUTTON_LABEL", "OPTION_LABEL"]
