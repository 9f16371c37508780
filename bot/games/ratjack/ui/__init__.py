"""Ratjack's presentation on Discord (:class:`RatjackUI`, ``UI``): its sentences
(:mod:`bot.games.ratjack.texts`), its images (:mod:`render.ratjack`: the public table, a
player's private cards) and its controls (:mod:`.components`) on the platform's frame
(:mod:`bot.discord.presentation`).

Hidden information (RJ11): the card, its image, its story and its one button are made from
the public view (``view(state, None)``) and public events; a player's hand, face-down cards
and the cards they know (RJ11.2), and the decisions that name them, go to that player only
(the platform's private views: ephemeral or DM).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from engine.game import Seat
from engine.messages import Text
from engine.ratjack import Action, Phase, View, view

from ....discord.presentation import GameUI, ImageJob, Replay, action_choices
from ....i18n import ENGLISH, tr
from ....match import Match, ServiceError, replays
from ....texts import ai_name
from .. import texts
from ..shared import animation_views, turn_states
from . import components
from .clicks import RatjackClicks

#: The embed's colour by the seat to decide (p1-p4).
COLOURS = (discord.Colour.red(), discord.Colour.blue(), discord.Colour.gold(),
           discord.Colour.purple())


def image_names(match: Match) -> list[Text | str]:
    """The players' names on the images (written in the reader's language in the render
    worker): ``p1`` for a person (their Discord name is not stored), ``p2 AI (hard)``."""
    return [texts.seat_label(p.seat, ai_name(p.ai)) if p.ai else f"p{p.seat + 1}"
            for p in match.players]


class RatjackUI(GameUI):
    """Ratjack on the platform's frame: a card per round (RJ9), edited at every step; each
    player's cards and decisions in their private view (RJ11.2)."""

    game = "ratjack"
    dynamic_items = (components.PlayButton, components.PlaySelect)
    turns_come_round = True  # 3-4 seats take turns: ping each time the turn comes back

    # ------------------------------------------------------------------ a match in words
    def player(self, m: Match, seat: Seat) -> Text:
        return texts.player(m, seat)

    def title(self, m: Match) -> Text:
        return texts.match_title(m)

    def start_line(self, m: Match) -> Text:
        return texts.match_start_line(m)

    def start_help(self, m: Match) -> Text:
        return texts.START_HELP

    def challenge_text(self, ch: Any) -> Text:
        return texts.challenge_text(ch)

    def options_text(self, options: Any) -> Text:
        """A table's options: its two decks (RJ2.1)."""
        return texts.decks_text(options.get("decks", "rb"))

    def thread_name(self, m: Match) -> Text:
        return texts.thread_name(m)

    def parent_line(self, m: Match, card_url: str | None) -> Text:
        return texts.parent_line(m, card_url)

    def result_text(self, m: Match) -> Text:
        return texts.match_result_text(m)

    def status_text(self, m: Match) -> Text:
        return texts.status_text(m)

    def reminder_text(self, m: Match, user_ids: Sequence[int]) -> Text:
        return texts.reminder_text(m, user_ids)

    def ping_text(self, m: Match, seat: Seat) -> Text:
        return texts.ping_text(m, seat)

    # ------------------------------------------------------------------ the live card
    def card_key(self, m: Match) -> int:
        """The round (RJ9): a card per round, closed with the round's result."""
        return m.state.round

    def card_content(self, m: Match, deadline: float | None) -> Text:
        return texts.card_head(m, deadline)

    def card_heading(self, m: Match) -> Text:
        return Text("**{title} · round {n}**", title=texts.match_title(m), n=m.state.round)

    def card_story(self, m: Match) -> Text:
        return texts.card_story(m)

    def card_colour(self, m: Match) -> discord.Colour:
        """The colour of the seat to decide."""
        acting = sorted(m.waiting_for())
        return COLOURS[acting[0]] if acting else discord.Colour.dark_green()

    def card_closed(self, m: Match, key: int) -> Text:
        """The round's result with every card shown (RJ9.7)."""
        return texts.card_closed(m, key)

    def card_over(self) -> Text:
        return Text("the match is over: the final table, and the result below.")

    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """**Your cards** while a person is still in the match (RJ3.4: a player may look at
        their own face-down cards at any time); the decisions are in the private view."""
        if not m.active:
            return None
        if not any(p.human and not m.state.forfeited[p.seat] for p in m.players):
            return None
        return components.open_view(m, lang)

    def stale_key(self, key: int, now: int) -> Text:
        return Text(" (It was for round {n}; the match is in round {now}.)", n=key, now=now)

    def make_clicks(self, clicks: Any) -> RatjackClicks:
        return RatjackClicks(clicks)

    # ------------------------------------------------------------------ images
    def board(self, m: Match, verdict: str | None) -> ImageJob:
        """The public table (RJ11.1), with the banner of a match ended outside the game."""
        kwargs: dict[str, Any] = {"names": image_names(m)}
        if verdict is not None:
            kwargs["verdict"] = verdict
        return ImageJob(_draw_table, (m.id, m.version), lambda: view(m.state, None), kwargs)

    def private_image(self, m: Match, seat: Seat) -> ImageJob:
        """``seat``'s hand, face-down cards and the cards they know (RJ11.2), drawn from
        that seat's view only; keyed by what it draws, its owner included."""
        v = view(m.state, seat)
        names = image_names(m)
        return ImageJob(_draw_private, ("private", m.id, m.version, seat), lambda: v,
                        {"names": names})

    def board_verdict(self, m: Match) -> Text | None:
        return texts.board_verdict(m)

    async def replay(self, service: Any, m: Match) -> Replay:
        """The public table at the start and after every turn (RJ3), ending on the final
        one; public views only (RJ11.1)."""
        states = turn_states(m.seed, m.seats, m.options,
                             await replays.match_actions(service, m))
        views = animation_views(states)
        if len(views) < 2:
            raise ServiceError(Text("Match #{id} ended before its first turn: there is "
                                    "nothing to step through.", id=m.id))
        verdict = texts.board_verdict(m)
        names = image_names(m)

        def caption(index: int, total: int) -> Text:
            v = views[index]
            return Text("**{title} · round {n}, turn {t} ({index}/{total})**",
                        title=texts.match_title(m), n=v.round, t=v.turn, index=index + 1,
                        total=total)

        return Replay(views, _animate, _frame, caption, {"names": names, "verdict": verdict})

    def replay_said(self, m: Match, frames: int) -> Text:
        return Text.plural("🎬 **Replay of {title}**: {n} frame, a frame per turn, ending on "
                           "the final table.", "🎬 **Replay of {title}**: {n} frames, a frame "
                           "per turn, ending on the final table.", frames,
                           title=texts.match_title(m))

    # ------------------------------------------------------------------ private views
    def private_heading(self, m: Match, seat: Seat) -> Text:
        return texts.private_heading(m, seat)

    def private_text(self, m: Match, seat: Seat, *, listed: bool, in_dm: bool,
                     jump: Text | None) -> Text:
        """The player's cards in words (their heading only when the image shows them), the
        link back in a DM, and their decision now or whom the match waits for."""
        cards = texts.private_text(m, seat) if listed else texts.private_heading(m, seat)
        if jump:
            cards = Text("{cards} · {jump}", cards=cards, jump=jump)
        return Text("{cards}\n{prompt}", cards=cards,
                    prompt=texts.decision_prompt(m, seat, in_dm=in_dm))

    def private_controls(self, m: Match, seat: Seat, lang: str = ENGLISH
                         ) -> discord.ui.View | None:
        """The decisions of ``seat`` now, labelled from its own view (RJ11.3, RJ11.4)."""
        return components.private_view(m, seat, lang)

    def private_done(self, m: Match, seat: Seat, action: Action) -> Text | None:
        """The turn passed on: the player's DM views with decisions are spent."""
        if m.active and seat in m.to_act():
            return None
        return Text("Your turn is played.")

    def log_step(self, m: Match, seat: Seat, action: Action) -> str:
        """The decision's kind and the seat, never a card (RJ11.1: a card played face down
        is not named)."""
        return f"{action.kind} by p{seat + 1}"

    def deal_seats(self, m: Match) -> frozenset[Seat]:
        """The person to decide now (their turn's private view by DM, if they asked)."""
        if not m.active:
            return frozenset()
        return frozenset(s for s in m.waiting_for() if not m.ai_of(s))

    # ------------------------------------------------------------------ its commands
    @property
    def cog(self) -> type:
        from .cog import RatjackCog  # the command group needs the platform's commands

        return RatjackCog

    def no_match_here(self) -> Text:
        return Text("There is no match in this channel. {hint}", hint=texts.START_HINT)

    def start_hint(self) -> Text:
        return texts.START_HINT

    def board_caption(self, m: Match) -> Text:
        """The round and turn, and whom the match waits for."""
        head = Text("**{title} · round {n}, turn {t}**", title=texts.match_title(m),
                    n=m.state.round, t=m.state.turn)
        waiting = [texts.player(m, seat) for seat in sorted(m.waiting_for())]
        return (Text("{head} — waiting for {who}", head=head,
                     who=Text.joined(" and ", waiting)) if waiting else head)

    def done_text(self, before: Match, result: Any) -> Text:
        """The action typed and, when the player still decides this turn, their hand (the
        card just drawn) and their next decision — to them only (RJ11.2)."""
        done = super().done_text(before, result)
        after = result.match
        if after.active and result.seat in after.to_act():
            return Text("{done}\n{hand}\n{prompt}", done=done,
                        hand=texts.hand_line(after, result.seat),
                        prompt=texts.decision_prompt(after, result.seat, in_dm=False))
        return done

    def action_choices(self, m: Match, seat: Seat, current: str,
                       lang: str = ENGLISH) -> list:
        """``seat``'s legal actions, each labelled from its own view (to its player only)."""
        return action_choices(((notation, tr(label, lang)) for notation, label
                               in components.legal_choices(m, seat)), current)

    def rules(self, lang: str = ENGLISH) -> list[discord.Embed]:
        """The rules in short, then the effects of the four decks (RJ5-RJ7)."""
        colours = {"R": discord.Colour.red(), "B": discord.Colour.blue(),
                   "C": discord.Colour.light_grey(), "W": discord.Colour.dark_gold()}
        return [discord.Embed(title=tr(Text("Ratjack — the rules in short"), lang),
                              description=tr(texts.RULES_SUMMARY, lang),
                              colour=discord.Colour.dark_green()),
                *(discord.Embed(description=tr(texts.deck_reference(letter), lang),
                                colour=colour) for letter, colour in colours.items())]

    def no_rated_games(self) -> Text:
        return Text("No rated games of Ratjack in this server yet: `/ratjack table` to play "
                    "one with friends!")

    def resign_question(self, m: Match) -> Text:
        return texts.resign_question(m)

    def record_said(self, m: Match) -> Text:
        return Text("📜 **Record of {title}**: every decision (docs/RATJACK_RECORD.md).",
                    title=texts.match_title(m))

    def dm_hello(self) -> Text:
        return Text("🐀 I'll send your Ratjack cards here when it is your turn.")


