"""Fit ``bot.games.race.ai.BETA``: how sharply the raptors' rows predict the order of the
finish. Run by hand; plays four-seat races (the levels of ``--levels``, seats rotated),
takes the rows at the start of every turn and the race's placing, and fits the Plackett-Luce
model ``P(raptor i next) = exp(beta * row_i) / sum over the raptors left`` to the observed
finish (the first raptor, then the next groups while they are single raptors: a tied
group ends the observed order), with ``beta = c0 + c1 / d`` for the leader's distance ``d``
to the finish line: the two constants of the greatest likelihood over all turn starts
(coordinate ascent; the log-likelihood is concave in them). Prints the per-distance
likelihoods' own best betas beside the model's, and one tuple per board to paste into
``BETA``::

    python benchmarks/fit_race_eval.py --games 400 --levels medium
    python benchmarks/fit_race_eval.py --games 300 --levels hard,easy --processes 2

Figures: ``benchmarks/RESULTS.md`` (Raptor Race AI).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine.race as race  # noqa: E402
from bot.games.race.ai import choose_action  # noqa: E402
from engine.race.scoring import placing  # noqa: E402
from engine.race.track import TRACKS, row_of  # noqa: E402


def play(job: tuple[int, str, tuple[str, ...]]) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """One race: for each turn's start (leader's distance, rows, the observed order of
    raptor indices: the winner, then single raptors of the following groups)."""
    seed, board, levels = job
    state = race.new_game(seed, 4, board)
    starts = []
    turn, decision = 0, 0
    while not state.is_over:
        if state.turn != turn:
            turn = state.turn
            rows = tuple(row_of(sp) for sp in state.raptors)
            starts.append((TRACKS[state.board].rows - max(rows), rows))
        level = levels[(state.seat + seed) % len(levels)]
        action = choose_action(race.view(state, state.seat), level=level,
                               seed=seed * 10_000 + decision)
        decision += 1
        state = race.apply(state, state.seat, action)
    observed = []
    for group in placing(state.raptors, state.winner):
        if len(group) != 1:
            break
        observed.append(group[0].index)
    return [(d, rows, observed) for d, rows in starts]


def log_likelihood(beta: float, samples) -> float:
    total = 0.0
    for rows, observed in samples:
        left = list(range(5))
        for i in observed[:3]:
            weights = {j: beta * rows[j] for j in left}
            top = max(weights.values())
            total += weights[i] - top - math.log(sum(math.exp(w - top)
                                                     for w in weights.values()))
            left.remove(i)
    return total


def fit(samples) -> float:
    """The beta in 0.00-3.00 (steps of 0.01) of the greatest likelihood."""
    return max((b / 100 for b in range(0, 301)), key=lambda b: log_likelihood(b, samples))


def _ternary(f, lo: float, hi: float, rounds: int = 40) -> float:
    """The argmax of a concave ``f`` on [lo, hi]."""
    for _ in range(rounds):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if f(a) < f(b):
            lo = a
        else:
            hi = b
    return (lo + hi) / 2


def fit_model(by_distance: dict[int, list]) -> tuple[float, float]:
    """``(c0, c1)`` of the greatest likelihood for ``beta = c0 + c1 / d``."""
    def total(c0: float, c1: float) -> float:
        return sum(log_likelihood(c0 + c1 / d, samples) for d, samples in by_distance.items())
    c0, c1 = 0.4, 0.5
    for _ in range(6):
        c0 = _ternary(lambda x, c1=c1: total(x, c1), -0.5, 2.0)
        c1 = _ternary(lambda x, c0=c0: total(c0, x), -1.0, 3.0)
    return c0, c1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="races per board")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--levels", default="medium",
                        help="comma-separated levels, seats rotated (default: medium)")
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args()
    levels = tuple(args.levels.split(","))
    started = time.perf_counter()
    for board in ("desert", "jungle"):
        jobs = [(args.first_seed + n, board, levels) for n in range(args.games)]
        with Pool(args.processes) as pool:
            results = pool.map(play, jobs)
        by_distance: dict[int, list] = {}
        for race_starts in results:
            for d, rows, observed in race_starts:
                by_distance.setdefault(d, []).append((rows, observed))
        rows_count = TRACKS[race.Board(board)].rows
        c0, c1 = fit_model(by_distance)
        betas = [c0 + c1 / d for d in range(1, rows_count + 1)]
        for d, beta in enumerate(betas, 1):
            samples = by_distance.get(d, [])
            alone = f"{fit(samples):.2f}" if samples else "-"
            print(f"{board} distance {d:2d}: {len(samples):5d} turn starts, beta alone "
                  f"{alone}, model {beta:.2f}")
        print(f"{board}: c0 {c0:.3f}, c1 {c1:.3f}: ({', '.join(f'{b:.2f}' for b in betas)})")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
