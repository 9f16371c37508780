"""Storage: PRAGMAs, ordered migrations, an old file migrated, a newer file refused."""

from __future__ import annotations

import json
import sqlite3

import aiosqlite
import pytest

from bot.storage import DatabaseTooNewError, IntegrityViolation
from bot.storage.db import SqliteDatabase
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION, Migration


async def test_new_file_gets_every_migration_and_the_pragmas(db_path):
    db = await SqliteDatabase.open(db_path)
    try:
        assert SCHEMA_VERSION == 11 == MIGRATIONS[-1].version
        assert [m.version for m in MIGRATIONS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        assert all(m.description for m in MIGRATIONS)
        assert await db.schema_version() == SCHEMA_VERSION
        assert (await db.fetchone("PRAGMA journal_mode"))[0] == "wal"
        assert (await db.fetchone("PRAGMA foreign_keys"))[0] == 1
        assert (await db.fetchone("PRAGMA busy_timeout"))[0] == 5000
        async with db.transaction() as tx:
            assert (await tx.fetchone("PRAGMA synchronous"))[0] == 1  # NORMAL
            assert (await tx.fetchone("PRAGMA foreign_keys"))[0] == 1
        tables = {r[0] for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"matches", "match_players", "match_log", "challenges", "ratings",
                "elo_ratings", "results", "guild_settings", "user_settings", "control_posts",
                "private_posts", "match_notices", "guild_languages", "game_tables",
                "table_players"} <= tables
    finally:
        await db.close()


async def test_v1_file_is_migrated_and_its_data_survive(db_path):
    db = await SqliteDatabase.open(db_path, upto=1)
    assert await db.schema_version() == 1
    assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'user_settings'") \
        is None
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (7, 60)")
        await tx.execute("INSERT INTO ratings (guild_id, user_id, rating, raptor_wins, "
                         "updated_at) VALUES (7, 42, 1532.5, 3, 0)")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        # the Elo rating is kept as history (migration 10); no rated result to re-rate
        row = await db.fetchone("SELECT rating, raptor_wins FROM elo_ratings "
                                "WHERE user_id = 42")
        assert tuple(row) == (1532.5, 3)
        assert (await db.fetchone("SELECT COUNT(*) FROM ratings"))[0] == 0
        assert (await db.fetchone("SELECT turn_timeout FROM guild_settings"))[0] == 60
        async with db.transaction() as tx:  # the new table works
            await tx.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                             "VALUES (42, 'dm_hand', 'true', 0)")
        assert (await db.fetchone("SELECT value FROM user_settings"))[0] == "true"
    finally:
        await db.close()


async def test_v2_file_gets_the_control_posts_and_its_challenges_survive(db_path):
    db = await SqliteDatabase.open(db_path, upto=2)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO challenges (guild_id, channel_id, challenger_id, "
                         "challenged_id, side, environment, setup, created_at, expires_at) "
                         "VALUES (7, 8, 41, 42, 'raptor', 'jungle', 'quick', 0, 600)")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        row = await db.fetchone("SELECT challenger_id, status, message_id FROM challenges")
        assert tuple(row) == (41, "pending", None)  # the old challenge has no message yet
        # its side and options in the shapes of migration 10: a seat, options as JSON
        row = await db.fetchone("SELECT game, seat, options FROM challenges")
        assert (row["game"], row["seat"], json.loads(row["options"])) == (
            "raptor", 0, {"environment": "jungle", "setup": "quick"})
        await db.write("UPDATE challenges SET message_id = 99")
        assert (await db.fetchone("SELECT message_id FROM challenges"))[0] == 99
        assert await db.fetchall("SELECT * FROM control_posts") == []
    finally:
        await db.close()


async def test_v3_file_keeps_its_control_posts_and_learns_cards_and_threads(db_path):
    db = await SqliteDatabase.open(db_path, upto=3)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
                         "scientist_user_id, seed, options, status, state, created_at, "
                         "updated_at, last_activity) VALUES (7, 8, 41, 42, 1, '{}', "
                         "'active', '{}', 0, 0, 0)")
        await tx.execute("INSERT INTO control_posts VALUES (900, 1, 'turn', 8, 'head')")
        await tx.execute("INSERT INTO guild_settings (guild_id, turn_timeout) VALUES (7, 60)")
    with pytest.raises(IntegrityViolation):  # before: no card kind
        await db.write("INSERT INTO control_posts VALUES (901, 1, 'card', 8, '1')")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        rows = await db.fetchall("SELECT message_id, kind, text FROM control_posts")
        assert [tuple(r) for r in rows] == [(900, "turn", "head")]
        await db.write("INSERT INTO control_posts VALUES (901, 1, 'card', 8, '1')")
        await db.write("INSERT INTO control_posts VALUES (902, 1, 'line', 5, 'x')")
        with pytest.raises(IntegrityViolation):
            await db.write("INSERT INTO control_posts VALUES (903, 1, 'other', 8, 'x')")
        row = await db.fetchone("SELECT turn_timeout, threads FROM guild_settings")
        assert tuple(row) == (60, None)
        await db.write("UPDATE guild_settings SET threads = 0")
        with pytest.raises(IntegrityViolation):
            await db.write("UPDATE guild_settings SET threads = 2")
    finally:
        await db.close()


