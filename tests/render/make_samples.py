"""Write the fixtures' sample snapshots: ``python -m tests.render.make_samples``.

The hand-built fixtures of each geometry (the systems' own pictures are written by
``tools/gallery.py``); the helpers below give the tests real engine views (Tannenbruck
played, a Raiders battle, St Nazaire played).  Each picture is written twice: the full
map (``stem.png``) and the phone-width focus picture posted after an order
(``stem-phone.png``, at most 750 px wide, read inline at about 400 px).
"""

from __future__ import annotations

import functools
from pathlib import Path

from render import focus, snapshot
from tests.render.fixtures import area_view, network_view, table_view

OUT = Path(__file__).resolve().parents[2] / "docs" / "img"


def views() -> dict[str, object]:
    """The views to write, by file stem."""
    # The systems' own pictures are the docs gallery's (tools/gallery.py); these are the
    # hand-built fixtures every geometry's tests draw.
    return {"areamap-sample": area_view(), "network-sample": network_view(),
            "table-sample": table_view()}


def played_tannenbruck() -> object:
    """The engine's own view a few impulses into a seeded game, just after an assault.

    Orders are picked from the engine's legal orders by a seeded random choice (fire and
    assault preferred), so the picture is the same every time.
    """
    import random

    from rules.core.errors import RuleError
    from tests.render.real import engine_game

    from rules.core.views import changes_between

    system, state, dice = engine_game(b"readme")
    rng = random.Random(5)
    seen = [state]
    for _ in range(80):
        who = state.pending[0].side if state.pending else state.active
        orders = system.legal_actions(state, who)
        strong = [a for a in orders if a.name in ("fire", "assault")] if rng.random() < 0.6 else []
        pick = strong or [a for a in orders if a.name in ("move", "fire", "assault", "take-hits",
                                                          "retreat", "route", "place", "enter")]
        if not pick:
            break
        order = rng.choice(pick)
        try:
            state = system.apply(state, who, order, dice).state
        except RuleError:
            continue
        seen.append(state)
        if order.name == "assault" and state.turn >= 2:
            break
    # What changed over the last six orders is marked, as on the picture that pings a player.
    view = system.view(state)
    return view.model_copy(update={"changes": changes_between(system.view(seen[max(0, len(seen) - 7)]), view)})


def main() -> None:
    """Render each view and write it as PNG: the full picture and the phone-width one."""
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, view in views().items():
        for suffix, render in (("", snapshot), ("-phone", focus)):
            shot = render(view)  # type: ignore[operator]
            path = OUT / f"{stem}{suffix}.png"
            path.write_bytes(shot.png)
            print(f"{path} {shot.width}x{shot.height} {len(shot.png) // 1024} kB")


def commando_played() -> object:
    """The Commando engine's own view a few actions into a seeded St Nazaire raid, with the
    side's measured moves on the table (played once per process; each caller gets a copy)."""
    return _commando_played().model_copy(deep=True)  # type: ignore[attr-defined]


@functools.cache
def _commando_played() -> object:
    """:func:`commando_played`, played (a few seconds of legal-order search)."""
    import random

    from rules.commando.system import CommandoRaid
    from rules.core.dice import SeededDice
    from rules.core.errors import RuleError

    system = CommandoRaid()
    dice = SeededDice(b"commando-sample")
    state = system.setup("st_nazaire", {}, dice).state
    rng = random.Random(4)
    for _ in range(200):
        waiting = system.waiting_on(state)
        if not waiting:
            break
        who = waiting[0]
        orders = system.legal_actions(state, who)
        pick = [a for a in orders if a.name in ("move", "shoot", "assault")] or orders
        try:
            state = system.apply(state, who, rng.choice(pick), dice).state
        except RuleError:
            continue
        if len(state.marks) >= 3:  # type: ignore[attr-defined]
            break
    return system.view(state)



def raiders_battle() -> object:
    """The Raiders engine's own view in a battle round of a seeded campaign.

    Orders come from the engine's legal orders by a seeded random choice; the picture is
    the second battle round reached (or the last view if none is).
    """
    import random

    from rules.core.dice import SeededDice
    from rules.core.errors import RuleError
    from rules.raiders.system import RaidersSystem

    system = RaidersSystem()
    dice = SeededDice(b"raid")
    state = system.setup("desert", {}, dice).state
    rng = random.Random(2)
    rounds = 0
    for _ in range(400):
        waiting = system.waiting_on(state)
        who = waiting[0] if waiting else "raiders"
        orders = system.legal_actions(state, who)
        if not orders:
            break
        pick = [a for a in orders if a.name in ("fire", "line", "accept", "move", "begin",
                                                 "recruit")] or orders
        try:
            state = system.apply(state, who, rng.choice(pick), dice).state
        except RuleError:
            continue
        view = system.view(state)
        if view.battle is not None and view.battle.shots:
            rounds += 1
            if rounds == 2:
                return view
    return system.view(state)


if __name__ == "__main__":
    main()
