"""A state (or an event) holding a float NaN or infinity is refused where it is dumped, on
SQLite and PostgreSQL alike (``rules/core/finite.py``; the issue 23 review).

JSON has no NaN and no infinity: orjson and pydantic write either as ``null``, so such a
state was stored, and sealed into the hash chain, as something other than what the rules
computed, silently.  Now the order stores nothing, the player gets the "something went
wrong on our side" sentence, and the log names the field."""

from __future__ import annotations

import logging
import math
import sys
from typing import Any, Iterator

import pytest
from pydantic import BaseModel, ConfigDict, Field

from bot import chain
from rules.core import registry
from rules.core.contract import Event, Step
from rules.core.dice import Dice
from rules.core.finite import NonFiniteNumber, require_finite
from rules.core.orders import Ctx, order
from tests.platform.conftest import Table
from tests.platform.duel import Duel, DuelState, Stance
from tests.platform.duel.play import stance_offers


class DriftState(DuelState):
    """Duel's state with a bearing (a typed float) and free marks (typed ``Any``: pydantic
    writes their non-finite floats as ``null`` even in its Python-side JSON dump)."""

    heading: float = 0.0
    marks: dict[str, Any] = Field(default_factory=dict)


@order(Stance, offers=stance_offers)
def stance(ctx: Ctx[DriftState], action: Stance) -> None:
    """D3, and a heading: bold turns it by 0 × ∞ (NaN), careful marks an infinite spread."""
    ctx.state.stance[ctx.side] = action.mode
    if action.mode == "bold":
        ctx.state.heading = math.inf * 0
    else:
        ctx.state.marks["spread"] = [1.5, math.inf]
    ctx.say("stance", f"{ctx.side} is {action.mode}", "D3")


class Drift(Duel):
    """Duel whose standing choice is computed carelessly (a rule that meets 0 × ∞)."""

    key = "drift"
    title = "Drift"
    state_model = DriftState
    #: This module's ``stance`` replaces Duel's; Duel's other orders stay.
    order_modules = (sys.modules[__name__],)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Duel's start, on a drift state."""
        return self.make_step(DriftState(target=options.target), [Event(kind="setup", text="Red starts.")])

DRIFT = Drift()


@pytest.fixture(autouse=True)
def _drift() -> Iterator[None]:
    registry.register(DRIFT)
    yield
    registry.unregister(DRIFT.key)


class Point(BaseModel):
    x: float
    y: float | None = None


class Shape(BaseModel):
    name: str = "s"
    count: int = 0
    points: dict[str, Point] = Field(default_factory=dict)
    corners: list[tuple[float, float]] = Field(default_factory=list)
    notes: dict[str, Any] = Field(default_factory=dict)
    inner: list["Shape"] = Field(default_factory=list)


class Loose(BaseModel):
    """A model taking fields it does not declare (written to JSON too)."""

    model_config = ConfigDict(extra="allow")
    label: tuple[str, float] = ("a", 0.0)


@pytest.mark.parametrize(("shape", "path", "bad"), [
    (Loose(spread=math.nan), "state.spread", "nan"),
    (Loose(label=("b", math.inf)), "state.label[1]", "inf"),
    (Shape(points={"a": Point(x=1.0), "b": Point(x=2.0, y=math.nan)}), "state.points['b'].y", "nan"),
    (Shape(corners=[(0.0, 0.0), (1.0, -math.inf)]), "state.corners[1][1]", "-inf"),
    (Shape(notes={"z": [1, {"q": math.inf}]}), "state.notes['z'][1]['q']", "inf"),
    (Shape(inner=[Shape(), Shape(points={"p": Point(x=math.nan)})]), "state.inner[1].points['p'].x", "nan"),
])
def test_the_first_non_finite_number_is_named_by_its_path(shape: BaseModel, path: str, bad: str) -> None:
    with pytest.raises(NonFiniteNumber) as refused:
        require_finite(shape)
    assert refused.value.path == path and str(refused.value).startswith(f"{path} is {bad}: JSON has no NaN")


def test_finite_numbers_pass_even_when_their_sum_overflows() -> None:
    # The check adds the floats up (a NaN or an infinity makes the sum one); a sum that
    # overflows from finite numbers alone is looked at, and passes.
    require_finite(Shape(corners=[(1e308, 1e308)], points={"a": Point(x=-1e308, y=None)}))
    require_finite({"a": [1.0, 2, "nan", None]}, "record")


class Either(BaseModel):
    """Unions of a float (or a model) with another kind: the value is one or the other."""

    reach: float | str = "unlimited"
    marks: list[float | str] = Field(default_factory=lambda: ["none", 2.5])
    where: Point | str | None = "off map"
    spans: list[float] | str | None = "all"


@pytest.mark.parametrize(("either", "path"), [
    (Either(), None),
    (Either(reach=3.5, where=Point(x=1.0), spans=[0.5]), None),
    (Either(reach=math.nan), "state.reach"),
    (Either(marks=["x", math.inf]), "state.marks[1]"),
    (Either(where=Point(x=-math.inf)), "state.where.x"),
    (Either(spans=[1.0, math.nan]), "state.spans[1]"),
])
def test_a_union_of_a_float_and_another_kind_is_checked_not_crashed_on(
        either: Either, path: str | None) -> None:
    # A field typed ``float | str`` holding the text was added up as a float (TypeError),
    # one typed ``Point | str | None`` holding the text read as a Point (AttributeError):
    # every order of such a system failed.
    if path is None:
        require_finite(either)
        return
    with pytest.raises(NonFiniteNumber) as refused:
        require_finite(either)
    assert refused.value.path == path


def test_the_chain_refuses_what_it_has_no_form_for() -> None:
    # orjson wrote NaN as null, so the fast canonical form sealed a null where the
    # definition (json.dumps(allow_nan=False), the verifier's) refuses the value.
    for value in ({"a": [1.0, math.nan]}, {"a": [1.0, math.inf]}):
        with pytest.raises(NonFiniteNumber, match=r"record\['a'\]\[1\]"):
            chain.canonical(value)
        with pytest.raises(NonFiniteNumber):
            chain.canonical_fast(value)
    assert chain.canonical({"a": None, "b": 0.5}) == b'{"a":null,"b":0.5}'


@pytest.mark.parametrize(("mode", "path"), [("bold", "state.heading is nan"),
                                            ("careful", "state.marks['spread'][1] is inf")])
async def test_an_order_whose_state_holds_a_nan_stores_nothing(
        table: Table, caplog: pytest.LogCaptureFixture, mode: str, path: str) -> None:
    """On either store: the sentence every unexpected failure gets, nothing stored (no step,
    the head and chain where they were), the field named in the log; the next order plays
    on the game as it was."""
    await table("alice", "/game new system:drift")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    svc = table.service
    before = await svc.games.load(table.channel)
    assert before is not None
    with caplog.at_level(logging.ERROR):
        reply = await table("alice", f"/drift stance mode:{mode}", interaction="nan-order")
    assert reply.error and "something went wrong on our side" in reply.text, reply.text
    assert any(path in r.getMessage() or path in (r.exc_text or "") for r in caplog.records), \
        [r.getMessage() for r in caplog.records]
    assert await svc.store.answered("nan-order") is None
    svc.games.forget(table.channel)
    after = await svc.games.load(table.channel)
    assert after is not None
    assert (after.row.head_seq, after.row.chain_head) == (before.row.head_seq, before.row.chain_head)
    played = await table("alice", "/drift roll")
    assert not played.error and played.text.startswith(f"#{before.row.head_seq + 1} "), played.text
