"""What a league allows and how it counts (issue 44): who may do what, a sentence for bad
input, the four outcomes, an unrated game with a computer seat, a game a moderator ended
early never counted, ``/league record`` of a game played outside the schedule."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot.config import Settings
from bot.league import history, records
from bot.league.deadlines import Kept, sides_of, tally
from bot.league.outcomes import Ended, ended_by
from bot.league.ratings import Figure
from bot.league.records import Player, Rating, Result
from bot.league.standings import records_lines
from bot.league.scoring import count
from bot.service import Service
from rules.core import registry
from rules.core.dice import SeededDice
from tests.league.season import inv
from rules.core.contract import Outcome
from tests.platform.duel import Duel, DuelState


@pytest.fixture
async def svc(tmp_path: Path):
    service = await Service.open(Settings(db=str(tmp_path / "rules.sqlite3"), html_at_end=False))
    yield service
    await service.close()


async def run(svc: Service, who: str, command: list[str], options: dict | None = None, *,
              channel: str = "lobby", moderator: bool = False):
    return await svc.handle(inv(who, channel, command, options, moderator=moderator))


async def league_of_two(svc: Service) -> records.League:
    assert not (await run(svc, "mo", ["league", "new"], {"name": "Club", "systems": "rr,skirmish"},
                          moderator=True)).error
    for who in ("alice", "bob"):
        assert not (await run(svc, who, ["league", "join"])).error
    return (await records.leagues(svc.store, "console"))[0]


async def test_only_a_moderator_creates_schedules_and_closes(svc: Service) -> None:
    refused = await run(svc, "alice", ["league", "new"], {"name": "Mine", "systems": "rr"})
    assert refused.error and refused.ephemeral and "Only a moderator may start a league" in refused.text
    await league_of_two(svc)
    for sub in ("schedule", "close"):
        reply = await run(svc, "alice", ["league", sub])
        assert reply.error and f"Only a moderator may {sub} a league" in reply.text
    assert len(await records.pairings(svc.store, 1)) == 0 and (await records.league(svc.store, 1)).status == "open"


@pytest.mark.parametrize("command, options, said", [
    (["league", "new"], {"name": "Club", "systems": "rr"}, "already has an open league 'Club'"),
    (["league", "new"], {"name": "Other", "systems": "raiders"}, "A league plays two-player systems"),
    # Mak's rules do not name a winner (its outcome is a sentence only): every game would be a draw.
    (["league", "new"], {"name": "Other", "systems": "rr,mak"},
     "A league plays two-player systems whose rules name the winner: rr, skirmish; not mak"),
    (["league", "new"], {"name": "??", "systems": "rr"}, "A league's name is 1 to 40 letters"),
    (["league", "join"], {"league": "Nope"}, "This server has no open league 'Nope'; open leagues: Club."),
    (["league", "standings"], {"system": "mak"}, "Club plays rr, skirmish; system: is one of them."),
    (["league", "record"], {"game": 99}, "There is no game #99."),
    (["league", "player"], {"user": "zed"}, "@zed has never played in Club."),
])
async def test_bad_input_gets_a_sentence_and_changes_nothing(svc: Service, command: list[str], options: dict,
                                                             said: str) -> None:
    await league_of_two(svc)
    reply = await run(svc, "mo", command, options, moderator=True)
    assert reply.error and said in reply.text
    assert len(await records.leagues(svc.store, "console", status=None)) == 1


async def test_a_player_joins_and_leaves_only_themself(svc: Service) -> None:
    league = await league_of_two(svc)
    again = await run(svc, "alice", ["league", "join"])
    assert again.error and "You already play in Club" in again.text
    gone = await run(svc, "carol", ["league", "leave"])
    assert gone.error and "You do not play in Club" in gone.text
    assert not (await run(svc, "bob", ["league", "leave"])).error
    assert [m.user_id for m in await records.members(svc.store, league.id)] == ["alice"]
    assert not (await run(svc, "alice", ["league", "leave"])).error
    alone = await run(svc, "carol", ["league", "join"])
    assert "@carol joins Club (1 player)." in alone.text, alone.text


def test_the_four_outcomes_are_told_apart() -> None:
    skirmish = registry.get("skirmish")
    state = skirmish.setup(skirmish.scenarios[0], {}, SeededDice(b"draw")).state
    assert ended_by(skirmish, state, {}) is None  # not over: ended early, never counted
    over = state.model_copy(update={"finished": True, "winner": None, "result_text": "Last turn over: a draw."})
    assert ended_by(skirmish, over, {}) == Ended(kind="draw", winner=None, text="Last turn over: a draw.")
    won = over.model_copy(update={"winner": "us", "result_text": "Germans have no unit left: Americans win."})
    assert ended_by(skirmish, won, {}).kind == "win"
    assert ended_by(skirmish, state, {"ending": "concede", "side": "us"}).winner == "germans"
    assert ended_by(skirmish, state, {"ending": "forfeit", "side": "germans"}).kind == "deadline"


def test_a_draw_moves_both_towards_each_other_and_a_computer_seat_rates_nothing() -> None:
    strong, weak = Figure(mu=30.0, sigma=4.0), Figure(mu=20.0, sigma=4.0)
    before = {(pool, u): Rating(pool=pool, user_id=u, figure=f) for pool in ("rr", "*")
              for u, f in (("a", strong), ("b", weak))}
    players = [Player(side="nato", user_id="a", user_name="a"), Player(side="soviet", user_id="b", user_name="b")]
    drawn = count(Ended(kind="draw", winner=None, text="a draw"), players, before, "rr", True)
    after = {(r.pool, r.user_id): r for r in drawn.after}
    assert after[("rr", "a")].figure.mu < 30.0 < after[("rr", "a")].figure.mu + 10  # the favourite drops
    assert after[("rr", "b")].figure.mu > 20.0 and after[("rr", "a")].drawn == 1
    robot = [players[0], Player(side="soviet", user_id="computer:1", user_name="computer", computer=True)]
    lone = {k: v for k, v in before.items() if k[1] == "a"}
    unrated = count(Ended(kind="win", winner="nato", text="won"), robot, lone, "rr", True)
    assert unrated.figures == {} and all(r.figure == strong and r.won == 1 for r in unrated.after)


async def test_a_game_outside_the_schedule_is_recorded_once_if_it_ended_by_the_rules(svc: Service) -> None:
    league = await league_of_two(svc)
    assert not (await run(svc, "alice", ["game", "new"], {"system": "rr"}, channel="side-room")).error
    assert not (await run(svc, "alice", ["game", "join"], {"side": "nato"}, channel="side-room")).error
    assert not (await run(svc, "bob", ["game", "join"], {"side": "soviet"}, channel="side-room")).error
    early = await run(svc, "alice", ["league", "record"], {"game": 1})
    assert early.error and "has not ended" in early.text
    assert not (await run(svc, "bob", ["game", "concede"], channel="side-room")).error
    stranger = await run(svc, "carol", ["league", "record"], {"game": 1})
    assert stranger.error and "Only a player of game #1 or a moderator" in stranger.text
    counted = await run(svc, "alice", ["league", "record"], {"game": 1})
    assert not counted.error and "counted as a concession" in counted.text, counted.text
    twice = await run(svc, "alice", ["league", "record"], {"game": 1})
    assert twice.error and "already counted" in twice.text
    # A game a moderator ends before the rules do never counts.
    assert not (await run(svc, "alice", ["game", "new"], {"system": "rr"}, channel="side-room")).error
    assert not (await run(svc, "mo", ["game", "end"], channel="side-room", moderator=True)).error
    ended = await run(svc, "mo", ["league", "record"], {"game": 2}, moderator=True)
    assert ended.error and "ended by a moderator before the rules ended it" in ended.text
    assert [r.game_id for r in await records.results(svc.store, league.id)] == [1]


async def test_a_league_game_a_moderator_ends_early_is_abandoned_not_counted(svc: Service) -> None:
    league = await league_of_two(svc)
    sched = await run(svc, "mo", ["league", "schedule"], moderator=True)
    opened = await svc.open_pairing(sched.threads[0], "t1", None)
    assert not opened.error
    again = await run(svc, "mo", ["league", "schedule"], moderator=True)
    assert again.error and "Round 1 is still being played" in again.text
    ended = await run(svc, "mo", ["game", "end"], channel="t1", moderator=True)
    assert "not counted (ended before the rules ended it); abandoned by alice" in ended.text
    [pairing] = await records.pairings(svc.store, league.id)
    assert pairing.state == "abandoned" and await records.results(svc.store, league.id) == []
    members = {m.user_id: m for m in await records.members(svc.store, league.id)}
    assert members["alice"].abandoned == 1 and members["bob"].abandoned == 0


async def test_a_rating_moved_meanwhile_reruns_the_end_and_nothing_is_written_twice(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """The count is in the end's own transaction, guarded by each rating row's version: a
    game ending elsewhere between the read and the write (simulated: the versions bumped
    once, right after the read) voids the whole commit, the end is run again on the new
    figures, and the game is ended and counted once."""
    league = await league_of_two(svc)
    sched = await run(svc, "mo", ["league", "schedule"], moderator=True)
    assert not (await svc.open_pairing(sched.threads[0], "t1", None)).error
    real = records.ratings
    bumped: list[int] = []

    async def read_then_bump(store, league_id, pool=None):  # type: ignore[no-untyped-def]
        rows = await real(store, league_id, pool)
        if not bumped:
            async with store.transaction() as db:
                db.execute("UPDATE league_ratings SET version = version + 1 WHERE league_id = ?", (league_id,))
            bumped.append(1)
        return rows

    monkeypatch.setattr("bot.league.ending.records.ratings", read_then_bump)
    game = await svc.games.require("t1")
    loser = game.holder(game.system.waiting_on(game.state)[0])
    ended = await run(svc, loser.user_id, ["game", "concede"], channel="t1")
    assert not ended.error and "counted as a concession" in ended.text, ended.text
    assert bumped == [1]
    assert len(await records.results(svc.store, league.id)) == 1
    rows = await real(svc.store, league.id, "rr")
    assert {r.version for r in rows} == {2} and {r.played for r in rows} == {1}
    ends = [a for a in await svc.store.audit(game.row.id) if a.action == "end"]
    assert len(ends) == 1


def test_a_turn_parts_deadline_is_met_missed_or_not_counted() -> None:
    """Reliability counts deadlines (issue 44): each turn-part's notices say it — one told
    as passed, or one past due at the end, is missed; one dropped as the game moved on is
    met; one still ahead at the end is met only if the rules ended the game; a deadline set
    again (``/mod extend``) counts once, by its last notice."""
    now = datetime(2026, 12, 1, 12, tzinfo=timezone.utc)
    hour = timedelta(hours=1)
    nato, soviet, both = ('3|[["nato"], "setup"]', '5|[["soviet"], "setup"]', '9|[["nato", "soviet"], "air"]')
    notices = [(nato, "dropped", now - 9 * hour), (nato, "dropped", now - 5 * hour),  # extended, then met
               (soviet, "sent", now - 4 * hour),                                    # passed: missed
               (both, "due", now + hour)]                                           # ahead at the end
    assert tally(notices, now, by_the_rules=True) == {"nato": Kept(met=2), "soviet": Kept(met=1, missed=1)}
    assert tally(notices, now, by_the_rules=False) == {"nato": Kept(met=1), "soviet": Kept(missed=1)}
    late = [(both, "due", now - hour)]  # past due, not told yet (a forfeit is ruled on it)
    assert tally(late, now, by_the_rules=True) == {"nato": Kept(missed=1), "soviet": Kept(missed=1)}
    assert sides_of("a key of another kind") == [] and tally([("x", "sent", now)], now, by_the_rules=True) == {}


async def test_a_game_the_computer_played_a_side_of_for_a_while_is_unrated(svc: Service) -> None:
    """Unrated even when a human holds every seat at its end: the seat history says the
    computer (issue 43's ``computer:<level>:<side>`` seat) played soviet for a while."""
    league = await league_of_two(svc)
    assert not (await run(svc, "alice", ["game", "new"], {"system": "rr"}, channel="side-room")).error
    assert not (await run(svc, "alice", ["game", "join"], {"side": "nato"}, channel="side-room")).error
    robot = "computer:normal:soviet"
    assert not (await run(svc, robot, ["game", "join"], {"side": "soviet"}, channel="side-room")).error
    assert not (await run(svc, robot, ["game", "leave"], channel="side-room")).error
    assert not (await run(svc, "bob", ["game", "join"], {"side": "soviet"}, channel="side-room")).error
    assert not (await run(svc, "bob", ["game", "concede"], channel="side-room")).error
    counted = await run(svc, "alice", ["league", "record"], {"game": 1})
    assert not counted.error and "a computer seat: unrated" in counted.text, counted.text
    [result] = await records.results(svc.store, league.id)
    assert not result.rated and result.ratings == {}
    rows = await records.ratings(svc.store, league.id, "rr")
    assert all(r.figure == Figure() for r in rows)  # no figure moved
    assert {(r.user_id, r.played, r.won) for r in rows} == {("alice", 1, 1), ("bob", 1, 0)}
    again = await history.recompute(svc.store, league)  # the seat history read from the log
    assert again.problems == [] and again.figures() == await history.stored(svc.store, league)


class Race(Duel):
    """The test system's dice race, its winner named (a league counts only such systems)."""

    key = "race"
    title = "Race"

    def outcome(self, state: DuelState) -> Outcome | None:
        """The first side at the target score wins."""
        text = self.result(state)
        return None if text is None else Outcome(winner=text.split()[0], termination=text)


@pytest.fixture
def race() -> Iterator[Race]:
    """The race registered for one test (a game ends in a few orders)."""
    system = registry.register(Race())
    yield system  # type: ignore[misc]
    registry.unregister(system.key)


async def test_a_league_game_over_by_the_rules_is_named_until_it_is_ended(tmp_path: Path, race: Race) -> None:
    """The rules ended the game but nobody typed /game end: the round is still being played,
    and the moderator is told which game and what counts it; /game end counts it."""
    service = await Service.open(Settings(db=str(tmp_path / "duel.sqlite3"), html_at_end=False))
    try:
        assert not (await run(service, "mo", ["league", "new"], {"name": "Race", "systems": "race"},
                              moderator=True)).error
        for who in ("alice", "bob"):
            assert not (await run(service, who, ["league", "join"])).error
        sched = await run(service, "mo", ["league", "schedule"], moderator=True)
        assert not (await service.open_pairing(sched.threads[0], "t1", None)).error
        game = await service.games.require("t1")
        while game.system.result(game.state) is None:
            holder = game.holder(game.system.waiting_on(game.state)[0])
            assert holder is not None
            assert not (await run(service, holder.user_id, ["race", "roll"], channel="t1")).error
            game = await service.games.require("t1")
        waiting = await run(service, "mo", ["league", "schedule"], moderator=True)
        assert waiting.error and "(over by the rules: /game end in its thread counts it)" in waiting.text
        closing = await run(service, "mo", ["league", "close"], moderator=True)
        assert closing.error and "over by the rules" in closing.text
        ended = await run(service, "alice", ["game", "end"], channel="t1")
        assert "League Race: counted as a win" in ended.text, ended.text
        assert not (await run(service, "mo", ["league", "close"], moderator=True)).error
    finally:
        await service.close()


async def test_a_bye_scores_a_point_and_is_said(svc: Service) -> None:
    """Three players: the lowest sits round 1 out, scores a point for it (the club rule)
    and is named in the table; round 2's Swiss pairs by those points, the bye going to
    someone else."""
    league = await league_of_two(svc)
    assert not (await run(svc, "carol", ["league", "join"])).error
    first = await run(svc, "mo", ["league", "schedule"], moderator=True)
    assert "carol: a bye this round." in first.text, first.text
    assert not (await svc.open_pairing(first.threads[0], "t1", None)).error
    game = await svc.games.require("t1")
    loser = game.holder(game.system.waiting_on(game.state)[0])
    assert not (await run(svc, loser.user_id, ["game", "concede"], channel="t1")).error
    table = await run(svc, "bob", ["league", "standings"])
    assert "Byes (a point each): carol." in table.text, table.text
    winner = next(u for u in ("alice", "bob") if u != loser.user_id)
    second = await run(svc, "mo", ["league", "schedule"], moderator=True)
    # Round 2: carol (a point, the bye) and the winner (a point) meet; the loser sits out.
    assert f"{loser.user_id}: a bye this round." in second.text, second.text
    [pairing] = [p for p in await records.pairings(svc.store, league.id) if p.round == 2 and p.second_id]
    assert {pairing.first_id, pairing.second_id} == {"carol", winner}


def test_the_seasons_records_are_its_longest_game_and_its_least_expected_win() -> None:
    def result(game: int, steps: int, winner: str | None, expected: float | None) -> Result:
        return Result(id=game, league_id=1, game_id=game, system="rr", outcome="win" if winner else "draw",
                      winner_id=winner, players=[Player(side="nato", user_id="a", user_name="alice"),
                                                 Player(side="soviet", user_id="b", user_name="bob")],
                      rated=True, steps=steps, turns=3, expected=expected)
    season = [result(1, 40, "a", 0.5), result(2, 411, "b", 0.62), result(3, 90, "b", 0.21),
              result(4, 60, "a", 0.35), result(5, 411, None, None)]
    assert records_lines(season) == ["Longest game: #2 rr, alice v bob, 411 steps (3 turns)",
                                     "Biggest upset: #3 rr, bob beat alice (21% to win)"]
    # Between equals (every chance even) there is no upset to name.
    assert records_lines([result(1, 40, "a", 0.5)]) == ["Longest game: #1 rr, alice v bob, 40 steps (3 turns)"]
    assert records_lines([]) == []


async def test_a_game_of_another_server_is_never_recorded(svc: Service) -> None:
    league = await league_of_two(svc)
    for who, command, options in (("alice", ["game", "new"], {"system": "rr"}),
                                  ("alice", ["game", "join"], {"side": "nato"}),
                                  ("bob", ["game", "join"], {"side": "soviet"}), ("bob", ["game", "concede"], {})):
        assert not (await svc.handle(inv(who, "their-room", command, options, guild="another-server"))).error
    refused = await run(svc, "alice", ["league", "record"], {"game": 1})
    assert refused.error and "Game #1 was not played in this server" in refused.text, refused.text
    assert await records.results(svc.store, league.id) == []
