"""How a match unfolds in a Discord channel: posting rounds, reveals, decisions, summaries,
results, reminders and forfeits, and answering every component click.

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

Interaction handling: every handler acknowledges first (a deferred update for a click on a
public control, an ephemeral "thinking" defer when the answer is a new private message), then
loads the match from the database, checks it (player, stale round/version, phase, the bot's
channel permissions), acts through :class:`bot.match.service.MatchService`, and posts. Refusals are
ephemeral and change nothing. Public posts go to the match's channel with ``channel.send``; a
403 there is logged as a warning for the admin (never silent), and the commands that would
lead to posts check ``interaction.app_permissions`` first and tell the user which permission
is missing.

Hidden information (R11): public messages and images are made from ``engine.view(state,
None)`` and public events only; a hand, a pick or a card shown under observation goes only
to its player (ephemeral or DM). Log lines carry match ids, user ids, command names and
action kinds, never hands, card values before the reveal, seeds or deck orders.

In-memory state is only a cache of message ids (the latest turn and round message per match)
used to tidy old controls; after a restart the old controls still answer correctly (stale).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import engine
import render
from engine import Phase, Side
from render.pool import render_executor

from .. import texts
from ..match import ActResult, Challenge, Match, ServiceError, TimerEvent
from . import components
from .post_store import PostStore

if TYPE_CHECKING:
    from .app import RaptorBot

log = logging.getLogger(__name__)

REQUIRED_PERMISSIONS = ("send_messages", "attach_files", "embed_links")
NO_PINGS = discord.AllowedMentions.none()
MAX_TIMER_SLEEP = 60.0  # seconds: the timer loop looks at the database at least this often
MIN_TIMER_SLEEP = 1.0  # seconds: never spin on a timer that stays due
ERROR_SLEEP = 10.0
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
BOARD_CACHE = 256  # board PNGs kept (about 130 KB each: ~33 MB at most)
HAND_CACHE = 256  # hand PNGs kept (about 60-120 KB each)
BUSY_SLOTS = 8  # matches posting the consequences of a decision at the same time


def pings(*user_ids: int) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these users (and nobody else)."""
    return discord.AllowedMentions(everyone=False, roles=False,
                                   users=[discord.Object(u) for u in user_ids])


# --------------------------------------------------------------------------- interaction helpers


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge with a "thinking" state; the first follow-up replaces it (public or
    ephemeral as given here)."""
    if interaction.response.is_done():
        return
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    interaction.extras["raptor_defer"] = "ephemeral" if ephemeral else "public"


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a component click without a new message (the clicked message may then be
    edited with ``edit_original_response``)."""
    if interaction.response.is_done():
        return
    await interaction.response.defer()
    interaction.extras["raptor_defer"] = "update"


def _kwargs(**kw: Any) -> dict[str, Any]:
    return {k: v for k, v in kw.items() if v is not None}


async def say(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool,
              png: bytes | None = None, filename: str = BOARD_FILE,
              view: discord.ui.View | None = None,
              embeds: Sequence[discord.Embed] | None = None,
              allowed_mentions: discord.AllowedMentions | None = None
              ) -> discord.Message | None:
    """Answer an interaction (its response if not acknowledged yet, else a follow-up).
    Returns the follow-up message, or None when it was the response itself."""
    file = discord.File(io.BytesIO(png), filename=filename) if png is not None else None
    kw = _kwargs(content=content, file=file, view=view, embeds=list(embeds) if embeds else None,
                 allowed_mentions=allowed_mentions or NO_PINGS)
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=ephemeral, **kw)
        return None
    return await interaction.followup.send(ephemeral=ephemeral, **kw)


