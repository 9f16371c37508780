"""The SQL of matches, their players and their action log (tables ``matches``,
``match_players`` and ``match_log`` of :mod:`bot.storage.schema`), and the mapping of their
rows to :class:`~bot.match.models.Match` and :class:`~bot.match.models.LogEntry`. Queries
only: the services decide. A match's state, options and actions are read and written by its
game (:mod:`bot.games`).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from engine.game import Seat

from .. import games
from ..storage import Database, Transaction
from .models import (
    LogEntry,
    LogKind,
    Match,
    MatchStatus,
    Player,
    parse_reason,
)

#: A match row with one row per player, seat order (``p_*`` columns), and the server's own
#: turn timeout.
_MATCH_SELECT = (
    "SELECT m.*, p.seat AS p_seat, p.user_id AS p_user, p.ai AS p_ai, p.place AS p_place, "
    "p.score AS p_score, p.left_reason AS p_left, p.rating_before AS p_before, "
    "p.rating_after AS p_after, g.turn_timeout AS guild_timeout FROM matches m "
    "JOIN match_players p ON p.match_id = m.id "
    "LEFT JOIN guild_settings g ON g.guild_id = m.guild_id")
_ORDER = " ORDER BY m.id, p.seat"


class StateCache:
    """Parsed states by match id, reused while the stored JSON text is the same (parsing is
    most of the CPU time of loading a match). Bounded, least recently used out. States are
    immutable by convention, so sharing one between callers is safe."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._items: OrderedDict[int, tuple[str, Any]] = OrderedDict()

    def parse(self, match_id: int, game: str, text: str) -> Any:
        hit = self._items.get(match_id)
        if hit is not None and hit[0] == text:
            self._items.move_to_end(match_id)
            return hit[1]
        state = games.plugin(game).game.state_from_json(text)
        self.put(match_id, text, state)
        return state

    def put(self, match_id: int, text: str, state: Any) -> None:
        self._items[match_id] = (text, state)
        self._items.move_to_end(match_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


def options_json(options: dict[str, str]) -> str:
    """The ``matches.options`` (and ``challenges.options``) text of ``options``."""
    return json.dumps(options, sort_keys=True)


def _player(r: Any) -> Player:
    return Player(r["p_seat"], r["p_user"], r["p_ai"], r["p_place"], r["p_score"],
                  parse_reason(r["p_left"]), r["p_before"], r["p_after"])


def matches_from_rows(rows: Sequence[Any], states: StateCache) -> list[Match]:
    """The matches of :data:`_MATCH_SELECT` rows (one row per player, grouped by match in
    order), their states parsed through ``states``."""
    out: list[Match] = []
    group: list[Any] = []
    for r in (*rows, None):
        if group and (r is None or r["id"] != group[0]["id"]):
            first = group[0]
            out.append(Match(
                id=first["id"], game=first["game"], guild_id=first["guild_id"],
                channel_id=first["channel_id"], players=tuple(_player(g) for g in group),
                seed=first["seed"], options=json.loads(first["options"]),
                status=MatchStatus(first["status"]),
                state=states.parse(first["id"], first["game"], first["state"]),
                version=first["version"], created_at=first["created_at"],
                updated_at=first["updated_at"], last_activity=first["last_activity"],
                deadline_at=first["deadline_at"], reminded=bool(first["reminded"]),
                reason=parse_reason(first["reason"]),
                draw_offered_by=first["draw_offered_by"], rematch_of=first["rematch_of"],
                remind_at=first["remind_at"], log_length=first["log_length"],
                end_announced_at=first["end_announced_at"], ai_failures=first["ai_failures"],
                ai_retry_at=first["ai_retry_at"]))
            group = []
        if r is not None:
            group.append(r)
    return out


class MatchStore:
    """Matches, their players and their action log in one :class:`~bot.storage.Database`.

    Every read builds its :class:`Match` from the stored rows; parsed states are kept in a
    :class:`StateCache` while their text is unchanged.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self.states = StateCache()

    async def _matches(self, where: str, params: Sequence[Any] = (), *,
                       order: str = _ORDER, limit: int | None = None) -> list[Match]:
        """The matches whose row passes ``where`` (on ``m``), in ``order``; at most
        ``limit`` of them (the match ids chosen first, then their players read)."""
        if limit is not None:
            where = (f"m.id IN (SELECT m.id FROM matches m WHERE {where} "
                     f"{order.replace(', p.seat', '')} LIMIT {int(limit)})")
        rows = await self.db.fetchall(f"{_MATCH_SELECT} WHERE {where}{order}", params)
        return matches_from_rows(rows, self.states)

    # ------------------------------------------------------------------ reads
    async def load(self, match_id: int) -> tuple[Match, float | None] | None:
        """The match and its server's own turn timeout (None if the server has none), or
        None when there is no such match."""
        rows = await self.db.fetchall(f"{_MATCH_SELECT} WHERE m.id = ?{_ORDER}", (match_id,))
        if not rows:
            return None
        timeout = rows[0]["guild_timeout"]
        return (matches_from_rows(rows, self.states)[0],
                None if timeout is None else float(timeout))

    async def get(self, match_id: int) -> Match | None:
        """The match with that id, or None."""
        loaded = await self.load(match_id)
        return None if loaded is None else loaded[0]

    async def active_in_channel(self, channel_id: int) -> Match | None:
        """The channel's active match, or None."""
        found = await self._matches("m.channel_id = ? AND m.status = 'active'", (channel_id,))
        return found[0] if found else None

    async def active(self, guild_id: int | None = None) -> list[Match]:
        """Every active match, or those of one server, oldest first."""
        if guild_id is None:
            return await self._matches("m.status = 'active'")
        return await self._matches("m.status = 'active' AND m.guild_id = ?", (guild_id,))

    async def active_with_ai(self) -> list[Match]:
        """Active matches with an AI seat, oldest first."""
        return await self._matches(
            "m.status = 'active' AND EXISTS (SELECT 1 FROM match_players a WHERE "
            "a.match_id = m.id AND a.ai IS NOT NULL)")

    async def last_finished(self, channel_id: int) -> Match | None:
        """The channel's most recently finished match, or None."""
        found = await self._matches("m.channel_id = ? AND m.status = 'finished'",
                                    (channel_id,), order=" ORDER BY m.updated_at DESC, "
                                    "m.id DESC, p.seat", limit=1)
        return found[0] if found else None

    async def newest_finished(self) -> Match | None:
        """The most recently finished match of the whole database, or None."""
        found = await self._matches("m.status = 'finished'", order=" ORDER BY "
                                    "m.updated_at DESC, m.id DESC, p.seat", limit=1)
        return found[0] if found else None

    async def finished_of(self, guild_id: int, user_id: int, limit: int,
                          game: str | None = None) -> list[Match]:
        """The user's finished matches in the server (of ``game``, or of every game),
        newest first."""
        where = ("m.guild_id = ? AND m.status = 'finished' AND EXISTS (SELECT 1 FROM "
                 "match_players u WHERE u.match_id = m.id AND u.user_id = ?)")
        params: list[Any] = [guild_id, user_id]
        if game is not None:
            where += " AND m.game = ?"
            params.append(game)
        return await self._matches(where, params, order=" ORDER BY m.updated_at DESC, "
                                   "m.id DESC, p.seat", limit=limit)

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
        return await self._matches(
            "m.status = 'active' AND m.ai_retry_at <= ? AND m.ai_failures < ? AND "
            "(m.claimed_by IS NULL OR m.claim_until <= ?)", (now, limit, now),
            order=" ORDER BY m.ai_retry_at, m.id, p.seat")

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

    async def last_seat(self, match_id: int) -> Seat | None:
        """The seat of the match's last log record, or None (no record, no match)."""
        row = await self.db.fetchone("SELECT last_seat FROM matches WHERE id = ?", (match_id,))
        return None if row is None or row["last_seat"] is None else int(row["last_seat"])

    async def log(self, match: Match) -> list[LogEntry]:
        """Every log record of ``match``, undo and forfeit records included, in order (a
        forfeit's action is None)."""
        rows = await self.db.fetchall("SELECT seq, seat, kind, action, created_at FROM "
                                      "match_log WHERE match_id = ? ORDER BY seq", (match.id,))
        game = games.plugin(match.game).game
        return [LogEntry(r["seq"], int(r["seat"]), LogKind(r["kind"]),
                         None if r["kind"] == LogKind.FORFEIT
                         else game.action_from_json(r["action"]), r["created_at"])
                for r in rows]

    # ------------------------------------------------------------------ writes
    async def move(self, match_id: int, channel_id: int) -> bool:
        """Move an active match to another channel (its thread); False if it is not active
        any more.

        Raises:
            IntegrityViolation: that channel holds an active match already.
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
        any server and game (inside ``tx``, so that the count holds until it commits)."""
        row = await tx.fetchone(
            "SELECT COUNT(*) AS n FROM matches m WHERE m.status = 'active' AND EXISTS "
            "(SELECT 1 FROM match_players h WHERE h.match_id = m.id AND h.user_id = ? AND "
            "h.ai IS NULL) AND EXISTS (SELECT 1 FROM match_players a WHERE "
            "a.match_id = m.id AND a.ai IS NOT NULL)", (user_id,))
        return int(row["n"]) if row is not None else 0

    @staticmethod
    async def insert(tx: Transaction, *, game: str, guild_id: int, channel_id: int,
                     players: Sequence[Player], seed: int, options: dict[str, str],
                     state_text: str, now: float, deadline: float | None,
                     remind: float | None, rematch_of: int | None) -> int:
        """Insert a new active match at version 0 and its players; returns its id."""
        match_id = await tx.insert(
            "INSERT INTO matches (game, guild_id, channel_id, seats, seed, options, status, "
            "state, version, log_length, created_at, updated_at, last_activity, deadline_at, "
            "remind_at, reminded, rematch_of) VALUES (?, ?, ?, ?, ?, ?, 'active', ?, 0, 0, "
            "?, ?, ?, ?, ?, 0, ?)",
            (game, guild_id, channel_id, len(players), seed, options_json(options),
             state_text, now, now, now, deadline, remind, rematch_of))
        await tx.executemany(
            "INSERT INTO match_players (match_id, seat, user_id, ai) VALUES (?, ?, ?, ?)",
            [(match_id, p.seat, p.user_id, p.ai) for p in players])
        return match_id

    @staticmethod
    def step_update(m: Match, seat: Seat, kind: LogKind, action_text: str, text: str,
                    now: float, deadline: float | None, remind: float | None,
                    keep_reminder: bool, status: MatchStatus,
                    reason: str | None) -> tuple[str, tuple[Any, ...]]:
        """The statement that saves a step: the versioned UPDATE of the match row, whose
        ``log_length + 1`` and ``last_*`` columns make a trigger append the log record
        (:mod:`bot.storage.schema`). It changes one row if ``m.version`` is still the
        stored one."""
        return (
            "UPDATE matches SET state = ?, version = version + 1, "
            "log_length = log_length + 1, last_seat = ?, last_kind = ?, last_action = ?, "
            "last_action_at = ?, updated_at = ?, last_activity = ?, deadline_at = ?, "
            "remind_at = ?, reminded = ?, draw_offered_by = NULL, status = ?, "
            "reason = ? WHERE id = ? AND version = ? AND status = 'active'",
            (text, seat, kind.value, action_text, now, now, now, deadline, remind,
             int(keep_reminder), status.value, reason, m.id, m.version))

    @staticmethod
    async def set_left(tx: Transaction, match_id: int, seat: Seat, reason: str) -> None:
        """Record that ``seat`` left the match (an :class:`EndReason` word) while the game
        went on."""
        await tx.execute("UPDATE match_players SET left_reason = ? WHERE match_id = ? AND "
                         "seat = ?", (reason, match_id, seat))

    @staticmethod
    async def set_places(tx: Transaction, match_id: int, places: Sequence[int | None],
                         scores: Sequence[float | None] | None) -> None:
        """Record each seat's final place (and score) of the finished match."""
        await tx.executemany(
            "UPDATE match_players SET place = ?, score = ? WHERE match_id = ? AND seat = ?",
            [(place, None if scores is None else scores[seat], match_id, seat)
             for seat, place in enumerate(places)])

    @staticmethod
    async def finish(tx: Transaction, match_id: int, reason: str, now: float,
                     where: str = "", params: tuple[Any, ...] = ()) -> int:
        """Mark an active match finished (version + 1, no deadline, no draw offer), if the
        extra conditions ``where``/``params`` hold; returns the rows changed (0 or 1)."""
        return await tx.execute(
            "UPDATE matches SET status = 'finished', reason = ?, "
            "version = version + 1, updated_at = ?, deadline_at = NULL, remind_at = NULL, "
            "draw_offered_by = NULL WHERE id = ? AND status = 'active'" + where,
            (reason, now, match_id, *params))

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
