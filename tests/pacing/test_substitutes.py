"""Substitutes a player names (issue 19, item 3): ``/game sub user:`` offers the side, the
substitute takes it with ``/game accept``; ``/mod seat`` stays the moderator's way."""

from __future__ import annotations

from bot.service import Service
from tests.platform.conftest import Table


async def duel(table: Table) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")


async def test_an_offered_side_is_taken_when_the_substitute_accepts(table: Table, service: Service) -> None:
    await duel(table)
    offer = await table("alice", "/game sub user:carol")
    assert not offer.error and offer.mentions == ["carol"] and "/game accept" in offer.text
    game = await service.games.load(table.channel)
    assert game is not None and game.holder("red").user_id == "alice"  # not yet
    taken = await table("carol", "/game accept")
    assert not taken.error and "@carol takes red from @alice" in taken.text
    assert "your move, @carol" in taken.text  # red is waited on
    game = await service.games.load(table.channel)
    assert game is not None and game.holder("red").user_id == "carol"
    assert (await service.store.audit(game.row.id))[-1].action == "sub"
    assert not (await table("carol", "/duel wait")).error
    assert (await table("alice", "/duel wait")).error  # alice holds no seat now
    again = await table("carol", "/game accept")
    assert again.error and "Nobody has offered" in again.text


async def test_offers_that_cannot_stand_are_refused(table: Table, service: Service) -> None:
    await duel(table)
    for user, line, words in (
        ("carol", "/game sub user:dave", "hold no seat"),
        ("alice", "/game sub user:alice", "someone else"),
        ("alice", "/game sub user:bob", "already plays"),
        ("alice", "/game sub user:dave side:blue", "do not hold"),
        ("dave", "/game accept", "Nobody has offered"),
    ):
        reply = await table(user, line)
        assert reply.error and reply.ephemeral and words in reply.text, line
    await table("alice", "/game sub user:dave")
    await table("mod", "/mod seat side:red user:erin", moderator=True)  # red changed hands
    lapsed = await table("dave", "/game accept")
    assert lapsed.error and "lapsed" in lapsed.text
    game = await service.games.load(table.channel)
    assert game is not None and game.holder("red").user_id == "erin"
