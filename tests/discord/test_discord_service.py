"""A real game through discord.py and the real service on a real SQLite file.

Gateway payload -> discord.py's Interaction and CommandTree -> our adapter -> ``Service`` on
a database in ``tmp_path`` -> the recorded HTTP requests Discord would have received.
Games: the commando raid (``/game new system:commando``) for a whole turn hand-off, and
Raid and Riposte (``/game new system:rr``) for its setup hand-off (11.0); every registered
system is also started once, to see its map come through.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import random
import signal
from collections.abc import AsyncIterator

import pytest

from bot import tutorial
from bot.autoplay import order_options
from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.renderworker import DrawRequest
from bot.replies import FOLLOWS_LINE
from bot.service import Service
from rules.core import registry
from rules.core.playout import choose
from rules.core.samples import pictures
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.test_discord_delivery import typed_options
from tests.discord.dpy_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    MANAGE_CHANNELS,
    RecordingAdapter,
    interaction_payload,
    open_png,
)


DEFERRED = 5
ANSWERED = 4
AUTOCOMPLETE_RESULT = 8
_ids = itertools.count(100)


@pytest.fixture
async def real_bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[RefereeClient]:
    """A client whose tree runs on the real service and a fresh SQLite file."""
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    yield client
    await client.close()


class Player:
    """One Discord user typing slash commands in the test channel."""

    def __init__(self, client: RefereeClient, recorder: RecordingAdapter, user: tuple[int, str]):
        self.client, self.recorder, self.user = client, recorder, user

    async def __call__(self, group: str, sub: str, options: dict | None = None, **kw) -> list:
        """Send the command; return the requests it caused."""
        start = len(self.recorder.sent)
        payload = interaction_payload(group, sub, options, user=self.user,
                                      interaction_id=kw.pop("interaction_id", next(_ids)), **kw)
        await feed_gateway(self.client, payload)
        return self.recorder.sent[start:]


@pytest.fixture
def alice(real_bot, recorder) -> Player:
    return Player(real_bot, recorder, (ALICE, "Alice"))


@pytest.fixture
def bob(real_bot, recorder) -> Player:
    return Player(real_bot, recorder, (BOB, "Bob"))


async def start_game(alice: Player, bob: Player) -> None:
    await alice("game", "new", {"system": "commando"})
    await alice("game", "join", {"side": "commandos"})
    await bob("game", "join", {"side": "germans"})


async def test_new_game_is_announced_then_its_map_png_edited_in(alice: Player):
    sent = await alice("game", "new", {"system": "commando"})
    assert [s.kind for s in sent] == ["callback", "edit_original"]
    assert sent[0].payload["type"] == ANSWERED and not sent[0].ephemeral
    assert "New game: **Commando raid**" in sent[0].content
    assert "seed hash" in sent[0].content
    follow = sent[1]
    (name,) = follow.files
    assert name.endswith(".png")
    image = open_png(follow.files[name])
    assert image.width >= 200 and image.height >= 150


async def test_joining_the_side_to_act_does_not_ping_the_joiner(alice: Player, bob: Player):
    """The joiner is looking at the reply: a ping would only add a notification."""
    await alice("game", "new", {"system": "commando"})
    (sent,) = await alice("game", "join", {"side": "commandos"})
    assert "your move, @Alice" in sent.content
    assert f"<@{ALICE}>" not in sent.content
    assert sent.message["allowed_mentions"] == {"parse": [], "users": []}


async def test_order_out_of_turn_is_refused_privately(alice: Player, bob: Player):
    await start_game(alice, bob)
    (sent,) = await bob("commando", "roll")
    assert sent.ephemeral
    assert "not your turn" in sent.message["content"]
    assert not sent.message["allowed_mentions"].get("users")


async def test_ending_the_turn_posts_the_map_and_mentions_the_next_player(alice: Player, bob: Player):
    await start_game(alice, bob)
    rolled = await alice("commando", "roll")
    assert "🎲" in rolled[-1].message["content"]
    sent = await alice("commando", "end")
    assert [s.kind for s in sent] == ["callback", "edit_original"]
    answer, follow = sent
    assert answer.payload["type"] == ANSWERED and answer.creates
    assert answer.content.startswith("#2 Alice (commandos): end")
    assert answer.content.splitlines()[-1] == f"<@{BOB}>"
    assert answer.message["allowed_mentions"] == {"parse": [], "users": [BOB]}
    (png,) = follow.files.values()
    open_png(png)


async def test_autocomplete_offers_the_acting_sides_units(alice: Player, bob: Player, recorder):
    await start_game(alice, bob)
    await alice("commando", "roll")
    (sent,) = await alice("commando", "move", {"unit": "D"}, focused="unit")
    assert sent.payload["type"] == AUTOCOMPLETE_RESULT
    choices = sent.payload["data"]["choices"]
    assert 0 < len(choices) <= 25
    # The service puts ids starting with what was typed first, then other matches.
    assert choices[0]["value"].startswith("D")
    assert all("d" in (c["value"] + c["name"]).lower() for c in choices)
    assert all(len(c["name"]) <= 100 for c in choices)


async def test_a_redelivered_interaction_is_answered_from_the_log(alice: Player, bob: Player):
    await start_game(alice, bob)
    first = await alice("commando", "roll", interaction_id=4242)
    again = await alice("commando", "roll", interaction_id=4242)
    assert again[-1].message["content"] == first[-1].message["content"]
    (log,) = await alice("game", "log")
    assert log.message["content"].count(": roll") == 1


async def test_moderator_tools_follow_the_invokers_permissions(alice: Player, bob: Player):
    await start_game(alice, bob)
    (refused,) = await bob("mod", "kick", users={"user": (ALICE, "Alice")})
    assert refused.ephemeral and "moderator" in refused.message["content"].lower()
    # on Discord the refusal names the permissions and the role (the console names --moderator)
    assert "(Manage Channels, Manage Server or the 'Referee Moderator' role)" in refused.message["content"]
    assert "--moderator" not in refused.message["content"]
    (done,) = await bob("mod", "kick", users={"user": (ALICE, "Alice")},
                        permissions=MANAGE_CHANNELS)
    assert not done.ephemeral and "Alice" in done.message["content"]


@pytest.mark.parametrize("system", sorted(registry.load_all()))
async def test_every_system_starts_with_a_map_through_discord(alice: Player, system: str):
    """``/game new system:<key>`` for each registered system: deferred, then its PNG."""
    sent = await alice("game", "new", {"system": system})
    assert sent[0].payload["type"] == ANSWERED
    (png,) = sent[-1].files.values()
    open_png(png)
    assert all("(No map this time" not in s.content for s in sent)
    assert all("map unavailable" not in s.content for s in sent)


# -- Raid and Riposte (rr): the setup hand-off of Tannenbruck 1985 ----------------------------


async def start_rr(alice: Player, bob: Player) -> None:
    """Alice plays NATO, Bob the Soviets; NATO sets up first (11.0)."""
    await alice("game", "new", {"system": "rr"})
    await alice("game", "join", {"side": "nato"})
    await bob("game", "join", {"side": "soviet"})


async def test_rr_nato_setup_done_posts_the_map_and_pings_the_soviet_player(alice, bob):
    """11.0: once NATO is set up, the Soviets set up; Bob is pinged under the map."""
    await start_rr(alice, bob)
    await alice("rr", "deploy-default")
    sent = await alice("rr", "ready")
    assert sent[0].payload["type"] == ANSWERED and not sent[0].ephemeral
    content = sent[0].content
    assert content.startswith("#2 Alice (nato): ready")
    assert "NATO setup done (11.0)" in content
    assert content.splitlines()[-1] == f"<@{BOB}>"
    assert sent[0].message["allowed_mentions"] == {"parse": [], "users": [BOB]}
    (png,) = sent[-1].files.values()
    open_png(png)


async def test_rr_soviet_setup_before_nato_is_refused_privately(alice, bob):
    """11.0: NATO sets up first; the Soviet player is told who the game waits on."""
    await start_rr(alice, bob)
    (sent,) = await bob("rr", "deploy-default")
    assert sent.ephemeral and "not your turn" in sent.message["content"]


async def test_rr_deploy_autocompletes_the_soviet_units(alice, bob):
    """Autocomplete: once it is the Soviets' setup, Bob is offered his own units."""
    await start_rr(alice, bob)
    await alice("rr", "deploy-default")
    await alice("rr", "ready")
    (sent,) = await bob("rr", "deploy", {"unit": "VDV"}, focused="unit")
    values = [c["value"] for c in sent.payload["data"]["choices"]]
    assert {"VDV-1", "VDV-2", "VDV-3"} <= set(values)
    assert len(values) <= 25


