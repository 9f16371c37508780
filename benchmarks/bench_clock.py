"""The AI's clock under load: decision times of the searching levels with a CPU hog on
every core beside them. Run by hand (NOT niced: it measures wall-clock time):

    python benchmarks/bench_clock.py                          # 2 s and 0.1 s, medium and hard
    python benchmarks/bench_clock.py --budgets 2 --positions 40 --hogs 0   # without the hog

The promise: a decision never takes longer than its budget + 10 %, even when
another process loads both cores. Positions: the decisions of ``--games`` seeded games of
the easy level against itself (random layout, manual setup, both sides, every phase), of
which ``--positions`` with more than one legal action are drawn by a seeded shuffle, the
same ones for every budget and level. The hog: ``--hogs`` processes (default: one per
core) spinning at the benchmark's own priority, started before the first decision and
stopped after the last. Each decision is one :func:`bot.ai.choose_action` call on the
real clock, timed from the call to the answer.

Printed: per budget and level, the median, 95th percentile and worst decision time, and
how many decisions took longer than the budget + 10 %.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from bot.ai import choose_action  # noqa: E402
from engine import Side  # noqa: E402


def _spin(stop) -> None:
    """A CPU hog: busy arithmetic until ``stop`` is set."""
    x = 0
    while not stop.is_set():
        for i in range(10_000):
            x = (x * 31 + i) % 1_000_003


def positions(games: int, count: int, first_seed: int) -> list[tuple[engine.View, Side]]:
    """``count`` decision points (view, side) with a choice, from easy-vs-easy games."""
    found = []
    for g in range(games):
        seed = first_seed + g
        state = engine.new_game(seed)
        decision = 0
        while not state.is_over and state.round <= 60:
            for side in (Side.RAPTOR, Side.SCIENTIST):
                if side not in engine.to_act(state):
                    continue
                v = engine.view(state, side)
                if len(engine.legal_actions(state, side)) > 1:
                    found.append((v, side))
                state = engine.apply(state, side, choose_action(v, level="easy",
                                                                seed=seed * 1000 + decision))
                decision += 1
    random.Random(first_seed).shuffle(found)
    return found[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", type=float, nargs="+", default=[2.0, 0.1])
    parser.add_argument("--levels", nargs="+", default=["medium", "hard"],
                        choices=("medium", "hard"))
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first-seed", type=int, default=8000)
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2,
                        help="CPU hog processes (default: one per core)")
    args = parser.parse_args(argv)
    points = positions(args.games, args.positions, args.first_seed)
    phases: dict[str, int] = {}
    for v, _side in points:
        phases[v.phase.value] = phases.get(v.phase.value, 0) + 1
    print(f"{len(points)} positions from {args.games} easy-vs-easy games (seeds "
          f"{args.first_seed}...): " + ", ".join(f"{k} {n}" for k, n in sorted(phases.items())))
    stop = multiprocessing.Event()
    hogs = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True)
            for _ in range(args.hogs)]
    for h in hogs:
        h.start()
    print(f"CPU hog: {args.hogs} spinning processes on {os.cpu_count()} cores "
          f"(load average before: {os.getloadavg()[0]:.2f})")
    try:
        time.sleep(0.5)
        for budget in args.budgets:
            for level in args.levels:
                times = []
                for i, (v, _side) in enumerate(points):
                    start = time.perf_counter()
                    choose_action(v, level=level, seed=i, time_budget=budget)
                    times.append(time.perf_counter() - start)
                times.sort()
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                over = sum(1 for t in times if t > 1.1 * budget)
                median = statistics.median(times)
                print(f"  budget {budget:g} s, {level:<6}: median {1000 * median:8.1f} ms, "
                      f"95th pct {1000 * p95:8.1f} ms, worst {1000 * times[-1]:8.1f} ms; "
                      f"over budget + 10 %: {over} of {len(times)}", flush=True)
    finally:
        stop.set()
        for h in hogs:
            h.join(timeout=5)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
