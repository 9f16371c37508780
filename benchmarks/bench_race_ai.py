"""Raptor Race AI levels against each other: four-seat races, two seats of each level,
the six ways to seat them rotated game by game (and the first seat drawn by each race's
seed, RR3.5). Prints per level the mean score and the win share (a seat in first place,
shared places included) with 95 % intervals, the mean difference per race (the paired
measure: both levels play the same race) and the decision times::

    python benchmarks/bench_race_ai.py --games 500 --board desert --processes 2
    python benchmarks/bench_race_ai.py --games 500 --board jungle --a hard --b easy

Figures: ``benchmarks/RESULTS.md`` (Raptor Race AI).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine.race as race  # noqa: E402
from bot.games.race.ai import choose_action  # noqa: E402

#: The six seatings of two seats of level a and two of level b.
SEATINGS = ("aabb", "abab", "abba", "baab", "baba", "bbaa")


def play(job: tuple[int, str, str, str, str, int | None]) -> dict:
    """One race: each seat's level, score and place, and the decision times by level."""
    seed, board, seating, a, b, iterations = job
    levels = [a if c == "a" else b for c in seating]
    state = race.new_game(seed, 4, board)
    times: dict[str, list[float]] = {a: [], b: []}
    decision = 0
    while not state.is_over:
        level = levels[state.seat]
        started = time.perf_counter()
        action = choose_action(race.view(state, state.seat), level=level,
                               seed=seed * 10_000 + decision, iterations=iterations)
        times[level].append(time.perf_counter() - started)
        decision += 1
        state = race.apply(state, state.seat, action)
    out = race.outcome(state)
    return {"levels": levels, "scores": list(out.scores), "places": list(out.places),
            "turns": state.turn, "times": times}


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % interval (normal approximation)."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def share_interval(wins: int, n: int) -> tuple[float, float, float]:
    """A share and its 95 % Wilson interval."""
    p, z = wins / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--board", choices=("desert", "jungle"), default="desert")
    parser.add_argument("--a", default="hard", help="the first level (default: hard)")
    parser.add_argument("--b", default="easy", help="the second level (default: easy)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=None,
                        help="the hard search's cap on positions (default: its own)")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.first_seed + n, args.board, SEATINGS[n % 6], args.a, args.b,
             args.iterations) for n in range(args.games)]
    started = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(play, jobs, chunksize=4)
    wall = time.perf_counter() - started
    print(f"{args.games} four-seat races on the {args.board}, {args.a} x2 against "
          f"{args.b} x2, seatings rotated; {wall:.0f} s with {args.processes} processes")
    diffs = []
    for level in (args.a, args.b):
        scores = [s for r in results for s, lv in zip(r["scores"], r["levels"], strict=True)
                  if lv == level]
        wins = sum(p == 1 for r in results for p, lv in zip(r["places"], r["levels"],
                                                           strict=True) if lv == level)
        m, half = mean_interval(scores)
        p, lo, hi = share_interval(wins, len(scores))
        times = [t for r in results for t in r["times"][level]]
        print(f"  {level:6s} mean score {m:5.2f} ± {half:.2f}   win share {100 * p:4.1f} % "
              f"[{100 * lo:4.1f}, {100 * hi:4.1f}] of {len(scores)} seats   decision "
              f"{1000 * statistics.fmean(times):6.1f} ms mean, "
              f"{1000 * sorted(times)[int(0.99 * len(times))]:6.1f} ms p99, "
              f"{1000 * max(times):6.0f} ms max")
    for r in results:
        per = {lv: statistics.fmean(s for s, x in zip(r["scores"], r["levels"], strict=True)
                                    if x == lv) for lv in (args.a, args.b)}
        diffs.append(per[args.a] - per[args.b])
    m, half = mean_interval(diffs)
    print(f"  {args.a} - {args.b}, per race: {m:+.2f} ± {half:.2f} points; "
          f"races {statistics.median(r['turns'] for r in results):.0f} turns (median)")


if __name__ == "__main__":
    main()
