"""Who plays whom in a round (pure): round robin by the circle method, or Swiss.

Swiss (the usual club rule): players ranked by league points (a bye scores one), then by
rating, are paired top down with the nearest player they have not met yet (backtracking
when a later player would be left with nobody new); with an odd number the lowest ranked
player who has not had a bye sits this round out.  In each pairing the player who has taken the first side less
often takes it (the first named), so sides even out over a season.
"""

from __future__ import annotations

from collections.abc import Sequence

Pair = tuple[str, str | None]


def round_robin(players: Sequence[str], round_no: int) -> list[Pair]:
    """Round ``round_no`` (1 is the first) of a round robin of ``players`` (circle method:
    the first stays, the others turn; with an odd number one sits out each round)."""
    ring: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    if n < 2:
        return []
    turn = (round_no - 1) % (n - 1)
    rest = ring[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [ring[0], *rest]
    pairs: list[Pair] = []
    for k in range(n // 2):
        a, b = ring[k], ring[n - 1 - k]
        if a is None or b is None:
            pairs.append((str(a if a is not None else b), None))
        else:
            pairs.append((a, b) if (round_no + k) % 2 else (b, a))
    return pairs


def swiss(ranked: Sequence[str], met: set[frozenset[str]], byes: set[str]) -> list[Pair]:
    """A Swiss round of ``ranked`` (best first): rematches avoided while any pairing avoids
    them (else the fewest), a bye to the lowest ranked player without one."""
    players = list(ranked)
    out: list[Pair] = []
    if len(players) % 2:
        sitting = next((p for p in reversed(players) if p not in byes), players[-1])
        players.remove(sitting)
        out.append((sitting, None))
    for allow in (False, True):
        found = _pair(players, met, allow)
        if found is not None:
            return [*found, *out]
    raise AssertionError("an even number of players always pairs when rematches are allowed")


def _pair(players: list[str], met: set[frozenset[str]], rematch: bool) -> list[Pair] | None:
    """Pair ``players`` top down (backtracking); None when it cannot be done without a rematch."""
    if not players:
        return []
    top, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        if not rematch and frozenset((top, other)) in met:
            continue
        below = _pair(rest[:k] + rest[k + 1:], met, rematch)
        if below is not None:
            return [(top, other), *below]
    return None


def sides_evened(pairs: list[Pair], firsts: dict[str, int]) -> list[Pair]:
    """Each pairing with the player who took the first side less often named first."""
    return [(b, a) if b is not None and firsts.get(b, 0) < firsts.get(a, 0) else (a, b) for a, b in pairs]


__all__ = ["Pair", "round_robin", "sides_evened", "swiss"]
