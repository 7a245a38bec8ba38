"""Properties of movement on the St Nazaire table, and the snapshot drawn from the view."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rules.commando import SYSTEM, board
from rules.commando.movement import ENEMY_ZONE, plan_move
from rules.commando.state import RaidState
from rules.core import table
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from tests.commando.checks import check_invariants
from tests.commando.helpers import arrange, order, setup, texts

_RAID = setup("st_nazaire")
_COMMANDOS = [u.id for u in _RAID.alive("commandos")]
_GERMANS = [u.id for u in _RAID.alive("germans") if not u.static]


def _rolled(side: str) -> RaidState:
    state = _RAID.model_copy(deep=True)
    state.side = side  # type: ignore[assignment]
    state.phase = "actions"
    for unit in state.alive(side):
        unit.actions = 3
    return state


@settings(max_examples=150, deadline=None)
@given(
    unit_id=st.sampled_from(_COMMANDOS + _GERMANS),
    x=st.floats(-5, 53, allow_nan=False),
    y=st.floats(-5, 41, allow_nan=False),
)
def test_any_move_is_refused_or_ends_somewhere_legal(unit_id: str, x: float, y: float) -> None:
    """Movement: a move is refused, or ends on the table, outside water, wire and targets,
    within its actions, and no closer than 6" to an enemy it started beyond 6" from."""
    side = "commandos" if unit_id in _COMMANDOS else "germans"
    state = _rolled(side)
    unit = state.unit(unit_id)
    try:
        plan = plan_move(state, unit, [(x, y)])
    except RuleError:
        return
    end = plan.path[-1]
    assert table.on_table(end, 48, 36, board.BASE_RADIUS - 1e-6)
    for key, shape in board.obstacles(state).items():
        assert table.distance_to_shape(end, shape) >= board.BASE_RADIUS - 1e-3, key
    assert 1 <= plan.cost <= unit.actions
    assert plan.travelled <= plan.planned + 1e-6
    for enemy in state.alive():
        if enemy.side == side or enemy.kind == "searchlight":
            continue
        if table.distance(unit.pos, enemy.pos) > ENEMY_ZONE:
            assert table.distance(end, enemy.pos) >= ENEMY_ZONE - 0.01, enemy.id


def test_snapshot_of_the_raid_is_a_real_png() -> None:
    """The table is drawn after each side's turn: the view renders to a PNG of the table."""
    from render import snapshot  # the renderer of TableView, not a rules dependency

    state = SYSTEM.apply(_RAID, "commandos", SYSTEM.parse("roll", {}), ScriptedDice([6] * 9))
    state = SYSTEM.apply(state.state, "commandos",
                         SYSTEM.parse("move", {"unit": "D1", "to": "caisson"}), ScriptedDice([]))
    step = SYSTEM.apply(state.state, "commandos", SYSTEM.parse("end", {}), ScriptedDice([]))
    assert step.snapshot
    shot = snapshot(SYSTEM.view(step.state))
    image = Image.open(io.BytesIO(shot.png))
    assert image.format == "PNG" and image.width >= 600


@settings(max_examples=120, deadline=None)
@given(friends=st.lists(st.tuples(st.floats(-1.0, 6.0), st.floats(-3.5, 3.5)), max_size=3))
def test_a_fall_back_goes_3_inches_or_says_why_not(friends: list[tuple[float, float]]) -> None:
    """Demolition: "the unit moves 3 inches away", through friends ("Units may pass through
    friendly units"), ending clear of every base; short of 3" only with the reason said."""
    spots = [(6.5 + dx, 31 + dy) for dx, dy in friends]
    spots = [p for i, p in enumerate(spots) if table.distance(p, (6.5, 31)) >= 1.0
             and table.distance_to_shape(p, table.rectangle(4, 30, 6, 32)) >= 0.5
             and all(table.distance(p, q) >= 1.0 for q in spots[:i])]
    keep = {"D1": (6.5, 31), "G1": (40, 4), **dict(zip(("A1", "O1", "M1"), spots))}
    state = arrange(keep, actions={"D1": 2})
    step = order(state, "demolish", unit="D1", target="bunker", dice=[6])
    check_invariants(step.state)
    moved = table.distance((6.5, 31), step.state.unit("D1").pos)
    assert moved >= 3.0 - 1e-3 or 'short of 3"' in texts(step)
