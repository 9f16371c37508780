"""Storage transactions: rollback on errors and cancellation, the write lock, pipelined
writes, and reads that always see the latest commit."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage import IntegrityViolation

GS = "guild_settings (guild_id, turn_timeout)"  # a small table to write to


async def _count(db) -> int:
    return (await db.fetchone("SELECT COUNT(*) FROM guild_settings"))[0]


async def test_transaction_commits_or_rolls_back(db):
    async with db.transaction() as tx:
        await tx.execute(f"INSERT INTO {GS} VALUES (1, 60)")
        assert (await tx.fetchone("SELECT turn_timeout FROM guild_settings"))[0] == 60
        assert await _count(db) == 0  # the reader sees committed data only
    assert await _count(db) == 1
    with pytest.raises(KeyError):
        async with db.transaction() as tx:
            await tx.execute(f"INSERT INTO {GS} VALUES (2, 60)")
            raise KeyError("boom")
    assert await _count(db) == 1


async def test_cancelled_transaction_rolls_back_and_frees_the_lock(db):
    inside = asyncio.Event()

    async def slow():
        async with db.transaction() as tx:
            await tx.execute(f"INSERT INTO {GS} VALUES (3, 60)")
            inside.set()
            await asyncio.sleep(30)

    task = asyncio.create_task(slow())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _count(db) == 0
    async with db.transaction() as tx:  # not blocked, and no transaction left open
        await tx.execute(f"INSERT INTO {GS} VALUES (4, 60)")
    assert await _count(db) == 1


async def test_write_transactions_take_turns(sqlite_db):
    """SQLite: one writer at a time in a process (PostgreSQL's transactions run side by
    side, each on its own connection; the row versions keep them apart)."""
    db = sqlite_db
    order = []

    async def writer(n):
        async with db.transaction() as tx:
            order.append(("begin", n))
            await tx.execute(f"INSERT INTO {GS} VALUES (?, 60)", (n,))
            await asyncio.sleep(0.01)
            order.append(("end", n))

    await asyncio.gather(*(writer(n) for n in range(5)))
    # No transaction began while another was open.
    assert all(order[i][0] == "begin" and order[i + 1] == ("end", order[i][1])
               for i in range(0, 10, 2))
    assert await _count(db) == 5


async def test_write_is_one_atomic_statement(db):
    assert await db.write(f"INSERT INTO {GS} VALUES (1, 60)") == 1
    assert await db.write("UPDATE guild_settings SET turn_timeout = 90 WHERE guild_id = ?",
                          (1,)) == 1
    assert await db.write("UPDATE guild_settings SET turn_timeout = 5 WHERE guild_id = 2") == 0
    assert tuple(await db.fetchone("SELECT guild_id, turn_timeout FROM guild_settings")) == (1, 90)
    with pytest.raises(IntegrityViolation):  # a multi-row statement fails whole
        await db.write(f"INSERT INTO {GS} VALUES (2, 60), (1, 60)")
    assert await _count(db) == 1


async def test_write_waits_for_an_open_transaction(db):
    """A single write never lands inside another coroutine's transaction (which would make
    it share that transaction's rollback)."""
    inside = asyncio.Event()

    async def failing_transaction():
        async with db.transaction() as tx:
            await tx.execute(f"INSERT INTO {GS} VALUES (1, 60)")
            inside.set()
            await asyncio.sleep(0.05)
            raise KeyError("boom")

    async def single_write():
        await inside.wait()
        return await db.write(f"INSERT INTO {GS} VALUES (2, 60)")

    results = await asyncio.gather(failing_transaction(), single_write(),
                                   return_exceptions=True)
    assert isinstance(results[0], KeyError) and results[1] == 1
    assert [r[0] for r in await db.fetchall("SELECT guild_id FROM guild_settings")] == [2]


async def test_the_log_grows_only_with_the_match_row(svc, db):
    from tests.match.conftest import start_match

    m = await start_match(svc)
    with pytest.raises(IntegrityViolation, match="grows by one"):
        await db.write("UPDATE matches SET log_length = log_length + 2, last_seat = 0, "
                       "last_kind = 'action', last_action = '{}', last_action_at = 0")
    with pytest.raises(IntegrityViolation, match="grows by one"):
        await db.write("UPDATE matches SET log_length = log_length + 1")  # no record given
    assert await svc.raw_log(m.id) == []
    assert (await svc.get_match(m.id)).log_length == 0
    # A well-formed step appends exactly its record.
    assert await db.write(
        "UPDATE matches SET log_length = log_length + 1, last_seat = 0, "
        "last_kind = 'action', last_action = ?, last_action_at = 5 WHERE id = ?",
        ('{"kind": "pick", "card": 3}', m.id)) == 1
    assert [(e.seq, e.seat, e.kind, e.action) for e in await svc.raw_log(m.id)] == [
        (1, 0, "action", __import__("engine").Pick(3))]
    with pytest.raises(IntegrityViolation, match="grows by one"):  # no going back
        await db.write("UPDATE matches SET log_length = 0")
    assert len(await svc.raw_log(m.id)) == 1


async def test_reads_see_every_commit_even_under_concurrency(db):
    """Many interleaved reads on the shared reader connection never pin an old snapshot."""

    async def insert_then_read(n):
        async with db.transaction() as tx:
            await tx.execute(f"INSERT INTO {GS} VALUES (?, 60)", (n,))
        row = await db.fetchone("SELECT guild_id FROM guild_settings WHERE guild_id = ?", (n,))
        others = await db.fetchall("SELECT guild_id FROM guild_settings")
        return row is not None and n in {r[0] for r in others}

    assert all(await asyncio.gather(*(insert_then_read(n) for n in range(200))))


async def test_closed_database_refuses_writes(db_path):
    from bot.storage.db import SqliteDatabase

    db = await SqliteDatabase.open(db_path)
    await db.close()
    await db.close()  # twice is fine
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        async with db.transaction():
            pass


def _connection_threads() -> set:
    import threading

    return {t for t in threading.enumerate() if "_connection_worker_thread" in t.name}


@pytest.mark.parametrize("steps", [1, 2, 3, 5, 8, 13])
async def test_a_cancelled_close_still_ends_both_connections(db_path, steps):
    """Ctrl-C while a program closes its database must not leave a connection's thread
    running (it would keep the program alive): the close goes on, then the cancellation
    is raised."""
    from bot.storage.db import SqliteDatabase

    before = _connection_threads()
    db = await SqliteDatabase.open(db_path)
    mine = _connection_threads() - before
    assert len(mine) == 2  # the writer and the reader
    closing = asyncio.ensure_future(db.close())
    for _ in range(steps):
        await asyncio.sleep(0)
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    for thread in mine:
        thread.join(timeout=5)
    assert not any(t.is_alive() for t in mine)
    await db.close()  # closing again does nothing
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        await db.write(f"INSERT INTO {GS} VALUES (1, 60)")