async def fail(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral refusal or error for the user who interacted. After a public "thinking"
    defer, the placeholder is deleted first so the refusal is not public."""
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    if interaction.extras.get("raptor_defer") == "public":
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            pass
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


def error_text(exc: Exception) -> str:
    """What to tell the user about a refused request: the service's sentence, or the engine's
    message (which quotes the input and lists the closest legal actions)."""
    if isinstance(exc, ServiceError):
        return exc.message
    if isinstance(exc, engine.RaptorError):
        return f"That didn't work: {exc}"
    return "Something went wrong on my side; the error was logged. Please try again."


async def command_error(interaction: discord.Interaction,
                        error: app_commands.AppCommandError, group: str) -> None:
    """An application command's error: a refusal of the service or the engine as an
    ephemeral answer, anything else logged (without its text) with a short apology; a failed
    check was answered by the check itself. ``group``: the command group, for the log."""
    if isinstance(error, app_commands.CheckFailure):
        return
    original = getattr(error, "original", error)
    if isinstance(original, ServiceError | engine.RaptorError):
        await fail(interaction, error_text(original))
        return
    log.error("/%s %s failed (user %d)", group, interaction.command and
              interaction.command.name, interaction.user.id, exc_info=original)
    try:
        await fail(interaction, error_text(RuntimeError()))
    except discord.HTTPException:
        pass


def guarded(handler: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Turn service / engine refusals into ephemeral answers and log anything unexpected
    (without its message text, which might quote a player's input)."""

    @functools.wraps(handler)
    async def wrapper(self: Flow, interaction: discord.Interaction, *args: Any,
                      **kwargs: Any) -> None:
        try:
            await handler(self, interaction, *args, **kwargs)
        except (ServiceError, engine.RaptorError) as exc:
            await fail(interaction, error_text(exc))
        except discord.HTTPException as exc:
            log.warning("%s: Discord refused a request (status %s, code %s)",
                        handler.__name__, exc.status, exc.code)
        except Exception:
            log.exception("%s failed (user %d)", handler.__name__, interaction.user.id)
            try:
                await fail(interaction, error_text(RuntimeError()))
            except discord.HTTPException:
                pass

    return wrapper


def missing_permissions(perms: discord.Permissions | None) -> list[str]:
    """The permissions of :data:`REQUIRED_PERMISSIONS` that ``perms`` lacks."""
    if perms is None:
        return []
    return [p for p in REQUIRED_PERMISSIONS if not getattr(perms, p)]


class Images:
    """The PNGs of the matches, rendered off the event loop — in worker processes
    (:func:`render.pool.render_executor`; threads when ``processes=False`` or when processes
    are unavailable or break) — and each rendered once:

    * a public board (R11.1) per ``(match id, version)`` — the version changes with every
      change of the game, so the key fixes the position;
    * a hand (R11.2) per :func:`render.hand_content` of the player's own view, which names the
      viewer: one player's key never equals the other's, and a hand is only ever looked up
      with the view of the player it is sent to.

    Both caches are bounded LRUs (:data:`BOARD_CACHE`, :data:`HAND_CACHE` entries). Requests
    for an image being rendered wait for that render instead of starting another. ``renders``
    and ``hits`` count renders made and requests served without one. A match's renders
    always go to the same worker process (match id modulo ``workers``), which keeps that
    match's static layer (its random layout) ready. The workers start with the first render
    and stop at :meth:`close` (the flow's ``stop``).
    """

    def __init__(self, *, workers: int | None = None, processes: bool = True,
                 boards: int = BOARD_CACHE, hands: int = HAND_CACHE) -> None:
        self.workers = workers or max(2, os.cpu_count() or 2)
        self.processes = processes
        # one single-worker pool per worker process: a match's boards always go to the same
        # worker, which then keeps its layout's static layer (render.board.static_layer);
        # with threads, one pool of ``workers`` threads (slot 0)
        self._executors: dict[int, Executor] = {}
        self._sizes = {"board": boards, "hand": hands}
        self._caches: dict[str, OrderedDict[Hashable, bytes]] = {
            "board": OrderedDict(), "hand": OrderedDict()}
        self._inflight: dict[tuple[str, Hashable], asyncio.Future[bytes]] = {}
        self.renders = 0
        self.hits = 0

    async def board(self, match: Match) -> bytes:
        """The public board image of ``match`` (``render.render_board`` of its public view)."""
        key = (match.id, match.version)
        verdict = texts.board_verdict(match)
        winner = Side(match.result) if match.result in ("raptor", "scientist") else None
        draw = (functools.partial(render.render_board, verdict=verdict, winner=winner)
                if verdict else render.render_board)
        return await self._get("board", key, draw, lambda: engine.view(match.state, None),
                               slot=match.id)

    async def hand(self, match: Match, side: Side) -> bytes:
        """The hand image of ``side`` in ``match`` — PRIVATE to that player (R11.2)."""
        content = render.hand_content(engine.view(match.state, side))
        return await self._get("hand", content, render.render_hand, lambda: content,
                               slot=match.id)

    async def _get(self, kind: str, key: Hashable, fn: Callable[[Any], bytes],
                   arg: Callable[[], Any], *, slot: int) -> bytes:
        cache = self._caches[kind]
        png = cache.get(key)
        if png is not None:
            cache.move_to_end(key)
            self.hits += 1
            return png
        fut = self._inflight.get((kind, key))
        if fut is None:
            fut = asyncio.ensure_future(self._render(fn, arg(), slot))
            self._inflight[(kind, key)] = fut
            fut.add_done_callback(functools.partial(self._done, kind, key))
        else:
            self.hits += 1
        # shielded: one requester giving up (cancelled) does not cancel the others' render
        return await asyncio.shield(fut)

    async def _render(self, fn: Callable[[Any], bytes], arg: Any, slot: int) -> bytes:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(slot), fn, arg)
        except BrokenProcessPool:
            log.warning("a render worker process died; rendering in threads from now on")
            self.processes = False
            self._shutdown()
            return await loop.run_in_executor(self._pool(slot), fn, arg)

    def _done(self, kind: str, key: Hashable, fut: asyncio.Future[bytes]) -> None:
        if self._inflight.get((kind, key)) is fut:
            del self._inflight[(kind, key)]
        if fut.cancelled() or fut.exception() is not None:
            return
        self.renders += 1
        cache = self._caches[kind]
        cache[key] = fut.result()
        while len(cache) > self._sizes[kind]:
            cache.popitem(last=False)

    def _pool(self, slot: int) -> Executor:
        if self.processes:
            slot %= self.workers
            if slot not in self._executors:
                self._executors[slot] = render_executor(1, processes=True)
        else:
            slot = -1  # all threads in one pool
            if slot not in self._executors:
                self._executors[slot] = render_executor(self.workers, processes=False)
        return self._executors[slot]

    def _shutdown(self) -> None:
        executors, self._executors = self._executors, {}
        for executor in executors.values():
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (renders not started yet are cancelled) and empty the caches.
        Later requests start new workers."""
        self._shutdown()
        for cache in self._caches.values():
            cache.clear()


@dataclass
class _Post:
    """One public message to send: text, maybe a board image of ``match``, maybe controls."""

    match: Match
    content: str
    board: bool = False
    view: discord.ui.View | None = None
    ping: tuple[int, ...] = ()
    remember_round: bool = False
    dm_sides: tuple[Side, ...] = ()


# --------------------------------------------------------------------------- the flow


class Flow:
    """The Discord side of every match. One per bot; ``bot.discord.flow``."""

    def __init__(self, bot: RaptorBot) -> None:
        self.bot = bot
        self._dm_failed: set[int] = set()
        self._prompted: dict[int, int] = {}  # match -> the newest version a prompt was begun for
        self.images = Images()
        self.post_store = PostStore(bot.service.db)
        # The posting after a decision (renders, uploads, the AI) is the heavy part of a
        # handler; it runs after the acknowledgement. Letting only a few matches do it at
        # once keeps the event loop's queue short, so new interactions are acknowledged
        # quickly even when hundreds of decisions arrive together.
        self._busy = asyncio.Semaphore(BUSY_SLOTS)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def service(self) -> Any:
        return self.bot.service

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Start the timer loop (reminders, forfeits, challenge expiry, AI resumption)."""
        if self._task is None:
            self._task = asyncio.create_task(self._timer_loop(), name="raptor-timers")

    async def stop(self) -> None:
        self.images.close()
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    def poke(self) -> None:
        """Something changed: the timer loop re-reads the next deadline now."""
        self._wake.set()

    # ------------------------------------------------------------------ permissions
    def channel_permissions(self, interaction: discord.Interaction,
                            channel_id: int) -> discord.Permissions | None:
        """The bot's permissions in ``channel_id``: from the interaction when it happens there,
        else from the cached channel (None if unknown)."""
        if interaction.channel_id == channel_id and interaction.guild_id is not None:
            return interaction.app_permissions
        channel = self.bot.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is None or guild is None or guild.me is None:
            return None
        return channel.permissions_for(guild.me)  # type: ignore[union-attr]

    async def check_permissions(self, interaction: discord.Interaction,
                                channel_id: int | None = None) -> bool:
        """False (after telling the user which permission a server admin must grant) when the
        bot cannot post a match in the channel."""
        if channel_id is None:
            channel_id = interaction.channel_id or 0
        missing = missing_permissions(self.channel_permissions(interaction, channel_id))
        if missing:
            log.warning("channel %d: missing permissions %s", channel_id, ", ".join(missing))
            await fail(interaction, texts.missing_permissions_text(missing))
            return False
        return True

    # ------------------------------------------------------------------ posting
    def _messageable(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.abc.Messageable):
            return channel
        return self.bot.get_partial_messageable(channel_id)

    async def board_png(self, match: Match) -> bytes:
        """The public board image (R11.1) of ``match`` (rendered once per version, in a
        worker thread: :class:`Images`)."""
        return await self.images.board(match)

    async def post(self, channel_id: int, content: str, *, png: bytes | None = None,
                   filename: str = BOARD_FILE, view: discord.ui.View | None = None,
                   allowed_mentions: discord.AllowedMentions | None = None
                   ) -> discord.Message | None:
        """Send a public message in a channel; a refusal is logged as a warning for the admin
        (missing permission) and None returned."""
        file = discord.File(io.BytesIO(png), filename=filename) if png is not None else None
        kw = _kwargs(content=content, file=file, view=view,
                     allowed_mentions=allowed_mentions or NO_PINGS)
        try:
            return await self._messageable(channel_id).send(**kw)
        except discord.Forbidden as exc:
            log.warning("cannot post in channel %d (Discord code %s): a server admin must give "
                        "the bot Send Messages, Attach Files and Embed Links there",
                        channel_id, exc.code)
        except discord.NotFound:
            log.warning("cannot post in channel %d: it no longer exists", channel_id)
        return None

    async def _edit(self, channel_id: int, message_id: int, **kw: Any) -> bool:
        """Edit a message of the bot; a refusal (deleted message, missing permission) is
        logged as a warning and False returned."""
        message = self._messageable(channel_id).get_partial_message(message_id)  # type: ignore
        try:
            await message.edit(**kw)
        except discord.HTTPException as exc:
            log.warning("could not edit message %d in channel %d (status %s, code %s)",
                        message_id, channel_id, exc.status, exc.code)
            return False
        return True

    async def _send_post(self, post: _Post) -> None:
        m = post.match
        png = await self.board_png(m) if post.board else None
        msg = await self.post(m.channel_id, post.content, png=png, view=post.view,
                              allowed_mentions=pings(*post.ping) if post.ping else None)
        if msg is not None and post.remember_round:
            await self.post_store.remember(m.id, "round", m.channel_id, msg.id, post.content)
        for side in post.dm_sides:
            await self.dm_hand_if_wanted(m, side)

    async def _retire_turn(self, match_id: int, line: str | None) -> bool:
        """Edit the match's latest turn message (as recorded in storage, so also one posted
        before a restart) to a record of what was decided, without controls or image.
        Returns whether there was one."""
        posts = await self.post_store.take(match_id, "turn")
        for post in posts:
            await self._retire_turn_post(post.channel_id, post.message_id, post.text, line)
        return bool(posts)

    async def _retire_turn_post(self, channel_id: int, message_id: int, head: str,
                                line: str | None) -> None:
        content = f"✔ {head} — {line}" if line else f"✔ {head}"
        await self._edit(channel_id, message_id, content=content, view=None, attachments=[],
                         allowed_mentions=NO_PINGS)

    async def _retire_posts(self, match_id: int, kind: str, note: str) -> None:
        """Remove the buttons of the match's ``kind`` posts as recorded in storage (``"round"``:
        "Pick your card" on the round message and, under observation, on the raptor's
        reminder; ``"draw"``: an open draw offer's answers), adding ``note`` below."""
        for post in await self.post_store.take(match_id, kind):
            await self._edit(post.channel_id, post.message_id, view=None,
                             allowed_mentions=NO_PINGS, content=f"{post.text}\n✔ {note}")

    async def post_draw_offer(self, match: Match, side: Side) -> None:
        """Post ``side``'s draw offer in ``match`` with the answer buttons, pinging the
        opponent, and record it so that it is retired when the offer lapses."""
        opponent = match.players[side.other]
        content = (f"🤝 {texts.player(match, side)} offers a draw in "
                   f"{texts.match_title(match)}. {texts.mention(opponent)}, do you accept? "
                   "(The offer lapses with the next move.)")
        msg = await self.post(match.channel_id, content, view=components.draw_view(match.id),
                              allowed_mentions=pings(opponent))
        if msg is not None:
            await self.post_store.remember(match.id, "draw", match.channel_id, msg.id,
                                             content)

    async def _adopt_turn_message(self, match_id: int, message: discord.Message | None) -> None:
        """A click on a public turn message we have no record of (one posted by a version of
        the bot that did not record it): record it so it is retired like the others."""
        if (message is None or message.flags.ephemeral
                or await self.post_store.has(match_id, "turn")):
            return
        head = (message.content or "").split(" — ", 1)[0].strip()
        await self.post_store.remember(match_id, "turn", message.channel.id, message.id, head)

    # ------------------------------------------------------------------ a match's life
    async def begin(self, match: Match, interaction: discord.Interaction | None = None) -> None:
        """Announce a new match (in reply to ``interaction`` if given), then its first
        decision: the round-1 pick (quick setup) or the setup placements."""
        png = await self.board_png(match)
        content = texts.match_start_text(match)
        humans = [match.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not match.ai[s]]
        if interaction is not None:
            await say(interaction, content, ephemeral=False, png=png,
                      allowed_mentions=pings(*humans))
        else:
            await self.post(match.channel_id, content, png=png, allowed_mentions=pings(*humans))
        if match.state.phase is Phase.PICK:
            await self._send_post(self._round_start(match))
        await self.advance(match)

    def _round_start(self, m: Match) -> _Post:
        sides = (Side.SCIENTIST,) if m.state.observation else (Side.RAPTOR, Side.SCIENTIST)
        humans = tuple(m.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not m.ai[s])
        return _Post(m, texts.round_start_text(m), view=components.round_view(m.id, m.state.round),
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
        :data:`BUSY_SLOTS` matches do this at once (see ``Flow._busy``)."""
        async with self._busy:
            match = await self.publish(results)
            return await self.advance(match)

    async def run_ai(self, match: Match) -> Match:
        """If an AI side must act, let it (``service.play_ai``) and post what it did."""
        if not match.active or not any(match.ai[s] for s in engine.to_act(match.state)):
            return match
        typing = None
        try:  # "RaptorBot is typing…" while the AI thinks
            typing = self._messageable(match.channel_id).typing()
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
        posts: list[_Post] = []
        lines: list[str] = []
        last: Match | None = None

        def flush(m: Match) -> None:
            if lines:
                posts.append(_Post(m, "\n".join(lines)))
                lines.clear()

        for i, r in enumerate(results):
            m = last = r.match
            kinds = [e.kind for e in r.events]
            human = m.ai.get(r.side) is None
            if isinstance(r.action, engine.Pick):
                log.info("match %d: the %s picked a card", m.id, r.side.value)
                if "revealed" not in kinds:
                    flush(m)
                    posts.append(self._picked_post(m, r.side))
            else:
                log.info("match %d: %s by the %s", m.id, r.action.kind, r.side.value)
                line = texts.action_line(m, r.side, r.action, r.events)
                if not (i == 0 and human and await self._retire_turn(m.id, line)):
                    lines.append(line)
            if "revealed" in kinds:
                flush(m)
                await self._retire_posts(m.id, "round", "Both cards are in: see the reveal below.")
                ev = next(e for e in r.events if e.kind == "revealed")
                posts.append(_Post(m, texts.reveal_text(m, ev.value, ev.value2, r.events)))
            if r.game_over:
                flush(m)
                posts.append(self._result_post(m, with_story=True))
                continue
            if "round_end" in kinds:
                flush(m)
                round_no = next(e.value for e in r.events if e.kind == "round_end")
                posts.append(_Post(m, texts.round_summary(m, round_no, m.state.last_round_events),
                                   board=True))
                posts.append(self._round_start(m))
            elif (m.state.phase is Phase.PICK and m.state.round == 1 and "placed" in kinds):
                flush(m)  # manual setup finished: round 1 begins
                posts.append(_Post(m, texts.setup_summary(m, m.state.last_round_events),
                                   board=True))
                posts.append(self._round_start(m))
        if last is None:
            raise ValueError("publish needs at least one result")
        flush(last)
        # any move ends an open draw offer (the service has cleared it)
        await self._retire_posts(last.id, "draw", "The offer lapsed: a move was made."
                                 if last.active else "The match is over.")
        for post in posts:
            await self._send_post(post)
        return last

    def _picked_post(self, m: Match, side: Side) -> _Post:
        s = m.state
        observed = (s.phase is Phase.PICK and s.observation and side is Side.SCIENTIST
                    and s.picks[Side.RAPTOR] is None)
        if observed:
            raptor = m.players[Side.RAPTOR]
            human = not m.ai[Side.RAPTOR]
            return _Post(m, texts.picked_text(m, side),
                         view=components.round_view(m.id, s.round) if human else None,
                         ping=(raptor,) if human else (), remember_round=human,
                         dm_sides=(Side.RAPTOR,) if human else ())
        return _Post(m, texts.picked_text(m, side))

    def _result_post(self, m: Match, *, with_story: bool = False,
                     extra: str | None = None) -> _Post:
        content = texts.result_text(m) + (f"\n{extra}" if extra else "")
        if with_story and m.state.round_events:
            story = "\n".join(texts.round_story(m.state.round_events))
            if story:
                content = (f"**{texts.match_title(m)} · Round {m.state.round}**\n{story}\n"
                           f"{content}")
        humans = tuple(m.players[s] for s in (Side.RAPTOR, Side.SCIENTIST) if not m.ai[s])
        return _Post(m, content[:2000], board=True, view=components.rematch_view(m.id),
                     ping=humans)

    async def finish(self, match: Match, note: str | None = None, *,
                     extra: str | None = None) -> None:
        """Post the end of a match ended outside the game (resignation, draw, timeout, a
        moderator); ``extra``: a line added to the public result."""
        await self._retire_turn(match.id, note or "the match is over")
        await self._retire_posts(match.id, "round", "The match is over.")
        await self._retire_posts(match.id, "draw", "The match is over.")
        await self._send_post(self._result_post(match, extra=extra))
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
        await self._retire_turn(match.id, None)
        s = match.state
        head = f"{texts.match_title(match)} · Round {s.round} · {texts.PHASE_NAMES[s.phase]}"
        png = await self.board_png(match)
        if self._prompted.get(match.id, -1) > match.version:
            return  # superseded while the board was drawn: nobody should see this decision
        msg = await self.post(match.channel_id, texts.turn_text(match, side, match.deadline_at),
                              png=png, view=components.turn_view(match, side),
                              allowed_mentions=pings(match.players[side]))
        if msg is None:
            return
        if self._prompted.get(match.id, -1) > match.version:
            # a later decision was posted while this one was sent: retire it at once
            await self._retire_turn_post(match.channel_id, msg.id, head, None)
            return
        await self.post_store.remember(match.id, "turn", match.channel_id, msg.id, head)
        if (self._prompted.get(match.id, -1) > match.version
                and await self.post_store.forget(msg.id)):
            # superseded while it was recorded, and the later prompt did not retire it
            await self._retire_turn_post(match.channel_id, msg.id, head, None)

    # ------------------------------------------------------------------ hands (private)
    async def hand_png(self, match: Match, side: Side) -> bytes:
        """The hand image of ``side`` — PRIVATE to that player (R11.2)."""
        return await self.images.hand(match, side)

    async def dm_hand_if_wanted(self, match: Match, side: Side) -> None:
        """DM the hand to a player who turned ``dm_hand`` on; remember a refusal (closed DMs)
        so their next ephemeral hand carries a notice."""
        user_id = match.players[side]
        if match.ai[side] or not await self.service.get_user_setting(user_id, "dm_hand", False):
            return
        await self.dm_hand(match, side)

    async def dm_hand(self, match: Match, side: Side) -> bool:
        """Send the hand of ``side`` to its player by DM. False if DMs are closed (50007)."""
        user_id = match.players[side]
        content = texts.hand_text(match, side) + "\n" + texts.pick_prompt(match, side)
        png = await self.hand_png(match, side)
        kw = _kwargs(view=components.hand_view(match, side))
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(content, file=discord.File(io.BytesIO(png), filename=HAND_FILE), **kw)
        except discord.Forbidden:
            log.info("match %d: DMs closed for user %d; falling back to ephemeral hands",
                     match.id, user_id)
            self._dm_failed.add(user_id)
            return False
        except discord.HTTPException as exc:
            log.warning("match %d: DM to user %d failed (status %s)", match.id, user_id,
                        exc.status)
            self._dm_failed.add(user_id)
            return False
        self._dm_failed.discard(user_id)
        return True

    async def show_hand(self, interaction: discord.Interaction, match: Match, side: Side, *,
                        use_dm: bool = False) -> None:
        """The player's hand (text + image + pick buttons while picking is open), ephemeral —
        or by DM when ``use_dm`` and the player asked for DMs, with an ephemeral fallback and
        a notice when their DMs are closed."""
        user_id = interaction.user.id
        notice = ""
        if use_dm and await self.service.get_user_setting(user_id, "dm_hand", False):
            if await self.dm_hand(match, side):
                await say(interaction, "I sent your hand to your DMs. 📬", ephemeral=True)
                return
            notice = texts.DM_CLOSED + "\n\n"
        elif user_id in self._dm_failed:
            notice = texts.DM_CLOSED + "\n\n"
        self._dm_failed.discard(user_id)
        content = notice + texts.hand_text(match, side) + "\n" + texts.pick_prompt(match, side)
        png = await self.hand_png(match, side)
        await say(interaction, content[:2000], ephemeral=True, png=png, filename=HAND_FILE,
                  view=components.hand_view(match, side))

    # ------------------------------------------------------------------ loading & checks
    async def _player_match(self, interaction: discord.Interaction, match_id: int
                            ) -> tuple[Match, Side] | None:
        """The match and the user's side, or None after an ephemeral refusal (unknown match,
        not a player, match over)."""
        match = await self.service.get_match(match_id)
        side = match.side_of(interaction.user.id)
        if side is None:
            await fail(interaction, texts.NOT_YOUR_MATCH)
            return None
        if not match.active:
            await fail(interaction, "This match is over: nothing can be changed in it any more.")
            return None
        return match, side

    async def _decision_match(self, interaction: discord.Interaction, match_id: int,
                              version: int) -> tuple[Match, Side] | None:
        """Like :meth:`_player_match`, also refusing a stale control (another version) and a
        player who has nothing to decide."""
        found = await self._player_match(interaction, match_id)
        if found is None:
            return None
        match, side = found
        if match.version != version:
            await fail(interaction, texts.stale_text())
            return None
        if side not in engine.to_act(match.state):
            await fail(interaction, "It's not your move now: wait for your opponent.")
            return None
        return match, side

    # ------------------------------------------------------------------ component handlers
    @guarded
    async def on_challenge_button(self, interaction: discord.Interaction, challenge_id: int,
                                  what: str) -> None:
        if what == "accept" and not await self.check_permissions(interaction):
            return
        await defer_update(interaction)
        service = self.service
        user = interaction.user.id
        log.info("challenge %d: %s by user %d", challenge_id, what, user)
        if what == "accept":
            match = await service.accept_challenge(challenge_id, user)
            ch = await service.get_challenge(challenge_id)
            await interaction.edit_original_response(
                content=texts.challenge_closed_text(ch, "accepted"), view=None,
                allowed_mentions=NO_PINGS)
            await self.begin(match)
            return
        if what == "decline":
            ch = await service.decline_challenge(challenge_id, user)
        else:
            ch = await service.cancel_challenge(challenge_id, user)
        await interaction.edit_original_response(content=texts.challenge_closed_text(ch, ch.status),
                                                 view=None, allowed_mentions=NO_PINGS)

    @guarded
    async def on_hand_button(self, interaction: discord.Interaction, match_id: int,
                             round_no: int) -> None:
        await defer(interaction, ephemeral=True)
        found = await self._player_match(interaction, match_id)
        if found is None:
            return
        match, side = found
        if match.state.round != round_no:
            await fail(interaction, texts.stale_text("button") + " (It was for round "
                       f"{round_no}; the match is in round {match.state.round}.)")
            return
        await self.show_hand(interaction, match, side)

    @guarded
    async def on_pick_button(self, interaction: discord.Interaction, match_id: int,
                             round_no: int, card: int) -> None:
        await defer_update(interaction)
        found = await self._player_match(interaction, match_id)
        if found is None:
            return
        match, side = found
        if match.state.round != round_no or match.state.phase is not Phase.PICK:
            await fail(interaction, texts.stale_text("card button"))
            return
        if not await self.check_permissions(interaction, match.channel_id):
            return
        result = await self.service.act(match_id, interaction.user.id, engine.Pick(card),
                                        side=side)
        await interaction.edit_original_response(
            content=f"You picked **{texts.card_label(side, card)}** for round {round_no}.",
            view=None, attachments=[])
        await self.after_human([result])

    @guarded
    async def on_action(self, interaction: discord.Interaction, match_id: int, version: int,
                        notation: str) -> None:
        await defer_update(interaction)
        found = await self._decision_match(interaction, match_id, version)
        if found is None:
            return
        match, side = found
        if not await self.check_permissions(interaction, match.channel_id):
            return
        result = await self.service.act(match_id, interaction.user.id, notation,
                                        expected_version=version, side=side)
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            await interaction.edit_original_response(content=f"Done: `{notation}`", view=None)
        else:
            await self._adopt_turn_message(match_id, message)
        await self.after_human([result])

    @guarded
    async def on_group(self, interaction: discord.Interaction, match_id: int, version: int,
                       key: str, page: int, *, new: bool) -> None:
        if new:
            await defer(interaction, ephemeral=True)
        else:
            await defer_update(interaction)
        found = await self._decision_match(interaction, match_id, version)
        if found is None:
            return
        match, side = found
        built = components.group_view(match, side, key, page)
        if built is None:
            await fail(interaction, texts.stale_text("menu"))
            return
        view, title = built
        if new:
            await say(interaction, title, ephemeral=True, view=view)
        else:
            await interaction.edit_original_response(content=title, view=view)

    @guarded
    async def on_undo(self, interaction: discord.Interaction, match_id: int,
                      version: int) -> None:
        await defer_update(interaction)
        found = await self._decision_match(interaction, match_id, version)
        if found is None:
            return
        match, side = found
        await self.undo(interaction, match, side, expected_version=version)

    async def undo(self, interaction: discord.Interaction, match: Match, side: Side, *,
                   expected_version: int | None = None) -> Match:
        """Take back the player's last AP action (service.undo) and post the decision again."""
        after = await self.service.undo(match.id, interaction.user.id,
                                        expected_version=expected_version)
        log.info("match %d: undo by the %s", match.id, side.value)
        await self._adopt_turn_message(match.id, interaction.message)
        await self._retire_turn(match.id, f"{texts.player(match, side)} took back their last "
                                "action")
        await self.prompt(after)
        self.poke()
        return after

    @guarded
    async def on_match_button(self, interaction: discord.Interaction, match_id: int,
                              what: str) -> None:
        log.info("match %d: %s button by user %d", match_id, what, interaction.user.id)
        if what == "rematch":
            await self.rematch(interaction, match_id)
            return
        await defer_update(interaction)
        if what == "end":
            # only the moderator who ran /raptor-admin end sees this button (ephemeral)
            after = await self.service.end_by_moderator(match_id)
            await interaction.edit_original_response(
                content=f"You ended {texts.match_title(after)}: no result, not rated.", view=None)
            await self.finish(after, "a moderator ended the match",
                              extra=f"Ended by {interaction.user.mention}, a moderator.")
            return
        found = await self._player_match(interaction, match_id)
        if found is None:
            return
        match, side = found
        service = self.service
        user = interaction.user.id
        if what == "resign":
            after = await service.resign(match_id, user)
            await interaction.edit_original_response(content="You resigned.", view=None)
            await self.finish(after, f"{texts.player(match, side)} resigned")
        elif what == "draw-accept":
            after = await service.accept_draw(match_id, user)
            await self._forget_clicked(interaction)
            await interaction.edit_original_response(
                content=f"{texts.player(match, side)} accepted the draw.", view=None,
                allowed_mentions=NO_PINGS)
            await self.finish(after, "drawn by agreement")
        else:
            # the offer's own author clicking "Decline draw" takes the offer back
            withdrawn = match.draw_offered_by == user
            await service.decline_draw(match_id, user)
            await self._forget_clicked(interaction)
            verb = "withdrew the draw offer" if withdrawn else "declined the draw"
            await interaction.edit_original_response(
                content=f"{texts.player(match, side)} {verb}; play on.", view=None,
                allowed_mentions=NO_PINGS)

    async def _forget_clicked(self, interaction: discord.Interaction) -> None:
        """The clicked post's answer closed it (a draw offer accepted or declined): this
        handler edits it, so it is no longer retired with the others. Called only once the
        answer was accepted: a refused one (say a move made the offer lapse meanwhile)
        leaves the post to be retired as lapsed."""
        if interaction.message is not None:
            await self.post_store.forget(interaction.message.id)

    async def post_challenge(self, interaction: discord.Interaction, ch: Challenge) -> None:
        """Answer ``interaction`` with the challenge's message and buttons (pinging the
        challenged player), and record that message so that its expiry can edit it."""
        msg = await say(interaction, texts.challenge_text(ch), ephemeral=False,
                        view=components.challenge_view(ch.id),
                        allowed_mentions=pings(ch.challenged_id))
        if msg is None:
            msg = await interaction.original_response()
        await self.service.set_challenge_message(ch.id, msg.id)

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """A rematch of a finished match: a new challenge to the opponent (sides swapped), or a
        new practice game with the sides swapped when the opponent was the AI."""
        await defer(interaction, ephemeral=False)
        old = await self.service.get_match(match_id)
        mine = old.side_of(interaction.user.id)
        if mine is None:
            await fail(interaction, "Only the players of that match can ask for a rematch.")
            return
        if old.active:
            await fail(interaction, "That match is still being played: finish it (or resign) "
                       "first.")
            return
        if not await self.check_permissions(interaction, old.channel_id):
            return
        if old.practice:
            level = old.ai[mine.other] or "easy"
            match = await self.service.start_practice(
                old.guild_id, old.channel_id, interaction.user.id, side=mine.other.value,
                level=level, environment=old.options.environment, setup=old.options.setup,
                ai_user_id=self.bot.user.id)  # type: ignore[union-attr]
            await self.begin(match, interaction)
            return
        ch = await self.service.rematch(match_id, interaction.user.id)
        await self.post_challenge(interaction, ch)
        self.poke()

    # ------------------------------------------------------------------ timers
    async def run_timers_once(self) -> list[TimerEvent]:
        """Fire due timers (service.process_timers) and post their messages."""
        events = await self.service.process_timers()
        for event in events:
            try:
                await self.on_timer(event)
            except Exception:
                log.exception("posting timer event %s failed", event.kind)
        return events

    async def on_timer(self, event: TimerEvent) -> None:
        if event.kind == "reminder" and event.match is not None:
            m = event.match
            who = " ".join(texts.mention(u) for u in event.user_ids)
            when = f" Time runs out {texts.ts(m.deadline_at)}." if m.deadline_at else ""
            log.info("match %d: reminder", m.id)
            await self.post(event.channel_id,
                            f"⏰ {who}, {texts.match_title(m)} is waiting for your decision "
                            f"({texts.PHASE_NAMES[m.state.phase].lower()}).{when}",
                            allowed_mentions=pings(*event.user_ids))
        elif event.kind == "forfeit" and event.match is not None:
            log.info("match %d: ended by its timer (%s)", event.match.id, event.match.reason)
            await self.finish(event.match, "time ran out")
        elif event.kind == "challenge_expired" and event.challenge is not None:
            ch = event.challenge
            text = texts.challenge_closed_text(ch, "expired")
            # the challenge's own message loses its buttons; a new message only if that fails
            if ch.message_id is None or not await self._edit(
                    ch.channel_id, ch.message_id, content=text, view=None,
                    allowed_mentions=NO_PINGS):
                await self.post(event.channel_id, text)

    async def _resume_ai(self) -> None:
        """After a (re)start: let the AI take the decisions it owes."""
        for match_id in await self.service.matches_waiting_for_ai():
            try:
                await self.advance(await self.service.get_match(match_id))
            except Exception:
                log.exception("match %d: resuming the AI failed", match_id)

    async def _timer_loop(self) -> None:
        await self.bot.wait_until_ready()
        try:
            await self._resume_ai()
        except Exception:
            log.exception("resuming AI matches failed")
        while not self.bot.is_closed():
            self._wake.clear()
            delay = MAX_TIMER_SLEEP
            try:
                await self.run_timers_once()
                due = await self.service.next_timer_at()
                if due is not None:
                    delay = min(MAX_TIMER_SLEEP,
                                max(MIN_TIMER_SLEEP, due - self.service.clock()))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the timer loop failed; retrying in %.0f s", ERROR_SLEEP)
                delay = ERROR_SLEEP
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a cancellation (stop)
            # that arrives just as the wake-up event is set, and the loop went on for good
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()
