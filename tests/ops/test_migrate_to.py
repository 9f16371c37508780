"""``python -m bot migrate-to URL`` (``bot.migrate_to``): an SQLite database copied whole into an
empty PostgreSQL database, where the bot carries on; a target that is not empty, or cannot be
reached, is refused in one line with nothing copied."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.discord.post_store import Notice, PostStore
from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.ops.migrate_to import TABLES as COPIED
from bot.storage.db import SqliteDatabase
from bot.storage.pg import PgDatabase
from engine import Pick, Side
from tests.databases import BACKENDS, postgres_schema
from tests.ops.conftest import fill

pytestmark = pytest.mark.parametrize("backend", BACKENDS[1:])  # needs PostgreSQL

TABLES = ("matches", "match_players", "match_log", "challenges", "ratings", "results",
          "guild_settings", "guild_languages", "user_settings", "control_posts",
          "private_posts", "match_notices", "game_tables", "table_players")
#: A database of schema version 8, from before seats (``tests/match/data/make_v8.py``): it
#: holds Raptor's Elo ratings, which the schema keeps as ``elo_ratings``.
V8 = Path(__file__).resolve().parents[1] / "match" / "data" / "v8.sqlite3"


async def _fill_more(path) -> None:
    """A rated match between two people (its end announced), a pending challenge, an open
    table with two people at it, a user setting, a post."""
    db = await SqliteDatabase.open(path)
    try:
        svc = MatchService(db)
        ch = await svc.create_challenge(1, 20, 2001, 2002, game="raptor",
                                        seat=rs.seat_wish("raptor"))
        m = await svc.accept_challenge(ch.id, 2002)
        await svc.act(m.id, 2001, Pick(m.state.hands[Side.RAPTOR][0]))
        await svc.resign(m.id, 2002)
        assert await svc.end_announced(m.id)
        await svc.create_challenge(1, 21, 2001, 2003, game="raptor")
        table = await svc.open_table(1, 22, 2003, game="raptor", seats=2)
        await svc.join_table(table.id, 2004)
        await svc.set_user_setting(2001, "dm_hand", True)
        await svc.set_guild_language(1, "zh-TW")
        playing = await svc.active_match(10)
        posts = PostStore(db)
        await posts.remember(playing.id, "turn", 10, 777, "Match #1 · Round 1")
        await posts.remember_private(playing.id, 2001, 55, 778, "Your hand")
        await posts.note(playing.id, 2001, next(iter(Notice)))
    finally:
        await db.close()


async def _rows(db, table):
    """The rows of ``table`` as ``{column: value}``, in a stable order (the two backends may
    hold a table's columns in different orders: SQLite rebuilt the tables that migration 10
    changed, PostgreSQL altered them)."""
    rows = [dict(r) for r in await db.fetchall(f"SELECT * FROM {table}")]
    return sorted(rows, key=lambda row: repr(sorted(row.items())))


def _run(capsys, *argv):  # noqa: ANN001, ANN202
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err.splitlines()


async def test_everything_is_copied_and_the_bot_carries_on(backend, deployment, monkeypatch,
                                                           capsys):
    source = deployment / "raptor.sqlite3"
    await fill(source)
    await _fill_more(source)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(source))
    async with postgres_schema() as url:
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, err) == (0, [])
        assert out[0].startswith(f"Copied {source} (schema version ")
        assert "3 matches, " in out[0] and "1 ratings" not in out[0]
        src, dst = await SqliteDatabase.open(source), await PgDatabase.open(url)
        try:
            for table in TABLES:
                rows = await _rows(src, table)
                assert rows, table  # every table has something to copy
                assert await _rows(dst, table) == rows, table
            announced = "SELECT id, end_announced_at FROM matches ORDER BY id"
            marks = [tuple(r) for r in await src.fetchall(announced)]
            assert [t is None for _id, t in marks] == [True, True, False]  # a real value too
            assert [tuple(r) for r in await dst.fetchall(announced)] == marks
            old, new = MatchService(src), MatchService(dst)
            playing = await new.active_match(10)
            assert playing == await old.active_match(10)
            assert await new.replayed_state(playing.id) == playing.state
            assert ((await new.stats(1, "raptor", 2001)).rating
                    == (await old.stats(1, "raptor", 2001)).rating > 1500)
            assert await new.get_user_setting(2001, "dm_hand") is True
            assert await new.guild_language(1) == "zh-TW"
            # the copy is live: the AI match goes on, and new rows get new ids
            assert len(await new.play_ai(playing.id, max_steps=1)) == 1
            fresh = await new.start_practice(1, 30, 3001, game="raptor", ai_user_id=900)
            assert fresh.id == 1 + max(r["id"] for r in await _rows(src, "matches"))
            pending = await new.create_challenge(1, 31, 3002, 3003, game="raptor")
            assert pending.id == 1 + max(r["id"] for r in await _rows(src, "challenges"))
        finally:
            await src.close()
            await dst.close()

        # a second copy into the now full database is refused, and changes nothing
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, out, len(err)) == (2, [], 1)
        assert err[0].startswith(f"python -m bot migrate-to: the database {url!r} is not empty")
        assert err[0].endswith("nothing was copied")
        dst = await PgDatabase.open(url)
        try:
            assert len(await _rows(dst, "matches")) == 4
        finally:
            await dst.close()


async def test_a_database_from_before_seats_is_brought_up_to_date_and_copied_whole(
        backend, deployment, monkeypatch, capsys):
    """An SQLite file of schema version 8 (two sides, Elo ratings) goes straight to
    PostgreSQL: opening it applies the seats migration, then every table of the bot arrives,
    Raptor's Elo ratings (``elo_ratings``) and the players by seat (``match_players``) too."""
    source = deployment / "raptor.sqlite3"
    shutil.copy(V8, source)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(source))
    async with postgres_schema() as url:
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, err) == (0, [])
        assert out[0].startswith(f"Copied {source} (schema version ")
        assert ("10 matches, 20 player seats, 416 log records, 12 challenges, " in out[0]
                and ", 5 former Elo ratings, 8 results, " in out[0]), out[0]
        src, dst = await SqliteDatabase.open(source), await PgDatabase.open(url)
        try:
            schema = {r[0] for r in await src.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            assert schema == {table for table, _words in COPIED}  # every table of the bot
            for table, _words in COPIED:
                rows = await _rows(src, table)
                # every table of schema 8 has something to copy; the tables' lobby came later
                assert bool(rows) is (table not in ("game_tables", "table_players")), table
                assert await _rows(dst, table) == rows, table
            old, new = MatchService(src), MatchService(dst)
            for user in (1001, 1002, 1003):  # the ratings carried over from the Elo history
                assert (await new.stats(7001, "raptor", user)
                        == await old.stats(7001, "raptor", user))
                assert await new.elo(7001, user) == await old.elo(7001, user) is not None
        finally:
            await src.close()
            await dst.close()


async def test_a_target_with_the_bots_empty_schema_is_accepted(backend, deployment,
                                                               monkeypatch, capsys):
    """The README has the operator run ``python -m bot check`` before going live; on the new
    database that gives it the bot's schema, with no rows: the copy still goes ahead. A table
    that is not the bot's still stops it."""
    source = deployment / "raptor.sqlite3"
    await fill(source)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(source))
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)   # what check or a first start does: the schema
        await db.close()
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, err) == (0, [])
        assert "2 matches, " in out[0]
    async with postgres_schema() as url:
        db = await PgDatabase.open(url)
        await db.write("CREATE TABLE notes (x INTEGER)")
        await db.close()
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, out, len(err)) == (2, [], 1)
        assert "is not empty (it has the tables " in err[0] and "notes" in err[0]


@pytest.mark.parametrize("url, reason", [
    ("postgresql://raptor@127.0.0.1:1/raptor", "cannot reach the server"),
    ("not a url", "is not a PostgreSQL URL"),
])
async def test_a_target_that_cannot_be_used_gets_one_line(backend, deployment, monkeypatch,
                                                          capsys, url, reason):
    source = deployment / "raptor.sqlite3"
    await fill(source)
    monkeypatch.setenv("RAPTOR_DB_PATH", str(source))
    status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
    assert (status, out, len(err)) == (2, [], 1) and reason in err[0]


async def test_no_source_gets_one_line(backend, deployment, monkeypatch, capsys):
    monkeypatch.setenv("RAPTOR_DB_PATH", str(deployment / "missing.sqlite3"))
    async with postgres_schema() as url:
        status, out, err = await asyncio.to_thread(_run, capsys, "migrate-to", url)
        assert (status, out) == (2, [])
        assert err == [f"python -m bot migrate-to: there is no SQLite database at "
                       f"RAPTOR_DB_PATH={deployment / 'missing.sqlite3'}: nothing to copy"]
        assert not (deployment / "missing.sqlite3").exists()
