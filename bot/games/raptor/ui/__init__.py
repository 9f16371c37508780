"""Raptor's presentation on Discord (:class:`RaptorUI`, ``UI``): its sentences, its images
(the board and a side's hand, :mod:`render`), its controls (the card pick and the
decisions' menus) on the platform's frame (:mod:`bot.discord.presentation`)."""

from __future__ import annotations

from collections.abc import Mapping

import discord

import engine
from engine import Phase, Side
from engine.game import Seat, resolve_options
from engine.messages import Text
from engine.raptor_game import RAPTOR, side_of

from ....discord.presentation import GameUI, ImageJob, Replay, action_choices
from ....i18n import ENGLISH
from ....match import Match, ServiceError
from ....texts import mention, ts
from .. import SIDE_WORDS, texts
from .. import sides as rs
from ..replays import replay_views
from . import components
from .clicks import RaptorClicks

COLOURS = {Side.RAPTOR: discord.Colour.orange(), Side.SCIENTIST: discord.Colour.blue()}


class RaptorUI(GameUI):
    """Raptor on the platform's frame: a card per round (R5), the hands by DM while
    picking (R5.1), the public board image (R11.1)."""

    game = "raptor"
    dynamic_items = (components.PickButton,)

    def player(self, m: Match, seat: Seat) -> Text:
        return texts.player(m, side_of(seat))

    def title(self, m: Match) -> Text:
        return texts.match_title(m)

    def start_line(self, m: Match) -> Text:
        return texts.match_start_line(m)

    def start_help(self, m: Match) -> Text:
        return texts.MATCH_START_HELP

    def challenge_text(self, ch) -> Text:
        return texts.challenge_text(ch)

    def options_text(self, options: Mapping[str, str]) -> Text:
        return texts.options_text(resolve_options(RAPTOR.options, options))

    def thread_name(self, m: Match) -> Text:
        return texts.thread_name(m)

    def parent_line(self, m: Match, card_url: str | None) -> Text:
        return texts.parent_line(m, card_url)

    def admin_line(self, m: Match) -> Text:
        return Text("#{id} in {channel} · {raptor} vs {scientist} · round {n}", id=m.id,
                    channel=f"<#{m.channel_id}>", raptor=texts.player(m, Side.RAPTOR),
                    scientist=texts.player(m, Side.SCIENTIST), n=m.state.round)

    def end_question(self, m: Match) -> Text:
        return Text("End {title} ({raptor} vs {scientist}, round {n}) without a result? "
                    "Nobody wins and no rating changes. Click **End match** to confirm, or "
                    "dismiss this message.", title=texts.match_title(m),
                    raptor=texts.player(m, Side.RAPTOR), scientist=texts.player(m, Side.SCIENTIST),
                    n=m.state.round)

    def result_text(self, m: Match) -> Text:
        return texts.result_text(m)

    def status_text(self, m: Match) -> Text:
        return texts.status_text(m)

    def reminder_text(self, m: Match, user_ids) -> Text:
        return texts.reminder_text(m, user_ids)

    def ping_text(self, m: Match, seat: Seat) -> Text:
        return texts.ping_text(m, side_of(seat))

    # ------------------------------------------------------------------ the live card
    def card_key(self, m: Match) -> int:
        """The round (R5): a card per round."""
        return m.state.round

    def card_content(self, m: Match, deadline: float | None) -> Text:
        return texts.card_text(m, deadline)

    def card_heading(self, m: Match) -> Text:
        return texts.card_heading(m)

    def card_story(self, m: Match) -> Text:
        return texts.card_log(m)

    def card_colour(self, m: Match) -> discord.Colour:
        """The colour of the side to move, green while both pick."""
        sides = rs.waiting(m)
        return COLOURS[sides[0]] if len(sides) == 1 else discord.Colour.dark_green()

    def card_closed(self, m: Match, key: int) -> Text:
        """The finished round's summary (R5.6), or only its heading for a card skipped."""
        if key == m.state.round - 1:
            return texts.card_record(m, key, m.state.last_round_events)
        return Text("**{title} · Round {n}**", title=texts.match_title(m), n=key)

    def card_over(self) -> Text:
        return texts.CARD_OVER

    def controls(self, m: Match, lang: str = ENGLISH) -> discord.ui.View | None:
        """Pick your card while a person picks (R5.1), else the menus of the person who
        decides; none when the match is over or the AI decides."""
        if not m.active:
            return None
        sides = [s for s in rs.waiting(m) if not rs.ai(m, s)]
        if not sides:
            return None
        if m.state.phase is Phase.PICK:
            return components.round_view(m.id, m.state.round, lang)
        return components.turn_view(m, sides[0], lang)

    def group_view(self, m: Match, seat: Seat, key: str, page: int, lang: str = ENGLISH
                   ) -> tuple[discord.ui.View, str] | None:
        """The actions of one figurine or area (:func:`components.group_view`)."""
        return components.group_view(m, side_of(seat), key, page, lang)

    def stale_key(self, key: int, now: int) -> Text:
        return Text(" (It was for round {n}; the match is in round {now}.)", n=key, now=now)

    def make_clicks(self, clicks) -> RaptorClicks:
        return RaptorClicks(clicks)

    # ------------------------------------------------------------------ its commands
    @property
    def cog(self) -> type:
        from .cog import RaptorCog  # the command group needs the platform's commands

        return RaptorCog

    def no_match_here(self) -> Text:
        return texts.NO_MATCH_HERE

    def start_hint(self) -> Text:
        return Text("Start a new one with `/raptor challenge` or `/raptor practice`.")

    def board_caption(self, m: Match) -> Text:
        """The round and phase, and whom the match waits for."""
        waiting = [texts.player(m, side) for side in rs.waiting(m)]
        head = Text("**{title} · Round {n} · {phase}**", title=texts.match_title(m),
                    n=m.state.round, phase=texts.PHASE_NAMES[m.state.phase])
        return (Text("{head} — waiting for {who}", head=head,
                     who=Text.joined(" and ", waiting)) if waiting else head)

    def done_text(self, before: Match, result) -> Text:
        """A card picked (R5.1: its card named to its player only), or the action and what
        it does."""
        side = rs.acted(result)
        if isinstance(result.action, engine.Pick):
            return Text("You picked **{card}** for round {n}.",
                        card=texts.card_label(side, result.action.card), n=before.state.round)
        label = engine.describe_action(result.action, before.state, side)
        return Text("Done: `{notation}` — {label}",
                    notation=engine.format_action(result.action), label=label)

    def action_choices(self, m: Match, seat: Seat, current: str,
                       lang: str = ENGLISH) -> list:
        """The side's legal actions, each labelled by what it does."""
        from ....i18n import tr

        side = side_of(seat)
        return action_choices(((engine.format_action(a),
                                tr(engine.describe_action(a, m.state, side), lang))
                               for a in engine.legal_actions(m.state, side)), current)

    def rules(self, lang: str = ENGLISH) -> list[discord.Embed]:
        """The rules in short and every card of both sides (R9, R10)."""
        from ....i18n import tr

        return [
            discord.Embed(title=tr(Text("Raptor — the rules in short"), lang),
                          description=tr(texts.RULES_SUMMARY, lang),
                          colour=discord.Colour.dark_green()),
            discord.Embed(description=tr(texts.card_reference(Side.RAPTOR), lang),
                          colour=discord.Colour.orange()),
            discord.Embed(description=tr(texts.card_reference(Side.SCIENTIST), lang),
                          colour=discord.Colour.blue()),
        ]

    def history_line(self, m: Match, user_id: int) -> Text:
        """The side played, against whom, the outcome and why."""
        outcomes = {"draw": Text("draw"), "no result": Text("no result"), "won": Text("won"),
                    "lost": Text("lost")}
        side = rs.side_in(m, user_id)
        opponent = rs.user(m, side.other) if side else None
        result = rs.result(m)
        if result == rs.DRAW:
            outcome = "draw"
        elif result is None:
            outcome = "no result"
        else:
            outcome = "won" if side and result == side.value else "lost"
        vs = mention(opponent) if opponent else "?"
        return Text("{title} · {side} vs {vs} · **{outcome}** ({why}) · {when}",
                    title=texts.match_title(m), side=SIDE_WORDS[side] if side else "?", vs=vs,
                    outcome=outcomes[outcome], why=texts.history_reason(m, outcome),
                    when=ts(m.updated_at))

    async def stats_text(self, service, who: str, stats, seats) -> Text:
        """The rating, the results as the raptor and as the scientist, and a player's Elo
        from before the move to OpenSkill."""
        by_seat = {r.seat: r for r in seats}
        none = (0, 0)
        rw, rl = ((by_seat[0].wins, by_seat[0].losses) if 0 in by_seat else none)
        sw, sl = ((by_seat[1].wins, by_seat[1].losses) if 1 in by_seat else none)
        text = Text.plural(
            "**{who}** · rating **{rating:.0f}** · {n} rated game: {wins} won, {losses} lost, "
            "{draws} drawn\nAs raptor {rw}–{rl} · as scientist {sw}–{sl}",
            "**{who}** · rating **{rating:.0f}** · {n} rated games: {wins} won, {losses} lost, "
            "{draws} drawn\nAs raptor {rw}–{rl} · as scientist {sw}–{sl}", stats.games,
            who=who, rating=stats.rating, wins=stats.wins, losses=stats.losses,
            draws=stats.draws, rw=rw, rl=rl, sw=sw, sl=sl)
        elo = await service.elo(stats.guild_id, stats.user_id)
        if elo is not None:  # a player rated before the move to OpenSkill: their old Elo
            text = Text("{text}\n{note}", text=text, note=Text(
                "Elo before the move to the new ratings: {rating:.0f}", rating=elo.rating))
        return text

    def no_rated_games(self) -> Text:
        return Text("No rated games in this server yet: `/raptor challenge` someone!")

    def resign_question(self, m: Match) -> Text:
        return Text("Really resign {title}? Your opponent wins. Click **Resign** to confirm, "
                    "or dismiss this message.", title=texts.match_title(m))

    def record_said(self, m: Match) -> Text:
        return Text("📜 **Record of {title}**: every decision, readable back by `python -m "
                    "engine replay`.", title=texts.match_title(m))

    def dm_hello(self) -> Text:
        return Text("🦖 I'll send your Raptor hand here each round.")

    # ------------------------------------------------------------------ images
    def board(self, m: Match, verdict: str | None) -> ImageJob:
        """The public board (R11.1), with the banner of a match ended outside the game."""
        import render

        key = (m.id, m.version)
        public = lambda: engine.view(m.state, None)  # noqa: E731
        if verdict is None:
            return ImageJob(render.render_board, key, public)
        result = rs.result(m)
        winner = Side(result) if result in ("raptor", "scientist") else None
        return ImageJob(render.render_board, key, public, {"verdict": verdict, "winner": winner})

    def private_image(self, m: Match, seat: Seat) -> ImageJob:
        """The hand of ``seat``'s side (R11.2), keyed by exactly what it draws (its owner
        included)."""
        import render

        content = render.hand_content(engine.view(m.state, side_of(seat)))
        return ImageJob(render.render_hand, content, lambda: content)

    def board_verdict(self, m: Match) -> Text | None:
        return texts.board_verdict(m)

    async def replay(self, service, m: Match) -> Replay:
        """The board after each round (R5.6), from public views only (R11.1), each with that
        round's story and the score; a match ended outside the game ends on its banner."""
        views, verdict, winner = await replay_views(service, m)
        if not views:
            raise ServiceError(Text("Match #{id} ended before its first round: there is "
                                    "nothing to step through.", id=m.id))

        def caption(index: int, total: int) -> Text:
            v = views[index]
            events = v.last_round_events if v.phase is Phase.PICK else v.round_events
            return Text("**{title} · round {n} ({index}/{total})**\n{story}\n{score}",
                        title=texts.match_title(m), n=frame_round(v), index=index + 1,
                        total=total, story=texts.story_text(events),
                        score=texts.score_line(v))

        return Replay(views, _animate, _frame, caption,
                      {"verdict": verdict, "winner": winner})

    def replay_said(self, m: Match, frames: int) -> Text:
        return Text.plural("🎬 **Replay of {title}**: {n} round, a frame per round, ending on "
                           "the final board.", "🎬 **Replay of {title}**: {n} rounds, a frame "
                           "per round, ending on the final board.", frames,
                           title=texts.match_title(m))

    # ------------------------------------------------------------------ hands
    def private_heading(self, m: Match, seat: Seat) -> Text:
        return texts.hand_heading(m, side_of(seat))

    def private_text(self, m: Match, seat: Seat, *, listed: bool, in_dm: bool,
                     jump: Text | None) -> Text:
        side = side_of(seat)
        return Text("{hand}\n{prompt}", hand=texts.hand_text(m, side, listed=listed, jump=jump),
                    prompt=texts.pick_prompt(m, side, in_dm=in_dm))

    def private_controls(self, m: Match, seat: Seat, lang: str = ENGLISH
                         ) -> discord.ui.View | None:
        """The pick buttons of the side's own hand, while it picks (R5.1)."""
        return components.hand_view(m, side_of(seat), lang)

    def private_done(self, m: Match, seat: Seat, action: engine.Action) -> Text | None:
        """A card picked (R5.1): the DM hand's pick buttons are spent."""
        if isinstance(action, engine.Pick):
            return texts.picked_elsewhere_text(side_of(seat), action.card)
        return None

    def log_step(self, m: Match, seat: Seat, action: engine.Action) -> str:
        """``the raptor picked a card`` (never which, R11.2), else the action's kind and
        the side."""
        side = side_of(seat).value
        if isinstance(action, engine.Pick):
            return f"the {side} picked a card"
        return f"{action.kind} by the {side}"

    def deal_seats(self, m: Match) -> frozenset[Seat]:
        """The sides that must pick now (R5.1)."""
        if not m.active or m.state.phase is not Phase.PICK:
            return frozenset()
        return m.waiting_for()


def frame_round(view: engine.View) -> int:
    """The round a replay frame shows (a frame is drawn at the next round's pick)."""
    if view.phase is Phase.PICK:
        return view.round - 1
    return view.round


def _animate(views: list[engine.View], *, byte_limit: int, verdict: Text | None = None,
             winner: Side | None = None, tr=str):
    """The replay's animation (:func:`render.replay.render_replay`), its banner written in
    ``tr``'s language: run in a render worker."""
    from render.replay import render_replay

    return render_replay(views, byte_limit=byte_limit, winner=winner, tr=tr,
                         verdict=None if verdict is None else tr(verdict))


def _frame(view: engine.View, *, total: int, final: bool, verdict: Text | None = None,
           winner: Side | None = None, tr=str) -> bytes:
    """One frame of the replay as PNG (:func:`render.replay.frame_png`): run in a render
    worker."""
    from render.replay import frame_png

    return frame_png(view, total=total, final=final, winner=winner, tr=tr,
                     verdict=None if verdict is None else tr(verdict))


UI = RaptorUI()
