"""Sealed orders, each side's own picture, the export and the verifier (issue 28), played
through the real service on a real SQLite file with Shells, the test-only system whose
coin is hidden under a cup by a sealed order (``tests/platform/shells.py``)."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.models import Reply
from bot.service import Service
from rules.core import registry, secrets
from tests.platform.conftest import Table
from tests.platform.shells import LEAKY, SHELLS
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


@pytest.fixture(autouse=True)
def shells() -> Iterator[None]:
    """Shells is registered for these tests only (its key must not reach other tests'
    command lists)."""
    registry.register(SHELLS)
    registry.register(LEAKY)
    yield
    registry.unregister(SHELLS.key)
    registry.unregister(LEAKY.key)


async def ok(table: Table, user: str, line: str, **kw: Any) -> Reply:
    reply = await table(user, line, **kw)
    assert not reply.error, reply.text
    return reply


async def seated(table: Table) -> None:
    await ok(table, "mo", "/game new system:shells", moderator=True)
    await ok(table, "r", "/game join side:red")
    await ok(table, "b", "/game join side:blue")


async def owed(service: Service, channel: str = "chan-1") -> list[Reply]:
    """The channel's announcements owed (posted right after a private answer), settled."""
    out = []
    for owed_id, reply in await service.owed(channel):
        out.append(reply)
        await service.settle(owed_id)
    return out


async def export(table: Table) -> dict[str, Any]:
    reply = await ok(table, "b", "/game export")
    return json.loads(gzip.decompress(reply.attachments[0].data))


async def played_to_the_end(table: Table) -> dict[str, Any]:
    """Both coins hidden (red: cup 2): red misses, blue finds red's coin; the final export."""
    await ok(table, "r", "/shells cup lift cup:1")
    await ok(table, "b", "/shells cup lift cup:2")
    await ok(table, "mo", "/game end", moderator=True)
    return await export(table)


async def test_a_sealed_order_given_in_public_is_refused_and_nothing_is_stored(table: Table,
                                                                               service: Service):
    await seated(table)
    refused = await table("r", "/shells cup hide cup:2")
    assert refused.error and refused.ephemeral
    assert "Give this order privately: `secret /shells cup hide …`" in refused.text
    assert "cup:2" not in refused.text
    game = await service.games.load("chan-1")
    assert game is not None and game.row.head_seq == 0 and await owed(service) == []


async def test_the_giver_reads_the_secret_privately_and_the_channel_only_the_seal(table: Table,
                                                                                 service: Service):
    await seated(table)
    mine = await ok(table, "r", "/shells cup hide cup:2", private=True)
    assert mine.ephemeral and not mine.mentions
    assert "🔒 Your coin is under cup 2 (S1)." in mine.text
    (public,) = await owed(service)
    assert not public.ephemeral and public.follows and public.mentions == ["b"]
    assert "#1 r (red): cup hide 🔒" in public.text
    assert "Red hid its coin (sealed: " in public.text and "🔗" in public.text
    assert "cup 2" not in public.text and "cup:2" not in public.text
    log = await ok(table, "b", "/game log")
    assert "cup hide 🔒" in log.text and "cup:2" not in log.text and "S1" not in log.text
    step = await service.store.step((await service.games.load("chan-1")).row.id, 1)
    seal = step.action["seals"][0]
    assert step.action["sealed"] and step.action["options"] == {"cup": 2}
    assert seal["root"][:8] in public.text and seal["items"] == ['{"cup":2}']


async def test_the_channels_copy_never_pings_the_giver_who_was_just_answered(table: Table,
                                                                             service: Service):
    """A hot-seat player holds both sides: after red's sealed order blue is waited on, which
    is the same player, answered privately this moment; the channel's line pings nobody."""
    await ok(table, "r", "/game new system:shells")
    await ok(table, "r", "/game join side:red")
    await ok(table, "r", "/game join side:blue")
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    (public,) = await owed(service)
    assert public.mentions == []
    assert "Red hid its coin (sealed: " in public.text


