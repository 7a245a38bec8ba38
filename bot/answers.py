"""Answers to tap under a reply, and a press turned back into the order it stands for (issue 30).

What a side may answer comes from the rules (:mod:`rules.core.answers`); this module puts it
on a :class:`~bot.models.Reply` as buttons or a select menu, and reads a press back.

Every button and menu carries a :class:`Token` as its ``custom_id``: the game, the step it
was offered at, the side it was offered to and the choices made so far, as indices into what
the rules offer at that step.  Nothing is stored for it: a press is checked against the game
as it is now (same game, head still at that step, the presser holds that side), the offer is
derived again from the head's state, and the order is then sent through the same service
path as the slash command.  So a press survives a restart, a press on a question the game has
moved past changes nothing, and a double tap is applied once (the second finds the head moved).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from bot.models import Button, MenuOption, Reply, SelectMenu
from rules.core.answers import (
    BUTTON_LABEL,
    MAX_BUTTONS,
    OPTION_LABEL,
    Answer,
    Menu,
    OrderBuilder,
    acting_orders,
    quick_answers,
)
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

#: Every custom id of ours starts so; a press with another prefix is not ours.
PREFIX = "rf1"
#: Entries of one page of a select menu: 25 allowed, two kept for "earlier" and "more".
PAGE = 23
#: Discord's custom_id limit.
CUSTOM_ID_LIMIT = 100
_TOKEN = re.compile(
    r"^rf1:(?P<kind>[abc]):(?P<game>\d{1,12}):(?P<seq>\d{1,9}):(?P<side>[a-z0-9_-]{1,20})"
    r":(?P<path>(?:\d{1,4}(?:\.\d{1,4}){0,11})?):(?P<page>\d{1,4})$"
)
PREVIOUS, NEXT = "prev", "next"


@dataclass(frozen=True)
class Token:
    """What a button or menu stands for.

    ``kind``: ``a`` an answer (``path`` holds its index; a select menu of answers has an
    empty path and the chosen value completes it), ``b`` a question of an order being built
    (``path``: the choices so far, ``page``: which page of the menu), ``c`` send the order
    built along ``path``.
    """

    kind: str
    game_id: int
    seq: int
    side: str
    path: tuple[int, ...] = ()
    page: int = 0

    def encode(self) -> str:
        """The ``custom_id`` (at most 100 characters, checked)."""
        text = (f"{PREFIX}:{self.kind}:{self.game_id}:{self.seq}:{self.side}:"
                f"{'.'.join(map(str, self.path))}:{self.page}")
        if len(text) > CUSTOM_ID_LIMIT:
            raise ValueError(f"custom_id too long ({len(text)}): {text}")
        return text

    @classmethod
    def decode(cls, text: str) -> "Token":
        """Read a ``custom_id``; a RuleError for anything that is not one of ours."""
        match = _TOKEN.match(text or "")
        if match is None:
            raise RuleError("That button is not one of the referee's, or it is too old to read.")
        path = tuple(int(p) for p in match["path"].split(".")) if match["path"] else ()
        return cls(match["kind"], int(match["game"]), int(match["seq"]), match["side"], path,
                   int(match["page"]))

    def with_choice(self, value: str) -> "Token":
        """The token after choosing ``value`` in its menu: the next page, the previous one,
        or one more index on the path."""
        if value == NEXT:
            return Token(self.kind, self.game_id, self.seq, self.side, self.path, self.page + 1)
        if value == PREVIOUS:
            return Token(self.kind, self.game_id, self.seq, self.side, self.path, max(0, self.page - 1))
        if not value.isdecimal() or len(value) > 4:
            raise RuleError("That choice is not one the menu offered.")
        return Token(self.kind, self.game_id, self.seq, self.side, self.path + (int(value),), 0)


class Offer(BaseModel):
    """The components and numbered lines added to a reply that asks ``side`` to act."""

    lines: list[str]
    buttons: list[Button]
    menu: SelectMenu | None = None


def _label(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def offer(system: GameSystem[Any], state: BaseModel, game_id: int, seq: int, side: str) -> Offer | None:
    """The answers to put under a reply that leaves ``side`` to act at step ``seq``.

    A few orders: one button each (up to :data:`MAX_BUTTONS`), or a select menu (up to 25).
    More: one "Give an order" button opening the menus of ``/game act``.  The same choices
    are numbered in the text, for screen readers and for the console (``1`` picks one).
    """
    answers = public_answers(system, state, side)
    who = system.side_name(side)
    if not answers:
        if side not in system.waiting_on(state) or system.result(state) is not None:
            return None
        hint = only_sealed(system, state, side)
        if hint:
            # Only sealed orders now (issue 28): nothing to tap; they are typed privately.
            return Offer(lines=[f"{who}: {hint}"], buttons=[])
        token = Token("b", game_id, seq, side).encode()
        return Offer(lines=[f"{who}: /game act builds an order by choosing (or type it)."],
                     buttons=[Button(label=f"Give an order ({who})", token=token, style="primary")])
    lines = [f"{who} may answer (tap, or type the number):"]
    lines += [f"{i}. {a.label}" for i, a in enumerate(answers, 1)]
    if len(answers) <= MAX_BUTTONS:
        buttons = [Button(label=_label(f"{i}. {a.label}", BUTTON_LABEL),
                          token=Token("a", game_id, seq, side, (i - 1,)).encode(),
                          style="primary" if i == 1 else "secondary")
                   for i, a in enumerate(answers, 1)]
        return Offer(lines=lines, buttons=buttons)
    menu = SelectMenu(
        token=Token("a", game_id, seq, side).encode(),
        placeholder=_label(f"{who}: choose one of {len(answers)} orders", 150),
        options=[MenuOption(label=_label(f"{i}. {a.label}", OPTION_LABEL), value=str(i - 1))
                 for i, a in enumerate(answers, 1)],
    )
    return Offer(lines=lines, buttons=[], menu=menu)


def offer_to(system: GameSystem[Any], state: BaseModel, game_id: int, seq: int,
             sides: list[str]) -> Offer | None:
    """The offer for the seated sides waited on: one side's answers (:func:`offer`); when
    several sides act at once (sealed commitments, simultaneous plots), a "Give an order"
    button each, so no side's answers crowd out another's."""
    if len(sides) <= 1:
        return offer(system, state, game_id, seq, sides[0]) if sides else None
    if system.result(state) is not None:
        return None
    # A side whose only orders now are sealed gets the sentence on typing them, not a
    # button that could only answer it (issue 40: both mak sides at set-up, 19.1, 15.4.1).
    hints = {s: only_sealed(system, state, s) for s in sides}
    pressing = [s for s in sides if not hints[s]]
    names = [system.side_name(s) for s in pressing]
    lines = [f"{system.side_name(s)}: {hints[s]}" for s in sides if hints[s]]
    if pressing:
        lines.insert(0, f"{' and '.join(names)}: /game act builds an order by choosing (or type it).")
    return Offer(
        lines=lines,
        buttons=[Button(label=f"Give an order ({n})", token=Token("b", game_id, seq, s).encode(),
                        style="primary") for s, n in zip(pressing, names)],
    )


def only_sealed(system: GameSystem[Any], state: BaseModel, side: str) -> str | None:
    """The sentence on typing sealed orders (:func:`sealed_hint`) when every order ``side``
    may give now is sealed (issue 28), so nothing can be tapped or chosen; else None."""
    hint = sealed_hint(system, state, side)
    return hint if hint and not acting_orders(system, state, side, limit=0) else None


#: A reply with its numbered answers stays inside one Discord message (2,000 characters).
TEXT_LIMIT = 1900


def with_offer(reply: Reply, found: Offer | None) -> Reply:
    """``reply`` with the offer's lines appended and its components attached.  When the
    numbered list would take the message past one Discord message, its tail is left to the
    menu (which lists every entry, and which the console numbers too)."""
    if found is None:
        return reply
    lines = list(found.lines)
    room = TEXT_LIMIT - len(reply.text)
    if sum(len(line) + 1 for line in lines) > room and len(lines) > 1:
        kept = [lines[0]]
        for line in lines[1:]:
            if sum(len(k) + 1 for k in kept) + len(line) + 40 > room:
                break
            kept.append(line)
        left = len(lines) - len(kept)
        lines = kept + [f"…and {left} more in the menu."]
    return reply.model_copy(update={
        "text": "\n".join([reply.text, *lines]),
        "buttons": found.buttons, "menu": found.menu,
    })


def public_answers(system: GameSystem[Any], state: BaseModel, side: str) -> list[Answer]:
    """The answers listed under a public message: none where their labels would show the
    side's own secrets (issue 28, ``GameSystem.answers_in_public``)."""
    return quick_answers(system, state, side) if system.answers_in_public(state) else []


