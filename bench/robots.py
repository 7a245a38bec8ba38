"""The benchmark's robot players in a process of their own (issue 23, point 4).

Choosing a random legal order (``legal_actions``, then :func:`rules.core.playout.choose`)
took ~30% of the service's event loop when the robots ran beside it, so the figures
measured the bench as much as the bot.  Here the robots' process plays each channel's game
ahead (:func:`plan_orders`) when the game opens, before anything is timed: from the state
the service stored, with the game's own provable dice (``SeededDice(seed, counter)``, as
``bot/pipeline.DiceRun`` draws them) and the order parsed from the options a player types,
so each planned order meets exactly the state the service will hold then.  During the run
a :class:`RobotChannel` only sends the next planned order: the service alone is measured.
A plan that drifted from the service would show at once: the service refuses a planned
order and the run fails.  Each channel's random generator and last orders live in the
worker, so a channel plays the same game as a :class:`bot.autoplay.Channel` with the same
seed would.

Why not choose each order when it is due, as before: one choice of an rr order takes
~2.5 ms of CPU (every offer built), so on two cores the robots could not choose faster
than ~400 orders/s, and the "saturation" row measured them, not the service (the loop
waited ~300 ms an order for its robots); and a ``ProcessPoolExecutor`` hands its worker at
most two calls at a time through a manager thread of the service's process.
"""

from __future__ import annotations

import asyncio
import itertools
import pickle
import random
import socket
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.autoplay import Channel, order_options
from bot.models import Invocation
from rules.core import registry
from rules.core.contract import Action
from rules.core.dice import SeededDice
from rules.core.playout import choose

#: The repository: the robots' process runs ``-m bench.robots`` from here.
ROOT = Path(__file__).resolve().parent.parent
#: In the worker: each channel's random generator and each side's last order.
_RNGS: dict[str, random.Random] = {}
_LAST: dict[tuple[str, str], Action] = {}


def plan_orders(system_key: str, channel: str, seed: int, state_json: str, dice_seed: bytes,
                counter: int, orders: int) -> list[tuple[str, str, dict[str, Any]]]:
    """In the worker: up to ``orders`` orders ``(side, name, options)`` of the game from
    ``state_json`` on, each a random legal order of the side waited on, applied as the
    service will apply it (parsed from its options, dice from ``counter`` on); fewer if the
    game ends."""
    system = registry.get(system_key)
    state = system.load_state(state_json)
    rng = _RNGS.setdefault(channel, random.Random(seed))
    plan: list[tuple[str, str, dict[str, Any]]] = []
    while len(plan) < orders:
        waiting = system.waiting_on(state)
        if not waiting or system.result(state) is not None:
            break
        side = waiting[0]
        actions = [a for a in system.legal_actions(state, side, read_only=False) if not a.read_only]
        if not actions:
            raise RuntimeError(f"{system_key} offers no legal order to {side} in {channel}")
        action = choose(system, actions, rng, _LAST.get((channel, side)))
        _LAST[(channel, side)] = action
        options = order_options(action)
        dice = SeededDice(dice_seed, counter)
        state = system.apply(state, side, system.parse(action.name, options), dice).state
        counter = dice.counter
        plan.append((side, action.name, options))
    return plan


FRAME = struct.Struct("!I")  # each message: its length, then a pickle


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def serve(fd: int) -> None:
    """In the worker: answer each request ``(id, plan_orders's arguments)`` in turn."""
    sock = socket.socket(fileno=fd)
    while True:
        try:
            request_id, args = pickle.loads(_read(sock, FRAME.unpack(_read(sock, FRAME.size))[0]))
        except EOFError:
            return
        try:
            answer: tuple[bool, Any] = (True, plan_orders(*args))
        except Exception as exc:  # told to the channel that asked, which fails the run
            answer = (False, f"{type(exc).__name__}: {exc}")
        payload = pickle.dumps((request_id, answer))
        try:
            sock.sendall(FRAME.pack(len(payload)) + payload)
        except BrokenPipeError:
            return  # the run is over and the service side closed first


