"""Saving one step of a match: its new state and its log record, in one statement guarded by
the match's version, and, when the game is over, its result in the same transaction.

A step is an action, an undo, or a seat's forfeit (the seat left a game that goes on
without it, :meth:`engine.game.Game.forfeit`). The caller applies it to the match as it
loaded it; :func:`save_step` raises :class:`SaveLost` when another step of the match was
saved first, and the caller decides whether to load and try again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.game import Seat

from .. import games
from .context import MatchContext
from .models import EndReason, LogKind, Match, MatchStatus
from .results import record_result


class SaveLost(Exception):
    """The versioned save of a step changed no row: another step of the match was saved
    first (or the match ended) since it was loaded."""


def action_text(game: str, action: Any | None) -> str:
    """The log's text of ``action`` of ``game`` (a forfeit, None: ``null``)."""
    return "null" if action is None else games.plugin(game).game.action_to_json(action)


async def save_step(ctx: MatchContext, m: Match, seat: Seat, kind: LogKind, action: Any | None,
                    new: Any, now: float, deadline: float | None, remind: float | None, *,
                    left: str | None = None) -> Match:
    """Save the state ``new`` of the match ``m`` after ``seat``'s step and its log record in
    one statement, if ``m.version`` is still the stored one; ``left``: the
    :class:`EndReason` of a seat that left by this step (a forfeit). When the game is over
    in ``new``, the match is finished with the game's outcome and its result recorded (and
    rated), in one transaction. Returns the match as saved.

    Raises:
        SaveLost: ``m.version`` is not the stored version any more (or the match is not
            active): nothing was saved.
    """
    rules = games.plugin(m.game).game
    keep_reminder = remind is not None and remind == m.remind_at and m.reminded
    outcome = rules.outcome(new) if rules.is_over(new) else None
    status = MatchStatus.ACTIVE if outcome is None else MatchStatus.FINISHED
    if outcome is not None:
        deadline = remind = None
    text = rules.state_to_json(new)
    update = ctx.matches.step_update(m, seat, kind, action_text(m.game, action), text, now,
                                     deadline, remind, keep_reminder, status,
                                     None if outcome is None else outcome.reason)
    if outcome is None and left is None:
        if await ctx.db.write(*update) != 1:
            raise SaveLost
    else:  # the step with the seat's leave, or the last step with the result (and ratings)
        async with ctx.db.transaction() as tx:
            if await tx.execute(*update) != 1:
                raise SaveLost
            if left is not None:
                await ctx.matches.set_left(tx, m.id, seat, left)
            if outcome is not None:
                await record_result(ctx.results, tx, m, outcome.places, outcome.scores,
                                    outcome.reason, now)
    ctx.matches.states.put(m.id, text, new)
    if outcome is not None:  # the places and ratings are in the stored rows: read them back
        return (await ctx.match(m.id))[0]
    players = m.players
    if left is not None:
        players = tuple(replace(p, left=EndReason(left)) if p.seat == seat else p
                        for p in players)
    return replace(m, state=new, version=m.version + 1, log_length=m.log_length + 1,
                   updated_at=now, last_activity=now, deadline_at=deadline,
                   remind_at=remind, reminded=keep_reminder, draw_offered_by=None,
                   players=players)
