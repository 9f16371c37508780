"""Speed of the Ratjack engine (run by hand: ``python benchmarks/bench_ratjack_engine.py``).

Plays seeded random games of 2, 3 and 4 players (uniform legal actions) and prints, per seat
count: games, decisions per game, decisions per second (``legal_actions`` + ``apply``), and
the CPU time of one ``apply``, one ``view`` and one ``sample_state`` (the AI's
determinization) on positions of those games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ratjack import Phase, apply, legal_actions, new_game, sample_state, to_act, view  # noqa: E402,E501


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per seat count")
    a = parser.parse_args(argv)
    for seats in (2, 3, 4):
        rng = random.Random(seats)
        decisions, kept = 0, []
        started = time.process_time()
        for g in range(a.games):
            s = new_game(g, seats, ("rb", "rc", "rw", "cw")[g % 4])
            while s.phase is not Phase.OVER:
                (q,) = to_act(s)
                s = apply(s, q, rng.choice(legal_actions(s, q)))
                decisions += 1
                if rng.random() < 0.01:
                    kept.append(s)
        cpu = time.process_time() - started
        applies, views, samples = [], [], []
        for s in kept[:400]:
            if s.phase is Phase.OVER:
                continue
            (q,) = to_act(s)
            legal = legal_actions(s, q)
            t = time.process_time()
            apply(s, q, legal[0])
            applies.append(time.process_time() - t)
            t = time.process_time()
            v = view(s, q)
            views.append(time.process_time() - t)
            t = time.process_time()
            sample_state(v, rng)
            samples.append(time.process_time() - t)
        print(f"{seats} players: {a.games} games, {decisions / a.games:.0f} decisions a game, "
              f"{decisions / cpu:,.0f} decisions/s ({a.games / cpu:.1f} games/s CPU); apply "
              f"{1e6 * statistics.median(applies):.0f} us, view "
              f"{1e6 * statistics.median(views):.0f} us, sample_state "
              f"{1e6 * statistics.median(samples):.0f} us (medians)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
