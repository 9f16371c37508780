"""The AI's memos under parallel searches: decisions per second and failures of the ways to
share them, in one run. Run by hand:

    python benchmarks/bench_ai_threads.py                          # 4 games, 20 playouts, 6 threads
    python benchmarks/bench_ai_threads.py --memo-size 2048 --repeat 3   # memos forget often

The bot runs one search per match in a worker thread (``asyncio.to_thread``), and every
search shares the memos of ``bot.ai.evaluation`` (``_SCORE_MEMO``, ``_DIST_CACHE``) and
``bot.ai.easy`` (``_POLICY_MEMO``), which forget their older half when full
(``evaluation.remember``). The ways compared, each on the same positions
(``benchmarks/ai_decisions.py``'s: decision points of seeded random games, both sides, every
phase; the hard level at ``--iterations`` fixed playouts, seed = the position's index):

- ``old``: the memos forget with ``del memo[key]`` for each older key (the code before
  ``remember`` was made safe): two threads forgetting at once raise ``KeyError``;
- ``new``: ``evaluation.remember`` as it is (one thread forgets at a time, under a lock
  taken only when a memo is full; a key gone already is skipped);
- ``lock``: every store into a memo under one lock (reads stay unlocked);
- ``per-search``: ``new``, with the memos emptied before every decision, as per-search
  memos would start (a lower bound of their cost: passing the memos down costs more).

Each is timed one decision at a time and with ``--threads`` searches at once in threads
(with the GIL, threads share one core's worth of Python; a failed decision counts as a
failure, not a decision), each starting from empty memos, in CPU seconds of the process
(the speed of the search itself, whatever else loads the machine; the wall time of the
threads is printed beside); ``--repeat`` rounds alternate the ways. Printed: decisions/s per
way and round, the mean, the failures, and whether every decision of every way and round
equals the first one-at-a-time run's. ``--memo-size N`` shrinks the three memos to N
entries, so that they forget many times in a run (the bot's memos hold 32,768 and forget
about once every few hundred hard decisions).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from ai_decisions import positions  # noqa: E402

import engine  # noqa: E402
from bot.ai import choose_action, easy, evaluation  # noqa: E402

NEW_REMEMBER = evaluation.remember
_STORING = threading.Lock()


def old_remember(memo: dict, key, value, size: int):
    """``evaluation.remember`` before it was made safe for threads (for comparison)."""
    if len(memo) >= size:
        for old in list(itertools.islice(memo, size // 2)):
            del memo[old]
    memo[key] = value
    return value


def locked_remember(memo: dict, key, value, size: int):
    """``evaluation.remember`` with every store under one lock."""
    with _STORING:
        return NEW_REMEMBER(memo, key, value, size)


WAYS: dict[str, Callable] = {"old": old_remember, "new": NEW_REMEMBER,
                             "lock": locked_remember, "per-search": NEW_REMEMBER}


def empty_memos() -> None:
    evaluation._SCORE_MEMO.clear()
    evaluation._DIST_CACHE.clear()
    easy._POLICY_MEMO.clear()


def use(way: str, memo_size: int | None) -> None:
    """Make the AI's memos work the ``way`` way (sizes: ``memo_size`` if given)."""
    evaluation.remember = easy.remember = WAYS[way]
    if memo_size is not None:
        evaluation.SCORE_MEMO_SIZE = evaluation.DIST_MEMO_SIZE = easy.MEMO_SIZE = memo_size
    empty_memos()


def decider(views: list[engine.View], way: str, iterations: int) -> Callable:
    def decide(i: int) -> str:
        if way == "per-search":
            empty_memos()  # shared dicts: only meaningful one decision at a time
        return engine.format_action(choose_action(views[i], level="hard", seed=i,
                                                  iterations=iterations))
    return decide


def one_at_a_time(views, way: str, iterations: int) -> tuple[float, list[str]]:
    """(CPU seconds, decisions) of the positions decided in order in this thread."""
    decide = decider(views, way, iterations)
    t0 = time.process_time()
    out = [decide(i) for i in range(len(views))]
    return time.process_time() - t0, out


