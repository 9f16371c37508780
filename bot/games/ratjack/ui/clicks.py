"""The handler of Ratjack's own controls: a decision chosen in a player's private view
(:class:`~bot.games.ratjack.ui.components.PlayButton`, ``PlaySelect``; RJ11.3, RJ11.4).

A custom id is input from the client, so the click is checked as the platform's handlers
check theirs (:class:`bot.discord.clicks.Clicks`): the match of this game named by the id,
the clicked message — the clicker's own ephemeral view in the match's channel, or their
recorded DM view of it —, the clicker's seat, the version the control was made for, whose
decision it is, and the notation against that seat's legal actions. A refusal is
ephemeral, says what is legal (to that player only) and changes nothing. Then the service
acts, the clicked view shows the player's cards after the decision (with the next decision
of their turn, if any), the narrator posts what followed, and when the turn comes back to
the player after the AI's turns the view shows that next decision too.
"""

from __future__ import annotations

import io
import logging

import discord

from engine.messages import Text

from ....discord.clicks import Clicks
from ....discord.ownership import Place
from ....discord.permissions import check_permissions
from ....discord.presentation import GameUI, ui_of
from ....discord.replies import HAND_FILE, defer_update, fail, guarded, reader_lang
from ....i18n import tr
from ....match import Match
from .. import PLUGIN
from .components import GAME, legal_choices, private_view

log = logging.getLogger(__name__)


class RatjackClicks:
    """Ratjack's click handlers, on the platform's (``clicks``)."""

    def __init__(self, clicks: Clicks) -> None:
        self.clicks = clicks
        self.gate = clicks.gate  # :func:`~bot.discord.replies.guarded` asks it

    @guarded
    async def play(self, interaction: discord.Interaction, match_id: int, version: int,
                   notation: str) -> None:
        """A decision of the clicker's private view: check it, make it, show what follows."""
        clicks = self.clicks
        await defer_update(interaction)
        found = await clicks.player_match(interaction, GAME, match_id, Place.HAND, "menu")
        if found is None:
            return
        match, seat = found
        if match.version != version:
            await clicks.stale(interaction, match, "menu")
            return
        if seat not in match.to_act():
            await fail(interaction, PLUGIN.waiting_text(match.state, seat, match.seats))
            return
        legal = legal_choices(match, seat)
        if notation not in {n for n, _ in legal}:
            log.info("match %d: a decision that is not legal now refused (user %d)",
                     match_id, interaction.user.id)
            await fail(interaction, Text(
                "That is not one of your decisions now. You may: {legal}.",
                legal=", ".join(f"`{n}`" for n, _ in legal)))
            return
        if not await check_permissions(clicks.client, interaction, match.channel_id):
            return
        result = await clicks.service.act(match_id, interaction.user.id, notation,
                                          expected_version=version, seat=seat)
        await clicks.hands.forget(interaction.message)  # this view is edited here instead
        done = GameUI.done_text(ui_of(GAME), match, result)  # "Done: `draw deck`"
        await self._show(interaction, result.match, seat, done)
        latest = await clicks.narrator.after_human([result])
        if (latest.active and latest.version != result.match.version
                and seat in latest.to_act()):  # the turn came back after the AI's
            await self._show(interaction, latest, seat, None)

    async def _show(self, interaction: discord.Interaction, match: Match, seat: int,
                    done: Text | None) -> None:
        """Edit the clicked private view to ``seat``'s view of ``match`` (PRIVATE: the
        clicker is that seat's player): ``done``, its text and image, and its decisions; a
        DM view with decisions is recorded again, to be retired like any DM view."""
        clicks = self.clicks
        lang = await reader_lang(interaction)
        in_dm = interaction.guild_id is None
        jump = await clicks.dm_jump(interaction, match) if in_dm else None
        try:
            png = await clicks.hands.hand_png(match, seat, lang)
        except Exception:
            log.exception("match %d: the private image failed; it is sent as text", match.id)
            png = None
        ui = ui_of(match.game)
        body = ui.private_text(match, seat, listed=png is None, in_dm=in_dm, jump=jump or None)
        content = tr(Text("{done}\n{body}", done=done, body=body) if done else body, lang)
        view = private_view(match, seat, lang)
        files = [discord.File(io.BytesIO(png), filename=HAND_FILE)] if png is not None else []
        await interaction.edit_original_response(content=content[:2000], attachments=files,
                                                 view=view)
        message = interaction.message
        if in_dm and view is not None and message is not None:
            await clicks.hands.store.remember_private(
                match.id, interaction.user.id, message.channel.id, message.id,
                tr(ui.private_heading(match, seat), lang))
