"""The bot's messages that carry a match's controls (table ``control_posts`` of
:mod:`bot.db`), kept so that they can be retired after a restart too. Queries only."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..db import INTEGRITY_ERRORS, Database
from ..match.models import NotFoundError


class PostKind(StrEnum):
    """What a recorded post carries."""

    TURN = "turn"  # the latest turn message: menus for one decision
    ROUND = "round"  # a round message (or the raptor's observation reminder): Pick your card
    DRAW = "draw"  # a draw offer with its answers


@dataclass(frozen=True)
class ControlPost:
    """A message of the bot that carries a match's controls. ``text`` is what is needed to
    retire it (the turn's heading, or the message's content)."""

    match_id: int
    kind: PostKind
    channel_id: int
    message_id: int
    text: str


class PostStore:
    """Control posts in one :class:`~bot.db.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def remember(self, match_id: int, kind: PostKind | str, channel_id: int,
                       message_id: int, text: str) -> None:
        """Record a message of the bot that carries the match's controls.

        Raises:
            ValueError: ``kind`` is not ``"turn"``, ``"round"`` or ``"draw"``.
            NotFoundError: no such match.
        """
        if kind not in tuple(PostKind):
            raise ValueError(f"kind must be 'turn', 'round' or 'draw', got {kind!r}")
        try:
            await self.db.write("INSERT INTO control_posts (message_id, match_id, kind, "
                                "channel_id, text) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
                                "(message_id) DO UPDATE SET match_id = excluded.match_id, "
                                "kind = excluded.kind, channel_id = excluded.channel_id, "
                                "text = excluded.text",
                                (message_id, match_id, str(kind), channel_id, text))
        except INTEGRITY_ERRORS:
            raise NotFoundError(f"There is no match #{match_id}.") from None

    async def take(self, match_id: int, kind: PostKind) -> list[ControlPost]:
        """Forget the match's recorded posts of ``kind`` and return them, oldest first, for
        the caller to retire; each post goes to one caller only."""
        # One DELETE ... RETURNING: of two callers at once, the second deletes (and gets)
        # nothing, on either database.
        async with self.db.transaction() as tx:
            rows = await tx.fetchall("DELETE FROM control_posts WHERE match_id = ? AND kind = ? "
                                     "RETURNING *", (match_id, str(kind)))
        return sorted((ControlPost(r["match_id"], PostKind(r["kind"]), r["channel_id"],
                                   r["message_id"], r["text"]) for r in rows),
                      key=lambda p: p.message_id)

    async def forget(self, message_id: int) -> bool:
        """Forget one recorded post (its caller deals with the message); True if it was
        still recorded, False if another caller took it first."""
        return bool(await self.db.write("DELETE FROM control_posts WHERE message_id = ?",
                                        (message_id,)))

    async def has(self, match_id: int, kind: PostKind) -> bool:
        """Whether a post of ``kind`` is recorded for the match."""
        return await self.db.fetchone("SELECT 1 FROM control_posts WHERE match_id = ? AND "
                                      "kind = ?", (match_id, str(kind))) is not None
