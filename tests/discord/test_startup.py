"""Start-up: the bot, which never joins voice, logs no warning about voice libraries."""

from __future__ import annotations

import logging

import discord

from bot.discord.app import create_bot
from bot.storage.db import SqliteDatabase
from tests.discord.conftest import make_settings


async def test_no_voice_library_warning_at_start_up(tmp_path, caplog) -> None:
    discord.VoiceClient.warn_nacl = True  # as in a fresh process without PyNaCl
    db = await SqliteDatabase.open(tmp_path / "raptor.sqlite3")
    try:
        with caplog.at_level(logging.WARNING, logger="discord"):
            raptor_bot = await create_bot(make_settings(db_path=str(tmp_path / "r.sqlite3")), db)
        await raptor_bot.close()
    finally:
        await db.close()
    voice = [r.getMessage() for r in caplog.records if "voice" in r.getMessage().lower()]
    assert voice == []
    assert discord.VoiceClient.warn_nacl is False
