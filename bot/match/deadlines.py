"""When a human's decision times out and when it gets a reminder.

Each turn of a human player has a deadline: the time it began plus the server's turn
timeout. What a turn is, is the game's to say (:meth:`engine.game.Game.turn`): the
decisions inside one turn, and undoing them, do not restart its clock, and in a
simultaneous decision (Raptor's card pick, R5.1) one seat's decision does not restart the
others'. A reminder is due at half time. AI seats never time out; an AI that failed to
decide is tried again after a delay that doubles with each failure in a row, and the match
ends without a result after :data:`AI_FAILURE_LIMIT` of them (:func:`ai_retry_at`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Game


def timing(game: Game, old: Any | None, new: Any, ai: Sequence[str | None], now: float,
           timeout: float, old_deadline: float | None,
           old_remind: float | None) -> tuple[float | None, float | None]:
    """(deadline, reminder time) in Unix seconds of the pending human decision(s) after a
    change from the state ``old`` (None: a new match) to ``new`` of ``game``; (None, None)
    when no human must decide. ``ai``: the AI level of each seat (None: a person);
    ``timeout``: the turn timeout in seconds.

    The running deadline goes on when every person who must decide now was deciding before
    in the same turn (the same :meth:`~engine.game.Game.turn` key, not None)."""
    humans = [s for s in game.to_act(new) if ai[s] is None]
    if not humans or game.is_over(new):
        return None, None
    if old is not None and old_deadline is not None:
        before = game.to_act(old)
        if all(s in before and (key := game.turn(old, s)) is not None
               and key == game.turn(new, s) for s in humans):
            return old_deadline, old_remind
    return now + timeout, now + timeout / 2


#: Seconds after the AI's first failure in a row at which the timer loop tries it again; each
#: further failure doubles the delay (5, 10, 20 s).
AI_RETRY_DELAY = 5.0
#: Failures in a row after which the AI is not tried again: the match ends without a result
#: and unrated (:attr:`bot.match.models.EndReason.AI_FAILED`), as soon as the timer loop
#: sees it. A failure that happens again and again (a bug in a position) would only keep
#: the human waiting; about half a minute of retries outlasts a passing one.
AI_FAILURE_LIMIT = 4


def ai_retry_at(failures: int, now: float) -> float:
    """When the AI that has just failed for the ``failures``-th time in a row (>= 1) at
    ``now`` (Unix seconds) is tried again: ``now + AI_RETRY_DELAY * 2 ** (failures - 1)``;
    at :data:`AI_FAILURE_LIMIT` failures or more, ``now``: the match is due to be ended."""
    if failures >= AI_FAILURE_LIMIT:
        return now
    return now + AI_RETRY_DELAY * 2 ** (failures - 1)
