"""Claims on timed and AI work (columns ``claimed_by`` and ``claim_until`` of ``matches`` and
``challenges``, migration 4 of :mod:`bot.storage.schema`), so that with several processes on one
database each piece of work is done by one of them. Queries only.

A claim is a lease: the process ``owner`` holds the row until ``claim_until`` (Unix seconds).
Another process can take the row only once the lease has run out, so the work of a process
that died holding it is taken over after at most one lease. The owner itself may claim again
(renewing the lease). One conditional UPDATE claims, on SQLite and PostgreSQL alike (there a
second claimant waits for the first's row lock, then sees its lease).
"""

from __future__ import annotations

import os
import secrets
import socket
from enum import StrEnum

from ..storage import Database


class ClaimTarget(StrEnum):
    """The table of the claimed row."""

    MATCH = "matches"
    CHALLENGE = "challenges"


def process_owner() -> str:
    """A name for this process that no other process shares: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class ClaimStore:
    """Leases on match and challenge rows in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def claim(self, target: ClaimTarget, row_id: int, owner: str, now: float,
                    lease: float, *, renew: bool = True) -> bool:
        """Claim the row for ``owner`` until ``now + lease`` if it is free, its lease has run
        out, or ``owner`` holds it already (with ``renew=False``: not then, so that two
        tasks of one process do not both take the same work); whether this call claimed
        it."""
        mine = "claimed_by = ? OR " if renew else ""
        return bool(await self.db.write(
            f"UPDATE {ClaimTarget(target).value} SET claimed_by = ?, claim_until = ? "
            f"WHERE id = ? AND (claimed_by IS NULL OR {mine}claim_until <= ?)",
            (owner, now + lease, row_id, *((owner,) if renew else ()), now)))

    async def release(self, target: ClaimTarget, row_id: int, owner: str) -> None:
        """Give the row up, if ``owner`` still holds it."""
        await self.db.write(f"UPDATE {ClaimTarget(target).value} SET claimed_by = NULL, "
                            "claim_until = NULL WHERE id = ? AND claimed_by = ?",
                            (row_id, owner))

    async def holder(self, target: ClaimTarget, row_id: int) -> tuple[str, float] | None:
        """Who holds the row and until when, or None when nobody does."""
        row = await self.db.fetchone(f"SELECT claimed_by, claim_until FROM "
                                     f"{ClaimTarget(target).value} WHERE id = ?", (row_id,))
        if row is None or row["claimed_by"] is None:
            return None
        return row["claimed_by"], float(row["claim_until"])

    async def abandoned_ai_matches(self, now: float) -> list[int]:
        """Active matches with an AI seat whose claim ran out at ``now`` without being given
        up: the process playing their AI died. Oldest first."""
        rows = await self.db.fetchall(
            "SELECT id FROM matches m WHERE status = 'active' AND claimed_by IS NOT NULL AND "
            "claim_until <= ? AND EXISTS (SELECT 1 FROM match_players a WHERE "
            "a.match_id = m.id AND a.ai IS NOT NULL) ORDER BY id", (now,))
        return [r["id"] for r in rows]
