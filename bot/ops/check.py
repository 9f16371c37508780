"""``python -m bot check``: is this deployment ready to start?

For deploy pipelines and for "is my volume there?": it validates the settings (environment and
``.env``, as ``python -m bot`` reads them), opens the database ``RAPTOR_DB_PATH`` (or the
PostgreSQL database of ``RAPTOR_DATABASE_URL``) — creating it, or applying the missing
migrations, exactly as the bot does at start-up — and prints what it found::

    Settings: ok (DISCORD_TOKEN set; commands registered globally; log level INFO)
    Database: /data/raptor.sqlite3 (existing file, 1.2 MB)
    Schema version: 6 (up to date)
    Matches in progress: 2
    Finished matches: 41
    Servers with settings: 1
    Ready: python -m bot can start.

Exit status 0 when ready; 2 with one line on stderr saying why not: a malformed setting, a
database that cannot be opened, or that this user could not write (the file, its folder or its
``-wal``/``-shm`` read-only, each named), a database newer than this code, or no
``DISCORD_TOKEN`` (reported after the database was opened and described, so a volume can be
checked before the token exists). It does not connect to Discord (a token Discord refuses is
reported by ``python -m bot``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..settings import Settings, SettingsError, load_settings, setting_warnings
from ..storage import Database, DatabaseTooNewError, StorageError, open_database
from ..storage.db import connect_read_only, not_a_database, read_problem, write_problem
from ..storage.db_url import redact
from ..storage.schema import SCHEMA_VERSION

PROG = "python -m bot check"


NO_TOKEN = ("DISCORD_TOKEN is not set, so the bot cannot connect to Discord: set it in the "
            "environment or in a .env file in the working directory")


class CheckError(Exception):
    """A reason the deployment is not ready, as one sentence for the operator."""


def settings_or_reason() -> Settings:
    """The settings as ``python -m bot`` reads them; unknown ``RAPTOR_`` names are warned
    about on stderr.

    Raises:
        CheckError: a malformed setting (every bad variable named, on one line).
    """
    for warning in setting_warnings():
        print(f"Warning: {warning}", file=sys.stderr)
    try:
        return load_settings()
    except SettingsError as error:
        raise CheckError("; ".join(error.problems)) from None


def file_schema_version(path: Path) -> int | None:
    """The schema version of an existing database file, None for no file; read through
    :func:`bot.storage.db.connect_read_only` (nothing written or created, a read-only file or folder
    is fine).

    Raises:
        sqlite3.DatabaseError: the file is not an SQLite database, or cannot be opened.
    """
    if not path.is_file():
        return None
    conn = connect_read_only(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


@dataclass(frozen=True)
class Summary:
    """What a database holds, for the operator."""

    schema_version: int
    matches_in_progress: int
    finished_matches: int
    servers_with_settings: int


async def summarize(db: Database) -> Summary:
    """Counts of ``db`` (read-only queries): matches in progress and finished, servers that
    set their own time per turn (``/raptor-admin timeout``)."""
    row = await db.fetchone(
        "SELECT (SELECT COUNT(*) FROM matches WHERE status = 'active'),"
        " (SELECT COUNT(*) FROM matches WHERE status = 'finished'),"
        " (SELECT COUNT(*) FROM guild_settings)")
    assert row is not None
    return Summary(await db.schema_version(), int(row[0]), int(row[1]), int(row[2]))


def _size(path: Path) -> str:
    """The database's size on disk with its write-ahead log (``-wal``: the latest changes
    of a bot or demo that has it open), e.g. ``1.2 MB``."""
    wal = path.with_name(path.name + "-wal")
    size = path.stat().st_size + (wal.stat().st_size if wal.is_file() else 0)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1000
    raise AssertionError  # pragma: no cover


def database_reason(db_path: Path | str) -> str | None:
    """Why the database at ``db_path`` (``RAPTOR_DB_PATH``) cannot be used, found without
    writing anything: a folder given as the path, a missing or unwritable folder, a file that
    is not a database, a schema newer than :data:`SCHEMA_VERSION`. ``None`` when none of
    these. ``python -m bot`` and ``python -m bot check`` refuse to start with this sentence
    (exit status 2)."""
    path = Path(os.path.abspath(db_path))
    folder = path.parent
    problem = read_problem(path)
    if problem is not None:
        return (f"cannot read the database RAPTOR_DB_PATH={db_path}: {problem}: give the bot's "
                "user access (chown or chmod), or run the bot as the owner")
    if path.is_dir():
        return (f"RAPTOR_DB_PATH={db_path} is a folder, not a file: give a file path, e.g. "
                f"{path / 'raptor.sqlite3'}")
    if not folder.is_dir():
        return (f"the database folder {folder} does not exist (RAPTOR_DB_PATH={db_path}): "
                "create it, or mount the volume there")
    try:
        before = file_schema_version(path)
    except sqlite3.DatabaseError as exc:
        return not_a_database(path, exc)
    if before is not None and before > SCHEMA_VERSION:
        return str(DatabaseTooNewError(str(path), before, SCHEMA_VERSION))
    return None


def write_reason(db_path: Path | str) -> str | None:
    """Why the bot, run as this user, could not write the database at ``db_path`` (after
    :func:`database_reason` found nothing): the file, its ``-wal``/``-shm`` or its folder
    read-only (:func:`bot.storage.db.write_problem`, which names them), as one sentence; None
    when it could. Found without writing, from this user's permissions (so root, who may write any
    file, is refused only on a file system mounted read-only). ``python -m bot`` and
    ``python -m bot check`` refuse to start with it."""
    path = Path(os.path.abspath(db_path))
    problem = write_problem(path)
    if problem is None:
        return None
    if not path.exists():
        return (f"the bot could not create its database RAPTOR_DB_PATH={db_path}: {problem}: "
                "give the bot's user write access to the folder (chown or chmod), or choose "
                "another folder")
    return (f"the bot could not write its database RAPTOR_DB_PATH={db_path}: {problem}. The "
            "bot writes that file and creates its -wal and -shm files beside it: give the bot's "
            "user write access to both (chown or chmod), or run the bot as their owner")


async def open_or_reason(settings: Settings) -> Database:
    """:func:`bot.storage.open_database`, its failure as the operator's one line.

    Raises:
        CheckError: why the database cannot be used (a malformed URL, a server that cannot
            be reached, a refused login, a database newer than this code, a file that is not
            a database...).
    """
    try:
        return await open_database(settings)
    except StorageError as exc:
        raise CheckError(str(exc)) from None


async def _open_and_summarize(settings: Settings) -> Summary:
    db = await open_or_reason(settings)
    try:
        return await summarize(db)
    except (sqlite3.Error, StorageError) as exc:
        raise CheckError(f"the database {db.path} cannot be read: {exc}") from None
    finally:
        await db.close()


async def _postgres_version(url: str) -> int:
    from ..storage.pg import PgDatabase  # asyncpg is loaded only for PostgreSQL

    try:
        return await PgDatabase.peek_version(url)
    except StorageError as exc:
        raise CheckError(str(exc)) from None


def check(settings: Settings) -> list[str]:
    """Validate ``settings`` and open (and migrate) their database, with or without a token
    (so the volume can be checked before the token exists).

    Returns:
        The report's lines (see the module docstring); without a token, the settings line
        says so and the "Ready" line is left out.

    Raises:
        CheckError: why the database cannot be used.
    """
    if settings.database_url is not None:
        url = settings.database_url.get_secret_value()
        before = asyncio.run(_postgres_version(url))
        summary = asyncio.run(_open_and_summarize(settings))
        where_db = f"Database: PostgreSQL {redact(url)} "
        state = "an empty database, given the schema now" if before == 0 else "existing"
        before_or_none: int | None = None if before == 0 else before
    else:
        reason = database_reason(settings.db_path) or write_reason(settings.db_path)
        if reason is not None:
            raise CheckError(reason)
        path = Path(os.path.abspath(settings.db_path))
        before_or_none = file_schema_version(path)
        summary = asyncio.run(_open_and_summarize(settings))
        where_db = f"Database: {path} "
        state = ("a new file, created now" if before_or_none is None
                 else f"existing file, {_size(path)}")
    before = before_or_none

    where = (f"in the development server {settings.dev_guild_id} only"
             if settings.dev_guild_id else "globally")
    if before is None:
        migrated = f"{summary.schema_version} (new database)"
    else:
        migrated = (f"{summary.schema_version} (up to date)"
                    if before == summary.schema_version
                    else f"{summary.schema_version} (migrated now from {before})")
    token = "DISCORD_TOKEN set" if settings.discord_token is not None else "DISCORD_TOKEN NOT SET"
    return [
        f"Settings: {'ok' if settings.discord_token is not None else 'incomplete'} ({token}; "
        f"commands registered {where}; log level {settings.log_level})",
        f"{where_db}({state})",
        f"Schema version: {migrated}",
        f"Matches in progress: {summary.matches_in_progress}",
        f"Finished matches: {summary.finished_matches}",
        f"Servers with settings: {summary.servers_with_settings}",
        limits_line(settings),
    ] + ([shards_line(settings)] if settings.shard_count is not None else []) + (
        ["Ready: python -m bot can start."] if settings.discord_token is not None else [])


def limits_line(settings: Settings) -> str:
    """The report's line on the clocks, e.g. ``Time limits: 24 h per turn (unless a server
    set its own), 10 min per challenge, 2 s per AI decision``."""
    return (f"Time limits: {settings.turn_timeout_hours:g} h per turn (unless a server set "
            f"its own), {settings.challenge_timeout_minutes:g} min per challenge, "
            f"{settings.ai_time_budget:g} s per AI decision")


def shards_line(settings: Settings) -> str:
    """The report's line on sharding, e.g. ``Shards: 0, 1 of 4 in this process``."""
    count = settings.shard_count
    if settings.shard_ids is None:
        return f"Shards: all {count} in this process"
    return f"Shards: {', '.join(map(str, settings.shard_ids))} of {count} in this process"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot check``: print the report; 0 when ready, 2 with the reason if not."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Check the settings and the database (opened and migrated as "
        "the bot does at start-up), print what was found, and exit 0 when the bot can start "
        f"(2 with the reason when not). The code knows schema versions up to {SCHEMA_VERSION}.")
    parser.parse_args(argv)
    try:
        settings = settings_or_reason()
        lines = check(settings)
    except CheckError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    if settings.discord_token is None:  # reported after the database, which was still checked
        print(f"{PROG}: {NO_TOKEN}", file=sys.stderr)
        return 2
    return 0
