"""The match layer: matches of any game (by seat), challenges, timers and ratings over the
bot's storage, without Discord.

Callers use :class:`MatchService` (the façade, :mod:`bot.match.service`) and the values and
errors of :mod:`bot.match.models`, both re-exported here.
"""

from .models import (
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
    Player,
    PlayerStats,
    ServiceError,
    StaleError,
    TimerEvent,
    TimerKind,
)
from .service import MatchService
from .table_store import Table, TablePlayer, TableStatus

__all__ = [
    "ActResult", "Challenge", "ChallengeExpiredError", "ChallengeStatus",
    "ChannelBusyError", "EndReason", "InvalidRequestError", "LogEntry", "LogKind", "Match",
    "MatchFinishedError", "MatchService", "MatchStatus", "NotAPlayerError", "NotFoundError",
    "NotYourTurnError", "Player", "PlayerStats", "ServiceError", "StaleError", "Table",
    "TablePlayer", "TableStatus", "TimerEvent", "TimerKind",
]
