"""The bot's storage: one :class:`Database` interface, two backends.

==============================  ============================================================
:mod:`bot.storage.schema`       the tables and their ordered migrations (both backends)
:mod:`bot.storage.db`           SQLite (aiosqlite): :class:`~bot.storage.db.SqliteDatabase`,
                                and reading a file without writing it
:mod:`bot.storage.pg`           PostgreSQL (asyncpg): :class:`~bot.storage.pg.PgDatabase`;
                                the only module that imports asyncpg
:mod:`bot.storage.db_url`       which settings name PostgreSQL, URLs without passwords
==============================  ============================================================

The stores (``*_store.py``) run their SQL, written once with ``?`` placeholders, on either
backend through :class:`Database` and :class:`Transaction`; no caller imports a driver. What
the backends raise for a storage reason is a :class:`StorageError`: a broken constraint
(:class:`IntegrityViolation`, whichever driver found it), a database newer than this code
(:class:`DatabaseTooNewError`), a database that cannot be opened
(:class:`DatabaseUnavailableError`).

:func:`open_database` opens the database the bot's settings name (``python -m bot``, ``check``
and the offline tools all open it this way).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import (
    Database,
    DatabaseTooNewError,
    DatabaseUnavailableError,
    IntegrityViolation,
    StorageError,
    Transaction,
)

if TYPE_CHECKING:
    from ..settings import Settings


async def open_target(target: str | os.PathLike[str], **kwargs: Any) -> Database:
    """Open (and migrate) the database at ``target``: a ``postgresql://`` URL, else an
    SQLite file path. ``kwargs`` go to the backend's ``open`` (e.g. ``upto``).

    Raises:
        DatabaseUnavailableError, DatabaseTooNewError: as the backend's ``open``.
    """
    from .db_url import is_postgres_url

    text = os.fspath(target)
    if is_postgres_url(text):
        from .pg import PgDatabase  # asyncpg is loaded only for PostgreSQL

        return await PgDatabase.open(text, **kwargs)
    from .db import open_file

    return await open_file(text, **kwargs)


async def open_database(settings: Settings) -> Database:
    """Open (and migrate) the database the settings name: PostgreSQL when
    ``RAPTOR_DATABASE_URL`` is set, else the SQLite file ``RAPTOR_DB_PATH``.

    Raises:
        DatabaseUnavailableError: the one-line reason it cannot be used (a malformed URL, a
            server that cannot be reached, a refused login, a file that is not a database, a
            migration that failed...).
        DatabaseTooNewError: a database newer than this code.
    """
    if settings.database_url is not None:
        return await open_target(settings.database_url.get_secret_value())
    return await open_target(Path(os.path.abspath(settings.db_path)))


__all__ = ["Database", "DatabaseTooNewError", "DatabaseUnavailableError",
           "IntegrityViolation", "StorageError", "Transaction", "open_database", "open_target"]
