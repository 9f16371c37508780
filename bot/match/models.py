"""The match layer's values: errors, states and reasons as enums, and the records the stores
return (:class:`Match` with its :class:`Player` per seat, :class:`Challenge`,
:class:`PlayerStats`, :class:`LogEntry`) and the services produce (:class:`ActResult`,
:class:`TimerEvent`). Game-neutral: a match's game is known by its registry name only
(:mod:`bot.games`).

Nothing here touches the database or Discord. Times are Unix seconds; guild, channel and user
ids are ``int``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.game import Ending, Seat
from engine.messages import Text

from .. import games


# ----------------------------------------------------------------------------- enums
class MatchStatus(StrEnum):
    """Whether a match is still played (the ``matches.status`` column)."""

    ACTIVE = "active"
    FINISHED = "finished"


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
#: ended_by_moderator, stopped, ai_failed); a game that ended by its rules has its own
#: reason word instead (Raptor's :class:`engine.Reason`, ...). The platform's vocabulary,
#: :class:`engine.game.Ending`.
EndReason = Ending


def parse_reason(text: str | None) -> str | None:
    """The stored ``matches.reason`` text: an :class:`EndReason` member when it is one, else
    the game's own reason word as stored (None stays None)."""
    if text is None:
        return None
    try:
        return EndReason(text)
    except ValueError:
        return text


class LogKind(StrEnum):
    """A record of the action log: an action played, an undo taking the last one back, or a
    seat's forfeit (it left a game that went on without it, :meth:`engine.game.Game.forfeit`)."""

    ACTION = "action"
    UNDO = "undo"
    FORFEIT = "forfeit"


class TimerKind(StrEnum):
    """What a timer did (:class:`TimerEvent`)."""

    REMINDER = "reminder"
    FORFEIT = "forfeit"
    SEAT_LEFT = "seat_left"
    CHALLENGE_EXPIRED = "challenge_expired"
    TABLE_EXPIRED = "table_expired"
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


class NotYourTurnError(ServiceError):
    """The user's seat has nothing to decide now."""


# ----------------------------------------------------------------------------- values
@dataclass(frozen=True)
class Challenge:
    """A challenge from one user to another in a channel, to a match of ``game``.

    ``seat`` is the challenger's wish (None: drawn at acceptance); ``options`` the new
    match's options (:class:`engine.game.OptionSpec` names and values); ``status`` a
    :class:`ChallengeStatus`; times are Unix seconds; ``match_id`` is set once accepted;
    ``rematch_of`` is the finished match this challenge is a rematch of, if any;
    ``message_id`` is the Discord message showing its buttons, once the bot layer recorded
    it (:meth:`MatchService.set_challenge_message`).
    """

    id: int
    game: str
    guild_id: int
    channel_id: int
    challenger_id: int
    challenged_id: int
    seat: int | None
    options: dict[str, str]
    status: ChallengeStatus
    created_at: float
    expires_at: float
    match_id: int | None
    rematch_of: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class Player:
    """Who plays a seat of a match: a person (``ai`` None) or the AI at level ``ai`` (its
    ``user_id`` is the bot's). Once the match is over: ``place`` (1 for first, tied seats
    share a place; None when it ended without a result) and the game's ``score`` (None when
    it has none); ``left``, the :class:`EndReason` of a seat that left before the end (its
    time ran out, it resigned) while the others played on; ``rating_before`` and
    ``rating_after``, the shown rating of a rated match (:mod:`bot.match.ratings`)."""

    seat: Seat
    user_id: int
    ai: str | None = None
    place: int | None = None
    score: float | None = None
    left: str | None = None
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def human(self) -> bool:
        return self.ai is None