def chosen_answer(system: GameSystem[Any], state: BaseModel, token: Token, *, standing: bool) -> Answer:
    """The order a press stands for, derived again from the state the question was asked at
    (``standing``: as :func:`builder_reply` offered it)."""
    if token.kind == "a":
        answers = public_answers(system, state, token.side)
        if len(token.path) != 1 or not 0 <= token.path[0] < len(answers):
            raise RuleError("That answer is no longer among the orders offered; look at the latest message.")
        return answers[token.path[0]]
    builder = OrderBuilder(system, state, token.side, list(token.path), standing=standing)
    try:
        answer = builder.answer()
    except IndexError:
        answer = None
    if answer is None:
        raise RuleError("That order is not complete; choose in the menus again (/game act).")
    return answer


def sealed_hint(system: GameSystem[Any], state: BaseModel, side: str, own: bool = False) -> str | None:
    """One sentence on the sealed orders ``side`` may give now (issue 28), or None: they are
    never offered to tap or choose (the answer would be public), so they are named with how
    to type them privately.  Said in public, by the phase alone; ``own`` (a reply only the
    side's player reads): only those its offers hold (no `conceal hide` without markers)."""
    sealed: list[str] = []
    for rule in system.orders_open(state, side):
        if not rule.action.sealed or rule.action.path() in sealed:
            continue
        if own and rule.offers is not None and next(iter(system.offers_of(rule, state, side)), None) is None:
            continue
        sealed.append(rule.action.path())
    if not sealed:
        return None
    typed = ", ".join(f"/{system.key} {path} …" for path in sealed)
    return (f"🔒 Sealed orders are typed, not chosen: {typed} (on Discord the command answers you alone; "
            f"on the console write secret before it).")


