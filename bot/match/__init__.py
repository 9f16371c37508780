"""The match layer: matches, challenges, timers and ratings over SQLite, without Discord.

Callers use :class:`MatchService` (the façade, :mod:`bot.match.service`) and the values and
errors of :mod:`bot.match.models`, both re-exported here.
"""

from .models import (
    DRAW,
    SIDES,
    ActResult,
    Challenge,
    ChallengeExpiredError,
    ChallengeStatus,
    ChannelBusyError,
    EndReason,
    InvalidRequestError,
    LogEntry,
    LogKind,
    Match,
    MatchFinishedError,
    MatchStatus,
    NotAPlayerError,
    NotFoundError,
    NotYourTurnError,
    PlayerStats,
    ServiceError,
    StaleError,
    TimerEvent,
    TimerKind,
)
from .service import MatchService

__all__ = [
    "DRAW", "SIDES", "ActResult", "Challenge", "ChallengeExpiredError", "ChallengeStatus",
    "ChannelBusyError", "EndReason", "InvalidRequestError", "LogEntry", "LogKind", "Match",
    "MatchFinishedError", "MatchService", "MatchStatus", "NotAPlayerError", "NotFoundError",
    "NotYourTurnError", "PlayerStats", "ServiceError", "StaleError", "TimerEvent", "TimerKind",
]