class Robots:
    """The robots' process and the socket to it; :meth:`plan` may be awaited by every
    channel at once (answers come back by request id)."""

    def __init__(self, process: asyncio.subprocess.Process, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self._process = process
        self._reader, self._writer = reader, writer
        self._waiting: dict[int, asyncio.Future[list[tuple[str, str, dict[str, Any]]]]] = {}
        self._ids = itertools.count()
        self._task = asyncio.create_task(self._answers())

    @classmethod
    async def start(cls) -> "Robots":
        """Start the robots' process (``python -m bench.robots FD``: a fresh interpreter,
        so none of the service's threads or open files are forked into it)."""
        ours, theirs = socket.socketpair()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.robots", str(theirs.fileno()),
            pass_fds=(theirs.fileno(),), cwd=ROOT)
        theirs.close()
        reader, writer = await asyncio.open_connection(sock=ours)
        return cls(process, reader, writer)

    async def plan(self, system_key: str, channel: str, seed: int, state_json: str,
                   dice_seed: bytes, counter: int, orders: int) -> list[tuple[str, str, dict[str, Any]]]:
        """:func:`plan_orders` in the robots' process."""
        request_id = next(self._ids)
        answer = self._waiting[request_id] = asyncio.get_running_loop().create_future()
        payload = pickle.dumps((request_id, (system_key, channel, seed, state_json, dice_seed,
                                             counter, orders)))
        self._writer.write(FRAME.pack(len(payload)) + payload)
        await self._writer.drain()
        return await answer

    async def _answers(self) -> None:
        try:
            while True:
                size, = FRAME.unpack(await self._reader.readexactly(FRAME.size))
                request_id, (ok, value) = pickle.loads(await self._reader.readexactly(size))
                answer = self._waiting.pop(request_id)
                if answer.done():
                    continue  # its channel no longer wants it
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(RuntimeError(value))
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            for answer in self._waiting.values():
                if not answer.done():
                    answer.set_exception(RuntimeError(f"the robots' process is gone: {exc}"))

    async def close(self) -> None:
        """Stop the process; any choice still under way fails."""
        self._writer.close()
        self._task.cancel()
        for answer in self._waiting.values():
            answer.cancel()
        try:
            await asyncio.wait_for(self._process.wait(), 10)
        except TimeoutError:
            self._process.kill()
            await self._process.wait()


@dataclass
class RobotChannel(Channel):
    """A :class:`Channel` whose orders are planned in the robots' process when its game
    opens (``ahead`` of them: the orders the run will send; more are planned if needed)."""

    pool: Robots | None = None
    seed: int = 1
    ahead: int = 0
    #: This game's planned orders still to send: ``(side, name, options)``.
    _plan: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list, repr=False)

    async def open(self) -> None:
        """Open the game as a player would, then plan its orders (not timed)."""
        await super().open()
        self._plan = await self._planned(self.ahead)

    async def _planned(self, orders: int) -> list[tuple[str, str, dict[str, Any]]]:
        if self.pool is None or orders <= 0:
            return []
        game = await self.service.games.load(self.channel)
        if game is None:
            return []
        return await self.pool.plan(self.system_key, self.channel, self.seed, game.row.state_json,
                                    game.row.seed, game.row.dice_counter, orders)

    def stop(self) -> None:
        """The run is over: nothing left to send."""
        self._plan = []

    async def next_order(self) -> Invocation | None:
        """The next planned order, or None when the game is over."""
        if self.pool is None:
            return await super().next_order()
        if not self._plan:  # more orders than planned: plan on from the service's state
            self._plan = await self._planned(max(1, self.ahead))
        if not self._plan:
            return None
        side, name, options = self._plan.pop(0)
        return self.invocation(self.user(side), [self.system_key, name], options)


__all__ = ["RobotChannel", "Robots", "plan_orders", "serve"]


if __name__ == "__main__":
    serve(int(sys.argv[1]))
