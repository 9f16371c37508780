"""Challenges: create, accept, decline, cancel, rematch, and the record of the message that
shows one.

A challenge is saved first and posted afterwards (by the Discord layer), so a process that
stops between the two leaves a pending challenge nobody can see. Such an unposted challenge
is withdrawn (cancelled) at start-up (:meth:`ChallengeService.withdraw_unposted`, for those
saved before the start) and when its challenger sends a new one in that channel more than
:data:`UNPOSTED_GRACE` seconds after it (sooner, its message may still be on its way).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from engine.game import Seat
from engine.messages import Text

from ..storage import IntegrityViolation, Transaction
from .context import MatchContext
from .models import (
    Challenge,
    ChallengeExpiredError,
    ChallengeStatus,
    ChannelBusyError,
    InvalidRequestError,
    Match,
    NotAPlayerError,
    NotFoundError,
    Player,
    StaleError,
)
from .starting import LOCK_CHALLENGES, MatchStarter, check_options, draw_seat, game_of

#: A closed challenge's status in a sentence ("This challenge was already declined.").
STATUS_WORDS = {ChallengeStatus.ACCEPTED: Text("accepted"),
                ChallengeStatus.DECLINED: Text("declined"),
                ChallengeStatus.CANCELLED: Text("cancelled"),
                ChallengeStatus.EXPIRED: Text("expired")}

log = logging.getLogger(__name__)

UNPOSTED_GRACE = 60.0  # seconds a saved challenge may take to be posted before it is withdrawn


def challenges_full_text(sent: int) -> Text:
    """The refusal of a new challenge to a member who has ``sent`` (the cap, or more) open
    already."""
    return Text.plural("You have {n} open challenge, as many as a member may have at once: "
                       "cancel it or wait for an answer.",
                       "You have {n} open challenges, as many as a member may have at once: "
                       "cancel one or wait for answers.", sent)


def rematch_seat(m: Match, user_id: int) -> Seat:
    """The seat ``user_id`` played in the finished match ``m``: the rule of a rematch, for
    a challenge and for a practice game alike.

    Raises:
        NotAPlayerError: ``user_id`` did not play ``m``.
        InvalidRequestError: ``m`` is still being played.
    """
    mine = m.seat_of(user_id)
    if mine is None:
        raise NotAPlayerError("Only the players of this match can ask for a rematch.")
    if m.active:
        raise InvalidRequestError("This match is still being played: finish it (or "
                                  "resign) before asking for a rematch.")
    return mine


class ChallengeService:
    """Challenges between two users of a channel; an accepted one starts a match through
    ``starter``."""

    def __init__(self, ctx: MatchContext, starter: MatchStarter) -> None:
        self.ctx = ctx
        self.starter = starter

    async def create_challenge(self, guild_id: int, channel_id: int, challenger_id: int,
                               challenged_id: int, *, game: str, seat: Seat | None = None,
                               options: Mapping[str, str] | None = None,
                               rematch_of: int | None = None) -> Challenge:
        """A pending challenge from ``challenger_id`` to ``challenged_id`` in a channel, to a
        two-player match of ``game``.

        Args:
            seat: the seat the challenger wants (None: drawn when the challenge is
                accepted; Raptor: 0 the raptor, 1 the scientist).
            options: the new match's options (the game's :class:`engine.game.OptionSpec`).
            rematch_of: the finished match this is a rematch of (see :meth:`rematch`).

        Raises:
            InvalidRequestError: a self-challenge, a game that is not played by two, a bad
                option or seat, the challenger already has
                a pending challenge in this channel, or has as many open challenges (in any
                channel, not past their expiry) as a member may have (``max_challenges`` of
                the context, counted in the transaction that stores the new one).
            ChannelBusyError: the channel has an active match.
        """
        if challenger_id == challenged_id:
            raise InvalidRequestError("You can't challenge yourself: challenge another player, "
                                      "or start a practice game against the AI.")
        plugin = game_of(game)
        if not plugin.game.min_seats <= 2 <= plugin.game.max_seats:
            raise InvalidRequestError(Text("{game} is not played by two: open a table for it "
                                           "instead.", game=plugin.title))
        opts = {name: value for name, value in check_options(plugin, options or {}).items()
                if name in (options or {})}
        if seat is not None and seat not in (0, 1):
            raise InvalidRequestError(Text("There is no seat {n} in a match of {seats} "
                                           "players.", n=seat + 1, seats=2))
        if await self.ctx.matches.active_in_channel(channel_id) is not None:
            raise ChannelBusyError("This channel already has a match in progress: wait for it "
                                   "to finish, or challenge in another channel.")
        now = self.ctx.clock()
        store = self.ctx.challenges
        for attempt in (1, 2):
            try:
                async with self.ctx.db.transaction() as tx:
                    # one pending challenge per challenger and channel (challenges_one_pending)
                    old = await store.pending_of(tx, channel_id, challenger_id)
                    if old is not None:
                        await self._clear_way(tx, old, now)
                    await tx.lock_member(LOCK_CHALLENGES, challenger_id)
                    sent = await store.open_of(tx, challenger_id, now)
                    if sent >= self.ctx.max_challenges:
                        raise InvalidRequestError(challenges_full_text(sent))
                    cid = await store.insert(
                        tx, game=plugin.name, guild_id=guild_id, channel_id=channel_id,
                        challenger_id=challenger_id, challenged_id=challenged_id, seat=seat,
                        options=opts, now=now, expires_at=now + self.ctx.challenge_timeout,
                        rematch_of=rematch_of)
                break
            except IntegrityViolation as exc:
                # PostgreSQL: the same challenger's other challenge in this channel was
                # committed after our look (a double click): look again, once
                if attempt == 2 or not exc.breaks_unique(
                        "challenges_one_pending",
                        "challenges.channel_id, challenges.challenger_id"):
                    raise
        log.info("challenge %d created in channel %d", cid, channel_id)
        return await self.ctx.challenge(cid)

    async def _clear_way(self, tx: Transaction, old: Challenge, now: float) -> None:
        """Close the challenger's pending challenge ``old`` if it no longer counts (past its
        expiry, not yet processed; or never posted), else refuse the new one."""
        store = self.ctx.challenges
        if old.expires_at <= now:
            await store.close(tx, old.id, ChallengeStatus.EXPIRED)
        elif old.message_id is None and old.created_at < now - UNPOSTED_GRACE:
            await store.close(tx, old.id, ChallengeStatus.CANCELLED)
            log.info("challenge %d withdrawn: its message was never posted", old.id)
        else:
            raise InvalidRequestError(
                "You already have a pending challenge in this channel: cancel it first, or "
                "wait for an answer.")

    async def withdraw_unposted(self, *, created_before: float | None = None
                                ) -> list[Challenge]:
        """Cancel every pending challenge created before ``created_before`` (default: now)
        whose message was never recorded (at start-up: the process stopped between saving
        and posting it), in this process's shards' servers (another process may be posting
        its own). Returns them as they were."""
        before = self.ctx.clock() if created_before is None else created_before
        out = []
        for ch in await self.ctx.challenges.unposted(before):
            if not self.ctx.shards.owns(ch.guild_id):
                continue
            if await self.ctx.challenges.set_status(ch.id, ChallengeStatus.CANCELLED):
                log.info("challenge %d withdrawn: its message was never posted", ch.id)
                out.append(ch)
        return out

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """The challenge with that id.

        Raises:
            NotFoundError: no such challenge.
        """
        return await self.ctx.challenge(challenge_id)

    async def _open_challenge(self, challenge_id: int) -> Challenge:
        """The challenge if it can still be answered; expires it if its time is up."""
        ch = await self.ctx.challenge(challenge_id)
        if ch.status == ChallengeStatus.PENDING and ch.expires_at <= self.ctx.clock():
            await self.ctx.challenges.set_status(challenge_id, ChallengeStatus.EXPIRED)
            ch = await self.ctx.challenge(challenge_id)
        if ch.status == ChallengeStatus.EXPIRED:
            raise ChallengeExpiredError("This challenge has expired: send a new one.")
        if ch.status != ChallengeStatus.PENDING:
            raise StaleError(Text("This challenge was already {status}.",
                                  status=STATUS_WORDS.get(ch.status, ch.status)))
        return ch

    async def accept_challenge(self, challenge_id: int, user_id: int) -> Match:
        """The challenged user accepts: a new active match in the challenge's channel.

        A seat the challenger left to chance is drawn here with a system RNG; the match
        seed is ``secrets.randbits(63)``.

        Raises:
            NotFoundError, NotAPlayerError (not the challenged user), ChallengeExpiredError,
            StaleError (already answered or cancelled), ChannelBusyError (the channel has an
            active match; the challenge stays pending).
        """
        ch = await self._open_challenge(challenge_id)
        if user_id != ch.challenged_id:
            raise NotAPlayerError("Only the challenged player can accept this challenge.")
        challenger_seat = draw_seat(ch.seat, 2)
        users = {challenger_seat: ch.challenger_id, 1 - challenger_seat: ch.challenged_id}
        players = [Player(seat, users[seat]) for seat in (0, 1)]

        async def after_insert(tx: Transaction, match_id: int) -> None:
            n = await self.ctx.challenges.close(tx, challenge_id, ChallengeStatus.ACCEPTED,
                                                match_id=match_id)
            if n == 0:
                raise StaleError("This challenge was already answered.")

        return await self.starter.create(ch.game, ch.guild_id, ch.channel_id, players,
                                         ch.options, rematch_of=ch.rematch_of,
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
        return await self._close_challenge(challenge_id, ChallengeStatus.DECLINED)

    async def cancel_challenge(self, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge.

        Raises:
            NotFoundError, NotAPlayerError (not the challenger), ChallengeExpiredError,
            StaleError (already answered).
        """
        ch = await self._open_challenge(challenge_id)
        if user_id != ch.challenger_id:
            raise NotAPlayerError("Only the player who sent this challenge can cancel it.")
        return await self._close_challenge(challenge_id, ChallengeStatus.CANCELLED)

    async def _close_challenge(self, challenge_id: int, status: ChallengeStatus) -> Challenge:
        if not await self.ctx.challenges.set_status(challenge_id, status):
            raise StaleError("This challenge was already answered.")
        return await self.ctx.challenge(challenge_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Record the Discord message that shows the challenge's buttons, so that its expiry
        can edit it (:attr:`Challenge.message_id`).

        Raises:
            NotFoundError: no such challenge.
        """
        if not await self.ctx.challenges.set_message(challenge_id, message_id):
            raise NotFoundError(Text("There is no challenge #{id}.", id=challenge_id))

    async def pending_challenges(self, channel_id: int) -> list[Challenge]:
        """Pending challenges in a channel, oldest first."""
        return await self.ctx.challenges.pending_in_channel(channel_id)

    async def rematch(self, match_id: int, user_id: int, *, seat: Seat | None = None
                      ) -> Challenge:
        """A new pending challenge from ``user_id`` to the opponent of a finished two-player
        match, in the same channel with the same options; seats swapped unless ``seat`` is
        given.

        Raises:
            NotFoundError, NotAPlayerError.
            InvalidRequestError: the match is still active, or it was against the AI (a
                practice rematch is :meth:`MatchService.rematch_practice`); plus those of
                :meth:`create_challenge`.
        """
        m, _ = await self.ctx.match(match_id)
        mine = rematch_seat(m, user_id)
        if m.practice:
            raise InvalidRequestError("For another game against the AI, start a new practice "
                                      "game.")
        if m.seats != 2:
            raise InvalidRequestError("A rematch is for two players: open a new table for "
                                      "more.")
        wish = seat if seat is not None else 1 - mine
        return await self.create_challenge(
            m.guild_id, m.channel_id, user_id, m.user_of(1 - mine), game=m.game, seat=wish,
            options=m.options, rematch_of=m.id)

    async def rematch_practice(self, match_id: int, user_id: int, *, ai_user_id: int
                               ) -> Match:
        """A new practice game after the finished practice match ``match_id``: same game,
        channel, options, seats and AI level, the user at the next seat (Raptor: sides
        swapped).

        Raises:
            NotFoundError, NotAPlayerError.
            InvalidRequestError: the match is still active, or was not against the AI; plus
                those of :meth:`MatchStarter.start_practice`.
        """
        m, _ = await self.ctx.match(match_id)
        mine = rematch_seat(m, user_id)
        if not m.practice:
            raise InvalidRequestError("That match was not against the AI: ask for a rematch "
                                      "instead.")
        level = next((p.ai for p in m.players if p.ai is not None), None)
        return await self.starter.start_practice(
            m.guild_id, m.channel_id, user_id, game=m.game, seat=(mine + 1) % m.seats,
            level=level or game_of(m.game).ai_levels[0], options=m.options,
            seats=m.seats, ai_user_id=ai_user_id)

