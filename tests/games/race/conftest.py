"""Fixtures for the race on the platform: a real database, each test once on an SQLite file
and once on PostgreSQL (:mod:`tests.databases`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.databases import BACKENDS, database_target, open_target


@pytest.fixture(params=BACKENDS)
async def db(request, tmp_path) -> AsyncIterator:
    async with database_target(request.param, tmp_path) as target:
        database = await open_target(target)
        yield database
        await database.close()
