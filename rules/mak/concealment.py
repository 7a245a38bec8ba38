"""Concealment (15.0, optional: ``/game new options:concealment``): markers over units and
stacks, moved between units, lifted by line of sight, a limited number each.

* 15.0: "Use of this rule is up to the players to agree upon ... when required by the scenario,
  or if agreed to by both players": a game option.
* 15.4.1: "To conceal a unit or stack's type, place a concealment marker over it.  This token is
  removed once an enemy unit has line of sight on the concealed unit."  A marker sits on one of
  its side's units (``hide``) and moves with it; every unit of that side in its hex is under
  it.  The public sees the marker (``M-Con1``), never what is under it; its owner sees both.
  Which unit it sits on is a sealed choice, opened when the marker is lifted.
* 15.4.2: "limited to using a number of concealment tokens included in the game set ...
  Concealment tokens may be moved between units" (``shift``).  The game set's count is not
  printed: ``data/concealment.json`` holds our stand-in (6 a side), ``options:markers=`` sets it.
* 15.4.3: "The player may also conceal the actual size of a stack.  All concealment markers in a
  stack are immediately removed once in line of sight of an enemy unit": the public sees one
  counter a marker, whatever the stack holds (one marker over three units, or three over one),
  and a lift takes every marker of the stack.

Our readings where 15.0 is silent (``rules/mak/README.md``): markers are placed at set-up and in
their owner's own phase, only over units on the map that no enemy unit sees (one seen would lose
it at once); a lifted marker goes back to its owner's supply and may be placed again out of
sight; a unit that leaves the map gives its marker back.  Nothing but an enemy unit's line of
sight removes a marker (15.4.1, 15.4.3 name no other way): a minefield attacking a concealed
unit and an engineer's search for mines (14.4.1) leave it on, their rolls and lines name the
marker (``shown_as``).  A concealed unit that attacks (5.1), or that a rule rolls for by name
unit by unit (a blast, 5.5.3; fire, 19.4.2; a morale recovery, 14.3.2: the rolls would count
the stack), is shown.  Orders for a concealed unit name its marker (``move unit:M-Con1``); naming
the unit itself while it stays hidden is refused, so no public line ever holds it
(``unseen.py``: what the other side reads).
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from rules.core import secrets
from rules.core.orders import Ctx
from rules.mak.data import read_data
from rules.mak.hidden_state import Concealment, tell
from rules.mak.state import SIDE_NAMES, SIDES, MakState, UnitState, other
from rules.mak.table import Table

MakCtx = Ctx[MakState]


class ConcealmentChart(BaseModel):
    """``data/concealment.json``: the markers a side has (15.4.2, not printed: ours)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    note: str = ""
    markers: int = Field(ge=1, le=20)
    stand_in: bool = True


@lru_cache(maxsize=1)
def chart() -> ConcealmentChart:
    """The stand-in marker count."""
    return ConcealmentChart.model_validate(read_data("concealment.json"))


def begin(state: MakState, markers: int | None) -> None:
    """15.4.2: each side's supply of markers, ``M-Con1``… and ``S-Con1``…."""
    n = markers or chart().markers
    state.concealment = Concealment(markers={f"{s[0].upper()}-Con{i}": None for s in SIDES for i in range(1, n + 1)})


def owner(marker: str) -> str:
    """The side a marker belongs to (its letter)."""
    return "merc" if marker.upper().startswith("M-") else "strahl"


def supply(state: MakState, side: str) -> list[str]:
    """The side's markers not on the map (15.4.2)."""
    c = state.concealment
    return [] if c is None else [m for m, u in c.markers.items() if u is None and owner(m) == side]


def markers_at(state: MakState, side: str, label: str) -> list[str]:
    """The side's markers on its units in hex ``label``: one public counter each (15.4.3)."""
    c = state.concealment
    if c is None:
        return []
    return [m for m, uid in c.markers.items() if uid is not None and owner(m) == side
            and state.unit(uid).on_map and state.unit(uid).hex == label]


def markers_on(state: MakState, u: UnitState) -> list[str]:
    """The markers sitting on ``u`` itself."""
    c = state.concealment
    return [] if c is None else [m for m, uid in c.markers.items() if uid == u.id]


def enemy_marker(state: MakState, side: str, name: str) -> str | None:
    """The other side's marker on the map that ``name`` is (any case), or None."""
    c = state.concealment
    key = name.strip().lower()
    return None if c is None else next((m for m, uid in c.markers.items() if m.lower() == key
                                        and uid is not None and owner(m) != side), None)


