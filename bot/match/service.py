"""The match service: one façade over the match layer, for the Discord layer, the offline
modes and the tests.

It speaks in plain ids (guild, channel and user ids are ``int``; seats are ``int`` from 0; games by
their registry name, :mod:`bot.games`) and imports nothing from discord. Every call reloads what it
needs from the :class:`~bot.storage.Database`: nothing about a match lives only in memory, so a
restarted process resumes every match and timer.

The work is done by services with one job each, which this class only puts together:

==============================  ============================================================
:mod:`bot.match.challenges`     create, accept, decline, cancel, rematch
:mod:`bot.match.starting`       practice and AI matches; storing a new match
:mod:`bot.match.tables`         the lobby: open, join, leave, seat the AI, start, cancel
:mod:`bot.match.play`           act, undo, the AI's turns, the action log and its replay
:mod:`bot.match.endings`        resign, draws, a moderator's end (results: ``results``)
:mod:`bot.match.timers`         reminders, forfeits, challenge and table expiry, timeouts
:mod:`bot.match.announcements`  endings still to post (their process stopped first)
:mod:`bot.match.stats`          ratings, leaderboard, history
==============================  ============================================================

The SQL is in the stores (``*_store.py``), the values in :mod:`bot.match.models`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.game import Seat

from ..storage import Database, IntegrityViolation
from .announcements import AnnouncementService
from .challenges import ChallengeService
from .claim_store import process_owner
from .context import MatchContext
from .endings import EndingService
from .models import (
    ActResult,
    Challenge,
    ChannelBusyError,
    LogEntry,
    Match,
    MatchFinishedError,
    PlayerStats,
    TimerEvent,
)
from .play import PlayService
from .result_store import EloRecord, SeatRecord
from .shards import Shards
from .starting import MatchStarter
from .stats import StatsService
from .table_store import Table
from .tables import TableService
from .timers import TimerService


class MatchService:
    """Challenges, matches, timers and ratings over one :class:`~bot.storage.Database`.

    Args:
        db: an open database.
        turn_timeout: seconds a human player has for a decision, unless the server set its own
            (:meth:`set_guild_timeout`); > 0.
        challenge_timeout: seconds a challenge stays open; > 0.
        clock: returns the current Unix time in seconds (tests pass a fake clock).
        ai_time_budget: seconds of thinking per AI decision, passed to the AI.
        ai_chooser: ``choose_action(view, *, level, seed, time_budget) -> action`` for every
            game (tests); by default each game's AI, imported on first use.
        ai_iterations: the AI's fixed work per decision instead of its clock (offline
            demos: the same play on any machine), see :class:`PlayService`.
        seed_source: returns a new match seed; by default ``secrets.randbits(63)``. Only tests
            should pass another one (a predictable seed reveals every deck order).
        owner: this process's name in claims on timers and AI turns (default
            :func:`~bot.match.claim_store.process_owner`); claim_lease: seconds a claim holds
            before another process may take the work over.
        shards: the servers this process serves (default: all); see :mod:`bot.match.shards`.
        max_practices: practice matches one member may play at once (the cap of
            :meth:`start_practice`); max_challenges: open challenges one member may have
            sent at once (:meth:`create_challenge`), and open tables they host (counted
            together).
        table_timeout: seconds a table stays open without being started; > 0.

    Raises:
        ValueError: a timeout that is not a positive finite number, or a cap below 1.
    """

    def __init__(self, db: Database, *, turn_timeout: float = 86400.0,
                 challenge_timeout: float = 600.0, clock: Callable[[], float] = time.time,
                 ai_time_budget: float = 2.0,
                 ai_chooser: Callable[..., Any] | None = None,
                 seed_source: Callable[[], int] | None = None, owner: str | None = None,
                 claim_lease: float = 60.0, shards: Shards | None = None,
                 ai_iterations: int | None = None, max_practices: int = 3,
                 max_challenges: int = 5, table_timeout: float = 1800.0) -> None:
        self.ctx = MatchContext(db, turn_timeout, challenge_timeout, clock,
                                owner=owner or process_owner(), claim_lease=claim_lease,
                                shards=shards or Shards(), max_practices=max_practices,
                                max_challenges=max_challenges, table_timeout=table_timeout)
        self.starter = MatchStarter(self.ctx, seed_source)
        self.challenges = ChallengeService(self.ctx, self.starter)
        self.tables = TableService(self.ctx, self.starter)
        self.play = PlayService(self.ctx, ai_time_budget=ai_time_budget, ai_chooser=ai_chooser,
                                ai_iterations=ai_iterations)
        self.endings = EndingService(self.ctx)
        self.timers = TimerService(self.ctx, self.endings, self.tables)
        self.announcements = AnnouncementService(self.ctx)
        self.records = StatsService(self.ctx)

    @property
    def db(self) -> Database:
        return self.ctx.db

    @property
    def clock(self) -> Callable[[], float]:
        return self.ctx.clock

    @property
    def turn_timeout(self) -> float:
        """The default turn timeout in seconds."""
        return self.ctx.turn_timeout

    @property
    def challenge_timeout(self) -> float:
        return self.ctx.challenge_timeout

    # ------------------------------------------------------------------ challenges
    async def create_challenge(self, guild_id: int, channel_id: int, challenger_id: int,
                               challenged_id: int, *, game: str, seat: Seat | None = None,
                               options: Mapping[str, str] | None = None,
                               rematch_of: int | None = None) -> Challenge:
        """:meth:`ChallengeService.create_challenge`."""
        return await self.challenges.create_challenge(
            guild_id, channel_id, challenger_id, challenged_id, game=game, seat=seat,
            options=options, rematch_of=rematch_of)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """:meth:`ChallengeService.get_challenge`."""
        return await self.challenges.get_challenge(challenge_id)

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Match:
        """:meth:`ChallengeService.accept_challenge`."""
        return await self.challenges.accept_challenge(challenge_id, user_id)

    async def decline_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """:meth:`ChallengeService.decline_challenge`."""
        return await self.challenges.decline_challenge(challenge_id, user_id)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """:meth:`ChallengeService.cancel_challenge`."""
        return await self.challenges.cancel_challenge(challenge_id, user_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """:meth:`ChallengeService.set_challenge_message`."""
        await self.challenges.set_challenge_message(challenge_id, message_id)

    async def pending_challenges(self, channel_id: int) -> list[Challenge]:
        """:meth:`ChallengeService.pending_challenges`."""
        return await self.challenges.pending_challenges(channel_id)

    async def withdraw_unposted(self, *, created_before: float | None = None
                                ) -> list[Challenge]:
        """:meth:`ChallengeService.withdraw_unposted`."""
        return await self.challenges.withdraw_unposted(created_before=created_before)

    async def rematch(self, match_id: int, user_id: int, *, seat: Seat | None = None
                      ) -> Challenge:
        """:meth:`ChallengeService.rematch`."""
        return await self.challenges.rematch(match_id, user_id, seat=seat)

    async def rematch_practice(self, match_id: int, user_id: int, *, ai_user_id: int
                               ) -> Match:
        """:meth:`ChallengeService.rematch_practice`."""
        return await self.challenges.rematch_practice(match_id, user_id,
                                                      ai_user_id=ai_user_id)

    # ------------------------------------------------------------------ tables
    async def open_table(self, guild_id: int, channel_id: int, host_id: int, *, game: str,
                         seats: int, options: Mapping[str, str] | None = None) -> Table:
        """:meth:`TableService.open_table`."""
        return await self.tables.open_table(guild_id, channel_id, host_id, game=game,
                                            seats=seats, options=options)

    async def get_table(self, table_id: int) -> Table:
        """:meth:`TableService.get_table`."""
        return await self.tables.get_table(table_id)

    async def join_table(self, table_id: int, user_id: int) -> Table:
        """:meth:`TableService.join`."""
        return await self.tables.join(table_id, user_id)

    async def leave_table(self, table_id: int, user_id: int) -> Table:
        """:meth:`TableService.leave`."""
        return await self.tables.leave(table_id, user_id)

    async def seat_table_ai(self, table_id: int, user_id: int, level: str) -> Table:
        """:meth:`TableService.add_ai`."""
        return await self.tables.add_ai(table_id, user_id, level)

    async def unseat_table_ai(self, table_id: int, user_id: int) -> Table:
        """:meth:`TableService.remove_ai`."""
        return await self.tables.remove_ai(table_id, user_id)

    async def cancel_table(self, table_id: int, user_id: int) -> Table:
        """:meth:`TableService.cancel`."""
        return await self.tables.cancel(table_id, user_id)

    async def start_table(self, table_id: int, user_id: int, *, ai_user_id: int) -> Match:
        """:meth:`TableService.start`; call :meth:`play_ai` afterwards."""
        return await self.tables.start(table_id, user_id, ai_user_id=ai_user_id)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        """:meth:`TableService.set_table_message`."""
        await self.tables.set_table_message(table_id, message_id)

    async def withdraw_unposted_tables(self, *, created_before: float | None = None
                                       ) -> list[Table]:
        """:meth:`TableService.withdraw_unposted`."""
        return await self.tables.withdraw_unposted(created_before=created_before)

    # ------------------------------------------------------------------ matches
    async def start_practice(self, guild_id: int, channel_id: int, user_id: int, *,
                             game: str, seat: Seat | None = None, level: str = "easy",
                             options: Mapping[str, str] | None = None,
                             seats: int | None = None, ai_user_id: int,
                             seed: int | None = None) -> Match:
        """:meth:`MatchStarter.start_practice`; call :meth:`play_ai` afterwards."""
        return await self.starter.start_practice(
            guild_id, channel_id, user_id, game=game, seat=seat, level=level,
            options=options, seats=seats, ai_user_id=ai_user_id, seed=seed)

    async def start_ai_match(self, guild_id: int, channel_id: int, *, game: str,
                             levels: Sequence[str], ai_user_ids: Sequence[int],
                             options: Mapping[str, str] | None = None,
                             seed: int | None = None) -> Match:
        """:meth:`MatchStarter.start_ai_match`; drive it with :meth:`play_ai`."""
        return await self.starter.start_ai_match(
            guild_id, channel_id, game=game, levels=levels, ai_user_ids=ai_user_ids,
            options=options, seed=seed)

    async def get_match(self, match_id: int) -> Match:
        """The match with that id.

        Raises:
            NotFoundError: no such match.
        """
        return (await self.ctx.match(match_id))[0]

    async def active_match(self, channel_id: int) -> Match | None:
        """The channel's active match, or None."""
        return await self.ctx.matches.active_in_channel(channel_id)

    async def active_matches(self, guild_id: int | None = None) -> list[Match]:
        """Every active match, or those of one server, oldest first (for a server's
        moderators)."""
        return await self.ctx.matches.active(guild_id)

    # ------------------------------------------------------------------ play
    async def act(self, match_id: int, user_id: int, action: Any, *,
                  expected_version: int | None = None,
                  seat: Seat | None = None) -> ActResult:
        """:meth:`PlayService.act`."""
        return await self.play.act(match_id, user_id, action,
                                   expected_version=expected_version, seat=seat)

    async def undo(self, match_id: int, user_id: int, *,
                   expected_version: int | None = None) -> Match:
        """:meth:`PlayService.undo`."""
        return await self.play.undo(match_id, user_id, expected_version=expected_version)

    async def play_ai(self, match_id: int, *, max_steps: int | None = None
                      ) -> list[ActResult]:
        """:meth:`PlayService.play_ai`."""
        return await self.play.play_ai(match_id, max_steps=max_steps)

    async def matches_waiting_for_ai(self) -> list[int]:
        """:meth:`PlayService.matches_waiting_for_ai`."""
        return await self.play.matches_waiting_for_ai()

    async def abandoned_ai_matches(self) -> list[int]:
        """:meth:`PlayService.abandoned_ai_matches`."""
        return await self.play.abandoned_ai_matches()

    async def ai_retries_due(self) -> list[int]:
        """:meth:`PlayService.ai_retries_due`."""
        return await self.play.ai_retries_due()

    async def raw_log(self, match_id: int) -> list[LogEntry]:
        """:meth:`PlayService.raw_log`."""
        return await self.play.raw_log(match_id)

    async def action_log(self, match_id: int) -> list[tuple[int, Seat, Any]]:
        """:meth:`PlayService.action_log`."""
        return await self.play.action_log(match_id)

    async def replayed_state(self, match_id: int) -> Any:
        """:meth:`PlayService.replayed_state`."""
        return await self.play.replayed_state(match_id)

    # ------------------------------------------------------------------ endings
    async def resign(self, match_id: int, user_id: int) -> Match:
        """:meth:`EndingService.resign`."""
        return await self.endings.resign(match_id, user_id)

    async def end_by_moderator(self, match_id: int) -> Match:
        """:meth:`EndingService.end_by_moderator`."""
        return await self.endings.end_by_moderator(match_id)

    async def stop(self, match_id: int) -> Match:
        """:meth:`EndingService.stop`."""
        return await self.endings.stop(match_id)

    async def offer_draw(self, match_id: int, user_id: int) -> Match:
        """:meth:`EndingService.offer_draw`."""
        return await self.endings.offer_draw(match_id, user_id)

    async def accept_draw(self, match_id: int, user_id: int) -> Match:
        """:meth:`EndingService.accept_draw`."""
        return await self.endings.accept_draw(match_id, user_id)

    async def decline_draw(self, match_id: int, user_id: int) -> Match:
        """:meth:`EndingService.decline_draw`."""
        return await self.endings.decline_draw(match_id, user_id)

    # ------------------------------------------------------------------ timers
    async def process_timers(self, now: float | None = None) -> list[TimerEvent]:
        """:meth:`TimerService.process_timers`."""
        return await self.timers.process_timers(now)

    async def endings_to_announce(self, now: float | None = None) -> list[Match]:
        """:meth:`AnnouncementService.due`."""
        return await self.announcements.due(now)

    async def end_announced(self, match_id: int) -> bool:
        """:meth:`AnnouncementService.announced`."""
        return await self.announcements.announced(match_id)

    async def next_timer_at(self) -> float | None:
        """:meth:`TimerService.next_timer_at`."""
        return await self.timers.next_timer_at()

    async def set_guild_timeout(self, guild_id: int, seconds: float) -> None:
        """:meth:`TimerService.set_guild_timeout`."""
        await self.timers.set_guild_timeout(guild_id, seconds)

    async def reset_guild_timeout(self, guild_id: int) -> None:
        """:meth:`TimerService.reset_guild_timeout`."""
        await self.timers.reset_guild_timeout(guild_id)

    async def has_guild_timeout(self, guild_id: int) -> bool:
        """:meth:`TimerService.has_guild_timeout`."""
        return await self.timers.has_guild_timeout(guild_id)

    async def guild_timeout(self, guild_id: int) -> float:
        """:meth:`TimerService.guild_timeout`."""
        return await self.timers.guild_timeout(guild_id)

    async def guild_threads(self, guild_id: int) -> bool:
        """Whether the server's matches get a thread each (default: yes)."""
        own = await self.ctx.settings.guild_threads(guild_id)
        return True if own is None else own

    async def set_guild_threads(self, guild_id: int, on: bool) -> None:
        """Set whether the server's matches get a thread each."""
        await self.ctx.settings.set_guild_threads(guild_id, on)

    async def move_to_thread(self, match_id: int, thread_id: int) -> Match:
        """Play an active match in ``thread_id`` (a thread started for it) from now on.

        Raises:
            NotFoundError: no such match.
            MatchFinishedError: the match is over.
            ChannelBusyError: the thread holds another active match.
        """
        try:
            moved = await self.ctx.matches.move(match_id, thread_id)
        except IntegrityViolation:
            raise ChannelBusyError("That thread already holds a match.") from None
        if not moved:
            raise MatchFinishedError("This match is over: it stays where it was played.")
        return await self.get_match(match_id)

    # ------------------------------------------------------------------ records
    async def stats(self, guild_id: int, game: str, user_id: int) -> PlayerStats:
        """:meth:`StatsService.stats`."""
        return await self.records.stats(guild_id, game, user_id)

    async def seat_records(self, guild_id: int, game: str, user_id: int) -> list[SeatRecord]:
        """:meth:`StatsService.seat_records`."""
        return await self.records.seat_records(guild_id, game, user_id)

    async def elo(self, guild_id: int, user_id: int) -> EloRecord | None:
        """:meth:`StatsService.elo`."""
        return await self.records.elo(guild_id, user_id)

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10
                          ) -> list[PlayerStats]:
        """:meth:`StatsService.leaderboard`."""
        return await self.records.leaderboard(guild_id, game, limit)

    async def last_finished(self, channel_id: int) -> Match | None:
        """:meth:`StatsService.last_finished`."""
        return await self.records.last_finished(channel_id)

    async def newest_finished(self) -> Match | None:
        """The database's most recently finished match, or None (``python -m bot replay``)."""
        return await self.ctx.matches.newest_finished()

    async def history(self, guild_id: int, user_id: int, limit: int = 10,
                      game: str | None = None) -> list[Match]:
        """:meth:`StatsService.history`."""
        return await self.records.history(guild_id, user_id, limit, game)

    # ------------------------------------------------------------------ user settings
    async def get_user_setting(self, user_id: int, key: str, default: Any = None) -> Any:
        """A user's setting (any JSON value), or ``default``."""
        return await self.ctx.settings.user_setting(user_id, key, default)

    async def set_user_setting(self, user_id: int, key: str, value: Any) -> None:
        """Store a user's setting (a JSON-serialisable value)."""
        await self.ctx.settings.set_user_setting(user_id, key, value, self.ctx.clock())

    # ------------------------------------------------------------------ languages
    async def guild_language(self, guild_id: int) -> str | None:
        """The language a moderator chose for the server's public messages (``en``,
        ``zh-TW``), or None: Discord's server locale decides."""
        return await self.ctx.settings.guild_language(guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> None:
        """Choose the server's language for public messages (None: Discord's locale)."""
        await self.ctx.settings.set_guild_language(guild_id, language, self.ctx.clock())
