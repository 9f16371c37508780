"""Round-robin of the AI's levels (bot/ai/): win rates per pairing and side, and an Elo per
level with 95 % intervals. Run by hand:

    python benchmarks/bench_levels.py                               # 200 games per pairing, 2 s
    python benchmarks/bench_levels.py --games 4 --budget 0.1        # a smoke run

Every pairing of two different ``--levels`` plays ``--games`` games: game ``i`` uses engine
seed ``first_seed + i`` (random layout, manual setup), the first level of the pairing takes
the raptor in even games and the scientist in odd ones (so both sides, on the same seeds),
and each decision gets the seed of ``benchmarks/bench_ai.py``'s games (which plays them).
A game still running after ``--max-rounds`` rounds is a draw.

Printed: per pairing, the first level's wins / draws / losses with a 95 % Wilson interval,
overall and per side; the worst and median decision time per level; then the Elo of each
level (the first level at 0) and the raptor's edge in Elo, fitted by maximum likelihood to
every game (a draw half a win: ``P(raptor wins) = 1 / (1 + 10 ** (-(R_raptor -
R_scientist + edge) / 400))``), with 95 % intervals from ``--bootstrap`` resamplings of the
games.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import statistics
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench_ai import play_game, wilson  # noqa: E402

from bot.ai import LEVELS  # noqa: E402
from engine import Side  # noqa: E402


def fit_elo(games: list[tuple[str, str, float]], levels: list[str],
            steps: int = 400) -> tuple[dict[str, float], float]:
    """Elo of each level (``levels[0]`` at 0) and the raptor's edge, by maximum likelihood.

    Args:
        games: ``(raptor level, scientist level, raptor's score)``, score 1, 0.5 or 0.
        levels: the levels rated; the first is the anchor.

    Returns:
        ``({level: Elo}, edge)``, in Elo points. Newton steps on the logistic likelihood
        (with a weak prior of 1 game per pair at 0.5, so that a level winning every game
        keeps a finite rating)."""
    k = math.log(10) / 400
    index = {lv: i for i, lv in enumerate(levels)}
    n = len(levels)  # parameters: ratings of levels[1:], then the edge
    theta = [0.0] * n

    def rating(lv: str) -> float:
        i = index[lv]
        return 0.0 if i == 0 else theta[i - 1]

    prior = [(a, b, 0.5) for a, b in itertools.permutations(levels, 2)]
    for _ in range(steps):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for raptor, scientist, s in games + prior:
            x = [0.0] * n
            if index[raptor]:
                x[index[raptor] - 1] += k
            if index[scientist]:
                x[index[scientist] - 1] -= k
            x[n - 1] = k
            p = 1 / (1 + math.exp(-k * (rating(raptor) - rating(scientist) + theta[n - 1])))
            for i in range(n):
                grad[i] += (s - p) * x[i]
                for j in range(n):
                    hess[i][j] -= p * (1 - p) * x[i] * x[j]
        delta = _solve(hess, [-g for g in grad])
        theta = [t + d for t, d in zip(theta, delta, strict=True)]
        if max(abs(d) for d in delta) < 1e-6:
            break
    return {lv: rating(lv) for lv in levels}, theta[n - 1]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def _pct(lo_hi: tuple[float, float]) -> str:
    return f"[{100 * lo_hi[0]:.0f} %, {100 * lo_hi[1]:.0f} %]"


def report_pairing(first: str, second: str, results: list[dict]) -> None:
    def line(label: str, rows: list[dict]) -> None:
        m = len(rows)
        wins = sum(1 for r in rows if r["winner"] is r["first_side"])
        draws = sum(1 for r in rows if r["winner"] is None)
        rate = 100 * wins / m if m else 0.0
        print(f"  {label:<24} {wins:>4} W {draws:>3} D {m - wins - draws:>4} L of {m:>4}: "
              f"{rate:5.1f} %  95 % CI {_pct(wilson(wins, m))}")

    print(f"\n=== {first} vs {second} ===")
    line(f"{first} overall", results)
    for side in (Side.RAPTOR, Side.SCIENTIST):
        line(f"{first} as {side.value}", [r for r in results if r["first_side"] is side])
    print(f"  rounds per game: median {statistics.median(r['rounds'] for r in results)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS,
                        help="levels of the round-robin (all)")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="seconds per decision of the searching levels (2.0)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="exact playouts per hard decision (overrides --budget)")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--max-rounds", type=int, default=300)
    parser.add_argument("--bootstrap", type=int, default=200,
                        help="resamplings of the games for the Elo intervals (200)")
    args = parser.parse_args(argv)
    levels = list(dict.fromkeys(args.levels))
    pairings = list(itertools.combinations(levels, 2))
    print(f"levels {' '.join(levels)}; {args.games} games per pairing, seeds "
          f"{args.first_seed}...{args.first_seed + args.games - 1}, budget {args.budget} s"
          + (f", iterations {args.iterations}" if args.iterations else "")
          + f", {args.processes} processes, round cap {args.max_rounds}")
    jobs = [(i, args.first_seed, first, second, args.budget, args.iterations, args.max_rounds)
            for first, second in pairings for i in range(args.games)]
    start = time.perf_counter()
    with Pool(args.processes) as pool:
        results = pool.map(play_game, jobs)
    by_pairing: dict[tuple[str, str], list[dict]] = {p: [] for p in pairings}
    games: list[tuple[str, str, float]] = []
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    for job, r in zip(jobs, results, strict=True):
        first, second = job[2], job[3]
        by_pairing[first, second].append(r)
        raptor = first if r["first_side"] is Side.RAPTOR else second
        scientist = second if raptor == first else first
        score = 0.5 if r["winner"] is None else float(r["winner"] is Side.RAPTOR)
        games.append((raptor, scientist, score))
        for lv, ts in r["times"].items():
            if lv in times:
                times[lv] += ts
    for (first, second), rows in by_pairing.items():
        report_pairing(first, second, rows)
    print(f"\n=== decision times ({time.perf_counter() - start:.0f} s in all) ===")
    for lv, ts in times.items():
        if ts:
            print(f"  {lv:<7} median {1000 * statistics.median(ts):8.1f} ms, "
                  f"worst {1000 * max(ts):8.1f} ms ({len(ts)} decisions)")
    elo, edge = fit_elo(games, levels)
    rng = random.Random(0)
    samples = [fit_elo([rng.choice(games) for _ in games], levels)
               for _ in range(args.bootstrap)]

    def interval(values: list[float]) -> str:
        values = sorted(values)
        lo = values[int(0.025 * (len(values) - 1))]
        hi = values[int(0.975 * (len(values) - 1))]
        return f"[{lo:+.0f}, {hi:+.0f}]"

    print(f"\n=== Elo ({levels[0]} = 0; 95 % intervals from {args.bootstrap} resamplings) ===")
    for lv in levels:
        print(f"  {lv:<7} {elo[lv]:+6.0f}  {interval([s[0][lv] for s in samples])}")
    print(f"  raptor's edge {edge:+6.0f}  {interval([s[1] for s in samples])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
