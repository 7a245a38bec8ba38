"""One seat per player, checked wherever a seat changes hands (issue 29, point 2): join,
offer, accept and a moderator's seat all ask ``bot/seats.py`` on the game as it is then."""

from __future__ import annotations

import pytest

from bot import seats
from tests.platform.conftest import Table


async def _alice_red(table: Table) -> None:
    """alice started the game and holds red; blue is free."""
    assert not (await table("alice", "/game new system:duel options:target=30")).error
    assert not (await table("alice", "/game join side:red")).error


async def test_an_offer_accepted_after_joining_the_other_side_is_refused(table: Table) -> None:
    """The issue's attack: alice offers red to carol, carol takes the free blue, then
    accepts red: she would hold both sides and play alone."""
    await _alice_red(table)
    assert not (await table("alice", "/game sub user:carol")).error
    assert not (await table("carol", "/game join side:blue")).error
    accept = await table("carol", "/game accept")
    assert accept.error and "already play blue" in accept.text, accept.text
    game = await table.service.games.load(table.channel)
    assert game is not None and game.sides_of("carol") == ["blue"] and game.sides_of("alice") == ["red"]


async def test_a_seated_player_cannot_join_a_second_side_unless_they_started_the_game(table: Table) -> None:
    await _alice_red(table)
    assert not (await table("bob", "/game join side:blue")).error
    assert not (await table("bob", "/game leave")).error
    # bob did not start the game: one side only.  alice did: hot-seat is hers to choose.
    assert not (await table("bob", "/game join side:blue")).error
    assert not (await table("alice", "/game leave")).error
    second = await table("bob", "/game join side:red")
    assert second.error and "only the player who started a game may hold several" in second.text


async def test_a_moderator_seats_by_the_same_rules_save_the_kick(table: Table) -> None:
    await _alice_red(table)
    assert not (await table("bob", "/game join side:blue")).error
    both = await table("mod", "/mod seat side:red user:bob", moderator=True)
    assert both.error and "@bob already holds blue" in both.text, both.text
    assert "seat a substitute who holds no seat here, or /game end" in both.text
    hot = await table("mod", "/mod seat side:blue user:alice", moderator=True)  # she started it
    assert not hot.error, hot.text
    assert not (await table("mod", "/mod kick user:alice reason:r", moderator=True)).error
    back = await table("mod", "/mod seat side:red user:alice", moderator=True)
    assert not back.error, back.text  # a moderator may seat a kicked player


@pytest.mark.parametrize("how", ["join", "offer", "accept", "seat"])
async def test_every_hand_over_asks_the_one_check(table: Table, monkeypatch: pytest.MonkeyPatch,
                                                  how: str) -> None:
    """Refuse everything in ``seat_problem`` and each of the four ways is refused with its
    sentence, nothing changed: none of them decides on its own."""
    await _alice_red(table)
    if how == "accept":
        assert not (await table("alice", "/game sub user:carol")).error
    monkeypatch.setattr(seats, "seat_problem", lambda *a: "No (test).")
    reply = await {
        "join": lambda: table("carol", "/game join side:blue"),
        "offer": lambda: table("alice", "/game sub user:carol"),
        "accept": lambda: table("carol", "/game accept"),
        "seat": lambda: table("mod", "/mod seat side:blue user:carol", moderator=True),
    }[how]()
    assert reply.error and "No (test)." in reply.text, reply.text
    game = await table.service.games.load(table.channel)
    assert game is not None and game.sides_of("carol") == []


def test_the_permissions_page_says_what_mod_seat_does_with_a_second_seat() -> None:
    """Issue 45: docs/permissions.md promised "a second seat from a moderator", which
    ``/mod seat`` refuses (one person, one side; issue 29); the page now says the rule the
    code keeps, and why."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "permissions.md").read_text("utf-8")
    notes = " ".join(page.split())
    assert "second seat only from a moderator" not in notes
    assert "a moderator's `/mod seat` follows the same rule: it never gives anyone else a second seat" in notes
