"""The ``/raptor-admin`` application-command group, for a server's moderators.

==========================  =====================================================  ==========
command                     what it does                                           answer
==========================  =====================================================  ==========
``timeout [hours]``         show or set the server's time per turn, at least a     ephemeral
                            minute (0: the bot's default, ``RAPTOR_TURN_TIMEOUT_HOURS``)
``threads [on|off]``        show or set whether each match gets its own thread     ephemeral
                            (default on; :mod:`bot.discord.threads`)
``matches``                 the server's matches in progress, with their channels  ephemeral
``end [match]``             end a match (default: this channel's) without a result,  ephemeral,
                            unrated (asks for a confirmation button)               then public
``language [language]``     show or set the language of the bot's public messages  ephemeral
                            and board images here (default: the server's Discord
                            language)
==========================  =====================================================  ==========

Who may use it is Discord's business: the group is synced with default member permissions
*Manage Server* and only in servers, so Discord shows it to members with that permission and
lets a server's admins grant it to other roles or members (Server Settings → Integrations).
Ending a match is the one exception: it takes Manage Server itself (:func:`may_end_matches`),
checked by ``end`` and again by its confirmation button, and only a match of the server is
named (:func:`server_match`).
Nothing here touches the game itself: a match ended this way has no result and changes no
rating (see :meth:`bot.match.service.MatchService.end_by_moderator`).
"""

from __future__ import annotations

import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from engine.messages import Text

from .. import texts
from ..i18n import LANGUAGE_NAMES, translator
from ..match import Match, MatchFinishedError, MatchService, NotFoundError
from ..settings import MAX_TURN_TIMEOUT_HOURS, MIN_TURN_TIMEOUT_HOURS
from . import components, languages
from .presentation import ui_of
from .replies import command_error, defer, fail, reader_lang, say

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000  # Discord: characters in a message


def may_end_matches(interaction: discord.Interaction) -> bool:
    """Whether the member who interacted may end a match without a result: they hold
    *Manage Server* in this server now. Being allowed to use ``/raptor-admin`` (a server
    admin can grant the group to anyone in Server Settings → Integrations) is not enough for
    this one; the rest of the group only changes settings. Checked by the command and again
    by its confirmation button (a moderator may have lost the permission meanwhile)."""
    return interaction.guild_id is not None and interaction.permissions.manage_guild


async def server_match(service: MatchService, guild_id: int, number: int) -> Match:
    """Match ``number`` when it is in progress in server ``guild_id``: what a moderator of
    that server may end (``/raptor-admin end match:N`` and its End match button).

    Raises:
        NotFoundError: no such match in this server (another server's match is not named).
        MatchFinishedError: the match is this server's, and over.
    """
    try:
        found: Match | None = await service.get_match(number)
    except NotFoundError:
        found = None
    if found is None or found.guild_id != guild_id:
        raise NotFoundError(Text("No match #{n} is in progress in this server: "
                                 "`/raptor-admin matches` lists them.", n=number))
    if not found.active:
        raise MatchFinishedError("This match is already over.")
    return found


