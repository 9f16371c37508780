"""The SQL of results and ratings (tables ``results``, ``ratings`` and ``elo_ratings``, and
the places and ratings in ``match_players``, of :mod:`bot.storage.schema`) and the mapping
of rating rows to :class:`~bot.match.models.PlayerStats`. Queries only: which matches are
rated, and how, is :mod:`bot.match.results`' decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..storage import Database, Transaction
from .models import PlayerStats
from .ratings import START, Skill


def stats_from_row(guild_id: int, game: str, user_id: int, r: Any | None) -> PlayerStats:
    """The :class:`PlayerStats` of a ``ratings`` row (a new player's when None)."""
    if r is None:
        return PlayerStats(guild_id, game, user_id, START.shown, START.mu, START.sigma)
    return PlayerStats(guild_id, game, user_id, r["rating"], r["mu"], r["sigma"], r["games"],
                       r["wins"], r["draws"], r["losses"])


@dataclass(frozen=True)
class SeatRecord:
    """A player's rated results at one seat of a game (Raptor: as the raptor, as the
    scientist): wins (first alone), draws (first, tied) and losses."""

    seat: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class EloRecord:
    """A Raptor player's Elo rating of a server, as it stood when the bot moved to
    :mod:`bot.match.ratings` (kept as history), with the tallies it counted."""

    rating: float
    wins: int
    losses: int
    draws: int


class ResultStore:
    """Results and per-server, per-game ratings in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        """The user's rated record of ``game`` in the server (a new player's if none)."""
        row = await self.db.fetchone("SELECT * FROM ratings WHERE guild_id = ? AND game = ? "
                                     "AND user_id = ?", (guild_id, game, user_id))
        return stats_from_row(guild_id, game, user_id, row)

    async def leaderboard(self, guild_id: int, game: str, limit: int) -> list[PlayerStats]:
        """The server's rated players of ``game``, best rating first (ties: more games
        first)."""
        rows = await self.db.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? ORDER BY rating DESC, "
            "games DESC, user_id LIMIT ?", (guild_id, game, limit))
        return [stats_from_row(guild_id, game, r["user_id"], r) for r in rows]

    async def seat_records(self, guild_id: int, game: str, user_id: int) -> list[SeatRecord]:
        """The user's rated results of ``game`` in the server, seat by seat (seats never
        played left out), in seat order. Counted as the ratings count them
        (:func:`~bot.match.ratings.standing` of the places among the match's people: the
        AI seats' places only order them), so the seats' tallies add up to the
        :class:`PlayerStats` ones."""
        ahead = ("EXISTS (SELECT 1 FROM match_players o WHERE o.match_id = p.match_id AND "
                 "o.ai IS NULL AND o.place < p.place)")
        tied = ("EXISTS (SELECT 1 FROM match_players o WHERE o.match_id = p.match_id AND "
                "o.ai IS NULL AND o.seat <> p.seat AND o.place = p.place)")
        rows = await self.db.fetchall(
            f"SELECT p.seat, "
            f"SUM(CASE WHEN NOT {ahead} AND NOT {tied} THEN 1 ELSE 0 END) AS wins, "
            f"SUM(CASE WHEN NOT {ahead} AND {tied} THEN 1 ELSE 0 END) AS draws, "
            f"SUM(CASE WHEN {ahead} THEN 1 ELSE 0 END) AS losses "
            "FROM match_players p JOIN results r ON r.match_id = p.match_id "
            "WHERE r.guild_id = ? AND r.game = ? AND r.rated = 1 AND p.user_id = ? "
            "AND p.ai IS NULL GROUP BY p.seat ORDER BY p.seat", (guild_id, game, user_id))
        return [SeatRecord(int(r["seat"]), int(r["wins"]), int(r["draws"]), int(r["losses"]))
                for r in rows]

    async def elo(self, guild_id: int, user_id: int) -> EloRecord | None:
        """The user's Elo rating of Raptor in the server from before the bot's ratings
        moved to OpenSkill, or None if they had none."""
        row = await self.db.fetchone("SELECT * FROM elo_ratings WHERE guild_id = ? AND "
                                     "user_id = ?", (guild_id, user_id))
        if row is None:
            return None
        return EloRecord(row["rating"], row["raptor_wins"] + row["scientist_wins"],
                         row["raptor_losses"] + row["scientist_losses"], row["draws"])

    @staticmethod
    async def skills(tx: Transaction, guild_id: int, game: str, user_ids: Sequence[int],
                     now: float) -> dict[int, Skill]:
        """The users' skills of ``game`` in the server, inside ``tx`` (a new player gets a
        row at :data:`~bot.match.ratings.START`). The rows stay locked until ``tx`` ends
        (the no-op upsert takes the row lock on PostgreSQL; SQLite's writers take turns
        anyway), taken in the order of the user ids, so that two results sharing players
        never rate from the same old value nor wait for each other."""
        out = {}
        for user_id in sorted(set(user_ids)):
            row = await tx.fetchone(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, rating, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO "
                "UPDATE SET mu = ratings.mu RETURNING mu, sigma",
                (guild_id, game, user_id, START.mu, START.sigma, START.shown, now))
            out[user_id] = Skill(row["mu"], row["sigma"])
        return out

    @staticmethod
    async def rate(tx: Transaction, guild_id: int, game: str, user_id: int, skill: Skill,
                   standing: str, now: float) -> None:
        """Set the user's new skill and count one rated result (``standing``: ``"win"``,
        ``"draw"`` or ``"loss"``)."""
        column = {"win": "wins", "draw": "draws", "loss": "losses"}[standing]
        await tx.execute(
            f"UPDATE ratings SET mu = ?, sigma = ?, rating = ?, games = games + 1, "
            f"{column} = {column} + 1, updated_at = ? WHERE guild_id = ? AND game = ? AND "
            "user_id = ?", (skill.mu, skill.sigma, skill.shown, now, guild_id, game, user_id))

    @staticmethod
    async def set_ratings(tx: Transaction, match_id: int, seat: int, before: float,
                          after: float) -> None:
        """Record the shown rating of the player of ``seat`` before and after the match."""
        await tx.execute("UPDATE match_players SET rating_before = ?, rating_after = ? WHERE "
                         "match_id = ? AND seat = ?", (before, after, match_id, seat))

    @staticmethod
    async def insert(tx: Transaction, *, match_id: int, game: str, guild_id: int,
                     reason: str, rated: bool, now: float) -> None:
        """Record a finished match's result row."""
        await tx.execute(
            "INSERT INTO results (match_id, game, guild_id, reason, rated, rating, "
            "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (match_id, game, guild_id, reason, int(rated), "openskill" if rated else None,
             now))
