"""Text the service answers with: short lines that read well on a 40-column phone screen."""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Iterable, Sequence

import discord.utils

from rules.core.contract import SEALED, Action, Event, GameSystem, option_text
from rules.core.dice import Roll
from rules.core.errors import RuleError
from bot.computer_ids import is_computer
from bot.models import Reply
from bot.store import SeatRow, StepRow


def error(text: str) -> Reply:
    """An ephemeral refusal: one sentence, nothing changed.

    A refusal may quote what was typed; newlines and other control characters in it become
    spaces, so it stays one line and cannot fake a second message (issue 14).
    """
    return Reply(text=f"⛔ {one_line(text)}", ephemeral=True, error=True)


def one_line(text: str) -> str:
    """Text as it reads on one line: control characters (newlines included) become spaces,
    the ends are trimmed."""
    return "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in text).strip()


#: Characters that reorder or hide text around them: bidi embeddings, overrides and isolates,
#: the direction marks (issue 29: a name must not turn the rest of a reply backwards).
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: The bot's own marks, which a reader (and ``tools/verify_dice.py --anchors``) takes as the
#: bot's word: the chain head 🔗, a sealed order 🔒, a revealed secret 🔓 (issue 45: a display
#: name "🔗 0123456789abcdef", repeated in a reply, was read as a head the channel saw).
BOT_MARKS = frozenset("🔗🔒🔓")
#: What discord.py's escapes leave: ``<…>`` tags (channel mentions, timestamps, command
#: mentions, custom emoji; a user or role mention is then broken by ``escape_mentions`` too).
_TAGS = re.compile(r"([<>])")
#: Longest name shown (Discord's display names are at most 32 characters).
NAME_LIMIT = 32
#: The line of a reply whose picture queued behind others' and follows (issue 41): on
#: Discord it stands in the message until the picture is edited in.
FOLLOWS_LINE = "(The picture follows in a moment: the renderer is busy.)"
#: The line of a reply whose picture could not even be queued (issue 41).
BUSY_LINE = "(No picture this time: the renderer is busy. /game map draws it.)"


def user_text(text: str, limit: int = 200) -> str:
    """User- or file-controlled text (a display name, a ``/mod`` reason, a scenario's title or
    a library name) as a public reply may show it: the one function every reply uses for such
    text (issues 25, 29, 45).

    Control characters become spaces and bidi controls go, so the text stays on one line and
    in reading order; the bot's own marks (:data:`BOT_MARKS`) go, so it cannot pass for the
    bot's word; then discord.py's own escapes, kept in step with Discord's markup by its
    maintainers: ``discord.utils.escape_markdown`` (emphasis, spoilers, code, headings,
    quotes, lists, masked links) and ``discord.utils.escape_mentions`` (``@everyone``,
    ``@here``, user and role mentions, broken with a zero-width space); last the ``<…>``
    tags neither covers are backslash-escaped.  The text reads as typed, never as a chip, a
    link, a ping or a line of the bot's.  A text that would follow an ``@`` in a reply
    (``@{name}``) and spell a mass mention is broken the same way.
    """
    kept = one_line("".join(c for c in text if c not in _BIDI and c not in BOT_MARKS))
    kept = " ".join(kept.split())[:limit]
    kept = _TAGS.sub(r"\\\1", discord.utils.escape_markdown(kept))
    kept = discord.utils.escape_mentions(kept)
    if kept.casefold().startswith(("everyone", "here")):
        kept = "\u200b" + kept
    return kept


def info(text: str) -> Reply:
    """An ephemeral answer only the asker sees (status, help, log)."""
    return Reply(text=text, ephemeral=True)


def event_lines(events: Iterable[Event]) -> list[str]:
    """One line per public event, as the rules wrote it: an event addressed to one side
    (``Event.to``, issue 28) is never in public text (``bot/sealing.py`` words those)."""
    return [e.text for e in events if e.to is None]


def seat_name(side: str, seats: list[SeatRow]) -> str:
    """``nato (@alice)``, ``soviet (computer (normal))`` or ``nato (free)``."""
    holder = next((s for s in seats if s.side == side), None)
    if holder is not None and is_computer(holder.user_id):
        return f"{side} ({holder.user_name})"  # the computer is not a member to mention
    return f"{side} (@{holder.user_name})" if holder else f"{side} (free)"


def step_action_text(step: StepRow) -> str:
    """The order of a step as typed, e.g. ``move unit:VDV-1 to:12``."""
    if step.kind == "setup":
        return "setup"
    if not step.action:
        return step.kind
    if step.action.get("sealed"):
        # A sealed order (issue 28): not even which options it was given.
        return _marked(step, f"{step.action.get('name', '?')} {SEALED}")
    private = step.action.get("private") or ()
    opts = " ".join(f"{k}:{SEALED if k in private else option_text(v)}"
                    for k, v in step.action.get("options", {}).items())
    return _marked(step, f"{step.action.get('name', '?')} {opts}".strip())


def _marked(step: StepRow, text: str) -> str:
    """An order's text with what made the step again, if anything: a reroll, or a
    re-derivation under new rulings (``/mod rules-adopt``, issue 42)."""
    if step.kind == "reroll":
        return f"reroll of #{step.rerolls}: {text}"
    if step.kind == "order" and step.rerolls is not None:
        return f"#{step.rerolls} under today's rules: {text}"
    return text


