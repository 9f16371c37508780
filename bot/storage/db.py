"""SQLite storage (aiosqlite): the bot's :class:`~bot.storage.Database` in one file
(``RAPTOR_DB_PATH``), migrated by :mod:`bot.storage.schema`, and reading a file without
writing it.

One :class:`SqliteDatabase` owns two connections to one file:

- a *writer*, used for every write: ``async with db.transaction() as tx:`` (several
  statements) or ``await db.write(sql, params)`` (one statement, atomic on its own, in a
  single call to the connection's thread). An :class:`asyncio.Lock` makes writes of one
  process take turns (aiosqlite runs a connection's statements one at a time, but two
  coroutines could otherwise interleave their statements inside one transaction);
  ``BEGIN IMMEDIATE`` plus ``busy_timeout`` make transactions of different processes take
  turns too.
- a *reader* (``PRAGMA query_only``), used by :meth:`SqliteDatabase.fetchone` / :meth:`fetchall`
  outside transactions: in WAL mode it sees only committed data, never the half-done
  transaction of another coroutine, and each read runs to its end in one call, so it starts
  from the latest commit. A ``:memory:`` database has one connection for both (reads then
  may see another coroutine's open transaction: use files outside tests).

Every connection sets ``foreign_keys=ON``, ``journal_mode=WAL``, ``synchronous=NORMAL`` and a
busy timeout. A tool that only reads a file (``check``, ``backup``, ``replay``) opens it with
:func:`read_only_uri` instead (:func:`connect_read_only`, :meth:`SqliteDatabase.open_read_only`: one
connection that neither writes nor creates anything, not even a ``-wal``); :func:`read_problem`
and :func:`write_problem` say in words which file or folder this user may not read or write.

A broken constraint raises :class:`~bot.storage.IntegrityViolation` (from
``sqlite3.IntegrityError``); other failures are :mod:`sqlite3`'s own errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .base import DatabaseTooNewError, DatabaseUnavailableError, IntegrityViolation
from .schema import MIGRATIONS, SCHEMA_VERSION

BUSY_TIMEOUT_MS = 5000

# aiosqlite logs every statement's parameters at DEBUG level: those include match seeds and
# states (hands, deck orders), which are hidden information and must never reach a log line,
# even when the bot runs with RAPTOR_LOG_LEVEL=DEBUG.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


@contextlib.contextmanager
def _constraints() -> Iterator[None]:
    """A broken constraint (``sqlite3.IntegrityError``) raised as the storage's
    :class:`~bot.storage.IntegrityViolation`, with SQLite's message."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        raise IntegrityViolation(str(exc)) from exc


async def _to_the_end(step: Awaitable[None]) -> None:
    """Await ``step`` to its end even if the caller is cancelled meanwhile; a cancellation
    is then raised once it is done (as is the step's own error, if any)."""
    task = asyncio.ensure_future(step)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()


