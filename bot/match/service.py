"""The match service: a match's life (challenge, play, timers, result) and its storage.

It speaks in plain ids (guild, channel and user ids are ``int``) and imports nothing from
discord, so the Discord layer, the offline demo and the tests all drive matches through the
same code. Every method reloads what it needs from the :class:`~bot.db.Database`: nothing
about a match lives only in memory, so a restarted process resumes every match and timer.

Storage rules (see :mod:`bot.db` for the tables):

- An action is applied with :func:`engine.apply`, then the new state and the log record are
  written in ONE transaction, guarded by the match's ``version``
  (``UPDATE ... WHERE id = ? AND version = ?``): of two simultaneous decisions only one is
  saved, the other raises :class:`StaleError`. The seed plus the log rebuild the stored
  state (:meth:`MatchService.replayed_state`).
- ``version`` increments on every change to the game: an action, an undo, the end of the
  match. Draw offers and reminder flags do not change it, so a button made for the current
  position stays valid while a draw is offered.
- The seed (``secrets.randbits(63)``) fixes every deck order, so it is hidden information: it
  is never logged, never put in a message, and is left out of ``repr(Match)``.

Choices documented here:

- Timers. Each turn of a human player (a card pick, a card's effect, an AP phase, a
  placement, the mother's return) has a deadline: the time it began plus the server's turn
  timeout (:meth:`MatchService.set_guild_timeout`, default 24 h). The decisions inside an
  effect or an AP phase, and undoing them, do not restart its clock, and in the simultaneous
  card pick (R5.1) one side's pick does not restart the other side's. A reminder is due at
  half time, once per turn. At the deadline the idle player forfeits
  (reason ``"timeout"``, rated like any result); if BOTH players are idle in a simultaneous
  pick, nobody is more to blame, so the match ends as ``"abandoned"`` with no result and no
  rating change. AI sides never time out.
- Ratings (see :mod:`bot.match.ratings`): Elo per server, start 1500, K = 32. Only matches between
  two different human players are rated and counted in wins/losses; matches against the AI
  and matches without a result (abandoned, or ended by a moderator) change nothing (they still
  appear in :meth:`MatchService.history`).
- Undo: only the acting side's own action-point actions of the current AP phase (R5.5) can be
  undone. They involve no chance, so undoing one is the same as replaying without it; the log
  keeps the action and appends an ``'undo'`` record. A card pick, an effect or anything that
  ended the AP phase (and so drew cards) cannot be undone.
- Draws: an offer stands until the opponent accepts or declines it, or until the next action
  or undo. Offering a draw while the opponent's offer stands accepts it. The AI takes no draws.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
import sqlite3
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import engine
from engine import Action, Event, GameState, Options, Phase, Side

from ..db import Database, Transaction
from .ratings import START_RATING, elo_update

log = logging.getLogger(__name__)

RAPTOR = Side.RAPTOR
SCIENTIST = Side.SCIENTIST
SIDES = (RAPTOR, SCIENTIST)
CHALLENGE_SIDES = ("raptor", "scientist", "random")
ENVIRONMENTS = ("jungle", "savannah")
SETUPS = ("quick", "manual")
AI_LEVELS_FALLBACK = ("easy", "medium", "hard")
MAX_AI_STEPS = 10_000  # a safety valve for play_ai; a real game is far shorter

_random = secrets.SystemRandom()


def _new_seed() -> int:
    """A fresh, unpredictable 63-bit match seed."""
    return secrets.randbits(63)


# ----------------------------------------------------------------------------- errors
class ServiceError(Exception):
    """Base of the service's errors. ``message`` is a sentence for the user that says what to
    do; it never contains hidden information."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


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
    acceptance); ``status`` is ``"pending"``, ``"accepted"``, ``"declined"``, ``"cancelled"``
    or ``"expired"``; times are Unix seconds; ``match_id`` is set once accepted;
    ``rematch_of`` is the finished match this challenge is a rematch of, if any;
    ``message_id`` is the Discord message showing its buttons, once the bot layer recorded
    it (:meth:`MatchService.set_challenge_message`).
    """

    id: int
    guild_id: int
    channel_id: int
    challenger_id: int
    challenged_id: int
    side: str
    environment: str
    setup: str
    status: str
    created_at: float
    expires_at: float
    match_id: int | None
    rematch_of: int | None = None
    message_id: int | None = None


@dataclass(frozen=True)
class ControlPost:
    """A message of the bot that carries a match's controls: its latest ``"turn"``
    message (menus for one decision), a ``"round"`` message with "Pick your card", or a
    ``"draw"`` offer with its answers. ``text`` is what the bot layer needs to retire it
    (the turn's heading, or the message's content)."""

    match_id: int
    kind: str
    channel_id: int
    message_id: int
    text: str


@dataclass(frozen=True)
class Match:
    """A match as stored. Times are Unix seconds.

    ``players`` maps each side to its user id (an AI side has the bot's user id) and ``ai``
    to the AI level of an AI-controlled side (else None). ``status`` is ``"active"`` or
    ``"finished"``; ``result`` is ``"raptor"``, ``"scientist"``, ``"draw"`` or None (still
    playing, abandoned, or ended by a moderator); ``reason`` is an :class:`engine.Reason`
    value or ``"resigned"``, ``"timeout"``, ``"draw_agreed"``, ``"abandoned"``,
    ``"ended_by_moderator"``. ``version`` increments on every change to the game.
    ``deadline_at`` / ``remind_at`` are when the pending human decision times out
    / gets a reminder (None when no human has to decide). ``seed`` and ``state`` are hidden
    information and left out of ``repr``.
    """

    id: int
    guild_id: int
    channel_id: int
    players: dict[Side, int]
    ai: dict[Side, str | None]
    seed: int = field(repr=False)
    options: Options
    status: str
    state: GameState = field(repr=False)
    version: int
    created_at: float
    updated_at: float
    last_activity: float
    deadline_at: float | None
    reminded: bool
    result: str | None
    reason: str | None
    draw_offered_by: int | None
    rematch_of: int | None
    remind_at: float | None = None
    log_length: int = 0

    @property
    def active(self) -> bool:
        return self.status == "active"

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

    ``kind`` is ``"reminder"`` (``user_ids``: the idle players), ``"forfeit"`` (the match
    ended: ``match.reason`` is ``"timeout"`` — ``user_ids`` holds the player who forfeited —
    or ``"abandoned"`` — both idle players) or ``"challenge_expired"`` (``user_ids``:
    challenger and challenged).
    """

    kind: str
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
    """One record of the append-only action log (``kind`` ``"action"`` or ``"undo"``; an
    undo record carries the action it took back). ``action`` may be a card pick not yet
    revealed, so it is left out of ``repr``."""

    seq: int
    side: Side
    kind: str
    action: Action = field(repr=False)
    created_at: float


# ----------------------------------------------------------------------------- helpers
_DOING = {
    Phase.SETUP_MOTHER: "to place the mother",
    Phase.SETUP_BABIES: "to place the babies",
    Phase.SETUP_SCIENTISTS: "to place the scientists",
    Phase.PICK: "to pick a card",
    Phase.EFFECT: "to resolve their card's effect",
    Phase.AP: "to spend their action points",
    Phase.MOTHER_RETURN: "to put the mother back on the board",
}


def _waiting_text(state: GameState) -> str:
    acting = sorted(engine.to_act(state))
    who = " and ".join(s.value for s in acting)
    plural = "players" if len(acting) > 1 else "player"
    return f"waiting for the {who} {plural} {_DOING.get(state.phase, 'to decide')}"


def _not_your_turn(state: GameState, side: Side) -> NotYourTurnError:
    if state.phase is Phase.PICK and state.picks.get(side) is not None:
        return NotYourTurnError(f"You have already picked your card: {_waiting_text(state)}.")
    return NotYourTurnError(f"It's not your turn: {_waiting_text(state)}.")


def _options_json(options: Options) -> str:
    return json.dumps({"environment": options.environment, "layout": options.layout,
                       "setup": options.setup}, sort_keys=True)


def _ai_seed(match_seed: int, log_length: int, side: Side) -> int:
    """A 63-bit seed for one AI decision, derived one-way from the hidden match seed (the AI
    cannot recover deck orders from it)."""
    digest = hashlib.blake2b(f"raptor-ai:{match_seed}:{log_length}:{side.value}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _effective(entries: list[LogEntry]) -> list[LogEntry]:
    """The log with undone actions removed: an undo record cancels the last effective action.

    Raises:
        RuntimeError: an undo record that does not match the action it cancels (corrupt log).
    """
    out: list[LogEntry] = []
    for e in entries:
        if e.kind == "action":
            out.append(e)
        else:
            if not out or out[-1].side != e.side or out[-1].action != e.action:
                raise RuntimeError(f"corrupt action log: undo record {e.seq} does not match")
            out.pop()
    return out


def _challenge_from_row(r: sqlite3.Row) -> Challenge:
    return Challenge(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        challenger_id=r["challenger_id"], challenged_id=r["challenged_id"], side=r["side"],
        environment=r["environment"], setup=r["setup"], status=r["status"],
        created_at=r["created_at"], expires_at=r["expires_at"], match_id=r["match_id"],
        rematch_of=r["rematch_of"], message_id=r["message_id"],
    )


class _StateCache:
    """Parsed states by match id, reused while the stored JSON text is the same (parsing is
    most of the CPU time of loading a match). Bounded, least recently used out. States are
    immutable by convention, so sharing one between callers is safe."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[str, GameState]] = OrderedDict()

    def parse(self, match_id: int, text: str) -> GameState:
        hit = self._items.get(match_id)
        if hit is not None and hit[0] == text:
            self._items.move_to_end(match_id)
            return hit[1]
        state = GameState.from_json(text)
        self.put(match_id, text, state)
        return state

    def put(self, match_id: int, text: str, state: GameState) -> None:
        self._items[match_id] = (text, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


def _match_from_row(r: sqlite3.Row, states: _StateCache | None = None) -> Match:
    opts = json.loads(r["options"])
    return Match(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        players={RAPTOR: r["raptor_user_id"], SCIENTIST: r["scientist_user_id"]},
        ai={RAPTOR: r["raptor_ai"], SCIENTIST: r["scientist_ai"]},
        seed=r["seed"], options=Options(opts["environment"], opts["layout"], opts["setup"]),
        status=r["status"],
        state=(states.parse(r["id"], r["state"]) if states is not None
               else GameState.from_json(r["state"])),
        version=r["version"],
        created_at=r["created_at"], updated_at=r["updated_at"],
        last_activity=r["last_activity"], deadline_at=r["deadline_at"],
        reminded=bool(r["reminded"]), result=r["result"], reason=r["reason"],
        draw_offered_by=r["draw_offered_by"], rematch_of=r["rematch_of"],
        remind_at=r["remind_at"], log_length=r["log_length"],
    )


def _stats_from_row(guild_id: int, user_id: int, r: sqlite3.Row | None) -> PlayerStats:
    if r is None:
        return PlayerStats(guild_id, user_id)
    return PlayerStats(guild_id, user_id, r["rating"], r["raptor_wins"], r["raptor_losses"],
                       r["scientist_wins"], r["scientist_losses"], r["draws"])


_MATCH_SELECT = ("SELECT m.*, g.turn_timeout AS guild_timeout FROM matches m "
                 "LEFT JOIN guild_settings g ON g.guild_id = m.guild_id")


# ----------------------------------------------------------------------------- service
def _turn(state: GameState) -> tuple[Phase, Side] | None:
    """The turn under way: a card's effect or an AP phase and whose it is (R5.4, R5.5); None
    in the other phases."""
    if state.phase is Phase.EFFECT and state.effect is not None:
        return Phase.EFFECT, state.effect.side
    if state.phase is Phase.AP and state.ap is not None:
        return Phase.AP, state.ap.side
    return None


class MatchService:
    """Challenges, matches, timers and ratings over one :class:`~bot.db.Database`.

    Args:
        db: an open database.
        turn_timeout: seconds a human player has for a decision, unless the server set its own
            (:meth:`set_guild_timeout`); > 0.
        challenge_timeout: seconds a challenge stays open; > 0.
        clock: returns the current Unix time in seconds (tests pass a fake clock).
        ai_time_budget: seconds of thinking per AI decision, passed to the AI.
        ai_chooser: the AI's ``choose_action(view, *, level, seed, time_budget) -> Action``;
            by default ``bot.ai.choose_action``, imported on first use.
        seed_source: returns a new match seed; by default ``secrets.randbits(63)``. Only tests
            should pass another one (a predictable seed reveals every deck order).

    Raises:
        ValueError: a timeout that is not a positive finite number.
    """

    def __init__(self, db: Database, *, turn_timeout: float = 86400.0,
                 challenge_timeout: float = 600.0, clock: Callable[[], float] = time.time,
                 ai_time_budget: float = 2.0,
                 ai_chooser: Callable[..., Action] | None = None,
                 seed_source: Callable[[], int] | None = None) -> None:
        for name, value in (("turn_timeout", turn_timeout),
                            ("challenge_timeout", challenge_timeout)):
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        self.db = db
        self.turn_timeout = float(turn_timeout)
        self.challenge_timeout = float(challenge_timeout)
        self.clock = clock
        self.ai_time_budget = ai_time_budget
        self._ai_chooser = ai_chooser
        self._seed_source = seed_source or _new_seed
        self._states = _StateCache()
        self._ai_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    # ------------------------------------------------------------------ challenges
    async def create_challenge(self, guild_id: int, channel_id: int, challenger_id: int,
                               challenged_id: int, *, side: str = "random",
                               environment: str = "jungle", setup: str = "quick",
                               rematch_of: int | None = None) -> Challenge:
        """A pending challenge from ``challenger_id`` to ``challenged_id`` in a channel.

        Args:
            side: the side the challenger wants: ``"raptor"``, ``"scientist"`` or
                ``"random"`` (drawn when the challenge is accepted).
            environment: ``"jungle"`` or ``"savannah"`` (R1.3).
            setup: ``"quick"`` (R4.4) or ``"manual"`` (R4.1-R4.2).
            rematch_of: the finished match this is a rematch of (see :meth:`rematch`).

        Raises:
            InvalidRequestError: a self-challenge, a bad option, or the challenger already has
                a pending challenge in this channel.
            ChannelBusyError: the channel has an active match.
        """
        if challenger_id == challenged_id:
            raise InvalidRequestError("You can't challenge yourself: challenge another player, "
                                      "or start a practice game against the AI.")
        self._check_options(side, environment, setup, CHALLENGE_SIDES)
        if await self.active_match(channel_id) is not None:
            raise ChannelBusyError("This channel already has a match in progress: wait for it "
                                   "to finish, or challenge in another channel.")
        now = self.clock()
        try:
            async with self.db.transaction() as tx:
                # A stale pending challenge (past its expiry, not yet processed) must not
                # block a new one.
                await tx.execute(
                    "UPDATE challenges SET status = 'expired' WHERE channel_id = ? AND "
                    "challenger_id = ? AND status = 'pending' AND expires_at <= ?",
                    (channel_id, challenger_id, now))
                cid = await tx.insert(
                    "INSERT INTO challenges (guild_id, channel_id, challenger_id, "
                    "challenged_id, side, environment, setup, status, created_at, expires_at, "
                    "rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
                    (guild_id, channel_id, challenger_id, challenged_id, side, environment,
                     setup, now, now + self.challenge_timeout, rematch_of))
        except sqlite3.IntegrityError:
            raise InvalidRequestError(
                "You already have a pending challenge in this channel: cancel it first, or "
                "wait for an answer.") from None
        log.info("challenge %d created in channel %d", cid, channel_id)
        return await self.get_challenge(cid)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """The challenge with that id.

        Raises:
            NotFoundError: no such challenge.
        """
        row = await self.db.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        if row is None:
            raise NotFoundError("That challenge no longer exists: start a new one.")
        return _challenge_from_row(row)

    async def _open_challenge(self, challenge_id: int) -> Challenge:
        """The challenge if it can still be answered; expires it if its time is up."""
        ch = await self.get_challenge(challenge_id)
        if ch.status == "pending" and ch.expires_at <= self.clock():
            async with self.db.transaction() as tx:
                await tx.execute("UPDATE challenges SET status = 'expired' WHERE id = ? AND "
                                 "status = 'pending'", (challenge_id,))
            ch = await self.get_challenge(challenge_id)
        if ch.status == "expired":
            raise ChallengeExpiredError("This challenge has expired: send a new one.")
        if ch.status != "pending":
            raise StaleError(f"This challenge was already {ch.status}.")
        return ch

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Match:
        """The challenged user accepts: a new active match in the challenge's channel.

        A ``"random"`` side is drawn here with a system RNG; the match seed is
        ``secrets.randbits(63)``.

        Raises:
            NotFoundError, NotAPlayerError (not the challenged user), ChallengeExpiredError,
            StaleError (already answered or cancelled), ChannelBusyError (the channel has an
            active match; the challenge stays pending).
        """
        ch = await self._open_challenge(challenge_id)
        if user_id != ch.challenged_id:
            raise NotAPlayerError("Only the challenged player can accept this challenge.")
        wish = ch.side if ch.side != "random" else _random.choice(("raptor", "scientist"))
        challenger_side = Side(wish)
        players = {challenger_side: ch.challenger_id, challenger_side.other: ch.challenged_id}

        async def after_insert(tx: Transaction, match_id: int) -> None:
            n = await tx.execute(
                "UPDATE challenges SET status = 'accepted', match_id = ? WHERE id = ? AND "
                "status = 'pending'", (match_id, challenge_id))
            if n == 0:
                raise StaleError("This challenge was already answered.")

        return await self._create_match(ch.guild_id, ch.channel_id, players,
                                        {RAPTOR: None, SCIENTIST: None}, ch.environment,
                                        ch.setup, rematch_of=ch.rematch_of,
                                        after_insert=after_insert)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenged user declines.

        Raises:
            NotFoundError, NotAPlayerError (not the challenged user), ChallengeExpiredError,
            StaleError (already answered or cancelled).
        """
        ch = await self._open_challenge(challenge_id)
        if user_id != ch.challenged_id:
            raise NotAPlayerError("Only the challenged player can decline this challenge.")
        return await self._close_challenge(challenge_id, "declined")

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge.

        Raises:
            NotFoundError, NotAPlayerError (not the challenger), ChallengeExpiredError,
            StaleError (already answered).
        """
        ch = await self._open_challenge(challenge_id)
        if user_id != ch.challenger_id:
            raise NotAPlayerError("Only the player who sent this challenge can cancel it.")
        return await self._close_challenge(challenge_id, "cancelled")

    async def _close_challenge(self, challenge_id: int, status: str) -> Challenge:
        async with self.db.transaction() as tx:
            n = await tx.execute("UPDATE challenges SET status = ? WHERE id = ? AND "
                                 "status = 'pending'", (status, challenge_id))
        if n == 0:
            raise StaleError("This challenge was already answered.")
        return await self.get_challenge(challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Record the Discord message that shows the challenge's buttons, so that its expiry
        can edit it (:attr:`Challenge.message_id`).

        Raises:
            NotFoundError: no such challenge.
        """
        if not await self.db.write("UPDATE challenges SET message_id = ? WHERE id = ?",
                                   (message_id, challenge_id)):
            raise NotFoundError(f"There is no challenge #{challenge_id}.")

    async def pending_challenges(self, channel_id: int) -> list[Challenge]:
        """Pending challenges in a channel, oldest first (addition to the API contract)."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE channel_id = ? AND status = 'pending' ORDER BY id",
            (channel_id,))
        return [_challenge_from_row(r) for r in rows]

    # ------------------------------------------------------------------ matches
    async def start_practice(self, guild_id: int, channel_id: int, user_id: int, *,
                             side: str = "random", level: str = "easy",
                             environment: str = "jungle", setup: str = "quick",
                             ai_user_id: int, seed: int | None = None) -> Match:
        """A match between ``user_id`` (playing ``side``) and the AI at ``level`` (the AI's
        side has ``ai_user_id``, the bot's user id). Call :meth:`play_ai` afterwards: the AI
        may have to act first. Practice matches are not rated.

        Args:
            seed: a fixed match seed, for offline play only (a known seed reveals every deck
                order); by default a fresh secret one.

        Raises:
            InvalidRequestError: a bad option or AI level.
            ChannelBusyError: the channel has an active match.
        """
        self._check_options(side, environment, setup, CHALLENGE_SIDES)
        self._check_level(level)
        human = Side(side if side != "random" else _random.choice(("raptor", "scientist")))
        players = {human: user_id, human.other: ai_user_id}
        ai: dict[Side, str | None] = {human: None, human.other: level}
        return await self._create_match(guild_id, channel_id, players, ai, environment, setup,
                                        seed=seed)

    async def start_ai_match(self, guild_id: int, channel_id: int, *,
                             levels: dict[Side, str], ai_user_ids: dict[Side, int],
                             environment: str = "jungle", setup: str = "quick",
                             seed: int | None = None) -> Match:
        """A match where the AI plays both sides (demos, tests; addition to the contract):
        ``levels`` and ``ai_user_ids`` give each side's AI level and user id. Drive it with
        :meth:`play_ai`. Not rated.

        Args:
            seed: a fixed match seed (demos); by default a fresh secret one.

        Raises:
            InvalidRequestError: a bad option or AI level.
            ChannelBusyError: the channel has an active match.
        """
        self._check_options("random", environment, setup, CHALLENGE_SIDES)
        for side in SIDES:
            self._check_level(levels[side])
        ai: dict[Side, str | None] = {side: levels[side] for side in SIDES}
        players = {side: ai_user_ids[side] for side in SIDES}
        return await self._create_match(guild_id, channel_id, players, ai, environment, setup,
                                        seed=seed)

    def _check_level(self, level: str) -> None:
        levels = self._ai_levels()
        if level not in levels:
            raise InvalidRequestError(f"Unknown AI level {level!r}: choose one of "
                                      f"{', '.join(levels)}.")

    async def _create_match(self, guild_id: int, channel_id: int, players: dict[Side, int],
                            ai: dict[Side, str | None], environment: str, setup: str, *,
                            rematch_of: int | None = None, seed: int | None = None,
                            after_insert: Callable[[Transaction, int], Any] | None = None
                            ) -> Match:
        seed = self._seed_source() if seed is None else int(seed)
        state = engine.new_game(seed, environment=environment, layout="random", setup=setup)
        now = self.clock()
        timeout = await self.guild_timeout(guild_id)
        deadline, remind = self._timing(None, state, ai, now, timeout, None, None)
        try:
            async with self.db.transaction() as tx:
                match_id = await tx.insert(
                    "INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
                    "scientist_user_id, raptor_ai, scientist_ai, seed, options, status, state, "
                    "version, log_length, created_at, updated_at, last_activity, deadline_at, "
                    "remind_at, reminded, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', "
                    "?, 0, 0, ?, ?, ?, ?, ?, 0, ?)",
                    (guild_id, channel_id, players[RAPTOR], players[SCIENTIST], ai[RAPTOR],
                     ai[SCIENTIST], seed, _options_json(state.options), state.to_json(), now,
                     now, now, deadline, remind, rematch_of))
                if after_insert is not None:
                    await after_insert(tx, match_id)
        except sqlite3.IntegrityError as exc:
            if "matches.channel_id" not in str(exc):
                raise
            raise ChannelBusyError("This channel already has a match in progress: wait for it "
                                   "to finish, or play in another channel.") from None
        log.info("match %d started in channel %d", match_id, channel_id)
        return await self.get_match(match_id)

    async def get_match(self, match_id: int) -> Match:
        """The match with that id.

        Raises:
            NotFoundError: no such match.
        """
        m, _ = await self._load(match_id)
        return m

    async def _load(self, match_id: int) -> tuple[Match, float]:
        """The match and the turn timeout that applies to it."""
        row = await self.db.fetchone(_MATCH_SELECT + " WHERE m.id = ?", (match_id,))
        if row is None:
            raise NotFoundError("That match doesn't exist: check the match number.")
        timeout = row["guild_timeout"] or self.turn_timeout
        return _match_from_row(row, self._states), float(timeout)

    async def active_match(self, channel_id: int) -> Match | None:
        """The channel's active match, or None."""
        row = await self.db.fetchone("SELECT * FROM matches WHERE channel_id = ? AND "
                                     "status = 'active'", (channel_id,))
        return None if row is None else _match_from_row(row, self._states)

    async def active_matches(self, guild_id: int | None = None) -> list[Match]:
        """Every active match, or those of one server, oldest first (addition: for
        re-attaching views at start-up and for a server's moderators)."""
        if guild_id is None:
            rows = await self.db.fetchall("SELECT * FROM matches WHERE status = 'active' "
                                          "ORDER BY id")
        else:
            rows = await self.db.fetchall("SELECT * FROM matches WHERE status = 'active' "
                                          "AND guild_id = ? ORDER BY id", (guild_id,))
        return [_match_from_row(r, self._states) for r in rows]

    async def matches_waiting_for_ai(self) -> list[int]:
        """Ids of active matches where an AI side must act now (addition: call
        :meth:`play_ai` on each after a restart)."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE status = 'active' AND "
            "(raptor_ai IS NOT NULL OR scientist_ai IS NOT NULL) ORDER BY id")
        out = []
        for r in rows:
            m = _match_from_row(r, self._states)
            if any(m.ai[s] is not None for s in engine.to_act(m.state)):
                out.append(m.id)
        return out

    def _player_side(self, m: Match, user_id: int, side: Side | str | None) -> Side:
        if side is not None:
            side = Side(side)
            if m.players[side] != user_id:
                raise NotAPlayerError(f"You are not the {side.value} player in this match.")
        else:
            side = m.side_of(user_id)
            if side is None:
                raise NotAPlayerError("You are not playing in this match: only its two "
                                      "players can do that.")
        if not m.active:
            raise MatchFinishedError("This match is over: start a new one with a challenge "
                                     "or a rematch.")
        return side

    async def act(self, match_id: int, user_id: int, action: Action | str, *,
                  expected_version: int | None = None,
                  side: Side | str | None = None) -> ActResult:
        """Play one decision for ``user_id`` and save it.

        Args:
            action: an :data:`engine.Action` or its notation (``engine.parse_action``).
            expected_version: the match version the decision was made on (e.g. carried by a
                button); a different stored version raises :class:`StaleError`.
            side: the side to act for (needed only when one user plays both sides).

        Returns:
            The :class:`ActResult`. When the action ends the game, the match is finished and
            the result recorded (and rated) in the same transaction. (A call cancelled while
            saving may still have saved its step, whole: reload the match to know.)

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
            StaleError: the position changed since ``expected_version``, or a simultaneous
                decision was saved first ("already done"); nothing was saved.
            NotYourTurnError: the side has nothing to decide now.
            engine.RaptorError: (unchanged from the engine) bad notation, an illegal or
                ambiguous action.
        """
        m, timeout = await self._load(match_id)
        side = self._player_side(m, user_id, side)
        if expected_version is not None and expected_version != m.version:
            raise StaleError("Already done: this position has changed since, so that choice "
                             "no longer applies. Look at the latest message.")
        state = m.state
        if side not in engine.to_act(state):
            raise _not_your_turn(state, side)
        if isinstance(action, str):
            action = engine.parse_action(action, state, side)
        new = engine.apply(state, side, action)
        now = self.clock()
        deadline, remind = self._timing(state, new, m.ai, now, timeout, m.deadline_at,
                                        m.remind_at)
        after = await self._save_step(m, side, "action", action, new, now, deadline, remind)
        return ActResult(after, side, action, new.events,
                         any(e.kind == "round_end" for e in new.events), new.is_over)

    async def _save_step(self, m: Match, side: Side, kind: str, action: Action,
                         new: GameState, now: float, deadline: float | None,
                         remind: float | None) -> Match:
        """Save a new state and its log record in one transaction, if ``m.version`` is still
        the stored one; finish and rate the match if the game is over. Returns the match as
        saved."""
        keep_reminder = remind is not None and remind == m.remind_at and m.reminded
        result = reason = None
        status = "active"
        if new.is_over:
            status, result, reason = "finished", new.winner.value, new.reason.value
            deadline = remind = None
        # One statement saves the step: the versioned UPDATE of the match row, whose
        # log_length + 1 and last_* columns make a trigger append the log record (bot.db).
        text = new.to_json()
        update = (
            "UPDATE matches SET state = ?, version = version + 1, "
            "log_length = log_length + 1, last_side = ?, last_kind = ?, last_action = ?, "
            "last_action_at = ?, updated_at = ?, last_activity = ?, deadline_at = ?, "
            "remind_at = ?, reminded = ?, draw_offered_by = NULL, status = ?, result = ?, "
            "reason = ? WHERE id = ? AND version = ? AND status = 'active'",
            (text, side.value, kind, json.dumps(action.to_dict()), now, now, now,
             deadline, remind, int(keep_reminder), status, result, reason, m.id, m.version))
        stale = StaleError("Already done: someone acted in this match at the same moment. "
                           "Look at the latest message.")
        if status == "active":
            if await self.db.write(*update) != 1:
                raise stale
        else:  # the last step and the result (and ratings) in one transaction
            async with self.db.transaction() as tx:
                if await tx.execute(*update) != 1:
                    raise stale
                await self._record_result(tx, m, result, reason, now)
        self._states.put(m.id, text, new)
        return replace(m, state=new, version=m.version + 1, log_length=m.log_length + 1,
                       updated_at=now, last_activity=now, deadline_at=deadline,
                       remind_at=remind, reminded=keep_reminder, draw_offered_by=None,
                       status=status, result=result, reason=reason)

    @staticmethod
    def _timing(old: GameState | None, new: GameState, ai: dict[Side, str | None], now: float,
                timeout: float, old_deadline: float | None,
                old_remind: float | None) -> tuple[float | None, float | None]:
        """(deadline, reminder time) of the pending human decision(s) after a change."""
        humans = {s for s in engine.to_act(new) if ai[s] is None}
        if not humans or new.is_over:
            return None, None
        if (old is not None and old_deadline is not None and old.phase is Phase.PICK
                and new.phase is Phase.PICK and old.round == new.round
                and humans <= {s for s in engine.to_act(old) if ai[s] is None}):
            # The simultaneous pick goes on: the other side's clock keeps running (R5.1).
            return old_deadline, old_remind
        if (old is not None and old_deadline is not None and old.round == new.round
                and _turn(old) is not None and _turn(old) == _turn(new)):
            # The same turn goes on (a card's effect, or action points, R5.4-R5.5): its
            # clock keeps running, so moving and undoing cannot stall the match.
            return old_deadline, old_remind
        return now + timeout, now + timeout / 2

    async def undo(self, match_id: int, user_id: int, *,
                   expected_version: int | None = None) -> Match:
        """Take back the user's last action-point action of the current AP phase (R5.5).

        Appends an ``'undo'`` record; the stored state becomes the replay without that
        action. Clears a standing draw offer.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError (the position
            changed meanwhile).
            InvalidRequestError: nothing to undo (not the user's AP phase, or no action of
                this AP phase yet).
        """
        m, timeout = await self._load(match_id)
        state = m.state
        side = m.side_of(user_id)
        if side is not None and state.phase is Phase.AP and m.players[state.ap.side] == user_id:
            side = state.ap.side
        side = self._player_side(m, user_id, side)
        if expected_version is not None and expected_version != m.version:
            raise StaleError("Already done: this position has changed since.")
        nothing = InvalidRequestError("There is nothing to undo: you can only take back your "
                                      "own action-point moves of the current turn.")
        if state.phase is not Phase.AP or state.ap.side is not side:
            raise nothing
        effective = _effective(await self._log_entries(match_id))
        if not effective or effective[-1].side is not side:
            raise nothing
        last = effective[-1]
        before = engine.replay(m.seed, m.options, [(e.side, e.action) for e in effective[:-1]])
        if (before.phase is not Phase.AP or before.ap.side is not side
                or before.round != state.round):
            raise nothing
        now = self.clock()
        deadline, remind = self._timing(state, before, m.ai, now, timeout, m.deadline_at,
                                        m.remind_at)
        return await self._save_step(m, side, "undo", last.action, before, now, deadline,
                                     remind)

    # ------------------------------------------------------------------ AI
    def _chooser(self) -> Callable[..., Action]:
        if self._ai_chooser is None:
            from bot import ai  # lazy: the AI is heavy and optional for storage users

            self._ai_chooser = ai.choose_action
        return self._ai_chooser

    @staticmethod
    def _ai_levels() -> tuple[str, ...]:
        try:
            from bot import ai
        except ImportError:
            return AI_LEVELS_FALLBACK
        return tuple(getattr(ai, "LEVELS", AI_LEVELS_FALLBACK))

    async def play_ai(self, match_id: int, *, max_steps: int | None = None
                      ) -> list[ActResult]:
        """Let the AI act while an AI-controlled side must decide (at most ``max_steps``
        actions if given); returns what it did (empty if no AI side is to act).

        The AI decides from its own :func:`engine.view` only (in the simultaneous pick it never
        sees the human's pick), in a worker thread, with a seed derived one-way from the match
        seed and the log length. Calls for one match take turns.

        Raises:
            NotFoundError; whatever the AI raises.
        """
        lock = self._ai_locks.get(match_id)
        if lock is None:
            lock = self._ai_locks[match_id] = asyncio.Lock()
        results: list[ActResult] = []
        limit = MAX_AI_STEPS if max_steps is None else max_steps
        async with lock:
            for _ in range(MAX_AI_STEPS):
                if len(results) >= limit:
                    break
                m = await self.get_match(match_id)
                if not m.active:
                    break
                sides = [s for s in SIDES if s in engine.to_act(m.state) and m.ai[s] is not None]
                if not sides:
                    break
                side = sides[0]
                choose = self._chooser()
                action = await asyncio.to_thread(
                    choose, engine.view(m.state, side), level=m.ai[side],
                    seed=_ai_seed(m.seed, m.log_length, side), time_budget=self.ai_time_budget)
                try:
                    res = await self.act(match_id, m.players[side], action,
                                         expected_version=m.version, side=side)
                except (StaleError, MatchFinishedError):
                    continue  # the match changed while the AI thought: look again
                results.append(res)
        return results

    # ------------------------------------------------------------------ ending
    async def resign(self, match_id: int, user_id: int) -> Match:
        """The user resigns: the opponent wins (reason ``"resigned"``).

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
        """
        m, _ = await self._load(match_id)
        side = self._player_side(m, user_id, None)
        return await self._finish(m, side.other.value, "resigned")

    async def end_by_moderator(self, match_id: int) -> Match:
        """End an active match without a result and unrated (reason ``"ended_by_moderator"``),
        for a server moderator; the bot decides who may (addition to the contract).

        Raises:
            NotFoundError, MatchFinishedError.
        """
        m, _ = await self._load(match_id)
        return await self._finish(m, None, "ended_by_moderator")

    async def _finish(self, m: Match, result: str | None, reason: str, *,
                      where: str = "", params: tuple[Any, ...] = (),
                      stale: str = "") -> Match:
        """End an active match with ``result``/``reason`` and record it, in one transaction.
        ``where``/``params`` add conditions; if they fail, StaleError(``stale``)."""
        now = self.clock()
        async with self.db.transaction() as tx:
            n = await tx.execute(
                "UPDATE matches SET status = 'finished', result = ?, reason = ?, "
                "version = version + 1, updated_at = ?, deadline_at = NULL, remind_at = NULL, "
                "draw_offered_by = NULL WHERE id = ? AND status = 'active'" + where,
                (result, reason, now, m.id, *params))
            if n == 0:
                row = await tx.fetchone("SELECT status FROM matches WHERE id = ?", (m.id,))
                if row["status"] != "active":
                    raise MatchFinishedError("This match is already over.")
                raise StaleError(stale or "Already done: the match changed meanwhile.")
            await self._record_result(tx, m, result, reason, now)
        log.info("match %d finished: %s (%s)", m.id, result, reason)
        return await self.get_match(m.id)

    async def _record_result(self, tx: Transaction, m: Match, result: str | None,
                             reason: str, now: float) -> None:
        rated = (m.ai[RAPTOR] is None and m.ai[SCIENTIST] is None and reason != "abandoned"
                 and result is not None and m.players[RAPTOR] != m.players[SCIENTIST])
        before = after = (None, None)
        if rated:
            ids = (m.players[RAPTOR], m.players[SCIENTIST])
            ratings = []
            for uid in ids:
                await tx.execute("INSERT OR IGNORE INTO ratings (guild_id, user_id, rating, "
                                 "updated_at) VALUES (?, ?, ?, ?)",
                                 (m.guild_id, uid, START_RATING, now))
                row = await tx.fetchone("SELECT rating FROM ratings WHERE guild_id = ? AND "
                                        "user_id = ?", (m.guild_id, uid))
                ratings.append(row["rating"])
            score = {"raptor": 1.0, "draw": 0.5, "scientist": 0.0}[result]
            before = (ratings[0], ratings[1])
            after = elo_update(ratings[0], ratings[1], score)
            for side, uid, new_rating in ((RAPTOR, ids[0], after[0]),
                                          (SCIENTIST, ids[1], after[1])):
                won = result == side.value
                lost = result not in (side.value, "draw")
                await tx.execute(
                    f"UPDATE ratings SET rating = ?, {side.value}_wins = {side.value}_wins + ?, "
                    f"{side.value}_losses = {side.value}_losses + ?, draws = draws + ?, "
                    "updated_at = ? WHERE guild_id = ? AND user_id = ?",
                    (new_rating, int(won), int(lost), int(result == "draw"), now, m.guild_id,
                     uid))
        await tx.execute(
            "INSERT INTO results (match_id, guild_id, raptor_user_id, scientist_user_id, "
            "result, reason, rated, raptor_rating_before, raptor_rating_after, "
            "scientist_rating_before, scientist_rating_after, finished_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (m.id, m.guild_id, m.players[RAPTOR], m.players[SCIENTIST], result, reason,
             int(rated), before[0], after[0], before[1], after[1], now))

    async def offer_draw(self, match_id: int, user_id: int) -> Match:
        """Offer a draw to the opponent. If the opponent's offer stands, this accepts it.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError, StaleError.
            InvalidRequestError: against the AI, or the user's offer already stands.
        """
        m, _ = await self._load(match_id)
        side = self._player_side(m, user_id, None)
        if m.practice:
            raise InvalidRequestError("The AI doesn't agree to draws: play on, or resign.")
        if m.draw_offered_by == user_id:
            raise InvalidRequestError("You have already offered a draw: wait for your "
                                      "opponent's answer.")
        if m.draw_offered_by == m.players[side.other]:
            return await self.accept_draw(match_id, user_id)
        async with self.db.transaction() as tx:
            n = await tx.execute("UPDATE matches SET draw_offered_by = ?, updated_at = ? "
                                 "WHERE id = ? AND status = 'active' AND draw_offered_by IS "
                                 "NULL", (user_id, self.clock(), match_id))
        if n == 0:
            raise StaleError("The match changed meanwhile: look at the latest message.")
        return await self.get_match(match_id)

    async def accept_draw(self, match_id: int, user_id: int) -> Match:
        """Accept the opponent's standing draw offer: the match ends as a draw.

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
            InvalidRequestError: no offer from the opponent stands.
            StaleError: the offer was cleared meanwhile (an action was played).
        """
        m, _ = await self._load(match_id)
        side = self._player_side(m, user_id, None)
        offerer = m.players[side.other]
        if m.draw_offered_by is None or m.draw_offered_by != offerer or offerer == user_id:
            raise InvalidRequestError("There is no draw offer from your opponent to accept.")
        return await self._finish(m, "draw", "draw_agreed", where=" AND draw_offered_by = ?",
                                  params=(offerer,),
                                  stale="The draw offer is no longer open: a move was made "
                                        "meanwhile.")

    async def decline_draw(self, match_id: int, user_id: int) -> Match:
        """Decline the opponent's draw offer (or withdraw one's own).

        Raises:
            NotFoundError, NotAPlayerError, MatchFinishedError.
            InvalidRequestError: no draw offer stands.
        """
        m, _ = await self._load(match_id)
        self._player_side(m, user_id, None)
        if m.draw_offered_by is None:
            raise InvalidRequestError("There is no draw offer to decline.")
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE matches SET draw_offered_by = NULL, updated_at = ? WHERE "
                             "id = ? AND draw_offered_by = ?",
                             (self.clock(), match_id, m.draw_offered_by))
        return await self.get_match(match_id)

    async def rematch(self, match_id: int, user_id: int, *, side: str | None = None
                      ) -> Challenge:
        """A new pending challenge from ``user_id`` to the opponent of a finished match, in
        the same channel with the same options; sides swapped unless ``side`` is given.

        Raises:
            NotFoundError, NotAPlayerError.
            InvalidRequestError: the match is still active, or it was against the AI (start a
                new practice game instead); plus those of :meth:`create_challenge`.
        """
        m, _ = await self._load(match_id)
        mine = m.side_of(user_id)
        if mine is None:
            raise NotAPlayerError("Only the players of this match can ask for a rematch.")
        if m.active:
            raise InvalidRequestError("This match is still being played: finish it (or "
                                      "resign) before asking for a rematch.")
        if m.practice:
            raise InvalidRequestError("For another game against the AI, start a new practice "
                                      "game.")
        wish = side if side is not None else mine.other.value
        return await self.create_challenge(
            m.guild_id, m.channel_id, user_id, m.players[mine.other], side=wish,
            environment=m.options.environment, setup=m.options.setup, rematch_of=m.id)

    # ------------------------------------------------------------------ log
    async def _log_entries(self, match_id: int) -> list[LogEntry]:
        rows = await self.db.fetchall("SELECT seq, side, kind, action, created_at FROM "
                                      "match_log WHERE match_id = ? ORDER BY seq", (match_id,))
        return [LogEntry(r["seq"], Side(r["side"]), r["kind"],
                         engine.action_from_dict(json.loads(r["action"])), r["created_at"])
                for r in rows]

    async def raw_log(self, match_id: int) -> list[LogEntry]:
        """Every log record, undo records included, in order (addition to the contract).

        Raises:
            NotFoundError: no such match.
        """
        await self.get_match(match_id)
        return await self._log_entries(match_id)

    async def action_log(self, match_id: int) -> list[tuple[int, Side, Action]]:
        """The effective actions ``(seq, side, action)`` in order: undone actions left out.

        Raises:
            NotFoundError: no such match.
        """
        return [(e.seq, e.side, e.action) for e in _effective(await self.raw_log(match_id))]

    async def replayed_state(self, match_id: int) -> GameState:
        """The state rebuilt by :func:`engine.replay` from the seed and the effective log; it
        equals the stored ``Match.state``.

        Raises:
            NotFoundError; engine.RaptorError or RuntimeError for a corrupt log.
        """
        m = await self.get_match(match_id)
        effective = _effective(await self._log_entries(match_id))
        return engine.replay(m.seed, m.options, [(e.side, e.action) for e in effective])

    # ------------------------------------------------------------------ posts with controls
    async def remember_post(self, match_id: int, kind: str, channel_id: int, message_id: int,
                            text: str) -> None:
        """Record a message of the bot that carries the match's controls
        (:class:`ControlPost`), so that it can be retired later, after a restart too.

        Raises:
            ValueError: ``kind`` is not ``"turn"``, ``"round"`` or ``"draw"``.
            NotFoundError: no such match.
        """
        if kind not in ("turn", "round", "draw"):
            raise ValueError(f"kind must be 'turn', 'round' or 'draw', got {kind!r}")
        try:
            await self.db.write("INSERT OR REPLACE INTO control_posts (message_id, match_id, "
                                "kind, channel_id, text) VALUES (?, ?, ?, ?, ?)",
                                (message_id, match_id, kind, channel_id, text))
        except sqlite3.IntegrityError:
            raise NotFoundError(f"There is no match #{match_id}.") from None

    async def take_posts(self, match_id: int, kind: str) -> list[ControlPost]:
        """Forget the match's recorded posts of ``kind`` and return them, oldest first, for
        the caller to retire; each post goes to one caller only."""
        async with self.db.transaction() as tx:
            rows = await tx.fetchall("SELECT * FROM control_posts WHERE match_id = ? AND "
                                     "kind = ? ORDER BY message_id", (match_id, kind))
            if rows:
                await tx.execute("DELETE FROM control_posts WHERE match_id = ? AND kind = ?",
                                 (match_id, kind))
        return [ControlPost(r["match_id"], r["kind"], r["channel_id"], r["message_id"],
                            r["text"]) for r in rows]

    async def forget_post(self, message_id: int) -> bool:
        """Forget one recorded post (its caller deals with the message); True if it was
        still recorded, False if another caller took it first."""
        return bool(await self.db.write("DELETE FROM control_posts WHERE message_id = ?",
                                        (message_id,)))

    async def has_post(self, match_id: int, kind: str) -> bool:
        """Whether a post of ``kind`` is recorded for the match."""
        return await self.db.fetchone("SELECT 1 FROM control_posts WHERE match_id = ? AND "
                                      "kind = ?", (match_id, kind)) is not None

    # ------------------------------------------------------------------ timers
    async def process_timers(self, now: float | None = None) -> list[TimerEvent]:
        """Fire every timer that is due at ``now`` (default: the clock), from the database:
        expire challenges, forfeit matches past their deadline, send half-time reminders.
        Idempotent: a timer fires once, even if called again or from two processes.
        """
        now = self.clock() if now is None else now
        events: list[TimerEvent] = []
        for r in await self.db.fetchall("SELECT id FROM challenges WHERE status = 'pending' "
                                        "AND expires_at <= ? ORDER BY expires_at", (now,)):
            async with self.db.transaction() as tx:
                n = await tx.execute("UPDATE challenges SET status = 'expired' WHERE id = ? "
                                     "AND status = 'pending' AND expires_at <= ?", (r["id"], now))
            if n:
                ch = await self.get_challenge(r["id"])
                events.append(TimerEvent("challenge_expired", ch.channel_id,
                                         (ch.challenger_id, ch.challenged_id),
                                         challenge_id=ch.id, challenge=ch))
        for r in await self.db.fetchall("SELECT id FROM matches WHERE status = 'active' AND "
                                        "deadline_at <= ? ORDER BY deadline_at", (now,)):
            m = await self.get_match(r["id"])
            idle = [s for s in SIDES if s in engine.to_act(m.state) and m.ai[s] is None]
            if not idle:
                continue
            if len(idle) == 1:
                result, reason = idle[0].other.value, "timeout"
            else:
                result, reason = None, "abandoned"
            try:
                after = await self._finish(m, result, reason,
                                           where=" AND version = ? AND deadline_at <= ?",
                                           params=(m.version, now))
            except (StaleError, MatchFinishedError):
                continue
            events.append(TimerEvent("forfeit", m.channel_id,
                                     tuple(m.players[s] for s in idle), match_id=m.id,
                                     match=after))
        for r in await self.db.fetchall("SELECT id FROM matches WHERE status = 'active' AND "
                                        "reminded = 0 AND remind_at <= ? ORDER BY remind_at",
                                        (now,)):
            m = await self.get_match(r["id"])
            async with self.db.transaction() as tx:
                n = await tx.execute("UPDATE matches SET reminded = 1 WHERE id = ? AND "
                                     "version = ? AND reminded = 0 AND status = 'active'",
                                     (m.id, m.version))
            idle = [s for s in SIDES if s in engine.to_act(m.state) and m.ai[s] is None]
            if n and idle:
                events.append(TimerEvent("reminder", m.channel_id,
                                         tuple(m.players[s] for s in idle), match_id=m.id,
                                         match=await self.get_match(m.id)))
        return events

    async def next_timer_at(self) -> float | None:
        """When the next timer is due (Unix seconds), or None if none is pending."""
        row = await self.db.fetchone(
            "SELECT MIN(t) FROM ("
            "SELECT MIN(expires_at) AS t FROM challenges WHERE status = 'pending' "
            "UNION ALL SELECT MIN(deadline_at) FROM matches WHERE status = 'active' "
            "UNION ALL SELECT MIN(remind_at) FROM matches WHERE status = 'active' "
            "AND reminded = 0)")
        return None if row is None or row[0] is None else float(row[0])

    async def set_guild_timeout(self, guild_id: int, seconds: float) -> None:
        """Set the server's turn timeout; it applies from each match's next change.

        Raises:
            InvalidRequestError: not a positive finite number of seconds.
        """
        if not (isinstance(seconds, int | float) and math.isfinite(seconds) and seconds > 0):
            raise InvalidRequestError("The turn timeout must be a positive number of seconds.")
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (?, ?) "
                             "ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded."
                             "turn_timeout", (guild_id, float(seconds)))

    async def reset_guild_timeout(self, guild_id: int) -> None:
        """Forget the server's own turn timeout: the bot's default applies again, from each
        match's next change (addition to the contract)."""
        async with self.db.transaction() as tx:
            await tx.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))

    async def has_guild_timeout(self, guild_id: int) -> bool:
        """Whether the server set its own turn timeout (addition to the contract)."""
        row = await self.db.fetchone("SELECT turn_timeout FROM guild_settings WHERE "
                                     "guild_id = ?", (guild_id,))
        return row is not None and row["turn_timeout"] is not None

    async def guild_timeout(self, guild_id: int) -> float:
        """The server's turn timeout in seconds (addition to the contract)."""
        row = await self.db.fetchone("SELECT turn_timeout FROM guild_settings WHERE "
                                     "guild_id = ?", (guild_id,))
        if row is None or row["turn_timeout"] is None:
            return self.turn_timeout
        return float(row["turn_timeout"])

    # ------------------------------------------------------------------ results
    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """The user's rated record in the server (rating 1500 and zeros if none)."""
        row = await self.db.fetchone("SELECT * FROM ratings WHERE guild_id = ? AND user_id = ?",
                                     (guild_id, user_id))
        return _stats_from_row(guild_id, user_id, row)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """The server's rated players, best rating first (ties: more games first)."""
        rows = await self.db.fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? ORDER BY rating DESC, "
            "(raptor_wins + raptor_losses + scientist_wins + scientist_losses + draws) DESC, "
            "user_id LIMIT ?", (guild_id, limit))
        return [_stats_from_row(guild_id, r["user_id"], r) for r in rows]

    async def last_finished(self, channel_id: int) -> Match | None:
        """The channel's most recently finished match, or None (addition to the contract: the
        board shown between matches)."""
        row = await self.db.fetchone(
            "SELECT * FROM matches WHERE channel_id = ? AND status = 'finished' "
            "ORDER BY updated_at DESC, id DESC LIMIT 1", (channel_id,))
        return None if row is None else _match_from_row(row, self._states)

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[Match]:
        """The user's finished matches in the server (practice ones too), newest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE guild_id = ? AND status = 'finished' AND "
            "(raptor_user_id = ? OR scientist_user_id = ?) ORDER BY updated_at DESC, id DESC "
            "LIMIT ?", (guild_id, user_id, user_id, limit))
        return [_match_from_row(r, self._states) for r in rows]

    # ------------------------------------------------------------------ user settings
    async def get_user_setting(self, user_id: int, key: str, default: Any = None) -> Any:
        """A user's setting (any JSON value), or ``default``."""
        row = await self.db.fetchone("SELECT value FROM user_settings WHERE user_id = ? AND "
                                     "key = ?", (user_id, key))
        return default if row is None else json.loads(row["value"])

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Store a user's setting (a JSON-serialisable value)."""
        async with self.db.transaction() as tx:
            await tx.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                             "VALUES (?, ?, ?, ?) ON CONFLICT (user_id, key) DO UPDATE SET "
                             "value = excluded.value, updated_at = excluded.updated_at",
                             (user_id, key, json.dumps(value), self.clock()))

    # ------------------------------------------------------------------ validation
    @staticmethod
    def _check_options(side: str, environment: str, setup: str,
                       sides: tuple[str, ...]) -> None:
        if side not in sides:
            raise InvalidRequestError(f"Unknown side {side!r}: choose {', '.join(sides)}.")
        if environment not in ENVIRONMENTS:
            raise InvalidRequestError(f"Unknown environment {environment!r}: choose jungle or "
                                      "savannah.")
        if setup not in SETUPS:
            raise InvalidRequestError(f"Unknown setup {setup!r}: choose quick or manual.")
