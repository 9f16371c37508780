"""Timers: challenges that expire, turns that time out, half-time reminders, an AI that kept
failing, and each server's turn timeout (see :mod:`bot.match.deadlines` for when a deadline
falls).

At the deadline an idle player forfeits their seat (reason :attr:`EndReason.TIMEOUT`,
:meth:`EndingService.forfeit`: the game goes on without it, or ends with the others ahead,
rated like any result); if EVERY person of the match is idle (two or more, in a simultaneous
decision such as Raptor's pick), nobody is more to blame, so the match ends as
:attr:`EndReason.ABANDONED` with no result and no rating change. A reminder is due at half
time, once per turn.

An AI that failed to decide :data:`~bot.match.deadlines.AI_FAILURE_LIMIT` times in a row
(each failure retried by the timer loop, :meth:`PlayService.ai_retries_due`) is not tried
again: the match ends without a result and unrated (:attr:`EndReason.AI_FAILED`). The human
did nothing wrong and could not win a game the AI cannot play, so neither side gets a
result; the end is posted like a forfeit, saying why.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncIterator

from .claim_store import ClaimTarget
from .context import MatchContext
from .deadlines import AI_FAILURE_LIMIT
from .endings import EndingService
from .models import (
    ChallengeStatus,
    EndReason,
    InvalidRequestError,
    MatchFinishedError,
    StaleError,
    TimerEvent,
    TimerKind,
)
from .tables import TableService


class TimerService:
    """Fires due timers from the database; ends timed-out matches through ``endings``."""

    def __init__(self, ctx: MatchContext, endings: EndingService, tables: TableService
                 ) -> None:
        self.ctx = ctx
        self.endings = endings
        self.tables = tables

    async def process_timers(self, now: float | None = None) -> list[TimerEvent]:
        """Fire every timer that is due at ``now`` (default: the clock), from the database:
        expire challenges and tables, forfeit matches past their deadline, end the matches whose AI
        failed too often (:attr:`TimerKind.AI_FAILED`), send half-time reminders.
        Idempotent: a timer fires once, even if called again or from two processes: each
        is claimed first (:mod:`bot.match.claim_store`; one held by another live process is
        left to it, one whose lease ran out is taken over), then fired by a conditional
        update, then released.
        """
        ctx = self.ctx
        now = ctx.clock() if now is None else now
        events: list[TimerEvent] = []
        for cid in await ctx.challenges.ids_expired(now):
            async with self._claimed(ClaimTarget.CHALLENGE, cid, now) as mine:
                if mine and await ctx.challenges.set_status(cid, ChallengeStatus.EXPIRED,
                                                            expired_at=now):
                    ch = await ctx.challenge(cid)
                    events.append(TimerEvent(TimerKind.CHALLENGE_EXPIRED, ch.channel_id,
                                             (ch.challenger_id, ch.challenged_id),
                                             challenge_id=ch.id, challenge=ch))
        for table in await self.tables.expire(now):
            events.append(TimerEvent(TimerKind.TABLE_EXPIRED, table.channel_id,
                                     tuple(table.humans), table=table))
        for mid in await ctx.matches.ids_past_deadline(now):
            async with self._claimed(ClaimTarget.MATCH, mid, now) as mine:
                event = await self._forfeit(mid, now) if mine else None
            if event is not None:
                events.append(event)
        for mid in await ctx.matches.ids_ai_failed(now, AI_FAILURE_LIMIT):
            async with self._claimed(ClaimTarget.MATCH, mid, now) as mine:
                event = await self._end_failed_ai(mid, now) if mine else None
            if event is not None:
                events.append(event)
        for mid in await ctx.matches.ids_to_remind(now):
            async with self._claimed(ClaimTarget.MATCH, mid, now) as mine:
                if not mine:
                    continue
                m, _ = await ctx.match(mid)
                flagged = await ctx.matches.mark_reminded(m.id, m.version)
                idle = m.idle_humans()
                if flagged and idle:
                    events.append(TimerEvent(TimerKind.REMINDER, m.channel_id,
                                             tuple(m.user_of(s) for s in idle), match_id=m.id,
                                             match=(await ctx.match(m.id))[0],
                                             seats=tuple(idle)))
        return events

    @contextlib.asynccontextmanager
    async def _claimed(self, target: ClaimTarget, row_id: int, now: float
                       ) -> AsyncIterator[bool]:
        """Claim the row at ``now`` for the block (yields whether this process got it);
        released at the end, unless the process dies first (then its lease runs out)."""
        mine = await self.ctx.claim(target, row_id, now)
        try:
            yield mine
        finally:
            if mine:
                await self.ctx.release(target, row_id)

    async def _forfeit(self, match_id: int, now: float) -> TimerEvent | None:
        """Forfeit the idle seats of a match past its deadline (every person idle, two or
        more: the match is abandoned)."""
        m, _ = await self.ctx.match(match_id)
        idle = m.idle_humans()
        if not idle:
            return None
        playing = [p.seat for p in m.players if p.human and p.left is None]
        guard = dict(where=" AND version = ? AND deadline_at <= ?", params=(m.version, now))
        try:
            if len(idle) > 1 and len(idle) == len(playing):
                after = await self.endings.finish(m, None, EndReason.ABANDONED, **guard)
            else:
                after = await self.endings.forfeit(m, idle, EndReason.TIMEOUT, **guard)
        except (StaleError, MatchFinishedError):
            return None
        kind = TimerKind.SEAT_LEFT if after.active else TimerKind.FORFEIT
        return TimerEvent(kind, m.channel_id, tuple(m.user_of(s) for s in idle),
                          match_id=m.id, match=after, seats=tuple(idle))

    async def _end_failed_ai(self, match_id: int, now: float) -> TimerEvent | None:
        """End a match whose AI failed too often in a row (no result, unrated), unless it
        decided meanwhile."""
        m, _ = await self.ctx.match(match_id)
        try:
            after = await self.endings.finish(
                m, None, EndReason.AI_FAILED, where=" AND ai_failures >= ? AND ai_retry_at <= ?",
                params=(AI_FAILURE_LIMIT, now))
        except (StaleError, MatchFinishedError):
            return None
        humans = tuple(p.user_id for p in m.players if p.human)
        return TimerEvent(TimerKind.AI_FAILED, m.channel_id, humans, match_id=m.id,
                          match=after)

    async def next_timer_at(self) -> float | None:
        """When the next timer is due (Unix seconds), or None if none is pending: a challenge
        or table expiry, a deadline, a reminder, a retry of an AI that failed, or the moment an end
        that nobody announced yet becomes due for the sweep (:mod:`bot.match.announcements`:
        a claim lease after the end). Ends already past that moment are not counted: the
        sweep of the loop's every pass takes them, and one that stays unannounced must not
        keep the loop awake."""
        ctx = self.ctx
        timer = await ctx.matches.next_timer_at()
        table = await ctx.tables.next_expiry()
        end = await ctx.matches.next_unannounced_end(after=ctx.clock() - ctx.claim_lease)
        due = [t for t in (timer, table, None if end is None else end + ctx.claim_lease)
               if t is not None]
        return min(due) if due else None

    async def set_guild_timeout(self, guild_id: int, seconds: float) -> None:
        """Set the server's turn timeout; it applies from each match's next change.

        Raises:
            InvalidRequestError: not a positive finite number of seconds.
        """
        if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
            raise InvalidRequestError("The turn timeout must be a positive number of seconds.")
        await self.ctx.settings.set_guild_timeout(guild_id, seconds)

    async def reset_guild_timeout(self, guild_id: int) -> None:
        """Forget the server's own turn timeout: the bot's default applies again, from each
        match's next change."""
        await self.ctx.settings.reset_guild_timeout(guild_id)

    async def has_guild_timeout(self, guild_id: int) -> bool:
        """Whether the server set its own turn timeout."""
        return await self.ctx.settings.guild_timeout(guild_id) is not None

    async def guild_timeout(self, guild_id: int) -> float:
        """The server's turn timeout in seconds."""
        return await self.ctx.guild_timeout(guild_id)