async def test_every_legal_hex_is_found_by_typing_it_through_discord(alice, bob, real_bot):
    """Issue 25: the suggestions are filtered by what is typed before they are cut at 25.
    In Mak's first move, every hex of an option with more than 25 legal values comes first
    when typed in full and is among the suggestions typed but for its last key; before, only
    the first 25 could ever be found."""
    await alice("game", "new", {"system": "mak"})
    for n, side in enumerate(registry.get("mak").sides):
        await (alice, bob)[n % 2]("game", "join", {"side": side})
    rng = random.Random(25)
    for _ in range(40):  # play until an option has more than 25 legal values (a move)
        game = await real_bot.service.games.load(str(CHANNEL_ID))
        side = game.system.waiting_on(game.state)[0]
        player = (alice, bob)[list(game.system.sides).index(side) % 2]
        legal = [a for a in game.system.legal_actions(game.state, side) if not a.read_only]
        groups: dict[tuple, list[str]] = {}
        for action in legal:
            options = {k: str(v) for k, v in order_options(action).items()}
            for spec in action.options():
                if spec.kind == "id" and spec.name in options:
                    others = tuple((k, v) for k, v in options.items() if k != spec.name)
                    groups.setdefault((action.path(), spec.name, others), []).append(options[spec.name])
        (name, field, others), values = max(groups.items(), key=lambda g: len(set(g[1])))
        values = list(dict.fromkeys(values))
        if len(values) > 25:
            break
        action = choose(game.system, legal, rng)
        await player("mak", action.path(), typed_options("mak", action.path(), order_options(action)))
    assert len(values) > 25
    (first,) = await player("mak", name, {**dict(others), field: ""}, focused=field)
    shown = [c["value"] for c in first.payload["data"]["choices"]]
    assert len(shown) == 25 and set(values) - set(shown)
    for value in values:
        (full,) = await player("mak", name, {**dict(others), field: value}, focused=field)
        assert full.payload["data"]["choices"][0]["value"] == value
        (part,) = await player("mak", name, {**dict(others), field: value[:-1]}, focused=field)
        assert value in [c["value"] for c in part.payload["data"]["choices"]]


