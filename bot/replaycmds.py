"""``/game replay from: to:``: the snapshots of a span of steps as one animated GIF that
plays inline in the chat, a phone's included (issue 19, item 5).

A frame per snapshot: the steps of the span that drew a map (``Step.snapshot``: an impulse,
battle round or turn ended, and the setup) on the game's current line (steps a rollback
reverted are left out, as the map never showed them afterwards).  Each frame is the
phone-width picture of that step (:func:`render.focus`) under the step's log line.  The
pictures are drawn and encoded in a worker thread (:mod:`render.animation`).
"""

from __future__ import annotations

from typing import Any, Sequence

from bot import longdraw, replies
from bot.models import Attachment, Reply
from bot.pipeline import Pipeline
from bot.store import BaseStore, GameRow, StepRow
from rules.core import registry
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

#: The most pictures one replay holds: 100 keeps the GIF near 4 MB (measured), well inside
#: Discord's 8 MB upload limit.
MAX_FRAMES = 100
#: Discord's smallest upload limit (a server without boosts), in bytes.
UPLOAD_LIMIT = 8 * 1024 * 1024


def plain(text: str) -> str:
    """A line with the die emoji spelled out: the picture's font has none, and a page may be
    read where no emoji font is installed (a box would stand where the die was)."""
    return text.replace("🎲", "dice")


def caption(step: StepRow) -> str:
    """A frame's caption: the step's log line, the die spelled out."""
    return plain(replies.log_line(step))


def shown_steps(steps: Sequence[StepRow]) -> list[StepRow]:
    """The steps that drew a map on the game's current line, in order."""
    return [s for s in steps if s.reverted_by is None and (s.snapshot or s.kind == "setup")]


def render_pictures(system: GameSystem[Any], states: Sequence[str], *, whole: bool) -> list[bytes]:
    """The PNG of each state: the whole map (``whole``) or the phone-width focus picture.
    Blocking (Pillow): run it in a worker thread."""
    from render import focus, snapshot  # noqa: PLC0415 - Pillow only when a picture is drawn

    draw = snapshot if whole else focus
    return [draw(system.view(system.load_state(state))).png for state in states]


def replay_gif(system: GameSystem[Any], steps: Sequence[StepRow]) -> bytes:
    """The animated GIF of ``steps`` (each one frame).  Blocking: the bot runs it in its
    worker for long drawings (``bot/longdraw.py``)."""
    from render.animation import ReplayFrame, animate  # noqa: PLC0415

    pngs = render_pictures(system, [s.state_json for s in steps], whole=False)
    return animate([ReplayFrame(png=p, caption=caption(s)) for p, s in zip(pngs, steps)]).gif


def replay_of(system_key: str, steps: Sequence[StepRow]) -> bytes:
    """:func:`replay_gif` for the system ``system_key``: what the worker for long drawings
    runs (``bot/longdraw.py``; it takes the system by its key, which pickles)."""
    return replay_gif(registry.get(system_key), steps)


async def span(store: BaseStore, game: GameRow, first: int, last: int | None) -> list[StepRow]:
    """The pictured steps from ``first`` to ``last`` (default: the newest), with a sentence
    for a span that is empty, reversed or too long."""
    newest = await store.last_seq(game.id)
    last = newest if last is None else last
    if first > newest:
        raise RuleError(f"This game has steps #0 to #{newest}; from: must be one of them.")
    if last < first:
        raise RuleError(f"to: (#{last}) comes before from: (#{first}); give the earlier step first.")
    steps = [s for s in await store.steps(game.id) if first <= s.seq <= last]
    shown = shown_steps(steps)
    if not shown:
        raise RuleError(f"No map was drawn in steps #{first} to #{last}; /game log shows "
                        "which steps ended an impulse or round.")
    if len(shown) > MAX_FRAMES:
        raise RuleError(
            f"Steps #{first} to #{last} drew {len(shown)} maps; a replay holds at most "
            f"{MAX_FRAMES}: ask for part of it, e.g. from:{first} to:{shown[MAX_FRAMES - 1].seq}."
        )
    return shown


async def replay_reply(svc: Pipeline, row: GameRow, first: int, last: int | None) -> Reply:
    """``/game replay [from:] [to:]`` on game ``row``: an animated GIF of the maps of those
    steps, posted in the channel (``bot/gamecmds.py`` picks the game)."""
    shown = await span(svc.store, row, first, last)
    # In the worker for long drawings (``bot/longdraw.py``): up to MAX_FRAMES maps drawn in
    # a thread of the bot held every channel's replies behind them.
    try:
        gif = await longdraw.shared(svc.settings).run(replay_of, row.system, shown)
    except longdraw.LongDrawFailed as failed:
        raise RuleError(f"That replay could not be drawn ({failed}); ask for fewer steps, "
                        f"e.g. to:{shown[len(shown) // 2].seq}.") from failed
    if len(gif) > UPLOAD_LIMIT:
        half = shown[len(shown) // 2].seq
        raise RuleError(f"That replay is {len(gif) / 1e6:.1f} MB, more than Discord takes; "
                        f"ask for fewer steps, e.g. to:{half}.")
    first, last = shown[0].seq, shown[-1].seq
    name = f"{row.system}-game{row.id}-steps{first}-{last}.gif"
    return Reply(
        text=f"🎞️ Replay of game #{row.id}, steps #{first}–#{last}: "
             f"{len(shown)} map{'s' if len(shown) != 1 else ''}, "
             "one every 1.6 s (tap to open it full size).",
        attachments=[Attachment(filename=name, data=gif, description="replay")],
    )


__all__ = ["MAX_FRAMES", "UPLOAD_LIMIT", "caption", "plain", "replay_reply", "render_pictures",
           "replay_gif", "replay_of", "shown_steps", "span"]
