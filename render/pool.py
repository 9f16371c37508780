"""Worker processes for rendering: :func:`render_executor`.

A render is a pure function of a small picklable value (an :class:`engine.View`, ~1 KB
pickled, or a :class:`render.hand.HandContent`) that returns PNG bytes, so it can run in
another process; so is a match's animation (:func:`render.replay.render_replay`: a list of
views in, an :class:`render.animation.Animation` out, ~1 s for 30 rounds), which the bot must
never draw on its event loop. Drawing with Pillow holds the GIL; in a worker *thread* it
makes the event loop of the bot wait (every socket send/receive re-acquires the GIL); in a
worker *process* it does not, and both CPUs can be used.

Workers are started from a "forkserver" that imported :mod:`render` once (fork from a clean,
single-threaded process; each worker then starts in a few milliseconds), else with "spawn".
They run at a lower CPU priority (``nice``) than the bot, so that acknowledging
interactions comes before drawing, and each leaves by itself within about
``ORPHAN_CHECK_SECONDS`` once the process that made the pool is gone, also when that process
was killed outright (``kill -9``, out of memory) and could not shut its pool down.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

log = logging.getLogger(__name__)

#: How much lower the workers' CPU priority is than the bot's (``os.nice`` increment).
WORKER_NICE = 5
#: Seconds between a worker's checks that the process that made its pool is still alive.
ORPHAN_CHECK_SECONDS = 1.0


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is still running: False once it is gone, or, where ``/proc``
    tells, a zombie (killed, its exit status not yet collected by its parent)."""
    if os.path.isdir("/proc/self"):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                return f.read().rpartition(")")[2].split()[:1] not in (["Z"], ["X"])
        except FileNotFoundError:
            return False
        except OSError:  # pragma: no cover - unreadable: ask the process itself below
            pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, another user's
        return True
    return True


def _leave_when_orphaned(owner: int) -> None:
    """Worker thread: end this worker once the pool's owner ``owner`` (a pid) is gone. A
    worker's parent is the forkserver, which outlives a killed bot, so ``os.getppid`` does
    not tell; the owner's pid does."""
    while _alive(owner):
        time.sleep(ORPHAN_CHECK_SECONDS)
    os._exit(0)


def _init_worker(nice: int, owner: int | None = None) -> None:
    # Ctrl-C in a terminal reaches every process of the foreground group: a worker leaves
    # stopping to the bot, which shuts its pool down (bot.shutdown), instead of printing a
    # KeyboardInterrupt traceback. (SIGTERM keeps its default: the pool itself terminates
    # its workers with it when it breaks.)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - not allowed here: keep the priority
            pass
    if owner is not None:
        threading.Thread(target=_leave_when_orphaned, args=(owner,), daemon=True,
                         name="raptor-render-orphan-check").start()


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["render"])
        return ctx
    return multiprocessing.get_context("spawn")


def render_executor(workers: int, *, processes: bool = True,
                    nice: int = WORKER_NICE) -> Executor:
    """An executor for render functions: ``workers`` processes (see the module docstring)
    when ``processes`` and the platform allows it, else ``workers`` threads.

    Shut it down with ``shutdown(wait=False, cancel_futures=True)`` when done. A process pool
    can break later (a worker killed): callers should catch
    :class:`concurrent.futures.process.BrokenProcessPool` and fall back to threads.
    """
    if processes:
        try:
            return ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                                       initializer=_init_worker, initargs=(nice, os.getpid()))
        except (OSError, ImportError, NotImplementedError, ValueError) as exc:
            log.warning("render workers: no process pool here (%s); using threads",
                        type(exc).__name__)
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="raptor-render")
