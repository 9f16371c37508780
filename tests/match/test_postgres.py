"""PostgreSQL's own parts of the storage (``bot.pg``): the schema version table, migrations
run once by processes starting together, a newer database refused untouched, a failing step
rolled back, one-line reasons for a database that cannot be used, and the dialect's
translations. The shared guarantees run on both databases in the other test modules."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

import bot.storage.pg as pgmod
from bot.storage import DatabaseTooNewError, DatabaseUnavailableError
from bot.storage.pg import PgDatabase, numbered, postgres_ddl
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION, Migration
from tests.databases import BACKENDS, postgres_schema

pytestmark = pytest.mark.parametrize("backend", BACKENDS[1:])  # PostgreSQL only


async def _tables(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        return {r[0] for r in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    finally:
        await conn.close()


async def test_an_empty_database_gets_every_step_and_its_version(backend):
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        try:
            assert await db.schema_version() == SCHEMA_VERSION
            assert (await db.fetchone("SELECT version FROM raptor_schema"))[0] == SCHEMA_VERSION
        finally:
            await db.close()
        assert await _tables(url) == {"raptor_schema", "matches", "match_players",
                                      "match_log", "challenges", "ratings", "elo_ratings",
                                      "results", "guild_settings", "user_settings",
                                      "control_posts", "private_posts", "match_notices",
                                      "guild_languages", "game_tables", "table_players"}
        # Discord ids and seeds are 64-bit, times have fractions of a second
        conn = await asyncpg.connect(url)
        try:
            types = dict(await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_schema = current_schema() AND table_name = 'matches'"))
            player_types = dict(await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_schema = current_schema() AND table_name = 'match_players'"))
        finally:
            await conn.close()
        assert (types["id"], types["guild_id"], types["seed"], types["created_at"]) == (
            "bigint", "bigint", "bigint", "double precision")
        assert (player_types["user_id"], player_types["rating_after"]) == (
            "bigint", "double precision")


async def test_processes_starting_together_migrate_once(backend):
    async with postgres_schema() as url:
        dbs = await asyncio.gather(*(PgDatabase.open(url) for _ in range(4)))
        try:
            assert [await d.schema_version() for d in dbs] == [SCHEMA_VERSION] * 4
            assert (await dbs[0].fetchone("SELECT COUNT(*) FROM raptor_schema"))[0] == 1
        finally:
            for d in dbs:
                await d.close()


async def test_an_older_database_is_migrated_step_by_step(backend):
    async with postgres_schema() as url:
        db = await PgDatabase.open(url, upto=1)
        assert await db.schema_version() == 1
        assert "user_settings" not in await _tables(url)
        await db.write("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (?, ?)",
                       (7, 90.5))
        await db.close()
        db = await PgDatabase.open(url)
        try:
            assert await db.schema_version() == SCHEMA_VERSION
            assert tuple(await db.fetchone("SELECT guild_id, turn_timeout FROM guild_settings")
                         ) == (7, 90.5)
        finally:
            await db.close()


async def test_a_newer_database_is_refused_and_left_alone(backend):
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        await db.write("UPDATE raptor_schema SET version = ?", (SCHEMA_VERSION + 1,))
        await db.close()
        with pytest.raises(DatabaseTooNewError) as info:
            await PgDatabase.open(url)
        assert (info.value.found, info.value.supported) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
        assert "upgrade the bot, or point RAPTOR_DATABASE_URL at another database" in str(
            info.value)
        assert await PgDatabase.peek_version(url) == SCHEMA_VERSION + 1


async def test_a_failing_step_is_rolled_back_whole(backend, monkeypatch):
    bad = Migration(SCHEMA_VERSION + 1, "broken step", ("CREATE TABLE extra (x INTEGER)",
                                                        "CREATE TABLE extra (x INTEGER)"))
    async with postgres_schema() as url:
        monkeypatch.setattr(pgmod, "MIGRATIONS", (*MIGRATIONS, bad))
        monkeypatch.setattr(pgmod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
        with pytest.raises(DatabaseUnavailableError,
                           match="could not be migrated: DuplicateTableError"):
            await PgDatabase.open(url)
        monkeypatch.undo()
        assert await PgDatabase.peek_version(url) == SCHEMA_VERSION  # earlier steps stay
        assert "extra" not in await _tables(url)


@pytest.mark.parametrize("url, reason", [
    ("postgresql://raptor@127.0.0.1:1/raptor", "cannot reach the server"),
    ("postgresql://raptor:secret@127.0.0.1:port/raptor", "malformed URL"),
    ("postgresql://raptor@[::1/raptor", "malformed URL"),
    ("mysql://raptor@127.0.0.1/raptor", "is not a PostgreSQL URL"),
])
async def test_a_database_that_cannot_be_used_gets_one_line(backend, url, reason):
    with pytest.raises(DatabaseUnavailableError, match=reason) as info:
        await PgDatabase.open(url)
    assert "\n" not in str(info.value) and "secret" not in str(info.value)


async def test_a_missing_database_or_user_is_named(backend):
    from tests.databases import POSTGRES_URL

    base = POSTGRES_URL.rsplit("/", 1)[0]
    with pytest.raises(DatabaseUnavailableError, match='"no_such_db" does not exist'):
        await PgDatabase.open(base + "/no_such_db")
    with pytest.raises(DatabaseUnavailableError, match="refused the login"):
        await PgDatabase.open(base.replace("raptor@", "nobody_here@") + "/postgres")


def test_placeholders_are_numbered_outside_quotes(backend):
    assert numbered("SELECT ? , '?' FROM t WHERE a = ? AND b = \"?\" AND c = ?") == (
        "SELECT $1 , '?' FROM t WHERE a = $2 AND b = \"?\" AND c = $3")


def test_portable_ddl_gets_postgres_types(backend):
    assert postgres_ddl("CREATE TABLE t (\n id   INTEGER PRIMARY KEY,\n n INTEGER NOT NULL,"
                        "\n at REAL\n) WITHOUT ROWID\n") == (
        "CREATE TABLE t (\n id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,\n"
        " n BIGINT NOT NULL,\n at DOUBLE PRECISION\n)")
    assert postgres_ddl("ALTER TABLE challenges ADD COLUMN message_id INTEGER") == (
        "ALTER TABLE challenges ADD COLUMN message_id BIGINT")
