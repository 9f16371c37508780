"""SQLite storage for matches, challenges, ratings and settings (aiosqlite), and the schema's
migrations, which PostgreSQL (:mod:`bot.pg`, ``RAPTOR_DATABASE_URL``) runs too.

A new schema step goes at the end of :data:`MIGRATIONS`, in portable SQL written as SQLite
reads it (``INTEGER``, ``REAL``, ``TEXT``; :func:`bot.pg.postgres_ddl` gives PostgreSQL its
types); only a statement the two cannot share (a trigger) is a :class:`PerDialect` pair.

One :class:`Database` owns two connections to one file:

- a *writer*, used for every write: ``async with db.transaction() as tx:`` (several
  statements) or ``await db.write(sql, params)`` (one statement, atomic on its own, in a
  single call to the connection's thread). An :class:`asyncio.Lock` makes writes of one
  process take turns (aiosqlite runs a connection's statements one at a time, but two
  coroutines could otherwise interleave their statements inside one transaction);
  ``BEGIN IMMEDIATE`` plus ``busy_timeout`` make transactions of different processes take
  turns too.
- a *reader* (``PRAGMA query_only``), used by :meth:`Database.fetchone` / :meth:`fetchall`
  outside transactions: in WAL mode it sees only committed data, never the half-done
  transaction of another coroutine, and each read runs to its end in one call, so it starts
  from the latest commit. A ``:memory:`` database has one connection for both (reads then
  may see another coroutine's open transaction: use files outside tests).

Every connection sets ``foreign_keys=ON``, ``journal_mode=WAL``, ``synchronous=NORMAL`` and a
busy timeout. A tool that only reads a file (``check``, ``backup``, ``replay``) opens it with
:func:`read_only_uri` instead (:func:`connect_read_only`, :meth:`Database.open_read_only`: one
connection that neither writes nor creates anything, not even a ``-wal``); :func:`read_problem`
and :func:`write_problem` say in words which file or folder this user may not read or write.

Schema versions: :data:`MIGRATIONS` is an ordered list of described steps; the version of a
file is ``PRAGMA user_version`` (0 for a new file). :meth:`Database.open` applies the missing
steps, each in its own transaction together with the new ``user_version``, and refuses a file
whose version is newer than this code knows (:class:`DatabaseTooNewError`).

Tables (migration 1 unless noted):

- ``matches``: one row per match (players, AI levels, hidden seed, options JSON, status,
  state JSON from ``GameState.to_json()``, version counter, number of log records and a copy
  of the last one (``last_side``, ``last_kind``, ``last_action``, ``last_action_at``),
  timestamps, deadline and reminder time, result and reason, draw offer, rematch link). A
  UNIQUE partial index allows at most one ``status = 'active'`` match per channel.
- ``match_log``: append-only (triggers refuse UPDATE and DELETE) list of decisions per match:
  ``seq`` 1, 2, ..., ``side``, ``kind`` ``'action'`` or ``'undo'``, ``action`` JSON from
  ``action.to_dict()`` (for an undo: the action undone), time. Records are written by a
  trigger: an UPDATE of ``matches`` that raises ``log_length`` by one (and must set the
  ``last_*`` columns) appends that record in the same statement, so one statement saves a
  step atomically; ``log_length`` can change in no other way.
- ``challenges``: pending and answered challenges; at most one pending challenge per
  challenger per channel (UNIQUE partial index).
- ``ratings``: per guild and user: Elo rating, wins/losses per side, draws.
- ``results``: one row per finished match: outcome, whether it was rated, ratings before/after.
- ``guild_settings``: per-server turn timeout.
- ``user_settings`` (migration 2): per-user key/value settings (JSON values; ``dm_hand``,
  ``language``).
- ``control_posts`` (migration 3): the bot's messages with controls, to retire them later.
- ``claimed_by``, ``claim_until`` on ``matches`` and ``challenges`` (migration 4): the lease
  of the process doing that row's timed or AI work (:mod:`bot.match.claim_store`).
- ``guild_languages`` (migration 7): a server's language for public messages, when a
  moderator chose one (``/raptor-admin language``).
- ``end_announced_at`` on ``matches`` (migration 8): when the end of a finished match was
  posted in its channel (NULL: not yet; :mod:`bot.match.announcements`). The matches
  finished before this step count as announced at their ``updated_at``.
- ``ai_failures``, ``ai_retry_at`` on ``matches`` (migration 9): how many times in a row the
  AI failed to make its decision, and when the timer loop tries it again (NULL: no retry
  pending; :mod:`bot.match.deadlines`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

BUSY_TIMEOUT_MS = 5000

def breaks_unique(exc: BaseException, index: str, columns: str) -> bool:
    """Whether ``exc`` says that a row broke the unique index ``index`` on ``columns``
    (``"table.column"``, as SQLite names it; PostgreSQL names the index)."""
    if isinstance(exc, asyncpg.UniqueViolationError):
        return exc.constraint_name == index
    return isinstance(exc, sqlite3.IntegrityError) and f"UNIQUE constraint failed: {columns}" \
        in str(exc)


#: What a broken constraint (unique, check, foreign key, the log's triggers) raises on either
#: database: ``except INTEGRITY_ERRORS``.
INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError,
                                                 asyncpg.IntegrityConstraintViolationError)

# aiosqlite logs every statement's parameters at DEBUG level: those include match seeds and
# states (hands, deck orders), which are hidden information and must never reach a log line,
# even when the bot runs with RAPTOR_LOG_LEVEL=DEBUG.
logging.getLogger("aiosqlite").setLevel(logging.INFO)


class DatabaseTooNewError(RuntimeError):
    """The file's schema version is newer than this code's: it was written by a newer release.

    ``found`` and ``supported`` hold the two versions.
    """

    def __init__(self, path: str, found: int, supported: int, *,
                 setting: str = "RAPTOR_DB_PATH", other: str = "file") -> None:
        self.found = found
        self.supported = supported
        super().__init__(
            f"the database {path!r} has schema version {found}, but this version of the bot "
            f"only knows versions up to {supported}: upgrade the bot, or point {setting} "
            f"at another {other}"
        )


@dataclass(frozen=True)
class PerDialect:
    """A migration statement written twice, once per database: what the dialects do too
    differently to share one text (triggers). An empty text means nothing to run there;
    a PostgreSQL text may hold several statements separated by ``;``."""

    sqlite: str
    postgres: str


@dataclass(frozen=True)
class Migration:
    """One schema step: ``version`` (1, 2, ...), a one-line ``description`` and its SQL
    statements, run in order inside one transaction.

    A plain string is portable: SQLite runs it as written, PostgreSQL after
    :func:`bot.pg.postgres_ddl` (``INTEGER`` becomes ``BIGINT``, ``REAL`` ``DOUBLE
    PRECISION``, ``id INTEGER PRIMARY KEY`` an identity column, ``WITHOUT ROWID`` is
    dropped). A :class:`PerDialect` gives each database its own text.
    """

    version: int
    description: str
    statements: tuple[str | PerDialect, ...]

    def sqlite_statements(self) -> list[str]:
        """The step's statements as SQLite runs them."""
        return [s.sqlite if isinstance(s, PerDialect) else s for s in self.statements
                if not isinstance(s, PerDialect) or s.sqlite.strip()]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema: matches, action log, challenges, ratings, results, guilds", (
        """
        CREATE TABLE matches (
            id                INTEGER PRIMARY KEY,
            guild_id          INTEGER NOT NULL,
            channel_id        INTEGER NOT NULL,
            raptor_user_id    INTEGER NOT NULL,
            scientist_user_id INTEGER NOT NULL,
            raptor_ai         TEXT,
            scientist_ai      TEXT,
            seed              INTEGER NOT NULL,
            options           TEXT NOT NULL,
            status            TEXT NOT NULL DEFAULT 'active'
                              CHECK (status IN ('active', 'finished')),
            state             TEXT NOT NULL,
            version           INTEGER NOT NULL DEFAULT 0,
            log_length        INTEGER NOT NULL DEFAULT 0,
            last_side         TEXT,
            last_kind         TEXT,
            last_action       TEXT,
            last_action_at    REAL,
            created_at        REAL NOT NULL,
            updated_at        REAL NOT NULL,
            last_activity     REAL NOT NULL,
            deadline_at       REAL,
            remind_at         REAL,
            reminded          INTEGER NOT NULL DEFAULT 0,
            result            TEXT CHECK (result IN ('raptor', 'scientist', 'draw')),
            reason            TEXT,
            draw_offered_by   INTEGER,
            rematch_of        INTEGER REFERENCES matches(id)
        )
        """,
        "CREATE UNIQUE INDEX matches_one_active_per_channel ON matches(channel_id) "
        "WHERE status = 'active'",
        "CREATE INDEX matches_deadline ON matches(deadline_at) WHERE status = 'active'",
        "CREATE INDEX matches_remind ON matches(remind_at) WHERE status = 'active' "
        "AND reminded = 0",
        "CREATE INDEX matches_guild_raptor ON matches(guild_id, raptor_user_id)",
        "CREATE INDEX matches_guild_scientist ON matches(guild_id, scientist_user_id)",
        """
        CREATE TABLE match_log (
            match_id   INTEGER NOT NULL REFERENCES matches(id),
            seq        INTEGER NOT NULL CHECK (seq >= 1),
            side       TEXT NOT NULL CHECK (side IN ('raptor', 'scientist')),
            kind       TEXT NOT NULL CHECK (kind IN ('action', 'undo')),
            action     TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (match_id, seq)
        ) WITHOUT ROWID
        """,
        # A step is saved by ONE statement: the UPDATE of the match row that sets the new
        # state, log_length + 1 and the record in last_*; these triggers append that record
        # to match_log inside the same statement, so the state and the log cannot diverge.
        PerDialect(sqlite="""
        CREATE TRIGGER matches_log_grows_by_one BEFORE UPDATE OF log_length ON matches
        WHEN NEW.log_length <> OLD.log_length
        BEGIN
            SELECT RAISE(ABORT, 'log_length grows by one, with the record in last_*')
            WHERE NEW.log_length <> OLD.log_length + 1 OR NEW.last_side IS NULL
               OR NEW.last_kind IS NULL OR NEW.last_action IS NULL
               OR NEW.last_action_at IS NULL;
        END
        """, postgres="""
        CREATE FUNCTION matches_log_grows_by_one() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.log_length <> OLD.log_length + 1 OR NEW.last_side IS NULL
               OR NEW.last_kind IS NULL OR NEW.last_action IS NULL
               OR NEW.last_action_at IS NULL THEN
                RAISE EXCEPTION 'log_length grows by one, with the record in last_*'
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            RETURN NEW;
        END $$;
        CREATE TRIGGER matches_log_grows_by_one BEFORE UPDATE OF log_length ON matches
        FOR EACH ROW WHEN (NEW.log_length <> OLD.log_length)
        EXECUTE FUNCTION matches_log_grows_by_one()
        """),
        PerDialect(sqlite="""
        CREATE TRIGGER matches_append_log AFTER UPDATE OF log_length ON matches
        WHEN NEW.log_length = OLD.log_length + 1
        BEGIN
            INSERT INTO match_log (match_id, seq, side, kind, action, created_at)
            VALUES (NEW.id, NEW.log_length, NEW.last_side, NEW.last_kind, NEW.last_action,
                    NEW.last_action_at);
        END
        """, postgres="""
        CREATE FUNCTION matches_append_log() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO match_log (match_id, seq, side, kind, action, created_at)
            VALUES (NEW.id, NEW.log_length, NEW.last_side, NEW.last_kind, NEW.last_action,
                    NEW.last_action_at);
            RETURN NULL;
        END $$;
        CREATE TRIGGER matches_append_log AFTER UPDATE OF log_length ON matches
        FOR EACH ROW WHEN (NEW.log_length = OLD.log_length + 1)
        EXECUTE FUNCTION matches_append_log()
        """),
        PerDialect(sqlite="""
        CREATE TRIGGER match_log_no_update BEFORE UPDATE ON match_log
        BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END
        """, postgres="""
        CREATE FUNCTION match_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'match_log is append-only'
                USING ERRCODE = 'integrity_constraint_violation';
        END $$;
        CREATE TRIGGER match_log_no_update BEFORE UPDATE OR DELETE ON match_log
        FOR EACH ROW EXECUTE FUNCTION match_log_append_only();
        CREATE TRIGGER match_log_no_truncate BEFORE TRUNCATE ON match_log
        FOR EACH STATEMENT EXECUTE FUNCTION match_log_append_only()
        """),
        PerDialect(sqlite="""
        CREATE TRIGGER match_log_no_delete BEFORE DELETE ON match_log
        BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END
        """, postgres=""),
        """
        CREATE TABLE challenges (
            id            INTEGER PRIMARY KEY,
            guild_id      INTEGER NOT NULL,
            channel_id    INTEGER NOT NULL,
            challenger_id INTEGER NOT NULL,
            challenged_id INTEGER NOT NULL CHECK (challenged_id <> challenger_id),
            side          TEXT NOT NULL CHECK (side IN ('raptor', 'scientist', 'random')),
            environment   TEXT NOT NULL,
            setup         TEXT NOT NULL,
            status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
                          ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
            created_at    REAL NOT NULL,
            expires_at    REAL NOT NULL,
            match_id      INTEGER REFERENCES matches(id),
            rematch_of    INTEGER REFERENCES matches(id)
        )
        """,
        "CREATE UNIQUE INDEX challenges_one_pending ON challenges(channel_id, challenger_id) "
        "WHERE status = 'pending'",
        "CREATE INDEX challenges_expiry ON challenges(expires_at) WHERE status = 'pending'",
        """
        CREATE TABLE ratings (
            guild_id         INTEGER NOT NULL,
            user_id          INTEGER NOT NULL,
            rating           REAL NOT NULL DEFAULT 1500,
            raptor_wins      INTEGER NOT NULL DEFAULT 0,
            raptor_losses    INTEGER NOT NULL DEFAULT 0,
            scientist_wins   INTEGER NOT NULL DEFAULT 0,
            scientist_losses INTEGER NOT NULL DEFAULT 0,
            draws            INTEGER NOT NULL DEFAULT 0,
            updated_at       REAL NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        )
        """,
        "CREATE INDEX ratings_leaderboard ON ratings(guild_id, rating DESC)",
        """
        CREATE TABLE results (
            match_id                INTEGER PRIMARY KEY REFERENCES matches(id),
            guild_id                INTEGER NOT NULL,
            raptor_user_id          INTEGER NOT NULL,
            scientist_user_id       INTEGER NOT NULL,
            result                  TEXT,
            reason                  TEXT NOT NULL,
            rated                   INTEGER NOT NULL,
            raptor_rating_before    REAL,
            raptor_rating_after     REAL,
            scientist_rating_before REAL,
            scientist_rating_after  REAL,
            finished_at             REAL NOT NULL
        )
        """,
        """
        CREATE TABLE guild_settings (
            guild_id     INTEGER PRIMARY KEY,
            turn_timeout REAL CHECK (turn_timeout > 0)
        )
        """,
    )),
    Migration(2, "user settings (key/value per user, e.g. dm_hand)", (
        """
        CREATE TABLE user_settings (
            user_id    INTEGER NOT NULL,
            key        TEXT NOT NULL,
            value      TEXT NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (user_id, key)
        ) WITHOUT ROWID
        """,
    )),
    Migration(3, "posts with controls (challenge, turn, round and draw offer messages), kept "
                 "so that they can be retired after a restart", (
        "ALTER TABLE challenges ADD COLUMN message_id INTEGER",
        """
        CREATE TABLE control_posts (
            message_id INTEGER PRIMARY KEY,
            match_id   INTEGER NOT NULL REFERENCES matches(id),
            kind       TEXT NOT NULL CHECK (kind IN ('turn', 'round', 'draw')),
            channel_id INTEGER NOT NULL,
            text       TEXT NOT NULL
        )
        """,
        "CREATE INDEX control_posts_match ON control_posts(match_id, kind)",
    )),
    Migration(4, "claims: which process is firing a match's or a challenge's timer, or playing "
                 "a match's AI, and until when (several processes on one database)", (
        "ALTER TABLE matches ADD COLUMN claimed_by TEXT",
        "ALTER TABLE matches ADD COLUMN claim_until REAL",
        "ALTER TABLE challenges ADD COLUMN claimed_by TEXT",
        "ALTER TABLE challenges ADD COLUMN claim_until REAL",
    )),
    Migration(5, "a player's private messages of a match (DM hands, to retire their buttons "
                 "after a restart too) and the notices a player was given once per match", (
        """
        CREATE TABLE private_posts (
            message_id INTEGER PRIMARY KEY,
            match_id   INTEGER NOT NULL REFERENCES matches(id),
            user_id    INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            text       TEXT NOT NULL
        )
        """,
        "CREATE INDEX private_posts_match ON private_posts(match_id, user_id)",
        """
        CREATE TABLE match_notices (
            match_id INTEGER NOT NULL REFERENCES matches(id),
            user_id  INTEGER NOT NULL,
            notice   TEXT NOT NULL,
            PRIMARY KEY (match_id, user_id, notice)
        ) WITHOUT ROWID
        """,
    )),
    Migration(6, "the live match card and the match's line in its thread's parent channel "
                 "as control posts; the server's threads setting", (
        """
        CREATE TABLE control_posts_new (
            message_id INTEGER PRIMARY KEY,
            match_id   INTEGER NOT NULL REFERENCES matches(id),
            kind       TEXT NOT NULL
                       CHECK (kind IN ('turn', 'round', 'draw', 'card', 'line')),
            channel_id INTEGER NOT NULL,
            text       TEXT NOT NULL
        )
        """,
        "INSERT INTO control_posts_new SELECT message_id, match_id, kind, channel_id, text "
        "FROM control_posts",
        "DROP TABLE control_posts",
        "ALTER TABLE control_posts_new RENAME TO control_posts",
        "CREATE INDEX control_posts_match ON control_posts(match_id, kind)",
        "ALTER TABLE guild_settings ADD COLUMN threads INTEGER CHECK (threads IN (0, 1))",
    )),
    Migration(7, "server languages (a moderator's choice of language for public messages)", (
        """
        CREATE TABLE guild_languages (
            guild_id   INTEGER PRIMARY KEY,
            language   TEXT NOT NULL,
            updated_at REAL NOT NULL
        )
        """,
    )),
    Migration(8, "when the end of a finished match was announced in its channel, so that an "
                 "end whose process stopped before posting it is posted later; the matches "
                 "finished before count as announced", (
        "ALTER TABLE matches ADD COLUMN end_announced_at REAL",
        "UPDATE matches SET end_announced_at = updated_at WHERE status = 'finished'",
        "CREATE INDEX matches_end_unannounced ON matches(updated_at) "
        "WHERE status = 'finished' AND end_announced_at IS NULL",
    )),
    Migration(9, "the AI's failures in a row in a match and when it is tried again, so that "
                 "the timer loop retries an AI that failed (a restart too) and ends the match "
                 "after too many failures", (
        "ALTER TABLE matches ADD COLUMN ai_failures INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE matches ADD COLUMN ai_retry_at REAL",
        "CREATE INDEX matches_ai_retry ON matches(ai_retry_at) "
        "WHERE status = 'active' AND ai_retry_at IS NOT NULL",
    )),
)

