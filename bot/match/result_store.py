"""The SQL of results and ratings (tables ``results`` and ``ratings`` of :mod:`bot.storage.schema`)
and the mapping of rating rows to :class:`~bot.match.models.PlayerStats`. Queries only: which
matches are rated, and how, is :mod:`bot.match.results`' decision.
"""

from __future__ import annotations

import sqlite3

from engine import Side

from ..storage import Database, Transaction
from .models import PlayerStats
from .ratings import START_RATING


def stats_from_row(guild_id: int, user_id: int, r: sqlite3.Row | None) -> PlayerStats:
    """The :class:`PlayerStats` of a ``ratings`` row (a new player's when None)."""
    if r is None:
        return PlayerStats(guild_id, user_id)
    return PlayerStats(guild_id, user_id, r["rating"], r["raptor_wins"], r["raptor_losses"],
                       r["scientist_wins"], r["scientist_losses"], r["draws"])


class ResultStore:
    """Results and per-server ratings in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The user's rated record in the server (rating 1500 and zeros if none)."""
        row = await self.db.fetchone("SELECT * FROM ratings WHERE guild_id = ? AND user_id = ?",
                                     (guild_id, user_id))
        return stats_from_row(guild_id, user_id, row)

    async def leaderboard(self, guild_id: int, limit: int) -> list[PlayerStats]:
        """The server's rated players, best rating first (ties: more games first)."""
        rows = await self.db.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? ORDER BY rating DESC, "
            "(raptor_wins + raptor_losses + scientist_wins + scientist_losses + draws) DESC, "
            "user_id LIMIT ?", (guild_id, limit))
        return [stats_from_row(guild_id, r["user_id"], r) for r in rows]

    @staticmethod
    async def rating(tx: Transaction, guild_id: int, user_id: int, now: float) -> float:
        """The user's rating in the server, inside ``tx`` (a new player gets a row with the
        start rating). The row stays locked until ``tx`` ends (the no-op upsert takes the
        row lock on PostgreSQL; SQLite's writers take turns anyway), so two results never
        rate from the same old value."""
        row = await tx.fetchone("INSERT INTO ratings (guild_id, user_id, rating, updated_at) "
                                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO "
                                "UPDATE SET rating = ratings.rating RETURNING rating",
                                (guild_id, user_id, START_RATING, now))
        return row["rating"]

    @staticmethod
    async def rate(tx: Transaction, guild_id: int, user_id: int, side: Side, rating: float, *,
                   won: bool, lost: bool, drawn: bool, now: float) -> None:
        """Set the user's new rating and count one rated result as ``side``."""
        await tx.execute(
            f"UPDATE ratings SET rating = ?, {side.value}_wins = {side.value}_wins + ?, "
            f"{side.value}_losses = {side.value}_losses + ?, draws = draws + ?, "
            "updated_at = ? WHERE guild_id = ? AND user_id = ?",
            (rating, int(won), int(lost), int(drawn), now, guild_id, user_id))

    @staticmethod
    async def insert(tx: Transaction, *, match_id: int, guild_id: int, raptor_user_id: int,
                     scientist_user_id: int, result: str | None, reason: str, rated: bool,
                     before: tuple[float | None, float | None],
                     after: tuple[float | None, float | None], now: float) -> None:
        """Record a finished match's result (ratings before/after: raptor's, scientist's)."""
        await tx.execute(
            "INSERT INTO results (match_id, guild_id, raptor_user_id, scientist_user_id, "
            "result, reason, rated, raptor_rating_before, raptor_rating_after, "
            "scientist_rating_before, scientist_rating_after, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (match_id, guild_id, raptor_user_id, scientist_user_id, result, reason,
             int(rated), before[0], after[0], before[1], after[1], now))
