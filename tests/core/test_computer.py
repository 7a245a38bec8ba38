"""The computer player of the kit (issue 43, ``rules/core/computer.py``): one engine for every
system, deterministic for a seed, legal, and blind to what its side may not see.

A few short games only (the strength runs are ``tools/strength.py``'s, not the suite's).
"""

from __future__ import annotations

import argparse
import random

import pytest

from rules.core import registry
from rules.core.computer import BUDGETS, Budget, Search, candidates, think
from rules.core.dice import SeededDice
from rules.core.matches import play_match
from rules.mak.observe import determinize, observe

SYSTEMS = ["rr", "raiders", "commando", "skirmish", "mak"]
#: A budget small enough for the suite: the engine's paths, not its strength.
TINY = Budget(iterations=6, cpu_seconds=60, rollout=3)


def opening(key: str, scenario: str | None = None):  # type: ignore[no-untyped-def]
    system = registry.get(key)
    hints = system.playout_hints
    chosen = scenario or (hints.scenarios or system.scenarios)[0]
    return system, system.setup(chosen, dict(hints.options), SeededDice(b"computer")).state


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_same_seed_and_observation_give_the_same_order(key: str) -> None:
    system, state = opening(key)
    side = system.waiting_on(state)[0]
    seen = system.observe(state, side)
    first = think(system, seen, side, "seed-1", TINY)
    again = think(system, system.load_state(seen.model_dump_json()), side, "seed-1", TINY)
    assert (first.path, first.action) == (again.path, again.action)
    assert first.iterations == TINY.iterations or len(candidates(system, seen, side)) == 1
    # What it chose is one of the orders the rules offer the side now.
    assert system.parse(first.path, first.action) in candidates(system, state, side)


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_short_game_against_the_random_player_has_no_illegal_order(key: str) -> None:
    system = registry.get(key)
    side = system.sides[-1]
    game = play_match(system, 3, {side: "easy"}, max_orders=16)
    assert game.illegal == 0
    assert game.thoughts and all(t.side == side for t in game.thoughts)
    assert all(0.0 <= v <= 1.0 for v in game.scores.values())


def test_raiders_is_played_to_its_end_by_the_computer() -> None:
    """The solitaire side: the hostiles stay rule-driven, the computer plays the raiders."""
    system = registry.get("raiders")
    game = play_match(system, 1, {"raiders": "easy"})
    assert game.finished and game.illegal == 0
    assert game.scores["raiders"] in (0.0, 1.0)  # 25.3: the campaign won or lost


def test_a_final_state_is_a_win_a_loss_or_a_draw() -> None:
    system = registry.get("commando")
    game = play_match(system, 5, {})  # both random, to the end (turns=3)
    assert game.finished
    values = sorted(game.scores.values())
    assert values in ([0.0, 1.0], [0.5, 0.5])


def test_the_levels_grow_by_budget() -> None:
    assert BUDGETS["easy"].iterations < BUDGETS["normal"].iterations < BUDGETS["hard"].iterations
    assert BUDGETS["normal"].cpu_seconds == 2.0 and BUDGETS["hard"].cpu_seconds == 10.0  # issue 43's targets


def test_a_system_without_secrets_is_observed_as_it_is() -> None:
    system, state = opening("rr")
    assert system.observe(state, "soviet") is state
    assert system.determinize(state, "soviet", random.Random(1)) is state


def test_an_enemy_minefield_is_not_in_the_observation() -> None:
    """19.1.1: the Strahl's minefields are unknown to the Mercenaries until found; two
    layouts give the Mercenaries one observation, and the guess lays the Strahl's points."""
    mak, state = opening("mak", "minefields")
    laid = []
    for fields in ('5:0827=13 5:0620=9 5:0621=8', '5:0720=6'):
        s = state
        for side, order in (("merc", 'mines lay fields:"5:0815=10 5:0816=10"'), ("strahl", f'mines lay fields:"{fields}"')):
            action = mak.parse(order.split(" fields:")[0], {"fields": order.split("fields:")[1].strip('"')})
            s = mak.apply(s, side, action, SeededDice(b"m")).state
        laid.append(s)
    a, b = (observe(s, "merc") for s in laid)
    assert a.model_dump_json() == b.model_dump_json()
    assert not any(f.owner == "strahl" for f in a.mines.values())
    assert {h for h, f in a.mines.items() if f.owner == "merc"} == {"5:0815", "5:0816"}  # its own it knows
    guessed = determinize(a, "merc", random.Random(4))
    strahl = [f for f in guessed.mines.values() if f.owner == "strahl"]
    assert strahl and sum(f.attack for f in strahl) <= guessed.mine_points["strahl"]
    assert not any(guessed.mines.get(u.hex or "") for u in guessed.units if u.side == "merc")


def test_a_found_enemy_minefield_does_not_tell_where_it_stood_in_the_layout() -> None:
    """19.1.2: a found minefield is known to both, its power too; its place in the sealed
    layout is not (index 1 of "5:0720=6 5:0827=13" said another minefield came first, issue
    45), nor the order the game met the minefields in."""
    mak, state = opening("mak", "minefields")
    seen = []
    for fields in ('5:0720=6 5:0827=13', '5:0827=13'):
        s = state
        for side, laid in (("merc", "5:0815=10 5:0816=10"), ("strahl", fields)):
            s = mak.apply(s, side, mak.parse("mines lay", {"fields": laid}), SeededDice(b"m")).state
        s.mines["5:0827"].revealed = True  # as an AFS entering it would find it (19.1.2)
        seen.append(observe(s, "merc"))
    assert seen[0].model_dump_json() == seen[1].model_dump_json()
    found = seen[0].mines["5:0827"]
    assert (found.owner, found.attack, found.seal, found.index) == ("strahl", 13, "mines:strahl", -1)
    assert list(seen[0].mines) == sorted(seen[0].mines)


def test_an_iteration_is_begun_only_if_one_as_long_as_the_mean_still_fits_the_cap() -> None:
    """The CPU cap is checked between iterations: three iterations in 1.5 s of a 2 s cap
    leave no room for a fourth (it would end about 2.0 s); four in 1.0 s leave room."""
    system, state = opening("rr")
    search = Search(system, state, "nato", "cap", Budget(iterations=100, cpu_seconds=2.0, rollout=1))
    assert not search.may_go_on(1.5, 3)
    assert search.may_go_on(1.0, 4)
    assert search.may_go_on(0.0, 0)


def test_balance_rows_play_both_sides_alike() -> None:
    """``tools/strength.py --balance``: both sides at one level, the first side's record;
    a solitaire system (Raiders) has no balance to read."""
    from tools import strength  # noqa: PLC0415 - a tool, not the package

    assert strength.balance_rows("rr", ["random", "easy"]) == [
        ("rr", "nato", "random", "random"), ("rr", "nato", "easy", "easy")]
    assert strength.balance_rows("raiders", ["random"]) == []
    opts = argparse.Namespace(systems="skirmish,raiders", balance="random", against="random,easy",
                                       level="normal", sides="")
    assert strength.rows_of(opts) == [("skirmish", "us", "random", "random")]
    with pytest.raises(SystemExit):  # a level that does not exist is refused before any game
        strength.main(["--balance", "random,strong", "--systems", "rr", "--games", "1"])
