"""Narrating a match in its channel: the start, the live match card of each round, the
result.

Messages of a match (all public unless marked *ephemeral* or *DM*)::

    match start      the challenge's message (edited: "accepted ✅ — Match #7 …") or the
                     practice command's answer: "**Match #7** — a new match: @a (raptor) vs …"
    the round card   one message per round (:mod:`bot.discord.card`), edited in place at
                     every step: whose move ("@a ✅ · @b ⏳ — pick your card", "@b, your move:
                     spend your action points: 3 AP left"), the deadline, this round's story
                     so far, the score, the board image and the controls. When the round
                     ends it becomes the round's summary (no image, no controls) and the
                     next round's card starts below.
      click Pick your card → ephemeral: the hand + one button per card (R5.1)
      a pick           the card's line "@a ✅ · @b ⏳" (never the value, R11.2)
      observation      only the scientist is asked first (R5.2); then the raptor
    ping             "🔔 @b, your move in Match #7: …" — only when the turn passes to a person
                     who did not act last, at most once per person per round
    game over        the card shows the final board; a new message whose first line names the
                     winner and how, + [Rematch]; then the end is marked announced (a
                     process that stopped before posting it: the timer task posts it later,
                     :mod:`bot.match.announcements`)

Every decision can also be typed with ``/raptor act`` (same service call, same messages).

Hidden information (R11): public messages and images are made from ``engine.view(state,
None)`` and public events only; a hand, a pick or a card shown under observation goes only
to its player (ephemeral or DM). Log lines carry match ids, user ids and action kinds, never
hands, card values before the reveal, seeds or deck orders.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import discord

from engine.game import Seat
from engine.messages import Text

from .. import games
from ..match import ActResult, Match, MatchService
from . import components
from .card import Cards
from .images import Images
from .post_store import PostKind
from .posts import Post, Posts
from .presentation import ui_of
from .replies import NO_PINGS, say
from .threads import Threads

log = logging.getLogger(__name__)

BUSY_SLOTS = 8  # matches posting the consequences of a decision at the same time


class Narrator:
    """Posts what happens in matches. ``poke`` tells the timer task that deadlines changed."""

    def __init__(self, service: MatchService, posts: Posts, images: Images, cards: Cards,
                 threads: Threads, poke: Callable[[], None]) -> None:
        self.service = service
        self.posts = posts
        self.images = images
        self.cards = cards
        self.threads = threads
        self.poke = poke
        # The posting after a decision (renders, uploads, the AI) is the heavy part of a
        # handler; it runs after the acknowledgement. Letting only a few matches do it at
        # once keeps the event loop's queue short, so new interactions are acknowledged
        # quickly even when hundreds of decisions arrive together.
        self._busy = asyncio.Semaphore(BUSY_SLOTS)

    async def begin(self, match: Match, interaction: discord.Interaction, *,
                    started_by: int | None = None, start_text: str | None = None,
                    start_message_id: int | None = None) -> None:
        """Announce a new match — in reply to ``interaction`` (typed or clicked in the
        match's channel), or on the message ``start_message_id`` in the match's channel (the
        accepted challenge's own) that says ``start_text`` — start its thread from that
        message (:mod:`bot.discord.threads`; else the message says once why the match is
        played in the channel), then its first card. ``started_by``: the user who started
        it (not pinged by the first card)."""
        if started_by is not None:
            self.cards.started_by(match.id, started_by)
        if start_message_id is None:
            ui = ui_of(match.game)
            start_text = Text("{line}\n{help}", line=ui.start_line(match),
                              help=ui.start_help(match))
            msg = await say(interaction, start_text, ephemeral=False)
            if msg is None:
                msg = await interaction.original_response()
            start_message_id = msg.id
        match, why = await self.threads.place(match, interaction, start_message_id)
        if why:
            await self.posts.edit(match.channel_id, start_message_id,
                                  content=Text("{text}\n{why}", text=start_text, why=why),
                                  allowed_mentions=NO_PINGS, guild_id=match.guild_id)
        await self.advance(match)

    async def advance(self, match: Match) -> Match:
        """Let the AI play if it must, then bring the card up to date; returns the latest
        match."""
        match = await self.run_ai(match)
        match = await self.cards.refresh(match.id)
        self.poke()
        return match

    async def after_human(self, results: Sequence[ActResult]) -> Match:
        """Show what a human's action did, then continue (AI, the card). At most
        :data:`BUSY_SLOTS` matches do this at once (see ``Narrator._busy``)."""
        async with self._busy:
            match = await self.publish(results)
            return await self.advance(match)

    async def run_ai(self, match: Match) -> Match:
        """If an AI seat must act, let it (``service.play_ai``) and show what it did."""
        if not match.active or not any(match.ai_of(seat) for seat in match.to_act()):
            return match
        typing = None
        try:  # "RaptorBot is typing…" while the AI thinks
            typing = self.posts.messageable(match.channel_id).typing()
            await typing.__aenter__()
        except discord.HTTPException:
            typing = None
        try:
            results = await self.service.play_ai(match.id)
        except Exception:
            log.exception("match %d: the AI failed to act", match.id)
            return match
        finally:
            if typing is not None:
                await typing.__aexit__(None, None, None)
        if results:
            now = await self.service.get_match(match.id)
            if not now.active and not games.plugin(now.game).game.is_over(now.state):
                # ended outside the game while the AI thought (a resignation, a moderator):
                # its end is posted already, and the final board shows these moves
                log.info("match %d ended while the AI acted: %d AI actions not posted",
                         match.id, len(results))
                return now
            match = await self.publish(results)
        return match

    async def publish(self, results: Sequence[ActResult]) -> Match:
        """Show the public consequences of ``results`` (in order) on the card (its story
        is read from the stored match), retire an open draw offer, and post the result when
        the game ended. Returns the latest match."""
        last: Match | None = None
        over = False
        for r in results:
            last = r.match
            ui = ui_of(last.game)
            log.info("match %d: %s", last.id, ui.log_step(last, r.seat, r.action))
            line = ui.private_done(last, r.seat, r.action)
            if line is not None:
                await self.posts.hands.decided(last, r.seat, line)
            over = over or r.game_over
        if last is None:
            raise ValueError("publish needs at least one result")
        # any move ends an open draw offer (the service has cleared it)
        await self.posts.retire_posts(last.id, PostKind.DRAW,
                                      Text("The offer lapsed: a move was made.") if last.active
                                      else Text("The match is over."), last.guild_id)
        if over:
            await self.posts.hands.match_over(last)
            final = await self.cards.refresh(last.id)
            lang = await self.posts.language(final.guild_id)
            await self.posts.send(self._result_post(final, lang, last_actor=results[-1].seat))
            await self.service.end_announced(final.id)
            return final
        return last

    def _result_post(self, m: Match, lang: str, *, last_actor: Seat | None = None,
                     extra: str | Text | None = None) -> Post:
        """The result: its first line names the winner and how; pings the players but the
        one who just acted."""
        result = ui_of(m.game).result_text(m)
        content = Text("{result}\n{extra}", result=result, extra=extra) if extra else result
        humans = tuple(p.user_id for p in m.players if p.human and p.seat != last_actor)
        return Post(m, content, view=components.rematch_view(m, lang), ping=humans)

    async def finish(self, match: Match, *, extra: str | Text | None = None,
                     by: Seat | None = None) -> None:
        """Show the end of a match ended outside the game (resignation, draw, timeout, a
        moderator), or of any finished match whose end was never posted (its process
        stopped first: :mod:`bot.match.announcements`): the draw offer, the hands' and the
        card's controls retired, the final card (and the parent channel's line), the result;
        then the end is marked announced. ``extra``: a line added to the public result;
        ``by``: the seat whose click ended it (not pinged)."""
        await self.posts.retire_posts(match.id, PostKind.DRAW, Text("The match is over."),
                                      match.guild_id)
        await self.posts.hands.match_over(match)
        final = await self.cards.refresh(match.id)
        lang = await self.posts.language(final.guild_id)
        await self.posts.send(self._result_post(final, lang, extra=extra, last_actor=by))
        await self.service.end_announced(final.id)
        self.poke()

    async def seat_left(self, match: Match, seat: Seat, *, timeout: bool = False) -> Match:
        """``seat`` left ``match`` (resigned, or its time ran out) and its game goes on
        without it: say so in the match's channel (its DM views retired), then go on (the
        AI, the card). Returns the latest match."""
        ui = ui_of(match.game)
        line = (Text("⏰ {player} ran out of time and leaves {title}; the game goes on "
                     "without them.", player=ui.player(match, seat), title=ui.title(match))
                if timeout else
                Text("🏳️ {player} resigned and leaves {title}; the game goes on without "
                     "them.", player=ui.player(match, seat), title=ui.title(match)))
        await self.posts.hands.retire(match, match.user_of(seat), Text("You left the match."))
        await self.posts.post(match.channel_id, line, guild_id=match.guild_id)
        return await self.advance(match)

    async def undo(self, interaction: discord.Interaction, match: Match, seat: Seat, *,
                   expected_version: int | None = None) -> Match:
        """Take back the player's last decision (service.undo: Raptor's AP action) and show
        the card again."""
        await self.service.undo(match.id, interaction.user.id,
                                expected_version=expected_version)
        log.info("match %d: undo by seat %d", match.id, seat)
        after = await self.cards.refresh(match.id)
        self.poke()
        return after
