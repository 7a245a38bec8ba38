"""Fixtures for the reliability tests: a real service on a real SQLite file, playing Raid and
Riposte when it is registered and the platform's ``duel`` test system until then."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.autoplay import Channel, pick_system
from bot.config import Settings
from bot.service import Service

SYSTEM, SYSTEM_NOTE = pick_system()


def pytest_report_header() -> str:
    """Say which system the reliability tests play."""
    return f"reliability tests play {SYSTEM_NOTE}"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file of the test."""
    return tmp_path / "referee.sqlite3"


@pytest.fixture
async def service(db_path: Path):
    """A real service on ``db_path``."""
    svc = await Service.open(Settings(db=db_path, snapshot_dir=db_path.parent / "snaps"))
    yield svc
    await svc.close()


@pytest.fixture
async def channel(service: Service) -> Channel:
    """A channel with a fresh game, every side seated (one user per side)."""
    table = Channel(service, SYSTEM, "rel-1")
    await table.open()
    return table
