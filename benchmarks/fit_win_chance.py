"""Fit ``bot.ai.params.WIN_CHANCE``: how the hard raptor's score (points) predicts its chance of
winning. Run by hand; plays hard raptor vs easy scientist games, takes the score of the
position at the start of every round (``bot.ai.evaluation.score`` with the raptor's hard weights)
and whether the raptor went on to win, and fits ``P(win) = 1 / (1 + exp(-(slope * points
+ offset)))`` by maximum likelihood (Newton's method on the two parameters):

    python benchmarks/fit_win_chance.py --games 200 --first-seed 3000 --without-win-chance

Figures: ``benchmarks/RESULTS.md`` (the chance of winning's fit).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import bot.ai as ai  # noqa: E402
import engine  # noqa: E402
from bot.ai import evaluation, params  # noqa: E402
from engine import Phase, Side  # noqa: E402


def play_game(job: tuple[int, int, bool]) -> tuple[list[float], bool]:
    """One game, hard raptor vs easy scientist: (score at each round's start, raptor won)."""
    seed, iterations, win_chance = job
    if not win_chance:
        params.WIN_CHANCE = {}
    state = engine.new_game(seed)
    scores: list[float] = []
    seen_round = -1
    decision = 0
    while not state.is_over and state.round <= 300:
        for side in (Side.RAPTOR, Side.SCIENTIST):
            if side not in engine.to_act(state):
                continue
            if (state.phase is Phase.PICK and state.round != seen_round
                    and state.picks[Side.RAPTOR] is None
                    and state.picks[Side.SCIENTIST] is None):
                seen_round = state.round
                points = evaluation.score(evaluation.Position.of(state),
                                           params.HARD_STYLE[Side.RAPTOR])
                if abs(points) < params.WIN:
                    scores.append(points)
            level = "hard" if side is Side.RAPTOR else "easy"
            action = ai.choose_action(engine.view(state, side), level=level,
                                      seed=seed * 100_000 + decision, iterations=iterations)
            decision += 1
            state = engine.apply(state, side, action)
    return scores, state.winner is Side.RAPTOR


def fit_logistic(xs: list[float], ys: list[int], rounds: int = 50) -> tuple[float, float]:
    """Maximum-likelihood ``(slope, offset)`` of ``P(y = 1) = 1 / (1 + exp(-(slope * x +
    offset)))`` by Newton's method.

    Raises:
        ValueError: fewer than two points, all outcomes equal or all scores equal (no
            finite fit)."""
    if len(xs) < 2 or len(set(ys)) < 2 or len(set(xs)) < 2:
        raise ValueError("need at least two different scores and both outcomes")
    a = b = 0.0
    for _ in range(rounds):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-(a * x + b)))
            ga += (y - p) * x
            gb += y - p
            w = p * (1.0 - p)
            haa += w * x * x
            hab += w * x
            hbb += w
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-12 and abs(db) < 1e-9:
            break
    return a, b


def log_loss(xs: list[float], ys: list[int], a: float, b: float) -> float:
    """Mean negative log-likelihood (nats) of ``ys`` under the fitted chances."""
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        p = min(max(1.0 / (1.0 + math.exp(-(a * x + b))), 1e-12), 1 - 1e-12)
        total -= math.log(p if y else 1.0 - p)
    return total / len(xs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first-seed", type=int, default=3000,
                    help="games use the even seeds from this one")
    ap.add_argument("--iterations", type=int, default=20, help="playouts per decision")
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--without-win-chance", action="store_true",
                    help="the hard raptor plays with points, as before WIN_CHANCE existed")
    args = ap.parse_args(argv)
    jobs = [(args.first_seed + 2 * i, args.iterations, not args.without_win_chance)
            for i in range(args.games)]
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        games = pool.map(play_game, jobs)
    xs = [x for scores, _won in games for x in scores]
    ys = [int(won) for scores, won in games for _x in scores]
    slope, offset = fit_logistic(xs, ys)
    rate = sum(ys) / len(ys)
    print(f"{len(games)} games, {sum(won for _s, won in games)} won by the raptor, "
          f"{len(xs)} positions, {time.perf_counter() - started:.0f} s")
    print(f"slope {slope:.5f} per point, offset {offset:.3f}")
    print(f"log loss {log_loss(xs, ys, slope, offset):.4f} "
          f"(constant rate {log_loss(xs, ys, 0.0, math.log(rate / (1 - rate))):.4f})")
    for points in (-600, -300, 0):
        print(f"  {points:5d} points: {1 / (1 + math.exp(-(slope * points + offset))):.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
