"""The ``/ratjack`` application-command group: the platform's shared subcommands
(:class:`bot.discord.commands.GameCog`: board, hand, act, status, resign, draw, rematch,
rules, history, replay, record, stats, leaderboard, settings) and how a Ratjack match
starts here.

=========================================  =========================================  ======
command                                    what it does                               answer
=========================================  =========================================  ======
``practice [players] [level] [decks]``     you and the AI at every other seat (2-4    public
                                           players, RJ2.4; the deck pair, RJ2.1)
``table [players] [decks]``                a table of 2-4 seats anyone may join, the  public
                                           AI filling seats at its host's word (the
                                           platform's lobby, which begins the match
                                           through the same narrator)
=========================================  =========================================  ======
 The shared commands whose description names
Ratjack's own things (its notation, its record, a frame per turn) are declared again here.
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

#: The game of the ``/ratjack`` commands.
GAME = "ratjack"

#: The deck pairs of a match (RJ2.1), as the ``decks`` option offers them.
DECK_CHOICES = [app_commands.Choice(name="Red Rats and Blue Rats", value="rb"),
                app_commands.Choice(name="Red Rats and Raccoons", value="rc"),
                app_commands.Choice(name="Red Rats and Weasels", value="rw"),
                app_commands.Choice(name="Raccoons and Weasels", value="cw")]


class RatjackCog(GameCog, group_name="ratjack",
                 group_description="Play Ratjack, the card game of exactly 25, in this "
                                   "channel"):
    """The ``/ratjack`` group."""

    def __init__(self, bot: commands.Bot, service: MatchService, flow: Flow) -> None:
        super().__init__(bot, service, flow)

    # ------------------------------------------------------------------ starting
    @app_commands.command(description="Play a practice game against the AI in this channel")
    @app_commands.describe(players="How many players, you included: the AI plays the others "
                                   "(default: 3)",
                           level="How strong the AI plays (default: easy)",
                           decks="The two decks of every round (default: Red Rats and Blue "
                                 "Rats)")
    @app_commands.choices(decks=DECK_CHOICES)
    async def practice(self, interaction: discord.Interaction,
                       players: app_commands.Range[int, 2, 4] = 3,
                       level: Literal["easy", "hard"] = "easy",
                       decks: app_commands.Choice[str] | None = None) -> None:
        self.log_command(interaction, "practice")
        if not await check_permissions(self.bot, interaction):
            return
        await defer(interaction, ephemeral=False)
        me = self.bot.user
        assert me is not None
        match = await self.service.start_practice(
            interaction.guild_id, interaction.channel_id, interaction.user.id, game=GAME,
            level=level, options={"decks": decks.value if decks else "rb"}, seats=players,
            ai_user_id=me.id)
        await self.flow.narrator.begin(match, interaction, started_by=interaction.user.id)

    @app_commands.command(description="Open a table in this channel for 2 to 4 players: "
                                      "friends join, the AI may fill seats")
    @app_commands.describe(players="How many seats, yours included (default: 3)",
                           decks="The two decks of every round (default: Red Rats and Blue "
                                 "Rats)")
    @app_commands.choices(decks=DECK_CHOICES)
    async def table(self, interaction: discord.Interaction,
                    players: app_commands.Range[int, 2, 4] = 3,
                    decks: app_commands.Choice[str] | None = None) -> None:
        await self.open_table(interaction, seats=players,
                              options={"decks": decks.value if decks else "rb"})

    # ------------------------------------------------------------------ Ratjack's words
    @app_commands.command(description="Make your decision by typing it, e.g. draw deck, up C7, "
                                      "discard W2, flip @2, p2@3")
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

    @app_commands.command(description="Watch a finished match again, a frame per turn")
    @app_commands.describe(match="A match number from /ratjack history (default: this "
                                 "channel's last finished match)")
    async def replay(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_replay(interaction, match)

    @app_commands.command(description="The text record of a finished match "
                                      "(docs/RATJACK_RECORD.md)")
    @app_commands.describe(match="A match number from /ratjack history (default: this "
                                 "channel's last finished match)")
    async def record(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_record(interaction, match)

    @app_commands.command(description="Your settings: your cards by direct message, your "
                                      "language")
    @app_commands.describe(dm_hand="Send your cards to your DMs when it is your turn "
                                   "(default: off)",
                           language="The language of what only you see (default: your "
                                    "Discord's)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm_hand: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await self.change_settings(interaction, dm_hand, language)
