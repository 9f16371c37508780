"""One bot process picking a card, for ``tests/match/test_simultaneous.py``: the match
service on a database shared with another such process (an SQLite file or a PostgreSQL
URL), whose first save of a step is held until the test says go, so that both processes
have loaded the same version of the match before either saves.

    python -m tests.match.pick_worker TARGET MATCH_ID USER_ID CARD

Prints ``{"holding": version}`` when its save is ready (the version it loaded), waits for a
line on stdin, then ``{"changed": rows, "saved": version}``: the rows its first save
changed (0: it lost the version check) and the version its pick was saved at.
"""

from __future__ import annotations

import asyncio
import json
import sys

import engine
from bot.match import MatchService
from tests.databases import STEP_SAVE, open_target


def say(**what: object) -> None:
    print(json.dumps(what), flush=True)


async def main(target: str, match_id: int, user_id: int, card: int) -> None:
    db = await open_target(target)
    svc = MatchService(db)
    write = db.write
    first: list[int] = []

    async def held(sql: str, params=()):
        if not sql.startswith(STEP_SAVE) or first:
            return await write(sql, params)
        say(holding=params[-1])  # the version in the save's WHERE
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        first.append(await write(sql, params))
        return first[0]

    db.write = held
    try:
        result = await svc.act(match_id, user_id, engine.Pick(card))
        say(changed=first[0], saved=result.match.version)
    finally:
        await db.close()


if __name__ == "__main__":
    t, mid, uid, c = sys.argv[1:5]
    asyncio.run(main(t, int(mid), int(uid), int(c)))
