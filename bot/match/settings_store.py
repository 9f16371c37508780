"""The SQL of server and user settings (tables ``guild_settings``, ``guild_languages`` and
``user_settings`` of :mod:`bot.storage.schema`). Queries only.
"""

from __future__ import annotations

import json
from typing import Any

from ..storage import Database


class SettingsStore:
    """A server's own turn timeout and threads setting, and users' settings, in one
    :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def guild_timeout(self, guild_id: int) -> float | None:
        """The server's own turn timeout in seconds, or None when it set none."""
        row = await self.db.fetchone("SELECT turn_timeout FROM guild_settings WHERE "
                                     "guild_id = ?", (guild_id,))
        return None if row is None or row["turn_timeout"] is None else float(row["turn_timeout"])

    async def set_guild_timeout(self, guild_id: int, seconds: float) -> None:
        """Store the server's own turn timeout (seconds)."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded."
                             "turn_timeout", (guild_id, float(seconds)))

    async def reset_guild_timeout(self, guild_id: int) -> None:
        """Forget the server's own turn timeout (its other settings stay)."""
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE guild_settings SET turn_timeout = NULL WHERE guild_id = ?",
                             (guild_id,))

    async def guild_threads(self, guild_id: int) -> bool | None:
        """Whether the server wants a thread per match (None: it never said)."""
        row = await self.db.fetchone("SELECT threads FROM guild_settings WHERE guild_id = ?",
                                     (guild_id,))
        return None if row is None or row["threads"] is None else bool(row["threads"])

    async def set_guild_threads(self, guild_id: int, on: bool) -> None:
        """Store whether the server wants a thread per match."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
                             (guild_id, int(bool(on))))

    async def guild_language(self, guild_id: int) -> str | None:
        """The language a moderator chose for the server's public messages, or None."""
        row = await self.db.fetchone("SELECT language FROM guild_languages WHERE guild_id = ?",
                                     (guild_id,))
        return None if row is None else row["language"]

    async def set_guild_language(self, guild_id: int, language: str | None, now: float) -> None:
        """Store the server's language (None: forget it, follow Discord's server locale)."""
        async with self.db.transaction() as tx:
            if language is None:
                await tx.execute("DELETE FROM guild_languages WHERE guild_id = ?", (guild_id,))
                return
            await tx.execute("INSERT INTO guild_languages (guild_id, language, updated_at) "
                             "VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                             "language = excluded.language, updated_at = excluded.updated_at",
                             (guild_id, language, now))

    async def user_setting(self, user_id: int, key: str, default: Any = None) -> Any:
        """A user's setting (any JSON value), or ``default``."""
        row = await self.db.fetchone("SELECT value FROM user_settings WHERE user_id = ? AND "
                                     "key = ?", (user_id, key))
        return default if row is None else json.loads(row["value"])

    async def set_user_setting(self, user_id: int, key: str, value: Any, now: float) -> None:
        """Store a user's setting (a JSON-serialisable value)."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                             "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET "
                             "value = excluded.value, updated_at = excluded.updated_at",
                             (user_id, key, json.dumps(value), now))
