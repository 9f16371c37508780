"""A game's face on Discord: :class:`GameUI`, what the platform's Discord layer asks of each
game, and :func:`ui_of`, which finds a match's.

The platform owns the frame of a match on Discord — the lobby and challenges, the thread,
the live card (one message edited in place, a new one when the game's :meth:`card_key`
changes), the pings, the timers and reminders, the private views by ephemeral reply or DM,
resign/draw/end, records and replays — and fills it with what the game says: its sentences,
its images, its controls. A game's package supplies a ``UI`` object (the module named by its
plug-in's ``ui_module``, :class:`bot.games.base.GamePlugin`); the platform imports no game's
package otherwise.

Every sentence is a :class:`~engine.messages.Text` (the platform writes it in the reader's
language); images are drawn in render worker processes by a picklable function of the
game's renderer (:class:`ImageJob`); controls are ``discord.ui`` items whose custom ids begin
with the game's name. Hidden information stays the game's to cut: the public texts, the
public image and the card's controls are made from the public view; the private ones are
asked for one seat and sent only to its player.
"""

from __future__ import annotations

import importlib
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from engine.game import Seat
from engine.messages import Text

from .. import games, texts
from ..i18n import ENGLISH
from ..match import Challenge, Match


@dataclass(frozen=True)
class ImageJob:
    """An image to draw in a render worker: ``draw(arg(), **kwargs, tr=...)`` returns PNG
    bytes, its sentences in the reader's language (``tr``, left out for English); ``draw``
    must be a module-level function (it crosses to a worker process), what ``arg`` returns
    and ``kwargs`` picklable. ``key``: what the image shows, so that equal keys share one
    drawing (a public image: the match and its version; a private one: what it draws, its
    owner included); ``arg`` is called only when the image is not drawn yet."""

    draw: Callable[..., bytes]
    key: Hashable
    arg: Callable[[], Any]
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Replay:
    """A finished match told again, as its game tells it: ``frames`` (picklable: the public
    positions to draw, the last the final one), ``animate(frames, *, byte_limit, tr=,
    **kwargs)`` (module-level: the animated GIF, an object with ``data`` — its bytes —,
    ``frames`` — how many it holds — and ``note`` — a sentence when frames were scaled down
    or left out to fit, else None), ``draw_frame(frame, *, total, final, tr=, **kwargs)``
    (module-level: one frame as PNG bytes, for the step-through viewer), ``kwargs`` both
    drawers' options (picklable; a verdict's banner as a Text, written in the worker) and
    ``caption(index, total)``, a frame's story in words."""

    frames: Sequence[Any]
    animate: Callable[..., Any]
    draw_frame: Callable[..., bytes]
    caption: Callable[[int, int], Text]
    kwargs: dict[str, Any] = field(default_factory=dict)


MAX_CHOICES = 25  # Discord: autocomplete choices


