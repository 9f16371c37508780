"""The ``/raptor`` application-command group.

=====================================  ============================================  ==========
command                                what it does                                  answer
=====================================  ============================================  ==========
``challenge user [side] [environment]  a challenge with Accept / Decline / Cancel;   public
[setup]``                              challenging the bot itself starts a practice
``practice [side] [level]``            a match against the AI (easy / medium / hard) public
``board``                              the current board image                       public
``hand``                               my cards (+ pick buttons while picking)       ephemeral
``act action``                         any decision in notation, autocompleted       ephemeral
``status``                             whose decision, deadlines, picks made         ephemeral
``resign``                             asks for a confirmation button                ephemeral
``draw``                               offer a draw, or accept the opponent's offer  public
``rematch``                            rematch of my last finished match here        public
``rules``                              rules summary and card reference              ephemeral
``history``                            my last finished matches in this server       ephemeral
``replay [match]``                     a finished match's animation (GIF)            public
``record [match]``                     a finished match's text record                public
``stats [user]``                       rating and results                            public
``leaderboard``                        the server's best ratings                     public
``settings [dm_hand]``                 show / change my settings (hand by DM)        ephemeral
=====================================  ============================================  ==========

Every handler acknowledges before touching the database or rendering (a "thinking" defer,
ephemeral where the answer is private); refusals are ephemeral. The match logic lives in
:mod:`bot.discord.flow`'s parts and :mod:`bot.match`.
"""

from __future__ import annotations

import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import engine
from engine import Side
from engine.messages import Text
from engine.notation import half_width
from engine.raptor_game import SEAT_SIDES, SIDE_SEATS
from render.replay import DEFAULT_BYTE_LIMIT, ReplayError

from .. import texts
from ..games.raptor import SIDE_WORDS
from ..games.raptor import sides as rs
from ..i18n import LANGUAGE_NAMES, resolve, tr, translator
from ..match import Match, MatchService, ServiceError, replays
from ..match.result_store import SeatRecord
from . import components, languages
from .flow import Flow
from .permissions import check_permissions
from .replay_viewer import viewer_page
from .replies import command_error, defer, fail, private, public_lang, reader_lang, say

log = logging.getLogger(__name__)

#: The game of the ``/raptor`` commands.
GAME = "raptor"

MAX_CHOICES = 25  # Discord: autocomplete choices
REPLAY_MARGIN = 64 * 1024  # bytes kept under the upload limit for the message itself
DM_COMMANDS = frozenset({"rules", "settings"})


def _log_command(interaction: discord.Interaction, name: str) -> None:
    log.info("/raptor %s by user %d in channel %s", name, interaction.user.id,
             interaction.channel_id)


