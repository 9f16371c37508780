"""The bot's public messages in a match's channel and their bookkeeping: sending (a refusal
is logged as a warning for the server admin, never silent), editing, and retiring the
messages that carry controls — recorded in :mod:`bot.discord.post_store`, so that a
restarted bot still removes the buttons of a message once they are used up.

Public messages are in the server's language (:func:`bot.discord.languages.public_language`):
a :class:`~engine.messages.Text` content is written in it when sent (give ``guild_id``), and
what is stored to edit later (a turn message's head, a round post) is stored written.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from engine.game import Seat
from engine.messages import Text

from .. import texts
from ..i18n import tr
from ..match import Challenge, Match, MatchService
from . import components, languages
from .hands import Hands
from .images import Images
from .post_store import PostKind, PostStore
from .presentation import ui_of
from .replies import BOARD_FILE, NO_PINGS, pings, present, say

log = logging.getLogger(__name__)

#: Discord's error code for a change to a message in an archived thread ("Thread is archived").
THREAD_ARCHIVED = 50083


@dataclass
class Post:
    """One public message to send: text, maybe a board image of ``match``, maybe controls;
    ``remember_round``: record it as a round post; ``dm_seats``: then DM these seats their
    private view (if they asked for it)."""

    match: Match
    content: str | Text
    board: bool = False
    view: discord.ui.View | None = None
    ping: tuple[int, ...] = ()
    remember_round: bool = False
    dm_seats: tuple[Seat, ...] = ()


class Posts:
    """Sends and retires the public messages of matches."""

    def __init__(self, client: discord.Client, service: MatchService, store: PostStore,
                 images: Images, hands: Hands) -> None:
        self.client = client
        self.service = service
        self.store = store
        self.images = images
        self.hands = hands

    async def language(self, guild_id: int | None) -> str:
        """The language of the public messages in server ``guild_id``."""
        return await languages.public_language(self.service, guild_id)

    async def written(self, content: Any, guild_id: int | None) -> Any:
        """``content`` written in the server's language when it is a Text."""
        if isinstance(content, Text):
            return tr(content, await self.language(guild_id))
        return content

    def messageable(self, channel_id: int) -> discord.abc.Messageable:
        """The channel to send to (a partial one when it is not cached)."""
        channel = self.client.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.client.get_partial_messageable(channel_id)

    async def post(self, channel_id: int, content: str | Text, *, png: bytes | None = None,
                   filename: str = BOARD_FILE, view: discord.ui.View | None = None,
                   allowed_mentions: discord.AllowedMentions | None = None,
                   guild_id: int | None = None) -> discord.Message | None:
        """Send a public message in a channel (a Text in the language of server
        ``guild_id``); a refusal is logged as a warning for the admin (missing permission)
        and None returned."""
        content = await self.written(content, guild_id)
        file = discord.File(io.BytesIO(png), filename=filename) if png is not None else None
        kw = present(content=content, file=file, view=view,
                     allowed_mentions=allowed_mentions or NO_PINGS)
        try:
            return await self.messageable(channel_id).send(**kw)
        except discord.Forbidden as exc:
            log.warning("cannot post in channel %d (Discord code %s): a server admin must give "
                        "the bot Send Messages, Attach Files and Embed Links there",
                        channel_id, exc.code)
        except discord.NotFound:
            log.warning("cannot post in channel %d: it no longer exists", channel_id)
        except discord.HTTPException as exc:  # e.g. a thread archived and locked (50083)
            log.warning("cannot post in channel %d (status %s, code %s)", channel_id,
                        exc.status, exc.code)
        return None

    async def edit(self, channel_id: int, message_id: int, *, guild_id: int | None = None,
                   **kw: Any) -> bool:
        """Edit a message of the bot (a Text ``content`` in the language of server
        ``guild_id``); a refusal (deleted message, missing permission) is logged as a warning
        and False returned. In a thread Discord archived (a long turn without activity:
        400 :data:`THREAD_ARCHIVED`), the thread is unarchived (:meth:`unarchive`) and the
        edit made again, so the match card stays the one message edited in place."""
        if "content" in kw:
            kw["content"] = await self.written(kw["content"], guild_id)
        files = [(f.fp.read(), f) for f in kw.get("attachments") or []
                 if isinstance(f, discord.File)]  # read once: an edit closes its files
        message = self.messageable(channel_id).get_partial_message(message_id)  # type: ignore
        for attempt in (1, 2):
            if files:
                kw["attachments"] = [discord.File(io.BytesIO(data), filename=f.filename,
                                                  spoiler=f.spoiler, description=f.description)
                                     for data, f in files]
            try:
                await message.edit(**kw)
                return True
            except discord.HTTPException as exc:
                if (attempt == 1 and exc.code == THREAD_ARCHIVED
                        and await self.unarchive(channel_id)):
                    continue
                log.warning("could not edit message %d in channel %d (status %s, code %s)",
                            message_id, channel_id, exc.status, exc.code)
                return False
        return False

    async def unarchive(self, thread_id: int) -> bool:
        """Unarchive a thread Discord archived (Send Messages in Threads is enough when it is
        not locked); False, logged for the server's moderators, when it cannot be (locked)."""
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.HTTPException as exc:
            log.warning("thread %d is archived and the bot cannot unarchive it (status %s, "
                        "code %s): a moderator may have locked it", thread_id, exc.status,
                        exc.code)
            return False
        return True

    async def send(self, post: Post) -> None:
        """Send ``post`` (with the board image of its match if asked), record it as a round
        post if asked, then DM its ``dm_seats`` their private view."""
        m = post.match
        lang = await self.language(m.guild_id)
        png = await self.images.board(m, lang) if post.board else None
        content = tr(post.content, lang)[:2000]  # Discord: characters of a message
        msg = await self.post(m.channel_id, content, png=png, view=post.view,
                              allowed_mentions=pings(*post.ping) if post.ping else None)
        if msg is not None and post.remember_round:
            await self.store.remember(m.id, PostKind.ROUND, m.channel_id, msg.id, content)
        for seat in post.dm_seats:
            await self.hands.dm_hand_if_wanted(m, seat)

    async def retire_turn_post(self, channel_id: int, message_id: int, head: str,
                               line: str | None) -> None:
        """Edit one turn message to ``✔ head — line`` without controls or image."""
        content = f"✔ {head} — {line}" if line else f"✔ {head}"
        await self.edit(channel_id, message_id, content=content, view=None, attachments=[],
                        allowed_mentions=NO_PINGS)

    async def retire_posts(self, match_id: int, kind: PostKind, note: str | Text,
                           guild_id: int | None = None) -> None:
        """Remove the buttons of the match's ``kind`` posts as recorded in storage (round:
        "Pick your card" on the round message and, under observation, on the raptor's
        reminder; draw: an open draw offer's answers), adding ``note`` below."""
        note = await self.written(note, guild_id)
        for post in await self.store.take(match_id, kind):
            await self.edit(post.channel_id, post.message_id, view=None,
                            allowed_mentions=NO_PINGS, content=f"{post.text}\n✔ {note}")

    async def post_draw_offer(self, match: Match, seat: Seat) -> None:
        """Post ``seat``'s draw offer in the two-player ``match`` with the answer buttons,
        pinging the opponent, and record it so that it is retired when the offer lapses."""
        opponent = match.user_of(1 - seat)
        lang = await self.language(match.guild_id)
        ui = ui_of(match.game)
        content = tr(Text("🤝 {player} offers a draw in {title}. {opponent}, do you accept? "
                          "(The offer lapses with the next move.)",
                          player=ui.player(match, seat), title=ui.title(match),
                          opponent=texts.mention(opponent)), lang)
        msg = await self.post(match.channel_id, content,
                              view=components.draw_view(match, lang),
                              allowed_mentions=pings(opponent))
        if msg is not None:
            await self.store.remember(match.id, PostKind.DRAW, match.channel_id, msg.id,
                                      content)

    async def forget_clicked(self, interaction: discord.Interaction) -> None:
        """The clicked post's answer closed it (a draw offer accepted or declined): this
        handler edits it, so it is no longer retired with the others. Called only once the
        answer was accepted: a refused one (say a move made the offer lapse meanwhile)
        leaves the post to be retired as lapsed."""
        if interaction.message is not None:
            await self.store.forget(interaction.message.id)

    async def post_challenge(self, interaction: discord.Interaction, ch: Challenge) -> None:
        """Answer ``interaction`` with the challenge's message and buttons (pinging the
        challenged player), and record that message so that its expiry can edit it."""
        lang = await languages.public_language(self.service, interaction.guild_id, interaction)
        msg = await say(interaction, ui_of(ch.game).challenge_text(ch), ephemeral=False,
                        view=components.challenge_view(ch, lang),
                        allowed_mentions=pings(ch.challenged_id))
        if msg is None:
            msg = await interaction.original_response()
        await self.service.set_challenge_message(ch.id, msg.id)
