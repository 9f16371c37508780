"""How a match ends outside the game: resignation, a seat's time running out, draws by
agreement, a moderator, and the common step that finishes a match and records its result.

A seat that leaves (resigns, or its time runs out) is handed to its game
(:meth:`engine.game.Game.forfeit`): a game that goes on without it (Raptor Race skips it,
Ratjack eliminates it) records the forfeit as a step of the log; a game that cannot (Raptor)
ends, the seats still playing sharing first place and the others after them.

Draws (two-player matches): an offer stands until the opponent accepts or declines it, or
until the next action or undo. Offering a draw while the opponent's offer stands accepts it.
The AI takes no draws.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from engine.game import Seat
from engine.messages import Text

from .. import games
from . import deadlines
from .context import MatchContext
from .models import (
    EndReason,
    InvalidRequestError,
    LogKind,
    Match,
    MatchFinishedError,
    MatchStatus,
    StaleError,
)
from .results import record_result
from .steps import SaveLost, save_step

log = logging.getLogger(__name__)


def forfeit_places(m: Match, leaving: Sequence[Seat]) -> tuple[int, ...]:
    """The places of a match that ends because ``leaving`` seats leave it and its game
    cannot go on: the seats still playing share first place, every other seat (those
    leaving, and those that left before) comes after them."""
    staying = [p.seat for p in m.players if p.seat not in leaving and p.left is None]
    return tuple(1 if seat in staying else len(staying) + 1 for seat in range(m.seats))


class EndingService:
    """Resign, forfeit, end by a moderator, offer / accept / decline a draw; :meth:`finish`."""

    def __init__(self, ctx: MatchContext) -> None:
        self.ctx = ctx

    async def resign(self, match_id: int, user_id: int) -> Match:
        """The user resigns their seat (reason :attr:`EndReason.RESIGNED`): its game goes on
        without it, or ends with the others ahead (:meth:`forfeit`).

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
        """
        m, _ = await self.ctx.match(match_id)
        seat = m.acting_seat(user_id)
        return await self.forfeit(m, [seat], EndReason.RESIGNED)

    async def forfeit(self, m: Match, seats: Sequence[Seat], reason: EndReason, *,
                      where: str = "", params: tuple[Any, ...] = ()) -> Match:
        """The ``seats`` of the active match ``m`` leave it (``reason``: resigned, or
        timeout): each is handed to the game (:meth:`engine.game.Game.forfeit`) and the
        forfeit saved as a step; when the game cannot go on without one, the match ends
        (:func:`forfeit_places`, with ``where``/``params`` as extra conditions on the match
        row, see :meth:`finish`).

        Raises:
            MatchFinishedError: the match is over already.
            StaleError: the match changed meanwhile (nothing was saved).
        """
        rules = games.plugin(m.game).game
        state = m.state
        for seat in seats:
            after = rules.forfeit(state, seat)
            if after is None:
                return await self.finish(m, forfeit_places(m, seats), reason, where=where,
                                         params=params)
            state = after
        timeout = await self.ctx.guild_timeout(m.guild_id)
        for seat in seats:
            new = rules.forfeit(m.state, seat)
            assert new is not None
            now = self.ctx.clock()
            deadline, remind = deadlines.timing(rules, m.state, new,
                                                [p.ai for p in m.players], now, timeout,
                                                m.deadline_at, m.remind_at)
            try:
                m = await save_step(self.ctx, m, seat, LogKind.FORFEIT, None, new, now,
                                    deadline, remind, left=reason)
            except SaveLost:
                current, _ = await self.ctx.match(m.id)
                if not current.active:
                    raise MatchFinishedError("This match is already over.") from None
                raise StaleError("Already done: the match changed meanwhile.") from None
            log.info("match %d: seat %d left (%s)", m.id, seat, reason)
            if not m.active:
                break
        return m

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

    async def finish(self, m: Match, places: Sequence[int] | None, reason: EndReason, *,
                     where: str = "", params: tuple[Any, ...] = (),
                     stale: str | Text = "") -> Match:
        """End the active match ``m`` with ``places`` (one per seat; None: no result) and
        ``reason``, and record it (rated if it counts, :mod:`bot.match.results`), in one
        transaction. ``where``/``params`` add SQL conditions on the match row.

        Raises:
            MatchFinishedError: the match is over already.
            StaleError: (``stale``, or "Already done") the extra conditions did not hold.
        """
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as tx:
            n = await self.ctx.matches.finish(tx, m.id, reason, now, where, params)
            if n == 0:
                if await self.ctx.matches.status(tx, m.id) != MatchStatus.ACTIVE:
                    raise MatchFinishedError("This match is already over.")
                raise StaleError(stale or "Already done: the match changed meanwhile.")
            await record_result(self.ctx.results, tx, m, places, None, reason, now)
        log.info("match %d finished: %s (%s)", m.id, _result_word(m, places), reason)
        return (await self.ctx.match(m.id))[0]

    async def offer_draw(self, match_id: int, user_id: int) -> Match:
        """Offer a draw to the opponent. If the opponent's offer stands, this accepts it.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError.
            InvalidRequestError: against the AI, in a match of more than two, or the user's
                offer already stands.
        """
        m, _ = await self.ctx.match(match_id)
        seat = m.acting_seat(user_id)
        if m.practice:
            raise InvalidRequestError("The AI doesn't agree to draws: play on, or resign.")
        if m.seats != 2:
            raise InvalidRequestError("Draws are for two players: play on, or resign.")
        if m.draw_offered_by == user_id:
            raise InvalidRequestError("You have already offered a draw: wait for your "
                                      "opponent's answer.")
        if m.draw_offered_by == m.user_of(1 - seat):
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
        seat = m.acting_seat(user_id)
        offerer = m.user_of(1 - seat) if m.seats == 2 else None
        if m.draw_offered_by is None or m.draw_offered_by != offerer or offerer == user_id:
            raise InvalidRequestError("There is no draw offer from your opponent to accept.")
        return await self.finish(m, (1,) * m.seats, EndReason.DRAW_AGREED,
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
        m.acting_seat(user_id)
        if m.draw_offered_by is None:
            raise InvalidRequestError("There is no draw offer to decline.")
        await self.ctx.matches.clear_draw_offer(match_id, m.draw_offered_by, self.ctx.clock())
        return (await self.ctx.match(match_id))[0]


def _result_word(m: Match, places: Sequence[int] | None) -> str:
    """The result in a log line: the winning seats' words (every seat: ``draw``; no
    result: ``None``), as the game names them."""
    if places is None:
        return "None"
    if all(p == 1 for p in places) and len(places) > 1:
        return "draw"
    plugin = games.plugin(m.game)
    return ",".join(str(plugin.seat_key(s)) for s, p in enumerate(places) if p == 1)