async def test_a_line_for_the_side_that_did_not_give_the_order_is_on_its_own_map(table: Table):
    """Red's lift tells blue (only) where blue's coin still is: no answer went to blue, so
    blue's /game map shows it until blue's next order; red's map and the public never do."""
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    lifted = await ok(table, "r", "/shells cup lift cup:1")
    assert "cup 3" not in lifted.text
    blue = await ok(table, "b", "/game map")
    assert blue.ephemeral
    assert blue.text.endswith("For you since your last order:\n🔒 Your coin is still under cup 3 (S2).")
    red = await ok(table, "r", "/game map")
    assert "For you" not in red.text and "cup 3" not in red.text
    log = await ok(table, "w", "/game log")
    assert "cup 3" not in log.text
    await ok(table, "b", "/shells cup lift cup:1")
    assert "For you" not in (await ok(table, "b", "/game map")).text  # read, and acted since


async def test_a_reveal_is_public_with_its_item_and_nonce(table: Table, service: Service):
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    await owed(service)
    missed = await ok(table, "r", "/shells cup lift cup:1")
    assert "Blue's cup 1 is empty (S2)." in missed.text and "🔓" not in missed.text
    found = await ok(table, "b", "/shells cup lift cup:2")
    assert '🔓 Revealed, found under cup 2 (S2): cup 2 (sealed coin:red)' in found.text
    game = await service.games.load("chan-1")
    step = await service.store.step(game.row.id, game.row.head_seq)
    (reveal,) = step.action["reveals"]
    sealed = (await service.store.step(game.row.id, 1)).action["seals"][0]
    assert secrets.opens(reveal, sealed["leaves"]) and step.reveals


async def test_each_player_sees_their_own_secret_on_their_map_and_spectators_the_public_one(
        table: Table, service: Service):
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    mine = await ok(table, "r", "/game map")
    assert mine.ephemeral and mine.snapshot_key and mine.snapshot_key.endswith(":map:red")
    theirs = await ok(table, "b", "/game map")
    assert theirs.ephemeral and theirs.snapshot_key.endswith(":map:blue")
    watcher = await ok(table, "w", "/game map")
    posted = await ok(table, "r", "/game map post:true")
    assert watcher.snapshot_key == posted.snapshot_key and not posted.ephemeral
    assert not posted.snapshot_key.endswith("red")
    pictures = {}
    for name, reply in [("red", mine), ("blue", theirs), ("public", posted)]:
        png = (await service.attach_snapshot(reply)).attachments[0].data
        pictures[name] = png
        assert Image.open(io.BytesIO(png)).format == "PNG"
    # Blue has hidden nothing yet: its view is the public one; red's shows its coin.
    assert pictures["blue"] == pictures["public"] != pictures["red"]
    refused = await table("w", "/game map side:red")
    assert refused.error and "Only a side's own player sees its view" in refused.text
    other = await table("b", "/game map side:red")
    assert other.error and "you see only your own side's view" in other.text


async def test_a_moderator_without_a_seat_may_look_and_each_look_is_audited(table: Table,
                                                                            service: Service):
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    looked = await ok(table, "mo", "/mod look side:red", moderator=True)
    assert looked.ephemeral and looked.snapshot_key.endswith(":map:red") and "audit" in looked.text
    game = await service.games.load("chan-1")
    (entry,) = [a for a in await service.store.audit(game.row.id) if a.action == "look"]
    assert entry.actor_id == "mo" and entry.data == {"side": "red", "seq": 1}
    seated_mod = await table("r", "/mod look side:blue", moderator=True)
    assert seated_mod.error and "you see your own side only" in seated_mod.text
    player = await table("w", "/mod look side:blue")
    assert player.error and "Only moderators" in player.text


async def test_the_export_before_the_end_holds_no_secret_and_after_it_everything(table: Table,
                                                                                service: Service):
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    running = await export(table)
    raw = json.dumps(running)
    assert all(s["state"] is None and s["sealed"] for s in running["steps"])
    assert '\\"cup\\":2' not in raw and "Your coin" not in raw and running["seed"] is None
    assert running["steps"][1]["action"]["options"] == {}
    assert "private" not in running["steps"][1]["action"]  # not even which options it used
    assert set(running["steps"][1]["action"]["seals"][0]) == {"key", "side", "what", "leaves", "root"}
    final = await played_to_the_end(table)
    assert final["steps"][1]["state"]["hidden"] == {"red": 2}
    assert final["steps"][1]["action"]["seals"][0]["items"] == ['{"cup":2}']
    assert any(e.get("to") == "blue" for e in final["steps"][2]["events"])
    assert verify_dice.verify(final) == []