@dataclass(frozen=True)
class Match:
    """A match as stored. Times are Unix seconds.

    ``game`` is the registry name of its game (:mod:`bot.games`), ``players`` its seats in
    order (:class:`Player`), ``options`` the game's options, ``state`` the game's state
    (:meth:`engine.game.Game.state_from_json`). ``status`` is a :class:`MatchStatus`;
    ``reason`` how it ended: the game's own word, or an :class:`EndReason`. ``version``
    increments on every change to the game. ``deadline_at`` / ``remind_at`` are when the
    pending human decision times out / gets a reminder (None when no human has to decide).
    ``end_announced_at``: when the end of a finished match was posted in its channel (None
    while it is active, or finished and not announced yet: :mod:`bot.match.announcements`).
    ``ai_failures``: how many times in a row the AI failed to make its decision (0 once it
    made one); ``ai_retry_at``: when the timer loop tries it again, or None
    (:func:`bot.match.deadlines.ai_retry_at`).
    ``seed`` and ``state`` are hidden information and left out of ``repr``.
    """

    id: int
    game: str
    guild_id: int
    channel_id: int
    players: tuple[Player, ...]
    seed: int = field(repr=False)
    options: dict[str, str]
    status: MatchStatus
    state: Any = field(repr=False)
    version: int
    created_at: float
    updated_at: float
    last_activity: float
    deadline_at: float | None
    reminded: bool
    reason: str | None
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
    def seats(self) -> int:
        return len(self.players)

    @property
    def practice(self) -> bool:
        """True when a seat is played by the AI."""
        return any(p.ai is not None for p in self.players)

    def user_of(self, seat: Seat) -> int:
        """The user id playing ``seat``."""
        return self.players[seat].user_id

    def ai_of(self, seat: Seat) -> str | None:
        """The AI level playing ``seat``, or None for a person."""
        return self.players[seat].ai

    def to_act(self) -> frozenset[Seat]:
        """The seats that must decide now, by the game's rules (empty once it is over)."""
        return games.plugin(self.game).game.to_act(self.state)

    def seats_of(self, user_id: int) -> list[Seat]:
        """The seats ``user_id`` plays, in order."""
        return [p.seat for p in self.players if p.user_id == user_id]

    def seat_of(self, user_id: int) -> Seat | None:
        """The seat ``user_id`` plays, or None. A user who plays several seats gets the
        first of them that must act now (else their first)."""
        mine = self.seats_of(user_id)
        if len(mine) <= 1:
            return mine[0] if mine else None
        acting = self.to_act() if self.active else frozenset()
        return next((seat for seat in mine if seat in acting), mine[0])

    def others(self, user_id: int) -> list[int]:
        """The user ids of the other seats' players (the AI's too), in seat order, or []
        when ``user_id`` is not in the match."""
        if not self.seats_of(user_id):
            return []
        return [p.user_id for p in self.players if p.user_id != user_id]

    def waiting_for(self) -> frozenset[Seat]:
        """The seats that must decide now (empty once finished)."""
        return self.to_act() if self.active else frozenset()

    def idle_humans(self) -> list[Seat]:
        """The seats played by a person that must decide now, in order."""
        acting = self.to_act()
        return [p.seat for p in self.players if p.seat in acting and p.human]

    @property
    def winners(self) -> frozenset[Seat]:
        """The seats in first place once the match is over (every seat: a draw; none: no
        result)."""
        return frozenset(p.seat for p in self.players if p.place == 1)

    @property
    def draw(self) -> bool:
        """Whether the match ended with every seat in first place."""
        return len(self.players) > 1 and all(p.place == 1 for p in self.players)

    def acting_seat(self, user_id: int, seat: Seat | None = None) -> Seat:
        """The seat ``user_id`` acts for in this active match (``seat`` when one user plays
        several).

        Raises:
            NotAPlayerError: ``user_id`` does not play (``seat``).
            MatchFinishedError: the match is over.
        """
        if seat is not None:
            if not 0 <= seat < self.seats:  # a hostile custom id: no seat to name
                raise NotAPlayerError(Text("There is no seat {n} in a match of {seats} "
                                           "players.", n=seat + 1, seats=self.seats))
            if self.players[seat].user_id != user_id:
                raise NotAPlayerError(Text("You are not the {side} player in this match.",
                                           side=games.plugin(self.game).seat_name(
                                               seat, self.seats)))
        else:
            seat = self.seat_of(user_id)
            if seat is None:
                raise NotAPlayerError(
                    Text("You are not playing in this match: only its two players can do "
                         "that.") if self.seats == 2 else
                    Text("You are not playing in this match: only its players can do that."))
        if not self.active:
            raise MatchFinishedError("This match is over: start a new one with a challenge "
                                     "or a rematch.")
        return seat


@dataclass(frozen=True)
class ActResult:
    """What one action did: the match after it, the seat that acted, the action, and
    whether the game is over. ``action`` may be a secret decision (a card pick), so it is
    left out of ``repr``."""

    match: Match
    seat: Seat
    action: Any = field(repr=False)
    game_over: bool


@dataclass(frozen=True)
class TimerEvent:
    """Something a timer did (:meth:`MatchService.process_timers`).

    ``kind`` is :attr:`TimerKind.REMINDER` (``user_ids``: the idle players),
    :attr:`TimerKind.FORFEIT` (the match ended: ``match.reason`` is
    :attr:`EndReason.TIMEOUT` — ``user_ids`` holds the players who forfeited — or
    :attr:`EndReason.ABANDONED` — every idle player), :attr:`TimerKind.SEAT_LEFT` (idle
    players forfeited their seats and the game went on without them: ``seats``),
    :attr:`TimerKind.CHALLENGE_EXPIRED` (``user_ids``: challenger and challenged),
    :attr:`TimerKind.TABLE_EXPIRED` (nobody started the table in time: ``table``, the
    people at it in ``user_ids``) or
    :attr:`TimerKind.AI_FAILED` (the AI failed too many times in a row: the match ended
    without a result, reason :attr:`EndReason.AI_FAILED`; ``user_ids``: its human players).
    """

    kind: TimerKind
    channel_id: int
    user_ids: tuple[int, ...]
    match_id: int | None = None
    challenge_id: int | None = None
    match: Match | None = None
    challenge: Challenge | None = None
    seats: tuple[Seat, ...] = ()
    table: Any = None  # a bot.match.table_store.Table (that module imports this one)


@dataclass(frozen=True)
class PlayerStats:
    """A player's rated record in one server and game: the shown ``rating`` (unrounded,
    :mod:`bot.match.ratings`), the skill belief ``mu``/``sigma``, and the rated matches'
    wins (first alone), draws (first, tied) and losses."""

    guild_id: int
    game: str
    user_id: int
    rating: float
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass(frozen=True)
class LogEntry:
    """One record of the append-only action log (an undo record carries the action it took
    back; a forfeit record has no action). ``action`` may be a card pick not yet revealed,
    so it is left out of ``repr``."""

    seq: int
    seat: Seat
    kind: LogKind
    action: Any = field(repr=False)
    created_at: float


def effective_log(entries: list[LogEntry]) -> list[LogEntry]:
    """The log with undone actions removed: an undo record cancels the last effective action.

    Raises:
        RuntimeError: an undo record that does not match the action it cancels (corrupt log).
    """
    out: list[LogEntry] = []
    for e in entries:
        if e.kind != LogKind.UNDO:
            out.append(e)
        else:
            if (not out or out[-1].kind != LogKind.ACTION or out[-1].seat != e.seat
                    or out[-1].action != e.action):
                raise RuntimeError(f"corrupt action log: undo record {e.seq} does not match")
            out.pop()
    return out
