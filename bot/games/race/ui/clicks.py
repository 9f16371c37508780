"""The handlers of Raptor Race's own controls: the keep menu and **Keep all**
(:mod:`.components`, RR4.2, RR4.3). They check a click as the platform's handlers do
(:meth:`bot.discord.clicks.Clicks.decision_match`: a storable id of a race, the click on
that race's own card in its server and channel, the clicker a player who plays the turn, the
card's version still current), then read the menu's values against the roll now on the
table — a forged value is refused with what is legal, and nothing changes — and act through
the match service, whose engine accepts only a legal action (RR9.3)."""

from __future__ import annotations

import logging

import discord

import engine.race as race
from engine.messages import Text
from engine.race import Phase

from ....discord.clicks import Clicks
from ....discord.permissions import check_permissions
from ....discord.replies import defer_update, fail, guarded
from .components import GAME, keep_notation

log = logging.getLogger(__name__)


class RaceClicks:
    """Raptor Race's click handlers, on the platform's (``clicks``)."""

    def __init__(self, clicks: Clicks) -> None:
        self.clicks = clicks
        self.gate = clicks.gate  # :func:`~bot.discord.replies.guarded` asks it

    @guarded
    async def keep(self, interaction: discord.Interaction, match_id: int, version: int,
                   values: list[str] | None) -> None:
        """Set aside the dice chosen in the keep menu (their positions in the roll, and
        ``a`` the arrows die), or every die rolled (``values`` None: **Keep all**)."""
        clicks = self.clicks
        await defer_update(interaction)
        found = await clicks.decision_match(interaction, GAME, match_id, version)
        if found is None:
            return
        match, seat = found
        state = match.state
        if state.phase is not Phase.ROLL:
            await clicks.stale(interaction, match, "menu")
            return
        notation = keep_notation(state, values)
        if notation is None:
            log.info("match %d: a keep of no dice rolled now refused (user %d)", match_id,
                     interaction.user.id)
            legal = ", ".join(f"`{race.format_action(a)}`"
                              for a in race.legal_actions(state, seat))
            await fail(interaction, Text(
                "That is no choice of the dice rolled now (`{dice}`): set aside one or more "
                "of them (the arrows die alone does not count). Legal now: {legal}",
                dice="".join(f.value for f in state.rolled), legal=legal))
            return
        if not await check_permissions(clicks.client, interaction, match.channel_id):
            return
        result = await clicks.service.act(match_id, interaction.user.id, notation,
                                          expected_version=version, seat=seat)
        await clicks.narrator.after_human([result])
