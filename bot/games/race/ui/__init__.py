"""Raptor Race's presentation on Discord (:class:`RaceUI`, ``UI``): its sentences
(:mod:`bot.games.race.texts`), its images (the track and a seat's own Top-3 card,
:mod:`render.race`) and its controls (:mod:`.components`) on the platform's frame
(:mod:`bot.discord.presentation`).

The live card is one message per turn (its key is the turn number, RR3.5; the platform
pings a person at most once per card, so this is what lets it ping the player to play at
each of their turns): it shows the track, whose turn it is, the roll with the menu to set
dice aside (RR4.2, RR4.3), then the menu of the result's dice (RR5), and **Your Top-3
card**; when the turn ends it becomes that turn's record and the next turn's card follows.
Hidden information (RR9.2): the card, its image, the controls and every public text are
made from the public view; a seat's card goes to its player only (:meth:`private_text`,
:meth:`private_image`).
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

import engine.race as race
from engine.game import Seat
from engine.messages import Text
from engine.race import RaceState

from ....discord.presentation import GameUI, ImageJob, Replay, action_choices
from ....i18n import ENGLISH, tr
from ....match import Match, ServiceError, replays
from ....texts import plain
from .. import texts
from ..history import turn_states
from . import components
from .clicks import RaceClicks

#: The embed's colour on the card, by seat (the seats have no colours in the rules; these
#: only tell one turn's card from the next).
SEAT_COLOURS = (discord.Colour.blue(), discord.Colour.orange(), discord.Colour.purple(),
                discord.Colour.teal(), discord.Colour.gold())


class RaceUI(GameUI):
    """Raptor Race on the platform's frame: a card per turn, the secret card by ephemeral
    reply or DM (RR9.2), the public track image (RR9.1)."""

    game = "race"
    dynamic_items = (components.KeepSelect, components.KeepAllButton)

    # ------------------------------------------------------------------ a match in words
    def player(self, m: Match, seat: Seat) -> Text:
        return texts.seated(m, seat)

    def title(self, m: Match) -> Text:
        return texts.match_title(m)

    def start_line(self, m: Match) -> Text:
        return texts.match_start_line(m, texts.seated)

    def start_help(self, m: Match) -> Text:
        return texts.START_HELP

    def challenge_text(self, ch) -> Text:
        return texts.challenge_text(ch)

    def options_text(self, options: Mapping[str, str]) -> Text:
        return texts.board_of(options)

    def thread_name(self, m: Match) -> Text:
        return Text("Race #{id} · {board}", id=m.id, board=texts.board_name(m))

    def parent_line(self, m: Match, card_url: str | None) -> Text:
        return texts.parent_line(m, card_url)

    def admin_line(self, m: Match) -> Text:
        return Text("#{id} in {channel} · {players} · turn {n}", id=m.id,
                    channel=f"<#{m.channel_id}>", players=self.players(m), n=m.state.turn)

    def result_text(self, m: Match) -> Text:
        """The winner, the raptors' order, and every player's place, points and what each
        slot of their card scored (RR6, RR7)."""
        return texts.result_text(m, texts.seated)

    def status_text(self, m: Match) -> Text:
        return texts.status_text(m, texts.seated)

    def reminder_text(self, m: Match, user_ids) -> Text:
        return texts.reminder_text(m, user_ids)

    def ping_text(self, m: Match, seat: Seat) -> Text:
        return texts.ping_text(m, seat)

    # ------------------------------------------------------------------ the live card
    def card_key(self, m: Match) -> int:
        """The turn (RR3.5): a card per turn, so its player is pinged once per turn."""
        return m.state.turn

    def card_content(self, m: Match, deadline: float | None) -> Text:
        return texts.card_head(m, deadline, texts.seated)

    def card_heading(self, m: Match) -> Text:
        return texts.card_heading(m)

    def card_story(self, m: Match) -> Text:
        return texts.card_story(m)

    def card_colour(self, m: Match) -> discord.Colour:
        """A colour per seat to play."""
        return SEAT_COLOURS[m.state.seat % len(SEAT_COLOURS)]

    def card_closed(self, m: Match, key: int) -> Text:
        return texts.card_record(m, key)

    def card_over(self) -> Text:
        return Text("the race is over: the track as it ended, and the result below.")

    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """**Your Top-3 card** while the race runs, and the decision's controls when a
        person plays the turn (:func:`components.turn_view`); public."""
        if not m.active or m.state.is_over:
            return None
        return components.card_view(m, lang)

    def group_view(self, m: Match, seat: Seat, key: str, page: int, lang: str = ENGLISH
                   ) -> tuple[discord.ui.View, str] | None:
        return components.group_view(m, seat, key, lang)

    def stale_key(self, key: int, now: int) -> Text:
        return texts.stale_turn(key, now)

    def make_clicks(self, clicks) -> RaceClicks:
        return RaceClicks(clicks)

    # ------------------------------------------------------------------ its commands
    @property
    def cog(self) -> type:
        from .cog import RaceCog  # the command group needs the platform's commands

        return RaceCog

    def no_match_here(self) -> Text:
        return Text("There is no race in this channel. Start one with `/race practice` (or "
                    "`/race table` to race your friends).")

    def start_hint(self) -> Text:
        return Text("Start a new one with `/race practice` or `/race table`.")

    def board_caption(self, m: Match) -> Text:
        return Text("**{title}** · {line}", title=texts.match_title(m),
                    line=texts.waiting_line(m, texts.seated)) if m.active else Text(
                        "**{title}**", title=texts.match_title(m))

    def done_text(self, before: Match, result) -> Text:
        """The decision and what it does (:func:`engine.race.describe_action`)."""
        return Text("Done: `{notation}` — {label}",
                    notation=race.format_action(result.action),
                    label=race.describe_action(result.action, before.state))

    def action_choices(self, m: Match, seat: Seat, current: str,
                       lang: str = ENGLISH) -> list:
        """The seat's legal actions (RR9.3, RR9.4), each labelled by what it does; made
        from the public position only (RR9.2)."""
        state: RaceState = m.state
        return action_choices(((race.format_action(a), tr(race.describe_action(a, state), lang))
                               for a in race.legal_actions(state, seat)), current)

    def rules(self, lang: str = ENGLISH) -> list[discord.Embed]:
        return [discord.Embed(title=tr(Text("Raptor Race — the rules in short"), lang),
                              description=tr(texts.RULES_SUMMARY, lang),
                              colour=discord.Colour.dark_green())]

    def resign_question(self, m: Match) -> Text:
        return Text("Really leave {title}? The race goes on without you (your turns are "
                    "skipped) and your card still scores at the end. Click **Resign** to "
                    "confirm, or dismiss this message.", title=texts.match_title(m))

    def record_said(self, m: Match) -> Text:
        return Text("📜 **Record of {title}**: every roll kept and every step, readable back "
                    "by `python -m bot replay`.", title=texts.match_title(m))

    def dm_hello(self) -> Text:
        return Text("🦖 I'll send your secret Top-3 card here when a race begins.")

    def no_rated_games(self) -> Text:
        return Text("No rated races in this server yet: `/race table` to race your friends!")

    # ------------------------------------------------------------------ images
    def board(self, m: Match, verdict: str | None) -> ImageJob:
        """The public track (RR9.1), under the banner of a race ended outside the game."""
        key = (m.id, m.version)
        state: RaceState = m.state
        public = lambda: race.view(state, None)  # noqa: E731
        if verdict is None:
            return ImageJob(_track, key, public)
        return ImageJob(_track, key, public, {"verdict": plain(verdict)})

    def board_verdict(self, m: Match) -> Text | None:
        return texts.board_verdict(m)

    def private_image(self, m: Match, seat: Seat) -> ImageJob:
        """``seat``'s own Top-3 card (RR9.2), keyed by what it draws: the match, the seat,
        the card and, once over, its score."""
        own = race.view(m.state, seat)
        score = own.scores[seat] if own.scores is not None else None
        return ImageJob(_card, ("race-card", m.id, seat, own.my_card, score), lambda: own)

    async def replay(self, service, m: Match) -> Replay:
        """The start and the end of each turn, from public views only (RR9.1); a race ended
        outside the game ends on its last position under its verdict."""
        states = turn_states(m.seed, m.seats, m.options,
                             await replays.match_actions(service, m))
        if len(states) < 2:
            raise ServiceError(Text("Race #{id} ended before its first turn: there is nothing "
                                    "to step through.", id=m.id))
        views = [race.view(s, None) for s in states]
        turns = views[-1].turn
        frames = [(i == 0, v, turns) for i, v in enumerate(views)]
        verdict = texts.board_verdict(m)

        def caption(index: int, total: int) -> Text:
            v = views[index]
            if index == 0:
                return Text("**{title} · the start ({index}/{total})**", index=1, total=total,
                            title=texts.match_title(m))
            head = Text("**{title} · turn {n} ({index}/{total})**", title=texts.match_title(m),
                        n=v.turn if v.is_over else v.turn - 1, index=index + 1, total=total)
            steps = v.steps if v.is_over else v.last_steps
            return Text("{head}\n{steps}", head=head,
                        steps=texts.steps_text(steps, v.board) if steps else Text(
                            "No raptor moved."))

        return Replay(frames, _animate, _frame, caption, {"verdict": verdict})

    def replay_said(self, m: Match, frames: int) -> Text:
        return Text.plural("🎬 **Replay of {title}**: {n} frame, a frame per turn, ending on "
                           "the finish.", "🎬 **Replay of {title}**: {n} frames, a frame per "
                           "turn, ending on the finish.", frames, title=texts.match_title(m))

    # ------------------------------------------------------------------ the secret card
    def private_heading(self, m: Match, seat: Seat) -> Text:
        return texts.private_heading(m, seat)

    def private_text(self, m: Match, seat: Seat, *, listed: bool, in_dm: bool,
                     jump: Text | None) -> Text:
        """PRIVATE to ``seat`` (RR9.2): its card slot by slot (always listed: three lines)
        and, in a DM, the link back to the race."""
        own = texts.own_card_text(m, seat)
        if jump is not None:
            return Text("{card}\n{jump}", card=own, jump=jump)
        return own

    def log_step(self, m: Match, seat: Seat, action) -> str:
        """The action's kind and the seat (``keep by seat 2``): never a card."""
        return f"{action.kind} by seat {seat + 1}"

    def deal_seats(self, m: Match) -> frozenset[Seat]:
        """Every person's seat, on the race's first card: the card is dealt once, at the
        start (RR3.4). The first card is the one of the first turn a person plays: the
        turns before it, if any, were the AI seats' (seats play in order from the first,
        RR3.5, and nobody has left before a person played)."""
        state: RaceState = m.state
        if not m.active or state.is_over:
            return frozenset()
        before = {(state.first + t) % state.seats for t in range(state.turn - 1)}
        if any(not m.ai_of(seat) for seat in before):
            return frozenset()
        return frozenset(p.seat for p in m.players if p.human)


