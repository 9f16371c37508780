"""What players look back on: ratings and the leaderboard, finished matches, the last board
of a channel."""

from __future__ import annotations

from .context import MatchContext
from .models import Match, PlayerStats


class StatsService:
    """Ratings, leaderboards and histories (queries of finished matches)."""

    def __init__(self, ctx: MatchContext) -> None:
        self.ctx = ctx

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The user's rated record in the server (rating 1500 and zeros if none)."""
        return await self.ctx.results.stats(guild_id, user_id)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's rated players, best rating first (ties: more games first)."""
        return await self.ctx.results.leaderboard(guild_id, limit)

    async def last_finished(self, channel_id: int) -> Match | None:
        """The channel's most recently finished match, or None (the board shown between
        matches)."""
        return await self.ctx.matches.last_finished(channel_id)

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[Match]:
        """The user's finished matches in the server (practice ones too), newest first."""
        return await self.ctx.matches.finished_of(guild_id, user_id, limit)