async def test_v4_file_gets_the_private_posts_and_notices(db_path):
    db = await SqliteDatabase.open(db_path, upto=4)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                         "VALUES (42, 'dm_hand', 'true', 0)")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        assert (await db.fetchone("SELECT value FROM user_settings"))[0] == "true"
        assert await db.fetchall("SELECT * FROM private_posts") == []
        assert await db.fetchall("SELECT * FROM match_notices") == []
        with pytest.raises(IntegrityViolation):  # a private post belongs to a match
            await db.write("INSERT INTO private_posts (message_id, match_id, user_id, "
                           "channel_id, text) VALUES (1, 999, 42, 5, 'x')")
    finally:
        await db.close()


async def test_v6_file_gets_the_server_languages_and_its_settings_survive(db_path):
    db = await SqliteDatabase.open(db_path, upto=6)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO guild_settings (guild_id, turn_timeout, threads) "
                         "VALUES (7, 60, 0)")
        await tx.execute("INSERT INTO user_settings (user_id, key, value, updated_at) "
                         "VALUES (42, 'dm_hand', 'true', 0)")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        row = await db.fetchone("SELECT turn_timeout, threads FROM guild_settings")
        assert tuple(row) == (60, 0)
        assert (await db.fetchone("SELECT value FROM user_settings"))[0] == "true"
        assert await db.fetchall("SELECT * FROM guild_languages") == []
        await db.write("INSERT INTO guild_languages (guild_id, language, updated_at) "
                       "VALUES (7, 'zh-TW', 0)")
        assert (await db.fetchone("SELECT language FROM guild_languages"))[0] == "zh-TW"
    finally:
        await db.close()


async def test_v8_file_gets_the_ai_retry_columns_and_its_matches_survive(db_path):
    db = await SqliteDatabase.open(db_path, upto=8)
    async with db.transaction() as tx:
        await tx.execute("INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
                         "scientist_user_id, scientist_ai, seed, options, status, state, "
                         "version, created_at, updated_at, last_activity) VALUES (7, 8, 41, "
                         "42, 'hard', 1, '{}', 'active', '{}', 5, 0, 0, 0)")
    await db.close()

    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION
        row = await db.fetchone("SELECT version, ai_failures, ai_retry_at FROM matches")
        assert tuple(row) == (5, 0, None)  # no failure, no retry pending
        # its players by seat (migration 10): the scientist's AI level kept
        rows = await db.fetchall("SELECT seat, user_id, ai FROM match_players ORDER BY seat")
        assert [tuple(r) for r in rows] == [(0, 41, None), (1, 42, "hard")]
        await db.write("UPDATE matches SET ai_failures = 2, ai_retry_at = 30.5")
        row = await db.fetchone("SELECT ai_failures, ai_retry_at FROM matches")
        assert tuple(row) == (2, 30.5)
        with pytest.raises(IntegrityViolation):  # always a count
            await db.write("UPDATE matches SET ai_failures = NULL")
    finally:
        await db.close()


async def test_newer_file_is_refused_with_a_clear_message(db_path):
    db = await SqliteDatabase.open(db_path)
    await db.close()
    async with aiosqlite.connect(db_path) as conn:
        await conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        await conn.commit()
    with pytest.raises(DatabaseTooNewError) as info:
        await SqliteDatabase.open(db_path)
    assert info.value.found == SCHEMA_VERSION + 1
    assert info.value.supported == SCHEMA_VERSION
    assert "upgrade the bot" in str(info.value)
    async with aiosqlite.connect(db_path) as conn:  # the file was left alone
        async with conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone())[0] == SCHEMA_VERSION + 1


async def test_a_failing_migration_is_rolled_back_whole(db_path, monkeypatch):
    import bot.storage.db as dbmod

    bad = Migration(SCHEMA_VERSION + 1, "broken step", (
        "CREATE TABLE extra (x INTEGER)", "CREATE TABLE extra (x INTEGER)"))
    monkeypatch.setattr(dbmod, "MIGRATIONS", (*MIGRATIONS, bad))
    monkeypatch.setattr(dbmod, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        await SqliteDatabase.open(db_path)
    monkeypatch.undo()
    db = await SqliteDatabase.open(db_path)
    try:
        assert await db.schema_version() == SCHEMA_VERSION  # real steps kept, not the bad one
        assert await db.fetchone("SELECT name FROM sqlite_master WHERE name = 'extra'") is None
    finally:
        await db.close()


async def test_match_log_is_append_only(svc, db):
    from bot.games.raptor import sides as rs
    from tests.match.conftest import ALICE, start_match

    m = await start_match(svc)
    await svc.act(m.id, ALICE, "pick " + str(m.state.hands[rs.side_in(m, ALICE)][0]))
    with pytest.raises(IntegrityViolation, match="append-only"):
        async with db.transaction() as tx:
            await tx.execute("DELETE FROM match_log")
    with pytest.raises(IntegrityViolation, match="append-only"):
        async with db.transaction() as tx:
            await tx.execute("UPDATE match_log SET seat = 1")
    assert len(await svc.raw_log(m.id)) == 1
