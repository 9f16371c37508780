"""Benchmark the match service (bot/match/service.py) on a real SQLite file. Run by hand:

    python benchmarks/bench_service.py                          # both parts, default sizes
    python benchmarks/bench_service.py --actions 20000 --matches 1000 --per-match 30
    python benchmarks/bench_service.py --part concurrent --dir /tmp/bench

Part ``sequential``: one coroutine plays random legal actions (seeded) through
``MatchService.act`` on one database file, game after game, until ``--actions`` actions are
saved. Each action is a full persisted step: load the match, ``engine.apply``, then the state
UPDATE (with its version check) and the log INSERT in one committed WAL transaction. Target:
>= 500 persisted actions per second. For scale, the engine-only time of the same actions is
printed too.

Part ``concurrent``: ``--matches`` (1,000) matches between different players in different
channels, created through challenges, then driven at once with ``asyncio.gather``: each match
coroutine plays ``--per-match`` actions, one after the other (always passing the version it
read, as a button would). Printed: creation time, throughput, p50/p95/max latency of one
``act()`` call as seen by its coroutine (which includes waiting for the write lock behind the
other matches), stale conflicts (must be 0: every match has one driver), and peak RSS of the
process (``resource.getrusage``). By default the drivers act back to back (a closed loop: the
latency then is mostly queueing, about matches / throughput); ``--pace S`` makes each driver
wait a random time (exponential, mean S seconds) before each action, like players thinking,
so the latency shows the service time at that offered load (matches / S actions per second).

Everything runs in one process on one file; the file is removed afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import engine  # noqa: E402
from bot.db import Database  # noqa: E402
from bot.match import Match, MatchService, StaleError  # noqa: E402

GUILD = 1


def _seeds(start: int):
    n = start
    while True:
        yield n
        n += 1


def _pick(m: Match, rng: random.Random) -> tuple[engine.Side, engine.Action]:
    side = sorted(engine.to_act(m.state))[0]
    return side, rng.choice(engine.legal_actions(m.state, side))


async def _new_match(svc: MatchService, channel: int, a: int, b: int) -> Match:
    ch = await svc.create_challenge(GUILD, channel, a, b, side="raptor", setup="quick")
    return await svc.accept_challenge(ch.id, b)


async def sequential(path: Path, actions: int) -> None:
    db = await Database.open(path)
    try:
        await _sequential(db, path, actions)
    finally:
        await db.close()


async def _sequential(db: Database, path: Path, actions: int) -> None:
    seeds = _seeds(10_000)
    svc = MatchService(db, seed_source=lambda: next(seeds))
    rng = random.Random(1)
    done = games = 0
    engine_time = 0.0
    latencies: list[float] = []
    m = await _new_match(svc, 1, 1, 2)
    t0 = time.perf_counter()
    while done < actions:
        if not m.active:
            games += 1
            m = await _new_match(svc, 1, 1, 2)
        side, action = _pick(m, rng)
        e0 = time.perf_counter()
        engine.apply(m.state, side, action)  # engine-only cost of the same step, for scale
        engine_time += time.perf_counter() - e0
        a0 = time.perf_counter()
        m = (await svc.act(m.id, m.players[side], action, expected_version=m.version)).match
        latencies.append(time.perf_counter() - a0)
        done += 1
    elapsed = time.perf_counter() - t0
    check = await svc.replayed_state(m.id) == m.state
    h0 = time.perf_counter()
    for _ in range(500):
        await db.fetchone("SELECT 1")
    hop = (time.perf_counter() - h0) / 500
    size = path.stat().st_size + sum(p.stat().st_size for p in path.parent.glob(
        path.name + "-*"))
    print("== sequential: one coroutine, one file")
    print(f"persisted actions:      {done} in {elapsed:.2f} s ({games} games finished)")
    print(f"throughput:             {done / elapsed:,.0f} actions/s  (target >= 500)")
    q = statistics.quantiles(latencies, n=100)
    print(f"act() latency:          mean {statistics.fmean(latencies) * 1000:.2f} ms, p50 "
          f"{q[49] * 1000:.2f} ms, p95 {q[94] * 1000:.2f} ms, max {max(latencies) * 1000:.0f} "
          f"ms (engine.apply alone: {engine_time / done * 1000:.3f} ms)")
    slow = sum(t for t in latencies if t > 10 * q[49])
    print(f"time in slow acts:      {slow / sum(latencies):.0%} of the total in acts over 10x "
          "the median (WAL checkpoints, scheduling)")
    print(f"thread round trip:      {hop * 1000:.3f} ms (one aiosqlite call, SELECT 1; an "
          "act() makes two: load, save)")
    print(f"replay == stored state: {check}")
    print(f"database size:          {size / 1e6:.1f} MB")
    print(f"load average:           {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


async def concurrent(path: Path, matches: int, per_match: int, pace: float) -> None:
    db = await Database.open(path)
    try:
        await _concurrent(db, matches, per_match, pace)
    finally:
        await db.close()


async def _concurrent(db: Database, matches: int, per_match: int, pace: float) -> None:
    seeds = _seeds(50_000)
    svc = MatchService(db, seed_source=lambda: next(seeds))
    t0 = time.perf_counter()
    created = await asyncio.gather(*(
        _new_match(svc, 1000 + i, 10_000 + 2 * i, 10_001 + 2 * i) for i in range(matches)))
    t_create = time.perf_counter() - t0
    latencies: list[float] = []
    stale = 0

    async def drive(m: Match, seed: int) -> int:
        nonlocal stale
        rng = random.Random(seed)
        n = 0
        while m.active and n < per_match:
            if pace > 0:
                await asyncio.sleep(rng.expovariate(1 / pace))
            side, action = _pick(m, rng)
            a0 = time.perf_counter()
            try:
                m = (await svc.act(m.id, m.players[side], action,
                                   expected_version=m.version)).match
            except StaleError:
                stale += 1
                m = await svc.get_match(m.id)
                continue
            latencies.append(time.perf_counter() - a0)
            n += 1
        return n

    t1 = time.perf_counter()
    counts = await asyncio.gather(*(drive(m, i) for i, m in enumerate(created)))
    elapsed = time.perf_counter() - t1
    total = sum(counts)
    sample = random.Random(0).sample(created, min(20, len(created)))
    ok = all([await svc.replayed_state(m.id) == (await svc.get_match(m.id)).state
              for m in sample])
    latencies.sort()
    q = statistics.quantiles(latencies, n=100)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    mode = f"each acting every ~{pace:g} s" if pace > 0 else "acting back to back"
    print(f"== concurrent: {matches} matches in one process, asyncio.gather, {mode}")
    print(f"created {matches} matches: {t_create:.2f} s ({matches / t_create:,.0f} matches/s, "
          "challenge + accept each)")
    print(f"persisted actions:      {total} in {elapsed:.2f} s ({per_match} per match)")
    print(f"throughput:             {total / elapsed:,.0f} actions/s"
          + (f" (offered: ~{matches / pace:,.0f}/s at first; the run lasts as long as the "
             "slowest driver's thinking)" if pace > 0 else ""))
    print(f"act() latency:          p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, "
          f"max {latencies[-1] * 1000:.1f} ms")
    print(f"stale conflicts:        {stale}")
    print(f"replay == stored (20 sampled matches): {ok}")
    print(f"peak RSS:               {peak_kb / 1024:.0f} MiB")
    print(f"load average:           {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("all", "sequential", "concurrent"), default="all")
    parser.add_argument("--actions", type=int, default=10_000,
                        help="persisted actions in the sequential part")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--per-match", type=int, default=20,
                        help="actions per match in the concurrent part")
    parser.add_argument("--pace", type=float, default=0.0,
                        help="mean seconds a driver waits before each action (0: none)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder for the database files (default: a temporary one)")
    parser.add_argument("--keep", action="store_true", help="keep the database files")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="bench_service_"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"SQLite {__import__('sqlite3').sqlite_version}, Python {sys.version.split()[0]}, "
          f"files in {folder}")
    try:
        if args.part in ("all", "sequential"):
            asyncio.run(sequential(folder / "sequential.sqlite3", args.actions))
        if args.part in ("all", "concurrent"):
            asyncio.run(concurrent(folder / "concurrent.sqlite3", args.matches,
                                   args.per_match, args.pace))
    finally:
        if not args.keep:
            for p in folder.glob("*.sqlite3*"):
                p.unlink()
            if args.dir is None:
                folder.rmdir()


if __name__ == "__main__":
    main()
