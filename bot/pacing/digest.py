"""The turn digest and "since your last order" (issue 19, item 4).

At the end of each game turn the channel gets one message: the orders each side gave, the
units that moved, the combats (one line each, with their dice), the losses, the score and
objectives as the system shows them, and the turn's full map.  ``/game digest since:`` gives
the same for any span.  A player's ping lists what happened since their last order, one
line a step.

All of it is read from the stored log and the systems' views, step by step (``changes_along``), so
every system gets it without writing anything.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel

from bot import replies
from bot.pacing.rollers import dice_by_side, side_names, unit_sides
from bot.pacing.times import TIME_HELP, span
from bot.pipeline import LiveGame, Pipeline
from bot.store import StepRow
from bot.summaries import MOST_LINES, bullet
from rules.core.contract import GameSystem, Step
from rules.core.errors import RuleError
from rules.core.views import Change, changes_along, seen

#: Status lines that carry the score or the objectives (the rest is who may do what).
_SCORE_LINE = re.compile(r"objective|main|secondary|score|vp\b|destroyed|if it ended|o\.g\.p|lost",
                         re.IGNORECASE)


def turn_of(system: GameSystem[Any], state: BaseModel) -> int | None:
    """The game turn a state is in (None before turn 1), from the contract."""
    return system.turn(state).number


def turn_key(system: GameSystem[Any], state: BaseModel) -> tuple[int, str] | None:
    """The turn a state is in with its word (``(3, "M2 Op")`` in Raiders, whose Ops restart
    each mission), None before turn 1: a digest is due when it changes.  Read from the
    contract's ``GameSystem.turn`` (issue 23), which builds no picture."""
    return system.turn(state).key


def turn_name(system: GameSystem[Any], state: BaseModel, turn: int) -> str:
    """``Turn 3``, or with the system's own word (``M2 Op 3`` in Raiders)."""
    return f"{system.turn(state).word} {turn}"


def rolls_bullet(system: GameSystem[Any], step: StepRow, views: list[BaseModel]) -> str:
    """A step that rolled, as a digest line that says whose each roll is when another
    side's unit rolled inside it (issue 40); ``views``: before and after the step."""
    actor = system.side_name(step.side) if step.side else ""
    names = side_names(views, {side: system.side_name(side) for side in system.sides})
    dice = dice_by_side(step.dice, unit_sides(views), actor, names)
    return bullet(step) if dice is None else "• " + replies.log_line(step, dice)


def digest_lines(system: GameSystem[Any], before: StepRow, steps: list[StepRow], title: str) -> list[str]:
    """The digest of ``steps`` (active, in order), played on the state after ``before``."""
    lines = [title, _orders_line(system, steps)]
    if not steps:
        return lines
    last_state = system.load_state(steps[-1].state_json)
    states = [system.load_state(s.state_json) for s in (before, *steps[:-1])] + [last_state]
    views = [system.view(st) for st in states]
    everything = changes_along(views)  # step by step
    changes = without_visits(everything)
    gone = [c.id for c in changes if c.what == "eliminated"]
    moved = movers(views, visitors(everything))
    if moved:
        lines.append(_listed("Moved", moved))
    lines += _combat_lines(system, steps, views)
    lines.append(_losses_line(changes, gone))
    left = [f"{c.id} ({c.why})" if c.why else c.id for c in changes if c.what == "left"]
    if left:
        lines.append(_listed("Off the map", left))
    return lines + score_lines(system, last_state)


def _orders_line(system: GameSystem[Any], steps: list[StepRow]) -> str:
    """How many orders each side gave (``Orders: NATO 3 · Soviets 2``)."""
    counts: dict[str, int] = {}
    for step in steps:
        if step.kind in ("order", "reroll") and step.side:
            counts[step.side] = counts.get(step.side, 0) + 1
    if not counts:
        return "Orders: none."
    return "Orders: " + " · ".join(f"{system.side_name(side)} {n}" for side, n in counts.items())


def _combat_lines(system: GameSystem[Any], steps: list[StepRow], views: list[BaseModel]) -> list[str]:
    """A bullet for each step that rolled, at most :data:`MOST_LINES`, then how many more."""
    combats = [rolls_bullet(system, s, views[i:i + 2]) for i, s in enumerate(steps)
               if s.dice and s.kind != "setup"]
    if not combats:
        return []
    lines = ["Combat and rolls:", *combats[:MOST_LINES]]
    if len(combats) > MOST_LINES:
        lines.append(f"… and {len(combats) - MOST_LINES} more (/game log).")
    return lines


def _losses_line(changes: list[Change], gone: list[str]) -> str:
    """The units hit (and still on the map) and those eliminated over the span."""
    hit = [c.id for c in changes if c.what == "hit" and c.id not in gone]
    if not hit and not gone:
        return "Losses: none."
    losses = ([f"hit {', '.join(hit[:MOST_LINES])}"] if hit else []) + \
             ([f"eliminated {', '.join(gone[:MOST_LINES])}"] if gone else [])
    return "Losses: " + "; ".join(losses)


#: A step number in a digest's line (``• #14 …``).
_STEP_NUMBER = re.compile(r"#\d+")


