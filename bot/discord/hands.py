"""A player's hand, which is hidden information (R11.2): shown only to that player, as an
ephemeral reply or by DM (the player's ``dm_hand`` setting), with pick buttons while
picking is open.

- One hand per message, once: the hand image and the pick buttons, the card list as text
  only when the image cannot be made.
- A player whose DMs are closed gets their hand ephemerally; the notice that says why comes
  once per match (recorded in :mod:`bot.discord.post_store`, so a restart does not repeat
  it).
- A DM hand with buttons is recorded, and retired (buttons and image removed, a line saying
  why) when its player picks elsewhere (the channel's hand, ``/raptor act``), when a newer DM
  hand follows, or when the match ends; a DM carries a jump link to the match
  (:func:`bot.discord.links.match_link`) and suggests no ``/raptor`` command (none runs in a
  DM).
- Everything of a hand — its text, its image, its buttons, its retirement — is in its
  owner's language (:func:`bot.discord.languages.user_language`).
"""

from __future__ import annotations

import io
import logging

import discord

from engine import Side
from engine.messages import Text

from .. import texts
from ..games.raptor import sides as rs
from ..i18n import tr
from ..match import Match, MatchService
from . import components, languages
from .images import Images
from .links import match_link
from .post_store import Notice, PostStore
from .replies import HAND_FILE, NO_PINGS, present, reader_lang, say

log = logging.getLogger(__name__)


class Hands:
    """Sends and retires hands. ``client`` finds the users to DM; ``images`` renders the
    hands; ``store`` records DM hands and notices."""

    def __init__(self, client: discord.Client, service: MatchService, images: Images,
                 store: PostStore) -> None:
        self.client = client
        self.service = service
        self.images = images
        self.store = store

    async def hand_png(self, match: Match, side: Side, lang: str = "en") -> bytes:
        """The hand image of ``side`` — PRIVATE to that player (R11.2) — in ``lang``."""
        return await self.images.hand(match, side, lang)

    async def _hand(self, match: Match, side: Side, *, in_dm: bool, lang: str = "en"
                    ) -> tuple[str, bytes | None]:
        """The text and image of a hand message: PRIVATE to the player of ``side``. The
        text lists the cards only when the image could not be made."""
        try:
            png: bytes | None = await self.hand_png(match, side, lang)
        except Exception:
            log.exception("match %d: the hand image failed; the hand is sent as text",
                          match.id)
            png = None
        jump = texts.to_match(match, await match_link(self.store, match)) if in_dm else None
        content = tr(Text("{hand}\n{prompt}",
                          hand=texts.hand_text(match, side, listed=png is None, jump=jump),
                          prompt=texts.pick_prompt(match, side, in_dm=in_dm)), lang)
        return content[:2000], png

    async def dm_hand_if_wanted(self, match: Match, side: Side) -> None:
        """DM the hand to a player who turned ``dm_hand`` on; a refusal (closed DMs) is
        recorded so that their next ephemeral hand carries the notice (once per match)."""
        user_id = rs.user(match, side)
        if rs.ai(match, side) or not await self.service.get_user_setting(user_id, "dm_hand", False):
            return
        await self.dm_hand(match, side)

    async def dm_hand(self, match: Match, side: Side) -> bool:
        """Send the hand of ``side`` to its player by DM (retiring the DM hand it replaces).
        False if the DM failed (closed DMs: 50007)."""
        user_id = rs.user(match, side)
        lang = await languages.user_language(self.service, user_id)
        content, png = await self._hand(match, side, in_dm=True, lang=lang)
        view = components.hand_view(match, side, lang)
        file = discord.File(io.BytesIO(png), filename=HAND_FILE) if png is not None else None
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            msg = await user.send(content, **present(file=file, view=view))
        except discord.Forbidden:
            log.info("match %d: DMs closed for user %d; falling back to ephemeral hands",
                     match.id, user_id)
            await self.store.note(match.id, user_id, Notice.DM_FAILED)
            return False
        except discord.HTTPException as exc:
            log.warning("match %d: DM to user %d failed (status %s)", match.id, user_id,
                        exc.status)
            await self.store.note(match.id, user_id, Notice.DM_FAILED)
            return False
        await self.store.unnote(match.id, user_id, Notice.DM_FAILED)
        await self.retire(match, user_id, texts.HAND_SUPERSEDED)
        if view is not None:
            await self.store.remember_private(match.id, user_id, msg.channel.id, msg.id,
                                              tr(texts.hand_heading(match, side), lang))
        return True

    async def show_hand(self, interaction: discord.Interaction, match: Match, side: Side, *,
                        use_dm: bool = False) -> None:
        """The player's hand (image + pick buttons while picking is open), ephemeral — or by
        DM when ``use_dm`` and the player asked for DMs, with an ephemeral fallback. The
        first ephemeral hand after a failed DM of this match says why (once per match)."""
        user_id = interaction.user.id
        lang = await reader_lang(interaction)
        if use_dm and await self.service.get_user_setting(user_id, "dm_hand", False):
            if await self.dm_hand(match, side):
                await say(interaction, texts.HAND_SENT_TO_DM, ephemeral=True)
                return
        notice = ""
        if (await self.store.noted(match.id, user_id, Notice.DM_FAILED)
                and await self.store.note(match.id, user_id, Notice.DM_CLOSED_TOLD)):
            notice = tr(texts.DM_CLOSED, lang) + "\n\n"
        content, png = await self._hand(match, side, in_dm=False, lang=lang)
        await say(interaction, (notice + content)[:2000], ephemeral=True, png=png,
                  filename=HAND_FILE, view=components.hand_view(match, side, lang))

    # ------------------------------------------------------------------ retiring DM hands
    async def picked(self, match: Match, side: Side, card: int) -> None:
        """``side`` picked ``card`` (anywhere): retire that player's DM hands of the match,
        saying so. Nothing for an AI side."""
        if not rs.ai(match, side):
            await self.retire(match, rs.user(match, side),
                              texts.picked_elsewhere_text(side, card))

    async def match_over(self, match: Match) -> None:
        """The match ended: retire every DM hand of it still recorded."""
        await self.retire(match, None, texts.HAND_MATCH_OVER)

    async def forget(self, message: discord.Message | None) -> None:
        """The clicked DM hand was answered by its own handler (a card picked there): it is
        no longer retired with the others."""
        if message is not None:
            await self.store.forget_private(message.id)

    async def retire(self, match: Match, user_id: int | None, line: str | Text) -> None:
        """Edit the recorded DM hands of the match (of ``user_id``, or of both players) to
        their heading, ``✔ line`` and the jump link, without buttons or image."""
        posts = await self.store.take_private(match.id, user_id)
        if not posts:
            return
        jump = texts.to_match(match, await match_link(self.store, match))
        for post in posts:
            message = self.client.get_partial_messageable(
                post.channel_id, type=discord.ChannelType.private
            ).get_partial_message(post.message_id)
            lang = await languages.user_language(self.service, post.user_id)
            try:
                await message.edit(content=tr(texts.hand_retired_text(post.text, line, jump),
                                              lang),
                                   view=None, attachments=[], allowed_mentions=NO_PINGS)
            except discord.HTTPException as exc:
                log.warning("match %d: could not retire DM hand %d (status %s, code %s)",
                            match.id, post.message_id, exc.status, exc.code)
