"""Duel's rules D1-D3: each order declared once, on the function that resolves it, beside the
function that offers its legal forms now (the kit's one dialect, :mod:`rules.core.orders`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from rules.core.orders import Ctx, order
from tests.platform.duel.state import TAGS, DuelState, Peek, Roll, Stance, Wait


def other(side: str) -> Literal["red", "blue"]:
    """The side that is not ``side``."""
    return "blue" if side == "red" else "red"


def pass_turn(ctx: Ctx[DuelState]) -> None:
    """The other side's turn, and a picture (D1, D2)."""
    ctx.state.turn = other(ctx.side)
    ctx.snapshot = True


def roll_offers(state: DuelState, side: str) -> Iterator[Roll]:
    """D1: any tag (the tag only labels the roll)."""
    yield Roll()
    yield from (Roll(label=tag) for tag in TAGS)


@order(Roll, offers=roll_offers)  # phases=("fight",) would restrict it to a phase
def roll(ctx: Ctx[DuelState], action: Roll) -> None:
    """D1: a d6 added to the roller's score, then the other side's turn."""
    value = ctx.dice.die(6, f"{ctx.side} roll")
    ctx.state.scores[ctx.side] += value
    ctx.say("roll", f"🎲 {value}: {ctx.side} has {ctx.state.scores[ctx.side]} (D1)", "D1")
    pass_turn(ctx)


def wait_offers(state: DuelState, side: str) -> list[Wait]:
    """D2: waiting is always possible on your turn."""
    return [Wait()]


@order(Wait, offers=wait_offers)
def wait(ctx: Ctx[DuelState], action: Wait) -> None:
    """D2: the turn passes without dice."""
    ctx.state.notes.append(f"{ctx.side} waits")
    ctx.say("wait", f"{ctx.side} waits (D2)", "D2")
    pass_turn(ctx)


def stance_offers(state: DuelState, side: str) -> list[Stance]:
    """D3: either stance."""
    return [Stance(mode="bold"), Stance(mode="careful")]


@order(Stance, offers=stance_offers)
def stance(ctx: Ctx[DuelState], action: Stance) -> None:
    """D3: a standing choice, at any time."""
    ctx.state.stance[ctx.side] = action.mode
    ctx.say("stance", f"{ctx.side} is {action.mode}", "D3")


def peek_offers(state: DuelState, side: str) -> list[Peek]:
    """Anyone may look."""
    return [Peek()]


@order(Peek, offers=peek_offers)
def peek(ctx: Ctx[DuelState], action: Peek) -> None:
    """The scores, changing nothing."""
    ctx.say("peek", f"Scores {ctx.state.scores}")
