"""Speed of the Raptor Race engine (run by hand: ``python benchmarks/bench_race_engine.py``).

Plays seeded races with uniformly random legal actions for each board and table size and
prints races and decisions per second, in wall time and in this process's CPU time (the
figure that holds when the machine is shared), the median race length, and the time of
``legal_actions`` + ``apply`` per decision.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine.race as race  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=400, help="per board and table size")
    args = parser.parse_args()
    for board in race.Board:
        for seats in (2, 3, 4, 5):
            decisions, turns = 0, []
            wall, cpu = time.perf_counter(), time.process_time()
            for seed in range(args.races):
                rng = random.Random(seed)
                s = race.new_game(seed, seats, board)
                while not s.is_over:
                    s = race.apply(s, s.seat, rng.choice(race.legal_actions(s, s.seat)))
                    decisions += 1
                turns.append(s.turn)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{board.value:6s} {seats} seats: {args.races / cpu:6.0f} races/s CPU "
                  f"({args.races / wall:4.0f} wall), {decisions / cpu:6.0f} decisions/s, "
                  f"{1e6 * cpu / decisions:5.1f} us per decision; "
                  f"{statistics.median(turns):.0f} turns median")


if __name__ == "__main__":
    main()
