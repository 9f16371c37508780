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
from render import replay as render_replay_module
from render.pool import render_executor

from .. import texts
from ..i18n import ENGLISH, translator
from ..match import Match

log = logging.getLogger(__name__)

BOARD_CACHE = 256  # board PNGs kept (about 130 KB each: ~33 MB at most)
HAND_CACHE = 256  # hand PNGs kept (about 60-120 KB each)


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

    async def board(self, match: Match, lang: str = ENGLISH) -> bytes:
        """The public board image of ``match`` (``render.render_board`` of its public view),
        its texts in ``lang`` (the server's language)."""
        key = (match.id, match.version, lang)
        verdict = texts.board_verdict(match)
        if verdict is not None:
            verdict = translator(lang).text(verdict)
        winner = Side(match.result) if match.result in ("raptor", "scientist") else None
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
                     lang: str = ENGLISH) -> render_replay_module.Animation:
        """The animation of the finished ``match`` from its public ``views``
        (:func:`render.replay.render_replay`), drawn in the match's worker process like its
        boards (never on the event loop); not cached (a replay is asked for rarely)."""
        draw = functools.partial(render_replay_module.render_replay, byte_limit=byte_limit,
                                 verdict=translator(lang).text(verdict), winner=winner)
        return await self._render(functools.partial(in_language, draw, lang), views, match.id)

    async def replay_frame(self, match: Match, view: engine.View, *, total: int,
                           final: bool = False, verdict: str | None = None,
                           winner: Side | None = None, lang: str = ENGLISH) -> bytes:
        """One frame of the animation of ``match`` as PNG bytes (the step-through viewer's
        picture, :func:`render.replay.frame_png`), its texts in ``lang`` (the viewer's
        language), drawn in the match's worker process."""
        draw = functools.partial(render_replay_module.frame_png, total=total, final=final,
                                 verdict=translator(lang).text(verdict), winner=winner)
        return await self._render(functools.partial(in_language, draw, lang), view, match.id)

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
