"""The SQL of matches and their action log (tables ``matches`` and ``match_log`` of
:mod:`bot.storage.schema`), and the mapping of their rows to :class:`~bot.match.models.Match` and
:class:`~bot.match.models.LogEntry`. Queries only: the services decide.
"""

from __future__ import annotations

import json
import sqlite3
from collections import OrderedDict
from typing import Any

import engine
from engine import Action, GameState, Options, Side

from ..storage import Database, Transaction
from .models import (
    RAPTOR,
    SCIENTIST,
    LogEntry,
    LogKind,
    Match,
    MatchStatus,
    parse_reason,
)

_MATCH_SELECT = ("SELECT m.*, g.turn_timeout AS guild_timeout FROM matches m "
                 "LEFT JOIN guild_settings g ON g.guild_id = m.guild_id")


class StateCache:
    """Parsed states by match id, reused while the stored JSON text is the same (parsing is
    most of the CPU time of loading a match). Bounded, least recently used out. States are
    immutable by convention, so sharing one between callers is safe."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[str, GameState]] = OrderedDict()

    def parse(self, match_id: int, text: str) -> GameState:
        hit = self._items.get(match_id)
        if hit is not None and hit[0] == text:
            self._items.move_to_end(match_id)
            return hit[1]
        state = GameState.from_json(text)
        self.put(match_id, text, state)
        return state

    def put(self, match_id: int, text: str, state: GameState) -> None:
        self._items[match_id] = (text, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


def options_json(options: Options) -> str:
    """The ``matches.options`` text of ``options``."""
    return json.dumps({"environment": options.environment, "layout": options.layout,
                       "setup": options.setup}, sort_keys=True)


def match_from_row(r: sqlite3.Row, states: StateCache | None = None) -> Match:
    """The :class:`Match` of a ``matches`` row (parsed states shared through ``states``)."""
    opts = json.loads(r["options"])
    return Match(
        id=r["id"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        players={RAPTOR: r["raptor_user_id"], SCIENTIST: r["scientist_user_id"]},
        ai={RAPTOR: r["raptor_ai"], SCIENTIST: r["scientist_ai"]},
        seed=r["seed"], options=Options(opts["environment"], opts["layout"], opts["setup"]),
        status=MatchStatus(r["status"]),
        state=(states.parse(r["id"], r["state"]) if states is not None
               else GameState.from_json(r["state"])),
        version=r["version"],
        created_at=r["created_at"], updated_at=r["updated_at"],
        last_activity=r["last_activity"], deadline_at=r["deadline_at"],
        reminded=bool(r["reminded"]), result=r["result"], reason=parse_reason(r["reason"]),
        draw_offered_by=r["draw_offered_by"], rematch_of=r["rematch_of"],
        remind_at=r["remind_at"], log_length=r["log_length"],
        end_announced_at=r["end_announced_at"], ai_failures=r["ai_failures"],
        ai_retry_at=r["ai_retry_at"],
    )


class MatchStore:
    """Matches and their action log in one :class:`~bot.storage.Database`.

    Every read builds its :class:`Match` from the stored row; parsed states are kept in a
    :class:`StateCache` while their text is unchanged.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.states = StateCache()

    # ------------------------------------------------------------------ reads
    async def load(self, match_id: int) -> tuple[Match, float | None] | None:
        """The match and its server's own turn timeout (None if the server has none), or
        None when there is no such match."""
        row = await self.db.fetchone(_MATCH_SELECT + " WHERE m.id = ?", (match_id,))
        if row is None:
            return None
        timeout = row["guild_timeout"]
        return match_from_row(row, self.states), None if timeout is None else float(timeout)

    async def get(self, match_id: int) -> Match | None:
        """The match with that id, or None."""
        loaded = await self.load(match_id)
        return None if loaded is None else loaded[0]

    async def active_in_channel(self, channel_id: int) -> Match | None:
        """The channel's active match, or None."""
        row = await self.db.fetchone("SELECT * FROM matches WHERE channel_id = ? AND "
                                     "status = 'active'", (channel_id,))
        return None if row is None else match_from_row(row, self.states)

    async def active(self, guild_id: int | None = None) -> list[Match]:
        """Every active match, or those of one server, oldest first."""
        if guild_id is None:
            rows = await self.db.fetchall("SELECT * FROM matches WHERE status = 'active' "
                                          "ORDER BY id")
        else:
            rows = await self.db.fetchall("SELECT * FROM matches WHERE status = 'active' "
                                          "AND guild_id = ? ORDER BY id", (guild_id,))
        return [match_from_row(r, self.states) for r in rows]

    async def active_with_ai(self) -> list[Match]:
        """Active matches with an AI side, oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE status = 'active' AND "
            "(raptor_ai IS NOT NULL OR scientist_ai IS NOT NULL) ORDER BY id")
        return [match_from_row(r, self.states) for r in rows]

    async def last_finished(self, channel_id: int) -> Match | None:
        """The channel's most recently finished match, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM matches WHERE channel_id = ? AND status = 'finished' "
            "ORDER BY updated_at DESC, id DESC LIMIT 1", (channel_id,))
        return None if row is None else match_from_row(row, self.states)

    async def newest_finished(self) -> Match | None:
        """The most recently finished match of the whole database, or None."""
        row = await self.db.fetchone(
            "SELECT * FROM matches WHERE status = 'finished' "
            "ORDER BY updated_at DESC, id DESC LIMIT 1")
        return None if row is None else match_from_row(row, self.states)

    async def finished_of(self, guild_id: int, user_id: int, limit: int) -> list[Match]:
        """The user's finished matches in the server, newest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE guild_id = ? AND status = 'finished' AND "
            "(raptor_user_id = ? OR scientist_user_id = ?) ORDER BY updated_at DESC, id DESC "
            "LIMIT ?", (guild_id, user_id, user_id, limit))
        return [match_from_row(r, self.states) for r in rows]

    async def ids_past_deadline(self, now: float) -> list[int]:
        """Active matches whose deadline is at or before ``now``, earliest first."""
        rows = await self.db.fetchall("SELECT id FROM matches WHERE status = 'active' AND "
                                      "deadline_at <= ? ORDER BY deadline_at", (now,))
        return [r["id"] for r in rows]

    async def ids_to_remind(self, now: float) -> list[int]:
        """Active, not yet reminded matches whose reminder is due at ``now``."""
        rows = await self.db.fetchall("SELECT id FROM matches WHERE status = 'active' AND "
                                      "reminded = 0 AND remind_at <= ? ORDER BY remind_at",
                                      (now,))
        return [r["id"] for r in rows]

    async def ids_unannounced(self, ended_before: float) -> list[int]:
        """Finished matches whose end was not announced yet (``end_announced_at`` NULL) and
        that ended at or before ``ended_before`` (their ``updated_at``, which a finished
        match keeps from its end), earliest end first."""
        rows = await self.db.fetchall("SELECT id FROM matches WHERE status = 'finished' AND "
                                      "end_announced_at IS NULL AND updated_at <= ? "
                                      "ORDER BY updated_at, id", (ended_before,))
        return [r["id"] for r in rows]

    async def next_unannounced_end(self, after: float) -> float | None:
        """The earliest end (``updated_at``) after ``after`` of a finished match whose end was
        not announced yet, or None (see :meth:`ids_unannounced`)."""
        row = await self.db.fetchone("SELECT MIN(updated_at) FROM matches WHERE status = "
                                     "'finished' AND end_announced_at IS NULL AND "
                                     "updated_at > ?", (after,))
        return None if row is None or row[0] is None else float(row[0])

    async def ai_retries_due(self, now: float, limit: int) -> list[Match]:
        """Active matches whose AI is due to be tried again at ``now``, after fewer than
        ``limit`` failures in a row, and that no live process claims (one whose claim ran
        out is taken over), earliest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM matches WHERE status = 'active' AND ai_retry_at <= ? AND "
            "ai_failures < ? AND (claimed_by IS NULL OR claim_until <= ?) "
            "ORDER BY ai_retry_at, id", (now, limit, now))
        return [match_from_row(r, self.states) for r in rows]

    async def ids_ai_failed(self, now: float, limit: int) -> list[int]:
        """Active matches whose AI failed ``limit`` times in a row or more, due to be ended
        at ``now``, earliest first."""
        rows = await self.db.fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND ai_retry_at <= ? AND "
            "ai_failures >= ? ORDER BY ai_retry_at, id", (now, limit))
        return [r["id"] for r in rows]

    async def next_timer_at(self) -> float | None:
        """The earliest pending challenge expiry, match deadline, reminder or retry of the
        AI, or None."""
        row = await self.db.fetchone(
            "SELECT MIN(t) FROM ("
            "SELECT MIN(expires_at) AS t FROM challenges WHERE status = 'pending' "
            "UNION ALL SELECT MIN(deadline_at) FROM matches WHERE status = 'active' "
            "UNION ALL SELECT MIN(remind_at) FROM matches WHERE status = 'active' "
            "AND reminded = 0 "
            "UNION ALL SELECT MIN(ai_retry_at) FROM matches WHERE status = 'active'"
            ") AS timers")
        return None if row is None or row[0] is None else float(row[0])

    async def last_side(self, match_id: int) -> Side | None:
        """The side of the match's last log record, or None (no record, no match)."""
        row = await self.db.fetchone("SELECT last_side FROM matches WHERE id = ?", (match_id,))
        return None if row is None or row["last_side"] is None else Side(row["last_side"])

    async def log(self, match_id: int) -> list[LogEntry]:
        """Every log record of the match, undo records included, in order."""
        rows = await self.db.fetchall("SELECT seq, side, kind, action, created_at FROM "
                                      "match_log WHERE match_id = ? ORDER BY seq", (match_id,))
        return [LogEntry(r["seq"], Side(r["side"]), LogKind(r["kind"]),
                         engine.action_from_dict(json.loads(r["action"])), r["created_at"])
                for r in rows]

    # ------------------------------------------------------------------ writes
    async def move(self, match_id: int, channel_id: int) -> bool:
        """Move an active match to another channel (its thread); False if it is not active
        any more.

        Raises:
            IntegrityError: that channel holds an active match already (one of
                :class:`bot.storage.IntegrityViolation`).
        """
        return bool(await self.db.write("UPDATE matches SET channel_id = ? WHERE id = ? AND "
                                        "status = 'active'", (channel_id, match_id)))

    @staticmethod
    async def channel_has_active(tx: Transaction, channel_id: int) -> bool:
        """Whether the channel holds an active match (inside ``tx``, so that the answer
        holds until it commits: the constraint ``matches_one_active_per_channel``)."""
        return await tx.fetchone("SELECT 1 FROM matches WHERE channel_id = ? AND "
                                 "status = 'active'", (channel_id,)) is not None

    @staticmethod
    async def practices_of(tx: Transaction, user_id: int) -> int:
        """How many practice matches (a person against the AI) ``user_id`` plays in now, in
        any server (inside ``tx``, so that the count holds until it commits)."""
        row = await tx.fetchone(
            "SELECT COUNT(*) AS n FROM matches WHERE status = 'active' AND ("
            "(raptor_user_id = ? AND raptor_ai IS NULL AND scientist_ai IS NOT NULL) OR "
            "(scientist_user_id = ? AND scientist_ai IS NULL AND raptor_ai IS NOT NULL))",
            (user_id, user_id))
        return int(row["n"]) if row is not None else 0

    @staticmethod
    async def insert(tx: Transaction, *, guild_id: int, channel_id: int,
                     players: dict[Side, int], ai: dict[Side, str | None], seed: int,
                     state: GameState, now: float, deadline: float | None,
                     remind: float | None, rematch_of: int | None) -> int:
        """Insert a new active match at version 0; returns its id."""
        return await tx.insert(
            "INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
            "scientist_user_id, raptor_ai, scientist_ai, seed, options, status, state, "
            "version, log_length, created_at, updated_at, last_activity, deadline_at, "
            "remind_at, reminded, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', "
            "?, 0, 0, ?, ?, ?, ?, ?, 0, ?)",
            (guild_id, channel_id, players[RAPTOR], players[SCIENTIST], ai[RAPTOR],
             ai[SCIENTIST], seed, options_json(state.options), state.to_json(), now,
             now, now, deadline, remind, rematch_of))

    @staticmethod
    def step_update(m: Match, side: Side, kind: LogKind, action: Action, text: str,
                    now: float, deadline: float | None, remind: float | None,
                    keep_reminder: bool, status: MatchStatus, result: str | None,
                    reason: str | None) -> tuple[str, tuple[Any, ...]]:
        """The statement that saves a step: the versioned UPDATE of the match row, whose
        ``log_length + 1`` and ``last_*`` columns make a trigger append the log record
        (:mod:`bot.storage.schema`). It changes one row if ``m.version`` is still the stored one."""
        return (
            "UPDATE matches SET state = ?, version = version + 1, "
            "log_length = log_length + 1, last_side = ?, last_kind = ?, last_action = ?, "
            "last_action_at = ?, updated_at = ?, last_activity = ?, deadline_at = ?, "
            "remind_at = ?, reminded = ?, draw_offered_by = NULL, status = ?, result = ?, "
            "reason = ? WHERE id = ? AND version = ? AND status = 'active'",
            (text, side.value, kind.value, json.dumps(action.to_dict()), now, now, now,
             deadline, remind, int(keep_reminder), status.value, result, reason, m.id,
             m.version))

    @staticmethod
    async def finish(tx: Transaction, match_id: int, result: str | None, reason: str,
                     now: float, where: str = "", params: tuple[Any, ...] = ()) -> int:
        """Mark an active match finished (version + 1, no deadline, no draw offer), if the
        extra conditions ``where``/``params`` hold; returns the rows changed (0 or 1)."""
        return await tx.execute(
            "UPDATE matches SET status = 'finished', result = ?, reason = ?, "
            "version = version + 1, updated_at = ?, deadline_at = NULL, remind_at = NULL, "
            "draw_offered_by = NULL WHERE id = ? AND status = 'active'" + where,
            (result, reason, now, match_id, *params))

    @staticmethod
    async def status(tx: Transaction, match_id: int) -> MatchStatus:
        """The stored status of an existing match (inside ``tx``)."""
        row = await tx.fetchone("SELECT status FROM matches WHERE id = ?", (match_id,))
        return MatchStatus(row["status"])

    async def mark_reminded(self, match_id: int, version: int) -> bool:
        """Flag the match's reminder as sent, if it is still active at ``version`` and not
        yet reminded; whether this call flagged it."""
        async with self.db.transaction() as tx:
            n = await tx.execute("UPDATE matches SET reminded = 1 WHERE id = ? AND "
                                 "version = ? AND reminded = 0 AND status = 'active'",
                                 (match_id, version))
        return bool(n)

    async def set_ai_failures(self, match_id: int, failures: int, retry_at: float) -> None:
        """Record that the AI of the active match failed ``failures`` times in a row and is
        tried again (or, past the limit, the match ended) at ``retry_at``."""
        await self.db.write("UPDATE matches SET ai_failures = ?, ai_retry_at = ? WHERE id = ? "
                            "AND status = 'active'", (failures, retry_at, match_id))

    async def clear_ai_failures(self, match_id: int) -> None:
        """Forget the AI's failures and its pending retry (it made its decision, or owes
        none)."""
        await self.db.write("UPDATE matches SET ai_failures = 0, ai_retry_at = NULL WHERE "
                            "id = ? AND (ai_failures <> 0 OR ai_retry_at IS NOT NULL)",
                            (match_id,))

    async def mark_announced(self, match_id: int, now: float) -> bool:
        """Record that the end of the finished match was announced at ``now``, unless it was
        already; whether this call recorded it."""
        return bool(await self.db.write(
            "UPDATE matches SET end_announced_at = ? WHERE id = ? AND status = 'finished' "
            "AND end_announced_at IS NULL", (now, match_id)))

    async def offer_draw(self, match_id: int, user_id: int, now: float) -> bool:
        """Record ``user_id``'s draw offer if none stands in the active match; whether it
        was recorded."""
        async with self.db.transaction() as tx:
            n = await tx.execute("UPDATE matches SET draw_offered_by = ?, updated_at = ? "
                                 "WHERE id = ? AND status = 'active' AND draw_offered_by IS "
                                 "NULL", (user_id, now, match_id))
        return bool(n)

    async def clear_draw_offer(self, match_id: int, offerer: int, now: float) -> None:
        """Forget the draw offer of ``offerer`` (if it still stands)."""
        async with self.db.transaction() as tx:
            await tx.execute("UPDATE matches SET draw_offered_by = NULL, updated_at = ? WHERE "
                             "id = ? AND draw_offered_by = ?", (now, match_id, offerer))
