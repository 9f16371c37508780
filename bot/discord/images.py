"""The images of the matches, of any game: public images, private ones (a hand), replays —
drawn by each game's renderer (:mod:`bot.discord.presentation`: an :class:`ImageJob`, a
:class:`Replay`) off the event loop, and each drawn once."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.messages import Text
from render.pool import render_executor

from ..i18n import ENGLISH, translator
from ..match import Match, ServiceError
from .presentation import ImageJob, Replay, ui_of

log = logging.getLogger(__name__)

BOARD_CACHE = 256  # board PNGs kept (palette PNGs of about 50 KB each: ~15 MB at most)
HAND_CACHE = 256  # hand PNGs kept (about 60-120 KB each)
REPLAY_CACHE = 16  # animations of finished matches kept (about 0.3 MB for 15 rounds, 0.8 for 60)
FRAME_CACHE = 128  # replay viewer frames kept (about 130 KB each)
MAX_REPLAYS = 2  # animations drawn at once by default (RAPTOR_MAX_REPLAYS)
#: The slot of the worker that draws replays (animations and viewer frames): a process of
#: its own, so that a board never waits in a queue behind an animation.
REPLAY_SLOT = -2
#: How much lower that worker's CPU priority is than the bot's (the board workers': 5).
REPLAY_NICE = 10


class ReplaysBusyError(ServiceError):
    """A new animation would pass the cap on animations drawn at once (for the whole bot,
    or one per member)."""


def _drawer(job: ImageJob, lang: str) -> Callable[[Any], bytes]:
    """The function a render worker calls with the job's argument (picklable: the game's
    drawing function with its options, in ``lang``)."""
    draw = functools.partial(job.draw, **job.kwargs) if job.kwargs else job.draw
    return functools.partial(in_language, draw, lang)


def in_language(draw: Callable[..., Any], lang: str, arg: Any) -> Any:
    """``draw(arg)`` with its texts in ``lang`` (``tr=``, :data:`render.board.Tr`); run in
    the render worker, so only the language's name crosses the process boundary."""
    if lang == ENGLISH:
        return draw(arg)
    return draw(arg, tr=translator(lang).text)


