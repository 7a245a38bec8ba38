"""Configuration from environment variables, validated by pydantic.

=====================  ===============================================  ====================
variable               meaning                                          default
=====================  ===============================================  ====================
DISCORD_TOKEN          the bot token; without it ``referee`` opens       (none)
                       the local console
REFEREE_DB             the SQLite file, or a PostgreSQL server's URL     ./referee.sqlite3
                       (``postgresql://user:pass@host/db``) to share
                       one store between several processes
REFEREE_GUILD_IDS      comma-separated server ids that get the           (none: global sync)
                       commands instantly (for testing a server)
REFEREE_MODERATOR_ROLE the role whose members moderate, besides Manage  Referee Moderator
                       Channels / Manage Server: its id (best: a rename
                       does not break it) or its name
REFEREE_SHARD_COUNT    how many shards the bot runs in all              (Discord's advice)
REFEREE_SHARDS         the shard ids this process runs, e.g. 0-3 or     (all of them)
                       0,2,4 (needs REFEREE_SHARD_COUNT); only the one
                       running shard 0 syncs the commands
REFEREE_LOG_LEVEL      DEBUG, INFO, WARNING, ERROR                       INFO
REFEREE_SNAPSHOT_DIR   where the console writes map snapshots            ./snapshots
REFEREE_RATE_LIMITS    true/false: refuse floods with "slow down"        on with a Discord
                       (per user and per channel, orders and renders)    token, else off
REFEREE_MAX_OPEN_GAMES active games one user may have started at once    3
REFEREE_INTERACTION_   how long replies are kept to answer a repeated    48
RETENTION_HOURS        delivery of the same interaction
REFEREE_HEARTBEAT      a file the bot rewrites while it is connected to  (none)
                       Discord; ``referee health`` reads it (Docker)
REFEREE_RENDER_WORKERS processes that draw the pictures                  cores less one (>= 1)
REFEREE_RENDER_QUEUE   pictures that may wait for a busy worker; past   8
                       it a reply goes without (``/game map`` draws it)
REFEREE_RENDER_WAIT    seconds a reply waits for a queued picture       0.5
                       before it goes and the picture follows
REFEREE_RENDER_TIMEOUT seconds a picture may take; its worker is then   30
                       killed and replaced
REFEREE_RENDER_MEMORY_ memory (MB) a render worker may take beyond its   1024
MB                     start (its address space is capped)
REFEREE_RENDER_CACHE_  memory (MB) a render worker's caches of whole-    160
MB                     map images may hold (least recently used go)
REFEREE_RENDER_WARM    true/false: a new render worker first draws       true
                       every system's opening (2-3 s of CPU) so the
                       first player's picture finds its caches full
=====================  ===============================================  ====================

The variables may also be written one per line (``REFEREE_DB=...``) in a file ``.env`` in the
folder the bot is started from; the environment wins over the file.  A bad value stops the bot
with one sentence naming the variable and what it allows (:func:`load_settings`).

Why the rate limits are off without a token: the console and the tests are one local person
(or program) at the keyboard playing hundreds of orders a second; on Discord every user is a
stranger, so a Discord bot limits them unless told otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def parse_shard_ids(text: str) -> list[int]:
    """``"0-3"`` -> ``[0, 1, 2, 3]``; ``"0,2,5-6"`` -> ``[0, 2, 5, 6]`` (``--shards`` and
    ``REFEREE_SHARDS``); a ValueError naming the bad part otherwise."""
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"shard ids are numbers or ranges such as 0-3, not {part!r}")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the shard range {part!r} runs backwards")
        ids += [i for i in range(low, high + 1) if i not in ids]
    return ids


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="REFEREE_", extra="ignore",
                                      env_file=".env", env_file_encoding="utf-8")

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    #: A SQLite file (a Path), or a ``postgresql://`` URL (kept as text: a Path would fold
    #: its ``//``).
    db: Path | str = Path("./referee.sqlite3")
    guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    moderator_role: str = "Referee Moderator"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    snapshot_dir: Path = Path("./snapshots")
    shard_count: int | None = Field(default=None, ge=1)
    shards: Annotated[list[int] | None, NoDecode] = None
    rate_limits: bool | None = None
    #: Orders (and renders) per minute: each user, each channel (token buckets).
    user_orders_per_minute: int = Field(default=30, ge=1)
    channel_orders_per_minute: int = Field(default=60, ge=1)
    user_renders_per_minute: int = Field(default=10, ge=1)
    channel_renders_per_minute: int = Field(default=20, ge=1)
    #: The costly reads (issue 29): a replay GIF takes seconds of CPU, an export or a digest
    #: reads the whole log.  Each user (spectators too), each channel, and replays across
    #: the whole process, per minute.
    user_replays_per_minute: int = Field(default=1, ge=1)
    channel_replays_per_minute: int = Field(default=2, ge=1)
    replays_per_minute: int = Field(default=6, ge=1)
    user_exports_per_minute: int = Field(default=2, ge=1)
    channel_exports_per_minute: int = Field(default=6, ge=1)
    user_digests_per_minute: int = Field(default=3, ge=1)
    channel_digests_per_minute: int = Field(default=10, ge=1)
    max_open_games: int = Field(default=3, ge=1)
    interaction_retention_hours: int = Field(default=48, ge=1)
    #: Standing (``anytime``) orders one side may give in a row before the game moves on.
    standing_orders_in_a_row: int = Field(default=3, ge=1)
    #: Undos one player may make in a row before someone else acts (each stores a state).
    undos_in_a_row: int = Field(default=3, ge=1)
    #: ``/game end`` attaches the whole game as one HTML page (every map: seconds of CPU).
    html_at_end: bool = True
    #: The server's seed key (bot/seedkey.py, issue 45): running games' dice seeds are kept
    #: in the database wrapped with it, so the database alone cannot foresee a roll.  Keep
    #: it off the database's disk and backups, and back it up on its own.
    seed_key_file: Path = Path("./referee.seed-key")
    #: The key itself as 64 hex digits (a secret store's variable), instead of the file.
    seed_key: SecretStr | None = None
    #: The gateway heartbeat file (bot/heartbeat.py): written by ``referee bot`` while
    #: connected, read by ``referee health``.  None: no heartbeat (the console, the tests).
    heartbeat: Path | None = None
    #: Pictures are drawn in worker processes (issue 41, ``bot/renderpool.py``): how many
    #: (None: the machine's cores less one, at least one).
    render_workers: int | None = Field(default=None, ge=1)
    #: Pictures that may wait for a busy worker; past that a reply goes without its
    #: picture, saying ``/game map`` draws it.
    render_queue: int = Field(default=8, ge=0)
    #: Seconds a reply waits for a picture queued behind others' before it goes without it
    #: (the picture then follows, edited in); a picture a free worker starts is waited for.
    render_wait: float = Field(default=0.5, ge=0)
    #: A picture still drawing after this many seconds is stopped: its worker is killed
    #: and replaced (issue 45, point 9: no scenario file takes the bot's time).
    render_timeout: float = Field(default=30.0, gt=0)
    #: Memory (MB) a render worker may take beyond what it holds at start (RLIMIT_AS).
    render_memory_mb: int = Field(default=1024, ge=64)
    #: Memory (MB) a render worker's caches of whole-map images hold at most, together
    #: (``render.caches.held``: a worker that had drawn every system reached 800 MB).
    render_cache_mb: int = Field(default=160, ge=16)
    #: Whether a render worker, when first started, draws every system's opening before
    #: the first player's picture (:func:`bot.renderworker.warm`): 2-3 s of one core that a
    #: bot serving players spends once, and that a short-lived process (a script, the
    #: tests' many bot processes) would spend on pictures it never draws.
    render_warm: bool = True

    @property
    def limits_on(self) -> bool:
        """Whether rate limits apply: as set, else on exactly when running on Discord."""
        return self.rate_limits if self.rate_limits is not None else self.discord_token is not None

    @field_validator("db", mode="before")
    @classmethod
    def _path_unless_url(cls, value: object) -> object:
        if isinstance(value, str) and not value.startswith(("postgresql://", "postgres://")):
            return Path(value)
        return value

    @field_validator("guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # "123, 456" from the environment; a list when built in code.
        if isinstance(value, str):
            parts = [part for part in value.replace(" ", "").split(",") if part]
            bad = [part for part in parts if not part.isdigit()]
            if bad:
                raise ValueError(f"server ids are whole numbers separated by commas "
                                 f"(such as 123,456), not {bad[0]!r}")
            return [int(part) for part in parts]
        return value

    @field_validator("shards", mode="before")
    @classmethod
    def _shard_ranges(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @model_validator(mode="after")
    def _shards_need_a_count(self) -> "Settings":
        # discord.py runs a subset of shards only when it knows how many there are in all.
        if self.shards is not None:
            if self.shard_count is None:
                raise ValueError("REFEREE_SHARDS needs REFEREE_SHARD_COUNT (the total) too")
            wrong = [s for s in self.shards if not 0 <= s < self.shard_count]
            if wrong:
                raise ValueError(
                    f"REFEREE_SHARDS {wrong} are not shard ids below REFEREE_SHARD_COUNT "
                    f"({self.shard_count})"
                )
        return self

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value


def env_name(field: str) -> str:
    """The environment variable that sets the field ``field`` of :class:`Settings`."""
    info = Settings.model_fields.get(field)
    if info is not None and isinstance(info.validation_alias, str):
        return info.validation_alias
    return f"REFEREE_{field.upper()}"


def describe_error(error: Any) -> str:
    """One sentence for one pydantic error of :class:`Settings`: the variable, what it was
    given (never a secret) and what it allows."""
    loc = [str(part) for part in error.get("loc", ())]
    message = str(error.get("msg", "is not valid"))
    message = message.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if not loc:
        # A check across fields (REFEREE_SHARDS and REFEREE_SHARD_COUNT) names them itself.
        return message.rstrip(".") + "."
    name = env_name(loc[0])
    given = error.get("input")
    shown = "" if name == "DISCORD_TOKEN" or isinstance(given, (dict, SecretStr)) else f" is {given!r}:"
    allowed = message[:1].lower() + message[1:]
    if allowed.startswith("input should be"):
        allowed = "it should be" + allowed[len("input should be"):]
    return f"{name}{shown} {allowed}".rstrip(".") + "."


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment (and ``.env``), with ``overrides`` on top; a bad
    value ends the program with one sentence per bad variable, never a traceback."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        lines = [describe_error(error) for error in exc.errors()]
        raise SystemExit("referee: bad setting: " + " ".join(lines)) from None
