"""The refusals every order shares, the bottom of the rules' layers: a rule's problem sentence
raised (``refuse``); whose unit it is (``own``), why it is not on the map (``absent``), why
it may not move on (``mover_problem``), and what must happen first (``busy``, ``stuck``:
8.2.1's unit over the stacking limit).

Each order states its legality once as a ``*_problem`` function (None: legal); its resolver
refuses with that sentence and its offers keep the orders without one.  This module asks
only the :class:`~rules.mak.table.Table`, so every rule module may import it.
"""

from __future__ import annotations

from rules.core.errors import RuleError
from rules.core.hexes import distance, neighbours
from rules.mak.movement import entry_cost
from rules.mak.state import UnitState
from rules.mak.table import Table, allowance


def refuse(problem: str | None) -> None:
    """Raise ``problem`` as the order's refusal; nothing when there is none."""
    if problem:
        raise RuleError(problem)


def own(t: Table, side: str, uid: str) -> UnitState | str:
    """The side's unit ``uid`` or the sentence saying why not."""
    u = t.s.find(uid)
    if u is None:
        return f"There is no unit '{uid[:20]}'; yours: {', '.join(x.id for x in t.s.units if x.side == side)}."
    if u.side != side:
        return f"{u.id} is not yours."
    return u


def stuck(t: Table) -> UnitState | None:
    """The unit under way that stands in a hex over the stacking limit, can still move on,
    and is the only unit there that can still leave: it must move on before anything else,
    since moving another unit would end its move (7.2.5) and leave the hex over the limit
    when the phase ends (8.2)."""
    if t.s.moving is None:
        return None
    u = t.s.unit(t.s.moving)
    if not u.on_map or u.immobilized or u.move_done or u.aboard:
        return None
    if t.stacking(u.side, u.hex or "") is None:
        return None
    if leavers(t, u.hex or "", u.side, but=u) or not _can_step_out(t, u):
        return None
    return u


def _can_step_out(t: Table, u: UnitState) -> bool:
    """Whether ``u`` can still leave its hex this phase: free to move (7.2.1, 7.2.5, 13.1.2)
    and some neighbouring hex in its points, not an enemy's (7.2.3), away from the enemy for
    a broken squad (14.3.1 2)."""
    if mover_problem(t, u) is not None or u.struck or t.s.turn in u.boosts:
        return False
    here, left = t.hex(u), allowance(t, u)
    enemies = t.enemy_hexes(u.side)
    stats = t.stats(u)
    for nxt in neighbours(here):
        cost = entry_cost(t.field, stats, here, nxt)
        if cost is None or cost > left + 1e-9 or nxt in enemies:
            continue
        if u.morale == "ok" or steps_away(nxt, here, list(enemies)):
            return True
    return False


def leavers(t: Table, label: str, side: str, but: UnitState | None = None) -> list[UnitState]:
    """``side``'s units in hex ``label`` (other than ``but``) that can still leave it this
    phase: those that can put the stack right before the phase ends (8.2.1)."""
    return [u for u in t.s.at(label) if u.side == side and u is not but and not u.aboard
            and _can_step_out(t, u)]


def busy(t: Table, u: UnitState, moving: bool = False) -> str | None:
    """Why ``u`` must wait: another unit must move on first (:func:`stuck`), or, for an order
    that is not a move out of its hex, ``u`` is the last unit that can still leave a hex over
    the stacking limit (8.2.1)."""
    blocker = stuck(t)
    if blocker is not None and blocker.id != u.id:
        return (f"{blocker.id} must move on first: {blocker.hex} is over the stacking limit "
                f"({t.stacking(blocker.side, blocker.hex or '')}) and no other unit there can still "
                f"leave before the phase ends (8.2.1)")
    if moving or not u.on_map or u.aboard or t.stacking(u.side, u.hex or "") is None:
        return None
    out = leavers(t, u.hex or "", u.side)
    if out == [u]:
        return (f"{u.id} is the last unit that can still leave {u.hex}, over the stacking limit "
                f"({t.stacking(u.side, u.hex or '')}): move it out first, as the limit holds "
                f"when the phase ends (8.2.1)")
    return None


def just_landed(t: Table, u: UnitState) -> str | None:
    """10.6.1: "The detached PKA cannot move or attack in the current phase" (said so, rather
    than the 7.2.1 its spent phase would give)."""
    if t.s.air.landed.get(u.id) == t.s.turn and u.moved and u.attacked:
        return f"{u.id} left its PK41 this phase: it cannot move or attack until the next (10.6.1)."
    return None


def steps_away(h, here, enemies) -> bool:  # type: ignore[no-untyped-def]
    """14.3.1 2: whether hex ``h`` takes a broken squad farther from the enemy than ``here``
    and next to none."""
    if not enemies:
        return True
    return min(distance(h, e) for e in enemies) > min(distance(here, e) for e in enemies) and \
        all(distance(h, e) > 1 for e in enemies)


def mover_problem(t: Table, u: UnitState) -> str | None:
    """Why ``u`` may not move on now, wherever to, or None (7.2.1, 5.1.2, 7.2.5, 13.1.2)."""
    if not u.on_map:
        return absent(u)
    if t.stats(u).aeronautical and u.status != "aloft":
        return (f"{u.id} is a PK41 on the ground and cannot move there: it takes off again with a "
                f"PKA (`land way:up`) (10.6, 10.6.2).")
    if just_landed(t, u):
        return just_landed(t, u)
    if u.attacked or u.struck:
        return f"{u.id} attacked this phase and may not move (7.2.1)."
    if u.immobilized:
        return f"{u.id} is immobilized (5.1.2)."
    if u.move_done:
        return f"{u.id} has finished its move this phase (7.2.5)."
    if u.aboard:
        return f"{u.id} rides in {u.aboard}: unload it first (13.1.2)."
    if u.loaded_turn == t.s.turn:
        return f"{u.id} loaded this turn and may not move (13.1.2)."
    return None


def absent(u: UnitState) -> str:
    """Why ``u`` is not on the map, and what it may do instead."""
    if u.status == "waiting":
        how = "is dropped by enter" if u.airdrop else "comes on with enter"
        return (f"{u.id} is not on the map yet: it {how} unit:{u.id} at:<hex> "
                f"({'12.2' if u.airdrop else '12.1'}).")
    if u.status == "destroyed":
        return f"{u.id} has been destroyed."
    if u.status == "aloft":
        return f"{u.id} is in the air: it flies missions (air strike, air strafe) and lands with air land (10.0)."
    if u.status == "aboard":
        return f"{u.id} rides a Hornisse: it comes down when the Hornisse lands (land, 10.6)."
    if u.status == "withdrawn":
        return f"{u.id} has left the battle (16.2.3, 18.2.4)."
    return f"{u.id} rides in {u.aboard}: unload it first (13.1.2)."