def dice_words(rolls: Sequence[Roll]) -> list[str]:
    """The dice of a step (``🎲 4 2``) and, apart, its draws (:func:`draw_words`)."""
    dice = " ".join(str(r.value) for r in rolls if r.sides == 6)
    return ([f"🎲 {dice}"] if dice else []) + draw_words(rolls)


def draw_label(reason: str) -> str:
    """What a draw was of, from its reason: ``"Ops card draw (13.0)"`` -> ``"Ops card"``,
    ``"hostile picked from the bin (14.0): why"`` -> ``"hostile picked from the bin"``."""
    label = reason.split(" (", 1)[0].split(":", 1)[0].strip()
    return label.removesuffix(" draw") or "item"


def draw_words(rolls: Sequence[Roll]) -> list[str]:
    """A step's random draws from a deck, bin or pool, each named for what was drawn
    (``draws: Ops card 7 of 11, hostile picked from the bin 9 of 16, 3 of 15``).

    A draw is made as a die with one face per item, so a "12" among the d6s would read as an
    impossible roll; and a bare "7 of 11" said nothing of what was drawn (issue 40).  Draws in
    a row of the same kind share their label."""
    parts: list[str] = []
    last = None
    for roll in rolls:
        if roll.sides == 6:
            continue
        label = draw_label(roll.reason)
        picked = f"{roll.value} of {roll.sides}"
        parts.append(picked if label == last else f"{label} {picked}")
        last = label
    return [f"draws: {', '.join(parts)}"] if parts else []


def log_line(step: StepRow, dice: list[str] | None = None) -> str:
    """A numbered log entry with dice and rules; reverted steps are struck through.
    ``dice``: the dice in other words than :func:`dice_words` (a digest says whose each is)."""
    who = f"{step.actor_name} ({step.side})" if step.actor_name and step.side else "referee"
    if step.side and is_computer(step.actor_id or ""):
        who = f"played by the computer for {step.side}"  # issue 43
    head = f"#{step.seq} {who}: {step_action_text(step)}"
    if step.kind == "reroll" and step.action:
        # A moderator's reroll, not an order of the side's (issue 25: it read "player
        # (soviet)"): who rerolled, and whose order it was.
        order = step_action_text(step.model_copy(update={"kind": "order", "rerolls": None}))
        head = f"#{step.seq} {step.actor_name or 'referee'} (moderator) rerolled #{step.rerolls}, {step.side}: {order}"
    rules = sorted({e.rule for e in step.events if e.rule and e.to is None})
    tail = dice_words(step.dice) if dice is None else list(dice)
    if rules:
        tail.append("rules " + ", ".join(rules))
    line = head + (" — " + "; ".join(tail) if tail else "")
    return f"~~{line}~~ (reverted)" if step.reverted_by is not None else line


def help_text(system: GameSystem[Any], order: str | None) -> str:
    """``/game help``: every order of a system, or one order in full."""
    if order:
        action = system.action_type(order)
        return "\n".join([f"**/{system.key} {action.path()}** ({action.rule or 'rules'})",
                          action.help_text()] + _option_lines(action))
    lines = [f"**{system.title}** orders (/{system.key} …):"]
    lines += [_order_line(action) for action in system.actions]
    lines.append("Details: /game help order:<name>")
    return "\n".join(lines)


def group_help(system: GameSystem[Any], group: str) -> str:
    """``/game help order:mines``: the orders of one subcommand group (issue 28)."""
    about = system.group_descriptions.get(group, "")
    lines = [f"**/{system.key} {group} …**" + (f": {about}" if about else "")]
    orders = [a for a in system.actions if a.group == group]
    lines += [_order_line(action) for action in orders]
    lines.append(f"Details: /game help order:{orders[0].path()}")
    return "\n".join(lines)


def _order_line(action: type[Action]) -> str:
    rule = f" ({action.rule})" if action.rule else ""
    sealed = " 🔒 give it privately" if action.sealed else ""
    return f"• {action.path()}{rule}: {action.description()}{sealed}"


def side_named(system: GameSystem[Any], typed: str) -> str:
    """The side ``typed`` names: its key, its display name (``Mercenary`` for ``merc``), or
    either with a plural ``s`` (``soviets``, ``germans``), any case; else a RuleError listing
    the sides (issue 25)."""
    wanted = typed.strip().casefold()
    for side in system.sides:
        names = {side.casefold(), system.side_name(side).casefold()}
        if wanted in names | {f"{n}s" for n in names} | {n.removesuffix("s") for n in names}:
            return side
    raise RuleError(f"{system.title} has no side '{one_line(typed)[:40]}'; sides: "
                    f"{', '.join(system.sides)}.")


def systems_help(systems: Sequence[GameSystem[Any]]) -> str:
    """``/game help`` with no game in the channel: the systems and how to start one, short
    enough for a phone (each system's orders come with ``/game help`` in its game)."""
    lines = ["No game here yet. Start one with /game new system:<key> (scenario: optional):"]
    for system in systems:
        scenarios = ", ".join(system.scenarios)
        lines.append(f"• {system.key}: {system.title}" + (f" (scenarios: {scenarios})" if scenarios else ""))
    lines += ["Then each player: /game join side:<side>.",
              "The orders of a game: /game help in its channel, or /game help order:<name>."]
    return "\n".join(lines)


def _option_lines(action: type[Action]) -> list[str]:
    lines = []
    for spec in action.options():
        need = "" if spec.required else " (optional)"
        choices = f" [{', '.join(spec.choices)}]" if spec.choices else ""
        lines.append(f"• {spec.name}{need}: {spec.description}{choices}")
    return lines or ["(no options)"]