async def test_rr_status_is_private_and_lists_the_seats(alice, bob):
    await start_rr(alice, bob)
    (sent,) = await bob("game", "status")
    assert sent.ephemeral
    assert "**Seats**\nnato (@Alice), soviet (@Bob)" in sent.message["content"]


# -- issue 13: DMs, /game log pages, /game map for spectators ---------------------------------


async def test_a_direct_message_cannot_start_a_game(alice: Player):
    """Discord hides the commands in DMs (allowed_contexts); the service refuses too."""
    (sent,) = await alice("game", "new", {"system": "commando"}, dm=True)
    assert sent.ephemeral and "not in direct messages" in sent.content
    (status,) = await alice("game", "status")
    assert "There is no game in this channel" in status.content


async def test_the_log_says_what_it_shows_and_how_to_see_more(alice: Player, bob: Player):
    await start_rr(alice, bob)
    await alice("rr", "deploy-default")
    await alice("rr", "ready")
    await bob("rr", "deploy-default")
    (sent,) = await bob("game", "log", {"last": 2})
    lines = sent.content.splitlines()
    assert lines[0] == "📜 Steps #2–#3 of 4 (2 lines, page 1 of 2):"
    assert lines[-1] == "Older: /game log page:2 last:2 · everything: /game export"
    (first,) = await bob("game", "log", {"last": 2, "page": 2})
    assert first.content.splitlines()[0] == "📜 Steps #0–#1 of 4 (2 lines, page 2 of 2):"
    assert first.content.splitlines()[-1].startswith("This is the start of the game")
    (past,) = await bob("game", "log", {"last": 2, "page": 3})
    assert past.ephemeral and "ask for page:1 to 2" in past.content


async def test_the_map_is_private_to_a_spectator_unless_posted(alice: Player, bob: Player, real_bot, recorder):
    await start_game(alice, bob)
    carol = Player(real_bot, recorder, (700000000000000003, "Carol"))
    looked = await carol("game", "map")
    assert looked[0].ephemeral and list(looked[-1].files)[0].endswith(".png")
    posted = await carol("game", "map", {"post": True})
    assert not posted[0].ephemeral
    seated = await bob("game", "map")
    assert not seated[0].ephemeral


# -- issue 25.5 / 29: user-controlled text in public replies ----------------------------------

HOSTILE = "<@&800000000000000001> @everyone [x](https://e.vil) ||s|| *b* \u202eevil"
#: A display name (at most 32 characters) with the same tricks.
HOSTILE_NAME = "\u202e@everyone ||s|| [x](http://a.b)"


