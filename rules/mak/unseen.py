"""What the other side reads of concealed units (15.4.1): every order passes through here.

``MaschinenKrieger.resolve_order`` and ``offers_of`` guard each order when concealment is in use:

* an order naming an enemy unit under a marker, by its id or its marker, is refused with one
  sentence that says nothing of what is there (the rules' own sentences would say where or
  what it is);
* each order ends with ``after_order``: markers of units gone from the map return; a unit
  named in one of this order's rolls, or a stack an enemy unit sees, is lifted
  (``concealment.py``); a public order naming a unit that stays hidden is refused (a unit
  carrying a marker: name the marker) or shows it; the public lines name hidden units by
  their markers, and their owner reads which unit it was;
* the orders offered to a side name its own hidden units by their markers (what it types).

``masked`` words hidden units in labels and on the picture's marks.
"""

from __future__ import annotations

import re

from rules.core.contract import Action, Event
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, OrderRule
from rules.mak.concealment import hidden, hidden_units, lift, markers_on, public_name, return_gone, sweep
from rules.mak.state import MakState
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def _ids_in(text: str, ids: list[str]) -> list[str]:
    return [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?!\w)", text)]


def named_hidden(state: MakState, text: str, before: list[str]) -> list[str]:
    """Units hidden before the order and still hidden whose own id ``text`` holds."""
    still = {u.id for u in hidden_units(state)}
    return _ids_in(text, [i for i in before if i in still])


def refuse_named(ctx: MakCtx, action: Action, before: list[str]) -> None:
    """A public order naming a unit that stays hidden would print it: a unit carrying a
    marker is refused (nothing is stored; its marker is the name to give, and the one its
    player is offered); a unit only under another unit's marker is shown, its stack lifted."""
    if action.sealed:
        return
    for uid in named_hidden(ctx.state, action.summary(), before):
        u = ctx.state.unit(uid)
        mine = markers_on(ctx.state, u)
        if mine:
            raise RuleError(f"{uid} is under concealment marker {mine[0]}: name the marker "
                            f"({mine[0]}), or your opponent would read which unit it is (15.4.1).")
        if hidden(ctx.state, u):
            lift(ctx, u.side, u.hex or "", "named in a public order (15.4.1)")


def as_marker(state: MakState, action: Action) -> Action:
    """An offer naming a unit that carries a marker names the marker instead (what its
    player types, so the public line never holds the unit)."""
    names = {u.id: markers_on(state, u)[0] for u in hidden_units(state) if markers_on(state, u)}
    if not names:
        return action
    update = {k: names[v] for k, v in action.model_dump().items() if isinstance(v, str) and v in names}
    return action.model_copy(update=update) if update else action


def unseen_problem(state: MakState, side: str, action: Action) -> str | None:
    """An order naming an enemy concealment marker on the map (its counter is public): one
    sentence that says nothing of what is under it (15.4.1)."""
    for value in action.model_dump().values():
        if not isinstance(value, str) or not value.strip():
            continue
        for word in value.split(","):
            u = state.find(word)
            if u is not None and u.side != side and hidden(state, u) and u.id.lower() != word.strip().lower():
                return (f"'{word.strip()[:12]}' is under a concealment marker: none of your units sees "
                        f"what is there (15.4.1).")
    return None


#: Stand-ins for hidden enemy units' ids while the rules word a refusal: no unit id holds them.
_NOBODY = "§¶¤"


def blind_value(state: MakState, side: str, value: str, typed: dict[str, str]) -> str:
    """``value`` (one option: a name, or names split by commas) with each enemy unit under a
    marker named by its own id replaced by a name no unit has (one stand-in character a
    unit, as long as the name typed); ``typed`` gains stand-in character -> name typed."""
    words = value.split(",")
    for i, word in enumerate(words):
        u = state.find(word)
        if u is None or u.side == side or not hidden(state, u) or len(typed) == len(_NOBODY):
            continue
        name = word.strip()
        mark = _NOBODY[len(typed)]
        typed[mark] = name
        words[i] = word.replace(name, mark * len(name))
    return ",".join(words)


def unblind(text: str, typed: dict[str, str]) -> str:
    """``text`` with the stand-ins of :func:`blind_value` turned back into the names typed."""
    return re.sub(f"[{_NOBODY}]+", lambda m: typed[m.group(0)[0]][:len(m.group(0))], text) if typed else text


