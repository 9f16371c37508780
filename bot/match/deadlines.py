"""When a human's decision times out and when it gets a reminder.

Each turn of a human player (a card pick, a card's effect, an AP phase, a placement, the
mother's return) has a deadline: the time it began plus the server's turn timeout. The
decisions inside an effect or an AP phase, and undoing them, do not restart its clock, and
in the simultaneous card pick (R5.1) one side's pick does not restart the other side's. A
reminder is due at half time. AI sides never time out; an AI that failed to decide is tried
again after a delay that doubles with each failure in a row, and the match ends without a
result after :data:`AI_FAILURE_LIMIT` of them (:func:`ai_retry_at`).
"""

from __future__ import annotations

import engine
from engine import GameState, Phase, Side


def turn(state: GameState) -> tuple[Phase, Side] | None:
    """The turn under way: a card's effect or an AP phase and whose it is (R5.4, R5.5); None
    in the other phases."""
    if state.phase is Phase.EFFECT and state.effect is not None:
        return Phase.EFFECT, state.effect.side
    if state.phase is Phase.AP and state.ap is not None:
        return Phase.AP, state.ap.side
    return None


def timing(old: GameState | None, new: GameState, ai: dict[Side, str | None], now: float,
           timeout: float, old_deadline: float | None,
           old_remind: float | None) -> tuple[float | None, float | None]:
    """(deadline, reminder time) in Unix seconds of the pending human decision(s) after a
    change from ``old`` (None: a new match) to ``new``; (None, None) when no human must
    decide. ``timeout``: the turn timeout in seconds."""
    humans = {s for s in engine.to_act(new) if ai[s] is None}
    if not humans or new.is_over:
        return None, None
    if (old is not None and old_deadline is not None and old.phase is Phase.PICK
            and new.phase is Phase.PICK and old.round == new.round
            and humans <= {s for s in engine.to_act(old) if ai[s] is None}):
        # The simultaneous pick goes on: the other side's clock keeps running (R5.1).
        return old_deadline, old_remind
    if (old is not None and old_deadline is not None and old.round == new.round
            and turn(old) is not None and turn(old) == turn(new)):
        # The same turn goes on (a card's effect, or action points, R5.4-R5.5): its
        # clock keeps running, so moving and undoing cannot stall the match.
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
