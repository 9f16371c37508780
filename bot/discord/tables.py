"""The lobby on Discord, for every game: a table's public message and its controls
(:func:`bot.discord.components.table_view`), posted by a game's ``table`` command
(:meth:`bot.discord.commands.GameCog.open_table`) and kept up to date by the clicks on it
(:mod:`bot.discord.clicks`) and by its expiry (:mod:`bot.discord.timer_task`).

A table's message names its host and who sits at it without pinging anyone (a table invites
the channel, not a person); the match it starts begins on that message, as an accepted
challenge's does (:meth:`bot.discord.narration.Narrator.begin`).
"""

from __future__ import annotations

from typing import Any

import discord

from engine.messages import Text

from .. import games, texts
from ..match import Table
from . import components, languages
from .presentation import ui_of
from .replies import NO_PINGS, say


def table_message(table: Table) -> Text:
    """The table's message: while open its seats and what to do, else why it closed."""
    plugin = games.plugin(table.game)
    if not table.open:
        return texts.table_closed_text(table, plugin.title)
    return texts.table_text(table, plugin.title, ui_of(table.game).options_text(table.options),
                            plugin.game.min_seats)


async def table_controls(service: Any, table: Table,
                         interaction: discord.Interaction | None = None
                         ) -> discord.ui.View | None:
    """The open table's controls in the server's public language; None once closed."""
    if not table.open:
        return None
    lang = await languages.public_language(service, table.guild_id, interaction)
    return components.table_view(table, games.plugin(table.game).ai_levels, lang)


async def post_table(service: Any, interaction: discord.Interaction, table: Table) -> None:
    """Answer ``interaction`` with the new table's message and controls, and record that
    message (its clicks must be on it; its expiry edits it)."""
    msg = await say(interaction, table_message(table), ephemeral=False,
                    view=await table_controls(service, table, interaction),
                    allowed_mentions=NO_PINGS)
    if msg is None:
        msg = await interaction.original_response()
    await service.set_table_message(table.id, msg.id)


__all__ = ["post_table", "table_controls", "table_message"]
