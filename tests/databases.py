"""Both databases in the tests: SQLite files and a real PostgreSQL server.

The PostgreSQL half needs a server: ``RAPTOR_TEST_DATABASE_URL`` (``.ci/run`` starts one with
``tests/pg_server.sh``; so can you, see docs/DEVELOP.md). Without it, every PostgreSQL case is
skipped with :data:`NO_POSTGRES` as the reason, and ``.ci/run`` (which sets
``RAPTOR_TEST_REQUIRE_POSTGRES=1``) fails the run if any was skipped.

Each PostgreSQL case gets a schema of its own (``search_path``), dropped afterwards, so the
cases share one server but no tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import asyncpg
import pytest

# Read once at import: some fixtures clear the RAPTOR_* variables of the environment.
POSTGRES_URL = os.environ.get("RAPTOR_TEST_DATABASE_URL") or None
REQUIRE_POSTGRES = os.environ.get("RAPTOR_TEST_REQUIRE_POSTGRES") == "1"
NO_POSTGRES = ("RAPTOR_TEST_DATABASE_URL is not set: the PostgreSQL half of the storage tests "
               "was NOT run (start a server: eval \"$(bash tests/pg_server.sh start DIR)\")")

#: The ``params`` of a fixture that runs a test once per database.
BACKENDS = ["sqlite",
            pytest.param("postgresql",
                         marks=pytest.mark.skipif(POSTGRES_URL is None, reason=NO_POSTGRES))]


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (a server setting in the query)."""
    sep = "&" if urlsplit(url).query else "?"
    return f"{url}{sep}{urlencode({'search_path': schema})}"


@asynccontextmanager
async def postgres_schema() -> AsyncIterator[str]:
    """A fresh, empty schema on the test server: yields the URL that uses it; drops it at
    the end."""
    assert POSTGRES_URL is not None, NO_POSTGRES
    schema = f"t_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(POSTGRES_URL)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        yield with_schema(POSTGRES_URL, schema)
    finally:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await conn.close()


@asynccontextmanager
async def database_target(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """Where a test's database lives: an SQLite file path, or a PostgreSQL URL."""
    if backend == "sqlite":
        yield str(tmp_path / "raptor.sqlite3")
    else:
        async with postgres_schema() as url:
            yield url


async def open_target(target: str, **kwargs):
    """Open the database at ``target`` (:func:`database_target`)."""
    from bot.storage.db import SqliteDatabase
    from bot.storage.db_url import is_postgres_url
    from bot.storage.pg import PgDatabase

    if is_postgres_url(target):
        return await PgDatabase.open(target, **kwargs)
    return await SqliteDatabase.open(target, **kwargs)


def fail_trigger_sql(dialect: str, name: str, timing: str, table: str,
                     message: str) -> list[str]:
    """Statements that make ``timing`` (e.g. ``"BEFORE INSERT"``, ``"AFTER UPDATE OF
    state"``) on ``table`` fail with ``message`` (an integrity error), in ``dialect``."""
    if dialect == "sqlite":
        return [f"CREATE TRIGGER {name} {timing} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{message}'); END"]
    return [f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"RAISE EXCEPTION '{message}' USING ERRCODE = 'integrity_constraint_violation'; "
            f"END $$",
            f"CREATE TRIGGER {name} {timing} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()"]


def drop_trigger_sql(dialect: str, name: str, table: str) -> list[str]:
    """Undo :func:`fail_trigger_sql`."""
    if dialect == "sqlite":
        return [f"DROP TRIGGER {name}"]
    return [f"DROP TRIGGER {name} ON {table}", f"DROP FUNCTION {name}()"]


#: How a step's save starts (:meth:`bot.match.match_store.MatchStore.step_update`).
STEP_SAVE = "UPDATE matches SET state = ?"


@asynccontextmanager
async def saves_held_together(db, n: int = 2, *, timeout: float = 30.0
                              ) -> AsyncIterator[list[int]]:
    """Within the block, the first ``n`` saves of a game step on ``db`` (an SQLite or a
    PostgreSQL database object: its ``write``) wait for each other and then go on at
    once: each of those decisions has loaded the match before any of them saved, so all
    were made on the same version. Later saves pass. Yields the rows each of the saves
    changed, in the order their callers resumed (on PostgreSQL the one that lost the row
lock may resume first: compare the sorted list). A save still alone after ``timeout`` seconds goes
    on (and the test's assertions say what was missing)."""
    barrier = asyncio.Barrier(n)
    write = db.write
    held = 0
    changed: list[int] = []

    async def gated(sql: str, params=()):
        nonlocal held
        if not sql.startswith(STEP_SAVE) or held >= n:
            return await write(sql, params)
        held += 1
        with contextlib.suppress(TimeoutError, asyncio.BrokenBarrierError):
            async with asyncio.timeout(timeout):
                await barrier.wait()
        rows = await write(sql, params)
        changed.append(rows)
        return rows

    db.write = gated
    try:
        yield changed
    finally:
        del db.write  # the class's method again
