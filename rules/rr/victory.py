"""How to win (12.0): control of area 19 and its ring, plus one of 26/28/29/30, after turn 7."""

from __future__ import annotations

from rules.core import evaluation
from rules.rr.board import Board
from rules.rr.state import RRState, says


def objectives(b: Board) -> list[tuple[str, str, str | None]]:
    """Every objective with its kind ("main"/"secondary") and its controller now."""
    out: list[tuple[str, str, str | None]] = [(a, "main", b.controller(a)) for a in b.ring()]
    out += [(a, "secondary", b.controller(a)) for a in b.sc.secondary_objectives]
    return out


def nato_wins(b: Board) -> bool:
    """12.0: NATO controls 19, every area adjacent to it, and at least one secondary."""
    ring = all(b.controller(a) == "nato" for a in b.ring())
    return ring and any(b.controller(a) == "nato" for a in b.sc.secondary_objectives)


def verdict(b: Board) -> str:
    """The result line after turn 7 (12.0)."""
    secondary = [a for a in b.sc.secondary_objectives if b.controller(a) == "nato"]
    if nato_wins(b):
        return f"NATO wins: controls {b.sc.main_objective}, its ring and {'/'.join(secondary)} (12.0)"
    missing = [a for a in b.ring() if b.controller(a) != "nato"]
    if missing:
        return f"Soviet win: NATO lacks {', '.join(missing)} of the {b.sc.main_objective} ring (12.0)"
    return "Soviet win: NATO holds none of 26/28/29/30 (12.0)"


def objective_lines(b: Board) -> list[str]:
    """Status lines: who controls each objective right now (12.0)."""
    def tag(side: str | None) -> str:
        """A short owner tag for a phone line."""
        return {"nato": "NATO", "soviet": "SOV"}.get(side or "", "—")

    main = " ".join(f"{a}:{tag(c)}" for a, kind, c in objectives(b) if kind == "main")
    second = " ".join(f"{a}:{tag(c)}" for a, kind, c in objectives(b) if kind == "secondary")
    winner = "nato" if nato_wins(b) else "soviet"
    return [f"Main (12.0): {main}", f"Secondary: {second}", f"If it ended now: {says(winner, 'wins', 'win')}"]


def prospects(state: RRState, side: str) -> float:
    """How the game stands for ``side``, 0 to 1, for the computer player (issue 43): after
    turn 7 the verdict of 12.0; before it NATO's share of 12.0's objectives (each ring area,
    one secondary counted as two areas) and of the units still fighting, the Soviets' the
    rest."""
    b = Board(state)
    if state.result is not None:
        return evaluation.final("nato" if nato_wins(b) else "soviet", side)
    ring = b.ring()
    held = sum(b.controller(a) == "nato" for a in ring)
    held += 2 * any(b.controller(a) == "nato" for a in b.sc.secondary_objectives)
    fighting = [u for u in state.units.values() if u.place in ("map", "pool")]
    strength = {s: sum(1.0 if not u.reduced else 0.5 for u in fighting if u.side == s) for s in ("nato", "soviet")}
    forces = strength["nato"] / max(1.0, strength["nato"] + strength["soviet"])
    nato = 0.7 * held / (len(ring) + 2) + 0.3 * forces
    return evaluation.share(nato if side == "nato" else 1.0 - nato, 1.0)
