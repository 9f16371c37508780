"""Round-robin of the AI's levels (bot/ai/): win rates per pairing and side, and an Elo per
level with 95 % intervals. Run by hand:

    python benchmarks/bench_levels.py                               # 200 games per pairing, 2 s
    python benchmarks/bench_levels.py --games 4 --budget 0.1        # a smoke run
    python benchmarks/bench_levels.py --levels easy medium --out em.jsonl   # one pairing
    python benchmarks/bench_levels.py --fit em.jsonl mh.jsonl he.jsonl hh.jsonl

``--out`` writes one JSON line per game as it ends, so a long run interrupted keeps its
games, and pairings run one at a time (or on several machines) can be fitted together by
``--fit``, which plays nothing. ``--mirror`` also plays each level against itself.
``--only-raptor LEVEL`` plays only the games where LEVEL takes the raptor: after a change
of that level's raptor alone, those games are played again and fitted with the others of
an earlier ``--out`` file.

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
games; and an Elo per level and side (``P(raptor wins) = 1 / (1 + 10 ** (-(R_level,raptor -
R_level,scientist) / 400))``, the first level's two sides averaging 0), which says how each
level plays each side: the difference of two levels' figures on one side is their
difference of strength there, and ``R_a,raptor - R_b,scientist`` predicts a pairing, played
or not.
"""

from __future__ import annotations