def _unseen_ids(state: MakState, side: str, action: Action) -> tuple[Action, dict[str, str]]:
    """``action`` with each enemy unit under a marker named by its own id replaced by a name
    no unit has (:func:`blind_value`), and the stand-in character -> the name typed."""
    update: dict[str, str] = {}
    typed: dict[str, str] = {}
    for key, value in action.model_dump().items():
        if not isinstance(value, str) or not value.strip():
            continue
        blinded = blind_value(state, side, value, typed)
        if blinded != value:
            update[key] = blinded
    return (action.model_copy(update=update) if update else action), typed


def as_unknown(rule: OrderRule, ctx: MakCtx, action: Action) -> str | None:
    """15.4.1: an order naming an enemy unit under a marker by its own id is refused with the
    very sentence a name no unit has gets (the rules' own, for that option of that order),
    so the refusal tells nothing of whether the unit exists or where; None when the order
    names none.  The rules word it on a copy, with the name replaced by one no unit has."""
    masked, typed = _unseen_ids(ctx.state, ctx.side, action)
    if not typed:
        return None
    trial: MakCtx = Ctx(state=ctx.state.model_copy(deep=True), side=ctx.side, dice=ScriptedDice([]))
    try:
        rule.run(trial, masked)
    except RuleError as exc:
        return unblind(exc.message, typed)
    except Exception:  # noqa: BLE001 - a rule that rolled or failed on the stand-in: the plain sentence
        return f"There is no unit '{next(iter(typed.values()))[:20]}'."
    return f"There is no unit '{next(iter(typed.values()))[:20]}'."


def reveal_named_in_rolls(ctx: MakCtx, start: int) -> None:
    """A roll of this order (from ``start``) made by a hidden unit's name (a recovery, a
    search) shows it: lifted."""
    rolls = ctx.dice.rolls[start:]
    for u in hidden_units(ctx.state):
        if not hidden(ctx.state, u):
            continue
        if any(_ids_in(r.reason, [u.id]) for r in rolls):
            lift(ctx, u.side, u.hex or "", "rolled for by name (15.4.1)")


#: Movement points in a line or a move's mark ("(3 of 4 MP)", "4 MP"): a unit's allowance
#: says its kind (7.1.2), which a marker hides (15.4.1).
_MP = re.compile(r" \((?:[\d.]+ of )?[\d.]+ MP\)| [\d.]+ MP\b")


def masked(text: str, names: dict[str, str]) -> str:
    """``text`` with each hidden unit's id replaced by its public name, and then no movement
    points (they would tell a mech from infantry under the marker)."""
    found = _ids_in(text, list(names))
    for uid in sorted(found, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(uid)}(?!\w)", names[uid], text)
    if found:
        text = _MP.sub("", text)
    return text[:1].upper() + text[1:]


def mask(ctx: MakCtx, before: list[str]) -> None:
    """Public lines name a unit hidden before the order and still hidden by its marker; its
    owner reads which unit it was.  (A unit seen walking into a concealed stack was named in
    public as it went: its lines stay as they are, the picture hides it from then on.)"""
    s = ctx.state
    names = {u.id: public_name(s, u) for u in hidden_units(s) if u.id in before}
    if not names:
        return
    out: list[Event] = []
    told: set[str] = set()
    for e in ctx.events:
        found = _ids_in(e.text, list(names)) if e.to is None else []
        if not found:
            out.append(e)
            continue
        out.append(e.model_copy(update={"text": masked(e.text, names), "data": {}}))
        for uid in found:
            if uid not in told:
                told.add(uid)
                out.append(Event(kind="conceal", text=f"{names[uid]} is {uid} (only you see this) (15.4.1)",
                                 rule="15.4.1", to=s.unit(uid).side))
    ctx.events[:] = out


def after_order(t: Table, ctx: MakCtx, action: Action, rolls_from: int) -> None:
    """Every order ends with: markers of units gone return; units named in a roll and stacks in
    an enemy's sight are lifted; a public order that would print a hidden unit is refused; the
    public lines name hidden units by their markers."""
    c = ctx.state.concealment
    if c is None:
        return
    before = list(c.hidden)
    return_gone(ctx)
    reveal_named_in_rolls(ctx, rolls_from)
    sweep(t, ctx)
    refuse_named(ctx, action, before)
    now = [u.id for u in hidden_units(ctx.state)]
    if any(uid not in now and ctx.state.unit(uid).on_map for uid in before):
        ctx.reveals = True  # a stack left without its marker is seen again (15.4.1)
    c.hidden = now
    mask(ctx, before)
