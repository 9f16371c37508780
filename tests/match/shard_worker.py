"""A bot process for the multi-process test (``tests/match/test_processes.py``), without
Discord: the match service of one shard set on a shared database, doing what the bot's timer
task does (fire due timers, play the AI turns of its own shards' matches, take over abandoned
ones, announce the ends nobody announced: here the "post" is the JSON line), printing one
JSON line per thing it did.

    python -m tests.match.shard_worker URL SHARD COUNT OWNER LEASE serve SECONDS
    python -m tests.match.shard_worker URL SHARD COUNT OWNER LEASE claim MATCH_ID

``serve`` works until SIGTERM (then exits 0), or for at most SECONDS. ``claim`` claims the
match's timer, says so, and hangs (the test kills it: a process that died holding a claim).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time

from bot.match import MatchService
from bot.match.claim_store import ClaimTarget
from bot.match.shards import Shards
from bot.storage.pg import PgDatabase
from tests.match.conftest import random_chooser


def say(**what: object) -> None:
    print(json.dumps({**what, "at": time.time()}), flush=True)


async def main(url: str, shard: int, count: int, owner: str, lease: float, mode: str,
               arg: str) -> None:
    db = await PgDatabase.open(url)
    svc = MatchService(db, owner=owner, claim_lease=lease, shards=Shards(count, (shard,)),
                       ai_chooser=random_chooser, ai_time_budget=0.01)
    try:
        if mode == "claim":
            assert await svc.ctx.claim(ClaimTarget.MATCH, int(arg))
            say(claimed=int(arg))
            await asyncio.sleep(3600)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        end = time.monotonic() + float(arg)
        while not stop.is_set() and time.monotonic() < end:
            for mid in (await svc.matches_waiting_for_ai()
                        + await svc.abandoned_ai_matches()):
                played = await svc.play_ai(mid)
                if played:
                    say(played=mid, actions=len(played), over=not played[-1].match.active)
            for event in await svc.process_timers():
                say(fired=str(event.kind), match=event.match_id, challenge=event.challenge_id)
            for m in await svc.endings_to_announce():
                say(announced=m.id, reason=str(m.reason))
                assert await svc.end_announced(m.id)
            await asyncio.sleep(0.05)
    finally:
        await db.close()


if __name__ == "__main__":
    u, s, c, o, lease_s, m, a = sys.argv[1:8]
    asyncio.run(main(u, int(s), int(c), o, float(lease_s), m, a))