def builder_reply(system: GameSystem[Any], state: BaseModel, token: Token, system_key: str,
                  *, standing: bool) -> Reply:
    """The next question of an order being built (``/game act``, kind ``b``), or the order
    as it will be sent with a Send button once complete.  Ephemeral: it is the player's
    own workspace until sent.  ``standing`` false: the side may give no more standing
    orders now (:meth:`bot.games.LiveGame.may_stand`), so none is offered, rather than one
    built choice by choice and then refused."""
    builder = OrderBuilder(system, state, token.side, list(token.path), standing=standing)
    try:
        menu = builder.menu()
        answer = builder.answer() if menu is None else None
    except IndexError:
        raise RuleError("That choice is not among the legal ones any more; start again with /game act.") from None
    who = system.side_name(token.side)
    back = Button(label="Back", token=Token("b", token.game_id, token.seq, token.side, token.path[:-1]).encode()) \
        if token.path else None
    so_far = builder.chosen_text()
    if menu is None:
        assert answer is not None
        send = Button(label=_label(f"Send: {answer.label}", BUTTON_LABEL),
                      token=Token("c", token.game_id, token.seq, token.side, token.path).encode(),
                      style="success")
        text = f"{who} order, ready: /{system_key} {answer.command_text()}\n1. Send it"
        if back is not None:
            text += "\n0. Back"
        return Reply(text=text, ephemeral=True, buttons=[send] + ([back] if back else []))
    hint = None if token.path else sealed_hint(system, state, token.side, own=True)
    if hint and not menu.values:  # only sealed orders now (the air duty chart): no empty menu
        return Reply(text=f"{who}: {hint}", ephemeral=True)
    reply = _menu_reply(who, so_far, menu, token, back)
    return reply.model_copy(update={"text": f"{reply.text}\n{hint}"}) if hint else reply


def _menu_reply(who: str, so_far: str, menu: Menu, token: Token, back: Button | None) -> Reply:
    question = menu.question
    pages = max(1, -(-len(menu.values) // PAGE))
    page = min(token.page, pages - 1)
    first = page * PAGE
    shown = list(range(first, min(first + PAGE, len(menu.values))))
    options = [MenuOption(label=_label(menu.labels[i], OPTION_LABEL),
                          value=str(i)) for i in shown]
    if page > 0:
        options.insert(0, MenuOption(label=f"◀ Earlier ({first} more)", value=PREVIOUS))
    if page < pages - 1:
        options.append(MenuOption(label=f"More ▶ ({len(menu.values) - first - len(shown)} more)", value=NEXT))
    header = f"{who} order" + (f": {so_far}" if so_far else "") + f". {question}"
    if pages > 1:
        header += f" (page {page + 1} of {pages})"
    lines = [header] + [f"{n}. {o.label}" for n, o in enumerate(options, 1)]
    if back is not None:
        lines.append("0. Back")
    select = SelectMenu(
        token=Token("b", token.game_id, token.seq, token.side, token.path, page).encode(),
        placeholder=_label(question, 150), options=options,
    )
    return Reply(text="\n".join(lines), ephemeral=True, menu=select, buttons=[back] if back else [])


def numbered(reply: Reply) -> dict[int, tuple[str, str | None]]:
    """The choices of ``reply`` by the number its text shows them with (the console's ``1``):
    a menu's entries, else its buttons; ``0`` is a Back button.  Each is the token to press
    and the menu value chosen (None for a button)."""
    out: dict[int, tuple[str, str | None]] = {}
    if reply.menu is not None:
        out = {n: (reply.menu.token, o.value) for n, o in enumerate(reply.menu.options, 1)}
    forward = [b for b in reply.buttons if b.label != "Back"]
    if reply.menu is None:
        out = {n: (b.token, None) for n, b in enumerate(forward, 1)}
    back = next((b for b in reply.buttons if b.label == "Back"), None)
    if back is not None:
        out[0] = (back.token, None)
    return out


__all__ = ["numbered", "offer_to", "Offer", "Token", "PREFIX", "builder_reply", "chosen_answer", "offer", "with_offer"]
