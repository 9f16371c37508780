"""``python -m bot migrate-to URL``: copy the SQLite database (``RAPTOR_DB_PATH``) into an
empty PostgreSQL database, to switch a deployment to PostgreSQL (docs/DEPLOY.md).

Everything is copied, rows and ids as they are: matches with their players and action logs,
challenges, ratings (and Raptor's former Elo ratings, kept as their history), results, server
and user settings, and the recorded posts with controls (so that the buttons of messages
already posted keep working). The target gets the schema first
(:meth:`bot.storage.pg.PgDatabase.open`), then every row in one transaction, in the order of
the foreign keys; the id counters continue after the copied ids. A target that already holds
tables is refused (nothing is written), as are a missing source file and a database that
cannot be reached. Stop the bot before copying (what it writes meanwhile would not be
copied), then start it with ``RAPTOR_DATABASE_URL`` set to URL.

Exit status 0 after a copy; 2 with one line on stderr (the target left as it was).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from engine.messages import Text

from ..storage import Database, DatabaseTooNewError, StorageError
from ..storage.db import SqliteDatabase
from ..storage.db_url import redact
from ..storage.schema import SCHEMA_VERSION
from .check import CheckError, database_reason, file_schema_version, settings_or_reason

PROG = "python -m bot migrate-to"

#: The bot's tables in the order their rows can be inserted (referenced tables first), with
#: the words of the report for a number of their rows ("1 match", "3 log records").
TABLES: tuple[tuple[str, Callable[[int], Text]], ...] = (
    ("matches", lambda n: Text.plural("{n} match", "{n} matches", n)),
    ("match_players", lambda n: Text.plural("{n} player seat", "{n} player seats", n)),
    ("match_log", lambda n: Text.plural("{n} log record", "{n} log records", n)),
    ("challenges", lambda n: Text.plural("{n} challenge", "{n} challenges", n)),
    ("ratings", lambda n: Text.plural("{n} rating", "{n} ratings", n)),
    ("elo_ratings", lambda n: Text.plural("{n} former Elo rating", "{n} former Elo ratings",
                                          n)),
    ("results", lambda n: Text.plural("{n} result", "{n} results", n)),
    ("guild_settings", lambda n: Text.plural("{n} server setting", "{n} server settings", n)),
    ("guild_languages", lambda n: Text.plural("{n} server language", "{n} server languages",
                                              n)),
    ("user_settings", lambda n: Text.plural("{n} user setting", "{n} user settings", n)),
    ("control_posts", lambda n: Text.plural("{n} post with controls", "{n} posts with controls",
                                            n)),
    ("private_posts", lambda n: Text.plural("{n} private post", "{n} private posts", n)),
    ("match_notices", lambda n: Text.plural("{n} notice given", "{n} notices given", n)),
    ("game_tables", lambda n: Text.plural("{n} table", "{n} tables", n)),
    ("table_players", lambda n: Text.plural("{n} seat at a table", "{n} seats at tables", n)),
)


def copied_rows(counts: dict[str, int]) -> str:
    """The report's rows copied, table by table: ``"1 match, 3 log records, 0 challenges,
    ..."`` (``counts``: rows by table name, :data:`TABLES`' order)."""
    return ", ".join(words(counts[table]) for table, words in TABLES)
#: Tables whose ``id`` is an identity column: their counters continue after the copy.
IDENTITY_TABLES = ("matches", "challenges", "game_tables")


#: The tables of the bot's schema that hold no data of their own (the schema version).
SCHEMA_TABLES = ("raptor_schema",)


async def _target_tables(url: str) -> list[str]:
    """The target's tables that stop a copy: any table that is not the bot's, and the bot's
    tables that hold rows. The bot's own schema with no rows in it (as ``python -m bot
    check`` or a first start of the bot leaves a new database) does not stop it."""
    from ..storage.pg import PgDatabase  # asyncpg is loaded only for PostgreSQL

    tables = await PgDatabase.peek_tables(url)
    ours = {t for t, _words in TABLES} | set(SCHEMA_TABLES)
    foreign = [name for name in tables if name not in ours]
    if foreign:
        return foreign
    return [name for name, used in tables.items() if used and name not in SCHEMA_TABLES]


async def migrate(source: Path, url: str) -> list[str]:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``url``.

    Returns:
        The report's lines (rows copied per table).

    Raises:
        CheckError: the one-line reason nothing was copied.
    """
    shown = redact(url)
    from ..storage.pg import PgDatabase

    try:
        existing = await _target_tables(url)
    except StorageError as exc:
        raise CheckError(str(exc)) from None
    if existing:
        raise CheckError(f"the database {shown!r} is not empty (it has the tables "
                         f"{', '.join(existing[:5])}{', ...' if len(existing) > 5 else ''} "
                         "with data): give an empty database, e.g. one made with createdb "
                         "(the bot's schema with no rows, as python -m bot check leaves it, is "
                         "fine); nothing was copied")
    try:
        src = await SqliteDatabase.open(source)
    except (sqlite3.Error, OSError, DatabaseTooNewError) as exc:
        raise CheckError(f"cannot open the SQLite database {source}: {exc}") from None
    try:
        try:
            dst = await PgDatabase.open(url)
        except StorageError as exc:
            raise CheckError(str(exc)) from None
        try:
            counts = await _copy(src, dst)
        except StorageError as exc:
            raise CheckError(f"copying into {shown!r} failed, so nothing was copied "
                             f"({exc}); the target has the empty schema") from None
        finally:
            await dst.close()
    finally:
        await src.close()
    return [f"Copied {source} (schema version {SCHEMA_VERSION}) to {shown}: "
            f"{copied_rows(counts)}.",
            f"Next: start the bot with RAPTOR_DATABASE_URL={shown} (and keep {source.name} as "
            "a backup)."]


async def _copy(src: Database, dst: Database) -> dict[str, int]:
    counts: dict[str, int] = {}
    async with dst.transaction() as tx:
        for table, _words in TABLES:
            rows = await src.fetchall(f"SELECT * FROM {table} ORDER BY 1")
            counts[table] = len(rows)
            if rows:
                await tx.copy_rows(table, list(rows[0].keys()), rows)
        for table in IDENTITY_TABLES:  # new ids continue after the copied ones
            await tx.fetchone(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                              f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
        for table, _words in TABLES:  # the same rows arrived
            n = (await tx.fetchone(f"SELECT COUNT(*) FROM {table}"))[0]
            if n != counts[table]:
                raise CheckError(f"{table}: {counts[table]} rows read but {n} written")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot migrate-to URL``: 0 after the copy, 2 with the reason when none was
    made."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Copy the bot's SQLite database (RAPTOR_DB_PATH) into an "
        "EMPTY PostgreSQL database: matches with their players and logs, challenges, ratings, "
        "results and settings. Stop the bot first; then start it with RAPTOR_DATABASE_URL=URL.")
    parser.add_argument("url", metavar="URL",
                        help="the target, postgresql://user:password@host:port/database")
    args = parser.parse_args(argv)
    try:
        settings = settings_or_reason()
        source = Path(os.path.abspath(settings.db_path))
        if not source.is_file():
            raise CheckError(f"there is no SQLite database at RAPTOR_DB_PATH={source}: "
                             "nothing to copy")
        reason = database_reason(source)
        if reason is not None:
            raise CheckError(reason)
        if file_schema_version(source) == 0:
            raise CheckError(f"{source} is not the bot's database (it has no schema version)")
        lines = asyncio.run(migrate(source, args.url))
    except CheckError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0
