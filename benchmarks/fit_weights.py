"""Fit the hard raptor's evaluation weights (``bot.ai.params.HARD_STYLE[RAPTOR]``) to game
outcomes. Run by hand; plays games of one level as the raptor against another as the
scientist, keeps the public position at the start of every round (the card pick, R5.1)
and whether the raptor went on to win, then fits the chance of winning as a logistic of
the evaluation's terms:

    P(win) = 1 / (1 + exp(-(offset + slope * (rest + sum_k W'_k * f_k))))

where ``f_k`` is what weight ``k`` multiplies in ``bot.ai.evaluation.score`` (its change
when the weight grows by one point), ``rest`` the part of the score no weight scales, and
``slope`` the raptor's ``WIN_CHANCE`` slope (so the fitted weights are points, as before).
``score`` is not linear in every weight (a ``max``, a sort, products of two weights), so
the model is its linear approximation around the weights: each of ``--rounds`` fits is made
around the weights of the one before, starting from the shipped ones. A fit is the maximum
of the likelihood plus Gaussian priors centred on the shipped weights (``--prior``: the
deviation as a share of each weight) and offset, by Newton's method; weights that
positions at a round's start cannot show (the action points' potentials) keep the shipped
value. It prints the fitted weights and offset, and the log loss on the games held out
(every fifth) of the evaluation itself (``score`` with those weights): the shipped one,
the shipped one with its offset refitted, and the fitted one:

    python benchmarks/fit_weights.py --games 300 --data positions.pkl
    python benchmarks/fit_weights.py --data positions.pkl --prior 0.2   # refit, no new games

The positions are public (R11.1); the outcome is the game's. Figures: ``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench_levels import solve  # noqa: E402

import bot.ai as ai  # noqa: E402
import engine  # noqa: E402
from bot.ai import evaluation, params  # noqa: E402
from engine import Phase, Side  # noqa: E402

RAPTOR, SCIENTIST = Side.RAPTOR, Side.SCIENTIST
#: Weights that the action points still to spend carry: zero at a round's start.
POTENTIALS = ("kill_now", "wake_now", "capture_now", "shot_now", "sleep_now")


def play_game(job: tuple[int, str, str, int]
              ) -> tuple[list[evaluation.Position], bool | None]:
    """One game: (the public position at each round's start, whether the raptor won;
    None for a game still on after 300 rounds)."""
    seed, raptor, scientist, iterations = job
    levels = {RAPTOR: raptor, SCIENTIST: scientist}
    state = engine.new_game(seed)
    positions: list[evaluation.Position] = []
    seen_round = -1
    decision = 0
    while not state.is_over and state.round <= 300:
        side = RAPTOR if RAPTOR in engine.to_act(state) else SCIENTIST
        if (state.phase is Phase.PICK and state.round != seen_round
                and state.picks[RAPTOR] is None and state.picks[SCIENTIST] is None):
            seen_round = state.round
            positions.append(evaluation.Position.of(engine.view(state, None)))
        action = ai.choose_action(engine.view(state, side), level=levels[side],
                                  seed=seed * 100_000 + decision, iterations=iterations)
        decision += 1
        state = engine.apply(state, side, action)
    return positions, (state.winner is RAPTOR) if state.is_over else None


def features(p: evaluation.Position, w: dict[str, float], names: list[str],
             bumped: dict[str, dict[str, float]]) -> tuple[float, list[float]]:
    """``(rest, [f_k])`` of ``p`` at the weights ``w``: what each weight of ``names``
    multiplies there (the score's change for one point more of it, with ``bumped[k]``:
    ``w`` with that point more, made once for all positions) and the score's part they
    do not scale. ``score`` is not linear in every weight (``max``, a sort, products of
    two weights), so this is its linear approximation around ``w``."""
    base = evaluation.score(p, w)
    fs = [evaluation.score(p, bumped[k]) - base for k in names]
    return base - sum(w[k] * f for k, f in zip(names, fs, strict=True)), fs


def fit(rows: list[tuple[float, list[float], int]], slope: float, prior: list[float],
        sigma: list[float], offset: float, rounds: int = 60) -> tuple[float, list[float]]:
    """Maximum a posteriori ``(offset, weights)`` of the module's logistic model: the
    weights with Gaussian priors of means ``prior`` and deviations ``sigma`` (points),
    the offset with one of mean ``offset`` and deviation 1.

    Raises:
        ValueError: no rows, or all outcomes equal."""
    if not rows or len({y for _r, _f, y in rows}) < 2:
        raise ValueError("need positions of games of both outcomes")
    n = len(prior)
    theta = [offset] + list(prior)  # offset, then the weights
    means = [offset] + list(prior)
    lams = [1.0] + [1.0 / (d * d) for d in sigma]
    for _ in range(rounds):
        grad = [0.0] * (n + 1)
        hess = [[0.0] * (n + 1) for _ in range(n + 1)]
        for rest, fs, y in rows:
            x = [1.0] + [slope * f for f in fs]
            z = slope * rest + sum(t * xi for t, xi in zip(theta, x, strict=True))
            pr = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            g = y - pr
            h = pr * (1.0 - pr)
            for i in range(n + 1):
                if x[i]:
                    grad[i] += g * x[i]
                    hx = h * x[i]
                    row = hess[i]
                    for j in range(n + 1):
                        if x[j]:
                            row[j] += hx * x[j]
        for i in range(n + 1):
            grad[i] -= lams[i] * (theta[i] - means[i])
            hess[i][i] += lams[i]
        step = solve(hess, grad)
        theta = [t + s for t, s in zip(theta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return theta[0], theta[1:]


def log_loss(rows, slope: float, offset: float, weights: list[float]) -> float:
    """Mean negative log-likelihood (nats) of the outcomes of ``rows`` (from
    :func:`features`) under the linear model."""
    total = 0.0
    for rest, fs, y in rows:
        z = offset + slope * (rest + sum(w * f for w, f in zip(weights, fs, strict=True)))
        total -= _log_chance(z, y)
    return total / max(1, len(rows))


def score_loss(positions: list[tuple[evaluation.Position, int]], w: dict[str, float],
               slope: float, offset: float) -> float:
    """Mean negative log-likelihood (nats) of the outcomes of ``positions`` when the
    chance of winning is ``1 / (1 + exp(-(offset + slope * score(p, w))))``: the
    evaluation itself, not its linear approximation."""
    total = 0.0
    for p, y in positions:
        total -= _log_chance(offset + slope * evaluation.score(p, w), y)
    return total / max(1, len(positions))


def _log_chance(z: float, y: int) -> float:
    pr = min(max(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), 1e-12), 1 - 1e-12)
    return math.log(pr if y else 1.0 - pr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="new games to play (300)")
    ap.add_argument("--first-seed", type=int, default=9000)
    ap.add_argument("--raptor", default="hard", choices=ai.LEVELS)
    ap.add_argument("--scientist", default="easy", choices=ai.LEVELS)
    ap.add_argument("--iterations", type=int, default=20, help="playouts per decision (20)")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--data", help="pickle of the games: read if it exists, else written")
    ap.add_argument("--prior", type=float, default=0.5,
                    help="deviation of each weight's prior around the shipped one, as a "
                         "share of it (a weight of 0: this times 20 points) (0.5)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="fits, each around the weights of the one before (3)")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    read = bool(args.data and os.path.exists(args.data))
    if read:
        try:
            with open(args.data, "rb") as f:
                games = pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError) as exc:
            raise SystemExit(f"--data {args.data}: not a file of this benchmark ({exc})"
                             ) from None
    else:
        jobs = [(args.first_seed + i, args.raptor, args.scientist, args.iterations)
                for i in range(args.games)]
        with Pool(args.processes) as pool:
            games = pool.map(play_game, jobs)
        if args.data:
            with open(args.data, "wb") as f:
                pickle.dump(games, f)
    finished = [(ps, won) for ps, won in games if won is not None]  # capped: no outcome
    print(f"{len(games)} games ({sum(bool(won) for _p, won in finished)} won by the raptor, "
          f"{len(games) - len(finished)} capped at 300 rounds and left out)"
          + (f", read from {args.data} (the options of its games, not these)" if read else "")
          + f"; {time.perf_counter() - started:.0f} s")
    train = [(p, int(won)) for i, (ps, won) in enumerate(finished) if i % 5 != 4
             for p in ps if p.winner is None]
    test = [(p, int(won)) for i, (ps, won) in enumerate(finished) if i % 5 == 4
            for p in ps if p.winner is None]
    if not test or len({y for _p, y in train}) < 2:
        raise SystemExit("need 5 finished games or more, of both outcomes: every fifth is "
                         "held out to score the fit")
    w = params.HARD_STYLE[RAPTOR]
    names = [k for k in w if k not in POTENTIALS]
    slope, old_offset = params.WIN_CHANCE[RAPTOR]
    shipped = [w[k] for k in names]
    sigma = [args.prior * (abs(x) if x else 20.0) for x in shipped]
    # the shipped weights with their offset refitted: the model with the weights fixed
    refit, _none = fit([(evaluation.score(p, w), [], y) for p, y in train], slope, [], [],
                       old_offset)
    current, offset = dict(w), old_offset
    for _ in range(args.rounds):  # fit the linear model around the weights, move, again
        bumped = {k: {**current, k: current[k] + 1.0} for k in names}
        rows = [(*features(p, current, names, bumped), y) for p, y in train]
        offset, values = fit(rows, slope, shipped, sigma, old_offset)
        current = {**w, **dict(zip(names, values, strict=True))}
    rate = sum(y for _p, y in train) / len(train)
    constant = sum(-_log_chance(math.log(rate / (1 - rate)), y) for _p, y in test) / len(test)
    print(f"{len(train)} positions to fit, {len(test)} held out (every fifth game)")
    print(f"held-out log loss (nats): the training games' win rate {constant:.4f}; shipped "
          f"{score_loss(test, w, slope, old_offset):.4f}; its offset refitted ({refit:.3f}) "
          f"{score_loss(test, w, slope, refit):.4f}; fitted "
          f"{score_loss(test, current, slope, offset):.4f}")
    print(f"offset {old_offset:.3f} -> {offset:.3f}")
    for k in names:
        print(f"  {k:18s} {w[k]:8.2f} -> {current[k]:8.2f}")
    sets = [f"--set W.{k}={current[k]:.4g}" for k in names]
    print("as --set: " + " ".join(sets) + f" --set WIN_CHANCE.offset={offset:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
