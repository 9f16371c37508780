"""The SQL of challenges (table ``challenges`` of :mod:`bot.storage.schema`) and the mapping
of its rows to :class:`~bot.match.models.Challenge`. Queries only: the services decide.
"""

from __future__ import annotations

import json
from typing import Any

from ..storage import Database, Transaction
from .match_store import options_json
from .models import Challenge, ChallengeStatus


def challenge_from_row(r: Any) -> Challenge:
    """The :class:`Challenge` of a ``challenges`` row."""
    return Challenge(
        id=r["id"], game=r["game"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        challenger_id=r["challenger_id"], challenged_id=r["challenged_id"], seat=r["seat"],
        options=json.loads(r["options"]), status=ChallengeStatus(r["status"]),
        created_at=r["created_at"], expires_at=r["expires_at"], match_id=r["match_id"],
        rematch_of=r["rematch_of"], message_id=r["message_id"],
    )


class ChallengeStore:
    """Challenges in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, challenge_id: int) -> Challenge | None:
        """The challenge with that id, or None."""
        row = await self.db.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return None if row is None else challenge_from_row(row)

    async def pending_in_channel(self, channel_id: int) -> list[Challenge]:
        """Pending challenges in a channel, oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE channel_id = ? AND status = 'pending' ORDER BY id",
            (channel_id,))
        return [challenge_from_row(r) for r in rows]

    async def ids_expired(self, now: float) -> list[int]:
        """Pending challenges whose time is up at ``now``, earliest first."""
        rows = await self.db.fetchall("SELECT id FROM challenges WHERE status = 'pending' "
                                      "AND expires_at <= ? ORDER BY expires_at", (now,))
        return [r["id"] for r in rows]

    async def unposted(self, created_before: float) -> list[Challenge]:
        """Pending challenges created before ``created_before`` whose message was never
        recorded (the process stopped between saving and posting them), oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE status = 'pending' AND message_id IS NULL AND "
            "created_at < ? ORDER BY id", (created_before,))
        return [challenge_from_row(r) for r in rows]

    @staticmethod
    async def pending_of(tx: Transaction, channel_id: int, challenger_id: int
                         ) -> Challenge | None:
        """The challenger's pending challenge in the channel, if any (inside ``tx``: the
        constraint ``challenges_one_pending`` allows one)."""
        row = await tx.fetchone("SELECT * FROM challenges WHERE channel_id = ? AND "
                                "challenger_id = ? AND status = 'pending'",
                                (channel_id, challenger_id))
        return None if row is None else challenge_from_row(row)

    @staticmethod
    async def open_of(tx: Transaction, challenger_id: int, now: float) -> int:
        """How many pending challenges ``challenger_id`` sent that are still open at ``now``
        (not past their expiry), in any channel (inside ``tx``)."""
        row = await tx.fetchone("SELECT COUNT(*) AS n FROM challenges WHERE status = "
                                "'pending' AND expires_at > ? AND challenger_id = ?",
                                (now, challenger_id))
        return int(row["n"]) if row is not None else 0

    @staticmethod
    async def insert(tx: Transaction, *, game: str, guild_id: int, channel_id: int,
                     challenger_id: int, challenged_id: int, seat: int | None,
                     options: dict[str, str], now: float, expires_at: float,
                     rematch_of: int | None) -> int:
        """Insert a pending challenge; returns its id."""
        return await tx.insert(
            "INSERT INTO challenges (game, guild_id, channel_id, challenger_id, "
            "challenged_id, seat, options, status, created_at, expires_at, rematch_of) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)",
            (game, guild_id, channel_id, challenger_id, challenged_id, seat,
             options_json(options), now, expires_at, rematch_of))

    @staticmethod
    async def close(tx: Transaction, challenge_id: int, status: ChallengeStatus, *,
                    match_id: int | None = None, expired_at: float | None = None) -> int:
        """Move a pending challenge to ``status`` (with the match it started, once
        accepted); with ``expired_at``, only if its time is up then. Returns the rows
        changed (0 when it was no longer pending)."""
        sql = "UPDATE challenges SET status = ?"
        params: list[object] = [status.value]
        if match_id is not None:
            sql += ", match_id = ?"
            params.append(match_id)
        sql += " WHERE id = ? AND status = 'pending'"
        params.append(challenge_id)
        if expired_at is not None:
            sql += " AND expires_at <= ?"
            params.append(expired_at)
        return await tx.execute(sql, params)

    async def set_status(self, challenge_id: int, status: ChallengeStatus, *,
                         expired_at: float | None = None) -> bool:
        """:meth:`close` in a transaction of its own; whether the challenge was pending."""
        async with self.db.transaction() as tx:
            return bool(await self.close(tx, challenge_id, status, expired_at=expired_at))

    async def set_message(self, challenge_id: int, message_id: int) -> bool:
        """Record the message showing the challenge; False when there is no such
        challenge."""
        return bool(await self.db.write("UPDATE challenges SET message_id = ? WHERE id = ?",
                                        (message_id, challenge_id)))