def action_choices(actions: Iterable[tuple[str, str]],
                   current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete choices: of ``actions`` (``(notation, label)`` pairs, in order), those
    whose notation or label contains what was typed (case, spaces and full-width forms
    ignored: NFKC), at most 25; name = label · notation, value = notation."""
    typed = "".join(unicodedata.normalize("NFKC", current).lower().split())
    out: list[app_commands.Choice[str]] = []
    for notation, label in actions:
        hay = ("".join(notation.lower().split()), "".join(label.lower().split()))
        if typed and not any(typed in h for h in hay):
            continue
        out.append(app_commands.Choice(name=f"{label} · {notation}"[:100], value=notation))
        if len(out) >= MAX_CHOICES:
            break
    return out


class GameUI:
    """One game's presentation on Discord. Subclasses fill it in; the methods here that
    return something are the ones a game may leave as they are."""

    #: The game's registry name: the first word of its custom ids and its command group.
    game: str = ""
    #: The game's Discord components (:class:`discord.ui.DynamicItem` classes), registered
    #: by the bot beside the platform's.
    dynamic_items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()
    #: Whether the turn comes back to a person several times under one card (a card per
    #: round of a game of three or four seats taking turns): then a person is pinged, and
    #: dealt their private view by DM, each time the turn passes to them, instead of once
    #: per card (:class:`bot.discord.card.Cards`).
    turns_come_round: bool = False

    # ------------------------------------------------------------------ a match in words
    def player(self, m: Match, seat: Seat) -> Text:
        """A seat's player in a sentence: their mention and their seat ("@a (raptor)"); the
        AI with its level."""
        name = games.plugin(m.game).seat_name(seat, m.seats)
        level = m.ai_of(seat)
        if level is not None:
            return Text("{mention} ({side}, AI {level})", mention=texts.mention(m.user_of(seat)),
                        side=name, level=texts.LEVEL_WORDS.get(level, level))
        return Text("{mention} ({side})", mention=texts.mention(m.user_of(seat)), side=name)

    def title(self, m: Match) -> Text:
        """The match's name in sentences ("Match #7")."""
        return Text("Match #{id}", id=m.id)

    def start_line(self, m: Match) -> Text:
        """The line that announces the new match ``m``."""
        raise NotImplementedError

    def start_help(self, m: Match) -> Text:
        """The line under the start line: where the match is played and how."""
        raise NotImplementedError

    def challenge_text(self, ch: Challenge) -> Text:
        """The public message of a challenge to a match of this game (its options, whom it
        challenges, its expiry)."""
        raise NotImplementedError

    def options_text(self, options: Mapping[str, str]) -> Text | str:
        """A new match's options in a sentence (a table's message): by default
        ``"board: jungle"``, the options by name."""
        return Text.joined(", ", [f"{name}: {value}" for name, value in options.items()])

    def thread_name(self, m: Match) -> Text:
        """The name of the match's thread (at most 100 characters)."""
        return Text("{game} match #{id}", game=games.plugin(m.game).title, id=m.id)

    def parent_line(self, m: Match, card_url: str | None) -> Text:
        """The match's one line in the channel its thread hangs from: players, progress
        (then the result) and a link to the card."""
        raise NotImplementedError

    def players(self, m: Match) -> Text:
        """Every seat's player, in seat order ("@a (player 1), @b (player 2)")."""
        return Text.joined(", ", [self.player(m, seat) for seat in range(m.seats)])

    def admin_line(self, m: Match) -> Text:
        """The match in a moderator's list of matches in progress (its number, channel,
        players and progress; the platform adds whom it waits for and the deadline)."""
        return Text("#{id} in {channel} · {players}", id=m.id, channel=f"<#{m.channel_id}>",
                    players=self.players(m))

    def end_question(self, m: Match) -> Text:
        """A moderator's confirmation before ending ``m`` without a result."""
        return Text("End {title} ({players}) without a result? Nobody wins and no rating "
                    "changes. Click **End match** to confirm, or dismiss this message.",
                    title=self.title(m), players=self.players(m))

    def result_text(self, m: Match) -> Text:
        """The finished match's result, its first line naming who won and how."""
        raise NotImplementedError

    def status_text(self, m: Match) -> Text:
        """Where the match stands: whose decision, the deadline, the score (public)."""
        raise NotImplementedError

    def reminder_text(self, m: Match, user_ids: Sequence[int]) -> Text:
        """The half-time reminder to ``user_ids``, who must decide."""
        raise NotImplementedError

    def ping_text(self, m: Match, seat: Seat) -> Text:
        """The one short message telling ``seat``'s player the turn passed to them."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the live card
    def card_key(self, m: Match) -> int:
        """Which card the match is on: a new card is posted when this changes (Raptor: the
        round), the old one becoming :meth:`card_closed`."""
        raise NotImplementedError

    def card_content(self, m: Match, deadline: float | None) -> Text:
        """The card's text while the match goes on: whose move, what to decide, the
        ``deadline`` (Unix seconds, None when nobody has one)."""
        raise NotImplementedError

    def card_heading(self, m: Match) -> Text:
        """The card's first line (the match and where it is), shown alone once it is over."""
        raise NotImplementedError

    def card_story(self, m: Match) -> Text:
        """The card's embed: the story of its key so far (public events) and the score."""
        raise NotImplementedError

    def card_colour(self, m: Match) -> discord.Colour:
        """The colour of the card's embed now (e.g. the seat to move)."""
        return discord.Colour.dark_green()

    def card_closed(self, m: Match, key: int) -> Text:
        """What the card of the finished ``key`` becomes (no image, no controls): its
        summary."""
        raise NotImplementedError

    def card_over(self) -> Text:
        """What the card says once the match is over, after its heading."""
        return Text("the match is over: the final board, and the result below.")

    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """The card's controls now (public: made from what everybody may know), None when
        there are none (the AI decides, the match is over)."""
        raise NotImplementedError

    def group_view(self, m: Match, seat: Seat, key: str, page: int, lang: str = ENGLISH
                   ) -> tuple[discord.ui.View, str] | None:
        """The ephemeral menus of one group of ``seat``'s legal actions (a choice in the
        card's :class:`~bot.discord.components.GroupSelect`), page ``page``, and their
        title; None when that group has no legal action now."""
        return None

    def stale_key(self, key: int, now: int) -> Text | str:
        """Why a control made for card ``key`` is out of date now that the match is on card
        ``now`` (added to the "out of date" answer)."""
        return ""

    # ------------------------------------------------------------------ images
    def board(self, m: Match, verdict: str | None) -> ImageJob:
        """The public image of the match now (from its public view only), with ``verdict``
        as its banner (a match ended outside the game) when given."""
        raise NotImplementedError

    def private_image(self, m: Match, seat: Seat) -> ImageJob | None:
        """The image of what only ``seat``'s player sees (a hand, a secret card), or None."""
        return None

    async def replay(self, service: Any, m: Match) -> Replay:
        """The finished match ``m`` told again (its action log read through ``service``,
        :class:`bot.match.MatchService`), from public positions only.

        Raises:
            ServiceError: the match ended before there was anything to show.
        """
        raise NotImplementedError

    def replay_said(self, m: Match, frames: int) -> Text:
        """The line posted with the animation of ``m``, of ``frames`` frames."""
        return Text.plural("🎬 **Replay of {title}**: {n} frame, ending on the final board.",
                           "🎬 **Replay of {title}**: {n} frames, ending on the final board.",
                           frames, title=self.title(m))

    def board_verdict(self, m: Match) -> Text | None:
        """The banner of the final public image of a match that ended outside the game (a
        resignation, a timeout, a moderator); None otherwise."""
        return None

    # ------------------------------------------------------------------ private views
    def private_heading(self, m: Match, seat: Seat) -> Text:
        """The first line of ``seat``'s private view (kept when a DM copy is retired)."""
        raise NotImplementedError

    def private_text(self, m: Match, seat: Seat, *, listed: bool, in_dm: bool,
                     jump: Text | None) -> Text:
        """``seat``'s private view in words: what they hold (listed in full when
        ``listed``: the image could not be made), what to do with it, and in a DM the link
        back to the match (``jump``)."""
        raise NotImplementedError

    def private_controls(self, m: Match, seat: Seat, lang: str = ENGLISH
                         ) -> discord.ui.View | None:
        """Controls that go with ``seat``'s private view (they name what only that player
        may see, e.g. the cards of a hand), or None."""
        return None

    def private_done(self, m: Match, seat: Seat, action: Any) -> Text | None:
        """The line a DM private view of ``seat`` is retired with once its player made the
        decision ``action`` it was for, anywhere (Raptor: the card picked); None when that
        decision leaves it as it is."""
        return None

    def log_step(self, m: Match, seat: Seat, action: Any) -> str:
        """The decision ``action`` of ``seat`` as a log line tells it: its kind and the
        seat only, never hidden information (a secret pick's value, a card drawn)."""
        return f"{type(action).__name__} by seat {seat}"

    def deal_seats(self, m: Match) -> frozenset[Seat]:
        """The seats whose private view is sent by DM now to a player who asked for it
        (``/… settings dm_hand``), once per card: Raptor's pickers while they pick."""
        return frozenset()


    # ------------------------------------------------------------------ its commands
    #: The game's command group (a :class:`bot.discord.commands.GameCog` subclass).
    cog: type | None = None

    def no_match_here(self) -> Text:
        """A command of the group typed in a channel without a match."""
        return Text("There is no match in this channel. Start one with `/{group} table`.",
                    group=self.game)

    def start_hint(self) -> Text:
        """How to start a new match (under the last match's board)."""
        return Text("Start a new one with `/{group} table`.", group=self.game)

    def board_caption(self, m: Match) -> Text:
        """The line posted with the public image of the match in progress."""
        waiting = [self.player(m, seat) for seat in sorted(m.waiting_for())]
        head = Text("**{title}**", title=self.title(m))
        return (Text("{head} — waiting for {who}", head=head,
                     who=Text.joined(" and ", waiting)) if waiting else head)

    def done_text(self, before: Match, result: Any) -> Text:
        """The private answer to a decision typed (``act``): what was played."""
        notation = games.plugin(before.game).game.format_action(result.action)
        return Text("Done: `{notation}`", notation=notation)

    def action_choices(self, m: Match, seat: Seat, current: str,
                       lang: str = ENGLISH) -> list[Any]:
        """``act``'s autocomplete for ``seat``: its legal actions (notation and label)
        filtered by what was typed (:func:`action_choices`)."""
        rules = games.plugin(m.game).game
        return action_choices(((rules.format_action(a), rules.format_action(a))
                               for a in rules.legal_actions(m.state, seat)), current)

    def rules(self, lang: str = ENGLISH) -> list[discord.Embed]:
        """The game's rules in short (``rules``: ephemeral embeds in the reader's
        language)."""
        raise NotImplementedError

    def history_line(self, m: Match, user_id: int) -> Text:
        """The finished match ``m`` in ``user_id``'s history: who played, their place."""
        me = next(p for p in m.players if p.user_id == user_id)
        place = (Text("no result") if me.place is None else
                 Text("place {n} of {seats}", n=me.place, seats=m.seats))
        return Text("{title} · {players} · **{place}** · {when}", title=self.title(m),
                    players=self.players(m), place=place, when=texts.ts(m.updated_at))

    async def stats_text(self, service: Any, who: str, stats: Any, seats: Any) -> Text:
        """A player's rated record of the game (``stats``): ``who`` their mention,
        ``stats`` their :class:`~bot.match.PlayerStats`, ``seats`` their tallies per seat."""
        return Text.plural(
            "**{who}** · rating **{rating:.0f}** · {n} rated game: {wins} won, {losses} lost, "
            "{draws} drawn", "**{who}** · rating **{rating:.0f}** · {n} rated games: {wins} "
            "won, {losses} lost, {draws} drawn", stats.games, who=who, rating=stats.rating,
            wins=stats.wins, losses=stats.losses, draws=stats.draws)

    def no_rated_games(self) -> Text:
        """The leaderboard of a server where nobody was rated yet."""
        return Text("No rated games in this server yet: `/{group} table` to play one!",
                    group=self.game)

    def resign_question(self, m: Match) -> Text:
        """The confirmation asked before resigning ``m``."""
        return Text("Really resign {title}? You leave the match. Click **Resign** to confirm, "
                    "or dismiss this message.", title=self.title(m))

    def record_said(self, m: Match) -> Text:
        """The line posted with the text record of the finished ``m``."""
        return Text("📜 **Record of {title}**: every decision.", title=self.title(m))

    def dm_hello(self) -> Text:
        """The test message sent by DM when a player turns ``dm_hand`` on."""
        return Text("I'll send your hand here when it is yours to see.")

    def make_clicks(self, clicks: Any) -> Any:
        """The handlers of the game's own controls (:attr:`dynamic_items`), built once per
        bot on the platform's handlers ``clicks`` (:class:`bot.discord.clicks.Clicks`,
        whose checks they use); None when the game has no control of its own."""
        return None


def ui_of(game: str) -> GameUI:
    """The presentation of the game ``game`` (its plug-in's ``ui_module``'s ``UI``).

    Raises:
        bot.games.UnknownGameError: no such game.
    """
    return _load(games.plugin(game).ui_module)


_uis: dict[str, GameUI] = {}


def _load(module: str) -> GameUI:
    found = _uis.get(module)
    if found is None:
        found = _uis[module] = importlib.import_module(module).UI
    return found
