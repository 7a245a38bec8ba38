"""Who plays whom (issue 44, ``bot/league/pairing.py``): a round robin meets everyone once,
a bye going round with an odd number; Swiss avoids rematches while any pairing does, gives
the bye to the lowest ranked player without one, and sides even out."""

from __future__ import annotations

import itertools

import pytest

from bot.league.pairing import round_robin, sides_evened, swiss

SIX = ["a", "b", "c", "d", "e", "f"]


@pytest.mark.parametrize("players", [SIX, SIX[:5], SIX[:2]])
def test_a_round_robin_meets_everyone_once(players: list[str]) -> None:
    rounds = len(players) - 1 if len(players) % 2 == 0 else len(players)
    met: list[frozenset[str]] = []
    byes: list[str] = []
    for round_no in range(1, rounds + 1):
        pairs = round_robin(players, round_no)
        seen = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seen) == sorted(players)  # everyone once a round
        met += [frozenset((a, b)) for a, b in pairs if b is not None]
        byes += [a for a, b in pairs if b is None]
    assert sorted(met, key=sorted) == sorted(map(frozenset, itertools.combinations(players, 2)), key=sorted)
    assert sorted(byes) == (sorted(players) if len(players) % 2 else [])
    # The next cycle meets in round 1's pairs again.
    def pairs_of(round_no: int) -> set[frozenset[str | None]]:
        return {frozenset(pair) for pair in round_robin(players, round_no)}
    assert pairs_of(rounds + 1) == pairs_of(1)


def test_swiss_pairs_the_nearest_not_yet_met_and_backtracks() -> None:
    assert swiss(SIX, set(), set()) == [("a", "b"), ("c", "d"), ("e", "f")]
    # a met b and c met d: a takes the nearest new one, c; b then d.
    met = {frozenset("ab"), frozenset("cd")}
    assert swiss(SIX, met, set()) == [("a", "c"), ("b", "d"), ("e", "f")]
    # e and f met: the top-down choice a-b, c-d would leave e-f a rematch; it backtracks.
    assert swiss(SIX, {frozenset("ef")}, set()) == [("a", "b"), ("c", "e"), ("d", "f")]


def test_swiss_allows_a_rematch_only_when_none_avoids_it() -> None:
    everyone = set(map(frozenset, itertools.combinations("abcd", 2))) - {frozenset("ad"), frozenset("bc")}
    assert swiss(list("abcd"), everyone, set()) == [("a", "d"), ("b", "c")]
    all_met = set(map(frozenset, itertools.combinations("abcd", 2)))
    assert swiss(list("abcd"), all_met, set()) == [("a", "b"), ("c", "d")]  # no way out: the fewest


def test_swiss_gives_the_bye_to_the_lowest_without_one() -> None:
    assert swiss(SIX[:5], set(), set())[-1] == ("e", None)
    assert swiss(SIX[:5], set(), {"e"})[-1] == ("d", None)
    assert swiss(SIX[:5], set(), set(SIX[:5]))[-1] == ("e", None)  # all had one: the lowest again


def test_the_player_with_fewer_first_sides_takes_the_first() -> None:
    assert sides_evened([("a", "b"), ("c", "d"), ("e", None)], {"a": 2, "b": 1, "c": 1, "d": 1}) == [
        ("b", "a"), ("c", "d"), ("e", None)]
