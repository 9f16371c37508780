"""A player's hand, which is hidden information (R11.2): shown only to that player, as an
ephemeral reply or by DM (the player's ``dm_hand`` setting), with pick buttons while
picking is open. A player whose DMs are closed gets their hand ephemerally, with a notice.
Everything of a hand — its text, its image, its buttons — is in its owner's language
(:func:`bot.discord.languages.user_language`).
"""

from __future__ import annotations

import io
import logging

import discord

from engine import Side
from engine.messages import Text

from .. import texts
from ..i18n import tr
from ..match import Match, MatchService
from . import components, languages
from .images import Images
from .replies import HAND_FILE, present, reader_lang, say

log = logging.getLogger(__name__)


class Hands:
    """Sends hands. ``client`` finds the users to DM; ``images`` renders the hands."""

    def __init__(self, client: discord.Client, service: MatchService, images: Images) -> None:
        self.client = client
        self.service = service
        self.images = images
        self._dm_failed: set[int] = set()  # users whose last DM failed: told so next time

    async def hand_png(self, match: Match, side: Side, lang: str = "en") -> bytes:
        """The hand image of ``side`` — PRIVATE to that player (R11.2) — in ``lang``."""
        return await self.images.hand(match, side, lang)

    @staticmethod
    def hand_message(match: Match, side: Side, notice: Text | None = None) -> Text:
        """The text of a hand (PRIVATE to the player of ``side``), with a notice first."""
        body = Text("{hand}\n{prompt}", hand=texts.hand_text(match, side),
                    prompt=texts.pick_prompt(match, side))
        return Text("{notice}\n\n{body}", notice=notice, body=body) if notice else body

    async def dm_hand_if_wanted(self, match: Match, side: Side) -> None:
        """DM the hand to a player who turned ``dm_hand`` on; remember a refusal (closed DMs)
        so their next ephemeral hand carries a notice."""
        user_id = match.players[side]
        if match.ai[side] or not await self.service.get_user_setting(user_id, "dm_hand", False):
            return
        await self.dm_hand(match, side)

    async def dm_hand(self, match: Match, side: Side) -> bool:
        """Send the hand of ``side`` to its player by DM. False if DMs are closed (50007)."""
        user_id = match.players[side]
        lang = await languages.user_language(self.service, user_id)
        content = tr(self.hand_message(match, side), lang)[:2000]
        png = await self.hand_png(match, side, lang)
        kw = present(view=components.hand_view(match, side, lang))
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(content, file=discord.File(io.BytesIO(png), filename=HAND_FILE), **kw)
        except discord.Forbidden:
            log.info("match %d: DMs closed for user %d; falling back to ephemeral hands",
                     match.id, user_id)
            self._dm_failed.add(user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("match %d: DM to user %d failed (status %s)", match.id, user_id,
                        exc.status)
            self._dm_failed.add(user_id)
            return False
        self._dm_failed.discard(user_id)
        return True

    async def show_hand(self, interaction: discord.Interaction, match: Match, side: Side, *,
                        use_dm: bool = False) -> None:
        """The player's hand (text + image + pick buttons while picking is open), ephemeral —
        or by DM when ``use_dm`` and the player asked for DMs, with an ephemeral fallback and
        a notice when their DMs are closed."""
        user_id = interaction.user.id
        lang = await reader_lang(interaction)
        notice = None
        if use_dm and await self.service.get_user_setting(user_id, "dm_hand", False):
            if await self.dm_hand(match, side):
                await say(interaction, Text("I sent your hand to your DMs. 📬"), ephemeral=True)
                return
            notice = texts.DM_CLOSED
        elif user_id in self._dm_failed:
            notice = texts.DM_CLOSED
        self._dm_failed.discard(user_id)
        content = tr(self.hand_message(match, side, notice), lang)
        png = await self.hand_png(match, side, lang)
        await say(interaction, content[:2000], ephemeral=True, png=png, filename=HAND_FILE,
                  view=components.hand_view(match, side, lang))
