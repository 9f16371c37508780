"""Several bot processes on one PostgreSQL database: two worker processes with
different shard ids (``tests/match/shard_worker.py``, the service side of the bot's timer
task) play the AI matches of their own shards' servers to the end, fire each due timer
exactly once between them, and take over the timer claimed by a process killed before it
fired, once that claim's lease has run out; and announce each match's end once between them
(none of the ends was posted by a flow: each is due a lease after it)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.match import MatchService
from bot.match.claim_store import ClaimTarget
from bot.match.shards import shard_of
from bot.storage.pg import PgDatabase
from tests.databases import BACKENDS, postgres_schema

pytestmark = pytest.mark.parametrize("backend", BACKENDS[1:])  # one PostgreSQL server

ROOT = Path(__file__).resolve().parents[2]
GUILDS = ((1000 << 22) | 7, (1001 << 22) | 7)  # on shards 0 and 1 of 2
LEASE = 3.0
WAIT = 90.0  # seconds: the longest the work may take on a loaded machine


async def _worker(url: str, shard: int, owner: str, mode: str, arg: object):
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.match.shard_worker", url, str(shard), "2", owner,
        str(LEASE), mode, str(arg), cwd=ROOT, stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})


async def _lines(proc) -> list[dict]:
    out, _ = await proc.communicate()
    return [json.loads(line) for line in out.decode().splitlines() if line.strip()]


async def _until_all_announced(db: PgDatabase, match_ids: list[int]) -> None:
    """Wait until the database shows the end of every match of ``match_ids`` announced (the
    workers' work is done), at most :data:`WAIT` seconds."""
    marks = ", ".join("?" * len(match_ids))
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        rows = await db.fetchall(f"SELECT id FROM matches WHERE id IN ({marks}) AND "
                                 f"end_announced_at IS NOT NULL", tuple(match_ids))
        if len(rows) == len(match_ids):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"not every end was announced within {WAIT:.0f} s")


async def test_two_shard_processes_share_the_work_and_take_over_a_dead_ones(backend):
    assert [shard_of(g, 2) for g in GUILDS] == [0, 1]
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        svc = MatchService(db)
        try:
            levels = ["easy", "easy"]
            ai_ids = [900, 901]
            ai_matches = [await svc.start_ai_match(g, 10 + i, game="raptor", levels=levels,
                                                   ai_user_ids=ai_ids)
                          for i, g in enumerate(GUILDS)]
            idle = []  # human matches whose players never act: due for their timer now
            for i, g in enumerate(GUILDS):
                for j in range(2):
                    ch = await svc.create_challenge(g, 100 + 10 * i + j, 2000 + j, 3000 + j,
                                                    game="raptor")
                    idle.append(await svc.accept_challenge(ch.id, 3000 + j))
            past = time.time() - 1
            await db.write("UPDATE matches SET deadline_at = ?, remind_at = NULL WHERE id IN "
                           "(SELECT match_id FROM match_players WHERE seat = 0 AND "
                           "ai IS NULL)", (past,))

            # a process of shard 0 claims the first timer, then dies before firing it
            doomed = await _worker(url, 0, "dead", "claim", idle[0].id)
            line = json.loads(await asyncio.wait_for(doomed.stdout.readline(), 30))
            assert line["claimed"] == idle[0].id
            doomed.send_signal(signal.SIGKILL)
            await doomed.wait()
            holder = await svc.ctx.claims.holder(ClaimTarget.MATCH, idle[0].id)
            assert holder is not None and holder[0] == "dead"

            workers = [await _worker(url, s, f"shard-{s}", "serve", WAIT) for s in (0, 1)]
            try:
                await _until_all_announced(db, [m.id for m in (*idle, *ai_matches)])
                # a second firing or announcement would come within a lease: give it one
                await asyncio.sleep(LEASE + 1)
            finally:
                for w in workers:
                    w.send_signal(signal.SIGTERM)
                outputs = await asyncio.gather(*(_lines(w) for w in workers))
            assert [w.returncode for w in workers] == [0, 0]

            fired = [(o["fired"], o["match"]) for out in outputs for o in out if "fired" in o]
            assert sorted(fired) == sorted(("forfeit", m.id) for m in idle)  # once each
            takeover = [o for out in outputs for o in out if o.get("match") == idle[0].id]
            assert len(takeover) == 1 and takeover[0]["at"] >= holder[1]  # after the lease
            for m in idle:
                assert (await svc.get_match(m.id)).reason == "abandoned"

            # each AI match was played to its end, by the process of its server's shard
            for shard, m in enumerate(ai_matches):
                after = await svc.get_match(m.id)
                assert not after.active and after.state.is_over, after.reason
                players = {o["played"] for out in outputs for o in out if "played" in o}
                assert m.id in players
                mine = {o["played"] for o in outputs[shard] if "played" in o}
                assert mine == {m.id}
            assert await svc.ctx.claims.abandoned_ai_matches(time.time() + 3600) == []

            # every end was announced once, by one of the two processes, a lease after it
            announced = [o["announced"] for out in outputs for o in out if "announced" in o]
            assert sorted(announced) == sorted(m.id for m in (*idle, *ai_matches))
            for m in (*idle, *ai_matches):
                after = await svc.get_match(m.id)
                assert after.end_announced_at is not None
                assert after.end_announced_at >= after.updated_at + LEASE
        finally:
            await db.close()
