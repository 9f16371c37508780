"""The commands every game's group shares: :class:`GameCog`, a ``/<game>`` group whose
subcommands act on the channel's match of that game through the platform and the game's
presentation (:mod:`bot.discord.presentation`).

=====================================  ============================================  ==========
command                                what it does                                  answer
=====================================  ============================================  ==========
``board``                              the current public image                      public
``hand``                               my private view (+ its controls)              ephemeral
``act action``                         any decision in notation, autocompleted       ephemeral
``status``                             whose decision, deadlines, score              ephemeral
``resign``                             asks for a confirmation button                ephemeral
``draw``                               offer a draw, or accept the opponent's offer  public
``rematch``                            rematch of my last finished match here        public
``rules``                              the game's rules in short                     ephemeral
``history``                            my last finished matches in this server       ephemeral
``replay [match]``                     a finished match's animation (GIF)            public
``record [match]``                     a finished match's text record                public
``stats [user]``                       rating and results                            public
``leaderboard``                        the server's best ratings                     public
``settings [dm_hand] [language]``      show / change my settings                     ephemeral
=====================================  ============================================  ==========

A game's group subclasses :class:`GameCog` (``group_name`` its registry name) and adds how
its matches start (Raptor: ``challenge``, ``practice`` and ``table``, the lobby that
:meth:`GameCog.open_table` opens); it redeclares a shared command
to give it the game's own description, calling the shared handler. Every handler
acknowledges before touching the database or rendering (a "thinking" defer, ephemeral where
the answer is private); refusals are ephemeral.
"""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from engine.game import Seat
from engine.messages import Text
from render.replay import DEFAULT_BYTE_LIMIT, ReplayError

from .. import games, texts
from ..i18n import LANGUAGE_NAMES, resolve, tr, translator
from ..match import Match, MatchService, ServiceError, replays
from . import components, languages
from .flow import Flow
from .permissions import check_permissions
from .presentation import GameUI, ui_of
from .replay_viewer import viewer_page
from .replies import command_error, defer, fail, private, public_lang, reader_lang, say
from .tables import post_table

log = logging.getLogger(__name__)


REPLAY_MARGIN = 64 * 1024  # bytes kept under the upload limit for the message itself
#: The commands that work in a DM too (the others need a server channel).
DM_COMMANDS = frozenset({"rules", "settings"})