def fingerprint(body: list[str], state_json: str) -> str:
    """What a digest tells, step numbers aside (a turn played again after a take-back has
    its steps numbered anew), and the map it shows (the state after the turn, its keys in
    order): two digests of a turn with the same fingerprint are the same message."""
    said = "\n".join(_STEP_NUMBER.sub("#", line) for line in body)
    state = json.dumps(json.loads(state_json), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{said}\n{state}".encode()).hexdigest()


def visitors(changes: list[Change]) -> set[str]:
    """The units that came onto the map and left it again alive within the span (an
    aircraft over the hex it struck)."""
    comings: dict[str, list[str]] = {}  # each unit's arrivals and departures, in order
    for c in changes:
        if c.what in ("arrived", "left"):
            comings.setdefault(c.id, []).append(c.what)
    return {uid for uid, seen in comings.items() if seen[0] == "arrived" and seen[-1] == "left"}


def without_visits(changes: list[Change]) -> list[Change]:
    """The span's changes less the visits (:func:`visitors`): they neither arrived nor left."""
    away = visitors(changes)
    return [c for c in changes if c.id not in away or c.what not in ("arrived", "left", "moved")]


def movers(views: list[BaseModel], skip: set[str]) -> list[str]:
    """The "Moved:" line (issue 46): each unit that changed position on the map from one
    view to the next (a move, a retreat, an advance), in the order they first moved, even
    if it was hit or fell later; not a unit that only arrived (a recruit, hostiles placed at
    a mission's start), nor one of ``skip`` (a visit)."""
    facts = [seen(view).units for view in views]
    out: dict[str, None] = {}
    for was, now in zip(facts, facts[1:]):
        for uid, (place, _, gone) in now.items():
            old = was.get(uid)
            if old is not None and not old[2] and not gone and old[0] != place and uid not in skip:
                out.setdefault(uid)
    return list(out)


def score_lines(system: GameSystem[Any], state: BaseModel) -> list[str]:
    """The score and objectives: the picture's header facts, the status lines about them,
    and the result once the game is over."""
    view = system.view(state)
    facts = list(getattr(getattr(view, "header", None), "facts", []) or [])
    outcome = system.outcome(state)  # the contract's, not event text
    result = outcome.termination if outcome is not None else None
    status = [line for line in system.status(state)[1:]
              if _SCORE_LINE.search(line) and line not in (*facts, result)]
    out = []
    if facts:
        out.append("Score: " + " · ".join(facts))
    out += (outcome.score if outcome is not None and outcome.score else status)[:4]
    if result:
        out.append(f"🏁 {result}")
    else:
        out.append(f"Now: {system.turn_part(state)}")
    return out


def span_words(first: int, last: int) -> str:
    """``steps #3–#9``, or ``step #3`` for a span of one."""
    return f"step #{first}" if first == last else f"steps #{first}–#{last}"


def _listed(label: str, ids: list[str]) -> str:
    shown = ", ".join(ids[:MOST_LINES])
    more = f" and {len(ids) - MOST_LINES} more" if len(ids) > MOST_LINES else ""
    return f"{label}: {shown}{more}"


def ping_lines(game: LiveGame, step: Step, user_id: str) -> list[str]:
    """For a reply that will ping whoever must act next: what happened since each pinged
    side's last order, one line a step (the step being answered is in the reply already).
    Read from the game's summaries (bot/summaries.py), carried along with every step: no
    read of the log, whatever the game's length (issue 23)."""
    if not step.waiting_on or Pipeline.mention_key(step.waiting_on, step.turn_part) == game.row.last_mention:
        return []
    out: list[str] = []
    for side in step.waiting_on:
        holder = game.player_of(side)  # the computer is never pinged (Ledger._mentions)
        if holder is None or holder.user_id == user_id:
            continue
        summary = game.summaries.of(side)
        lines = summary.text()
        if lines:  # the order being answered is in the reply: these came between
            head = (f"Since the start, for @{holder.user_name}:" if summary.from_start
                    else f"Since @{holder.user_name}'s last order:")
            out += [head, *lines]
    return out


def parse_since(text: str, now: datetime, head_seq: int) -> tuple[str, int | datetime]:
    """``/game digest since:``: a step number (``#40`` or ``40``), a span back (``24h``) or a
    date and time; ``("step", n)`` or ``("time", moment)``."""
    raw = text.strip().lstrip("#")
    if raw.isascii() and raw.isdigit() and len(raw) <= 9:  # not ① (issue 29)
        seq = int(raw)
        if seq > head_seq:
            raise RuleError(f"since: there is no step #{seq} yet; the game is at step #{head_seq}.")
        return "step", seq
    back = span(raw)
    if back is not None:
        return "time", now - back
    try:
        if not raw.isascii():
            raise ValueError(raw)
        moment = datetime.fromisoformat(raw.replace(" ", "T", 1) if " " in raw else raw)
    except ValueError:
        raise RuleError(
            f"since: '{raw[:40]}' is neither a step number (#40), a span back (24h, 2d) nor "
            f"{TIME_HELP.split(', a span')[0]}."
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return "time", moment


__all__ = ["MOST_LINES", "digest_lines", "fingerprint", "movers", "span_words", "visitors", "without_visits", "parse_since", "ping_lines", "score_lines",
           "turn_key", "turn_name", "turn_of"]