# ---------------------------------------------------------------------- render workers
def _names(names: Sequence[Any], tr: Any) -> list[str]:
    return [tr(n) if isinstance(n, Text) else str(n) for n in names]


def _draw_table(v: View, *, names: Sequence[Any], verdict: str | None = None,
                tr: Any = str) -> bytes:
    """The public table as PNG (:func:`render.ratjack.render_table`): run in a render
    worker, its texts in ``tr``'s language."""
    from render.ratjack import render_table

    return render_table(v, names=_names(names, tr), tr=tr, verdict=verdict)


def _draw_private(v: View, *, names: Sequence[Any], tr: Any = str) -> bytes:
    """A player's private view as PNG (:func:`render.ratjack.render_private`): run in a
    render worker."""
    from render.ratjack import render_private

    return render_private(v, names=_names(names, tr), tr=tr)


def _animate(views: list[View], *, byte_limit: int, names: Sequence[Any],
             verdict: Text | None = None, tr: Any = str) -> Any:
    """The replay's GIF (:func:`render.ratjack.render_animation`): run in a worker."""
    from render.ratjack import render_animation

    return render_animation(views, names=_names(names, tr), byte_limit=byte_limit, tr=tr,
                            verdict=None if verdict is None else tr(verdict))


def _frame(v: View, *, total: int, final: bool, names: Sequence[Any],
           verdict: Text | None = None, tr: Any = str) -> bytes:
    """One replay frame as PNG: the table, the verdict on the final one."""
    from render.ratjack import render_table

    shown = verdict if final and v.phase is not Phase.OVER else None
    return render_table(v, names=_names(names, tr), tr=tr,
                        verdict=None if shown is None else tr(shown))


UI = RatjackUI()
