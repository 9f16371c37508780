"""Storage transactions: rollback on errors and cancellation, the write lock, pipelined
writes, and reads that always see the latest commit."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest


async def _count(db) -> int:
    return (await db.fetchone("SELECT COUNT(*) FROM guild_settings"))[0]


async def test_transaction_commits_or_rolls_back(db):
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings VALUES (1, 60)")
        assert (await tx.fetchone("SELECT turn_timeout FROM guild_settings"))[0] == 60
        assert await _count(db) == 0  # the reader sees committed data only
    assert await _count(db) == 1
    with pytest.raises(KeyError):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (2, 60)")
            raise KeyError("boom")
    assert await _count(db) == 1


async def test_cancelled_transaction_rolls_back_and_frees_the_lock(db):
    inside = asyncio.Event()

    async def slow():
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (3, 60)")
            inside.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(slow())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _count(db) == 0
    async with db.transaction() as tx:  # not blocked, and no transaction left open
        await tx.execute("INSERT INTO guild_settings VALUES (4, 60)")
    assert await _count(db) == 1


async def test_write_transactions_take_turns(db):
    order = []

    async def writer(n):
        async with db.transaction() as tx:
            order.append(("begin", n))
            await tx.execute("INSERT INTO guild_settings VALUES (?, 60)", (n,))
            await asyncio.sleep(0.01)
            order.append(("end", n))

    await asyncio.gather(*(writer(n) for n in range(5)))
    # No transaction began while another was open.
    assert all(order[i][0] == "begin" and order[i + 1] == ("end", order[i][1])
               for i in range(0, 10, 2))
    assert await _count(db) == 5


async def test_write_pipelined_commits_or_rolls_back(db):
    counts = await db.write_pipelined([
        ("INSERT INTO guild_settings VALUES (1, 60)", ()),
        ("UPDATE guild_settings SET turn_timeout = 90 WHERE guild_id = 1 AND changes() = 1",
         ())])
    assert counts == [1, 1]
    assert tuple(await db.fetchone("SELECT * FROM guild_settings")) == (1, 90)
    # commit_if refuses: nothing stays
    counts = await db.write_pipelined(
        [("UPDATE guild_settings SET turn_timeout = 5 WHERE guild_id = 1", ()),
         ("INSERT INTO guild_settings VALUES (2, 60)", ())],
        commit_if=lambda counts: False)
    assert counts == [1, 1]
    assert await _count(db) == 1
    assert (await db.fetchone("SELECT turn_timeout FROM guild_settings"))[0] == 90
    # a failing later statement undoes the earlier ones
    with pytest.raises(sqlite3.IntegrityError):
        await db.write_pipelined([
            ("UPDATE guild_settings SET turn_timeout = 7 WHERE guild_id = 1", ()),
            ("INSERT INTO guild_settings VALUES (1, 60)", ())])  # duplicate key
    assert (await db.fetchone("SELECT turn_timeout FROM guild_settings"))[0] == 90
    with pytest.raises(ValueError, match="first pipelined statement"):
        await db.write_pipelined([("SELECT 1", ())])
    async with db.transaction() as tx:  # no transaction was left open
        await tx.execute("INSERT INTO guild_settings VALUES (3, 60)")
    assert await _count(db) == 2


async def test_reads_see_every_commit_even_under_concurrency(db):
    """Many interleaved reads on the shared reader connection never pin an old snapshot."""

    async def insert_then_read(n):
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO guild_settings VALUES (?, 60)", (n,))
        row = await db.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = ?", (n,))
        others = await db.fetchall("SELECT guild_id FROM guild_settings")
        return row is not None and n in {r[0] for r in others}

    assert all(await asyncio.gather(*(insert_then_read(n) for n in range(200))))


async def test_closed_database_refuses_writes(db_path):
    from bot.db import Database

    db = await Database.open(db_path)
    await db.close()
    await db.close()  # twice is fine
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        async with db.transaction():
            pass
