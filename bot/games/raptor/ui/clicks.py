"""The handler of Raptor's own control: a card of the player's hand picked
(:class:`~bot.games.raptor.ui.components.PickButton`, R5.1). It checks the click as the
platform's handlers do (:class:`bot.discord.clicks.Clicks`: the match of this game, the
clicker's own hand — an ephemeral one in the match's channel or the match's recorded DM
hand —, the player, the round), acts through the match service and lets the narrator post
what followed."""

from __future__ import annotations

import logging

import discord

import engine
from engine import Phase
from engine.messages import Text
from engine.raptor_game import side_of

from ....discord.clicks import Clicks
from ....discord.ownership import Place
from ....discord.permissions import check_permissions
from ....discord.replies import defer_update, guarded, private
from .. import texts

log = logging.getLogger(__name__)

GAME = "raptor"


class RaptorClicks:
    """Raptor's click handlers, on the platform's (``clicks``)."""

    def __init__(self, clicks: Clicks) -> None:
        self.clicks = clicks
        self.gate = clicks.gate  # :func:`~bot.discord.replies.guarded` asks it

    @guarded
    async def pick_card(self, interaction: discord.Interaction, match_id: int,
                        round_no: int, card: int) -> None:
        """A card of the player's hand: pick it this round (R5.1)."""
        clicks = self.clicks
        await defer_update(interaction)
        found = await clicks.player_match(interaction, GAME, match_id, Place.HAND,
                                          "card button")
        if found is None:
            return
        match, seat = found
        if match.state.round != round_no or match.state.phase is not Phase.PICK:
            await clicks.stale(interaction, match, "card button")
            return
        if not await check_permissions(clicks.client, interaction, match.channel_id):
            return
        result = await clicks.service.act(match_id, interaction.user.id, engine.Pick(card),
                                          seat=seat)
        await clicks.hands.forget(interaction.message)  # this answer retires a DM hand itself
        await interaction.edit_original_response(
            content=await private(interaction, Text(
                "{text}{jump}", text=texts.own_pick_text(side_of(seat), card, round_no),
                jump=await clicks.dm_jump(interaction, result.match, " "))),
            view=None, attachments=[])
        await clicks.narrator.after_human([result])
