"""``python -m bot check`` and ``backup`` with ``RAPTOR_DATABASE_URL``: the PostgreSQL
database opened, migrated and counted; a database that cannot be used gets one line and
status 2, as the SQLite file's problems do."""

from __future__ import annotations

import pytest

from bot.__main__ import main
from bot.storage.pg import PgDatabase
from bot.storage.schema import SCHEMA_VERSION
from tests.databases import BACKENDS, postgres_schema

pytestmark = pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only


def run(capsys, *argv: str) -> tuple[int, list[str], list[str]]:  # noqa: ANN001
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


async def test_check_migrates_and_counts_a_postgres_database(backend, deployment, monkeypatch,
                                                             capsys):
    async with postgres_schema() as url:
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
        monkeypatch.setenv("RAPTOR_DATABASE_URL", url)
        status, out, err = await _in_thread(run, capsys, "check")
        assert (status, err) == (0, [])
        assert out[1] == f"Database: PostgreSQL {url} (an empty database, given the schema now)"
        assert out[2:] == [f"Schema version: {SCHEMA_VERSION} (new database)",
                           "Matches in progress: 0", "Finished matches: 0",
                           "Servers with settings: 0",
                           "Time limits: 24 h per turn (unless a server set its own), 10 min "
                           "per challenge, 2 s per AI decision",
                           "Ready: python -m bot can start."]
        assert not (deployment.parent / "work" / "raptor.sqlite3").exists()  # no SQLite file
        status, out, _err = await _in_thread(run, capsys, "check")
        assert out[1] == f"Database: PostgreSQL {url} (existing)"
        assert out[2] == f"Schema version: {SCHEMA_VERSION} (up to date)"


@pytest.mark.parametrize("url, reason", [
    ("postgresql://raptor:hunter2@127.0.0.1:1/raptor",
     "cannot open the database 'postgresql://raptor:***@127.0.0.1:1/raptor': cannot reach"),
    ("postgresql://raptor@127.0.0.1:1/raptor?password=hunter2&sslmode=disable",
     "cannot open the database 'postgresql://raptor@127.0.0.1:1/raptor?password=***&sslmode="
     "disable': cannot reach"),
    ("postgresql://raptor@127.0.0.1:notaport/raptor", "malformed URL"),
    ("sqlite:///raptor.sqlite3", "RAPTOR_DATABASE_URL must be a PostgreSQL URL"),
])
async def test_a_bad_url_gets_one_line_and_status_2(backend, deployment, monkeypatch, capsys,
                                                    url, reason):
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("RAPTOR_DATABASE_URL", url)
    status, out, err = await _in_thread(run, capsys, "check")
    assert (status, out, len(err)) == (2, [], 1)
    assert reason in err[0] and "hunter2" not in err[0] and "Traceback" not in err[0]


async def test_a_newer_postgres_database_is_refused(backend, deployment, monkeypatch, capsys):
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        await db.write("UPDATE raptor_schema SET version = ?", (SCHEMA_VERSION + 1,))
        await db.close()
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
        monkeypatch.setenv("RAPTOR_DATABASE_URL", url)
        status, out, err = await _in_thread(run, capsys, "check")
        assert (status, out) == (2, [])
        assert err == [f"python -m bot check: the database {url!r} has schema version "
                       f"{SCHEMA_VERSION + 1}, but this version of the bot only knows versions "
                       f"up to {SCHEMA_VERSION}: upgrade the bot, or point RAPTOR_DATABASE_URL "
                       "at another database"]
        assert await PgDatabase.peek_version(url) == SCHEMA_VERSION + 1


async def test_backup_points_at_pg_dump(backend, deployment, monkeypatch, capsys):
    monkeypatch.setenv("RAPTOR_DATABASE_URL", "postgresql://raptor@127.0.0.1:5432/raptor")
    status, out, err = await _in_thread(run, capsys, "backup", str(deployment / "b.sqlite3"))
    assert (status, out, len(err)) == (2, [], 1)
    assert "pg_dump" in err[0] and not (deployment / "b.sqlite3").exists()


async def _in_thread(fn, *args):  # noqa: ANN001, ANN202 - check runs its own event loop
    import asyncio

    return await asyncio.to_thread(fn, *args)
