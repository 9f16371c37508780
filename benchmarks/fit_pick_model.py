"""Fit the hard raptor's model of the scientist's card pick (``bot.ai.HAND_STICKINESS`` and
``bot.ai.UNIFORM_MIX``). Run by hand; plays hard raptor vs easy scientist games and, at
each card pick of the raptor where the scientist's card is still hidden (R5.1; not under
observation, R5.2), keeps the raptor's view and the card the easy scientist really picks.
Then, for every pair (kappa, mix) of the grid, it scores ``bot.ai._opponent_pick_model``
on those views by the mean log-likelihood of the real cards (nats; higher is better):

    python benchmarks/fit_pick_model.py --games 60 --first-seed 7001

The real cards are read from the game's state by this script only, to score the model; the
model itself, as in play, reads nothing but the raptor's view.

Figures of 2026-11-30 (the defaults: 60 games, seeds 7001-7060, 20 playouts; 1,152 picks,
214 s on 2 cores): a uniform pick over the cards outside the discard pile scores -1.772;
the model with all hands alike (kappa 0) -1.485 at best; kappa 2 is the best stickiness at
every mix (-1.305 at mix 0.02, -1.410 at the shipped 0.3). So kappa 2, first a guess, is the fitted
value. The best mix by likelihood, though, is not the best in play: hard raptor vs easy,
20 playouts, 100 games per set (even seeds from 1000 and 2000), mix 0.05 won 43 and 48
against 50 and 50 at 0.3 (+12 -21 game by game), and mix 0.45 won 43 against 50 on the
first set (+4 -11). The uniform share hedges the errors of the one-round playouts that
value each pair of cards, not only those of the prediction; 0.3 stays.
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
from engine import Phase, Side  # noqa: E402

RAPTOR, SCIENTIST = Side.RAPTOR, Side.SCIENTIST


def play_game(job: tuple[int, int]) -> list[tuple[engine.View, int]]:
    """One game, hard raptor vs easy scientist: ``(raptor's view, the scientist's real
    card)`` at each raptor pick with the scientist's card unknown to it."""
    seed, iterations = job
    state = engine.new_game(seed)
    samples: list[tuple[engine.View, int]] = []
    decision = 0
    while not state.is_over and state.round <= 300:
        side = RAPTOR if RAPTOR in engine.to_act(state) else SCIENTIST
        if (side is RAPTOR and state.phase is Phase.PICK and not state.observation
                and state.picks[RAPTOR] is None):
            # the card the easy scientist picks now, or has picked face down (R5.1)
            hand = list(state.hands[SCIENTIST])
            if state.picks[SCIENTIST] is not None:
                hand.append(state.picks[SCIENTIST])
            real = ai._easy_pick(engine.view(state, SCIENTIST), SCIENTIST, hand)
            samples.append((engine.view(state, RAPTOR), real))
        level = "hard" if side is RAPTOR else "easy"
        action = ai.choose_action(engine.view(state, side), level=level,
                                  seed=seed * 100_000 + decision, iterations=iterations)
        decision += 1
        state = engine.apply(state, side, action)
    return samples


def mean_log_likelihood(samples: list[tuple[engine.View, int]], kappa: float,
                        mix: float) -> float:
    """Mean log-probability (nats) that ``bot.ai._opponent_pick_model``, with the raptor's
    stickiness ``kappa`` and the uniform share ``mix``, gives the real card."""
    saved = ai.HAND_STICKINESS, ai.UNIFORM_MIX
    ai.HAND_STICKINESS = {RAPTOR: kappa}
    ai.UNIFORM_MIX = mix
    try:
        total = 0.0
        for view, real in samples:
            probs = ai._opponent_pick_model(view, RAPTOR)
            total += math.log(probs[real])
        return total / len(samples)
    finally:
        ai.HAND_STICKINESS, ai.UNIFORM_MIX = saved


def _floats(text: str) -> list[float]:
    return [float(x) for x in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description="Score the hard raptor's model of the scientist's card pick by the "
                    "likelihood of the easy scientist's real picks, over a grid of "
                    "HAND_STICKINESS (kappa) and UNIFORM_MIX (mix).",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--games", type=int, default=60, help="hard raptor vs easy games played")
    ap.add_argument("--first-seed", type=int, default=7001,
                    help="games use the consecutive seeds from this one")
    ap.add_argument("--iterations", type=int, default=20,
                    help="playouts per hard decision")
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 1,
                    help="worker processes")
    ap.add_argument("--kappas", type=_floats, default="0,1,1.5,2,2.5,3,4",
                    help="stickiness values to score, comma-separated")
    ap.add_argument("--mixes", type=_floats, default="0.02,0.05,0.1,0.2,0.3",
                    help="uniform shares to score, comma-separated")
    args = ap.parse_args(argv)
    jobs = [(args.first_seed + i, args.iterations) for i in range(args.games)]
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        samples = [s for game in pool.map(play_game, jobs) for s in game]
    print(f"{args.games} games, {len(samples)} raptor picks with the scientist's card hidden, "
          f"{time.perf_counter() - started:.0f} s")
    uniform = sum(math.log(1.0 / len(ai._opponent_pool(v, RAPTOR)[0]))
                  for v, _real in samples) / len(samples)
    print(f"a uniform pick over the cards outside the discard pile: {uniform:.4f}")
    print("mean log-likelihood of the real card, kappa (rows) by mix (columns):")
    print("kappa " + "".join(f"{m:>9g}" for m in args.mixes))
    best = (-math.inf, 0.0, 0.0)
    for kappa in args.kappas:
        row = []
        for mix in args.mixes:
            ll = mean_log_likelihood(samples, kappa, mix)
            row.append(ll)
            best = max(best, (ll, kappa, mix))
        print(f"{kappa:5g} " + "".join(f"{ll:9.4f}" for ll in row))
    kappa, mix = ai.HAND_STICKINESS.get(RAPTOR, 0.0), ai.UNIFORM_MIX
    print(f"best: kappa {best[1]:g}, mix {best[2]:g} ({best[0]:.4f}); as shipped: "
          f"kappa {kappa:g}, mix {mix:g} ({mean_log_likelihood(samples, kappa, mix):.4f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
