"""The local console: the bot's commands typed as text, for newcomers and transcripts.

    /game new system:rr
    @alice /game join side:nato
    @bob /game join side:soviet
    @alice /rr deploy-default

``@name`` before a command acts as that user; ``@name`` alone switches the default user.
``@ai /game join side:soviet`` seats the computer on that side (``@ai:hard`` for a level);
its moves are printed after each line, marked 📣, as the bot posts them.
``--moderator`` makes you (``--user``) a moderator, ``--moderator mo,carol`` those users; no
one else may use ``/mod`` (as on Discord, where moderating is a role, not a seat).
A sealed order is given privately: ``@alice secret /mak mines lay …`` (or ``? /mak …``);
its answer is marked "only @alice sees this", and the channel's public line follows.
When a reply offers numbered answers (the buttons on Discord), ``2`` or ``@bob 2`` picks one.
Snapshots are written as PNG files and their paths printed.  ``--dice 3,5,6`` scripts the
dice (when they run out, the order is refused with a clear message).

``/channel NAME`` types the next commands in another channel (a league round opens one
per pairing, as Discord opens a thread for each: ``pairing-7``).
What the bot posts on its own (reminders, a deadline passing, the turn digest) is printed
after each line, marked 📣.  With ``--clock`` time stands still until ``/clock advance
hours:36`` moves it (``/clock now`` tells it), so deadlines can be played through.
Discord timestamps are written out in UTC.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, TextIO

from datetime import timedelta

from bot.answers import numbered
from bot.commands import DECLARED
from bot.computer_ids import level_named
from bot.incidents import report
from bot.models import Invocation, Reply, Upload, later_of
from bot.pacing.clock import ManualClock
from bot.pacing.times import in_utc
from bot.service import Service
from rules.core.scenariofile import MAX_BYTES as MAX_UPLOAD

log = logging.getLogger("referee.console")

CONSOLE_CHANNEL = "console"
#: ``--moderator "*"``: every user of the console moderates (``referee render``'s transcripts).
ANYONE = "*"
#: Command groups without subcommand groups: a third bare word after them is a mistake.
#: The declared groups (``/game``, ``/mod``) and the console's own ``/clock``.
FLAT_GROUPS = (*(s.name for s in DECLARED), "clock", "channel")
#: ``secret /mak …`` or ``? /mak …`` (after an ``@user``): the command is given privately,
#: as a sealed order must be (issue 28); on Discord its answer is ephemeral.
PRIVATE = re.compile(r"^(?P<user>@\S+\s+)?(?:secret\s+|\?\s*)(?P<rest>/.*)$", re.DOTALL)
#: ``2`` or ``@bob 2``: pick a numbered answer of the last reply (a button press, issue 30).
NUMBERED = re.compile(r"^(?:@(?P<user>\S+)\s+)?(?P<n>\d{1,3})$")
#: ``@ai`` (``@ai:hard``) before ``/game join``: the computer takes the side (issue 43).
AI = "ai"
#: Rounds of (bot posts, computer moves) after one line: a game between two computers ends
#: within this many times :data:`bot.computer.IN_A_ROW` orders, or waits for the next line.
MOST_ROUNDS = 100
PROMPT_HINT = "Type /game help for the commands, /game new system:rr to start; Ctrl-D quits."


def thread_channel(pairing_id: int) -> str:
    """The console channel a league pairing's game is played in (Discord: its thread)."""
    return f"pairing-{pairing_id}"


class ParseError(ValueError):
    """A console line that is not a command."""


def parse_line(line: str) -> tuple[str | None, list[str], dict[str, str]]:
    """Split ``[@user] /group order key:value …`` into its parts.

    Values may be quoted (``reason:"misclick on 12"``); a value may itself hold colons; bare
    words after a value continue it (``order:mines lay``).
    """
    try:
        tokens = shlex.split(line)
    except ValueError as exc:
        raise ParseError(f"Cannot read that line: {exc}.") from None
    user = None
    if tokens and tokens[0].startswith("@"):
        user = tokens.pop(0)[1:]
        if not user:
            raise ParseError("Write a user name after @, e.g. @alice.")
    if not tokens:
        return user, [], {}
    head = tokens.pop(0)
    if not head.startswith("/"):
        raise ParseError("Commands start with /, e.g. /game status or /rr move unit:VDV-1 to:12.")
    path = [head[1:]]
    # ``/game status``, ``/rr move …``, and an order in a subcommand group: ``/mak air
    # commit …`` (issue 28; ``/game``, ``/mod`` and ``/clock`` have no groups).
    words = 2 if path[0] in FLAT_GROUPS else 3
    while tokens and ":" not in tokens[0] and len(path) < words:
        path.append(tokens.pop(0))
    options: dict[str, str] = {}
    last = None
    for token in tokens:
        key, sep, value = token.partition(":")
        if (not sep or not key) and last is not None and ":" not in token:
            # A bare word continues the value before it, as Discord takes a value with
            # spaces: ``/game help order:mines lay`` (quotes work too).
            options[last] += f" {token}"
            continue
        if not sep or not key:
            raise ParseError(f"Options are written name:value, not '{token[:40]}'.")
        options[key] = value
        last = key
    return user, path, options


