"""What one side may know of a Maschinen Krieger game, and a guess at the rest (issue 43).

The computer player is given :func:`observe`'s state, never the game's: the other side's
secrets replaced by one canonical blank, so two games that side cannot tell apart give it
the same observation.  The secrets, and how each is blanked and guessed again
(:func:`determinize`):

* the enemy's minefields not yet found (19.1.1): dropped; a hex artillery was seen to mine
  (19.1.6, ``suspected``) is kept with its power unknown.  A found one keeps its seal's key
  (public) but not its item's place in the layout (``index``: the order the enemy wrote its
  minefields in, which would tell what else it laid, issue 45); every minefield is listed
  in hex order, not in the order the game met them (that order differs with the layout).  The guess lays the enemy's
  scenario points (``mine_points``) again, at random, near the observer's units, never under
  them (a unit there would have found it, 19.1.2);
* the enemy's air assignments while they are secret (10.1.1): back to "ready"; the guess
  gives each aircraft a duty at random once the enemy is done assigning;
* which enemy unit is under which concealment marker (15.4.1): the markers' hexes are public,
  the units under them are not.  The enemy's hidden units are put under its markers in a
  canonical way (sorted ids, the markers in order), their turn's bookkeeping blanked; the
  guess deals them out again at random, one under each marker first;
* the last order's marks (they name units by their ids): dropped, they only draw the picture.
"""

from __future__ import annotations

import random

from rules.mak.air_view import assignments_secret
from rules.mak.concealment import hidden, owner
from rules.mak.minefields import MINE_MAX, MINE_MIN
from rules.mak.state import MakState, Minefield, UnitState, other
from rules.mak.table import Table

#: Hexes around the observer's units where a guessed minefield may lie (19.1: laid in their way).
NEAR = 4
#: Per-phase bookkeeping of a unit that no enemy sees while it is under a marker (15.4.1).
UNSEEN_FIELDS = {"mp_spent": 0.0, "moved": False, "move_done": False, "attacked": False,
                 "spotted": False, "struck": False, "phase_shots": {}, "spared_at": -1}


def observe(state: MakState, side: str) -> MakState:
    """``state`` as ``side`` may know it (see the module docstring)."""
    s = state.model_copy(deep=True)
    enemy = other(side)
    s.mines = {h: _enemy_mine(f) if f.owner == enemy else f
               for h, f in sorted(s.mines.items()) if f.owner == side or f.revealed or f.suspected}
    if assignments_secret(s):
        for u in s.units:
            if u.side == enemy and s.air.duty.get(u.id) in ("air", "ground"):
                s.air.duty[u.id] = "ready"
    s.marks = []
    if s.concealment is not None:
        _canonical_cover(s, enemy)
    return s


def _enemy_mine(field: Minefield) -> Minefield:
    """An enemy minefield as the observer knows it: found, all of it but its place in the
    sealed layout (already opened, 19.1.2); seen to be shelled only, its hex (19.1.6)."""
    if field.revealed:
        return field.model_copy(update={"index": -1})
    return field.model_copy(update={"attack": MINE_MIN, "seal": "", "index": -1, "spared": []})


def _canonical_cover(s: MakState, enemy: str) -> None:
    """The enemy's hidden units under its markers in one fixed way: the hexes with its
    markers in order, the i-th hidden unit (by id) in the i-th, the rest in the first."""
    units = sorted((u for u in s.units if u.side == enemy and hidden(s, u)), key=lambda u: u.id)
    _place(s, enemy, units)


def _place(s: MakState, enemy: str, units: list[UnitState], rng: random.Random | None = None) -> None:
    """Put ``units`` (in this order) under the enemy's markers: one in each marker's hex
    first, then the rest in the first hex (``rng``: in a hex at random); each marker then sits
    on the first unit put in its hex."""
    c = s.concealment
    assert c is not None
    stacks: dict[str, list[str]] = {}
    for m in sorted(m for m, uid in c.markers.items() if uid is not None and owner(m) == enemy):
        stacks.setdefault(s.unit(c.markers[m] or "").hex or "", []).append(m)
    hexes = sorted(stacks)
    if not hexes or not units:
        return
    first: dict[str, str] = {}
    for index, u in enumerate(units):
        where = hexes[index] if index < len(hexes) else (rng.choice(hexes) if rng else hexes[0])
        _cover(s, u, where, blank=rng is None)
        first.setdefault(where, u.id)
    for where, markers in stacks.items():
        for m in markers:
            c.markers[m] = first[where]
    c.hidden = sorted(c.hidden)


def _cover(s: MakState, u: UnitState, where: str | None, *, blank: bool) -> None:
    """Put ``u`` in ``where``, its unseen bookkeeping blanked when ``blank``."""
    u.hex = where
    for name, value in UNSEEN_FIELDS.items() if blank else ():
        setattr(u, name, value.copy() if isinstance(value, dict) else value)


def determinize(observed: MakState, side: str, rng: random.Random) -> MakState:
    """One full game consistent with ``side``'s observation: the enemy's secrets guessed."""
    s = observed.model_copy(deep=True)
    enemy = other(side)
    _guess_mines(s, side, enemy, rng)
    if assignments_secret(s) and enemy in s.air.committed:
        for u in s.units:
            if u.side == enemy and u.status == "aloft" and s.air.duty.get(u.id, "ready") == "ready":
                s.air.duty[u.id] = rng.choice(["ready", "air", "ground"])
    if s.concealment is not None:
        _deal_cover(s, enemy, rng)
    return s


def _guess_mines(s: MakState, side: str, enemy: str, rng: random.Random) -> None:
    """The enemy's scenario points laid again at random near ``side``'s units (19.1.1)."""
    known = sum(f.attack for f in s.mines.values() if f.owner == enemy and f.revealed)
    points = s.mine_points.get(enemy, 0) - known if enemy in s.laid else 0
    if points < MINE_MIN:
        return
    t = Table(s)
    mine = [t.hex(u) for u in s.units if u.side == side and u.on_map and u.hex]
    near = set(mine)
    for _ in range(NEAR):
        near |= {n for h in near for n in t.field.around(h) if t.field.contains(n)}
    free = sorted(t.label(h) for h in near - set(mine) if t.label(h) not in s.mines)
    while points >= MINE_MIN and free:
        attack = rng.randint(MINE_MIN, min(MINE_MAX, points))
        label = free.pop(rng.randrange(len(free)))
        s.mines[label] = Minefield(owner=enemy, attack=attack)  # type: ignore[arg-type]
        points -= attack


def _deal_cover(s: MakState, enemy: str, rng: random.Random) -> None:
    """The enemy's hidden units dealt out under its markers again, at random."""
    units = sorted((u for u in s.units if u.side == enemy and hidden(s, u)), key=lambda u: u.id)
    rng.shuffle(units)
    _place(s, enemy, units, rng)


__all__ = ["observe", "determinize"]
