"""Tables: the lobby where a match of any game gathers 2 to N players in a channel.

A host opens a table for a game (its seats and options) and sits at it; others join and
leave; the host fills empty seats with the AI at a level (or takes an AI seat away) and
starts the match once at least the game's fewest players are seated: the players are dealt
to seats in a random order (the order of play, where the game has one), and the match
begins in the table's channel. The host can cancel the table; a table nobody starts expires
after the table timeout (:meth:`bot.match.timers.TimerService.process_timers`). A table is
saved first and posted afterwards, like a challenge: one whose message was never posted is
withdrawn at start-up.

An open table counts against its host's cap on open invitations (challenges and tables
together); one that starts with one person and AI seats is a practice match, under the cap on
practices per member.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping

from engine.messages import Text

from ..storage import IntegrityViolation, Transaction
from .context import MatchContext
from .models import (
    ChallengeExpiredError,
    ChannelBusyError,
    InvalidRequestError,
    Match,
    NotAPlayerError,
    NotFoundError,
    Player,
    StaleError,
)
from .starting import (
    BUSY,
    LOCK_CHALLENGES,
    LOCK_PRACTICES,
    MatchStarter,
    check_level,
    check_options,
    check_seats,
    game_of,
    practices_full_text,
)
from .table_store import Table, TableStatus

log = logging.getLogger(__name__)

_random = secrets.SystemRandom()

#: A closed table's status in a sentence ("This table was already cancelled.").
STATUS_WORDS = {TableStatus.STARTED: Text("started"), TableStatus.CANCELLED: Text("cancelled"),
                TableStatus.EXPIRED: Text("expired")}


def tables_full_text(n: int) -> Text:
    """The refusal of a new table to a member who has ``n`` (the cap, or more) invitations
    open already (challenges and tables)."""
    return Text.plural("You have {n} open challenge or table, as many as a member may have at "
                       "once: cancel it or wait for it to start.",
                       "You have {n} open challenges and tables, as many as a member may have "
                       "at once: cancel one or wait for one to start.", n)


class TableService:
    """Open, join, leave, fill with the AI, start, cancel; the table's match begins through
    ``starter``."""

    def __init__(self, ctx: MatchContext, starter: MatchStarter) -> None:
        self.ctx = ctx
        self.starter = starter

    async def open_table(self, guild_id: int, channel_id: int, host_id: int, *, game: str,
                         seats: int, options: Mapping[str, str] | None = None) -> Table:
        """A new open table of ``game`` for ``seats`` players in the channel, its host
        seated.

        Raises:
            InvalidRequestError: an unknown game or option, a number of seats the game is
                not played by, the host has an open table in this channel already, or as
                many open challenges and tables as a member may have.
            ChannelBusyError: the channel has an active match.
        """
        plugin = game_of(game)
        check_seats(plugin, seats)
        opts = check_options(plugin, options or {})
        if await self.ctx.matches.active_in_channel(channel_id) is not None:
            raise ChannelBusyError(BUSY)
        now = self.ctx.clock()
        store = self.ctx.tables
        try:
            async with self.ctx.db.transaction() as tx:
                if await store.open_in(tx, channel_id, host_id) is not None:
                    raise InvalidRequestError("You already have an open table in this "
                                              "channel: start or cancel it first.")
                await tx.lock_member(LOCK_CHALLENGES, host_id)
                n = (await self.ctx.challenges.open_of(tx, host_id, now)
                     + await store.open_of(tx, host_id, now))
                if n >= self.ctx.max_challenges:
                    raise InvalidRequestError(tables_full_text(n))
                table_id = await store.insert(
                    tx, game=plugin.name, guild_id=guild_id, channel_id=channel_id,
                    host_id=host_id, seats=seats, options=opts, now=now,
                    expires_at=now + self.ctx.table_timeout)
        except IntegrityViolation as exc:
            # PostgreSQL: the host's other table in this channel was committed after our look
            if not exc.breaks_unique("game_tables_one_open",
                                     "game_tables.channel_id, game_tables.host_id"):
                raise
            raise InvalidRequestError("You already have an open table in this channel: start "
                                      "or cancel it first.") from None
        log.info("table %d (%s) opened in channel %d", table_id, plugin.name, channel_id)
        return await self.get_table(table_id)

    async def get_table(self, table_id: int) -> Table:
        """The table with that id.

        Raises:
            NotFoundError: no such table.
        """
        table = await self.ctx.tables.get(table_id)
        if table is None:
            raise NotFoundError("That table no longer exists: open a new one.")
        return table

    async def _open(self, tx: Transaction, table_id: int) -> Table:
        """The table, locked in ``tx``, if it is still open and within its time.

        Raises:
            NotFoundError, ChallengeExpiredError (its time is up), StaleError (it started,
            or was cancelled).
        """
        table = await self.ctx.tables.locked(tx, table_id)
        if table is None:
            raise NotFoundError("That table no longer exists: open a new one.")
        # (an open one past its time is closed by the timers, which also say so)
        if table.status == TableStatus.EXPIRED or (table.open and
                                                   table.expires_at <= self.ctx.clock()):
            raise ChallengeExpiredError("This table has expired: open a new one.")
        if not table.open:
            raise StaleError(Text("This table was already {status}.",
                                  status=STATUS_WORDS.get(table.status, table.status)))
        return table

    async def join(self, table_id: int, user_id: int) -> Table:
        """``user_id`` takes a seat at the open table.

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            InvalidRequestError: already seated, or every seat is taken.
        """
        async with self.ctx.db.transaction() as tx:
            table = await self._open(tx, table_id)
            if table.seated(user_id):
                raise InvalidRequestError("You are already at this table.")
            if table.full:
                raise InvalidRequestError("Every seat of this table is taken.")
            await self.ctx.tables.add_player(tx, table, user_id, None, self.ctx.clock())
        return await self.get_table(table_id)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """``user_id`` leaves the open table; the host leaving cancels it.

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            NotAPlayerError: not at the table.
        """
        async with self.ctx.db.transaction() as tx:
            table = await self._open(tx, table_id)
            if user_id == table.host_id:
                await self.ctx.tables.close(tx, table_id, TableStatus.CANCELLED)
            else:
                mine = next((p for p in table.players if p.user_id == user_id and
                             p.ai is None), None)
                if mine is None:
                    raise NotAPlayerError("You are not at this table.")
                await self.ctx.tables.remove_player(tx, table_id, mine.position)
        return await self.get_table(table_id)

    async def add_ai(self, table_id: int, user_id: int, level: str) -> Table:
        """The host puts the AI at ``level`` in an empty seat.

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            NotAPlayerError: not the host.
            InvalidRequestError: an unknown level, or every seat is taken.
        """
        async with self.ctx.db.transaction() as tx:
            table = await self._open(tx, table_id)
            if user_id != table.host_id:
                raise NotAPlayerError("Only the host of this table can seat the AI.")
            check_level(game_of(table.game), level)
            if table.full:
                raise InvalidRequestError("Every seat of this table is taken.")
            await self.ctx.tables.add_player(tx, table, None, level, self.ctx.clock())
        return await self.get_table(table_id)

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        """The host takes the AI seated last away from the table.

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            NotAPlayerError: not the host.
            InvalidRequestError: no AI seated.
        """
        async with self.ctx.db.transaction() as tx:
            table = await self._open(tx, table_id)
            if user_id != table.host_id:
                raise NotAPlayerError("Only the host of this table can take the AI away.")
            ai = [p for p in table.players if p.ai is not None]
            if not ai:
                raise InvalidRequestError("No AI is seated at this table.")
            await self.ctx.tables.remove_player(tx, table_id, ai[-1].position)
        return await self.get_table(table_id)

    async def cancel(self, table_id: int, user_id: int) -> Table:
        """The host cancels the open table.

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            NotAPlayerError: not the host.
        """
        async with self.ctx.db.transaction() as tx:
            table = await self._open(tx, table_id)
            if user_id != table.host_id:
                raise NotAPlayerError("Only the host of this table can cancel it.")
            await self.ctx.tables.close(tx, table_id, TableStatus.CANCELLED)
        return await self.get_table(table_id)

    async def start(self, table_id: int, user_id: int, *, ai_user_id: int) -> Match:
        """The host starts the table's match: everyone at it is dealt a seat in a random
        order (the AI seats played by ``ai_user_id``, the bot's user id).

        Raises:
            NotFoundError, ChallengeExpiredError, StaleError.
            NotAPlayerError: not the host.
            InvalidRequestError: fewer players than the game needs, or (one person against
                the AI) as many practices as a member may play at once already.
            ChannelBusyError: the channel has an active match.
        """
        table = await self.get_table(table_id)
        if user_id != table.host_id:
            raise NotAPlayerError("Only the host of this table can start it.")
        plugin = game_of(table.game)
        if len(table.players) < plugin.game.min_seats:
            raise InvalidRequestError(Text(
                "{game} needs {n} players or more: wait for more to join, or seat the AI.",
                game=plugin.title, n=plugin.game.min_seats))
        order = list(table.players)
        _random.shuffle(order)
        players = [Player(seat, p.user_id if p.ai is None else ai_user_id, p.ai)
                   for seat, p in enumerate(order)]
        humans = {p.user_id for p in players if p.ai is None}
        practice = len(humans) == 1 and len(players) > 1

        async def before_insert(tx: Transaction) -> None:
            now_open = await self._open(tx, table_id)
            if now_open.version != table.version:
                raise StaleError("The table changed meanwhile: look at it again and start.")
            if practice:
                await tx.lock_member(LOCK_PRACTICES, user_id)
                going = await self.ctx.matches.practices_of(tx, user_id)
                if going >= self.ctx.max_practices:
                    raise InvalidRequestError(practices_full_text(going))

        async def after_insert(tx: Transaction, match_id: int) -> None:
            await self.ctx.tables.close(tx, table_id, TableStatus.STARTED, match_id=match_id)

        return await self.starter.create(table.game, table.guild_id, table.channel_id,
                                         players, table.options, before_insert=before_insert,
                                         after_insert=after_insert)

    async def set_table_message(self, table_id: int, message_id: int) -> None:
        """Record the Discord message that shows the table's buttons.

        Raises:
            NotFoundError: no such table.
        """
        if not await self.ctx.tables.set_message(table_id, message_id):
            raise NotFoundError(Text("There is no table #{id}.", id=table_id))

    async def expire(self, now: float) -> list[Table]:
        """Close every open table whose time is up at ``now`` as expired; returns them (each
        closed once, even by two processes at once: the update is conditional)."""
        out = []
        for table_id in await self.ctx.tables.ids_expired(now):
            async with self.ctx.db.transaction() as tx:
                closed = await self.ctx.tables.close(tx, table_id, TableStatus.EXPIRED,
                                                     expired_at=now)
            if closed:
                log.info("table %d expired", table_id)
                out.append(await self.get_table(table_id))
        return out

    async def withdraw_unposted(self, *, created_before: float | None = None) -> list[Table]:
        """Cancel every open table created before ``created_before`` (default: now) whose
        message was never recorded, in this process's shards' servers. Returns them as they
        were."""
        before = self.ctx.clock() if created_before is None else created_before
        out = []
        for table in await self.ctx.tables.unposted(before):
            if not self.ctx.shards.owns(table.guild_id):
                continue
            async with self.ctx.db.transaction() as tx:
                closed = await self.ctx.tables.close(tx, table.id, TableStatus.CANCELLED)
            if closed:
                log.info("table %d withdrawn: its message was never posted", table.id)
                out.append(table)
        return out


__all__ = ["STATUS_WORDS", "Table", "TableService", "TableStatus", "tables_full_text"]