def together(views, way: str, iterations: int, threads: int
             ) -> tuple[float, float, list[str | None], int]:
    """(CPU seconds of the process, wall seconds, decisions or None for a failed one,
    failures) of the positions decided by ``threads`` threads at once."""
    decide = decider(views, way, iterations)

    def attempt(i: int) -> str | None:
        try:
            return decide(i)
        except Exception:  # noqa: BLE001 - counted: what the bot logs as "the AI failed"
            return None

    t0, c0 = time.perf_counter(), time.process_time()
    with ThreadPoolExecutor(threads) as pool:
        out = list(pool.map(attempt, range(len(views))))
    return (time.process_time() - c0, time.perf_counter() - t0, out,
            sum(a is None for a in out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="random games (seeds 1..N)")
    ap.add_argument("--stride", type=int, default=25, help="keep every N-th other decision")
    ap.add_argument("--iterations", type=int, default=20, help="hard level's fixed playouts")
    ap.add_argument("--threads", type=int, default=6, help="searches at once (6)")
    ap.add_argument("--repeat", type=int, default=2, help="rounds of every way (2)")
    ap.add_argument("--memo-size", type=int, default=None,
                    help="entries of each memo (default: the AI's own sizes)")
    ap.add_argument("--ways", nargs="+", default=list(WAYS), choices=list(WAYS))
    args = ap.parse_args()
    views = [engine.view(s, side) for s, side in positions(range(1, args.games + 1),
                                                           args.stride)]
    sizes = (f"memo size {args.memo_size}" if args.memo_size else
             f"memo sizes {evaluation.SCORE_MEMO_SIZE}/{evaluation.DIST_MEMO_SIZE}/"
             f"{easy.MEMO_SIZE}")
    print(f"{len(views)} positions, hard level at {args.iterations} playouts, "
          f"{args.threads} threads, {sizes}, Python {sys.version.split()[0]}")
    alone: dict[str, list[float]] = {w: [] for w in args.ways}
    shared: dict[str, list[float]] = {w: [] for w in args.ways}
    shared_wall: dict[str, list[float]] = {w: [] for w in args.ways}
    failures: dict[str, list[int]] = {w: [] for w in args.ways}
    reference: list[str] | None = None
    same = True
    for r in range(args.repeat):
        for way in args.ways:
            use(way, args.memo_size)
            cpu, out = one_at_a_time(views, way, args.iterations)
            reference = reference or out
            same = same and out == reference
            alone[way].append(len(views) / cpu)
            if way == "per-search":
                continue  # shared dicts emptied by other threads' searches: not per search
            use(way, args.memo_size)
            cpu2, wall, out2, failed = together(views, way, args.iterations, args.threads)
            shared[way].append((len(views) - failed) / cpu2)
            shared_wall[way].append((len(views) - failed) / wall)
            failures[way].append(failed)
            same = same and all(a is None or a == b for a, b in zip(out2, reference,
                                                                    strict=True))
            print(f"  round {r + 1} {way:<10} one at a time {alone[way][-1]:6.2f} "
                  f"decisions/CPU s; {args.threads} threads {shared[way][-1]:6.2f} "
                  f"decisions/CPU s ({shared_wall[way][-1]:.2f}/s of wall time), "
                  f"{failed} failed", flush=True)
        if "per-search" in args.ways:
            print(f"  round {r + 1} per-search one at a time {alone['per-search'][-1]:6.2f} "
                  "decisions/CPU s", flush=True)
    print("means:")
    for way in args.ways:
        line = f"  {way:<10} one at a time {statistics.mean(alone[way]):6.2f} decisions/CPU s"
        if shared[way]:
            line += (f"; {args.threads} threads {statistics.mean(shared[way]):6.2f} "
                     f"decisions/CPU s ({statistics.mean(shared_wall[way]):.2f}/s of wall "
                     f"time), failures {sum(failures[way])} of "
                     f"{len(views) * len(failures[way])}")
        print(line)
    print(f"every decision that did not fail equals the first run's: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
