"""Configuration from environment variables, validated by pydantic.

=====================  ===============================================  ====================
variable               meaning                                          default
=====================  ===============================================  ====================
DISCORD_TOKEN          the bot token; without it ``referee`` opens       (none)
                       the local console
REFEREE_DB             the SQLite file                                  ./referee.sqlite3
REFEREE_GUILD_IDS      comma-separated server ids that get the           (none: global sync)
                       commands instantly (for testing a server)
REFEREE_MODERATOR_ROLE a role whose members moderate, besides Manage      Referee Moderator
                       Channels / Manage Server
REFEREE_LOG_LEVEL      DEBUG, INFO, WARNING, ERROR                       INFO
REFEREE_SNAPSHOT_DIR   where the console writes map snapshots            ./snapshots
=====================  ===============================================  ====================
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads from its environment."""

    model_config = SettingsConfigDict(env_prefix="REFEREE_", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, validation_alias="DISCORD_TOKEN")
    db: Path = Path("./referee.sqlite3")
    guild_ids: Annotated[list[int], NoDecode] = Field(default_factory=list)
    moderator_role: str = "Referee Moderator"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    snapshot_dir: Path = Path("./snapshots")

    @field_validator("guild_ids", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # "123, 456" from the environment; a list when built in code.
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value
