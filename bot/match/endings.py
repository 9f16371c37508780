"""How a match ends outside the game: resignation, draws by agreement, a moderator, and the
common step that finishes a match and records its result (timers use it too).

Draws: an offer stands until the opponent accepts or declines it, or until the next action
or undo. Offering a draw while the opponent's offer stands accepts it. The AI takes no draws.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.messages import Text

from .context import MatchContext
from .models import (
    DRAW,
    EndReason,
    InvalidRequestError,
    Match,
    MatchFinishedError,
    MatchStatus,
    StaleError,
)
from .results import record_result

log = logging.getLogger(__name__)


class EndingService:
    """Resign, end by a moderator, offer / accept / decline a draw; :meth:`finish`."""

    def __init__(self, ctx: MatchContext) -> None:
        self.ctx = ctx

    async def resign(self, match_id: int, user_id: int) -> Match:
        """The user resigns: the opponent wins (reason :attr:`EndReason.RESIGNED`).

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
        """
        m, _ = await self.ctx.match(match_id)
        side = m.acting_side(user_id)
        return await self.finish(m, side.other.value, EndReason.RESIGNED)

    async def end_by_moderator(self, match_id: int) -> Match:
        """End an active match without a result and unrated (reason
        :attr:`EndReason.ENDED_BY_MODERATOR`), for a server moderator; the Discord layer
        decides who may.

        Raises:
            NotFoundError, MatchFinishedError.
        """
        m, _ = await self.ctx.match(match_id)
        return await self.finish(m, None, EndReason.ENDED_BY_MODERATOR)

    async def stop(self, match_id: int) -> Match:
        """End an active match without a result and unrated (reason
        :attr:`EndReason.STOPPED`): its player stopped it where it cannot be resumed (the
        terminal mode's Ctrl-C or SIGTERM, or a match it left unfinished).

        Raises:
            NotFoundError, MatchFinishedError.
        """
        m, _ = await self.ctx.match(match_id)
        return await self.finish(m, None, EndReason.STOPPED)

    async def finish(self, m: Match, result: str | None, reason: EndReason, *,
                     where: str = "", params: tuple[Any, ...] = (),
                     stale: str = "") -> Match:
        """End the active match ``m`` with ``result``/``reason`` and record it (rated if it
        counts, :mod:`bot.match.results`), in one transaction. ``where``/``params`` add SQL
        conditions on the match row.

        Raises:
            MatchFinishedError: the match is over already.
            StaleError: (``stale``, or "Already done") the extra conditions did not hold.
        """
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as tx:
            n = await self.ctx.matches.finish(tx, m.id, result, reason, now, where, params)
            if n == 0:
                if await self.ctx.matches.status(tx, m.id) != MatchStatus.ACTIVE:
                    raise MatchFinishedError("This match is already over.")
                raise StaleError(stale or "Already done: the match changed meanwhile.")
            await record_result(self.ctx.results, tx, m, result, reason, now)
        log.info("match %d finished: %s (%s)", m.id, result, reason)
        return (await self.ctx.match(m.id))[0]

    async def offer_draw(self, match_id: int, user_id: int) -> Match:
        """Offer a draw to the opponent. If the opponent's offer stands, this accepts it.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError.
            InvalidRequestError: against the AI, or the user's offer already stands.
        """
        m, _ = await self.ctx.match(match_id)
        side = m.acting_side(user_id)
        if m.practice:
            raise InvalidRequestError("The AI doesn't agree to draws: play on, or resign.")
        if m.draw_offered_by == user_id:
            raise InvalidRequestError("You have already offered a draw: wait for your "
                                      "opponent's answer.")
        if m.draw_offered_by == m.players[side.other]:
            return await self.accept_draw(match_id, user_id)
        if not await self.ctx.matches.offer_draw(match_id, user_id, self.ctx.clock()):
            raise StaleError("The match changed meanwhile: look at the latest message.")
        return (await self.ctx.match(match_id))[0]

    async def accept_draw(self, match_id: int, user_id: int) -> Match:
        """Accept the opponent's standing draw offer: the match ends as a draw.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
            InvalidRequestError: no offer from the opponent stands.
            StaleError: the offer was cleared meanwhile (an action was played).
        """
        m, _ = await self.ctx.match(match_id)
        side = m.acting_side(user_id)
        offerer = m.players[side.other]
        if m.draw_offered_by is None or m.draw_offered_by != offerer or offerer == user_id:
            raise InvalidRequestError("There is no draw offer from your opponent to accept.")
        return await self.finish(m, DRAW, EndReason.DRAW_AGREED,
                                 where=" AND draw_offered_by = ?", params=(offerer,),
                                 stale=Text("The draw offer is no longer open: a move was "
                                            "made meanwhile."))

    async def decline_draw(self, match_id: int, user_id: int) -> Match:
        """Decline the opponent's draw offer (or withdraw one's own).

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
            InvalidRequestError: no draw offer stands.
        """
        m, _ = await self.ctx.match(match_id)
        m.acting_side(user_id)
        if m.draw_offered_by is None:
            raise InvalidRequestError("There is no draw offer to decline.")
        await self.ctx.matches.clear_draw_offer(match_id, m.draw_offered_by, self.ctx.clock())
        return (await self.ctx.match(match_id))[0]
