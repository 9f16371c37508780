"""The ends of matches still to announce: a finished match whose result was never posted in
its channel because the process that ended it stopped first (between committing the end and
posting it), found again so that another process, or the same one restarted, posts it.

The marker is ``matches.end_announced_at`` (migration 8 of :mod:`bot.storage.schema`): NULL until
the end's narration was posted, by whichever path posted it (the flow that ended the match, or this
sweep), then the time it was. Matches finished before that migration count as announced.

Who announces what:

- The flow that ends a match (a timer's forfeit, a move that ends the game, a resignation,
  a draw, a moderator) posts the end itself, then marks it (:meth:`announced`).
- The timer task asks :meth:`due` each loop and at start-up: the finished, unannounced
  matches that ended at least one claim lease ago — a live process posts its own endings
  within seconds, so a match ended moments ago is left to its flow — each claimed for this
  process (:mod:`bot.match.claim_store`; one that another live process, or another task
  of this one, is announcing is left to it), announces them, then marks them, which gives
  the claim up.

So the end is posted once when no process dies, and at least once when one does. Two posts
remain possible only (a) when a process dies after its post went out but before the mark
was written (one database write), or (b) when the posting of an end takes longer than a
claim lease (Discord unreachable that long): then a sweep may post it too.
"""

from __future__ import annotations

from .claim_store import ClaimTarget
from .context import MatchContext
from .models import Match


class AnnouncementService:
    """Finished matches whose end is still to announce; marking an end announced."""

    def __init__(self, ctx: MatchContext) -> None:
        self.ctx = ctx

    async def due(self, now: float | None = None) -> list[Match]:
        """The finished matches whose end was not announced and that ended at least
        :attr:`~bot.match.context.MatchContext.claim_lease` seconds before ``now`` (default:
        the clock), earliest end first, each now claimed by this process (those another live
        process holds, or this one already, are left out). Announce each, then call
        :meth:`announced`; one that cannot be announced keeps its claim until the lease runs
        out, then is due again."""
        ctx = self.ctx
        now = ctx.clock() if now is None else now
        due: list[Match] = []
        for match_id in await ctx.matches.ids_unannounced(ended_before=now - ctx.claim_lease):
            if not await ctx.claim(ClaimTarget.MATCH, match_id, now, renew=False):
                continue
            m, _ = await ctx.match(match_id)
            if m.end_announced_at is not None:  # announced meanwhile (listed before that)
                await ctx.release(ClaimTarget.MATCH, match_id)
                continue
            due.append(m)
        return due

    async def announced(self, match_id: int) -> bool:
        """Record that the end of the finished match ``match_id`` was posted (now, by the
        clock), unless it was already, and give up this process's claim on it (if any);
        whether this call recorded it (False too for a match still active: nothing is
        recorded)."""
        marked = await self.ctx.matches.mark_announced(match_id, self.ctx.clock())
        await self.ctx.release(ClaimTarget.MATCH, match_id)
        return marked
