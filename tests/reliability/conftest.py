"""Fixtures for the reliability tests: a real service on a real SQLite file or PostgreSQL
database (each test runs on both), playing Raid and
Riposte when it is registered and the platform's ``duel`` test system until then."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import pytest

from bot.autoplay import Channel, pick_system
from bot.config import Settings
from bot.service import Service

SYSTEM, SYSTEM_NOTE = pick_system()
#: The fuzz's seed for this run: fresh unless REFEREE_FUZZ_SEED asks for an earlier run's.
FUZZ_SEED = int(os.environ.get("REFEREE_FUZZ_SEED") or secrets.randbits(32))


def pytest_report_header() -> str:
    """Say which system the reliability tests play, and the fuzz's seed."""
    return (f"reliability tests play {SYSTEM_NOTE}; fuzz seed {FUZZ_SEED}"
            f" (REFEREE_FUZZ_SEED={FUZZ_SEED} repeats it)")


@pytest.fixture
def db_path(store_url: Path | str) -> Path | str:
    """The store of the test: a SQLite file, or a PostgreSQL database's URL."""
    return store_url


@pytest.fixture
async def service(db_path: Path | str, tmp_path: Path):
    """A real service on ``db_path``."""
    svc = await Service.open(Settings(db=db_path, snapshot_dir=tmp_path / "snaps"))
    yield svc
    await svc.close()


@pytest.fixture
async def channel(service: Service) -> Channel:
    """A channel with a fresh game, every side seated (one user per side)."""
    table = Channel(service, SYSTEM, "rel-1")
    await table.open()
    return table
