"""``python -m bot backup FILE``: a consistent copy of the live database, safe while the bot runs.

The copy is made with SQLite's online backup API in one step: it reads one snapshot of the
database (WAL mode lets the bot keep writing meanwhile; what it commits during the copy is
simply not in it), so the copy is the database as it was at one instant. The copy is written
under a temporary name in FILE's folder, turned into a single self-contained file (rollback
journal mode, no ``-wal`` file beside it), checked (``PRAGMA integrity_check``) and only then
given its name, so FILE never holds half a backup. An existing FILE is never overwritten.

Restoring: stop the bot, replace the ``RAPTOR_DB_PATH`` file with the copy (and remove any
``-wal`` / ``-shm`` files left beside the old one), start the bot.

The database is only read (:func:`bot.storage.db.connect_read_only`): a read-only file or
folder can be backed up, and nothing is created beside it.

Exit status 0 after a backup; 2 with one line on stderr (nothing written) when FILE exists, its
folder is missing or not writable, there is no database to copy, the database cannot be read
or is not SQLite, or SQLite fails; the line names the file or folder at fault.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from ..storage.db import connect_read_only, read_problem, write_problem
from .check import CheckError, settings_or_reason

PROG = "python -m bot backup"


def _refuse_target(target: Path) -> None:
    problem = read_problem(target)  # a folder this user cannot enter
    if problem is not None:
        raise CheckError(f"cannot write the backup {target}: {problem} (nothing was written)")
    if target.is_dir():
        raise CheckError(f"{target} is a folder: give the backup's file name, e.g. "
                         f"{target / 'raptor-backup.sqlite3'}")
    if target.exists() or target.is_symlink():
        raise CheckError(f"{target} already exists: give a new file name (nothing was "
                         "overwritten)")
    if not target.parent.is_dir():
        raise CheckError(f"the folder {target.parent} does not exist: create it first")
    problem = write_problem(target)
    if problem is not None:
        raise CheckError(f"cannot write the backup {target}: {problem} (nothing was written)")


def _sqlite_says(exc: sqlite3.Error) -> str:
    """SQLite's error on reading a source, with "not a SQLite database" for a file that is
    none (SQLite says only "file is not a database")."""
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return f"it is not a SQLite database ({exc})"
    return str(exc)


def backup(source: Path, target: Path) -> list[str]:
    """Copy the database ``source`` to the new file ``target``.

    Returns:
        The report's lines: what was copied (size, schema version, matches) and the check.

    Raises:
        CheckError: ``target`` exists or cannot be created, ``source`` is missing or not a
            database, or the copy failed its integrity check (nothing is left at ``target``).
    """
    source, target = Path(os.path.abspath(source)), Path(os.path.abspath(target))
    problem = read_problem(source)
    if problem is not None:
        raise CheckError(f"cannot read the database RAPTOR_DB_PATH={source}: {problem} "
                         "(nothing was written)")
    if not source.is_file():
        raise CheckError(f"there is no database at RAPTOR_DB_PATH={source}: nothing to back "
                         "up (is the volume mounted, is this the bot's working directory?)")
    _refuse_target(target)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        try:
            # read-only: never creates a missing database, never writes the source, nor a
            # -wal/-shm beside it; a read-only file or folder is fine
            src = connect_read_only(source)
        except sqlite3.Error as exc:
            raise CheckError(f"cannot read the database RAPTOR_DB_PATH={source}: {exc} "
                             "(nothing was written)") from None
        try:
            try:
                src.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()
            except sqlite3.Error as exc:
                raise CheckError(f"cannot read the database RAPTOR_DB_PATH={source}: "
                                 f"{_sqlite_says(exc)} (nothing was written)") from None
            try:
                dst = sqlite3.connect(partial)
            except sqlite3.Error as exc:
                raise CheckError(f"cannot write the backup {target}: {exc} (nothing was "
                                 "written)") from None
            try:
                src.backup(dst)  # one step (pages=-1): one consistent snapshot
                dst.execute("PRAGMA journal_mode = DELETE")
                verdict = dst.execute("PRAGMA integrity_check").fetchone()[0]
                version = dst.execute("PRAGMA user_version").fetchone()[0]
                has_matches = dst.execute("SELECT COUNT(*) FROM sqlite_schema WHERE "
                                          "type = 'table' AND name = 'matches'").fetchone()[0]
                matches = (dst.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
                           if has_matches else 0)
            finally:
                dst.close()
        except sqlite3.Error as exc:
            raise CheckError(f"the backup of {source} failed: {exc} (nothing was written "
                             f"at {target})") from None
        finally:
            src.close()
        if verdict != "ok":
            raise CheckError(f"the copy of {source} fails SQLite's integrity check "
                             f"({verdict}); nothing was written at {target}")
        size = partial.stat().st_size
        _give_name(partial, target)
    except OSError as exc:
        raise CheckError(f"cannot write the backup {target}: {exc.strerror or exc}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return [f"Backed up {source} to {target}: {size:,} bytes, schema version {version}, "
            f"{matches} match{'' if matches == 1 else 'es'}; integrity check ok."]


def _give_name(partial: Path, target: Path) -> None:
    """``partial`` becomes ``target``, never replacing a file that appeared meanwhile."""
    try:
        os.link(partial, target)  # fails if target exists
    except FileExistsError:
        raise CheckError(f"{target} already exists: give a new file name (nothing was "
                         "overwritten)") from None
    except OSError:  # no hard links on this file system
        if target.exists():
            raise CheckError(f"{target} already exists: give a new file name") from None
        os.rename(partial, target)


POSTGRES_BACKUP = ("RAPTOR_DATABASE_URL names a PostgreSQL database, and this command copies "
                   "SQLite files only: back it up with PostgreSQL's own pg_dump, e.g. pg_dump "
                   "--format=custom --file raptor.dump \"$RAPTOR_DATABASE_URL\" (nothing was "
                   "written)")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot backup FILE``: 0 after a backup, 2 with the reason when none was made."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Copy the bot's database (RAPTOR_DB_PATH) to FILE with SQLite's "
        "backup API: a consistent copy, safe while the bot runs. FILE must not exist yet.")
    parser.add_argument("file", metavar="FILE", help="the new backup file")
    args = parser.parse_args(argv)
    if not args.file.strip():
        print(f"{PROG}: the backup's file name is empty: give one, e.g. raptor-backup.sqlite3",
              file=sys.stderr)
        return 2
    args.file = Path(args.file)
    try:
        settings = settings_or_reason()
        if settings.database_url is not None:
            raise CheckError(POSTGRES_BACKUP)
        lines = backup(settings.db_path, args.file)
    except CheckError as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0