def hidden(state: MakState, u: UnitState) -> bool:
    """Whether ``u`` is under a marker of its side (15.4.1: a unit or its stack)."""
    return state.concealment is not None and u.on_map and bool(markers_at(state, u.side, u.hex or ""))


def hidden_units(state: MakState) -> list[UnitState]:
    """Every unit under a marker now."""
    if state.concealment is None:
        return []
    return [u for u in state.units if hidden(state, u)]


def public_name(state: MakState, u: UnitState) -> str:
    """How the public names a hidden unit: its marker, or the marker of the stack it is under."""
    own = markers_on(state, u)
    if own:
        return own[0]
    return f"a unit under {markers_at(state, u.side, u.hex or '')[0]}"


def seen_in(state: MakState, viewer: str | None, label: str) -> list[str]:
    """What ``viewer`` sees in hex ``label``, for labels: its own units and units in the open
    by id, and a hidden enemy stack as its markers only (15.4.3: not its size)."""
    out = []
    for u in state.at(label):
        if u.side == viewer or not hidden(state, u):
            out.append(u.id)
        else:
            out += [m for m in markers_at(state, u.side, label) if m not in out]
    return out


def _seen_by(t: Table, u: UnitState) -> UnitState | None:
    """15.4.1: an enemy unit on the map with line of sight on ``u`` (6.0).  Eddy Amzel does
    not count: he "cannot make any attacks, observe, or take any other actions" (19.5.1)."""
    return next((e for e in t.on_map(other(u.side)) if not t.stats(e).noncombatant and t.sees(e, u)),
                None)


def shown_as(state: MakState, u: UnitState) -> str:
    """A unit as its opponent may read it (in a public line, a roll's reason, a reveal's
    words): hidden ones by their marker."""
    return public_name(state, u) if hidden(state, u) else u.id



# -- the orders ----------------------------------------------------------------------------------


def _placeable(t: Table, side: str, uid: str) -> UnitState | str:
    """An own unit on the map that no enemy unit sees, or why not."""
    s = t.s
    u = s.find(uid)
    if u is None or u.side != side:
        yours = ", ".join(x.id for x in s.units if x.side == side and x.on_map)
        return f"'{uid[:20]}' is not one of your units on the map; yours: {yours or 'none'}."
    if not u.on_map:
        return f"{u.id} is not on the map: only units on the map take a concealment marker (15.4.1)."
    e = _seen_by(t, u)
    if e is not None:
        return (f"{u.id} is in sight of {shown_as(s, e)}: a marker is removed once an enemy unit "
                f"has line of sight on it (15.4.1).")
    return u


def hide_problem(t: Table, side: str, unit: str, count: int) -> str | None:
    """Why ``count`` markers may not go on ``unit`` now, or None (15.4.1, 15.4.2)."""
    if t.s.concealment is None:
        return "Concealment is not in use in this game (15.0: /game new options:concealment)."
    u = _placeable(t, side, unit)
    if isinstance(u, str):
        return u
    left = supply(t.s, side)
    if count > len(left):
        return (f"You have {len(left)} concealment marker(s) in your supply; the game set gives "
                f"{sum(1 for m in t.s.concealment.markers if owner(m) == side)} (15.4.2).")
    return None


def _seal_placement(ctx: MakCtx, marker: str, u: UnitState, words: str) -> None:
    c = ctx.state.concealment
    assert c is not None
    ctx.state.seals += 1
    key = f"conceal:{marker}:{ctx.state.seals}"
    c.markers[marker] = u.id
    c.seals[marker] = key
    ctx.seal(key, u.side, words, [secrets.item(marker=marker, unit=u.id)])
    tell(ctx, u.side, "conceal", f"{marker} is over {u.id} in {u.hex} (15.4.1)", "15.4.1")


def hide(t: Table, ctx: MakCtx, unit: str, count: int) -> None:
    """15.4.1 / 15.4.3: ``count`` markers from the supply over ``unit`` (and its stack)."""
    u = ctx.state.find(unit)
    assert u is not None
    for marker in supply(ctx.state, ctx.side)[:count]:
        _seal_placement(ctx, marker, u, f"put concealment marker {marker} on {u.hex} (15.4.1)")
    ctx.snapshot = True


