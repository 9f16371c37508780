"""The match layer's values: errors, states and reasons as enums, and the records the stores
return (:class:`Match`, :class:`Challenge`, :class:`PlayerStats`, :class:`LogEntry`) and the
services produce (:class:`ActResult`, :class:`TimerEvent`).

Nothing here touches the database or Discord. Times are Unix seconds; guild, channel and user
ids are ``int``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import engine
from engine import Action, Event, GameState, Options, Side
from engine.messages import Text

from .ratings import START_RATING

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
SIDES = (RAPTOR, SCIENTIST)
CHALLENGE_SIDES = ("raptor", "scientist", "random")
ENVIRONMENTS = ("jungle", "savannah")
SETUPS = ("quick", "manual")
DRAW = "draw"  # Match.result of a draw (else the winning side's value, or None)


# ----------------------------------------------------------------------------- enums
class MatchStatus(StrEnum):
    """Whether a match is still played (the ``matches.status`` column)."""

    ACTIVE = "active"
    FINISHED = "finished"


#: The sides as the bot's sentences name them ("the raptor player").
SIDE_WORDS = {Side.RAPTOR: Text("raptor"), Side.SCIENTIST: Text("scientist")}


class ChallengeStatus(StrEnum):
    """Where a challenge stands (the ``challenges.status`` column): pending until the
    challenged player accepts or declines it, the challenger cancels it (or the bot withdraws
    a challenge whose message was never posted) or its time runs out."""

    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


#: Why a match ended outside the game (resigned, timeout, draw_agreed, abandoned,
#: ended_by_moderator, stopped, ai_failed); a game that ended by its rules (R6) has an
#: :class:`engine.Reason` instead. One enum with the match records' ``Reason`` line
#: (:class:`engine.Ending`).
EndReason = engine.Ending


Reason = engine.Reason | EndReason


def parse_reason(text: str | None) -> Reason | None:
    """The stored ``matches.reason`` text as an enum member (None stays None).

    Raises:
        ValueError: a text that is neither an :class:`EndReason` nor an :class:`engine.Reason`.
    """
    if text is None:
        return None
    try:
        return EndReason(text)
    except ValueError:
        return engine.Reason(text)


class LogKind(StrEnum):
    """A record of the action log: an action played, or an undo taking the last one back."""

    ACTION = "action"
    UNDO = "undo"


class TimerKind(StrEnum):
    """What a timer did (:class:`TimerEvent`)."""

    REMINDER = "reminder"
    FORFEIT = "forfeit"
    CHALLENGE_EXPIRED = "challenge_expired"
    AI_FAILED = "ai_failed"


# ----------------------------------------------------------------------------- errors
class ServiceError(Exception):
    """Base of the service's errors. ``message`` is a sentence for the user that says what to
    do, a :class:`~engine.messages.Text` of the catalog (a plain str given is taken as its
    message id: the error classes are extraction markers, ``bot/i18n/catalogs.py``); it never
    contains hidden information. ``str(error)`` is the English."""

    def __init__(self, message: str | Text) -> None:
        self.message = message if isinstance(message, Text) else Text(message)
        super().__init__(self.message)


class NotFoundError(ServiceError):
    """No match or challenge with that id."""


class NotAPlayerError(ServiceError):
    """The user may not do that: not a player of the match, not the challenged user, ..."""


class MatchFinishedError(ServiceError):
    """The match is over: nothing can be played in it any more."""


class ChallengeExpiredError(ServiceError):
    """The challenge was not answered in time."""


class ChannelBusyError(ServiceError):
    """The channel already has an active match (enforced by a UNIQUE index)."""


class StaleError(ServiceError):
    """The decision was already taken or the position changed meanwhile ("already done")."""


class InvalidRequestError(ServiceError):
    """A request that makes no sense now: self-challenge, bad option, nothing to undo, ..."""


class NotYourTurnError(ServiceError, engine.WrongTurnError):
    """The user's side has nothing to decide now. Also an :class:`engine.WrongTurnError`, so
    code that catches engine errors from :meth:`MatchService.act` still catches it."""


# ----------------------------------------------------------------------------- values
@dataclass(frozen=True)
class Challenge:
    """A challenge from one user to another in a channel.

    ``side`` is the challenger's wish (``"raptor"``, ``"scientist"`` or ``"random"``, drawn at
    acceptance); ``status`` a :class:`ChallengeStatus`; times are Unix seconds; ``match_id``
    is set once accepted; ``rematch_of`` is the finished match this challenge is a rematch
    of, if any; ``message_id`` is the Discord message showing its buttons, once the bot layer
    recorded it (:meth:`MatchService.set_challenge_message`).
    """

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenged_id: int
    side: str
    environment: str
    setup: str
    status: ChallengeStatus
    created_at: float
    expires_at: float
    match_id: int | None
    rematch_of: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class Match:
    """A match as stored. Times are Unix seconds.

    ``players`` maps each side to its user id (an AI side has the bot's user id) and ``ai``
    to the AI level of an AI-controlled side (else None). ``status`` is a
    :class:`MatchStatus`; ``result`` is ``"raptor"``, ``"scientist"``, ``"draw"`` or None
    (still playing, abandoned, or ended by a moderator); ``reason`` an :class:`engine.Reason`
    (the game ended by its rules, R6) or an :class:`EndReason`. ``version`` increments on
    every change to the game. ``deadline_at`` / ``remind_at`` are when the pending human
    decision times out / gets a reminder (None when no human has to decide).
    ``end_announced_at``: when the end of a finished match was posted in its channel (None
    while it is active, or finished and not announced yet: :mod:`bot.match.announcements`).
    ``ai_failures``: how many times in a row the AI failed to make its decision (0 once it
    made one); ``ai_retry_at``: when the timer loop tries it again, or None
    (:func:`bot.match.deadlines.ai_retry_at`).
    ``seed`` and ``state`` are hidden information and left out of ``repr``.
    """

    id: int
    guild_id: int
    channel_id: int
    players: dict[Side, int]
    ai: dict[Side, str | None]
    seed: int = field(repr=False)
    options: Options
    status: MatchStatus
    state: GameState = field(repr=False)
    version: int
    created_at: float
    updated_at: float
    last_activity: float
    deadline_at: float | None
    reminded: bool
    result: str | None
    reason: Reason | None
    draw_offered_by: int | None
    rematch_of: int | None
    remind_at: float | None = None
    log_length: int = 0
    end_announced_at: float | None = None
    ai_failures: int = 0
    ai_retry_at: float | None = None

    @property
    def active(self) -> bool:
        return self.status == MatchStatus.ACTIVE

    @property
    def practice(self) -> bool:
        """True when a side is played by the AI."""
        return any(level is not None for level in self.ai.values())

    def user_of(self, side: Side | str) -> int:
        """The user id playing ``side``."""
        return self.players[Side(side)]

    def side_of(self, user_id: int) -> Side | None:
        """The side ``user_id`` plays, or None. A user who plays both sides gets the side that
        must act now (the raptor if both must)."""
        mine = [s for s in SIDES if self.players[s] == user_id]
        if len(mine) <= 1:
            return mine[0] if mine else None
        acting = engine.to_act(self.state)
        for s in SIDES:
            if s in acting:
                return s
        return mine[0]

    def opponent_of(self, user_id: int) -> int | None:
        """The other player's user id, or None if ``user_id`` is not in the match."""
        side = self.side_of(user_id)
        return None if side is None else self.players[side.other]

    def waiting_for(self) -> frozenset[Side]:
        """The sides that must decide now (empty once finished)."""
        return engine.to_act(self.state) if self.active else frozenset()

    def idle_humans(self) -> list[Side]:
        """The sides played by a person that must decide now, raptor first."""
        acting = engine.to_act(self.state)
        return [s for s in SIDES if s in acting and self.ai[s] is None]

    def acting_side(self, user_id: int, side: Side | str | None = None) -> Side:
        """The side ``user_id`` acts for in this active match (``side`` when one user plays
        both).

        Raises:
            NotAPlayerError: ``user_id`` does not play (``side``).
            MatchFinishedError: the match is over.
        """
        if side is not None:
            side = Side(side)
            if self.players[side] != user_id:
                raise NotAPlayerError(Text("You are not the {side} player in this match.",
                                           side=SIDE_WORDS[side]))
        else:
            side = self.side_of(user_id)
            if side is None:
                raise NotAPlayerError("You are not playing in this match: only its two "
                                      "players can do that.")
        if not self.active:
            raise MatchFinishedError("This match is over: start a new one with a challenge "
                                     "or a rematch.")
        return side


@dataclass(frozen=True)
class ActResult:
    """What one action did: the match after it, who acted, the action, the public events of
    this step, whether a round ended and whether the game is over. ``action`` may be a
    secret card pick, so it is left out of ``repr``."""

    match: Match
    side: Side
    action: Action = field(repr=False)
    events: tuple[Event, ...]
    round_ended: bool
    game_over: bool


@dataclass(frozen=True)
class TimerEvent:
    """Something a timer did (:meth:`MatchService.process_timers`).

    ``kind`` is :attr:`TimerKind.REMINDER` (``user_ids``: the idle players),
    :attr:`TimerKind.FORFEIT` (the match ended: ``match.reason`` is
    :attr:`EndReason.TIMEOUT` — ``user_ids`` holds the player who forfeited — or
    :attr:`EndReason.ABANDONED` — both idle players) or :attr:`TimerKind.CHALLENGE_EXPIRED`
    (``user_ids``: challenger and challenged) or :attr:`TimerKind.AI_FAILED` (the AI failed
    too many times in a row: the match ended without a result, reason
    :attr:`EndReason.AI_FAILED`; ``user_ids``: its human players).
    """

    kind: TimerKind
    channel_id: int
    user_ids: tuple[int, ...]
    match_id: int | None = None
    challenge_id: int | None = None
    match: Match | None = None
    challenge: Challenge | None = None


@dataclass(frozen=True)
class PlayerStats:
    """A player's rated record in one server: Elo ``rating`` (float, unrounded) and the
    results of rated matches per side."""

    guild_id: int
    user_id: int
    rating: float = START_RATING
    raptor_wins: int = 0
    raptor_losses: int = 0
    scientist_wins: int = 0
    scientist_losses: int = 0
    draws: int = 0

    @property
    def wins(self) -> int:
        return self.raptor_wins + self.scientist_wins

    @property
    def losses(self) -> int:
        return self.raptor_losses + self.scientist_losses

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class LogEntry:
    """One record of the append-only action log (an undo record carries the action it took
    back). ``action`` may be a card pick not yet revealed, so it is left out of ``repr``."""

    seq: int
    side: Side
    kind: LogKind
    action: Action = field(repr=False)
    created_at: float


def effective_log(entries: list[LogEntry]) -> list[LogEntry]:
    """The log with undone actions removed: an undo record cancels the last effective action.

    Raises:
        RuntimeError: an undo record that does not match the action it cancels (corrupt log).
    """
    out: list[LogEntry] = []
    for e in entries:
        if e.kind == LogKind.ACTION:
            out.append(e)
        else:
            if not out or out[-1].side != e.side or out[-1].action != e.action:
                raise RuntimeError(f"corrupt action log: undo record {e.seq} does not match")
            out.pop()
    return out
