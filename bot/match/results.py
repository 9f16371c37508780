"""Recording a finished match's result, and rating it.

A result is each seat's place (1 for first, tied seats sharing a place; None for every seat
when the match ended without a result) and the game's score per seat when it has one. A
match is rated (:mod:`bot.match.ratings`, per server and game) when it has a result, did not
end abandoned, and at least two different people played it, each at one seat; the people
are rated by their places among themselves (AI seats are not rated, and their places only
order the people). Matches against the AI alone and matches without a result change no
rating (they still appear in the history).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..storage import Transaction
from .match_store import MatchStore
from .models import EndReason, Match
from .ratings import rate, reranked, standing
from .result_store import ResultStore


def rated_seats(m: Match, places: Sequence[int | None] | None, reason: str) -> list[int]:
    """The seats whose players a match that ended with ``places``/``reason`` rates: the
    people's, when it counts (see the module's rules); else none."""
    if places is None or any(p is None for p in places) or reason == EndReason.ABANDONED:
        return []
    humans = [p for p in m.players if p.human]
    users = [p.user_id for p in humans]
    if len(set(users)) < 2 or len(set(users)) != len(users):
        return []
    return [p.seat for p in humans]


async def record_result(results: ResultStore, tx: Transaction, m: Match,
                        places: Sequence[int | None] | None,
                        scores: Sequence[float | None] | None, reason: str,
                        now: float) -> None:
    """Inside ``tx``: store the result of ``m`` (``places`` per seat, or None: no result;
    ``scores`` the game's points per seat, or None) and, if it is rated, the new ratings of
    its people."""
    if places is not None:
        await MatchStore.set_places(tx, m.id, places, scores)
    seats = rated_seats(m, places, reason)
    if seats:
        assert places is not None
        users = [m.user_of(seat) for seat in seats]
        among = reranked([places[seat] for seat in seats])
        before = await results.skills(tx, m.guild_id, m.game, users, now)
        after = rate([before[u] for u in users], among)
        for seat, user, place, skill in zip(seats, users, among, after, strict=True):
            await results.rate(tx, m.guild_id, m.game, user, skill, standing(place, among),
                               now)
            await results.set_ratings(tx, m.id, seat, before[user].shown, skill.shown)
    await results.insert(tx, match_id=m.id, game=m.game, guild_id=m.guild_id, reason=reason,
                         rated=bool(seats), now=now)
