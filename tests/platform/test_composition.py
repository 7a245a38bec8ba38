"""The service holds the pipeline, it is not one (issue 23, "one straight order path").

Every command handler (``/game``, ``/mod`` and a system's orders) is given the service's
:class:`~bot.pipeline.Pipeline`, and nothing the pipeline holds leads back to the service:
the data flows one way, front end -> service -> pipeline -> store.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import orders
from bot import service as service_module
from bot.models import Invocation, Reply
from bot.pipeline import Pipeline
from bot.service import Service
from tests.platform.conftest import Table


async def test_every_kind_of_command_is_given_the_pipeline(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    given: list[tuple[str, Any]] = []

    def recording(name: str, real: Any) -> Any:
        async def handler(pipe: Pipeline, inv: Invocation) -> Reply:
            given.append((name, pipe))
            return await real(pipe, inv)
        return handler

    monkeypatch.setitem(service_module.GAME_HANDLERS, "new",
                        recording("/game new", service_module.GAME_HANDLERS["new"]))
    monkeypatch.setitem(service_module.MOD_HANDLERS, "look",
                        recording("/mod look", service_module.MOD_HANDLERS["look"]))
    monkeypatch.setattr(orders, "cmd_order", recording("/duel roll", orders.cmd_order))

    assert not (await table("alice", "/game new system:duel")).error
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    assert not (await table("alice", "/duel roll")).error
    assert not (await table("mod", "/mod look side:red", moderator=True)).error

    assert [name for name, _ in given] == ["/game new", "/duel roll", "/mod look"]
    for name, pipe in given:
        assert pipe is table.service.pipeline, name
        assert not isinstance(pipe, Service), name


def _reachable(root: object) -> list[object]:
    """Every object of ours (``bot``/``rules``) reachable from ``root`` through attributes
    and containers."""
    seen: set[int] = set()
    found: list[object] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        elif type(obj).__module__.split(".")[0] in ("bot", "rules"):
            found.append(obj)
            todo.extend(vars(obj).values() if hasattr(obj, "__dict__") else ())
    return found


async def test_nothing_below_the_service_refers_back_to_it(service: Service) -> None:
    await service.handle(Table(service).invocation("alice", "/game new system:duel"))
    below = _reachable(service.pipeline) + _reachable(service.pacer)
    assert service.pipeline in below and service.pipeline.ledger in below
    assert all(obj is not service for obj in below)
    # The pacer is told through the pipeline, the one it was given.
    assert service.pacer.svc is service.pipeline
