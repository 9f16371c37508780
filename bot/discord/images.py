"""The images of the matches: public boards and private hands, rendered off the event loop
and each rendered once."""

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

import engine
import render
from engine import Side
from engine.messages import Text
from render import replay as render_replay_module
from render.pool import render_executor

from .. import texts
from ..games.raptor import sides as rs
from ..i18n import ENGLISH, translator
from ..match import Match, ServiceError

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

    * a public board (R11.1) per ``(match id, version)`` — the version changes with every
      change of the game, so the key fixes the position;
    * a hand (R11.2) per :func:`render.hand_content` of the player's own view, which names the
      viewer: one player's key never equals the other's, and a hand is only ever looked up
      with the view of the player it is sent to.

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
        """The public board image of ``match`` (``render.render_board`` of its public view),
        its texts in ``lang`` (the server's language)."""
        key = (match.id, match.version, lang)
        verdict = texts.board_verdict(match)
        if verdict is not None:
            verdict = translator(lang).text(verdict)
        winner = Side(rs.result(match)) if rs.result(match) in ("raptor", "scientist") else None
        draw = (functools.partial(render.render_board, verdict=verdict, winner=winner)
                if verdict else render.render_board)
        return await self._get("board", key, functools.partial(in_language, draw, lang),
                               lambda: engine.view(match.state, None), slot=match.id)

    async def hand(self, match: Match, side: Side, lang: str = ENGLISH) -> bytes:
        """The hand image of ``side`` in ``match`` — PRIVATE to that player (R11.2) — in
        ``lang`` (its owner's language)."""
        content = render.hand_content(engine.view(match.state, side))
        return await self._get("hand", (content, lang),
                               functools.partial(in_language, render.render_hand, lang),
                               lambda: content, slot=match.id)

    async def replay(self, match: Match, views: list[engine.View], *, byte_limit: int,
                     verdict: str | None = None, winner: Side | None = None,
                     lang: str = ENGLISH, requester: int | None = None
                     ) -> render_replay_module.Animation:
        """The animation of the finished ``match`` from its public ``views``
        (:func:`render.replay.render_replay`), drawn in the replay worker (never on the event
        loop) once per match, byte limit and language, for ``requester`` (a user id).

        Raises:
            ReplaysBusyError: it is not drawn yet nor being drawn, and ``max_replays``
                animations are being drawn, or one asked for by ``requester``.
        """
        key = (match.id, match.version, byte_limit, lang)
        draw = functools.partial(render_replay_module.render_replay, byte_limit=byte_limit,
                                 verdict=translator(lang).text(verdict), winner=winner)

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
                                   lambda: views, slot=REPLAY_SLOT, admit=admit)
        finally:
            if ("replay", key) not in self._inflight:
                self._drawing.pop(key, None)

    async def replay_frame(self, match: Match, view: engine.View, *, index: int, total: int,
                           final: bool = False, verdict: str | None = None,
                           winner: Side | None = None, lang: str = ENGLISH) -> bytes:
        """Frame ``index`` of ``total`` of the animation of the finished ``match`` as PNG
        bytes (the step-through viewer's picture of ``view``,
        :func:`render.replay.frame_png`), its texts in ``lang`` (the viewer's language),
        drawn once in the replay worker."""
        draw = functools.partial(render_replay_module.frame_png, total=total, final=final,
                                 verdict=translator(lang).text(verdict), winner=winner)
        return await self._get("frame", (match.id, match.version, index, total, lang),
                               functools.partial(in_language, draw, lang), lambda: view,
                               slot=REPLAY_SLOT)

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