def read_upload(path: Path) -> Upload:
    """A file on disk as an attachment: its size, and its bytes unless over the 1 MB limit."""
    try:
        size = path.stat().st_size
        if size >= MAX_UPLOAD:
            return Upload(name=path.name, size=size)
        return Upload(name=path.name, size=size, data=path.read_bytes())
    except OSError as exc:
        raise ParseError(f"Cannot read {str(path)[:60]}: {exc.strerror or exc}.") from None


def unpinged(reply: Reply, who: str) -> Reply:
    """``reply`` without a ping for ``who``, the user whose command it answers: they are
    reading it already (issue 40; the Discord front end skips the invoker the same way)."""
    if who not in reply.mentions:
        return reply
    return reply.model_copy(update={"mentions": [m for m in reply.mentions if m != who]})


class Console:
    """Reads command lines, sends them through the service, prints the replies."""

    def __init__(
        self,
        service: Service,
        *,
        user: str = "player",
        moderator: bool | Iterable[str] = False,
        snapshot_dir: Path = Path("snapshots"),
        write: Callable[[str], None] = print,
        channel: str = CONSOLE_CHANNEL,
        clock: ManualClock | None = None,
        scenario_file: Path | None = None,
    ) -> None:
        self.service = service
        #: ``--scenario-file``: the file ``/game new`` plays when it names no scenario.
        self.scenario_file = scenario_file
        #: The clock ``/clock advance`` moves (``--clock``); None: the real time.
        self.clock = clock
        self.user = user
        #: Who may use ``/mod`` (``--moderator``): True is the console's own user; names are
        #: those users; ``*`` anyone (a transcript rendered for pictures).
        self.moderators: set[str] = ({user} if moderator else set()) if isinstance(moderator, bool) \
            else set(moderator)
        self.snapshot_dir = snapshot_dir
        self.write = write
        self.channel = channel
        self.snapshots: list[Path] = []
        #: The numbered answers of the last reply that offered some (issue 30): ``2`` picks.
        self.answers: dict[int, tuple[str, str | None]] = {}
        self.counter = 0
        #: A press's interaction id must not repeat one stored by an earlier console run on
        #: the same database (it would be answered from the record, nothing applied).
        self.session = secrets.token_hex(4)

    def moderates(self, who: str) -> bool:
        """Whether ``who`` may use ``/mod`` here (``--moderator``)."""
        return who in self.moderators or ANYONE in self.moderators

    async def run_line(self, line: str) -> Reply | None:
        """Run one line; return the reply (None for blank lines, comments and user switches)."""
        line = line.strip()
        if not line or line.startswith("#"):
            return None
        number = NUMBERED.match(line)
        if number is not None:
            return await self.press(number["user"] or self.user, int(number["n"]))
        private = PRIVATE.match(line)
        if private is not None:
            line = (private["user"] or "") + private["rest"]
        try:
            user, path, options = parse_line(line)
        except ParseError as exc:
            self.write(f"⛔ {exc}")
            return None
        if not path:
            self.user = user or self.user
            self.write(f"(now acting as @{self.user})")
            return None
        if path[0] == "channel":
            self.switch_channel(path[1:])
            return None
        if path[0] == "clock":
            self.run_clock(path, options)
            await self.deliver()
            return None
        if user is not None and (user == AI or user.startswith(f"{AI}:")):
            seated = self.computer_line(user, path, options)
            if seated is None:
                return None
            user, options = None, seated
        who = user or self.user
        try:
            options = self.attach_files(path, options)
        except ParseError as exc:
            self.write(f"⛔ {exc}")
            return None
        inv = Invocation(
            channel_id=self.channel, guild_id=None, user_id=who, user_name=who,
            is_moderator=self.moderates(who), command=path, options=options, private=private is not None,
            front="console",
        )
        return await self._answered(who, await self.service.handle(inv))

    async def press(self, who: str, number: int) -> Reply | None:
        """``2``: pick answer 2 of the last reply that offered numbered answers, as ``who``
        (the console's button press, issue 30)."""
        picked = self.answers.get(number)
        if picked is None:
            if not self.answers:  # e.g. a console opened again on a game under way
                self.write(f"⛔ There is no answer {number} to pick: no reply since the console opened "
                           "offered numbered answers. /game status says whose move it is and what they can do.")
            else:
                shown = ", ".join(str(n) for n in sorted(self.answers))
                self.write(f"⛔ There is no answer {number} to pick; answers: {shown}.")
            return None
        self.counter += 1
        inv = Invocation(channel_id=self.channel, guild_id=None, user_id=who, user_name=who,
                         is_moderator=self.moderates(who), command=["press"], front="console",
                         interaction_id=f"console-press-{self.session}-{self.counter}")
        return await self._answered(who, await self.service.press(inv, *picked))

    async def _answered(self, who: str, reply: Reply) -> Reply:
        if reply.snapshot_key and not reply.error:
            reply = await self.service.attach_snapshot(reply)
        reply = await self.service.attach_offer(reply, self.channel)
        # The last answers offered stay pickable, as a Discord message's buttons do; a pick
        # the game has moved past is refused by the service.
        if reply.buttons or reply.menu:
            self.answers = numbered(reply)
        if reply.chosen:
            self.write(f"✔️ {reply.chosen}")
        self.show(who, unpinged(reply, who))
        if reply.threads and not reply.error:
            await self.open_threads(reply)
        await self.follow(reply)
        await self.deliver_owed()
        await self.deliver()
        return reply

    def switch_channel(self, words: list[str]) -> None:
        """``/channel NAME``: type the next commands in that channel (a league's pairings
        open channels of their own, issue 44); ``/channel`` alone says which one it is."""
        if words:
            self.channel = words[0]
        self.write(f"(now in #{self.channel})")

    async def open_threads(self, reply: Reply) -> None:
        """Open the channels a reply asks for (a league round's pairings) and start each
        pairing's game there, as Discord opens a thread for each."""
        for opening in reply.threads:
            channel = thread_channel(opening.pairing_id)
            opened = await self.service.open_pairing(opening, channel, None)
            if opened.snapshot_key and not opened.error:
                opened = await self.service.attach_snapshot(opened)
            self.write(f"🧵 #{channel} ({opening.name}); /channel {channel} to play there:")
            self.show("referee", opened)

    async def follow(self, reply: Reply) -> None:
        """The picture of a reply that went without it (the renderer was busy, issue 41),
        printed when drawn, as Discord edits it into the message."""
        later = later_of(reply)
        if later is None:
            return
        done = await later
        # Drawn: the picture; failed: the reply's last line says so (an incident id).
        text = "🗺️ The picture of the reply above:" if done.attachments else done.text.splitlines()[-1]
        self.show("referee", Reply(text=text, attachments=done.attachments, ephemeral=reply.ephemeral))

    async def _with_page(self, owed: Reply) -> Reply:
        """An ended game's page attached, or, when it could not be drawn, a sentence with
        the incident's id (as the Discord adapter says it), never a traceback."""
        try:
            return await self.service.attach_page(owed)
        except Exception:  # noqa: BLE001 - the announcement goes out without its page
            sorry = report(log, "incident %s: drawing page %s failed", owed.page_key)
            return owed.model_copy(update={"text": f"{owed.text}\n(No page this time: {sorry} "
                                                   "/game export still gives the log.)", "page_key": None})

    async def deliver_owed(self) -> None:
        """Post what the channel is owed: an ended game's page, built after its announcement
        (issue 25), and the public line of an order answered privately (issue 28); the
        console has no failed delivery to catch up."""
        for owed_id, owed in await self.service.owed(self.channel):
            if owed.page_key is not None:
                owed = await self._with_page(owed)
            elif owed.follows:  # the public line of an order answered privately (issue 28)
                owed = await self.service.attach_offer(owed, self.channel)
                if owed.buttons or owed.menu:
                    self.answers = numbered(owed)
                if owed.snapshot_key:
                    owed = await self.service.attach_snapshot(owed)
            self.show("referee", owed)
            await self.follow(owed)
            await self.service.settle(owed_id)

    def computer_line(self, user: str, path: list[str], options: dict[str, str]) -> dict[str, str] | None:
        """``@ai /game join side:soviet`` (``@ai:hard …`` for a level): the computer takes
        the side, seated by the console's user (issue 43).  The computer gives its orders by
        itself; anything else typed as ``@ai`` is refused (None: said so)."""
        if path != ["game", "join"]:
            self.write("⛔ The computer plays by itself once seated: @ai /game join side:… "
                       "(or @ai:hard /game join side:…) seats it.")
            return None
        return {**options, "ai": level_named(user.partition(":")[2])}

    def attach_files(self, path: list[str], options: dict[str, Any]) -> dict[str, Any]:
        """Options of kind "file" name a file on disk: read it as Discord would attach it
        (at most 1 MB is read); ``/game new`` with no scenario gets ``--scenario-file``."""
        if path == ["game", "new"] and self.scenario_file and not (
                {"scenario", "scenario-file"} & set(options)):
            options = {**options, "scenario-file": str(self.scenario_file)}
        spec = next((g.command(" ".join(path[1:])) for g in self.service.groups
                     if len(path) >= 2 and g.name == path[0]), None)
        out = dict(options)
        for option in spec.options if spec else []:
            if option.kind == "file" and isinstance(out.get(option.name), str):
                out[option.name] = read_upload(Path(out[option.name]).expanduser())
        return out

    def run_clock(self, path: list[str], options: dict[str, str]) -> None:
        """``/clock now`` and ``/clock advance hours:N`` (``--clock`` only)."""
        if self.clock is None:
            self.write("⛔ The clock runs on its own here; start the console with --clock to move it.")
            return
        action = path[1] if len(path) > 1 else "now"
        if action == "advance":
            try:
                hours = float(options.get("hours", ""))
            except ValueError:
                self.write("⛔ /clock advance needs hours:, a number of hours, e.g. hours:12.")
                return
            if not 0 < hours <= 24 * 366:
                self.write("⛔ hours: must be more than 0 and at most a year (8784).")
                return
            self.clock.advance(timedelta(hours=hours))
        elif action != "now":
            self.write("⛔ The clock has: /clock now, /clock advance hours:N.")
            return
        self.write(f"🕰️ {self.clock.now():%a %d %b %Y %H:%M} UTC")

    async def deliver(self) -> int:
        """Post what the bot sends on its own now (reminders, deadlines, digests) and the
        computer's moves (issue 43), until neither has more to say."""
        posted = 0
        for _ in range(MOST_ROUNDS):
            sent = await self.service.pacer.tick(self._posted)
            moves = await self.service.computer.play(self.channel, self._moved)
            posted += sent + moves
            if not moves:
                break
        return posted

    async def _posted(self, channel_id: str, reply: Reply) -> None:
        if reply.snapshot_key:
            reply = await self.service.attach_snapshot(reply)
            later = later_of(reply)
            if later is not None:  # no one waits on what the bot posts on its own
                reply = await later
        self.show("referee", reply.model_copy(update={"text": "📣 " + reply.text}))

    async def _moved(self, channel_id: str, reply: Reply) -> None:
        """The computer's move as the channel shows it: its map, and the answers it offers
        the player waited on next (picked with ``2``, as after any order)."""
        reply = await self.service.attach_offer(reply, channel_id)
        if reply.buttons or reply.menu:
            self.answers = numbered(reply)
        await self._posted(channel_id, reply)

    def show(self, who: str, reply: Reply) -> None:
        """Print a reply the way a channel would show it."""
        prefix = f"(only @{who} sees this) " if reply.ephemeral else ""
        now = self.service.clock.now()
        self.write(in_utc(prefix + reply.text, now))
        for field in reply.fields:
            self.write(f"{field.name}: {field.value}")
        if reply.mentions:
            self.write("🔔 " + " ".join(f"@{m}" for m in reply.mentions))
        for attachment in reply.attachments:
            self.snapshot_dir.mkdir(parents=True, exist_ok=True)
            path = self.snapshot_dir / attachment.filename
            path.write_bytes(attachment.data)
            if path.suffix == ".png":
                self.snapshots.append(path)
            # The description is the picture's alt text on Discord (issue 41).
            self.write(f"📎 {path}" + (f" — {attachment.description}" if attachment.description else ""))

    async def run_script(self, lines: list[str], *, echo: bool = True) -> int:
        """Run a transcript; return how many commands were refused."""
        refused = 0
        for line in lines:
            if echo and line.strip() and not line.strip().startswith("#"):
                self.write(f"> {line.strip()}")
            reply = await self.run_line(line)
            if reply is not None and reply.error:
                refused += 1
        return refused

    async def repl(self, stdin: TextIO = sys.stdin) -> None:
        """Interactive prompt until end of input (Ctrl-D) or ``quit``."""
        if self.scenario_file is not None:
            from bot.scenariocli import start_hint  # noqa: PLC0415 - reads the file once

            self.write(start_hint(self.scenario_file))
        else:
            self.write(PROMPT_HINT)
        if self.clock is not None:
            self.write(f"Time stands still at {self.clock.now():%a %d %b %Y %H:%M} UTC; "
                       "/clock advance hours:N moves it.")
        while True:
            sys.stdout.write(f"{self.user}> ")
            sys.stdout.flush()
            line = await asyncio.to_thread(stdin.readline)
            if not line or line.strip() in ("quit", "exit"):
                self.write("")
                return
            await self.run_line(line)
