"""A player's private view — Raptor's hand (R11.2), a secret card, hidden cards —, which is
hidden information: shown only to that player, as an ephemeral reply or by DM (the player's
``dm_hand`` setting), with the game's controls that go with it (Raptor's pick buttons).
What it shows is the game's (:mod:`bot.discord.presentation`); the frame is this module's.

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

from engine.game import Seat
from engine.messages import Text

from .. import texts
from ..i18n import tr
from ..match import Match, MatchService
from . import languages
from .images import Images
from .links import match_link
from .post_store import Notice, PostStore
from .presentation import ui_of
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

    async def hand_png(self, match: Match, seat: Seat, lang: str = "en") -> bytes | None:
        """The image of ``seat``'s private view — PRIVATE to that player — in ``lang``
        (None: the game draws none)."""
        return await self.images.private(match, seat, lang)

    async def _hand(self, match: Match, seat: Seat, *, in_dm: bool, lang: str = "en"
                    ) -> tuple[str, bytes | None]:
        """The text and image of a private message: PRIVATE to the player of ``seat``. The
        text lists what they hold only when the image could not be made."""
        try:
            png = await self.hand_png(match, seat, lang)
        except Exception:
            log.exception("match %d: the hand image failed; the hand is sent as text",
                          match.id)
            png = None
        ui = ui_of(match.game)
        jump = (texts.to_match(ui.title(match), await match_link(self.store, match)) if in_dm
                else None)
        content = tr(ui.private_text(match, seat, listed=png is None, in_dm=in_dm, jump=jump),
                     lang)
        return content[:2000], png

    async def dm_hand_if_wanted(self, match: Match, seat: Seat) -> None:
        """DM the private view to a player who turned ``dm_hand`` on; a refusal (closed DMs)
        is recorded so that their next ephemeral one carries the notice (once per match)."""
        user_id = match.user_of(seat)
        if match.ai_of(seat) or not await self.service.get_user_setting(user_id, "dm_hand",
                                                                       False):
            return
        await self.dm_hand(match, seat)

    async def dm_hand(self, match: Match, seat: Seat) -> bool:
        """Send ``seat``'s private view to its player by DM (retiring the DM it replaces).
        False if the DM failed (closed DMs: 50007)."""
        user_id = match.user_of(seat)
        lang = await languages.user_language(self.service, user_id)
        content, png = await self._hand(match, seat, in_dm=True, lang=lang)
        view = ui_of(match.game).private_controls(match, seat, lang)
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
                                              tr(ui_of(match.game).private_heading(match, seat),
                                                 lang))
        return True

    async def show_hand(self, interaction: discord.Interaction, match: Match, seat: Seat, *,
                        use_dm: bool = False) -> None:
        """The player's private view (image and the game's controls), ephemeral — or by DM
        when ``use_dm`` and the player asked for DMs, with an ephemeral fallback. The first
        ephemeral one after a failed DM of this match says why (once per match)."""
        user_id = interaction.user.id
        lang = await reader_lang(interaction)
        if use_dm and await self.service.get_user_setting(user_id, "dm_hand", False):
            if await self.dm_hand(match, seat):
                await say(interaction, texts.HAND_SENT_TO_DM, ephemeral=True)
                return
        notice = ""
        if (await self.store.noted(match.id, user_id, Notice.DM_FAILED)
                and await self.store.note(match.id, user_id, Notice.DM_CLOSED_TOLD)):
            notice = tr(texts.DM_CLOSED, lang) + "\n\n"
        content, png = await self._hand(match, seat, in_dm=False, lang=lang)
        await say(interaction, (notice + content)[:2000], ephemeral=True, png=png,
                  filename=HAND_FILE,
                  view=ui_of(match.game).private_controls(match, seat, lang))

    # ------------------------------------------------------------------ retiring DM hands
    async def decided(self, match: Match, seat: Seat, line: Text) -> None:
        """``seat`` made the decision its DM private views were for (anywhere): retire that
        player's DM views of the match, with ``line``. Nothing for an AI seat."""
        if not match.ai_of(seat):
            await self.retire(match, match.user_of(seat), line)

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
        jump = texts.to_match(ui_of(match.game).title(match),
                              await match_link(self.store, match))
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
