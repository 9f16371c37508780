"""What players look back on: ratings and leaderboards per game, tallies per seat, the Elo
history, finished matches, the last board of a channel."""

from __future__ import annotations

from .context import MatchContext
from .models import Match, PlayerStats
from .result_store import EloRecord, SeatRecord


class StatsService:
    """Ratings, leaderboards and histories (queries of finished matches)."""

    def __init__(self, ctx: MatchContext) -> None:
        self.ctx = ctx

    async def stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        """The user's rated record of ``game`` in the server (a new player's if none)."""
        return await self.ctx.results.stats(guild_id, game, user_id)

    async def seat_records(self, guild_id: int, game: str, user_id: int) -> list[SeatRecord]:
        """The user's rated results of ``game`` in the server, seat by seat."""
        return await self.ctx.results.seat_records(guild_id, game, user_id)

    async def elo(self, guild_id: int, user_id: int) -> EloRecord | None:
        """The user's Elo of Raptor in the server from before the move to OpenSkill."""
        return await self.ctx.results.elo(guild_id, user_id)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10
                          ) -> list[PlayerStats]:
        """The server's rated players of ``game``, best rating first (ties: more games
        first)."""
        return await self.ctx.results.leaderboard(guild_id, game, limit)

    async def last_finished(self, channel_id: int) -> Match | None:
        """The channel's most recently finished match, or None (the board shown between
        matches)."""
        return await self.ctx.matches.last_finished(channel_id)

    async def history(self, guild_id: int, user_id: int, limit: int = 10,
                      game: str | None = None) -> list[Match]:
        """The user's finished matches in the server (of ``game``, or of every game;
        practice ones too), newest first."""
        return await self.ctx.matches.finished_of(guild_id, user_id, limit, game)
