"""The component click handlers: one handler per button (or menu) meaning.

Every handler acknowledges first (a deferred update for a click on a public control, an
ephemeral "thinking" defer when the answer is a new private message), then loads the object
its control names (match, challenge, draw offer, replay) from the database and checks that
the click belongs to it — the clicked message's server, channel and message
(:mod:`bot.discord.ownership`; an id storage cannot hold is refused before any query) — then
checks the rest (player, stale round/version, phase, the bot's channel permissions), acts
through the match service, and lets :mod:`bot.discord.narration` post what followed.
Refusals are ephemeral and change nothing (:func:`~bot.discord.replies.guarded`).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from engine.game import Seat
from engine.messages import Text

from .. import games, texts
from ..match import (
    Challenge,
    ChallengeStatus,
    Match,
    MatchService,
    NotFoundError,
    Table,
    replays,
)
from ..match.challenges import rematch_seat
from .admin import may_end_matches, server_match
from .hands import Hands
from .links import match_link
from .narration import Narrator
from .ownership import Fit, Ownership, Place, storable
from .permissions import check_permissions
from .posts import Posts
from .presentation import ui_of
from .replay_viewer import viewer_page
from .replies import (
    NO_PINGS,
    defer,
    defer_update,
    fail,
    guarded,
    private,
    public,
    reader_lang,
    say,
)
from .shutdown import Gate
from .tables import table_controls, table_message

log = logging.getLogger(__name__)


class Clicks:
    """What each control does (the :class:`bot.discord.components.Clicks` protocol)."""

    def __init__(self, client: discord.Client, service: MatchService, posts: Posts,
                 narrator: Narrator, hands: Hands, gate: Gate) -> None:
        self.client = client
        self.gate = gate  # closed while the bot stops: then a click changes nothing
        self.service = service
        self.posts = posts
        self.narrator = narrator
        self.hands = hands
        self.ownership = Ownership(posts.store)
        #: each game's handlers of its own controls (its UI's ``make_clicks``), on first use
        self._games: dict[str, Any] = {}

    def of_game(self, game: str) -> Any:
        """The handlers of ``game``'s own controls
        (:meth:`~bot.discord.presentation.GameUI.make_clicks`)."""
        found = self._games.get(game)
        if found is None:
            found = self._games[game] = ui_of(game).make_clicks(self)
        return found

    # ------------------------------------------------------------------ loading & checks
    async def owned_match(self, interaction: discord.Interaction, game: str, match_id: int,
                          place: Place, what: str = "control") -> Match | None:
        """The match ``match_id`` of ``game`` (the game its custom id names) when the click
        belongs to it (a control of it shown at ``place``, :mod:`bot.discord.ownership`),
        else None after one ephemeral refusal: :data:`~bot.texts.NOT_THIS_MESSAGE`, or the
        out-of-date answer for the match's own message whose control ``what`` is gone. An id
        storage cannot hold is refused before any query."""
        match = None
        if storable(match_id):
            try:
                match = await self.service.get_match(match_id)
            except NotFoundError:
                match = None
        if match is not None and match.game != game:
            match = None  # another game's id: it names no match of that game
        fit = Fit.FOREIGN if match is None else await self.ownership.match_fit(
            interaction, match, place)
        if fit is Fit.FITS:
            return match
        log.info("match %d: a click by user %d that is not on its %s message refused",
                 match_id if match is not None else 0, interaction.user.id, place.value)
        if fit is Fit.STALE and match is not None:
            await self.stale(interaction, match, what)
        else:
            await fail(interaction, texts.NOT_THIS_MESSAGE)
        return None

    async def _on_own_message(self, interaction: discord.Interaction, game: str,
                              row_id: int, load: Callable[[int], Awaitable[Any]],
                              what: str) -> Any:
        """The challenge or table ``row_id`` of ``game`` (``load``, the service's getter)
        when the click is on its own message (:meth:`Ownership.own_message_fit`), else None
        after the ephemeral :data:`~bot.texts.NOT_THIS_MESSAGE` (an id storage cannot hold
        refused before any query)."""
        found = None
        if storable(row_id):
            try:
                found = await load(row_id)
            except NotFoundError:
                found = None
        if (found is not None and found.game == game
                and Ownership.own_message_fit(interaction, found) is Fit.FITS):
            return found
        log.info("a click by user %d that is not on its %s's message refused",
                 interaction.user.id, what)
        await fail(interaction, texts.NOT_THIS_MESSAGE)
        return None

    async def _owned_challenge(self, interaction: discord.Interaction, game: str,
                               challenge_id: int) -> Challenge | None:
        """The challenge ``challenge_id``, when the click is on its own message."""
        return await self._on_own_message(interaction, game, challenge_id,
                                          self.service.get_challenge, "challenge")

    async def player_match(self, interaction: discord.Interaction, game: str, match_id: int,
                           place: Place, what: str = "control") -> tuple[Match, Seat] | None:
        """The match and the user's seat, or None after an ephemeral refusal (a click that
        does not belong to the match, not a player, match over)."""
        match = await self.owned_match(interaction, game, match_id, place, what)
        if match is None:
            return None
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            await fail(interaction, texts.NOT_YOUR_MATCH)
            return None
        if not match.active:
            await fail(interaction, Text("{text}{jump}", text=texts.MATCH_OVER,
                                         jump=await self.dm_jump(interaction, match, " ")))
            return None
        return match, seat

    async def dm_jump(self, interaction: discord.Interaction, match: Match,
                       before: str = "") -> Text | str:
        """For a click in a DM, where no game's command runs: ``before`` and the link to
        the match (:func:`bot.discord.links.match_link`); elsewhere an empty string."""
        if interaction.guild_id is not None:
            return ""
        return Text("{before}{link}", before=before,
                    link=texts.to_match(ui_of(match.game).title(match),
                                                await match_link(self.posts.store, match)))

    async def stale(self, interaction: discord.Interaction, match: Match, what: str,
                    extra: Text | str = "") -> None:
        """Refuse an out-of-date control ``what``: in a DM with the link to the match
        instead of ``/<game> status``."""
        jump = await self.dm_jump(interaction, match)
        await fail(interaction, Text("{stale}{extra}",
                                     stale=texts.stale_text(what, group=match.game,
                                                            jump=jump or None),
                                     extra=extra))

    async def decision_match(self, interaction: discord.Interaction, game: str,
                             match_id: int, version: int, place: Place = Place.CHANNEL
                             ) -> tuple[Match, Seat] | None:
        """Like :meth:`player_match`, also refusing a stale control (another version) and a
        player who has nothing to decide."""
        found = await self.player_match(interaction, game, match_id, place)
        if found is None:
            return None
        match, seat = found
        if match.version != version:
            await self.stale(interaction, match, "control")
            return None
        acting = match.to_act()
        if seat not in acting:
            seat = next((s for s in match.seats_of(interaction.user.id) if s in acting), seat)
        if seat not in acting:  # who is awaited, in the game's words (any number of seats)
            await fail(interaction, games.plugin(match.game).waiting_text(
                match.state, seat, match.seats))
            return None
        return match, seat

    # ------------------------------------------------------------------ challenges
    @guarded
    async def accept_challenge(self, interaction: discord.Interaction, game: str,
                               challenge_id: int) -> None:
        """Accept: the challenged player starts the match, in the challenge's channel, from
        the challenge's message (which the click is on: :meth:`_owned_challenge`)."""
        await defer_update(interaction)
        found = await self._owned_challenge(interaction, game, challenge_id)
        if found is None or not await check_permissions(self.client, interaction,
                                                        found.channel_id):
            return
        log.info("challenge %d: accept by user %d", challenge_id, interaction.user.id)
        match = await self.service.accept_challenge(challenge_id, interaction.user.id)
        ch = await self.service.get_challenge(challenge_id)
        assert ch.message_id is not None  # the click is on it
        ui = ui_of(match.game)
        text = await public(interaction, Text(
            "{closed}\n{line}\n{help}",
            closed=texts.challenge_closed_text(ch, ChallengeStatus.ACCEPTED),
            line=ui.start_line(match), help=ui.start_help(match)))
        await interaction.edit_original_response(content=text, view=None,
                                                 allowed_mentions=NO_PINGS)
        await self.narrator.begin(match, interaction, started_by=interaction.user.id,
                                  start_text=text, start_message_id=ch.message_id)

    @guarded
    async def decline_challenge(self, interaction: discord.Interaction, game: str,
                                challenge_id: int) -> None:
        """Decline: the challenged player says no."""
        await defer_update(interaction)
        if await self._owned_challenge(interaction, game, challenge_id) is None:
            return
        log.info("challenge %d: decline by user %d", challenge_id, interaction.user.id)
        ch = await self.service.decline_challenge(challenge_id, interaction.user.id)
        await interaction.edit_original_response(
            content=await public(interaction, texts.challenge_closed_text(ch, ch.status)),
            view=None, allowed_mentions=NO_PINGS)

    @guarded
    async def cancel_challenge(self, interaction: discord.Interaction, game: str,
                               challenge_id: int) -> None:
        """Cancel: the challenger withdraws."""
        await defer_update(interaction)
        if await self._owned_challenge(interaction, game, challenge_id) is None:
            return
        log.info("challenge %d: cancel by user %d", challenge_id, interaction.user.id)
        ch = await self.service.cancel_challenge(challenge_id, interaction.user.id)
        await interaction.edit_original_response(
            content=await public(interaction, texts.challenge_closed_text(ch, ch.status)),
            view=None, allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------------ tables
    async def _owned_table(self, interaction: discord.Interaction, game: str,
                           table_id: int) -> Table | None:
        """The table ``table_id``, when the click is on its own message."""
        return await self._on_own_message(interaction, game, table_id,
                                          self.service.get_table, "table")

    async def show_table(self, interaction: discord.Interaction, table: Table) -> None:
        """Bring the table's message (the one clicked) up to date: its seats and controls
        while open, why it closed otherwise."""
        await interaction.edit_original_response(
            content=await public(interaction, table_message(table)),
            view=await table_controls(self.service, table, interaction),
            allowed_mentions=NO_PINGS)

    @guarded
    async def table_button(self, interaction: discord.Interaction, game: str, table_id: int,
                           what: str) -> None:
        """Join or Leave (anyone), Remove an AI, Cancel or Start (the host; the service
        refuses the others) a table, on its own message."""
        await defer_update(interaction)
        table = await self._owned_table(interaction, game, table_id)
        if table is None:
            return
        user_id = interaction.user.id
        log.info("table %d: %s by user %d", table_id, what, user_id)
        if what == "start":
            await self._start_table(interaction, table)
            return
        change = {"join": self.service.join_table, "leave": self.service.leave_table,
                  "unseat": self.service.unseat_table_ai,
                  "cancel": self.service.cancel_table}[what]
        await self.show_table(interaction, await change(table_id, user_id))

    @guarded
    async def seat_table_ai(self, interaction: discord.Interaction, game: str, table_id: int,
                            level: str) -> None:
        """The host seats the AI at ``level`` (the service checks the level and the host)."""
        await defer_update(interaction)
        if await self._owned_table(interaction, game, table_id) is None:
            return
        log.info("table %d: AI seated by user %d", table_id, interaction.user.id)
        await self.show_table(interaction, await self.service.seat_table_ai(
            table_id, interaction.user.id, level))

    async def _start_table(self, interaction: discord.Interaction, table: Table) -> None:
        """The host starts the table's match in the table's channel, from its message."""
        if not await check_permissions(self.client, interaction, table.channel_id):
            return
        me = self.client.user
        assert me is not None
        match = await self.service.start_table(table.id, interaction.user.id,
                                               ai_user_id=me.id)
        table = await self.service.get_table(table.id)
        ui = ui_of(match.game)
        text = await public(interaction, Text(
            "{closed}\n{line}\n{help}", closed=table_message(table), line=ui.start_line(match),
            help=ui.start_help(match)))
        await interaction.edit_original_response(content=text, view=None,
                                                 allowed_mentions=NO_PINGS)
        assert table.message_id is not None  # the click is on it
        await self.narrator.begin(match, interaction, started_by=interaction.user.id,
                                  start_text=text, start_message_id=table.message_id)

    # ------------------------------------------------------------------ private views
    @guarded
    async def open_hand(self, interaction: discord.Interaction, game: str, match_id: int,
                        key: int) -> None:
        """The player's private view, privately (Raptor: "Pick your card", the hand);
        ``key``: the card the button was on."""
        await defer(interaction, ephemeral=True)
        found = await self.player_match(interaction, game, match_id, Place.CHANNEL, "button")
        if found is None:
            return
        match, seat = found
        ui = ui_of(match.game)
        now = ui.card_key(match)
        if now != key:
            await self.stale(interaction, match, "button", ui.stale_key(key, now))
            return
        await self.hands.show_hand(interaction, match, seat)

    # ------------------------------------------------------------------ decisions
    @guarded
    async def choose_action(self, interaction: discord.Interaction, game: str, match_id: int,
                            version: int, notation: str) -> None:
        """An action chosen in a menu (its notation), or the action ``end`` (Raptor: End
        turn / Stop the effect)."""
        await defer_update(interaction)
        found = await self.decision_match(interaction, game, match_id, version)
        if found is None:
            return
        match, seat = found
        if not await check_permissions(self.client, interaction, match.channel_id):
            return
        result = await self.service.act(match_id, interaction.user.id, notation,
                                        expected_version=version, seat=seat)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.edit_original_response(
                content=await private(interaction, Text("Done: `{notation}`",
                                                        notation=notation)), view=None)
        await self.narrator.after_human([result])

    @guarded
    async def open_group(self, interaction: discord.Interaction, game: str, match_id: int,
                         version: int, key: str) -> None:
        """A group chosen in the group menu (Raptor: a figurine or an area): its actions,
        privately."""
        await defer(interaction, ephemeral=True)
        await self._show_group(interaction, game, match_id, version, key, 0, new=True)

    @guarded
    async def turn_page(self, interaction: discord.Interaction, game: str, match_id: int,
                        version: int, key: str, page: int) -> None:
        """Previous / next page of a group's actions (the same private message)."""
        await defer_update(interaction)
        await self._show_group(interaction, game, match_id, version, key, page, new=False)

    async def _show_group(self, interaction: discord.Interaction, game: str, match_id: int,
                          version: int, key: str, page: int, *, new: bool) -> None:
        """A group's page: a new ephemeral message (from the card's menu), or the clicked
        private message edited (a page button: it must be one of the clicker's own)."""
        found = await self.decision_match(interaction, game, match_id, version,
                                          Place.CHANNEL if new else Place.PRIVATE)
        if found is None:
            return
        match, seat = found
        built = ui_of(match.game).group_view(match, seat, key, page,
                                             await reader_lang(interaction))
        if built is None:
            await self.stale(interaction, match, "menu")
            return
        view, title = built
        if new:
            await say(interaction, title, ephemeral=True, view=view)
        else:
            await interaction.edit_original_response(content=title, view=view)

    @guarded
    async def undo(self, interaction: discord.Interaction, game: str, match_id: int,
                   version: int) -> None:
        """Undo: take back the player's last decision (Raptor: an action point spent)."""
        await defer_update(interaction)
        found = await self.decision_match(interaction, game, match_id, version)
        if found is None:
            return
        match, seat = found
        await self.narrator.undo(interaction, match, seat, expected_version=version)

    # ------------------------------------------------------------------ endings
    @guarded
    async def resign(self, interaction: discord.Interaction, game: str, match_id: int) -> None:
        """Resign (the confirmation of the ``resign`` command): the player leaves the match
        (Raptor: the opponent wins)."""
        log.info("match %d: resign button by user %d", match_id, interaction.user.id)
        await defer_update(interaction)
        found = await self.player_match(interaction, game, match_id, Place.PRIVATE, "button")
        if found is None:
            return
        match, seat = found
        after = await self.service.resign(match_id, interaction.user.id)
        await interaction.edit_original_response(
            content=await private(interaction, Text("You resigned.")), view=None)
        if after.active:  # a game that goes on without the seat
            await self.narrator.seat_left(after, seat)
        else:
            await self.narrator.finish(after, by=seat)

    @guarded
    async def end_match(self, interaction: discord.Interaction, game: str,
                        match_id: int) -> None:
        """End match (the confirmation of ``/raptor-admin end``): no result, unrated. The
        match must be in progress in the clicker's server (the rule of ``/raptor-admin end``,
        :func:`~bot.discord.admin.server_match`), the confirmation an ephemeral message there,
        and the clicker must hold Manage Server now (:func:`~bot.discord.admin.
        may_end_matches`)."""
        log.info("match %d: end button by user %d", match_id, interaction.user.id)
        await defer_update(interaction)
        if not storable(match_id) or interaction.guild_id is None:
            await fail(interaction, texts.NOT_THIS_MESSAGE)
            return
        match = await server_match(self.service, interaction.guild_id, match_id)
        if (match.game != game or await self.ownership.match_fit(
                interaction, match, Place.SERVER) is not Fit.FITS):
            await fail(interaction, texts.NOT_THIS_MESSAGE)
            return
        if not may_end_matches(interaction):
            await fail(interaction, texts.END_NEEDS_MANAGE_SERVER)
            return
        after = await self.service.end_by_moderator(match_id)
        await interaction.edit_original_response(
            content=await private(interaction, Text("You ended {title}: no result, not rated.",
                                                    title=ui_of(after.game).title(after))),
            view=None)
        await self.narrator.finish(after, extra=Text("Ended by {who}, a moderator.",
                                                     who=interaction.user.mention))

    @guarded
    async def accept_draw(self, interaction: discord.Interaction, game: str,
                          match_id: int) -> None:
        """Accept draw: the match ends as a draw."""
        log.info("match %d: draw-accept button by user %d", match_id, interaction.user.id)
        await defer_update(interaction)
        found = await self.player_match(interaction, game, match_id, Place.OFFER, "button")
        if found is None:
            return
        match, seat = found
        after = await self.service.accept_draw(match_id, interaction.user.id)
        await self.posts.forget_clicked(interaction)
        await interaction.edit_original_response(
            content=await public(interaction, Text("{player} accepted the draw.",
                                                   player=ui_of(game).player(match, seat))),
            view=None, allowed_mentions=NO_PINGS)
        await self.narrator.finish(after, by=seat)

    @guarded
    async def decline_draw(self, interaction: discord.Interaction, game: str,
                           match_id: int) -> None:
        """Decline draw; the offer's own author clicking it takes the offer back."""
        log.info("match %d: draw-decline button by user %d", match_id, interaction.user.id)
        await defer_update(interaction)
        found = await self.player_match(interaction, game, match_id, Place.OFFER, "button")
        if found is None:
            return
        match, seat = found
        withdrawn = match.draw_offered_by == interaction.user.id
        await self.service.decline_draw(match_id, interaction.user.id)
        await self.posts.forget_clicked(interaction)
        player = ui_of(game).player(match, seat)
        said = (Text("{player} withdrew the draw offer; play on.", player=player) if withdrawn
                else Text("{player} declined the draw; play on.", player=player))
        await interaction.edit_original_response(
            content=await public(interaction, said), view=None, allowed_mentions=NO_PINGS)

    # ------------------------------------------------------------------ rematch
    @guarded
    async def rematch(self, interaction: discord.Interaction, game: str, match_id: int) -> None:
        """Rematch (under a result, in the match's channel): :meth:`start_rematch`."""
        log.info("match %d: rematch button by user %d", match_id, interaction.user.id)
        await defer(interaction, ephemeral=False)
        if await self.owned_match(interaction, game, match_id, Place.CHANNEL, "button") is None:
            return
        await self.start_rematch(interaction, match_id)

    async def start_rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """A rematch of a finished match (the rule: :func:`bot.match.challenges.rematch_seat`):
        a new challenge to the opponent (sides swapped), or a new practice game with the
        sides swapped when the opponent was the AI.

        Raises:
            ServiceError: the user may not have that rematch (not a player, still playing).
        """
        await defer(interaction, ephemeral=False)
        old = await self.service.get_match(match_id)
        rematch_seat(old, interaction.user.id)
        if not await check_permissions(self.client, interaction, old.channel_id):
            return
        if old.practice:
            me = self.client.user
            assert me is not None
            match = await self.service.rematch_practice(match_id, interaction.user.id,
                                                        ai_user_id=me.id)
            await self.narrator.begin(match, interaction, started_by=interaction.user.id)
            return
        ch = await self.service.rematch(match_id, interaction.user.id)
        await self.posts.post_challenge(interaction, ch)
        self.narrator.poke()

    # ------------------------------------------------------------------ the replay viewer
    @guarded
    async def replay_step(self, interaction: discord.Interaction, game: str, match_id: int,
                          index: int) -> None:
        """⏮ ◀ ▶ ⏭ of the step-through viewer (:mod:`bot.discord.replay_viewer`): frame
        ``index`` of the finished match, in the clicked viewer, which must be an ephemeral
        message in the match's server (never a DM: no viewer is sent there)."""
        await defer_update(interaction)
        if not storable(match_id) or interaction.guild_id is None:
            await fail(interaction, texts.NOT_THIS_MESSAGE)
            return
        m = await replays.finished_match(self.service, interaction.guild_id,
                                         interaction.channel_id or 0, match_id)
        if m.game != game or await self.ownership.match_fit(
                interaction, m, Place.SERVER) is not Fit.FITS:
            await fail(interaction, texts.NOT_THIS_MESSAGE)
            return
        text, png, view, _ = await viewer_page(self.client, m, index,
                                               await reader_lang(interaction))
        await interaction.edit_original_response(
            content=text, attachments=[discord.File(io.BytesIO(png), filename="round.png")],
            view=view)
