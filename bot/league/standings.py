"""A league's table: its rows ranked, as a picture (``render/standings.py``) and as plain
text for screen readers, and the season's records (longest game, biggest upset)."""

from __future__ import annotations

from pydantic import BaseModel

from bot.league.records import OVERALL, League, Member, Pairing, Rating, Result
from render.standings import StandingRow, StandingsView


class Line(BaseModel):
    """One player's place in a pool: their member row, their rating row and their byes."""

    member: Member
    rating: Rating
    byes: int = 0

    @property
    def points(self) -> float:
        """League points: 1 a win, ½ a draw, 1 a bye (the club rule: sitting a round out
        through no fault of one's own costs nothing)."""
        return self.rating.points + self.byes


def byes_in(pairings: list[Pairing], pool: str = OVERALL) -> dict[str, int]:
    """Each player's byes of the rounds a pool counts (every round, or its system's)."""
    out: dict[str, int] = {}
    for p in pairings:
        if p.second_id is None and pool in (OVERALL, p.system):
            out[p.first_id] = out.get(p.first_id, 0) + 1
    return out


def ranked(members: list[Member], rows: list[Rating], pool: str = OVERALL,
           byes: dict[str, int] | None = None) -> list[Line]:
    """The members present, best first: league points (:attr:`Line.points`), then the
    conservative rating (``mu - 3 sigma``), then name."""
    by_user = {r.user_id: r for r in rows if r.pool == pool}
    lines = [Line(member=m, rating=by_user.get(m.user_id) or Rating(pool=pool, user_id=m.user_id),
                  byes=(byes or {}).get(m.user_id, 0)) for m in members]
    return sorted(lines, key=lambda ln: (-ln.points, -ln.rating.figure.ordinal, ln.member.user_name))


def byes_line(lines: list[Line]) -> list[str]:
    """``Byes (a point each): carol, frank.`` when a round had one."""
    names = [f"{ln.member.user_name}{f' ×{ln.byes}' if ln.byes > 1 else ''}" for ln in lines if ln.byes]
    return [f"Byes (a point each): {', '.join(names)}."] if names else []


def records_lines(results: list[Result]) -> list[str]:
    """The season's records: its longest game (in steps) and its biggest upset (the win the
    model gave the least chance to)."""
    if not results:
        return []
    out = []
    longest = max(results, key=lambda r: (r.steps, -r.id))
    turns = f" ({longest.turns} turn{'s' if longest.turns != 1 else ''})" if longest.turns else ""
    out.append(f"Longest game: #{longest.game_id} {longest.system}, {_names(longest)}, {longest.steps} steps{turns}")
    # An upset is a win the model gave less than even odds (the first games of a season,
    # between equal newcomers, are not).
    upsets = [r for r in results if r.expected is not None and r.expected < 0.5 and r.winner_id is not None]
    if upsets:
        upset = min(upsets, key=lambda r: (r.expected or 0.0, r.id))
        winner = next(p.user_name for p in upset.players if p.user_id == upset.winner_id)
        loser = next(p.user_name for p in upset.players if p.user_id != upset.winner_id)
        out.append(f"Biggest upset: #{upset.game_id} {upset.system}, {winner} beat {loser}"
                   f" ({upset.expected or 0.0:.0%} to win)")
    return out


def _names(result: Result) -> str:
    return " v ".join(p.user_name for p in result.players)


def pool_words(league: League, pool: str) -> str:
    """``every system (rr, skirmish)`` or ``rr only``."""
    return f"every system ({', '.join(league.systems)})" if pool == OVERALL else f"{pool} only"


def text_table(league: League, lines: list[Line], pool: str, notes: list[str]) -> str:
    """The table as sentences a screen reader reads in order (and a phone at 40 columns)."""
    head = f"🏆 {league.name} standings, {pool_words(league, pool)}" + ("" if league.rated else " (unrated)") + ":"
    rows = [
        f"{n}. {ln.member.user_name}: rating {ln.rating.figure.words()}; played {ln.rating.played}, "
        f"won {ln.rating.won}, drawn {ln.rating.drawn}, lost {ln.rating.lost}; "
        f"reliability: {ln.member.reliability_words()}."
        for n, ln in enumerate(lines, 1)
    ]
    return "\n".join([head, *(rows or ["Nobody has joined yet: /league join."]), *notes])


#: The picture's key to its columns.
KEY = "Rating: skill ± uncertainty (OpenSkill). Met: deadlines met of those set. Ab.: games abandoned."


def picture_view(league: League, lines: list[Line], pool: str, subtitle: str, notes: list[str]) -> StandingsView:
    """The table as the picture draws it (reliability in two short columns; the text says it
    in words)."""
    rows = [StandingRow(rank=n, player=ln.member.user_name, rating=ln.rating.figure.words(),
                        played=ln.rating.played, won=ln.rating.won, drawn=ln.rating.drawn, lost=ln.rating.lost,
                        deadlines=ln.member.deadlines_short(), abandoned=ln.member.abandoned)
            for n, ln in enumerate(lines, 1)]
    final = league.status == "closed" or "final" in subtitle
    return StandingsView(title=f"{league.name}: {'final ' if final else ''}standings", subtitle=subtitle, rows=rows,
                         notes=[*notes, KEY])


__all__ = ["Line", "byes_in", "byes_line", "picture_view", "pool_words", "ranked", "records_lines", "text_table"]