class RaptorCog(commands.GroupCog, group_name="raptor",
                group_description="Play Raptor, the asymmetric board game, in this channel"):
    """Slash commands of the Raptor bot (one group, ``/raptor``)."""

    def __init__(self, bot: commands.Bot, service: MatchService, flow: Flow) -> None:
        self.bot = bot
        self.service = service
        self.flow = flow
        super().__init__()

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
                                         "`/raptor rules` and `/raptor settings`."))
            return False
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await command_error(interaction, error, "raptor")

    # ------------------------------------------------------------------ helpers
    async def _channel_match(self, interaction: discord.Interaction, *,
                             player: bool = False) -> tuple[Match, Side | None] | None:
        """The active match of this channel (and the user's side), or None after an
        ephemeral refusal."""
        match = await self.service.active_match(interaction.channel_id or 0)
        if match is None:
            elsewhere = [m for m in await self.service.active_matches(interaction.guild_id)
                         if rs.side_in(m, interaction.user.id) is not None]
            await fail(interaction, texts.match_elsewhere_text(elsewhere[0]) if elsewhere
                       else texts.NO_MATCH_HERE)
            return None
        side = rs.side_in(match, interaction.user.id)
        if player and side is None:
            await fail(interaction, Text("You are not playing in this channel's match: only "
                                         "its two players can do that."))
            return None
        return match, side

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
        _log_command(interaction, "challenge")
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
        _log_command(interaction, "practice")
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

    # ------------------------------------------------------------------ looking
    @app_commands.command(description="Show the board of this channel's match")
    async def board(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "board")
        await defer(interaction, ephemeral=False)
        if await self.service.active_match(interaction.channel_id or 0) is None:
            last = await self.service.last_finished(interaction.channel_id or 0)
            if last is not None:  # between matches: the last one's final board
                lang = await public_lang(interaction)
                png = await self.flow.images.board(last, lang)
                result = tr(texts.result_text(last), lang).split("\n")[0]
                await say(interaction, Text("{result}\nStart a new one with `/raptor challenge` "
                                            "or `/raptor practice`.", result=result),
                          ephemeral=False, png=png)
                return
        found = await self._channel_match(interaction)
        if found is None:
            return
        match, _ = found
        png = await self.flow.images.board(match, await public_lang(interaction))
        s = match.state
        waiting = [texts.player(match, sd) for sd in rs.waiting(match)]
        head = Text("**{title} · Round {n} · {phase}**", title=texts.match_title(match),
                    n=s.round, phase=texts.PHASE_NAMES[s.phase])
        content = (Text("{head} — waiting for {who}", head=head,
                        who=Text.joined(" and ", waiting)) if waiting else head)
        await say(interaction, content, ephemeral=False, png=png)

    @app_commands.command(description="Show your cards (only you can see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "hand")
        await defer(interaction, ephemeral=True)
        found = await self._channel_match(interaction, player=True)
        if found is None:
            return
        match, side = found
        assert side is not None
        await self.flow.hands.show_hand(interaction, match, side, use_dm=True)

    @app_commands.command(description="Whose decision it is, deadlines and the score")
    async def status(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "status")
        await defer(interaction, ephemeral=True)
        found = await self._channel_match(interaction)
        if found is None:
            return
        match, _ = found
        await say(interaction, tr(texts.status_text(match), await reader_lang(interaction))[:2000],
                  ephemeral=True)

    # ------------------------------------------------------------------ playing
    @app_commands.command(description="Make your decision by typing it, e.g. G2-G5, kill F3, "
                          "play 5, end")
    @app_commands.describe(action="The action in notation; start typing to see the legal ones")
    async def act(self, interaction: discord.Interaction,
                  action: app_commands.Range[str, 1, 100]) -> None:
        _log_command(interaction, "act")
        await defer(interaction, ephemeral=True)
        found = await self._channel_match(interaction, player=True)
        if found is None:
            return
        match, side = found
        if not await check_permissions(self.bot, interaction, match.channel_id):
            return
        if action.strip().lower() == "undo":  # as the Undo button of the turn message
            assert side is not None
            await self.flow.narrator.undo(interaction, match, side)
            await say(interaction, Text("Done: your last action is taken back."),
                      ephemeral=True)
            return
        result = await self.service.act(match.id, interaction.user.id, action)
        if isinstance(result.action, engine.Pick):
            done = Text("You picked **{card}** for round {n}.",
                        card=texts.card_label(rs.acted(result), result.action.card),
                        n=match.state.round)
        else:
            label = engine.describe_action(result.action, match.state, rs.acted(result))
            done = Text("Done: `{notation}` — {label}",
                        notation=engine.format_action(result.action), label=label)
        await say(interaction, done, ephemeral=True)
        await self.flow.narrator.after_human([result])

    @act.autocomplete("action")
    async def act_autocomplete(self, interaction: discord.Interaction,
                               current: str) -> list[app_commands.Choice[str]]:
        """The user's legal actions now (≤ 25), filtered by what they typed. Private: only the
        user who types sees the choices (their own picks included)."""
        match = await self.service.active_match(interaction.channel_id or 0)
        if match is None:
            return []
        side = rs.side_in(match, interaction.user.id)
        if side is None or side not in engine.to_act(match.state):
            return []
        return action_choices(match.state, side, current, await reader_lang(interaction))

    @app_commands.command(description="Resign this channel's match (asks for a confirmation)")
    async def resign(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "resign")
        await defer(interaction, ephemeral=True)
        found = await self._channel_match(interaction, player=True)
        if found is None:
            return
        match, _ = found
        await say(interaction, Text("Really resign {title}? Your opponent wins. Click "
                                    "**Resign** to confirm, or dismiss this message.",
                                    title=texts.match_title(match)), ephemeral=True,
                  view=components.resign_view(match.id, await reader_lang(interaction)))

    @app_commands.command(description="Offer a draw, or accept your opponent's offer")
    async def draw(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "draw")
        await defer(interaction, ephemeral=True)
        found = await self._channel_match(interaction, player=True)
        if found is None:
            return
        match, side = found
        assert side is not None
        if not await check_permissions(self.bot, interaction, match.channel_id):
            return
        after = await self.service.offer_draw(match.id, interaction.user.id)
        if not after.active:
            await say(interaction, Text("You accepted the draw."), ephemeral=True)
            await self.flow.narrator.finish(after, by=side)
            return
        await say(interaction, Text("Draw offered."), ephemeral=True)
        await self.flow.posts.post_draw_offer(after, side)

    @app_commands.command(description="Ask your last opponent in this channel for a rematch")
    async def rematch(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "rematch")
        await defer(interaction, ephemeral=False)
        recent = await self.service.history(interaction.guild_id, interaction.user.id, limit=20,
                                            game=GAME)
        here = [m for m in recent if m.channel_id == interaction.channel_id]
        if not here:
            await fail(interaction, Text("You have no finished match in this channel to "
                                         "rematch."))
            return
        await self.flow.clicks.start_rematch(interaction, here[0].id)

    # ------------------------------------------------------------------ information
    @app_commands.command(description="How to play, and what every card does")
    async def rules(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "rules")
        lang = await reader_lang(interaction)
        embeds = [
            discord.Embed(title=tr(Text("Raptor — the rules in short"), lang),
                          description=tr(texts.RULES_SUMMARY, lang),
                          colour=discord.Colour.dark_green()),
            discord.Embed(description=tr(texts.card_reference(Side.RAPTOR), lang),
                          colour=discord.Colour.orange()),
            discord.Embed(description=tr(texts.card_reference(Side.SCIENTIST), lang),
                          colour=discord.Colour.blue()),
        ]
        await say(interaction, ephemeral=True, embeds=embeds)

    @app_commands.command(description="Your last finished matches in this server")
    async def history(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "history")
        await defer(interaction, ephemeral=True)
        matches = await self.service.history(interaction.guild_id, interaction.user.id,
                                             game=GAME)
        if not matches:
            await say(interaction, Text("You have no finished matches in this server yet."),
                      ephemeral=True)
            return
        lines: list = [Text("**Your last matches**")]
        outcomes = {"draw": Text("draw"), "no result": Text("no result"), "won": Text("won"),
                    "lost": Text("lost")}
        for m in matches:
            side = rs.side_in(m, interaction.user.id)
            opponent = rs.user(m, side.other) if side else None
            if rs.result(m) == "draw":
                outcome = "draw"
            elif rs.result(m) is None:
                outcome = "no result"
            else:
                outcome = "won" if side and rs.result(m) == side.value else "lost"
            why = texts.history_reason(m, outcome)
            vs = texts.mention(opponent) if opponent else "?"
            lines.append(Text("{title} · {side} vs {vs} · **{outcome}** ({why}) · {when}",
                              title=texts.match_title(m),
                              side=SIDE_WORDS[side] if side else "?", vs=vs,
                              outcome=outcomes[outcome], why=why, when=texts.ts(m.updated_at)))
        await say(interaction, tr(Text.joined("\n", lines), await reader_lang(interaction))[:2000],
                  ephemeral=True)

    # ------------------------------------------------------------------ replays
    async def _finished(self, interaction: discord.Interaction, number: int | None
                        ) -> Match | None:
        """The finished match a replay or record names, or None after a refusal."""
        try:
            return await replays.finished_match(self.service, interaction.guild_id or 0,
                                                interaction.channel_id or 0, number)
        except ServiceError as exc:
            await fail(interaction, exc.message)
            return None

    async def _name(self, interaction: discord.Interaction, match: Match, side: Side) -> str:
        """A player's name for a record: the AI's level, a member's display name or the
        user's name (fetched when not cached), else the user id (a record is a file: no
        mentions)."""
        if rs.ai(match, side):
            return f"AI ({rs.ai(match, side)})"
        user_id = rs.user(match, side)
        member = interaction.guild.get_member(user_id) if interaction.guild else None
        user: discord.abc.User | None = member or self.bot.get_user(user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(user_id)
            except discord.HTTPException:
                return f"user {user_id}"
        return user.display_name

    @app_commands.command(description="Watch a finished match again, a frame per round")
    @app_commands.describe(match="A match number from /raptor history (default: this "
                                 "channel's last finished match)")
    async def replay(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        _log_command(interaction, "replay")
        await defer(interaction, ephemeral=False)
        m = await self._finished(interaction, match)
        if m is None:
            return
        views, verdict, winner = await replays.replay_views(self.service, m)
        limit = getattr(interaction, "filesize_limit", None) or DEFAULT_BYTE_LIMIT
        try:
            anim = await self.flow.images.replay(m, views, byte_limit=limit - REPLAY_MARGIN,
                                                 verdict=verdict, winner=winner,
                                                 lang=await public_lang(interaction),
                                                 requester=interaction.user.id)
        except ReplayError as exc:
            await fail(interaction, Text("No replay of {title}: {why}.",
                                         title=texts.match_title(m), why=str(exc)))
            return
        text = Text.plural("🎬 **Replay of {title}**: {n} round, a frame per round, ending on "
                           "the final board.", "🎬 **Replay of {title}**: {n} rounds, a frame "
                           "per round, ending on the final board.", len(views),
                           title=texts.match_title(m))
        if anim.note:
            text = Text("{text}\n{note}", text=text, note=anim.note)
        await say(interaction, text, ephemeral=False, png=anim.data,
                  filename=f"raptor-match-{m.id}.gif")
        # the step-through viewer, for the one who asked (its buttons survive a restart)
        page, png, buttons, _ = await viewer_page(self.bot, m, 0,
                                                  await reader_lang(interaction))
        await interaction.followup.send(page, ephemeral=True, view=buttons,
                                        file=discord.File(io.BytesIO(png), filename="round.png"),
                                        allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(description="The text record of a finished match (docs/RECORD.md)")
    @app_commands.describe(match="A match number from /raptor history (default: this "
                                 "channel's last finished match)")
    async def record(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1] | None = None) -> None:
        _log_command(interaction, "record")
        await defer(interaction, ephemeral=False)
        m = await self._finished(interaction, match)
        if m is None:
            return
        server = interaction.guild.name if interaction.guild else str(m.guild_id)
        text = await replays.record_text(
            self.service, m, server=server,
            players=[await self._name(interaction, m, side) for side in SEAT_SIDES])
        await say(interaction, Text("📜 **Record of {title}**: every decision, readable back "
                                    "by `python -m engine replay`.",
                                    title=texts.match_title(m)), ephemeral=False,
                  png=text.encode("utf-8"), filename=f"raptor-match-{m.id}.txt")

    @app_commands.command(description="A player's rating and results in this server")
    @app_commands.describe(user="Whose stats (default: you)")
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        _log_command(interaction, "stats")
        await defer(interaction, ephemeral=False)
        who = user or interaction.user
        st = await self.service.stats(interaction.guild_id, GAME, who.id)
        seats = {r.seat: r for r in await self.service.seat_records(interaction.guild_id, GAME,
                                                                    who.id)}
        raptor, scientist = (seats.get(seat, SeatRecord(seat, 0, 0, 0))
                             for seat in (SIDE_SEATS[Side.RAPTOR], SIDE_SEATS[Side.SCIENTIST]))
        text = Text.plural(
            "**{who}** · rating **{rating:.0f}** · {n} rated game: {wins} won, {losses} lost, "
            "{draws} drawn\nAs raptor {rw}–{rl} · as scientist {sw}–{sl}",
            "**{who}** · rating **{rating:.0f}** · {n} rated games: {wins} won, {losses} lost, "
            "{draws} drawn\nAs raptor {rw}–{rl} · as scientist {sw}–{sl}", st.games,
            who=who.mention, rating=st.rating, wins=st.wins, losses=st.losses, draws=st.draws,
            rw=raptor.wins, rl=raptor.losses, sw=scientist.wins, sl=scientist.losses)
        elo = await self.service.elo(interaction.guild_id, who.id)
        if elo is not None:  # a player rated before the move to OpenSkill: their old Elo
            text = Text("{text}\n{note}", text=text, note=Text(
                "Elo before the move to the new ratings: {rating:.0f}", rating=elo.rating))
        await say(interaction, text, ephemeral=False)

    @app_commands.command(description="The best-rated players of this server")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        _log_command(interaction, "leaderboard")
        await defer(interaction, ephemeral=False)
        rows = await self.service.leaderboard(interaction.guild_id, GAME, limit=10)
        if not rows:
            await say(interaction, Text("No rated games in this server yet: `/raptor challenge` "
                                        "someone!"), ephemeral=False)
            return
        lines: list = [Text("**Raptor leaderboard**")]
        for i, st in enumerate(rows, 1):
            lines.append(f"{i}. {texts.mention(st.user_id)} — **{st.rating:.0f}** "
                         f"({st.wins}–{st.losses}–{st.draws})")
        await say(interaction, Text.joined("\n", lines), ephemeral=False)

    @app_commands.command(description="Your settings: your hand by direct message, your "
                                      "language")
    @app_commands.describe(dm_hand="Send your hand to your DMs each round (default: off)",
                           language="The language of what only you see (default: your "
                                    "Discord's)")
    @app_commands.choices(language=languages.LANGUAGE_CHOICES)
    async def settings(self, interaction: discord.Interaction,
                       dm_hand: bool | None = None,
                       language: app_commands.Choice[str] | None = None) -> None:
        _log_command(interaction, "settings")
        await defer(interaction, ephemeral=True)
        uid = interaction.user.id
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
                         "whatever your Discord's language; `/raptor settings language:` "
                         "changes it back.", language=LANGUAGE_NAMES[chosen])
            await say(interaction, text, ephemeral=True)
            if dm_hand is None:
                return
        if dm_hand is None:
            current = await self.service.get_user_setting(uid, "dm_hand", False)
            await say(interaction, Text("Hand by DM: **on**. Change it with "
                                        "`/raptor settings dm_hand:True`.") if current else
                      Text("Hand by DM: **off**. Change it with "
                           "`/raptor settings dm_hand:True`."), ephemeral=True)
            return
        await self.service.set_user_setting(uid, "dm_hand", bool(dm_hand))
        if not dm_hand:
            await say(interaction, Text("Hand by DM: **off**. Your hand shows here, only to "
                                        "you."), ephemeral=True)
            return
        try:
            await interaction.user.send(await private(interaction, Text(
                "🦖 I'll send your Raptor hand here each round.")))
        except discord.Forbidden:
            await say(interaction, Text("Hand by DM: **on** — but I couldn't message you: your "
                                        "DMs are closed for this server. Until you open them "
                                        "I'll keep showing your hand here, only to you (with "
                                        "a notice)."), ephemeral=True)
            return
        await say(interaction, Text("Hand by DM: **on**. I sent you a test message."),
                  ephemeral=True)


def action_choices(state: engine.GameState, side: Side,
                   current: str, lang: str = "en") -> list[app_commands.Choice[str]]:
    """Autocomplete choices: the legal actions of ``side`` whose notation or label contains
    what was typed (case, spaces and full-width forms ignored), at most 25; name = label ·
    notation, value = notation."""
    typed = "".join(half_width(current).lower().split())
    out: list[app_commands.Choice[str]] = []
    for a in engine.legal_actions(state, side):
        notation = engine.format_action(a)
        label = tr(engine.describe_action(a, state, side), lang)
        hay = ("".join(notation.lower().split()), "".join(label.lower().split()))
        if typed and not any(typed in h for h in hay):
            continue
        out.append(app_commands.Choice(name=f"{label} · {notation}"[:100], value=notation))
        if len(out) >= MAX_CHOICES:
            break
    return out
