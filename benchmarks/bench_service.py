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

Part ``backends``: SQLite and PostgreSQL side by side in the same run. For each
database and for 1, 10 and 1,000 concurrent matches (``--levels``), drivers play back to back
(a closed loop, new games as games end) until ``--level-actions`` persisted actions in all;
printed per level: actions/s and the p50/p95 of ``act()``. Back to back, the latency at 1,000
matches is mostly queueing (about matches / throughput); the level ``1000@2`` has each
player think 2 s on average first (about 500 actions/s offered), so its latency is the
service time at that load. PostgreSQL is the server of
``--pg-url`` (default ``RAPTOR_TEST_DATABASE_URL``), in a schema of its own that is dropped
afterwards; its ``fsync`` / ``synchronous_commit`` settings are printed, since they decide
the cost of a commit (SQLite runs WAL with ``synchronous=NORMAL``: no fsync per commit).
Target on PostgreSQL: >= 500 actions/s and act p95 <= 20 ms.

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
from bot.games.raptor import sides as rs  # noqa: E402
from bot.match import Match, MatchService, StaleError  # noqa: E402
from bot.storage.db import SqliteDatabase  # noqa: E402
from bot.storage.pg import PgDatabase  # noqa: E402

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
    ch = await svc.create_challenge(GUILD, channel, a, b, game="raptor",
                                    seat=rs.seat_wish("raptor"), options={"setup": "quick"})
    return await svc.accept_challenge(ch.id, b)


async def sequential(path: Path, actions: int) -> None:
    db = await SqliteDatabase.open(path)
    try:
        await _sequential(db, path, actions)
    finally:
        await db.close()


async def _sequential(db: SqliteDatabase, path: Path, actions: int) -> None:
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
        m = (await svc.act(m.id, rs.user(m, side), action, expected_version=m.version)).match
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
    db = await SqliteDatabase.open(path)
    try:
        await _concurrent(db, matches, per_match, pace)
    finally:
        await db.close()


async def _concurrent(db: SqliteDatabase, matches: int, per_match: int, pace: float) -> None:
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
                m = (await svc.act(m.id, rs.user(m, side), action,
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


async def _level(db, n: int, total: int, seed: int, pace: float = 0.0
                 ) -> tuple[int, float, list[float]]:
    """``n`` drivers, back to back (or each waiting a random time of mean ``pace`` seconds
    before each action), ``total`` persisted actions in all (new games as games end);
    returns actions, seconds and the act() latencies."""
    seeds = _seeds(seed)
    svc = MatchService(db, seed_source=lambda: next(seeds))
    per_driver = max(1, total // n)
    latencies: list[float] = []

    def where(i: int) -> tuple[int, int, int]:  # each driver's channel and two players
        return seed + 10 * i, seed + 10 * i + 1, seed + 10 * i + 2

    first = await asyncio.gather(*(_new_match(svc, *where(i)) for i in range(n)))

    async def drive(i: int) -> int:
        rng = random.Random(seed + i)
        m = first[i]
        done = 0
        while done < per_driver:
            if not m.active:  # a new game in the same channel (its creation is timed)
                m = await _new_match(svc, *where(i))
            if pace > 0:
                await asyncio.sleep(rng.expovariate(1 / pace))
            side, action = _pick(m, rng)
            a0 = time.perf_counter()
            m = (await svc.act(m.id, rs.user(m, side), action, expected_version=m.version)).match
            latencies.append(time.perf_counter() - a0)
            done += 1
        return done

    # the first matches were created above (not timed); all drivers start together
    t0 = time.perf_counter()
    counts = await asyncio.gather(*(drive(i) for i in range(n)))
    return sum(counts), time.perf_counter() - t0, latencies


async def _pg_schema(url: str):
    import asyncpg

    conn = await asyncpg.connect(url)
    schema = f"bench_{os.getpid()}"
    await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    await conn.execute(f"CREATE SCHEMA {schema}")
    settings = {k: await conn.fetchval(f"SHOW {k}") for k in
                ("server_version", "fsync", "synchronous_commit")}
    await conn.close()
    sep = "&" if "?" in url else "?"
    return schema, f"{url}{sep}search_path={schema}", settings


def _parse_level(text: str) -> tuple[int, float]:
    """``"1000"`` (back to back) or ``"1000@2"`` (each driver thinking 2 s on average)."""
    n, _, pace = text.partition("@")
    return int(n), float(pace or 0)


async def backends(folder: Path, pg_url: str | None, levels: list[str], total: int) -> None:
    rows: dict[str, dict[str, tuple[int, float, list[float]]]] = {}
    names = ["sqlite"] + (["postgresql"] if pg_url else [])
    for name in names:
        rows[name] = {}
        for level in levels:
            n, pace = _parse_level(level)
            if name == "sqlite":
                path = folder / f"levels-{n}-{pace:g}.sqlite3"
                db = await SqliteDatabase.open(path)
            else:
                schema, url, info = await _pg_schema(pg_url)
                db = await PgDatabase.open(url, min_size=2, max_size=10)
            try:
                rows[name][level] = await _level(db, n, total, 100_000 * (1 + n), pace)
            finally:
                await db.close()
                if name == "postgresql":
                    import asyncpg

                    conn = await asyncpg.connect(pg_url)
                    await conn.execute(f"DROP SCHEMA {schema} CASCADE")
                    await conn.close()
    if pg_url:
        print(f"PostgreSQL {info['server_version']} (fsync={info['fsync']}, "
              f"synchronous_commit={info['synchronous_commit']}), 127.0.0.1, asyncpg pool of "
              "10 connections; SQLite WAL, synchronous=NORMAL")
    else:
        print("no --pg-url (nor RAPTOR_TEST_DATABASE_URL): SQLite only")
    print(f"== backends: persisted actions/s and act() latency, {total} actions per level "
          "(N@S: N matches whose players think S s on average before each action)")
    print(f"{'matches':>8} | " + " | ".join(f"{n:^36}" for n in names))
    print(f"{'':>8} | " + " | ".join(f"{'actions/s':>10} {'p50 ms':>8} {'p95 ms':>8} "
                                      f"{'max ms':>7}" for _ in names))
    for level in levels:
        cells = []
        for name in names:
            done, secs, lat = rows[name][level]
            q = statistics.quantiles(lat, n=100)
            cells.append(f"{done / secs:>10,.0f} {q[49] * 1000:>8.2f} {q[94] * 1000:>8.2f} "
                         f"{max(lat) * 1000:>7.0f}")
        print(f"{level:>8} | " + " | ".join(cells))
    print(f"load average:           {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("all", "sequential", "concurrent", "backends"),
                        default="all")
    parser.add_argument("--pg-url", default=os.environ.get("RAPTOR_TEST_DATABASE_URL"),
                        help="PostgreSQL server for the backends part (a schema is made and "
                        "dropped in it)")
    parser.add_argument("--levels", default="1,10,1000,1000@2",
                        help="concurrent matches of the backends part, comma-separated; N@S: "
                        "each driver waits S s on average before each action")
    parser.add_argument("--level-actions", type=int, default=4000,
                        help="persisted actions per level of the backends part")
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
        if args.part in ("all", "backends"):
            asyncio.run(backends(folder, args.pg_url, args.levels.split(","),
                                 args.level_actions))
    finally:
        if not args.keep:
            for p in folder.glob("*.sqlite3*"):
                p.unlink()
            if args.dir is None:
                folder.rmdir()


if __name__ == "__main__":
    main()