async def test_the_verifier_names_a_forged_reveal_and_a_changed_secret(table: Table):
    await seated(table)
    await ok(table, "r", "/shells cup hide cup:2", private=True)
    await ok(table, "b", "/shells cup hide cup:3", private=True)
    final = await played_to_the_end(table)
    forged = json.loads(json.dumps(final))
    forged["steps"][4]["action"]["reveals"][0]["item"] = '{"cup":1}'
    assert any("the reveal of 'coin:red' item 0 does not open its seal: a forged reveal" in p
               for p in verify_dice.verify(forged))
    changed = json.loads(json.dumps(final))
    changed["steps"][2]["action"]["seals"][0]["items"] = ['{"cup":1}']
    assert any("the seal 'coin:blue': item 1 does not open its leaf" in p for p in verify_dice.verify(changed))


def test_the_verifier_computes_commitments_as_the_bot_does():
    seed = bytes(range(32))
    key = secrets.game_key(seed)
    assert verify_dice.seal_nonce(seed, "mines:strahl", 3) == secrets.nonce(key, "mines:strahl", 3)
    leaf = secrets.leaf(secrets.nonce(key, "k", 0), '{"a":1}')
    assert verify_dice.seal_leaf(secrets.nonce(key, "k", 0), '{"a":1}') == leaf
    assert verify_dice.seal_root([leaf, leaf]) == secrets.root([leaf, leaf])


async def test_the_console_gives_a_sealed_order_with_secret_and_reads_a_group_path(service: Service,
                                                                                   tmp_path: Path):
    from bot.console import Console, parse_line

    assert parse_line("@r /shells cup hide cup:2") == ("r", ["shells", "cup", "hide"], {"cup": "2"})
    out: list[str] = []
    console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
    refused = await console.run_script([
        "/game new system:shells", "@r /game join side:red", "@b /game join side:blue",
        "@r /shells cup hide cup:2", "@r secret /shells cup hide cup:2", "@b ? /shells cup hide cup:3",
        '/game help order:"cup hide"',
    ], echo=False)
    assert refused == 1 and any("Give this order privately" in line for line in out)
    text = "\n".join(out)
    assert "(only @r sees this) #1 r (red): cup hide 🔒" in text and "🔒 Your coin is under cup 2" in text
    assert "(only @b sees this) #2 b (blue): cup hide 🔒" in text
    (public,) = [reply for reply in out if reply.startswith("#2 b (blue)")]  # the channel's copy
    assert "Blue hid its coin (sealed: " in public and "under cup 3" not in public
    assert "Red may answer" in public  # the next side's answers come with the public line
    assert "**/shells cup hide** (S1)" in text


async def test_help_reads_a_group_path_unquoted_and_a_group_and_act_names_the_sealed_orders(
        table: Table, service: Service):
    # the play-test (issue 28): `/game help order:mines lay` was refused, and /game act showed
    # an empty menu while the only orders were sealed
    from bot.models import Invocation

    await seated(table)
    one = await ok(table, "r", "/game help order:cup hide")  # a bare word continues the value
    assert one.text.startswith("**/shells cup hide** (S1)")
    group = await ok(table, "r", "/game help order:cup")
    assert group.text.splitlines()[0] == "**/shells cup …**"
    assert "• cup hide (S1): Hide your coin under a cup (sealed). 🔒 give it privately" in group.text
    assert "• cup lift (S2)" in group.text and "• pass" not in group.text
    ask = Invocation(channel_id="chan-1", user_id="r", user_name="r", command=["game", "help"],
                     options={"order": "cup"})
    assert {c.value for c in await service.autocomplete(ask, "order")} >= {"cup", "cup hide", "cup lift"}
    act = await ok(table, "r", "/game act")  # red must hide its coin: a sealed order only
    assert act.ephemeral and act.menu is None
    assert act.text == ("Red: 🔒 Sealed orders are typed, not chosen: /shells cup hide … (on Discord the "
                        "command answers you alone; on the console write secret before it).")
