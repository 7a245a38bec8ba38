"""The turn digest (issue 19, item 4): one message at the end of each game turn, with the
turn's full map, for every system; ``/game digest since:``; the ping's "since your last
order" lines."""

from __future__ import annotations

import io
import random
import re

import pytest
from PIL import Image

from bot.autoplay import Channel
from bot.models import Invocation
from bot.pacing import store as pstore
from bot.service import Service
from tests.pacing.conftest import Outbox
from tests.platform.conftest import Table

SYSTEMS = ["commando", "mak", "raiders", "rr", "skirmish"]
#: Orders a random game may take before its first turn ends.
MOST_ORDERS = 800


async def first_digest(service: Service, key: str) -> tuple[Channel, list, Invocation]:
    """Random legal orders until a game turn ends and its digest is due; the channel, the
    due digests and the order that ended the turn."""
    channel = Channel(service, key, f"chan-{key}", rng=random.Random(3))
    await channel.open()
    for _ in range(MOST_ORDERS):
        inv, reply = await channel.order()
        assert not reply.error, reply.text
        game = await service.games.load(channel.channel)
        assert game is not None
        due = [m for m in await pstore.pending_messages(service.store, game.row.id)
               if m.kind == "digest"]
        if due:
            return channel, due, inv
    raise AssertionError(f"{key}: no turn ended in {MOST_ORDERS} orders")


@pytest.mark.parametrize("key", SYSTEMS)
async def test_a_turn_digest_for_each_system(service: Service, outbox: Outbox, key: str) -> None:
    channel, due, _ = await first_digest(service, key)
    assert len(due) == 1
    await service.pacer.tick(outbox)
    (where, reply), = outbox.sent
    assert where == channel.channel
    lines = reply.text.splitlines()
    # Raiders counts Ops per mission ("M2 Op 3"): the header's turn_word.
    assert re.match(rf"📰 (Turn|M\d Op) {due[0].data['turn']} digest \(steps #", lines[0]), lines[0]
    assert lines[1].startswith("Orders: ")
    assert any(line.startswith("Losses: ") for line in lines)
    assert lines[-1].startswith(("Now: ", "🏁 "))
    # Every order of the turn is counted once in "Orders".
    counted = sum(int(part.rsplit(" ", 1)[1]) for part in lines[1][len("Orders: "):].split(" · "))
    span = re.search(r"steps #(\d+)–#(\d+)\)", lines[0])
    assert span is not None, lines[0]
    first, last = int(span.group(1)), int(span.group(2))
    assert 0 < counted <= last - first + 1
    # The turn's full map goes with it: a real PNG.
    assert reply.snapshot_key and reply.snapshot_key.endswith(":map")
    shown = await service.attach_snapshot(reply)
    image = Image.open(io.BytesIO(shown.attachments[0].data))
    assert image.format == "PNG" and image.width >= 400
    # Sent once: another tick posts nothing more.
    await service.pacer.tick(outbox)
    assert len(outbox.sent) == 1


async def test_digest_since_a_step_and_bad_input(service: Service) -> None:
    channel = Channel(service, "commando", "chan-d", rng=random.Random(5))
    await channel.open()
    for _ in range(6):
        await channel.order()
    table = Table(service, "chan-d")
    reply = await table("anyone", "/game digest since:#2")
    assert not reply.error and reply.ephemeral
    assert reply.text.startswith("📰 Since #2 (steps #3–#") and "Orders: " in reply.text
    assert reply.snapshot_key and reply.snapshot_key.endswith(":map")
    span = await table("anyone", "/game digest since:24h")
    assert not span.error and span.text.startswith("📰 Since #0")
    for bad in ("#999", "soon", "-3"):
        refused = await table("anyone", f"/game digest since:{bad}")
        assert refused.error and refused.ephemeral and "since" in refused.text, bad


async def test_a_ping_says_what_happened_since_the_last_order(table: Table) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    await table("alice", "/duel wait")  # blue's turn: bob is pinged, nothing else happened
    first = await table("bob", "/duel stance mode:bold")  # a standing order, not a ping
    assert not first.error
    reply = await table("bob", "/duel wait")
    assert reply.mentions == ["alice"]
    lines = reply.text.splitlines()
    start = lines.index("Since @alice's last order:")
    since = lines[start + 1:start + 3]
    assert since[0].startswith("• #") and "stance" in since[0]


def test_a_span_of_one_step_is_said_so() -> None:
    from bot.pacing.digest import span_words

    assert (span_words(10, 10), span_words(3, 9)) == ("step #10", "steps #3–#9")


async def test_a_ping_to_a_side_that_has_not_ordered_yet_says_since_the_start(table: Table) -> None:
    """bob has given no order: his first ping's lines run from the start, and say so (it
    read "Since @bob's last order:")."""
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    await table("alice", "/duel stance mode:bold")  # a standing order: red still to act
    reply = await table("alice", "/duel wait")
    assert reply.mentions == ["bob"]
    lines = reply.text.splitlines()
    assert "Since @bob's last order:" not in lines
    start = lines.index("Since the start, for @bob:")
    assert lines[start + 1].startswith("• #") and "stance" in lines[start + 1]


async def test_the_digest_is_committed_with_the_order_that_ended_the_turn(
        service: Service, outbox: Outbox, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 23: pacing rows go in the order's own transaction.  The digest was scheduled by
    a second transaction after the commit, so a failure there (the store, the pacer) lost
    it; now the commit that ends the turn schedules it, and the pacer only wakes."""
    async def broken(*args: object, **kwargs: object) -> str | None:
        raise RuntimeError("the pacer fails after the commit")

    monkeypatch.setattr(service.pacer, "after_command", broken)
    channel, due, inv = await first_digest(service, "rr")
    assert len(due) == 1 and due[0].data["head"] > 0
    game = await service.games.load(channel.channel)
    assert game is not None and due[0].data["head"] == game.row.head_seq
    monkeypatch.undo()
    assert await service.pacer.tick(outbox) == 1
    assert outbox.texts()[-1].startswith("📰 Turn "), outbox.texts()[-1]