class Images:
    """The PNGs of the matches, rendered off the event loop — in worker processes
    (:func:`render.pool.render_executor`; threads when ``processes=False`` or when processes
    are unavailable or break) — and each rendered once:

    * a public image per its game's key (Raptor's board, R11.1: ``(match id, version)`` —
      the version changes with every change of the game, so the key fixes the position);
    * a private image (Raptor's hand, R11.2) per its game's key of what it draws, which
      names the viewer: one player's key never equals another's, and a private image is
      only ever asked for the player it is sent to.

    A finished match's replay is drawn once too: its animation per ``(match id, version,
    byte limit, language)`` and each viewer frame per ``(match id, version, frame,
    language)`` (a finished match no longer changes), in a worker process of their own
    (:data:`REPLAY_SLOT`, at a lower priority, :data:`REPLAY_NICE`), so the boards of the
    matches in progress never queue behind an animation. At most ``max_replays`` different
    animations are drawn at once, and one per member; a request beyond that is refused
    (:class:`ReplaysBusyError`); a request for one being drawn waits for it, one cached is
    served at once.

    The caches are bounded LRUs (:data:`BOARD_CACHE`, :data:`HAND_CACHE`,
    :data:`REPLAY_CACHE`, :data:`FRAME_CACHE` entries). Requests for an image being rendered
    wait for that render instead of starting another. ``renders`` and ``hits`` count renders
    made and requests served without one. A match's boards and hands always go to the same
    worker process (match id modulo ``workers``), which keeps that match's static layer (its
    random layout) ready. The workers start with the first render and stop at :meth:`close`
    (the flow's ``stop``).
    """

    def __init__(self, *, workers: int | None = None, processes: bool = True,
                 boards: int = BOARD_CACHE, hands: int = HAND_CACHE,
                 replays: int = REPLAY_CACHE, frames: int = FRAME_CACHE,
                 max_replays: int = MAX_REPLAYS) -> None:
        self.workers = workers or max(2, os.cpu_count() or 2)
        self.processes = processes
        self.max_replays = max_replays
        # one single-worker pool per worker process: a match's boards always go to the same
        # worker, which then keeps its layout's static layer (render.board.static_layer);
        # with threads, one pool of ``workers`` threads (slot 0)
        self._executors: dict[int, Executor] = {}
        self._sizes = {"board": boards, "hand": hands, "replay": replays, "frame": frames}
        self._caches: dict[str, OrderedDict[Hashable, Any]] = {
            kind: OrderedDict() for kind in self._sizes}
        self._inflight: dict[tuple[str, Hashable], asyncio.Future[Any]] = {}
        self._drawing: dict[Hashable, int | None] = {}  # animations being drawn -> who asked
        self.renders = 0
        self.hits = 0

    async def board(self, match: Match, lang: str = ENGLISH) -> bytes:
        """The public image of ``match`` now (its game's :meth:`GameUI.board`, drawn from the
        public view only), its texts in ``lang`` (the server's language); a match that ended
        outside the game carries its verdict as a banner."""
        ui = ui_of(match.game)
        verdict = ui.board_verdict(match)
        job = ui.board(match, None if verdict is None else translator(lang).text(verdict))
        return await self._get("board", (job.key, lang), _drawer(job, lang), job.arg,
                               slot=match.id)

    async def private(self, match: Match, seat: int, lang: str = ENGLISH) -> bytes | None:
        """The image of what only ``seat``'s player sees in ``match`` (a hand) — PRIVATE to
        that player — in ``lang`` (its owner's language); None when the game has none."""
        job = ui_of(match.game).private_image(match, seat)
        if job is None:
            return None
        return await self._get("hand", (job.key, lang), _drawer(job, lang), job.arg,
                               slot=match.id)

    async def replay(self, match: Match, replay: Replay, *, byte_limit: int,
                     lang: str = ENGLISH, requester: int | None = None) -> Any:
        """The animation of the finished ``match`` (its game's ``replay.animate``), drawn in
        the replay worker (never on the event loop) once per match, byte limit and language,
        for ``requester`` (a user id).

        Raises:
            ReplaysBusyError: it is not drawn yet nor being drawn, and ``max_replays``
                animations are being drawn, or one asked for by ``requester``.
        """
        key = (match.id, match.version, byte_limit, lang)
        draw = functools.partial(replay.animate, byte_limit=byte_limit, **replay.kwargs)

        def admit() -> None:
            if len(self._drawing) >= self.max_replays:
                raise ReplaysBusyError(Text.plural(
                    "I'm drawing {n} replay already, as many as I draw at once: try again "
                    "in a minute.", "I'm drawing {n} replays already, as many as I draw at "
                    "once: try again in a minute.", len(self._drawing)))
            if requester is not None and requester in self._drawing.values():
                raise ReplaysBusyError(Text("Your other replay is still being drawn: ask "
                                            "for this one once it is here."))
            self._drawing[key] = requester

        try:
            return await self._get("replay", key, functools.partial(in_language, draw, lang),
                                   lambda: list(replay.frames), slot=REPLAY_SLOT, admit=admit)
        finally:
            if ("replay", key) not in self._inflight:
                self._drawing.pop(key, None)

    async def replay_frame(self, match: Match, replay: Replay, index: int,
                           lang: str = ENGLISH) -> bytes:
        """Frame ``index`` of the finished ``match``'s replay as PNG bytes (the step-through
        viewer's picture, its game's ``replay.draw_frame``), its texts in ``lang`` (the
        viewer's language), drawn once in the replay worker."""
        total = len(replay.frames)
        draw = functools.partial(replay.draw_frame, total=total, final=index == total - 1,
                                 **replay.kwargs)
        return await self._get("frame", (match.id, match.version, index, total, lang),
                               functools.partial(in_language, draw, lang),
                               lambda: replay.frames[index], slot=REPLAY_SLOT)

    async def _get(self, kind: str, key: Hashable, fn: Callable[[Any], Any],
                   arg: Callable[[], Any], *, slot: int,
                   admit: Callable[[], None] | None = None) -> Any:
        """The cached result of ``fn(arg())`` for ``key``, the render in flight for it, or a
        new render in the worker of ``slot``; ``admit`` (which may raise) is called only
        before a new render."""
        cache = self._caches[kind]
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
            self.hits += 1
            return found
        fut = self._inflight.get((kind, key))
        if fut is None:
            if admit is not None:
                admit()
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

    def _done(self, kind: str, key: Hashable, fut: asyncio.Future[Any]) -> None:
        if self._inflight.get((kind, key)) is fut:
            del self._inflight[(kind, key)]
        if kind == "replay":
            self._drawing.pop(key, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        self.renders += 1
        cache = self._caches[kind]
        cache[key] = fut.result()
        while len(cache) > self._sizes[kind]:
            cache.popitem(last=False)

    def _pool(self, slot: int) -> Executor:
        if self.processes and slot == REPLAY_SLOT:
            if slot not in self._executors:
                self._executors[slot] = render_executor(1, processes=True, nice=REPLAY_NICE)
        elif self.processes:
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