SCHEMA_VERSION = MIGRATIONS[-1].version


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
    :meth:`Database.open_read_only` (``replay``) through the same URI.

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


class Database:
    """The bot's SQLite database (:class:`bot.pg.PgDatabase` is the PostgreSQL one, with the
    same interface). Create with :meth:`open`, finish with :meth:`close`.

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
    async def open(cls, path: str | os.PathLike[str], *, upto: int | None = None) -> Database:
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
    async def open_read_only(cls, path: str | os.PathLike[str]) -> Database:
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
    async def transaction(self) -> AsyncIterator[Transaction]:
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
                yield Transaction(self._writer)
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
            sqlite3.Error: the statement failed (it changed nothing).
        """
        async with self._lock:
            if self._closed:
                raise sqlite3.ProgrammingError("the database is closed")
            sent = asyncio.ensure_future(self._writer.execute(sql, params))
            try:
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


class Transaction:
    """Statements inside one write transaction (see :meth:`Database.transaction`). Each
    method is one call on the writer's thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; returns the number of rows changed (``rowcount``)."""
        cur = await self._conn.execute(sql, params)  # a finished DML statement is reset
        return cur.rowcount

    async def lock_member(self, kind: int, user_id: int) -> None:
        """Nothing to do: SQLite's write transactions (``BEGIN IMMEDIATE``) take turns
        already, so a count made inside one holds until the commit (the PostgreSQL
        transaction takes a lock here)."""

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT; returns the new row's id."""
        row = await self._conn.execute_insert(sql, params)
        return int(row[0])

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
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
            await conn.execute(f"PRAGMA user_version = {int(step.version)}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