def duration(seconds: float) -> Text:
    """``"24 h"``, ``"1.5 h"``, ``"45 min"``: a turn timeout for people."""
    if seconds < 3600:
        return Text("{n:.4g} min", n=seconds / 60)
    return Text("{n:.4g} h", n=seconds / 3600)


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class RaptorAdminCog(commands.GroupCog, group_name="raptor-admin",
                     group_description="Raptor for moderators: time per turn, matches "
                                       "in progress, ending a stuck match"):
    """Slash commands for a server's moderators (one group, ``/raptor-admin``)."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        super().__init__()

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error, "raptor-admin")

    @app_commands.command(description="Show or set how long a player has for each turn in "
                                      "this server")
    @app_commands.describe(hours=f"Hours per turn, from 1/60 (a minute) to "
                                 f"{MAX_TURN_TIMEOUT_HOURS}; 0 goes back to the bot's default")
    async def timeout(self, interaction: discord.Interaction,
                      hours: app_commands.Range[float, 0, MAX_TURN_TIMEOUT_HOURS] | None = None
                      ) -> None:
        log.info("/raptor-admin timeout by user %d in guild %s", interaction.user.id,
                 interaction.guild_id)
        await defer(interaction, ephemeral=True)
        guild = interaction.guild_id or 0
        default = duration(self.service.turn_timeout)
        before = await self.service.guild_timeout(guild)
        own = await self.service.has_guild_timeout(guild)
        if hours is None:
            where = Text("set for this server") if own else Text("the bot's default")
            await say(interaction, Text("Time per turn in this server: **{time}** ({where}). "
                                        "Change it with `/raptor-admin timeout hours:`; "
                                        "`hours:0` goes back to the bot's default ({default}).",
                                        time=duration(before), where=where, default=default),
                      ephemeral=True)
            return
        if 0 < hours < MIN_TURN_TIMEOUT_HOURS:
            await fail(interaction, Text("The time per turn must be at least one minute "
                                         "(`hours:{minimum:.4f}`), or `hours:0` for the bot's "
                                         "default.", minimum=MIN_TURN_TIMEOUT_HOURS))
            return
        if hours == 0:
            await self.service.reset_guild_timeout(guild)
            now = self.service.turn_timeout
        else:
            await self.service.set_guild_timeout(guild, hours * 3600.0)
            now = hours * 3600.0
        what = Text("the bot's default") if hours == 0 else Text("set for this server")
        await say(interaction, Text("Time per turn in this server: **{time}** ({where}; it was "
                                    "{before}). Each match takes it from its next turn on; a "
                                    "deadline already running keeps its time.",
                                    time=duration(now), where=what, before=duration(before)),
                  ephemeral=True)

    @app_commands.command(description="Show or set the language of the bot's public "
                                      "messages in this server")
    @app_commands.describe(language="The language of public messages and board images "
                                    "(default: the server's Discord language)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction,
                       language: app_commands.Choice[str] | None = None) -> None:
        log.info("/raptor-admin language by user %d in guild %s", interaction.user.id,
                 interaction.guild_id)
        await defer(interaction, ephemeral=True)
        guild = interaction.guild_id or 0
        if language is not None:
            await self.service.set_guild_language(guild, languages.language_choice(
                language.value))
        chosen = await self.service.guild_language(guild)
        now = await languages.public_language(self.service, guild, interaction)
        _ = translator(await languages.reader_language(self.service, interaction))
        if chosen is None:
            text = _("Language of public messages in this server: **{language}**, the "
                     "server's Discord language. `/raptor-admin language:` chooses one.",
                     language=LANGUAGE_NAMES[now])
        else:
            text = _("Language of public messages in this server: **{language}** (set for "
                     "this server). Private replies follow each player's own language.",
                     language=LANGUAGE_NAMES[chosen])
        await say(interaction, text, ephemeral=True)

    @app_commands.command(description="Show or set whether each match gets its own thread")
    @app_commands.describe(setting="on: a thread per match (the default); off: matches are "
                                   "played in the channel itself")
    async def threads(self, interaction: discord.Interaction,
                      setting: Literal["on", "off"] | None = None) -> None:
        log.info("/raptor-admin threads by user %d in guild %s", interaction.user.id,
                 interaction.guild_id)
        await defer(interaction, ephemeral=True)
        guild = interaction.guild_id or 0
        if setting is not None:
            await self.service.set_guild_threads(guild, setting == "on")
        on = await self.service.guild_threads(guild)
        await say(interaction, texts.threads_setting_text(on, changed=setting is not None),
                  ephemeral=True)

    @app_commands.command(description="The matches in progress in this server")
    async def matches(self, interaction: discord.Interaction) -> None:
        log.info("/raptor-admin matches by user %d in guild %s", interaction.user.id,
                 interaction.guild_id)
        await defer(interaction, ephemeral=True)
        active = await self.service.active_matches(interaction.guild_id or 0)
        if not active:
            await say(interaction, Text("No match is in progress in this server."),
                      ephemeral=True)
            return
        _ = translator(await reader_lang(interaction))
        head = _("**Matches in progress: {n}** (oldest first)", n=len(active))
        foot = _("`/raptor-admin end` in a match's channel, or `/raptor-admin end match:N` "
                 "anywhere, ends it without a result.")
        lines: list[str] = []
        for m in active:
            ui = ui_of(m.game)
            waiting = Text.joined(" and ", [ui.player(m, seat)
                                            for seat in sorted(m.waiting_for())])
            line = _.text(ui.admin_line(m))
            if m.waiting_for():
                line += _(" · waiting for {who}", who=waiting)
            if m.deadline_at is not None:
                line += _(", deadline {when}", when=texts.ts(m.deadline_at))
            rest = len(active) - len(lines) - 1
            more = _("… and {n} more.", n=rest) if rest else ""
            if len("\n".join([head, *lines, line, more, foot])) > MESSAGE_LIMIT:
                lines.append(_("… and {n} more.", n=len(active) - len(lines)))
                break
            lines.append(line)
        await say(interaction, "\n".join([head, *lines, foot]), ephemeral=True)

    @app_commands.command(description="End a match without a result (asks for a confirmation)")
    @app_commands.describe(match="The match number (see /raptor-admin matches); default: this "
                                 "channel's match")
    async def end(self, interaction: discord.Interaction,
                  match: app_commands.Range[int, 1] | None = None) -> None:
        log.info("/raptor-admin end by user %d in channel %s", interaction.user.id,
                 interaction.channel_id)
        await defer(interaction, ephemeral=True)
        if not may_end_matches(interaction):
            await fail(interaction, texts.END_NEEDS_MANAGE_SERVER)
            return
        if match is None:
            found = await self.service.active_match(interaction.channel_id or 0)
            if found is None:
                await fail(interaction, Text("There is no match in this channel. "
                                             "`/raptor-admin matches` lists the server's "
                                             "matches; `/raptor-admin end match:N` ends one "
                                             "from anywhere."))
                return
            match = found
        else:
            match = await server_match(self.service, interaction.guild_id or 0, match)
        await say(interaction, ui_of(match.game).end_question(match), ephemeral=True,
                  view=components.end_view(match, await reader_lang(interaction)))