async def _connect(path: str, *, read_only: bool, file_read_only: bool = False
                   ) -> aiosqlite.Connection:
    """A connection to ``path`` with the bot's PRAGMAs; ``read_only``: ``query_only`` (the
    writer's file, read); ``file_read_only``: through :func:`read_only_uri`, which neither
    creates nor writes the file or anything beside it (no WAL set either)."""
    # Autocommit mode: a statement outside BEGIN ... COMMIT is its own transaction
    # (Database.write), and transactions are explicit (Database.transaction).
    if path != ":memory:":
        folder = os.path.dirname(os.path.abspath(path))
        if os.path.isdir(path) or not os.path.isdir(folder):
            raise sqlite3.OperationalError(
                f"unable to open database file {path!r}: "
                + ("it is a folder" if os.path.isdir(path) else f"no folder {folder!r}"))
    try:
        if file_read_only:
            conn = await aiosqlite.connect(read_only_uri(path), uri=True, isolation_level=None)
        else:
            conn = await aiosqlite.connect(path, isolation_level=None)
    except BaseException:
        # aiosqlite stops its worker thread by a queued call that answers on this loop:
        # let it run before the caller's loop closes (else "Event loop is closed").
        await asyncio.sleep(0.05)
        raise
    conn.row_factory = sqlite3.Row
    try:
        # execute_fetchall runs each PRAGMA to its end (some return a row).
        await conn.execute_fetchall(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute_fetchall("PRAGMA foreign_keys = ON")
        if path != ":memory:" and not file_read_only:
            await conn.execute_fetchall("PRAGMA journal_mode = WAL")
        await conn.execute_fetchall("PRAGMA synchronous = NORMAL")
        if read_only:
            await conn.execute_fetchall("PRAGMA query_only = ON")
    except BaseException:  # cancelled, or a file that is not a database: no thread left
        await _to_the_end(conn.close())
        raise
    return conn


# --- files: reading without writing, and what stops this user reading or writing them
# SQLite writes a WAL-mode database (the bot's) through two files beside it, ``-wal`` (the
# changes not yet checkpointed into the file) and ``-shm`` (the index of the log); a writer
# creates them in the file's folder. A read-only connection (``mode=ro``) to such a file
# without a ``-wal`` creates both too and leaves them behind (only the last *writing*
# connection removes them), and it cannot open at all in a folder it may not write.


def wal_files(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The ``-wal`` and ``-shm`` files SQLite keeps beside the database ``path``."""
    path = Path(path)
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _in_wal_mode(path: Path) -> bool:
    """Whether the file's header says WAL mode (bytes 18 and 19 are 2, in a file that starts
    with SQLite's magic string); False for anything else, unreadable files included."""
    try:
        with path.open("rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return head.startswith(b"SQLite format 3\x00") and head[18:20] == b"\x02\x02"


def read_only_uri(path: str | os.PathLike[str]) -> str:
    """The SQLite URI that opens ``path`` for reading only, creating no file beside it.

    ``mode=ro``: never created, never written. A WAL-mode file with no ``-wal`` beside it
    holds every commit, and no process has it open for writing (a writer keeps its ``-wal``
    while it runs): it is opened ``immutable=1`` too, so SQLite takes no lock and creates no
    ``-wal``/``-shm`` (it could not in a read-only folder). With a ``-wal`` (a bot running,
    or one that stopped without checkpointing), plain ``mode=ro`` reads the log as well.
    (A writer that starts while an immutable read runs changes the file only when it
    checkpoints, at 1000 pages of changes or when it closes.)
    """
    path = Path(os.path.abspath(path))
    uri = f"{path.as_uri()}?mode=ro"
    if _in_wal_mode(path) and not wal_files(path)[0].exists():
        uri += "&immutable=1"
    return uri


def connect_read_only(path: str | os.PathLike[str], *,
                      timeout: float = BUSY_TIMEOUT_MS / 1000) -> sqlite3.Connection:
    """A read-only :mod:`sqlite3` connection to the existing file ``path``
    (:func:`read_only_uri`): ``python -m bot check`` and ``backup`` read through it,
    :meth:`SqliteDatabase.open_read_only` (``replay``) through the same URI.

    Raises:
        sqlite3.OperationalError: the file is missing or cannot be opened (see
            :func:`read_problem` for why, in words).
    """
    return sqlite3.connect(read_only_uri(path), uri=True, timeout=timeout)


def user_name() -> str:
    """The name of the user this process reads and writes files as (its effective uid)."""
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):  # no pwd module (Windows), or a uid without a name
        return f"uid {os.geteuid()}" if hasattr(os, "geteuid") else "this user"


def _may(path: Path, mode: int) -> bool:
    """``os.access`` as the process's effective user (the one files are opened as)."""
    return os.access(path, mode, effective_ids=os.access in os.supports_effective_ids)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def read_problem(path: str | os.PathLike[str]) -> str | None:
    """Why this user could not read the database ``path``, in words naming the file at fault
    (the database, its ``-wal`` or ``-shm``, or its folder), found without opening it; None
    when nothing stops it (a missing file, or one that is not SQLite, is the caller's or
    SQLite's to say). Call it before testing whether ``path`` exists: that fails in a folder
    this user cannot enter."""
    path = Path(os.path.abspath(path))
    wal, shm = wal_files(path)
    user = user_name()
    if os.path.isdir(path.parent) and not _may(path.parent, os.X_OK):
        return f"the folder {path.parent} cannot be entered by the user {user}"
    unreadable = [f"the file {p}" for p in (path, wal, shm)
                  if p.exists() and not _may(p, os.R_OK)]
    if unreadable:
        return f"{_listed(unreadable)} cannot be read by the user {user}"
    if wal.exists() and not shm.exists() and not _may(path.parent, os.W_OK | os.X_OK):
        return (f"{wal} holds changes not yet in the file, and reading them needs {shm.name} "
                f"beside it, which the user {user} cannot create in the folder {path.parent}")
    return None


def write_problem(path: str | os.PathLike[str]) -> str | None:
    """Why this user could not write the SQLite database ``path`` (an existing file, or one
    to create), in words naming each file or folder at fault: a read-only file system, the
    file or its ``-wal``/``-shm`` read-only, a folder where the ``-wal`` and ``-shm`` (or
    the file itself) cannot be created. Found without writing; None when nothing stops it.
    """
    path = Path(os.path.abspath(path))
    folder = path.parent
    with contextlib.suppress(OSError, AttributeError):  # no statvfs on Windows
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"the folder {folder} is on a file system mounted read-only"
    faults = [f"the file {p}" for p in (path, *wal_files(path))
              if p.exists() and not _may(p, os.W_OK)]
    if not _may(folder, os.W_OK | os.X_OK):
        faults.append(f"the folder {folder}")
    if not faults:
        return None
    return f"{_listed(faults)} {'is' if len(faults) == 1 else 'are'} read-only for the user " \
           f"{user_name()}"


def not_a_database(path: str | os.PathLike[str], exc: sqlite3.Error) -> str:
    """The reason for a file at ``RAPTOR_DB_PATH`` that SQLite cannot read as a database."""
    return (f"RAPTOR_DB_PATH={path} is not a SQLite database ({exc}): point RAPTOR_DB_PATH at "
            "the bot's database file, or at a new file name")


def open_failure(path: str | os.PathLike[str], exc: BaseException) -> str:
    """The one-line reason why :meth:`SqliteDatabase.open` failed on ``path`` (``check``,
    ``python -m bot`` and the offline tools all say it this way)."""
    if isinstance(exc, DatabaseTooNewError):
        return str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
        return not_a_database(path, exc)
    return (f"cannot open the database RAPTOR_DB_PATH={path}: {exc}. Set RAPTOR_DB_PATH to a "
            "writable file path (on a volume that is mounted).")


async def open_file(path: str | os.PathLike[str], **kwargs: Any) -> SqliteDatabase:
    """:meth:`SqliteDatabase.open` (``kwargs``: its options), its failure said in one line.

    Raises:
        DatabaseTooNewError: the file's schema version is newer than :data:`SCHEMA_VERSION`.
        DatabaseUnavailableError: the file cannot be opened or is not a database
            (:func:`open_failure`'s sentence).
    """
    try:
        return await SqliteDatabase.open(path, **kwargs)
    except (sqlite3.Error, OSError) as exc:
        raise DatabaseUnavailableError(open_failure(path, exc)) from None


class SqliteDatabase:
    """The bot's SQLite database (:class:`bot.storage.pg.PgDatabase` is the PostgreSQL one;
    both are a :class:`bot.storage.Database`). Create with :meth:`open`, finish with :meth:`close`.

    Reads outside a transaction: :meth:`fetchone`, :meth:`fetchall` (committed data only).
    Writes: ``async with db.transaction() as tx:`` then ``await tx.execute(...)``; the
    transaction commits when the block ends and rolls back if it raises.
    """

    dialect = "sqlite"

    def __init__(self, path: str, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, upto: int | None = None) -> SqliteDatabase:
        """Connect to ``path`` (created if missing), set the PRAGMAs and apply migrations.

        Args:
            path: the SQLite file, or ``":memory:"``.
            upto: apply migrations only up to this version (for tests and tools; default:
                all of :data:`MIGRATIONS`).

        Raises:
            DatabaseTooNewError: the file's schema version is newer than :data:`SCHEMA_VERSION`.
            sqlite3.DatabaseError: the file is not an SQLite database, or a migration failed
                (that migration is rolled back; earlier ones stay applied).
        """
        spath = os.fspath(path)
        writer = await _connect(spath, read_only=False)
        try:
            await _migrate(writer, spath, SCHEMA_VERSION if upto is None else upto)
            reader = writer if spath == ":memory:" else await _connect(spath, read_only=True)
        except BaseException:
            await _to_the_end(writer.close())
            raise
        return cls(spath, writer, reader)

    @classmethod
    async def open_read_only(cls, path: str | os.PathLike[str]) -> SqliteDatabase:
        """Connect to the existing file ``path`` to read it only (``python -m bot replay``):
        through :func:`read_only_uri`, so nothing is created, migrated or written, not even a
        ``-wal``/``-shm`` file beside it, and a read-only file or folder is fine. A write
        raises ``sqlite3.OperationalError`` ("attempt to write a readonly database"). A file
        of an older schema version is copied into memory and the copy migrated; the file is
        left as it is.

        Raises:
            DatabaseTooNewError: the file's schema version is newer than :data:`SCHEMA_VERSION`.
            sqlite3.DatabaseError: the file cannot be opened or is not an SQLite database
                (:func:`read_problem` says why a file cannot be opened).
        """
        spath = os.fspath(path)
        conn = await _connect(spath, read_only=True, file_read_only=True)
        try:
            version = await _user_version(conn)
            if version > SCHEMA_VERSION:
                raise DatabaseTooNewError(spath, version, SCHEMA_VERSION)
            if version < SCHEMA_VERSION:
                copy = await _connect(":memory:", read_only=False)
                try:
                    await conn.backup(copy)
                    await _migrate(copy, spath, SCHEMA_VERSION)
                except BaseException:
                    await _to_the_end(copy.close())
                    raise
                await _to_the_end(conn.close())
                return cls(spath, copy, copy)
        except BaseException:
            await _to_the_end(conn.close())
            raise
        return cls(spath, conn, conn)

    async def close(self) -> None:
        """Close both connections (waits for a running write transaction to finish).

        Closing runs to its end even if the caller is cancelled meanwhile (Ctrl-C as a
        program ends); the cancellation is raised afterwards. A connection left open would
        keep its thread, and with it the program, running."""
        if self._closed:
            return
        self._closed = True
        await _to_the_end(self._close_connections())

    async def _close_connections(self) -> None:
        async with self._lock:
            await self._writer.close()
            if self._reader is not self._writer:
                await self._reader.close()

    async def schema_version(self) -> int:
        """The file's ``PRAGMA user_version``."""
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0])

    # --- reads (committed data) ---
    # Each read is one call on the connection's thread that runs the statement to its end
    # (execute_fetchall): no statement stays open between awaits, so every read starts a
    # fresh WAL snapshot and sees everything committed before it.
    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._reader.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._reader.execute_fetchall(sql, params))

    # --- writes ---
    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        """A write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``), one at a time per process.

        Raises whatever the block raises, after a rollback; ``sqlite3.OperationalError``
        ("database is locked") if another process holds the write lock beyond the busy
        timeout.
        """
        async with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the database is closed")
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteTransaction(self._writer)
            except BaseException:
                await self._rollback()
                raise
            try:
                await self._writer.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run ONE statement as its own transaction (SQLite makes a single statement atomic,
        triggers included) in a single call to the writer's thread; returns its row count.

        Takes the write lock like :meth:`transaction`, so it never runs inside another
        coroutine's open transaction. A caller cancelled after the statement was sent gets
        ``CancelledError`` once the statement has run (it may have been saved).

        Raises:
            IntegrityViolation: the statement broke a constraint (it changed nothing).
            sqlite3.Error: the statement failed otherwise (it changed nothing).
        """
        async with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the database is closed")
            sent = asyncio.ensure_future(self._writer.execute(sql, params))
            try:
                with _constraints():
                    cur = await asyncio.shield(sent)
            except asyncio.CancelledError:
                # The statement is already on its way: keep the lock until it has run, so
                # the next writer starts after it. (It is saved whole, or not at all.)
                with contextlib.suppress(Exception):
                    await sent
                raise
            return cur.rowcount

    async def _rollback(self) -> None:
        # Always sent (not only when in_transaction says so): statements queued before a
        # cancellation may still be running on the thread, and the ROLLBACK is queued
        # after them.
        try:
            await asyncio.shield(self._writer.execute("ROLLBACK"))
        except (sqlite3.Error, ValueError):  # no transaction active / connection closed
            pass


class SqliteTransaction:
    """Statements inside one write transaction (see :meth:`SqliteDatabase.transaction`). Each
    method is one call on the writer's thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows changed (``rowcount``).

        Raises:
            IntegrityViolation: it broke a constraint.
        """
        with _constraints():
            cur = await self._conn.execute(sql, params)  # a finished DML statement is reset
        return cur.rowcount

    async def lock_member(self, kind: int, user_id: int) -> None:
        """Nothing to do: SQLite's write transactions (``BEGIN IMMEDIATE``) take turns
        already, so a count made inside one holds until the commit (the PostgreSQL
        transaction takes a lock here)."""

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; returns the new row's id.

        Raises:
            IntegrityViolation: it broke a constraint.
        """
        with _constraints():
            row = await self._conn.execute_insert(sql, params)
        return int(row[0])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _constraints():
            await self._conn.executemany(sql, rows)

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        """A read inside the transaction (sees its own uncommitted writes)."""
        rows = await self._conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))


