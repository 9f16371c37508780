"""The bot's messages that carry a match's controls (table ``control_posts`` of
:mod:`bot.storage.schema`), kept so that they can be retired after a restart too; a player's private
messages of a match that carry controls (``private_posts``: DM hands), and the notices a
player was given once per match (``match_notices``). Queries only."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..match.models import NotFoundError
from ..storage import Database, IntegrityViolation


class Notice(StrEnum):
    """Something a player is told at most once per match (``match_notices``)."""

    DM_FAILED = "dm_failed"  # a DM of this match to the player failed (their DMs are closed)
    DM_CLOSED_TOLD = "dm_closed_told"  # the player was told that their DMs are closed


class PostKind(StrEnum):
    """What a recorded post carries."""

    TURN = "turn"  # the latest turn message: menus for one decision
    ROUND = "round"  # a round message (or the raptor's observation reminder): Pick your card
    DRAW = "draw"  # a draw offer with its answers
    CARD = "card"  # the match's live card (bot.discord.card); text: its round number
    LINE = "line"  # the match's line in the parent channel of its thread; text: that line


@dataclass(frozen=True)
class ControlPost:
    """A message of the bot that carries a match's controls. ``text`` is what is needed to
    retire it (the turn's heading, or the message's content)."""

    match_id: int
    kind: PostKind
    channel_id: int
    message_id: int
    text: str


@dataclass(frozen=True)
class PrivatePost:
    """A private message of the bot to one player of a match (a DM hand) that carries
    controls: ``channel_id`` is the DM channel; ``text`` what is needed to retire it (its
    heading)."""

    match_id: int
    user_id: int
    channel_id: int
    message_id: int
    text: str


class PostStore:
    """Control posts in one :class:`~bot.storage.Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def remember(self, match_id: int, kind: PostKind | str, channel_id: int,
                       message_id: int, text: str) -> None:
        """Record a message of the bot that carries the match's controls.

        Raises:
            ValueError: ``kind`` is not a :class:`PostKind`.
            NotFoundError: no such match.
        """
        if kind not in tuple(PostKind):
            raise ValueError(f"kind must be one of {', '.join(map(repr, map(str, PostKind)))}, "
                             f"got {kind!r}")
        try:
            await self.db.write("INSERT INTO control_posts (message_id, match_id, kind, "
                                "channel_id, text) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
                                "(message_id) DO UPDATE SET match_id = excluded.match_id, "
                                "kind = excluded.kind, channel_id = excluded.channel_id, "
                                "text = excluded.text",
                                (message_id, match_id, str(kind), channel_id, text))
        except IntegrityViolation:
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

    async def get(self, match_id: int, kind: PostKind) -> list[ControlPost]:
        """The match's recorded posts of ``kind``, oldest first (kept recorded)."""
        rows = await self.db.fetchall("SELECT * FROM control_posts WHERE match_id = ? AND "
                                      "kind = ? ORDER BY message_id", (match_id, str(kind)))
        return [ControlPost(r["match_id"], PostKind(r["kind"]), r["channel_id"],
                            r["message_id"], r["text"]) for r in rows]

    async def post(self, message_id: int) -> ControlPost | None:
        """The recorded post that is message ``message_id``, or None."""
        row = await self.db.fetchone("SELECT * FROM control_posts WHERE message_id = ?",
                                     (message_id,))
        if row is None:
            return None
        return ControlPost(row["match_id"], PostKind(row["kind"]), row["channel_id"],
                           row["message_id"], row["text"])

    async def forget(self, message_id: int) -> bool:
        """Forget one recorded post (its caller deals with the message); True if it was
        still recorded, False if another caller took it first."""
        return bool(await self.db.write("DELETE FROM control_posts WHERE message_id = ?",
                                        (message_id,)))

    async def has(self, match_id: int, kind: PostKind) -> bool:
        """Whether a post of ``kind`` is recorded for the match."""
        return await self.db.fetchone("SELECT 1 FROM control_posts WHERE match_id = ? AND "
                                      "kind = ?", (match_id, str(kind))) is not None

    async def latest(self, match_id: int, kinds: tuple[PostKind, ...]) -> ControlPost | None:
        """The match's newest recorded post of one of ``kinds``, preferring the kinds in the
        order given (the first kind with a post wins), or None."""
        for kind in kinds:
            row = await self.db.fetchone("SELECT * FROM control_posts WHERE match_id = ? AND "
                                         "kind = ? ORDER BY message_id DESC LIMIT 1",
                                         (match_id, str(kind)))
            if row is not None:
                return ControlPost(row["match_id"], PostKind(row["kind"]), row["channel_id"],
                                   row["message_id"], row["text"])
        return None

    # ------------------------------------------------------------------ private posts
    async def remember_private(self, match_id: int, user_id: int, channel_id: int,
                               message_id: int, text: str) -> None:
        """Record a private message with controls sent to ``user_id`` about the match.

        Raises:
            NotFoundError: no such match.
        """
        try:
            await self.db.write("INSERT INTO private_posts (message_id, match_id, user_id, "
                                "channel_id, text) VALUES (?, ?, ?, ?, ?) ON CONFLICT "
                                "(message_id) DO UPDATE SET match_id = excluded.match_id, "
                                "user_id = excluded.user_id, channel_id = excluded.channel_id, "
                                "text = excluded.text",
                                (message_id, match_id, user_id, channel_id, text))
        except IntegrityViolation:
            raise NotFoundError(f"There is no match #{match_id}.") from None

    async def take_private(self, match_id: int, user_id: int | None = None
                           ) -> list[PrivatePost]:
        """Forget the match's recorded private posts (of ``user_id``, or of everyone) and
        return them, oldest first, for the caller to retire; each goes to one caller only."""
        where, args = "match_id = ?", (match_id,)
        if user_id is not None:
            where, args = "match_id = ? AND user_id = ?", (match_id, user_id)
        # one DELETE ... RETURNING, as in take(): of two callers at once, one gets them
        async with self.db.transaction() as tx:
            rows = await tx.fetchall(f"DELETE FROM private_posts WHERE {where} RETURNING *",
                                     args)
        return sorted((PrivatePost(r["match_id"], r["user_id"], r["channel_id"],
                                   r["message_id"], r["text"]) for r in rows),
                      key=lambda p: p.message_id)

    async def private_post(self, message_id: int) -> PrivatePost | None:
        """The recorded private post that is message ``message_id``, or None."""
        row = await self.db.fetchone("SELECT * FROM private_posts WHERE message_id = ?",
                                     (message_id,))
        if row is None:
            return None
        return PrivatePost(row["match_id"], row["user_id"], row["channel_id"],
                           row["message_id"], row["text"])

    async def forget_private(self, message_id: int) -> bool:
        """Forget one recorded private post (its caller deals with the message); True if it
        was still recorded."""
        return bool(await self.db.write("DELETE FROM private_posts WHERE message_id = ?",
                                        (message_id,)))

    # ------------------------------------------------------------------ notices
    async def note(self, match_id: int, user_id: int, notice: Notice) -> bool:
        """Record that ``notice`` holds for the player in the match; True if it is new."""
        return bool(await self.db.write("INSERT INTO match_notices (match_id, user_id, "
                                        "notice) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                                        (match_id, user_id, str(notice))))

    async def noted(self, match_id: int, user_id: int, notice: Notice) -> bool:
        """Whether ``notice`` was recorded for the player in the match."""
        return await self.db.fetchone("SELECT 1 FROM match_notices WHERE match_id = ? AND "
                                      "user_id = ? AND notice = ?",
                                      (match_id, user_id, str(notice))) is not None

    async def unnote(self, match_id: int, user_id: int, notice: Notice) -> None:
        """Drop ``notice`` for the player in the match (no error if it was not recorded)."""
        await self.db.write("DELETE FROM match_notices WHERE match_id = ? AND user_id = ? "
                            "AND notice = ?", (match_id, user_id, str(notice)))
