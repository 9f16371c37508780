"""How contested the offline demo's match is: ``python -m bot demo``'s match (its default
levels, budget, environment and quick setup, through the same MatchService on SQLite) over
many seeds, without the images. Run by hand:

    python benchmarks/bench_demo.py                       # seeds 1-50, the demo's defaults
    python benchmarks/bench_demo.py --raptor medium --scientist easy --seeds 20
    python benchmarks/bench_demo.py --budget 0.5          # on the clock, as --budget does

Printed: per seed the winner, the reason and the rounds; then each side's win share with a
95 % Wilson interval and the median and range of the match length in rounds. By default
the AI does the demo's fixed work per decision (``bot.games.raptor.demo.DEFAULT_ITERATIONS``),
so the figures are exactly the demo's on any machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench_ai import wilson  # noqa: E402

from bot.games.raptor import demo  # noqa: E402
from bot.games.raptor import sides as rs  # noqa: E402
from bot.match import MatchService  # noqa: E402
from bot.storage.db import SqliteDatabase  # noqa: E402
from engine import Side  # noqa: E402


async def _match(seed: int, levels: dict[Side, str], budget: float | None, environment: str,
                 folder: Path) -> dict:
    db = await SqliteDatabase.open(folder / f"bench-demo-{seed}.sqlite3")
    try:
        service = MatchService(db, ai_time_budget=budget or 2.0,
                               ai_iterations=demo.DEFAULT_ITERATIONS if budget is None else None)
        match = await demo.start_demo_match(service, seed=seed, levels=levels,
                                            environment=environment)
        while await service.play_ai(match.id):
            pass
        final = await service.get_match(match.id)
        return {"seed": seed, "winner": rs.result(final), "reason": final.reason,
                "rounds": final.state.round}
    finally:
        await db.close()


def play(job: tuple) -> dict:
    seed, levels, budget, environment = job
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        out = asyncio.run(_match(seed, levels, budget, environment, Path(folder)))
    out["seconds"] = time.perf_counter() - start
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--raptor", default=demo.DEFAULT_LEVELS[Side.RAPTOR])
    parser.add_argument("--scientist", default=demo.DEFAULT_LEVELS[Side.SCIENTIST])
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds per decision on the clock (default: the demo's fixed work)")
    parser.add_argument("--environment", default="jungle")
    parser.add_argument("--seeds", type=int, default=50, help="seeds 1..N (50)")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    levels = {Side.RAPTOR: args.raptor, Side.SCIENTIST: args.scientist}
    work = (f"budget {args.budget:g} s" if args.budget is not None
            else f"iterations {demo.DEFAULT_ITERATIONS}")
    print(f"demo match: raptor {args.raptor}, scientist {args.scientist}, {work}, "
          f"{args.environment}, quick setup, seeds 1..{args.seeds}, "
          f"{args.processes} processes", flush=True)
    jobs = [(seed, levels, args.budget, args.environment) for seed in range(1, args.seeds + 1)]
    with Pool(args.processes) as pool:
        results = sorted(pool.imap_unordered(play, jobs), key=lambda r: r["seed"])
    for r in results:
        print(f"  seed {r['seed']:>3}: {r['winner']:<9} {r['reason']:<16} round "
              f"{r['rounds']:>3} ({r['seconds']:.0f} s)")
    n = len(results)
    for side in ("raptor", "scientist"):
        won = sum(1 for r in results if r["winner"] == side)
        lo, hi = wilson(won, n)
        print(f"{side:<9} wins {won:>3} of {n}: {100 * won / n:5.1f} %  "
              f"95 % CI [{100 * lo:.0f} %, {100 * hi:.0f} %]")
    rounds = [r["rounds"] for r in results]
    print(f"rounds: median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}; "
          f"seconds per match: median {statistics.median(r['seconds'] for r in results):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
