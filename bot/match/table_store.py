"""The SQL of tables, the lobbies where a match of any game gathers its players (tables
``game_tables`` and ``table_players`` of :mod:`bot.storage.schema`), and the mapping of
their rows to :class:`~bot.match.tables.Table`. Queries only: the services decide.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ..storage import Database, Transaction
from .match_store import options_json


class TableStatus(StrEnum):
    """Where a table stands: open while its players gather, then started (its match began),
    cancelled by its host, or expired (nobody started it in time)."""

    OPEN = "open"
    STARTED = "started"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True)
class TablePlayer:
    """Someone at a table: a person (``ai`` None) or the AI at level ``ai`` (no user yet:
    the bot's user plays it once the match starts). ``position``: the order they came in."""

    position: int
    user_id: int | None
    ai: str | None = None


@dataclass(frozen=True)
class Table:
    """A table of ``game`` in a channel: its ``host`` opened it for ``seats`` players with
    ``options``; ``players`` are those at it so far, in the order they came (the host
    first). Times are Unix seconds; ``match_id`` is set once started; ``message_id`` is the
    Discord message showing its buttons, once recorded."""

    id: int
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    seats: int
    options: dict[str, str]
    status: TableStatus
    created_at: float
    expires_at: float
    match_id: int | None
    message_id: int | None
    version: int
    players: tuple[TablePlayer, ...] = field(default=())

    @property
    def open(self) -> bool:
        return self.status == TableStatus.OPEN

    @property
    def full(self) -> bool:
        return len(self.players) >= self.seats

    @property
    def humans(self) -> list[int]:
        """The people at the table, in the order they came."""
        return [p.user_id for p in self.players if p.ai is None and p.user_id is not None]

    def seated(self, user_id: int) -> bool:
        return user_id in self.humans


def _table(row: Any, players: Sequence[Any]) -> Table:
    return Table(id=row["id"], game=row["game"], guild_id=row["guild_id"],
                 channel_id=row["channel_id"], host_id=row["host_id"], seats=row["seats"],
                 options=json.loads(row["options"]), status=TableStatus(row["status"]),
                 created_at=row["created_at"], expires_at=row["expires_at"],
                 match_id=row["match_id"], message_id=row["message_id"],
                 version=row["version"],
                 players=tuple(TablePlayer(p["position"], p["user_id"], p["ai"])
                               for p in players))


class TableStore:
    """Tables and their players in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, table_id: int) -> Table | None:
        """The table with that id, or None."""
        row = await self.db.fetchone("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        if row is None:
            return None
        players = await self.db.fetchall("SELECT * FROM table_players WHERE table_id = ? "
                                         "ORDER BY position", (table_id,))
        return _table(row, players)

    @staticmethod
    async def locked(tx: Transaction, table_id: int) -> Table | None:
        """The table, inside ``tx``, its row locked until ``tx`` ends (a no-op update: the
        row lock on PostgreSQL; SQLite's writers take turns anyway), so that two joins of
        the last seat take turns; None when there is no such table."""
        if not await tx.execute("UPDATE game_tables SET version = version WHERE id = ?",
                                (table_id,)):
            return None
        row = await tx.fetchone("SELECT * FROM game_tables WHERE id = ?", (table_id,))
        players = await tx.fetchall("SELECT * FROM table_players WHERE table_id = ? "
                                    "ORDER BY position", (table_id,))
        return _table(row, players)

    async def ids_expired(self, now: float) -> list[int]:
        """Open tables whose time is up at ``now``, earliest first."""
        rows = await self.db.fetchall("SELECT id FROM game_tables WHERE status = 'open' AND "
                                      "expires_at <= ? ORDER BY expires_at", (now,))
        return [r["id"] for r in rows]

    async def unposted(self, created_before: float) -> list[Table]:
        """Open tables created before ``created_before`` whose message was never recorded
        (the process stopped between saving and posting them), oldest first."""
        rows = await self.db.fetchall(
            "SELECT id FROM game_tables WHERE status = 'open' AND message_id IS NULL AND "
            "created_at < ? ORDER BY id", (created_before,))
        found = [await self.get(r["id"]) for r in rows]
        return [t for t in found if t is not None]

    async def next_expiry(self) -> float | None:
        """When the next open table expires, or None."""
        row = await self.db.fetchone("SELECT MIN(expires_at) FROM game_tables WHERE "
                                     "status = 'open'")
        return None if row is None or row[0] is None else float(row[0])

    @staticmethod
    async def open_of(tx: Transaction, host_id: int, now: float) -> int:
        """How many open tables ``host_id`` opened that are still open at ``now`` (inside
        ``tx``)."""
        row = await tx.fetchone("SELECT COUNT(*) AS n FROM game_tables WHERE status = 'open' "
                                "AND expires_at > ? AND host_id = ?", (now, host_id))
        return int(row["n"]) if row is not None else 0

    @staticmethod
    async def open_in(tx: Transaction, channel_id: int, host_id: int) -> int | None:
        """The host's open table in the channel, if any (the constraint
        ``game_tables_one_open`` allows one)."""
        row = await tx.fetchone("SELECT id FROM game_tables WHERE channel_id = ? AND "
                                "host_id = ? AND status = 'open'", (channel_id, host_id))
        return None if row is None else int(row["id"])

    @staticmethod
    async def insert(tx: Transaction, *, game: str, guild_id: int, channel_id: int,
                     host_id: int, seats: int, options: dict[str, str], now: float,
                     expires_at: float) -> int:
        """Insert an open table with its host seated; returns its id."""
        table_id = await tx.insert(
            "INSERT INTO game_tables (game, guild_id, channel_id, host_id, seats, options, "
            "status, created_at, expires_at, version) VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?, 0)",
            (game, guild_id, channel_id, host_id, seats, options_json(options), now,
             expires_at))
        await tx.execute("INSERT INTO table_players (table_id, position, user_id, ai, "
                         "joined_at) VALUES (?, 0, ?, NULL, ?)", (table_id, host_id, now))
        return table_id

    @staticmethod
    async def add_player(tx: Transaction, table: Table, user_id: int | None, ai: str | None,
                         now: float) -> None:
        """Seat a person (or the AI at level ``ai``) at the end of the table's list."""
        position = 1 + max((p.position for p in table.players), default=-1)
        await tx.execute("INSERT INTO table_players (table_id, position, user_id, ai, "
                         "joined_at) VALUES (?, ?, ?, ?, ?)",
                         (table.id, position, user_id, ai, now))
        await tx.execute("UPDATE game_tables SET version = version + 1 WHERE id = ?",
                         (table.id,))

    @staticmethod
    async def remove_player(tx: Transaction, table_id: int, position: int) -> None:
        """Take the one at ``position`` away from the table."""
        await tx.execute("DELETE FROM table_players WHERE table_id = ? AND position = ?",
                         (table_id, position))
        await tx.execute("UPDATE game_tables SET version = version + 1 WHERE id = ?",
                         (table_id,))

    @staticmethod
    async def close(tx: Transaction, table_id: int, status: TableStatus, *,
                    match_id: int | None = None, expired_at: float | None = None) -> int:
        """Move an open table to ``status`` (with the match it started); with
        ``expired_at``, only if its time is up then. Returns the rows changed (0 when it was
        no longer open)."""
        sql = "UPDATE game_tables SET status = ?, version = version + 1"
        params: list[object] = [status.value]
        if match_id is not None:
            sql += ", match_id = ?"
            params.append(match_id)
        sql += " WHERE id = ? AND status = 'open'"
        params.append(table_id)
        if expired_at is not None:
            sql += " AND expires_at <= ?"
            params.append(expired_at)
        return await tx.execute(sql, params)

    async def set_message(self, table_id: int, message_id: int) -> bool:
        """Record the message showing the table; False when there is no such table."""
        return bool(await self.db.write("UPDATE game_tables SET message_id = ? WHERE id = ?",
                                        (message_id, table_id)))