def shift_problem(t: Table, side: str, marker: str, to: str) -> str | None:
    """Why ``marker`` may not move onto ``to``, or None (15.4.2)."""
    c = t.s.concealment
    if c is None:
        return "Concealment is not in use in this game (15.0: /game new options:concealment)."
    name = next((m for m in c.markers if m.lower() == marker.strip().lower()), None)
    placed = [m for m, uid in c.markers.items() if uid is not None and owner(m) == side]
    if name is None or owner(name) != side or c.markers[name] is None:
        return (f"'{marker[:12]}' is not one of your markers on the map; yours there: "
                f"{', '.join(placed) or 'none'} (hide puts one down, 15.4.1).")
    u = _placeable(t, side, to)
    if isinstance(u, str):
        return u
    if c.markers[name] == u.id:
        return f"{name} is on {u.id} already."
    return None


def shift(t: Table, ctx: MakCtx, marker: str, to: str) -> None:
    """15.4.2: "Concealment tokens may be moved between units": a fresh seal for its new unit;
    a stack it leaves with no marker left is seen again."""
    c = ctx.state.concealment
    assert c is not None
    name = next(m for m in c.markers if m.lower() == marker.strip().lower())
    was = ctx.state.unit(c.markers[name] or "")
    u = ctx.state.find(to)
    assert u is not None
    words = f"moved concealment marker {name} from {was.hex} to {u.hex} (15.4.2)"
    _seal_placement(ctx, name, u, words)
    ctx.snapshot = True


# -- lifting -------------------------------------------------------------------------------------


def lift(ctx: MakCtx, side: str, label: str, why: str) -> None:
    """15.4.3: every marker of ``side``'s stack in ``label`` is removed (back to the supply);
    each placement's seal is opened with ``why``."""
    c = ctx.state.concealment
    assert c is not None
    markers = markers_at(ctx.state, side, label)
    if not markers:
        return
    # Under them: the units hidden when the order began and those carrying a marker.  A unit
    # of the side seen in the open in ``label`` is not: a concealed unit passing through its
    # hex (sight is checked at every hex of a move) or coming to stand with it does not make
    # it one the markers hid (the play-test's "under them were M-EngSQ1, M-AFS1").
    under = [u.id for u in ctx.state.at(label) if u.side == side and (u.id in c.hidden or markers_on(ctx.state, u))]
    for m in markers:
        c.markers[m] = None
        ctx.unseal(c.seals.pop(m), 0, why)
    ctx.reveals = True
    ctx.snapshot = True
    were = f"under {'them' if len(markers) > 1 else 'it'}: {', '.join(under)}"
    ctx.say("conceal", f"{SIDE_NAMES[side]} concealment {', '.join(markers)} in {label} lifted, {why}: {were}",
            "15.4.1")


def sweep(t: Table, ctx: MakCtx, only: UnitState | None = None) -> None:
    """15.4.1: lift every hidden stack an enemy unit has line of sight on; ``only``: just the
    stacks that unit sees and the one it is in (each hex of a move)."""
    s = ctx.state
    if s.concealment is None:
        return
    for u in hidden_units(s):
        if only is not None and u.id != only.id and (u.side == only.side or not only.on_map
                                                      or not t.sees(only, u)):
            continue
        if not hidden(s, u):
            continue  # lifted with its stack already
        e = _seen_by(t, u)
        if e is not None:
            lift(ctx, u.side, u.hex or "", f"seen by {shown_as(s, e)} (15.4.1)")


def return_gone(ctx: MakCtx) -> None:
    """A marker whose unit left the map (destroyed, aloft, aboard, away) goes back to the
    supply; what it sat on is public already, so its seal is opened."""
    c = ctx.state.concealment
    if c is None:
        return
    for m, uid in list(c.markers.items()):
        if uid is not None and not ctx.state.unit(uid).on_map:
            c.markers[m] = None
            ctx.unseal(c.seals.pop(m), 0, f"{uid} left the map (15.4.1)")


def status_lines(state: MakState) -> list[str]:
    """For ``/game status``: the markers on the map and each side's supply (15.4.2)."""
    out = []
    for s in SIDES:
        on = [f"{m}@{state.unit(u).hex}" for m, u in (state.concealment.markers.items() if state.concealment else [])
              if u is not None and owner(m) == s]
        out.append(f"{SIDE_NAMES[s]} concealment: {', '.join(on) or 'none on the map'}; "
                   f"{len(supply(state, s))} in supply (15.4.2).")
    return out
