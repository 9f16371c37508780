"""The timer task: reminders, forfeits and challenge expiry as they fall due, the ends of
matches that a stopped process did not post (:mod:`bot.match.announcements`), and at
start-up the withdrawal of challenges that were never posted and the AI's owed decisions.

It sleeps until the next timer in the database (:meth:`MatchService.next_timer_at`), at
most :data:`MAX_TIMER_SLEEP`, and wakes early when :meth:`TimerTask.poke` says something
changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord

from .. import texts
from ..match import ChallengeStatus, MatchService, TimerEvent, TimerKind
from .narration import Narrator
from .posts import Posts
from .presentation import ui_of
from .replies import NO_PINGS, pings
from .tables import table_message

log = logging.getLogger(__name__)

MAX_TIMER_SLEEP = 60.0  # seconds: the timer loop looks at the database at least this often
MIN_TIMER_SLEEP = 1.0  # seconds: never spin on a timer that stays due
ERROR_SLEEP = 10.0


class TimerTask:
    """The bot's one timer loop (``start`` / ``stop``)."""

    def __init__(self, client: discord.Client, service: MatchService, narrator: Narrator,
                 posts: Posts) -> None:
        self.client = client
        self.service = service
        self.narrator = narrator
        self.posts = posts
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._started_at: float | None = None

    def start(self) -> None:
        """Start the timer loop (reminders, forfeits, challenge expiry, AI resumption)."""
        if self._task is None:
            self._started_at = self.service.clock()
            self._task = asyncio.create_task(self._timer_loop(), name="raptor-timers")

    async def stop(self) -> None:
        """Stop the loop and wait for it."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    def poke(self) -> None:
        """Something changed: the timer loop re-reads the next deadline now."""
        self._wake.set()

    async def run_once(self) -> list[TimerEvent]:
        """Fire due timers (service.process_timers) and post their messages; then take
        over the AI turns of matches whose claim ran out (the process playing them died);
        then try again the AI of matches where it failed, once their retry is due
        (:meth:`MatchService.ai_retries_due`); then post the ends that no process posted
        (:meth:`announce_endings`). The loop runs this at start-up, then after each sleep.
        Returns the timer events."""
        events = await self.service.process_timers()
        for event in events:
            try:
                await self.on_timer(event)
            except Exception:
                log.exception("posting timer event %s failed", event.kind)
        for match_id in await self.service.abandoned_ai_matches():
            log.info("match %d: taking over the AI turn of a process that stopped", match_id)
            try:
                await self.narrator.advance(await self.service.get_match(match_id))
            except Exception:
                log.exception("match %d: taking over the AI failed", match_id)
        for match_id in await self.service.ai_retries_due():
            log.info("match %d: trying the AI again after it failed", match_id)
            try:
                await self.narrator.advance(await self.service.get_match(match_id))
            except Exception:
                log.exception("match %d: trying the AI again failed", match_id)
        await self.announce_endings()
        return events

    async def announce_endings(self) -> list[int]:
        """Post the end of every finished match whose end was never posted (its process
        stopped between committing the end and posting it) through the narrator's path
        (:meth:`Narrator.finish`: card, parent line, result; then marked announced). Only
        matches that ended at least a claim lease ago, each claimed first
        (:meth:`MatchService.endings_to_announce`). Returns the ids of those posted."""
        posted = []
        for m in await self.service.endings_to_announce():
            log.info("match %d: posting its end (%s), which its process did not post", m.id,
                     m.reason)
            try:
                await self.narrator.finish(m)
            except Exception:
                log.exception("match %d: posting its end failed", m.id)
            else:
                posted.append(m.id)
        return posted

    async def on_timer(self, event: TimerEvent) -> None:
        """Post what a timer did: a reminder, the end of a match, an expired challenge."""
        if event.kind is TimerKind.REMINDER and event.match is not None:
            m = event.match
            log.info("match %d: reminder", m.id)
            await self.posts.post(event.channel_id,
                                  ui_of(m.game).reminder_text(m, event.user_ids),
                                  allowed_mentions=pings(*event.user_ids), guild_id=m.guild_id)
        elif event.kind is TimerKind.SEAT_LEFT and event.match is not None:
            log.info("match %d: seats %s left (timeout)", event.match.id, event.seats)
            for seat in event.seats:
                await self.narrator.seat_left(event.match, seat, timeout=True)
        elif (event.kind in (TimerKind.FORFEIT, TimerKind.AI_FAILED)
              and event.match is not None):
            log.info("match %d: ended by its timer (%s)", event.match.id, event.match.reason)
            await self.narrator.finish(event.match)
        elif event.kind is TimerKind.TABLE_EXPIRED and event.table is not None:
            table = event.table
            # the table's own message loses its controls; a new message only if that fails
            if table.message_id is None or not await self.posts.edit(
                    table.channel_id, table.message_id, content=table_message(table),
                    view=None, allowed_mentions=NO_PINGS, guild_id=table.guild_id):
                await self.posts.post(table.channel_id, table_message(table),
                                      guild_id=table.guild_id)
        elif event.kind is TimerKind.CHALLENGE_EXPIRED and event.challenge is not None:
            ch = event.challenge
            text = texts.challenge_closed_text(ch, ChallengeStatus.EXPIRED)
            # the challenge's own message loses its buttons; a new message only if that fails
            if ch.message_id is None or not await self.posts.edit(
                    ch.channel_id, ch.message_id, content=text, view=None,
                    allowed_mentions=NO_PINGS, guild_id=ch.guild_id):
                await self.posts.post(event.channel_id, text, guild_id=ch.guild_id)

    async def _resume_ai(self) -> None:
        """After a (re)start: let the AI take the decisions it owes."""
        for match_id in await self.service.matches_waiting_for_ai():
            try:
                await self.narrator.advance(await self.service.get_match(match_id))
            except Exception:
                log.exception("match %d: resuming the AI failed", match_id)

    async def _withdraw_unposted(self) -> None:
        """After a (re)start: withdraw the challenges and tables saved before it whose message was
        never posted (the process stopped in between), so they block nobody."""
        withdrawn = await self.service.withdraw_unposted(created_before=self._started_at)
        if withdrawn:
            log.info("withdrew %d challenges that were never posted", len(withdrawn))
        tables = await self.service.withdraw_unposted_tables(created_before=self._started_at)
        if tables:
            log.info("withdrew %d tables that were never posted", len(tables))

    async def _timer_loop(self) -> None:
        await self.client.wait_until_ready()
        try:
            await self._withdraw_unposted()
        except Exception:
            log.exception("withdrawing unposted challenges failed")
        try:
            await self._resume_ai()
        except Exception:
            log.exception("resuming AI matches failed")
        while not self.client.is_closed():
            self._wake.clear()
            delay = MAX_TIMER_SLEEP
            try:
                await self.run_once()
                due = await self.service.next_timer_at()
                if due is not None:
                    delay = min(MAX_TIMER_SLEEP,
                                max(MIN_TIMER_SLEEP, due - self.service.clock()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the timer loop failed; retrying in %.0f s", ERROR_SLEEP)
                delay = ERROR_SLEEP
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a cancellation (stop)
            # that arrives just as the wake-up event is set, and the loop went on for good
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()
