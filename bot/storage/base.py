"""What both storage backends share: the :class:`Database` and :class:`Transaction`
interfaces the stores run their SQL through, and the errors they raise for a storage reason
(one base, :class:`StorageError`). Re-exported by :mod:`bot.storage`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, runtime_checkable


class StorageError(RuntimeError):
    """Base of what the storage raises for a storage reason (never for a caller's bug)."""


class IntegrityViolation(StorageError):
    """A statement broke a constraint: a unique index, a check, a foreign key, or one of the
    action log's triggers. ``constraint``: the constraint's name when the database gives it
    (PostgreSQL), else None; the message is the database's own."""

    def __init__(self, message: str, constraint: str | None = None) -> None:
        super().__init__(message)
        self.constraint = constraint

    def breaks_unique(self, index: str, columns: str) -> bool:
        """Whether a row broke the unique index ``index`` on ``columns`` (``"table.column"``,
        as SQLite names them in its message; PostgreSQL names the index)."""
        if self.constraint is not None:
            return self.constraint == index
        return f"UNIQUE constraint failed: {columns}" in str(self)


class DatabaseTooNewError(StorageError):
    """The database's schema version is newer than this code's: a newer release wrote it.

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


class DatabaseUnavailableError(StorageError):
    """The database cannot be used: a malformed URL, a server that cannot be reached, a
    refused login, a missing database, a file that is not a database, a migration that
    failed. The message is one line naming the database (never its password) and why."""


@runtime_checkable
class Transaction(Protocol):
    """Statements inside one write transaction (``async with db.transaction() as tx``)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed.

        Raises:
            IntegrityViolation: it broke a constraint.
        """
        ...

    async def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one INSERT into a table with an ``id`` column; the new row's id.

        Raises:
            IntegrityViolation: it broke a constraint.
        """
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        """A read inside the transaction (it sees its own uncommitted writes): a row whose
        columns read by name or position, or None."""
        ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    async def lock_member(self, kind: int, user_id: int) -> None:
        """Hold until the transaction ends the lock of ``(kind, user_id)``, so that a count
        of that member's rows made after it holds until the commit."""
        ...


@runtime_checkable
class Database(Protocol):
    """An open database of the bot, migrated to :data:`~bot.storage.schema.SCHEMA_VERSION`.

    ``dialect``: ``"sqlite"`` or ``"postgresql"``; ``path``: where it is, as shown to people
    (a file path, or a URL without its password). Reads outside a transaction see committed
    data only.
    """

    dialect: str
    path: str

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any | None: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A write transaction: commits when the block ends, rolls back if it raises."""
        ...

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run ONE statement as its own transaction; its row count.

        Raises:
            IntegrityViolation: it broke a constraint (nothing changed).
        """
        ...

    async def schema_version(self) -> int: ...

    async def close(self) -> None: ...
