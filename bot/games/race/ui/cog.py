"""The ``/race`` application-command group: the platform's shared subcommands
(:class:`bot.discord.commands.GameCog`: board, hand, act, status, resign, draw, rematch,
rules, history, replay, record, stats, leaderboard, settings) and how a race starts.

=====================================  ============================================  ==========
command                                what it does                                  answer
=====================================  ============================================  ==========
``practice [players] [level] [board]`` a race of the user against AI seats (2-5      public
                                       players in all)
``table [players] [board]``            a table of 2-5 seats others join (the lobby,  public
                                       :meth:`GameCog.open_table`)
=====================================  ============================================  ==========

A race between people starts from a table, which begins the match as a practice does
(:meth:`bot.discord.narration.Narrator.begin`). The shared commands whose description names the
race's own things (its notation, the secret card, its record, a frame per turn) are declared again
here with the race's description.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from ....discord import languages
from ....discord.commands import GameCog
from ....discord.flow import Flow
from ....discord.permissions import check_permissions
from ....discord.replies import defer
from ....match import MatchService

#: The game of the ``/race`` commands.
GAME = "race"


class RaceCog(GameCog, group_name="race",
              group_description="Play Raptor Race, the dice race of 2 to 5 players, in this "
                                "channel"):
    """The ``/race`` group."""

    def __init__(self, bot: commands.Bot, service: MatchService, flow: Flow) -> None:
        super().__init__(bot, service, flow)

    @app_commands.command(description="Race against the AI in this channel")
    @app_commands.describe(players="How many players in all, you included (default: 3)",
                           level="How strong the AI plays (default: easy)",
                           board="desert: the starter track; jungle: obstacles and the "
                                 "arrows die (default: desert)")
    async def practice(self, interaction: discord.Interaction,
                       players: app_commands.Range[int, 2, 5] = 3,
                       level: Literal["easy", "medium", "hard"] = "easy",
                       board: Literal["desert", "jungle"] = "desert") -> None:
        self.log_command(interaction, "practice")
        if not await check_permissions(self.bot, interaction):
            return
        await defer(interaction, ephemeral=False)
        me = self.bot.user
        assert me is not None
        match = await self.service.start_practice(
            interaction.guild_id, interaction.channel_id, interaction.user.id, game=GAME,
            level=level, options={"board": board}, seats=players, ai_user_id=me.id)
        await self.flow.narrator.begin(match, interaction, started_by=interaction.user.id)

    @app_commands.command(description="Open a race table in this channel: others join, "
                                      "you start (or seat the AI)")
    @app_commands.describe(players="How many seats, you included (default: 4)",
                           board="desert: the starter track; jungle: obstacles and the "
                                 "arrows die (default: desert)")
    async def table(self, interaction: discord.Interaction,
                    players: app_commands.Range[int, 2, 5] = 4,
                    board: Literal["desert", "jungle"] = "desert") -> None:
        await self.open_table(interaction, seats=players, options={"board": board})

    # ------------------------------------------------------------------ the race's words
    @app_commands.command(description="Play your turn by typing it, e.g. keep GGT, G>C4, "
                                      "TB>B3, +Y>D6")
    @app_commands.describe(action="The decision in race notation; start typing to see the "
                                  "legal ones")
    async def act(self, interaction: discord.Interaction,
                  action: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, action)

    @act.autocomplete("action")
    async def act_autocomplete(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_action(interaction, current)

    @app_commands.command(description="Your secret Top-3 card (only you can see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    @app_commands.command(description="How to race, and how the Top-3 cards score")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    @app_commands.command(description="Watch a finished race again, a frame per turn")
    @app_commands.describe(match="A race number from /race history (default: this "
                                 "channel's last finished race)")
    async def replay(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_replay(interaction, match)

    @app_commands.command(description="The text record of a finished race "
                                      "(docs/RACE_RECORD.md)")
    @app_commands.describe(match="A race number from /race history (default: this "
                                 "channel's last finished race)")
    async def record(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_record(interaction, match)

    @app_commands.command(description="Your settings: your Top-3 card by direct message, "
                                      "your language")
    @app_commands.describe(dm_hand="Send your Top-3 card to your DMs when a race begins "
                                   "(default: off)",
                           language="The language of what only you see (default: your "
                                    "Discord's)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm_hand: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await self.change_settings(interaction, dm_hand, language)