async def _user_version(conn: aiosqlite.Connection) -> int:
    rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


async def _migrate(conn: aiosqlite.Connection, path: str, target: int) -> None:
    """Apply the migrations after the file's version up to ``target``, one transaction each."""
    current = await _user_version(conn)
    if current > SCHEMA_VERSION:
        raise DatabaseTooNewError(path, current, SCHEMA_VERSION)
    for step in MIGRATIONS:
        if step.version <= current or step.version > target:
            continue
        if step.rebuilds:  # (no effect inside a transaction: set before it begins)
            await conn.execute("PRAGMA foreign_keys = OFF")
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Re-read under the write lock: another process may have migrated meanwhile.
            now = await _user_version(conn)
            if now > SCHEMA_VERSION:
                raise DatabaseTooNewError(path, now, SCHEMA_VERSION)
            if now >= step.version:
                await conn.execute("COMMIT")
                continue
            for sql in step.sqlite_statements():
                await conn.execute(sql)
            if step.then is not None:
                await step.then(SqliteTransaction(conn))
            if step.rebuilds:
                broken = await conn.execute_fetchall("PRAGMA foreign_key_check")
                if broken:
                    raise sqlite3.IntegrityError(
                        f"migration {step.version} broke {len(broken)} foreign key(s), e.g. "
                        f"{tuple(broken[0])}")
            await conn.execute(f"PRAGMA user_version = {int(step.version)}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
        finally:
            if step.rebuilds:
                await conn.execute("PRAGMA foreign_keys = ON")
