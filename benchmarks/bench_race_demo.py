"""How long and how contested the race's offline demo is: ``python -m bot demo --game
race``'s race (its default level, fixed work and board, through the same MatchService on
SQLite) over many seeds, without the images; then the whole demo (images, record, GIF) for a
few seeds, timed. Run by hand:

    python benchmarks/bench_race_demo.py                        # seeds 1-40, 4 seats, hard
    python benchmarks/bench_race_demo.py --players 3 --level medium --board jungle
    python benchmarks/bench_race_demo.py --full 5               # the whole demo, 5 seeds

Printed: per seed the turns, every seat's points and the margin (first place's points less
the best other's; 0: first place shared); then the median and range of the turns, the share
of races decided by at most 3 points, and the seconds per race without images; with
``--full``, the wall time of the whole demo per seed. The AI does the demo's fixed work per
decision (``bot.games.race.demo.DEFAULT_ITERATIONS``), so the races are exactly the demo's on
any machine; the times are this machine's.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bot.games.race import demo  # noqa: E402
from bot.match import MatchService  # noqa: E402
from bot.storage.db import SqliteDatabase  # noqa: E402


async def race_only(seed: int, players: int, level: str, board: str, folder: Path) -> dict:
    """The demo's race for ``seed`` without its files: turns and points."""
    db = await SqliteDatabase.open(folder / f"race-{seed}.sqlite3")
    try:
        service = MatchService(db, ai_iterations=demo.DEFAULT_ITERATIONS)
        match = await demo.start_demo_match(service, seed=seed, players=players, level=level,
                                            board=board)
        while await service.play_ai(match.id):
            pass
        final = await service.get_match(match.id)
        scores = sorted((p.score for p in final.players), reverse=True)
        return {"seed": seed, "turns": final.state.turn,
                "scores": [int(p.score) for p in final.players],
                "margin": int(scores[0] - scores[1])}
    finally:
        await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--players", type=int, default=demo.DEFAULT_PLAYERS)
    parser.add_argument("--level", default=demo.DEFAULT_LEVEL)
    parser.add_argument("--board", default="desert")
    parser.add_argument("--full", type=int, default=3,
                        help="seeds of the whole demo to time (images, record, GIF)")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(1, args.seeds + 1):
            start = time.perf_counter()
            row = asyncio.run(race_only(seed, args.players, args.level, args.board,
                                        Path(folder)))
            row["seconds"] = time.perf_counter() - start
            rows.append(row)
            print(f"seed {seed:3d}: {row['turns']:3d} turns  points {row['scores']}  margin "
                  f"{row['margin']}  {row['seconds']:.2f} s", flush=True)
        turns = [r["turns"] for r in rows]
        close = sum(r["margin"] <= 3 for r in rows)
        print(f"\n{args.players} seats, {args.level}, {args.board}, {len(rows)} seeds: "
              f"turns median {statistics.median(turns)} (range {min(turns)}-{max(turns)}); "
              f"decided by <= 3 points: {close}/{len(rows)} "
              f"({100 * close / len(rows):.0f} %), first place shared: "
              f"{sum(r['margin'] == 0 for r in rows)}; "
              f"{statistics.mean(r['seconds'] for r in rows):.2f} s a race without images")
        for seed in range(1, args.full + 1):
            out = Path(folder) / f"full-{seed}"
            start = time.perf_counter()
            summary = asyncio.run(demo.play_demo(out, seed=seed, players=args.players,
                                                 level=args.level, board=args.board,
                                                 echo=lambda _: None))
            seconds = time.perf_counter() - start
            gif_kib = summary["gif"].stat().st_size / 1024
            print(f"whole demo, seed {seed}: {summary['turns']} turns, {seconds:.2f} s "
                  f"(GIF {gif_kib:.0f} KiB)")


if __name__ == "__main__":
    main()
