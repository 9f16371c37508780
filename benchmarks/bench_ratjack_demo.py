"""What ``python -m bot demo --game ratjack`` costs at its defaults (every seat the hard AI
with its fixed work, :data:`bot.games.ratjack.demo.DEFAULT_ITERATIONS`): per player count
and seed, the match's turns and rounds, the wall and CPU seconds, the table images' and the
GIF's bytes.

    python benchmarks/bench_ratjack_demo.py [--players 2 3 4] [--seeds 1 2 3] [--level L]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.ratjack.demo import DEFAULT_ITERATIONS, DEFAULT_LEVEL, play_demo  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--level", default=DEFAULT_LEVEL)
    args = parser.parse_args()
    print(f"level {args.level}, {DEFAULT_ITERATIONS} determinizations a decision")
    print(f"{'players':>7} {'seed':>4} {'turns':>5} {'rounds':>6} {'wall s':>7} {'cpu s':>6} "
          f"{'PNG KiB/turn':>12} {'GIF KiB':>7} {'frames':>6}")
    for players in args.players:
        walls = []
        for seed in args.seeds:
            with tempfile.TemporaryDirectory() as folder:
                out = Path(folder)
                cpu = time.process_time()
                wall = time.perf_counter()
                s = asyncio.run(play_demo(out, players=players, seed=seed, level=args.level,
                                          echo=lambda line: None))
                wall = time.perf_counter() - wall
                cpu = time.process_time() - cpu
                png = sum(p.stat().st_size for p in s["pngs"]) / max(1, len(s["pngs"]))
                walls.append(wall)
                print(f"{players:>7} {seed:>4} {s['turns']:>5} {s['rounds']:>6} {wall:>7.1f} "
                      f"{cpu:>6.1f} {png / 1024:>12.0f} {len(s['animation'].data) / 1024:>7.0f} "
                      f"{s['animation'].frames:>6}")
        print(f"{players:>7} mean wall {statistics.mean(walls):.1f} s")


if __name__ == "__main__":
    main()
