"""The ``/raptor`` application-command group: the platform's shared subcommands
(:class:`bot.discord.commands.GameCog`: board, hand, act, status, resign, draw, rematch,
rules, history, replay, record, stats, leaderboard, settings) and how a Raptor match starts.

=====================================  ============================================  ==========
command                                what it does                                  answer
=====================================  ============================================  ==========
``challenge user [side] [environment]  a challenge with Accept / Decline / Cancel;   public
[setup]``                              challenging the bot itself starts a practice
``practice [side] [level]``            a match against the AI (easy / medium / hard) public
``table [environment] [setup]``        a table anyone may join (a lobby; the sides   public
                                       are drawn when its host starts it)
=====================================  ============================================  ==========

The shared commands whose description names Raptor's own things (its notation, its cards,
its record format, a frame per round) are declared again here with Raptor's description.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine.messages import Text

from ....discord import languages
from ....discord.commands import GameCog
from ....discord.flow import Flow
from ....discord.permissions import check_permissions
from ....discord.replies import defer, fail
from ....match import MatchService
from .. import sides as rs

#: The game of the ``/raptor`` commands.
GAME = "raptor"


class RaptorCog(GameCog, group_name="raptor",
                group_description="Play Raptor, the asymmetric board game, in this channel"):
    """The ``/raptor`` group."""

    def __init__(self, bot: commands.Bot, service: MatchService, flow: Flow) -> None:
        super().__init__(bot, service, flow)

    # ------------------------------------------------------------------ starting
    @app_commands.command(description="Challenge someone to a game of Raptor in this channel")
    @app_commands.describe(user="Who you want to play (pick me to play the AI)",
                           side="The side you want to play (default: random)",
                           environment="The board's look and rocks (default: jungle)",
                           setup="quick: random starting positions; manual: you place them")
    async def challenge(self, interaction: discord.Interaction, user: discord.User,
                        side: Literal["raptor", "scientist", "random"] = "random",
                        environment: Literal["jungle", "savannah"] = "jungle",
                        setup: Literal["quick", "manual"] = "quick") -> None:
        self.log_command(interaction, "challenge")
        me = self.bot.user
        if user.id == interaction.user.id:
            await fail(interaction, Text("You can't challenge yourself: challenge another "
                                         "player, or play the AI with `/raptor practice`."))
            return
        if user.bot and (me is None or user.id != me.id):
            await fail(interaction, Text("{user} is a bot and can't play. Challenge a person, "
                                         "or play me with `/raptor practice`.",
                                         user=user.mention))
            return
        if not await check_permissions(self.bot, interaction):
            return
        await defer(interaction, ephemeral=False)
        if me is not None and user.id == me.id:
            match = await self.service.start_practice(
                interaction.guild_id, interaction.channel_id, interaction.user.id,
                game=GAME, seat=rs.seat_wish(side), level="easy",
                options={"environment": environment, "setup": setup}, ai_user_id=me.id)
            await self.flow.narrator.begin(match, interaction,
                                           started_by=interaction.user.id)
            return
        ch = await self.service.create_challenge(
            interaction.guild_id, interaction.channel_id, interaction.user.id, user.id,
            game=GAME, seat=rs.seat_wish(side),
            options={"environment": environment, "setup": setup})
        await self.flow.posts.post_challenge(interaction, ch)
        self.flow.poke()

    @app_commands.command(description="Play a practice game against the AI in this channel")
    @app_commands.describe(side="The side you want to play (default: random)",
                           level="How strong the AI plays (default: easy)",
                           environment="The board's look and rocks (default: jungle)",
                           setup="quick: random starting positions; manual: you place them")
    async def practice(self, interaction: discord.Interaction,
                       side: Literal["raptor", "scientist", "random"] = "random",
                       level: Literal["easy", "medium", "hard"] = "easy",
                       environment: Literal["jungle", "savannah"] = "jungle",
                       setup: Literal["quick", "manual"] = "quick") -> None:
        self.log_command(interaction, "practice")
        if not await check_permissions(self.bot, interaction):
            return
        await defer(interaction, ephemeral=False)
        me = self.bot.user
        assert me is not None
        match = await self.service.start_practice(
            interaction.guild_id, interaction.channel_id, interaction.user.id, game=GAME,
            seat=rs.seat_wish(side), level=level,
            options={"environment": environment, "setup": setup}, ai_user_id=me.id)
        await self.flow.narrator.begin(match, interaction, started_by=interaction.user.id)


    @app_commands.command(description="Open a table in this channel: whoever joins first "
                          "plays you (or seat the AI)")
    @app_commands.describe(environment="The board's look and rocks (default: jungle)",
                           setup="quick: random starting positions; manual: you place them")
    async def table(self, interaction: discord.Interaction,
                    environment: Literal["jungle", "savannah"] = "jungle",
                    setup: Literal["quick", "manual"] = "quick") -> None:
        await self.open_table(interaction, seats=2,
                              options={"environment": environment, "setup": setup})

    # ------------------------------------------------------------------ Raptor's words
    @app_commands.command(description="Make your decision by typing it, e.g. G2-G5, kill F3, "
                          "play 5, end")
    @app_commands.describe(action="The action in notation; start typing to see the legal ones")
    async def act(self, interaction: discord.Interaction,
                  action: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, action)

    @act.autocomplete("action")
    async def act_autocomplete(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_action(interaction, current)

    @app_commands.command(description="How to play, and what every card does")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    @app_commands.command(description="Watch a finished match again, a frame per round")
    @app_commands.describe(match="A match number from /raptor history (default: this "
                                 "channel's last finished match)")
    async def replay(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_replay(interaction, match)

    @app_commands.command(description="The text record of a finished match (docs/RECORD.md)")
    @app_commands.describe(match="A match number from /raptor history (default: this "
                                 "channel's last finished match)")
    async def record(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_record(interaction, match)

    @app_commands.command(description="Your settings: your hand by direct message, your "
                                      "language")
    @app_commands.describe(dm_hand="Send your hand to your DMs each round (default: off)",
                           language="The language of what only you see (default: your "
                                    "Discord's)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm_hand: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await self.change_settings(interaction, dm_hand, language)
