"""Engine speed. Run by hand: ``python benchmarks/bench_engine.py [--games N]``.

Prints: random decisions per second (legal_actions + pick one + apply, whole games from many
seeds), games per second and rounds per game, the median / p90 time of ``legal_actions`` on
mid-game positions (fresh states, so the per-state cache is cold), ``apply`` time, and the
size of the state JSON (median and max over the sampled positions).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engine import GameState, apply, legal_actions, new_game, to_act
from engine.rules import _generate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()

    samples: list[tuple[GameState, object]] = []
    decisions = 0
    rounds = []
    t0 = time.perf_counter()
    c0 = time.process_time()
    for g in range(args.seed, args.seed + args.games):
        s = new_game(g, setup="quick")
        rng = random.Random(g)
        while not s.is_over and s.round <= 5000:
            side = min(to_act(s))
            legal = legal_actions(s, side)
            if 10 <= s.round <= 200 and rng.random() < 0.02:
                samples.append((s, side))
            s = apply(s, side, rng.choice(legal))
            decisions += 1
        rounds.append(s.round)
    elapsed = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(f"random play: {args.games} games, {decisions} decisions in {elapsed:.2f} s wall, "
          f"{cpu:.2f} s CPU (load average {os.getloadavg()[0]:.1f})")
    print(f"  {decisions / elapsed:,.0f} decisions/s wall ({decisions / cpu:,.0f} per CPU "
          f"second)   {args.games / elapsed:.2f} games/s   rounds/game median "
          f"{statistics.median(rounds):.0f} mean {statistics.fmean(rounds):.0f}")

    gen_times = []
    counts = []
    for s, side in samples:
        t = time.perf_counter()
        acts = _generate(s, side)  # uncached generation, what legal_actions costs cold
        gen_times.append(time.perf_counter() - t)
        counts.append(len(acts))
    gen_times.sort()
    print(f"legal_actions on {len(samples)} mid-game positions (cold): median "
          f"{1e6 * statistics.median(gen_times):.1f} µs, p90 "
          f"{1e6 * gen_times[int(0.9 * len(gen_times))]:.1f} µs; actions per position "
          f"median {statistics.median(counts):.0f}, max {max(counts)}")

    apply_times = []
    for s, side in samples:
        a = legal_actions(s, side)[0]
        t = time.perf_counter()
        apply(s, side, a)
        apply_times.append(time.perf_counter() - t)
    print(f"apply (incl. settling the next decision): median "
          f"{1e6 * statistics.median(apply_times):.1f} µs")

    sizes = sorted(len(s.to_json().encode()) for s, _ in samples)
    print(f"state JSON: median {statistics.median(sizes) / 1024:.2f} KB, max "
          f"{sizes[-1] / 1024:.2f} KB")


if __name__ == "__main__":
    main()
