"""Ratjack AI strength: the hard level against the easy one over three-player games.

Each game seats a mix of levels, the assignments rotated over the six that mix both
(hard-easy-easy, easy-hard-easy, ..., easy-hard-hard), so every seat and every turn order
is played by both levels alike. Every decision is made from the deciding seat's view only
(``bot.games.ratjack.ai.choose_action``) with a fixed number of determinizations for the
hard level, so a run is reproducible from its seeds.

Prints, per level: seat-games, win share (a shared win counted as a fraction), mean VP per
seat-game, each with a 95% interval (a bootstrap over games, which keeps the seats of one
game together), and the hard level's time per decision.

    python benchmarks/bench_ratjack_ai.py --games 500 --iterations 8 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.ratjack.ai import choose_action  # noqa: E402
from engine.ratjack import Phase, apply, new_game, to_act, view  # noqa: E402

ASSIGNMENTS = ("hee", "ehe", "eeh", "ehh", "heh", "hhe")
LEVEL = {"h": "hard", "e": "easy"}


def play_game(args: tuple[int, str, int, str]) -> dict:
    """One game: ``(seed, assignment, iterations, decks)`` -> its result as a dict."""
    seed, assignment, iterations, decks = args
    s = new_game(seed, len(assignment), decks)
    hard_times: list[float] = []
    step = 0
    while s.phase is not Phase.OVER:
        (seat,) = to_act(s)
        level = LEVEL[assignment[seat]]
        started = time.perf_counter()
        action = choose_action(view(s, seat), level=level, seed=seed * 100_003 + step,
                               iterations=iterations)
        if level == "hard":
            hard_times.append(time.perf_counter() - started)
        s = apply(s, seat, action)
        step += 1
        if step > 20_000:
            raise RuntimeError(f"game {seed} did not end")
    return {"seed": seed, "assignment": assignment, "vp": list(s.vp),
            "winners": list(s.winners), "rounds": s.round, "decisions": step,
            "hard_times": hard_times}


def per_level(games: list[dict]) -> dict[str, tuple[float, float]]:
    """For each level: (win share, mean VP) per seat-game over ``games``."""
    wins = {"hard": 0.0, "easy": 0.0}
    vp = {"hard": 0.0, "easy": 0.0}
    seats = {"hard": 0, "easy": 0}
    for g in games:
        for seat, letter in enumerate(g["assignment"]):
            level = LEVEL[letter]
            seats[level] += 1
            vp[level] += g["vp"][seat]
            if seat in g["winners"]:
                wins[level] += 1 / len(g["winners"])
    return {lv: (wins[lv] / seats[lv], vp[lv] / seats[lv]) for lv in seats if seats[lv]}


def bootstrap(games: list[dict], rounds: int = 2000, seed: int = 1):
    """95% intervals of :func:`per_level`'s figures, resampling whole games."""
    rng = random.Random(seed)
    samples: dict[str, list[tuple[float, float]]] = {"hard": [], "easy": []}
    for _ in range(rounds):
        pick = [games[rng.randrange(len(games))] for _ in games]
        for lv, fig in per_level(pick).items():
            samples[lv].append(fig)
    out = {}
    for lv, figs in samples.items():
        shares = sorted(f[0] for f in figs)
        vps = sorted(f[1] for f in figs)
        lo, hi = int(0.025 * rounds), int(0.975 * rounds) - 1
        out[lv] = ((shares[lo], shares[hi]), (vps[lo], vps[hi]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--iterations", type=int, default=8,
                        help="the hard level's determinizations per decision (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    parser.add_argument("--decks", default="rb", help="deck pair (default rb)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--json", type=Path, help="also write every game's result here")
    a = parser.parse_args(argv)
    jobs = [(a.seed + k, ASSIGNMENTS[k % len(ASSIGNMENTS)], a.iterations, a.decks)
            for k in range(a.games)]
    started = time.perf_counter()
    if a.jobs > 1:
        with ProcessPoolExecutor(a.jobs) as pool:
            games = list(pool.map(play_game, jobs, chunksize=4))
    else:
        games = [play_game(j) for j in jobs]
    elapsed = time.perf_counter() - started
    if a.json:
        a.json.write_text("\n".join(json.dumps(g) for g in games) + "\n", encoding="utf-8")
    figures = per_level(games)
    intervals = bootstrap(games)
    times = [t for g in games for t in g["hard_times"]]
    print(f"{a.games} three-player games, seeds {a.seed}-{a.seed + a.games - 1}, decks "
          f"{a.decks}, hard = {a.iterations} determinizations, {elapsed:.0f} s")
    print(f"mean rounds {statistics.mean(g['rounds'] for g in games):.2f}, mean decisions "
          f"{statistics.mean(g['decisions'] for g in games):.0f} per game")
    for lv in ("hard", "easy"):
        share, vp = figures[lv]
        (s_lo, s_hi), (v_lo, v_hi) = intervals[lv]
        n = sum(g["assignment"].count(lv[0]) for g in games)
        print(f"{lv:5s} {n:5d} seat-games  win share {share:.3f} [{s_lo:.3f}, {s_hi:.3f}]  "
              f"mean VP {vp:.3f} [{v_lo:.3f}, {v_hi:.3f}]")
    if times:
        times.sort()
        print(f"hard decision time: mean {1000 * statistics.mean(times):.1f} ms, median "
              f"{1000 * times[len(times) // 2]:.1f} ms, 99th percentile "
              f"{1000 * times[int(0.99 * len(times))]:.1f} ms, max {1000 * times[-1]:.1f} ms "
              f"({len(times)} decisions)")
    hard_lo = intervals["hard"][0][0]
    easy_hi = intervals["easy"][0][1]
    print(f"hard beats easy: {'yes' if hard_lo > easy_hi else 'NOT shown'} (hard's lower "
          f"bound {hard_lo:.3f} vs easy's upper bound {easy_hi:.3f}; an even share is 1/3)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
