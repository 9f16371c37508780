"""Benchmark the AI opponent (bot/ai/): win rates and decision times. Run by hand:

    python benchmarks/bench_ai.py                      # both pairings, 200 games each
    python benchmarks/bench_ai.py --pairing hard-easy --games 200 --budget 0.25
    python benchmarks/bench_ai.py --pairing hard-easy --games 20            # default 2 s

Pairings: ``easy-random`` (target: easy wins >= 90 %) and ``hard-easy`` (target: hard wins
>= 75 %). Game ``i`` uses engine seed ``first_seed + i`` (random layout, manual setup, so
the players place their pieces too); the first player of the pairing takes the raptor in
even games and the scientist in odd ones. A game still running after ``--max-rounds`` rounds
(300) counts as a draw. Each AI decision gets a seed derived from the game and the decision
number, so a run is repeatable (exactly so when ``--iterations`` fixes the hard level's work).

Printed: wins / draws / losses of the first player with a 95 % Wilson interval, the same per
side, the number of capped games, the median and worst decision time per AI level, and the
median number of rounds per game.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from bot.ai import choose_action  # noqa: E402
from engine import Side  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion ``wins / n`` (as fractions)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(job: tuple) -> dict:
    """Play one game; returns the winner, rounds and per-level decision times (seconds)."""
    index, first_seed, first, second, budget, iterations, max_rounds = job
    seed = first_seed + index
    first_side = Side.RAPTOR if index % 2 == 0 else Side.SCIENTIST
    levels = {first_side: first, first_side.other: second}
    state = engine.new_game(seed)
    rng = random.Random(f"bench:{seed}")
    times: dict[str, list[float]] = {"easy": [], "hard": []}
    decision = 0
    while not state.is_over and state.round <= max_rounds:
        for side in (Side.RAPTOR, Side.SCIENTIST):
            if side not in engine.to_act(state):
                continue
            level = levels[side]
            if level == "random":
                action = rng.choice(engine.legal_actions(state, side))
            else:
                start = time.perf_counter()
                action = choose_action(engine.view(state, side), level=level,
                                       seed=seed * 100_000 + decision, time_budget=budget,
                                       iterations=iterations)
                times[level].append(time.perf_counter() - start)
            decision += 1
            state = engine.apply(state, side, action)
    return {"index": index, "first_side": first_side, "winner": state.winner,
            "reason": state.reason, "rounds": state.round, "capped": not state.is_over,
            "times": times}


def _pct(lo_hi: tuple[float, float]) -> str:
    return f"[{100 * lo_hi[0]:.1f} %, {100 * lo_hi[1]:.1f} %]"


def report(pairing: str, results: list[dict], elapsed: float) -> None:
    first, second = pairing.split("-")
    n = len(results)
    print(f"\n=== {first} vs {second}: {n} games ({elapsed:.0f} s) ===")

    def line(label: str, rows: list[dict]) -> None:
        m = len(rows)
        wins = sum(1 for r in rows if r["winner"] is r["first_side"])
        draws = sum(1 for r in rows if r["winner"] is None)
        losses = m - wins - draws
        rate = 100 * wins / m if m else 0.0
        print(f"  {label:<22} {wins:>4} W {draws:>3} D {losses:>4} L of {m:>4}: "
              f"{first} wins {rate:5.1f} %  95 % CI {_pct(wilson(wins, m))}")

    line("overall", results)
    line(f"{first} as raptor", [r for r in results if r["first_side"] is Side.RAPTOR])
    line(f"{first} as scientist", [r for r in results if r["first_side"] is Side.SCIENTIST])
    capped = sum(1 for r in results if r["capped"])
    print(f"  capped at the round limit (draws): {capped}")
    rounds = [r["rounds"] for r in results]
    print(f"  rounds per game: median {statistics.median(rounds)}, max {max(rounds)}")
    reasons: dict[str, int] = {}
    for r in results:
        key = f"{r['winner'].value if r['winner'] else 'draw'}:" \
              f"{r['reason'].value if r['reason'] else 'cap'}"
        reasons[key] = reasons.get(key, 0) + 1
    print("  endings: " + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items())))
    for level in ("easy", "hard"):
        ts = [t for r in results for t in r["times"][level]]
        if ts:
            ts.sort()
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
            print(f"  {level} decision time: median {1000 * statistics.median(ts):.2f} ms, "
                  f"95th pct {1000 * p95:.1f} ms, worst {1000 * ts[-1]:.1f} ms "
                  f"({len(ts)} decisions)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairing", default="both",
                        choices=("easy-random", "hard-easy", "both", "easy-easy", "hard-random",
                                 "hard-hard"),
                        help="first-second level, or both = easy-random and hard-easy")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="hard level: seconds per decision (2.0)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="hard level: exact playouts per decision (overrides --budget)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--side", default="both", choices=("both", "raptor", "scientist"),
                        help="only the games where the first player takes this side "
                             "(game i is still seed first_seed + i; raptor: even i)")
    parser.add_argument("--max-rounds", type=int, default=300)
    args = parser.parse_args(argv)
    pairings = ["easy-random", "hard-easy"] if args.pairing == "both" else [args.pairing]
    print(f"games per pairing {args.games}, seeds {args.first_seed}..."
          f"{args.first_seed + args.games - 1}, hard budget {args.budget} s"
          + (f", iterations {args.iterations}" if args.iterations else "")
          + f", {args.processes} processes, round cap {args.max_rounds}")
    for pairing in pairings:
        first, second = pairing.split("-")
        jobs = [(i, args.first_seed, first, second, args.budget, args.iterations,
                 args.max_rounds) for i in range(args.games)
                if args.side == "both" or (i % 2 == 0) == (args.side == "raptor")]
        start = time.perf_counter()
        with Pool(args.processes) as pool:
            results = []
            for k, res in enumerate(pool.imap_unordered(play_game, jobs), 1):
                results.append(res)
                if k % 20 == 0:
                    print(f"  ... {k}/{len(jobs)} games", flush=True)
        results.sort(key=lambda r: r["index"])
        report(pairing, results, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