import argparse
import itertools
import json
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
        keeps a finite rating, and a Gaussian one of 400 Elo on the edge)."""
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
        grad[n - 1] -= theta[n - 1] / 400 ** 2  # a Gaussian prior of 400 Elo on the edge:
        hess[n - 1][n - 1] -= 1 / 400 ** 2      # finite when the raptor wins every game
        delta = solve(hess, [-g for g in grad])
        theta = [t + d for t, d in zip(theta, delta, strict=True)]
        if max(abs(d) for d in delta) < 1e-6:
            break
    return {lv: rating(lv) for lv in levels}, theta[n - 1]


def fit_side_elo(games: list[tuple[str, str, float]], levels: list[str],
                 steps: int = 400) -> dict[tuple[str, Side], float]:
    """Elo of each level on each side, by maximum likelihood (with a weak prior: 1 game at
    0.5 per pairing of a raptor level and a scientist level that ``games`` has, mirrors
    included, and a Gaussian one of 400 Elo around 0 on each figure).

    Args:
        games: ``(raptor level, scientist level, raptor's score)``, score 1, 0.5 or 0.
        levels: the levels rated; ``levels[0]``'s two figures average 0.

    Returns:
        ``{(level, side): Elo}``; ``R[a, RAPTOR] - R[b, SCIENTIST]`` is the raptor's
        expected edge in Elo points when level ``a`` plays the raptor against ``b``."""
    k = math.log(10) / 400
    cells = [(lv, side) for lv in levels for side in (Side.RAPTOR, Side.SCIENTIST)]
    # parameters: every cell but the anchor's scientist figure, which is minus its raptor's
    free = cells[:1] + cells[2:]
    index = {c: i for i, c in enumerate(free)}
    n = len(free)
    theta = [0.0] * n

    def x_of(raptor: str, scientist: str) -> list[float]:
        x = [0.0] * n
        x[index[raptor, Side.RAPTOR]] += k
        if (scientist, Side.SCIENTIST) in index:
            x[index[scientist, Side.SCIENTIST]] -= k
        else:  # the anchor's scientist figure: minus its raptor's
            x[index[levels[0], Side.RAPTOR]] += k
        return x

    met = {(r, sc) for r, sc, _s in games}
    rows = [(x_of(r, sc), s) for r, sc, s in games + [(r, sc, 0.5) for r, sc in met]]
    for _ in range(steps):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for x, s in rows:
            p = 1 / (1 + math.exp(-sum(t * xi for t, xi in zip(theta, x, strict=True))))
            for i in range(n):
                if x[i]:
                    grad[i] += (s - p) * x[i]
                    for j in range(n):
                        hess[i][j] -= p * (1 - p) * x[i] * x[j]
        for i in range(n):  # a Gaussian prior of 400 Elo on each figure: a cell no
            grad[i] -= theta[i] / 400 ** 2  # game meets (or the game cannot tell) stays
            hess[i][i] -= 1 / 400 ** 2      # near 0, and the fit always has a solution
        delta = solve(hess, [-g for g in grad])
        theta = [t + d for t, d in zip(theta, delta, strict=True)]
        if max(abs(d) for d in delta) < 1e-6:
            break
    out = {c: theta[index[c]] for c in free}
    out[levels[0], Side.SCIENTIST] = -out[levels[0], Side.RAPTOR]
    return out


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting); also the
    Newton steps of ``fit_weights.py``."""
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
    if first == second:  # a mirror: only the sides differ
        m = len(results)
        draws = sum(1 for r in results if r["winner"] is None)
        for side in (Side.RAPTOR, Side.SCIENTIST):
            wins = sum(1 for r in results if r["winner"] is side)
            print(f"  the {side.value:<20} {wins:>4} W {draws:>3} D {m - wins - draws:>4} L "
                  f"of {m:>4}: {100 * wins / m:5.1f} %  95 % CI {_pct(wilson(wins, m))}")
        print(f"  rounds per game: median {statistics.median(r['rounds'] for r in results)}")
        return
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
    parser.add_argument("--mirror", action="store_true",
                        help="also play each level against itself")
    parser.add_argument("--only-raptor", choices=LEVELS, metavar="LEVEL",
                        help="play only the games where LEVEL takes the raptor (to measure "
                             "again a change of that level's raptor alone)")
    parser.add_argument("--out", help="JSON lines, one per game, written as games end")
    parser.add_argument("--fit", nargs="+", metavar="JSONL",
                        help="report and fit earlier --out files together; play nothing")
    args = parser.parse_args(argv)
    if args.games < 1 or args.processes < 1 or args.bootstrap < 1:
        parser.error("--games, --processes and --bootstrap must be at least 1")
    order = {lv: i for i, lv in enumerate(LEVELS)}  # the levels' order, the anchor first
    if args.fit:
        rows = []
        for path in args.fit:
            try:
                with open(path) as f:
                    rows += [_from_json(json.loads(line)) for line in f if line.strip()]
            except (OSError, ValueError, KeyError, TypeError) as exc:
                raise SystemExit(f"{path}: not a readable --out file of this benchmark "
                                 f"({exc})") from None
        if not rows:
            raise SystemExit("--fit: the files hold no games")
        levels = sorted({lv for r in rows for lv in (r["first"], r["second"])},
                        key=order.__getitem__)
        settings = sorted({(r["budget"], r["iterations"], r["first_seed"]) for r in rows},
                          key=str)
        print("games of " + "; ".join(
            f"budget {b} s, iterations {i}, seeds from {f}" for b, i, f in settings))
        seen = [(r["first"], r["second"], (r["first_seed"] or 0) + r["index"]) for r in rows]
        if len(set(seen)) < len(seen):
            print(f"note: {len(seen) - len(set(seen))} games appear twice (same pairing and "
                  f"seed): each counts once more")
        report(rows, levels, args.bootstrap, None)
        return 0
    levels = sorted(set(args.levels), key=order.__getitem__)  # the anchor: as --fit has it
    pairings = list(itertools.combinations(levels, 2))
    if args.mirror:
        pairings += [(lv, lv) for lv in levels]
    if not pairings:
        parser.error("give two levels or more, or --mirror")
    print(f"levels {' '.join(levels)}; {args.games} games per pairing, seeds "
          f"{args.first_seed}...{args.first_seed + args.games - 1}, budget {args.budget} s"
          + (f", iterations {args.iterations}" if args.iterations else "")
          + f", {args.processes} processes, round cap {args.max_rounds}", flush=True)
    jobs = [(i, args.first_seed, first, second, args.budget, args.iterations, args.max_rounds)
            for first, second in pairings for i in range(args.games)
            if args.only_raptor in (None, first if i % 2 == 0 else second)]
    if not jobs:
        parser.error(f"--only-raptor {args.only_raptor}: no pairing has that level")
    try:
        out = open(args.out, "w") if args.out else None  # noqa: SIM115 - closed below
    except OSError as exc:
        raise SystemExit(f"--out {args.out}: {exc.strerror}") from None
    start = time.perf_counter()
    rows = []
    try:
        with Pool(args.processes) as pool:
            for job, r in pool.imap_unordered(_play, jobs):
                r.update(first=job[2], second=job[3], first_seed=job[1], budget=job[4],
                         iterations=job[5])
                rows.append(r)
                if out:
                    out.write(json.dumps(_to_json(r)) + "\n")
                    out.flush()
    finally:
        if out:
            out.close()
    report(rows, levels, args.bootstrap, time.perf_counter() - start)
    return 0


def _play(job: tuple) -> tuple[tuple, dict]:
    return job, play_game(job)


def _to_json(r: dict) -> dict:
    """A game's result as JSON (sides and the winner by name)."""
    return {"index": r["index"], "first": r["first"], "second": r["second"],
            "first_side": r["first_side"].value,
            "winner": r["winner"].value if r["winner"] else None,
            "rounds": r["rounds"], "times": r["times"], "first_seed": r["first_seed"],
            "budget": r["budget"], "iterations": r["iterations"]}


def _from_json(d: dict) -> dict:
    """A game read back from ``--out``. Raises ValueError (or KeyError, TypeError) for a
    line that is not one."""
    if d["first"] not in LEVELS or d["second"] not in LEVELS:
        raise ValueError(f"unknown level in {d}")
    times = d.get("times", {})
    if not isinstance(times, dict) or not all(
            lv in LEVELS and isinstance(ts, list)
            and all(isinstance(t, (int, float)) for t in ts) for lv, ts in times.items()):
        raise ValueError(f"decision times are not lists of seconds by level: {times!r}")
    return {"index": int(d["index"]), "first": d["first"], "second": d["second"],
            "first_side": Side(d["first_side"]),
            "winner": Side(d["winner"]) if d["winner"] else None,
            "rounds": int(d["rounds"]), "times": times,
            "first_seed": d.get("first_seed"), "budget": d.get("budget"),
            "iterations": d.get("iterations")}


def report(rows: list[dict], levels: list[str], bootstrap: int,
           elapsed: float | None) -> None:
    """Print each pairing's results, the decision times and both Elo fits of ``rows``."""
    by_pairing: dict[tuple[str, str], list[dict]] = {}
    games: list[tuple[str, str, float]] = []
    times: dict[str, list[float]] = {lv: [] for lv in levels}
    for r in sorted(rows, key=lambda r: (r["first"], r["second"], r["index"])):
        first, second = r["first"], r["second"]
        by_pairing.setdefault((first, second), []).append(r)
        raptor = first if r["first_side"] is Side.RAPTOR else second
        scientist = second if r["first_side"] is Side.RAPTOR else first
        score = 0.5 if r["winner"] is None else float(r["winner"] is Side.RAPTOR)
        games.append((raptor, scientist, score))
        for lv, ts in r["times"].items():
            if lv in times:
                times[lv] += ts
    for (first, second), pairing_rows in by_pairing.items():
        report_pairing(first, second, pairing_rows)
    took = f"{elapsed:.0f} s in all" if elapsed is not None else "as recorded"
    print(f"\n=== decision times ({took}) ===")
    for lv, ts in times.items():
        if ts:
            print(f"  {lv:<7} median {1000 * statistics.median(ts):8.1f} ms, "
                  f"worst {1000 * max(ts):8.1f} ms ({len(ts)} decisions)")
    elo, edge = fit_elo(games, levels)
    sides = fit_side_elo(games, levels)
    rng = random.Random(0)
    samples = []
    for _ in range(bootstrap):
        resampled = [rng.choice(games) for _ in games]
        samples.append((fit_elo(resampled, levels), fit_side_elo(resampled, levels)))

    def interval(values: list[float]) -> str:
        values = sorted(values)
        lo = values[int(0.025 * (len(values) - 1))]
        hi = values[int(0.975 * (len(values) - 1))]
        return f"[{lo:+.0f}, {hi:+.0f}]"

    print(f"\n=== Elo ({levels[0]} = 0; 95 % intervals from {bootstrap} resamplings) ===")
    for lv in levels:
        print(f"  {lv:<7} {elo[lv]:+6.0f}  {interval([s[0][0][lv] for s in samples])}")
    print(f"  raptor's edge {edge:+6.0f}  {interval([s[0][1] for s in samples])}")
    print(f"\n=== Elo per side ({levels[0]}'s two average 0; raptor figure minus scientist "
          f"figure = the raptor's edge in a pairing) ===")
    if len(levels) < 3 and not any(a == b for a, b in by_pairing):
        print("  not told apart by these games: two levels without mirror games only "
              "measure each level's raptor against the other's scientist (add --mirror, or "
              "a third level)")
        return
    for lv in levels:
        parts = [f"as {side.value} {sides[lv, side]:+6.0f} "
                 f"{interval([s[1][lv, side] for s in samples])}"
                 for side in (Side.RAPTOR, Side.SCIENTIST)]
        print(f"  {lv:<7} " + "   ".join(parts))


if __name__ == "__main__":
    raise SystemExit(main())