async def test_a_hostile_display_name_and_reason_read_as_typed(real_bot, recorder, alice):
    """A display name and a /mod reason with a role mention, @everyone, a masked link, a
    spoiler, Markdown and a bidi override: each is shown as typed, escaped, never as a chip,
    link or ping, and the override is gone (issue 29)."""
    mallory = Player(real_bot, recorder, (BOB, HOSTILE_NAME))
    await alice("game", "new", {"system": "commando"})
    (joined,) = await mallory("game", "join", {"side": "germans"})
    (kicked,) = await alice("mod", "kick", {"reason": HOSTILE},
                            users={"user": (BOB, HOSTILE_NAME)}, permissions=MANAGE_CHANNELS)
    name = "@\u200beveryone \\|\\|s\\|\\| \\[x](http://a.b)"
    assert f"@{name} takes germans." in joined.content
    assert name in kicked.content
    reason = kicked.content.split("Reason: ")[1]
    assert reason.startswith("\\<@\u200b&800000000000000001\\> @\u200beveryone \\[x](https://e.vil) "
                             "\\|\\|s\\|\\| \\*b\\* evil")
    for sent in (joined, kicked):
        assert not sent.ephemeral
        assert "@everyone" not in sent.content and "\u202e" not in sent.content
        assert sent.message["allowed_mentions"]["parse"] == []


async def _said(bot: RefereeClient, recorder: RecordingAdapter, group: str, sub: str,
                options: dict | None, interaction_id: int) -> str:
    """Everything the bot sent for one slash command, as text."""
    start = len(recorder.sent)
    await feed_gateway(bot, interaction_payload(group, sub, options, interaction_id=interaction_id))
    return "\n".join(s.content for s in recorder.sent[start:])


async def test_the_tutorial_starts_and_explains_on_discord(real_bot: RefereeClient, recorder: RecordingAdapter):
    """Issue 40, item 10: the lessons are added by the service, so a Discord reply carries
    them as the console's does."""
    lessons = tutorial.LESSONS["rr"]
    started = await _said(real_bot, recorder, "game", "tutorial", {"system": "rr"}, 1)
    assert "(every side)" in started and "\n".join(lessons[0].lines()) in started
    deployed = await _said(real_bot, recorder, "rr", "deploy-default", None, 2)
    assert "#1 " in deployed and "\n".join(lessons[1].lines()) in deployed


async def test_the_map_is_sent_with_a_description_of_the_step_in_words(alice, bob):
    """Issue 41: the picture's alt text says what it shows, from the step just computed:
    which picture, where the game stands, the step's result (11.0), within Discord's 1,024."""
    await start_rr(alice, bob)
    await alice("rr", "deploy-default")
    sent = await alice("rr", "ready")
    edit = sent[-1]
    (name,) = edit.files
    (attachment,) = edit.payload["attachments"]
    description = attachment["description"]
    assert attachment["filename"] == name
    assert description.startswith("Close-up of the last action, Raid and Riposte: Tannenbruck 1985, Setup")
    assert "NATO setup done (11.0)" in description and len(description) <= 1024


async def test_past_capacity_the_message_says_its_picture_follows_and_it_is_edited_in(
        settings: Settings, recorder: RecordingAdapter):
    """Issue 41: a picture queued behind other channels' does not hold the reply: the message
    goes, an edit says the picture follows, and the edit that attaches it takes the line out."""
    client = RefereeClient(settings)
    service = await Service.open(settings.model_copy(update={"render_queue": 1, "render_wait": 0.0}))
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    alice, bob = Player(client, recorder, (ALICE, "Alice")), Player(client, recorder, (BOB, "Bob"))
    try:
        await start_rr(alice, bob)
        await alice("rr", "deploy-default")
        pids = service.pictures.pids()
        for pid in pids:  # the worker is frozen on another channel's picture
            os.kill(pid, signal.SIGSTOP)
        held = service.pictures.offer(DrawRequest(view=pictures(registry.get("rr"), 1)[0], whole=True))
        asyncio.get_running_loop().call_later(0.5, lambda: [os.kill(p, signal.SIGCONT) for p in pids])
        sent = await alice("rr", "ready")
        await asyncio.wrap_future(held.future)
    finally:
        for pid in service.pictures.pids():
            os.kill(pid, signal.SIGCONT)
        await client.close()
    answer, says, attached = sent
    assert [s.kind for s in sent] == ["callback", "edit_original", "edit_original"]
    assert answer.content.splitlines()[-1] == f"<@{BOB}>" and not answer.files
    assert says.content == f"{answer.content}\n{FOLLOWS_LINE}" and not says.files
    assert attached.content == answer.content  # the line is taken out with the picture in
    (png,) = attached.files.values()
    open_png(png)
    assert "NATO setup done (11.0)" in attached.payload["attachments"][0]["description"]
