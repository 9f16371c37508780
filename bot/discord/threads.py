"""A thread per match: on Accept (or a practice command) the bot starts a public
thread from the match's start message and plays the match there; the start message stays in
the parent channel as the match's one line (:mod:`bot.discord.card` keeps it up to date:
round, whose move, a jump link to the card, then the result). Discord threads are channels,
so the one-active-match-per-channel rule holds per thread, and one channel can start any
number of matches.

Where no thread can be made the match is played in the channel, and the start message says
why, once: the server turned threads off (``/raptor-admin threads``), the bot lacks **Create
Public Threads** or **Send Messages in Threads** there (checked first, and a 403 50013 from
Discord is taken the same way), or the channel has no threads (a thread itself — a rematch
stays in its thread, silently — or a channel type without threads, Discord 400 50024).
"""

from __future__ import annotations

import logging

import discord

from engine.messages import Text

from .. import texts
from ..i18n import tr
from ..match import Match, MatchService
from .post_store import PostKind
from .posts import Posts
from .presentation import ui_of

log = logging.getLogger(__name__)

ARCHIVE_MINUTES = 10080  # a week without messages before Discord hides the thread
THREAD_PERMISSIONS = ("create_public_threads", "send_messages_in_threads")
THREAD_CHANNELS = (discord.TextChannel,)  # channels whose messages can start a thread


class Threads:
    """Starts the threads of matches."""

    def __init__(self, service: MatchService, posts: Posts) -> None:
        self.service = service
        self.posts = posts

    async def place(self, match: Match, interaction: discord.Interaction,
                    message_id: int) -> tuple[Match, Text | None]:
        """Start the thread of ``match`` from its start message ``message_id`` (in the
        match's channel, where it was started) and move the match there. ``interaction``:
        the one that started it, which tells the bot's permissions when it happened in that
        channel. Returns the match as stored now and, when it stays in the channel, the
        sentence that says why (None when it moved, or when it is in a thread already)."""
        here = interaction.channel_id == match.channel_id
        channel = (interaction.channel if here
                   else self.posts.client.get_channel(match.channel_id))
        if isinstance(channel, discord.Thread):
            return match, None  # a rematch in a match's thread: it stays there
        if not await self.service.guild_threads(match.guild_id):
            return match, texts.THREADS_OFF
        if not isinstance(channel, THREAD_CHANNELS):
            return match, texts.THREADS_NOT_HERE
        perms = (interaction.app_permissions if here
                 else channel.permissions_for(channel.guild.me))
        missing = [p for p in THREAD_PERMISSIONS if not getattr(perms, p)]
        if missing:
            log.info("channel %d: no thread for match %d, missing %s", channel.id, match.id,
                     ", ".join(missing))
            return match, texts.threads_missing_text(missing)
        start = channel.get_partial_message(message_id)
        try:
            lang = await self.posts.language(match.guild_id)
            thread = await start.create_thread(name=tr(ui_of(match.game).thread_name(match),
                                                       lang),
                                               auto_archive_duration=ARCHIVE_MINUTES)
        except discord.Forbidden as exc:
            log.warning("channel %d: Discord refused a thread for match %d (code %s)",
                        channel.id, match.id, exc.code)
            return match, texts.threads_missing_text(list(THREAD_PERMISSIONS))
        except discord.HTTPException as exc:
            log.warning("channel %d: no thread for match %d (status %s, code %s)",
                        channel.id, match.id, exc.status, exc.code)
            return match, texts.THREADS_NOT_HERE
        moved = await self.service.move_to_thread(match.id, thread.id)
        log.info("match %d: plays in thread %d of channel %d", match.id, thread.id, channel.id)
        line = await self.posts.written(ui_of(moved.game).parent_line(moved, None),
                                        match.guild_id)
        await self.posts.edit(channel.id, message_id, content=line, view=None,
                              allowed_mentions=discord.AllowedMentions.none())
        await self.posts.store.remember(match.id, PostKind.LINE, channel.id, message_id, line)
        return moved, None
