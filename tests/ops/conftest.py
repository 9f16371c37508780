"""Fixtures of the operations tests: a clean process environment for the bot's settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.storage.db import SqliteDatabase


@pytest.fixture
def deployment(tmp_path, monkeypatch) -> Path:
    """A working directory without ``.env`` and an environment without the bot's settings
    (a developer's own); yields the ``/data``-like folder for the database."""
    for name in list(os.environ):
        if name.startswith(("RAPTOR_", "DISCORD_")):
            monkeypatch.delenv(name)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    data = tmp_path / "data"
    data.mkdir()
    return data


async def fill(db_path: Path) -> None:
    """A database with a match in progress (two decisions), a finished match and a server
    with its own time per turn."""
    db = await SqliteDatabase.open(db_path)
    try:
        service = MatchService(db)
        playing = await service.start_ai_match(
            1, 10, game="raptor", levels=["easy", "easy"], ai_user_ids=[900, 901], seed=5)
        await service.play_ai(playing.id, max_steps=2)
        done = await service.start_practice(1, 11, 1001, game="raptor",
                                            seat=rs.seat_wish("raptor"), ai_user_id=900, seed=6)
        await service.resign(done.id, 1001)
        await service.set_guild_timeout(1, 3600.0)
    finally:
        await db.close()
