"""Narrating a match in its channel: the start, each round, the picks, the reveal, every
decision's turn message, the AI's actions, round summaries and the end.

Messages of a match (all public unless marked *ephemeral* or *DM*)::

    match start            "Match #7 — a new match: @a (raptor) vs @b (scientist)" + board PNG
    round start            "Match #7 · Round 3 — … pick your card"  [Pick your card]
      click Pick your card → ephemeral: the hand (text + render_hand PNG) + one button per card
      a pick               "@a (raptor) has picked a card."   (never the value, R11.2)
      observation (R5.2)   after the scientist's pick: "@a, the scientist's card is shown to
                           you" [Pick your card]; the raptor's hand then shows that card
    reveal                 both cards, who resolves the effect, how many AP (R5.1-R5.5)
    decision ("turn message", one per decision of the effect / AP phase / setup / the
    mother's return): "@a (raptor), your move: …" + board PNG + a select of the actions
      (≤ 25) or of figurines / areas (then an ephemeral select of that group's actions,
      paged past 100) + [End turn] / [Stop the effect here] + [Undo]. Only that player may use
      them. Once decided, the message is edited to "✔ … — @a: `G2-G5` — G2-G5" and loses its
      controls and image; the next decision gets a new message with the current board.
    AI actions             "@bot (scientist, AI easy): `B2-C2` — B2-C2" (one line per action)
    round summary          cards, effect choices, actions in notation, counters + board PNG
    game over              the result and why + final board + [Rematch]

Every decision can also be typed with ``/raptor act`` (same service call, same messages).

Hidden information (R11): public messages and images are made from ``engine.view(state,
None)`` and public events only; a hand, a pick or a card shown under observation goes only
to its player (ephemeral or DM). Log lines carry match ids, user ids and action kinds, never
hands, card values before the reveal, seeds or deck orders.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

import discord

import engine
from engine import Phase, Side

from .. import texts
from ..match import ActResult, Match, MatchService
from . import components
from .images import Images
from .post_store import PostKind
from .posts import Post, Posts
from .replies import pings, say

log = logging.getLogger(__name__)

BUSY_SLOTS = 8  # matches posting the consequences of a decision at the same time


class Narrator:
    """Posts what happens in matches. ``poke`` tells the timer task that deadlines changed."""

    def __init__(self, service: MatchService, posts: Posts, images: Images,
                 poke: Callable[[], None]) -> None:
        self.service = service
        self.posts = posts
        self.images = images
        self.poke = poke
        # match -> the newest version a turn message was begun for (dropped at the end)
        self._prompted: dict[int, int] = {}
        # The posting after a decision (renders, uploads, the AI) is the heavy part of a
        # handler; it runs after the acknowledgement. Letting only a few matches do it at
        # once keeps the event loop's queue short, so new interactions are acknowledged
        # quickly even when hundreds of decisions arrive together.
        self._busy = asyncio.Semaphore(BUSY_SLOTS)

    async def begin(self, match: Match, interaction: discord.Interaction | None = None) -> None:
        """Announce a new match (in reply to ``interaction`` if given), then its first
        decision: the round-1 pick (quick setup) or the setup placements."""
        png = await self.images.board(match)
        content = texts.match_start_text(match)
        humans = [match.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not match.ai[s]]
        if interaction is not None:
            await say(interaction, content, ephemeral=False, png=png,
                      allowed_mentions=pings(*humans))
        else:
            await self.posts.post(match.channel_id, content, png=png,
                                  allowed_mentions=pings(*humans))
        if match.state.phase is Phase.PICK:
            await self.posts.send(self._round_start(match))
        await self.advance(match)

    def _round_start(self, m: Match) -> Post:
        sides = (Side.SCIENTIST,) if m.state.observation else (Side.RAPTOR, Side.SCIENTIST)
        humans = tuple(m.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not m.ai[s])
        return Post(m, texts.round_start_text(m), view=components.round_view(m.id, m.state.round),
                    ping=humans, remember_round=True,
                    dm_sides=tuple(s for s in sides if not m.ai[s]))

    async def advance(self, match: Match) -> Match:
        """Let the AI play if it must, then post the next human decision; returns the latest
        match."""
        match = await self.run_ai(match)
        await self.prompt(match)
        self.poke()
        return match

    async def after_human(self, results: Sequence[ActResult]) -> Match:
        """Post what a human's action did, then continue (AI, next decision). At most
        :data:`BUSY_SLOTS` matches do this at once (see ``Narrator._busy``)."""
        async with self._busy:
            match = await self.publish(results)
            return await self.advance(match)

    async def run_ai(self, match: Match) -> Match:
        """If an AI side must act, let it (``service.play_ai``) and post what it did."""
        if not match.active or not any(match.ai[s] for s in engine.to_act(match.state)):
            return match
        typing = None
        try:  # "RaptorBot is typing…" while the AI thinks
            typing = self.posts.messageable(match.channel_id).typing()
            await typing.__aenter__()
        except discord.HTTPException:
            typing = None
        try:
            results = await self.service.play_ai(match.id)
        except Exception:
            log.exception("match %d: the AI failed to act", match.id)
            return match
        finally:
            if typing is not None:
                await typing.__aexit__(None, None, None)
        if results:
            now = await self.service.get_match(match.id)
            if not now.active and now.state.phase is not Phase.OVER:
                # ended outside the game while the AI thought (a resignation, a moderator):
                # its end is posted already, and the final board shows these moves
                log.info("match %d ended while the AI acted: %d AI actions not posted",
                         match.id, len(results))
                return now
            match = await self.publish(results)
        return match

    async def publish(self, results: Sequence[ActResult]) -> Match:
        """Post the public consequences of ``results`` (in order): picks made, the reveal,
        action lines, round summaries and the next round, the end of the game. The first
        result's action, when a human made it from a turn message, is recorded on that
        message instead of a new line. Returns the latest match."""
        posts: list[Post] = []
        lines: list[str] = []
        last: Match | None = None

        def flush(m: Match) -> None:
            if lines:
                posts.append(Post(m, "\n".join(lines)))
                lines.clear()

        for i, r in enumerate(results):
            m = last = r.match
            kinds = [e.kind for e in r.events]
            human = m.ai.get(r.side) is None
            if isinstance(r.action, engine.Pick):
                log.info("match %d: the %s picked a card", m.id, r.side.value)
                await self.posts.hands.picked(m, r.side, r.action.card)
                if "revealed" not in kinds:
                    flush(m)
                    posts.append(self._picked_post(m, r.side))
            else:
                log.info("match %d: %s by the %s", m.id, r.action.kind, r.side.value)
                line = texts.action_line(m, r.side, r.action, r.events)
                if not (i == 0 and human and await self.posts.retire_turn(m.id, line)):
                    lines.append(line)
            if "revealed" in kinds:
                flush(m)
                await self.posts.retire_posts(m.id, PostKind.ROUND,
                                              "Both cards are in: see the reveal below.")
                ev = next(e for e in r.events if e.kind == "revealed")
                posts.append(Post(m, texts.reveal_text(m, ev.value, ev.value2, r.events)))
            if r.game_over:
                flush(m)
                self._prompted.pop(m.id, None)
                posts.append(self._result_post(m, with_story=True))
                continue
            if "round_end" in kinds:
                flush(m)
                round_no = next(e.value for e in r.events if e.kind == "round_end")
                posts.append(Post(m, texts.round_summary(m, round_no, m.state.last_round_events),
                                  board=True))
                posts.append(self._round_start(m))
            elif (m.state.phase is Phase.PICK and m.state.round == 1 and "placed" in kinds):
                flush(m)  # manual setup finished: round 1 begins
                posts.append(Post(m, texts.setup_summary(m, m.state.last_round_events),
                                  board=True))
                posts.append(self._round_start(m))
        if last is None:
            raise ValueError("publish needs at least one result")
        flush(last)
        # any move ends an open draw offer (the service has cleared it)
        await self.posts.retire_posts(last.id, PostKind.DRAW,
                                      "The offer lapsed: a move was made." if last.active
                                      else "The match is over.")
        for post in posts:
            await self.posts.send(post)
        return last

    def _picked_post(self, m: Match, side: Side) -> Post:
        s = m.state
        observed = (s.phase is Phase.PICK and s.observation and side is Side.SCIENTIST
                    and s.picks[Side.RAPTOR] is None)
        if observed:
            raptor = m.players[Side.RAPTOR]
            human = not m.ai[Side.RAPTOR]
            return Post(m, texts.picked_text(m, side),
                        view=components.round_view(m.id, s.round) if human else None,
                        ping=(raptor,) if human else (), remember_round=human,
                        dm_sides=(Side.RAPTOR,) if human else ())
        return Post(m, texts.picked_text(m, side))

    def _result_post(self, m: Match, *, with_story: bool = False,
                     extra: str | None = None) -> Post:
        content = texts.result_text(m) + (f"\n{extra}" if extra else "")
        if with_story and m.state.round_events:
            story = "\n".join(texts.round_story(m.state.round_events))
            if story:
                content = (f"**{texts.match_title(m)} · Round {m.state.round}**\n{story}\n"
                           f"{content}")
        humans = tuple(m.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not m.ai[s])
        return Post(m, content[:2000], board=True, view=components.rematch_view(m.id),
                    ping=humans)

    async def finish(self, match: Match, note: str | None = None, *,
                     extra: str | None = None) -> None:
        """Post the end of a match ended outside the game (resignation, draw, timeout, a
        moderator); ``extra``: a line added to the public result."""
        await self.posts.retire_turn(match.id, note or "the match is over")
        await self.posts.retire_posts(match.id, PostKind.ROUND, "The match is over.")
        await self.posts.retire_posts(match.id, PostKind.DRAW, "The match is over.")
        await self.posts.hands.match_over(match)
        await self.posts.send(self._result_post(match, extra=extra))
        self._prompted.pop(match.id, None)
        self.poke()

    async def prompt(self, match: Match) -> None:
        """Post the turn message for the human decision pending now (not for the card pick,
        which the round message covers)."""
        if not match.active or match.state.phase is Phase.PICK:
            return
        sides = [s for s in sorted(engine.to_act(match.state)) if not match.ai[s]]
        if not sides:
            return
        side = sides[0]
        if self._prompted.get(match.id, -1) > match.version:
            return  # a later decision of this match is being posted already
        self._prompted[match.id] = match.version
        await self.posts.retire_turn(match.id, None)
        s = match.state
        head = f"{texts.match_title(match)} · Round {s.round} · {texts.PHASE_NAMES[s.phase]}"
        png = await self.images.board(match)
        if self._prompted.get(match.id, -1) > match.version:
            return  # superseded while the board was drawn: nobody should see this decision
        msg = await self.posts.post(match.channel_id,
                                    texts.turn_text(match, side, match.deadline_at),
                                    png=png, view=components.turn_view(match, side),
                                    allowed_mentions=pings(match.players[side]))
        if msg is None:
            return
        if self._prompted.get(match.id, -1) > match.version:
            # a later decision was posted while this one was sent: retire it at once
            await self.posts.retire_turn_post(match.channel_id, msg.id, head, None)
            return
        await self.posts.store.remember(match.id, PostKind.TURN, match.channel_id, msg.id, head)
        if (self._prompted.get(match.id, -1) > match.version
                and await self.posts.store.forget(msg.id)):
            # superseded while it was recorded, and the later prompt did not retire it
            await self.posts.retire_turn_post(match.channel_id, msg.id, head, None)


    async def undo(self, interaction: discord.Interaction, match: Match, side: Side, *,
                   expected_version: int | None = None) -> Match:
        """Take back the player's last AP action (service.undo) and post the decision again."""
        after = await self.service.undo(match.id, interaction.user.id,
                                        expected_version=expected_version)
        log.info("match %d: undo by the %s", match.id, side.value)
        await self.posts.adopt_turn_message(match.id, interaction.message)
        await self.posts.retire_turn(match.id, f"{texts.player(match, side)} took back their "
                                     "last action")
        await self.prompt(after)
        self.poke()
        return after
