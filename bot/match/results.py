"""Recording a finished match's result, and rating it.

Ratings (see :mod:`bot.match.ratings`): Elo per server, start 1500, K = 32. Only matches
between two different human players are rated and counted in wins/losses; matches against
the AI and matches without a result (abandoned, or ended by a moderator) change nothing
(they still appear in the history).
"""

from __future__ import annotations

from ..storage import Transaction
from .models import DRAW, RAPTOR, SCIENTIST, EndReason, Match
from .ratings import elo_update
from .result_store import ResultStore

_SCORE = {RAPTOR.value: 1.0, DRAW: 0.5, SCIENTIST.value: 0.0}  # the raptor's Elo score


def is_rated(m: Match, result: str | None, reason: str) -> bool:
    """Whether a match that ended with ``result``/``reason`` changes ratings: two different
    people played it and it has a result."""
    return (m.ai[RAPTOR] is None and m.ai[SCIENTIST] is None and reason != EndReason.ABANDONED
            and result is not None and m.players[RAPTOR] != m.players[SCIENTIST])


async def record_result(results: ResultStore, tx: Transaction, m: Match, result: str | None,
                        reason: str, now: float) -> None:
    """Inside ``tx``: store the result of ``m`` (``result``: a side's value, ``"draw"`` or
    None) and, if it is rated, both players' new ratings and counts."""
    rated = is_rated(m, result, reason)
    before: tuple[float | None, float | None] = (None, None)
    after: tuple[float | None, float | None] = (None, None)
    if rated:
        assert result is not None
        ids = (m.players[RAPTOR], m.players[SCIENTIST])
        # Rows locked in one order (the user ids'), so that two results sharing players
        # never wait for each other (PostgreSQL locks each rating row until the commit).
        locked = {uid: await results.rating(tx, m.guild_id, uid, now) for uid in sorted(ids)}
        ratings = [locked[uid] for uid in ids]
        before = (ratings[0], ratings[1])
        after = elo_update(ratings[0], ratings[1], _SCORE[result])
        for side, uid, new_rating in ((RAPTOR, ids[0], after[0]),
                                      (SCIENTIST, ids[1], after[1])):
            await results.rate(tx, m.guild_id, uid, side, new_rating,
                               won=result == side.value,
                               lost=result not in (side.value, DRAW),
                               drawn=result == DRAW, now=now)
    await results.insert(tx, match_id=m.id, guild_id=m.guild_id,
                         raptor_user_id=m.players[RAPTOR],
                         scientist_user_id=m.players[SCIENTIST], result=result, reason=reason,
                         rated=rated, before=before, after=after, now=now)
