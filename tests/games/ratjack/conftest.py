"""Fixtures for Ratjack on the platform: a real database (an SQLite file, and PostgreSQL when
a test server is given, :mod:`tests.databases`) and a match of the service to shape."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.match import Match, MatchService
from tests.databases import BACKENDS, database_target, open_target

GUILD = 1
CHANNEL = 10
ALICE = 100
BOT_USER = 999


@pytest.fixture(params=BACKENDS)
async def db(request, tmp_path) -> AsyncIterator:
    async with database_target(request.param, tmp_path) as target:
        database = await open_target(target)
        yield database
        await database.close()


@pytest.fixture
async def service(tmp_path) -> AsyncIterator[MatchService]:
    """A match service on an SQLite file, its AI doing little work (2 determinizations)."""
    from bot.storage.db import SqliteDatabase

    database = await SqliteDatabase.open(tmp_path / "ratjack.sqlite3")
    yield MatchService(database, ai_iterations=2)
    await database.close()


async def practice(service: MatchService, *, seats: int = 3, seed: int = 5) -> Match:
    """A practice match: Alice (user 100) at seat 1 (``p1``), the AI (easy) at the others."""
    return await service.start_practice(GUILD, CHANNEL, ALICE, game="ratjack", seat=0,
                                        level="easy", seats=seats, ai_user_id=BOT_USER,
                                        seed=seed)


def at(match: Match, state) -> Match:
    """``match`` in the position ``state`` (a text's input; nothing is stored)."""
    return replace(match, state=state)