# --------------------------------------------------------------------------- drawers
def _track(view: race.RaceView, *, verdict: str | None = None, tr=str) -> bytes:
    """The public track image (:func:`render.race.render_track`), a verdict as its
    caption: run in a render worker."""
    from render.race import render_track

    return render_track(view, tr=tr, caption=verdict)


def _card(view: race.RaceView, *, tr=str) -> bytes:
    """A seat's own Top-3 card (:func:`render.race.render_card`): run in a render worker."""
    from render.race import render_card

    return render_card(view, tr=tr)


def _animate(frames, *, byte_limit: int, verdict: Text | None = None, tr=str):
    """The replay's animation (:func:`render.race.replay.render_race_replay`)."""
    from render.race.replay import render_race_replay

    return render_race_replay([v for _, v, _ in frames], byte_limit=byte_limit, tr=tr,
                              verdict=None if verdict is None else tr(verdict))


def _frame(frame, *, total: int, final: bool, verdict: Text | None = None, tr=str) -> bytes:
    """One frame of the replay as PNG (:func:`render.race.replay.replay_frame`); a frame
    is ``(first, view, turns)``, its caption counting turns rather than frames."""
    from render.png import png_bytes
    from render.race.replay import replay_frame

    first, view, turns = frame
    return png_bytes(replay_frame(view, first=first, total=turns, final=final, tr=tr,
                                  verdict=None if verdict is None else tr(verdict)))


UI = RaceUI()

__all__ = ["UI", "RaceUI"]