class GameCog(commands.GroupCog):
    """The shared subcommands of a game's ``/<game>`` group; a subclass per game (its
    ``group_name`` its registry name) adds the game's own."""

    def __init__(self, bot: commands.Bot, service: MatchService, flow: Flow) -> None:
        self.bot = bot
        self.service = service
        self.flow = flow
        super().__init__()

    @property
    def game(self) -> str:
        """The game of this group (its registry name)."""
        return str(self.__cog_group_name__)

    @property
    def ui(self) -> GameUI:
        return ui_of(self.game)

    def log_command(self, interaction: discord.Interaction, name: str) -> None:
        log.info("/%s %s by user %d in channel %s", self.game, name, interaction.user.id,
                 interaction.channel_id)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Everything but ``rules`` and ``settings`` needs a server channel (the group is
        also offered in DMs, where those two work)."""
        command = interaction.command
        if interaction.guild_id is None and command is not None and (
                command.name not in DM_COMMANDS):
            if interaction.type is not discord.InteractionType.application_command:
                return False  # autocomplete: offer nothing
            if interaction.response.is_done():
                return False  # checked twice (group and cog): answered already
            await fail(interaction, Text("This command works in a server channel, where "
                                         "matches are played. Here in DMs you can use "
                                         "`/{group} rules` and `/{group} settings`.",
                                         group=self.game))
            return False
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error, self.game)

    # ------------------------------------------------------------------ helpers
    async def channel_match(self, interaction: discord.Interaction, *,
                            player: bool = False) -> tuple[Match, Seat | None] | None:
        """The active match of this channel, of this group's game (and the user's seat),
        or None after an ephemeral refusal."""
        match = await self.service.active_match(interaction.channel_id or 0)
        if match is None:
            elsewhere = [m for m in await self.service.active_matches(interaction.guild_id)
                         if m.game == self.game and m.seat_of(interaction.user.id) is not None]
            await fail(interaction, texts.match_elsewhere_text(
                self.ui.title(elsewhere[0]), elsewhere[0].channel_id) if elsewhere
                       else self.ui.no_match_here())
            return None
        if match.game != self.game:
            await fail(interaction, Text("This channel's match is a game of {game}: use "
                                         "`/{command}` here.",
                                         game=games.plugin(match.game).title,
                                         command=match.game))
            return None
        seat = match.seat_of(interaction.user.id)
        if player and seat is None:
            await fail(interaction, Text("You are not playing in this channel's match: only "
                                         "its two players can do that.") if match.seats == 2
                       else Text("You are not playing in this channel's match: only its "
                                 "players can do that."))
            return None
        return match, seat

    async def open_table(self, interaction: discord.Interaction, *, seats: int,
                         options: dict[str, str]) -> None:
        """A game's ``table`` command: open a table of this game in the channel for
        ``seats`` players with ``options``, its host the user, and post its message with
        Join / Leave / Start controls (:mod:`bot.discord.tables`)."""
        self.log_command(interaction, "table")
        if not await check_permissions(self.bot, interaction):
            return
        await defer(interaction, ephemeral=False)
        table = await self.service.open_table(interaction.guild_id, interaction.channel_id,
                                              interaction.user.id, game=self.game,
                                              seats=seats, options=options)
        await post_table(self.service, interaction, table)
        self.flow.poke()

    async def player_name(self, interaction: discord.Interaction, match: Match,
                          seat: Seat) -> str:
        """A player's name for a record: the AI's level, a member's display name or the
        user's name (fetched when not cached), else the user id (a record is a file: no
        mentions)."""
        level = match.ai_of(seat)
        if level:
            return f"AI ({level})"
        user_id = match.user_of(seat)
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        user: discord.abc.User | None = member or self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"user {user_id}"
        return user.display_name

    async def finished(self, interaction: discord.Interaction, number: int | None
                       ) -> Match | None:
        """The finished match of this game a replay or record names, or None after a
        refusal."""
        try:
            found = await replays.finished_match(self.service, interaction.guild_id or 0,
                                                 interaction.channel_id or 0, number,
                                                 game=self.game)
        except ServiceError as exc:
            await fail(interaction, exc.message)
            return None
        return found

    # ------------------------------------------------------------------ the handlers
    async def show_board(self, interaction: discord.Interaction) -> None:
        """``board``: the match's public image (between matches, the last one's)."""
        self.log_command(interaction, "board")
        await defer(interaction, ephemeral=False)
        if await self.service.active_match(interaction.channel_id or 0) is None:
            last = await self.service.last_finished(interaction.channel_id or 0)
            if last is not None and last.game == self.game:  # the last one's final image
                lang = await public_lang(interaction)
                png = await self.flow.images.board(last, lang)
                result = tr(ui_of(last.game).result_text(last), lang).split("\n")[0]
                await say(interaction, Text("{result}\n{hint}", result=result,
                                            hint=self.ui.start_hint()),
                          ephemeral=False, png=png)
                return
        found = await self.channel_match(interaction)
        if found is None:
            return
        match, _ = found
        png = await self.flow.images.board(match, await public_lang(interaction))
        await say(interaction, self.ui.board_caption(match), ephemeral=False, png=png)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """``hand``: the player's private view (by DM if they asked for it)."""
        self.log_command(interaction, "hand")
        await defer(interaction, ephemeral=True)
        found = await self.channel_match(interaction, player=True)
        if found is None:
            return
        match, seat = found
        assert seat is not None
        await self.flow.hands.show_hand(interaction, match, seat, use_dm=True)

    async def play(self, interaction: discord.Interaction, action: str) -> None:
        """``act``: a decision typed in the game's notation (``undo`` takes the last one
        back)."""
        self.log_command(interaction, "act")
        await defer(interaction, ephemeral=True)
        found = await self.channel_match(interaction, player=True)
        if found is None:
            return
        match, seat = found
        assert seat is not None
        if not await check_permissions(self.bot, interaction, match.channel_id):
            return
        if action.strip().lower() == "undo":  # as the Undo button of the card
            await self.flow.narrator.undo(interaction, match, seat)
            await say(interaction, Text("Done: your last action is taken back."),
                      ephemeral=True)
            return
        result = await self.service.act(match.id, interaction.user.id, action)
        await say(interaction, self.ui.done_text(match, result), ephemeral=True)
        await self.flow.narrator.after_human([result])

    async def complete_action(self, interaction: discord.Interaction,
                              current: str) -> list[app_commands.Choice[str]]:
        """``act``'s autocomplete: the user's legal actions now, filtered by what they
        typed. Private: only the user who types sees the choices."""
        match = await self.service.active_match(interaction.channel_id or 0)
        if match is None or match.game != self.game:
            return []
        acting = match.to_act()
        seat = next((s for s in match.seats_of(interaction.user.id) if s in acting), None)
        if seat is None:
            return []
        return self.ui.action_choices(match, seat, current, await reader_lang(interaction))

    async def show_status(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "status")
        await defer(interaction, ephemeral=True)
        found = await self.channel_match(interaction)
        if found is None:
            return
        match, _ = found
        await say(interaction, tr(self.ui.status_text(match),
                                  await reader_lang(interaction))[:2000], ephemeral=True)

    async def ask_resign(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "resign")
        await defer(interaction, ephemeral=True)
        found = await self.channel_match(interaction, player=True)
        if found is None:
            return
        match, _ = found
        await say(interaction, self.ui.resign_question(match), ephemeral=True,
                  view=components.resign_view(match, await reader_lang(interaction)))

    async def offer_draw(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "draw")
        await defer(interaction, ephemeral=True)
        found = await self.channel_match(interaction, player=True)
        if found is None:
            return
        match, seat = found
        assert seat is not None
        if not await check_permissions(self.bot, interaction, match.channel_id):
            return
        after = await self.service.offer_draw(match.id, interaction.user.id)
        if not after.active:
            await say(interaction, Text("You accepted the draw."), ephemeral=True)
            await self.flow.narrator.finish(after, by=seat)
            return
        await say(interaction, Text("Draw offered."), ephemeral=True)
        await self.flow.posts.post_draw_offer(after, seat)

    async def ask_rematch(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "rematch")
        await defer(interaction, ephemeral=False)
        recent = await self.service.history(interaction.guild_id, interaction.user.id, limit=20,
                                            game=self.game)
        here = [m for m in recent if m.channel_id == interaction.channel_id]
        if not here:
            await fail(interaction, Text("You have no finished match in this channel to "
                                         "rematch."))
            return
        await self.flow.clicks.start_rematch(interaction, here[0].id)

    async def show_rules(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "rules")
        lang = await reader_lang(interaction)
        await say(interaction, ephemeral=True, embeds=self.ui.rules(lang))

    async def show_history(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "history")
        await defer(interaction, ephemeral=True)
        matches = await self.service.history(interaction.guild_id, interaction.user.id,
                                             game=self.game)
        if not matches:
            await say(interaction, Text("You have no finished matches in this server yet."),
                      ephemeral=True)
            return
        lines: list = [Text("**Your last matches**")]
        lines += [self.ui.history_line(m, interaction.user.id) for m in matches]
        await say(interaction, tr(Text.joined("\n", lines), await reader_lang(interaction))[:2000],
                  ephemeral=True)

    async def show_replay(self, interaction: discord.Interaction, number: int | None) -> None:
        self.log_command(interaction, "replay")
        await defer(interaction, ephemeral=False)
        m = await self.finished(interaction, number)
        if m is None:
            return
        replay = await self.ui.replay(self.service, m)
        limit = getattr(interaction, "filesize_limit", None) or DEFAULT_BYTE_LIMIT
        try:
            anim = await self.flow.images.replay(m, replay, byte_limit=limit - REPLAY_MARGIN,
                                                 lang=await public_lang(interaction),
                                                 requester=interaction.user.id)
        except ReplayError as exc:
            await fail(interaction, Text("No replay of {title}: {why}.",
                                         title=self.ui.title(m), why=str(exc)))
            return
        text = self.ui.replay_said(m, len(replay.frames))
        if anim.note:
            text = Text("{text}\n{note}", text=text, note=anim.note)
        await say(interaction, text, ephemeral=False, png=anim.data,
                  filename=f"{self.game}-match-{m.id}.gif")
        # the step-through viewer, for the one who asked (its buttons survive a restart)
        page, png, buttons, _ = await viewer_page(self.bot, m, 0,
                                                  await reader_lang(interaction))
        await interaction.followup.send(page, ephemeral=True, view=buttons,
                                        file=discord.File(io.BytesIO(png), filename="round.png"),
                                        allowed_mentions=discord.AllowedMentions.none())

    async def show_record(self, interaction: discord.Interaction, number: int | None) -> None:
        self.log_command(interaction, "record")
        await defer(interaction, ephemeral=False)
        m = await self.finished(interaction, number)
        if m is None:
            return
        server = interaction.guild.name if interaction.guild else str(m.guild_id)
        text = await replays.record_text(
            self.service, m, server=server,
            players=[await self.player_name(interaction, m, seat) for seat in range(m.seats)])
        await say(interaction, self.ui.record_said(m), ephemeral=False,
                  png=text.encode("utf-8"), filename=f"{self.game}-match-{m.id}.txt")

    async def show_stats(self, interaction: discord.Interaction,
                         user: discord.abc.User | None) -> None:
        self.log_command(interaction, "stats")
        await defer(interaction, ephemeral=False)
        who = user or interaction.user
        guild = interaction.guild_id or 0
        st = await self.service.stats(guild, self.game, who.id)
        seats = await self.service.seat_records(guild, self.game, who.id)
        await say(interaction, await self.ui.stats_text(self.service, who.mention, st, seats),
                  ephemeral=False)

    async def show_leaderboard(self, interaction: discord.Interaction) -> None:
        self.log_command(interaction, "leaderboard")
        await defer(interaction, ephemeral=False)
        rows = await self.service.leaderboard(interaction.guild_id, self.game, limit=10)
        if not rows:
            await say(interaction, self.ui.no_rated_games(), ephemeral=False)
            return
        lines: list = [Text("**{game} leaderboard**", game=games.plugin(self.game).title)]
        for i, st in enumerate(rows, 1):
            lines.append(f"{i}. {texts.mention(st.user_id)} — **{st.rating:.0f}** "
                         f"({st.wins}–{st.losses}–{st.draws})")
        await say(interaction, Text.joined("\n", lines), ephemeral=False)

    async def change_settings(self, interaction: discord.Interaction, dm_hand: bool | None,
                              language: app_commands.Choice[str] | None) -> None:
        self.log_command(interaction, "settings")
        await defer(interaction, ephemeral=True)
        uid = interaction.user.id
        group = self.game
        if language is not None:
            chosen = languages.language_choice(language.value)
            await self.service.set_user_setting(uid, languages.LANGUAGE_KEY,
                                                chosen or languages.AUTO)
            _ = translator(await languages.reader_language(self.service, interaction))
            if chosen is None:
                text = _("Language: **your Discord's** ({language}). What only you see follows "
                         "your Discord client's language.",
                         language=LANGUAGE_NAMES[resolve(interaction.locale)])
            else:
                text = _("Language: **{language}**. What only you see is written in it, "
                         "whatever your Discord's language; `/{group} settings language:` "
                         "changes it back.", language=LANGUAGE_NAMES[chosen], group=group)
            await say(interaction, text, ephemeral=True)
            if dm_hand is None:
                return
        if dm_hand is None:
            current = await self.service.get_user_setting(uid, "dm_hand", False)
            await say(interaction, Text("Hand by DM: **on**. Change it with "
                                        "`/{group} settings dm_hand:True`.", group=group)
                      if current else
                      Text("Hand by DM: **off**. Change it with "
                           "`/{group} settings dm_hand:True`.", group=group), ephemeral=True)
            return
        await self.service.set_user_setting(uid, "dm_hand", bool(dm_hand))
        if not dm_hand:
            await say(interaction, Text("Hand by DM: **off**. Your hand shows here, only to "
                                        "you."), ephemeral=True)
            return
        try:
            await interaction.user.send(await private(interaction, self.ui.dm_hello()))
        except discord.Forbidden:
            await say(interaction, Text("Hand by DM: **on** — but I couldn't message you: your "
                                        "DMs are closed for this server. Until you open them "
                                        "I'll keep showing your hand here, only to you (with "
                                        "a notice)."), ephemeral=True)
            return
        await say(interaction, Text("Hand by DM: **on**. I sent you a test message."),
                  ephemeral=True)

    # ------------------------------------------------------------------ the commands
    @app_commands.command(description="Show the board of this channel's match")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.show_board(interaction)

    @app_commands.command(description="Show your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.show_hand(interaction)

    @app_commands.command(description="Whose decision it is, deadlines and the score")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.show_status(interaction)

    @app_commands.command(description="Make your decision by typing it in the game's "
                                      "notation")
    @app_commands.describe(action="The action in notation; start typing to see the legal ones")
    async def act(self, interaction: discord.Interaction,
                  action: app_commands.Range[str, 1, 100]) -> None:
        await self.play(interaction, action)

    @act.autocomplete("action")
    async def act_autocomplete(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        return await self.complete_action(interaction, current)

    @app_commands.command(description="Resign this channel's match (asks for a confirmation)")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.ask_resign(interaction)

    @app_commands.command(description="Offer a draw, or accept your opponent's offer")
    async def draw(self, interaction: discord.Interaction) -> None:
        await self.offer_draw(interaction)

    @app_commands.command(description="Ask your last opponent in this channel for a rematch")
    async def rematch(self, interaction: discord.Interaction) -> None:
        await self.ask_rematch(interaction)

    @app_commands.command(description="How to play")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    @app_commands.command(description="Your last finished matches in this server")
    async def history(self, interaction: discord.Interaction) -> None:
        await self.show_history(interaction)

    @app_commands.command(description="Watch a finished match again")
    @app_commands.describe(match="A match number from the history command (default: this "
                                 "channel's last finished match)")
    async def replay(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_replay(interaction, match)

    @app_commands.command(description="The text record of a finished match")
    @app_commands.describe(match="A match number from the history command (default: this "
                                 "channel's last finished match)")
    async def record(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        await self.show_record(interaction, match)

    @app_commands.command(description="A player's rating and results in this server")
    @app_commands.describe(user="Whose stats (default: you)")
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        await self.show_stats(interaction, user)

    @app_commands.command(description="The best-rated players of this server")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await self.show_leaderboard(interaction)

    @app_commands.command(description="Your settings: your hand by direct message, your "
                                      "language")
    @app_commands.describe(dm_hand="Send your hand to your DMs when it is yours to see "
                                   "(default: off)",
                           language="The language of what only you see (default: your "
                                    "Discord's)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm_hand: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        await self.change_settings(interaction, dm_hand, language)
