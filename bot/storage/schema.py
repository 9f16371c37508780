"""The bot's database schema, shared by both backends (:mod:`bot.storage.db`, SQLite, and
:mod:`bot.storage.pg`, PostgreSQL): the ordered, described migrations.

A new schema step goes at the end of :data:`MIGRATIONS`, in portable SQL written as SQLite
reads it (``INTEGER``, ``REAL``, ``TEXT``; :func:`bot.storage.pg.postgres_ddl` gives PostgreSQL
its types); only a statement the two cannot share (a trigger) is a :class:`PerDialect` pair.

Schema versions: :data:`MIGRATIONS` is an ordered list of described steps; the version of an
SQLite file is its ``PRAGMA user_version`` (0 for a new file), of a PostgreSQL database the
row of ``raptor_schema``. Opening a database applies the missing steps, each in its own
transaction together with the new version, and refuses a database whose version is newer
than this code knows (:class:`bot.storage.DatabaseTooNewError`).

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
- ``game_tables`` and ``table_players`` (migration 11): lobbies (tables) by channel and host,
  at most one open table per host per channel (UNIQUE partial index), and who sits at each
  (a person or an AI level) in the order they came.
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

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Transaction

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Migration", "PerDialect"]


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
    :func:`bot.storage.pg.postgres_ddl` (``INTEGER`` becomes ``BIGINT``, ``REAL`` ``DOUBLE
    PRECISION``, ``id INTEGER PRIMARY KEY`` an identity column, ``WITHOUT ROWID`` is
    dropped). A :class:`PerDialect` gives each database its own text.

    ``rebuilds``: the step rebuilds tables that others reference (SQLite's way to drop a
    column with a constraint: a new table, the rows copied, the old one dropped, the new one
    renamed), so SQLite runs it with foreign keys off and checks them all before it commits.
    ``then``: a computation in Python after the statements, in the same transaction (what
    SQL alone cannot derive, e.g. ratings from the results).
    """

    version: int
    description: str
    statements: tuple[str | PerDialect, ...]
    rebuilds: bool = False
    then: Callable[[Transaction], Awaitable[None]] | None = None

    def sqlite_statements(self) -> list[str]:
        """The step's statements as SQLite runs them."""
        return [s.sqlite if isinstance(s, PerDialect) else s for s in self.statements
                if not isinstance(s, PerDialect) or s.sqlite.strip()]


# --- migration 10: seats. The two sides of Raptor become seats 0 (the raptor) and 1 (the
# scientist), as engine.raptor_game numbers them.
_SIDE_SEAT = "CASE {col} WHEN 'raptor' THEN 0 WHEN 'scientist' THEN 1 END"

_MATCHES_LOG_TRIGGERS = (
    PerDialect(sqlite="""
    CREATE TRIGGER matches_log_grows_by_one BEFORE UPDATE OF log_length ON matches
    WHEN NEW.log_length <> OLD.log_length
    BEGIN
        SELECT RAISE(ABORT, 'log_length grows by one, with the record in last_*')
        WHERE NEW.log_length <> OLD.log_length + 1 OR NEW.last_seat IS NULL
           OR NEW.last_kind IS NULL OR NEW.last_action IS NULL
           OR NEW.last_action_at IS NULL;
    END
    """, postgres="""
    CREATE OR REPLACE FUNCTION matches_log_grows_by_one() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.log_length <> OLD.log_length + 1 OR NEW.last_seat IS NULL
           OR NEW.last_kind IS NULL OR NEW.last_action IS NULL
           OR NEW.last_action_at IS NULL THEN
            RAISE EXCEPTION 'log_length grows by one, with the record in last_*'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END $$
    """),
    PerDialect(sqlite="""
    CREATE TRIGGER matches_append_log AFTER UPDATE OF log_length ON matches
    WHEN NEW.log_length = OLD.log_length + 1
    BEGIN
        INSERT INTO match_log (match_id, seq, seat, kind, action, created_at)
        VALUES (NEW.id, NEW.log_length, NEW.last_seat, NEW.last_kind, NEW.last_action,
                NEW.last_action_at);
    END
    """, postgres="""
    CREATE OR REPLACE FUNCTION matches_append_log() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO match_log (match_id, seq, seat, kind, action, created_at)
        VALUES (NEW.id, NEW.log_length, NEW.last_seat, NEW.last_kind, NEW.last_action,
                NEW.last_action_at);
        RETURN NULL;
    END $$
    """),
)

_SEATS_STEP: tuple[str | PerDialect, ...] = (
    # SQLite rebuilds the tables below; their triggers go first (a rename checks every
    # trigger of the schema, and these name the tables being rebuilt)
    PerDialect(sqlite="DROP TRIGGER matches_log_grows_by_one", postgres=""),
    PerDialect(sqlite="DROP TRIGGER matches_append_log", postgres=""),
    PerDialect(sqlite="DROP TRIGGER match_log_no_update", postgres=""),
    PerDialect(sqlite="DROP TRIGGER match_log_no_delete", postgres=""),
    # the players of each match by seat, with their places and Elo history
    """
    CREATE TABLE match_players (
        match_id      INTEGER NOT NULL REFERENCES matches(id),
        seat          INTEGER NOT NULL CHECK (seat >= 0),
        user_id       INTEGER NOT NULL,
        ai            TEXT,
        place         INTEGER CHECK (place >= 1),
        score         REAL,
        left_reason   TEXT,
        rating_before REAL,
        rating_after  REAL,
        PRIMARY KEY (match_id, seat)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX match_players_user ON match_players(user_id, match_id)",
    """
    INSERT INTO match_players (match_id, seat, user_id, ai, place, left_reason,
                               rating_before, rating_after)
    SELECT m.id, 0, m.raptor_user_id, m.raptor_ai,
           CASE m.result WHEN 'raptor' THEN 1 WHEN 'draw' THEN 1 WHEN 'scientist' THEN 2 END,
           CASE WHEN m.result = 'scientist' AND m.reason IN ('resigned', 'timeout')
                THEN m.reason END,
           r.raptor_rating_before, r.raptor_rating_after
    FROM matches m LEFT JOIN results r ON r.match_id = m.id
    """,
    """
    INSERT INTO match_players (match_id, seat, user_id, ai, place, left_reason,
                               rating_before, rating_after)
    SELECT m.id, 1, m.scientist_user_id, m.scientist_ai,
           CASE m.result WHEN 'scientist' THEN 1 WHEN 'draw' THEN 1 WHEN 'raptor' THEN 2 END,
           CASE WHEN m.result = 'raptor' AND m.reason IN ('resigned', 'timeout')
                THEN m.reason END,
           r.scientist_rating_before, r.scientist_rating_after
    FROM matches m LEFT JOIN results r ON r.match_id = m.id
    """,
    # matches: the game, the number of seats, the last log record's seat; no sides
    PerDialect(sqlite="""
    CREATE TABLE matches_new (
        id                INTEGER PRIMARY KEY,
        game              TEXT NOT NULL,
        guild_id          INTEGER NOT NULL,
        channel_id        INTEGER NOT NULL,
        seats             INTEGER NOT NULL CHECK (seats >= 1),
        seed              INTEGER NOT NULL,
        options           TEXT NOT NULL,
        status            TEXT NOT NULL DEFAULT 'active'
                          CHECK (status IN ('active', 'finished')),
        state             TEXT NOT NULL,
        version           INTEGER NOT NULL DEFAULT 0,
        log_length        INTEGER NOT NULL DEFAULT 0,
        last_seat         INTEGER,
        last_kind         TEXT,
        last_action       TEXT,
        last_action_at    REAL,
        created_at        REAL NOT NULL,
        updated_at        REAL NOT NULL,
        last_activity     REAL NOT NULL,
        deadline_at       REAL,
        remind_at         REAL,
        reminded          INTEGER NOT NULL DEFAULT 0,
        reason            TEXT,
        draw_offered_by   INTEGER,
        rematch_of        INTEGER REFERENCES matches(id),
        claimed_by        TEXT,
        claim_until       REAL,
        end_announced_at  REAL,
        ai_failures       INTEGER NOT NULL DEFAULT 0,
        ai_retry_at       REAL
    )
    """, postgres=""),
    PerDialect(sqlite=f"""
    INSERT INTO matches_new (id, game, guild_id, channel_id, seats, seed, options, status,
        state, version, log_length, last_seat, last_kind, last_action, last_action_at,
        created_at, updated_at, last_activity, deadline_at, remind_at, reminded, reason,
        draw_offered_by, rematch_of, claimed_by, claim_until, end_announced_at, ai_failures,
        ai_retry_at)
    SELECT id, 'raptor', guild_id, channel_id, 2, seed, options, status, state, version,
        log_length, {_SIDE_SEAT.format(col="last_side")}, last_kind, last_action,
        last_action_at, created_at, updated_at, last_activity, deadline_at, remind_at,
        reminded, reason, draw_offered_by, rematch_of, claimed_by, claim_until,
        end_announced_at, ai_failures, ai_retry_at
    FROM matches
    """, postgres=""),
    PerDialect(sqlite="DROP TABLE matches", postgres=""),
    PerDialect(sqlite="ALTER TABLE matches_new RENAME TO matches", postgres=""),
    PerDialect(sqlite="", postgres="""
    ALTER TABLE matches ADD COLUMN game TEXT, ADD COLUMN seats BIGINT;
    UPDATE matches SET game = 'raptor', seats = 2;
    ALTER TABLE matches ALTER COLUMN game SET NOT NULL, ALTER COLUMN seats SET NOT NULL,
        ADD CONSTRAINT matches_seats_check CHECK (seats >= 1),
        DROP COLUMN raptor_user_id, DROP COLUMN scientist_user_id, DROP COLUMN raptor_ai,
        DROP COLUMN scientist_ai, DROP COLUMN result;
    ALTER TABLE matches ALTER COLUMN last_side TYPE BIGINT
        USING """ + _SIDE_SEAT.format(col="last_side") + """;
    ALTER TABLE matches RENAME COLUMN last_side TO last_seat
    """),
    "CREATE UNIQUE INDEX IF NOT EXISTS matches_one_active_per_channel ON matches(channel_id) "
    "WHERE status = 'active'",
    "CREATE INDEX IF NOT EXISTS matches_deadline ON matches(deadline_at) "
    "WHERE status = 'active'",
    "CREATE INDEX IF NOT EXISTS matches_remind ON matches(remind_at) WHERE status = 'active' "
    "AND reminded = 0",
    "CREATE INDEX IF NOT EXISTS matches_end_unannounced ON matches(updated_at) "
    "WHERE status = 'finished' AND end_announced_at IS NULL",
    "CREATE INDEX IF NOT EXISTS matches_ai_retry ON matches(ai_retry_at) "
    "WHERE status = 'active' AND ai_retry_at IS NOT NULL",
    "CREATE INDEX matches_guild_game ON matches(guild_id, game, status)",
    # the log by seat, and a seat's forfeit as a record of its own
    PerDialect(sqlite="""
    CREATE TABLE match_log_new (
        match_id   INTEGER NOT NULL REFERENCES matches(id),
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        seat       INTEGER NOT NULL CHECK (seat >= 0),
        kind       TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'forfeit')),
        action     TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (match_id, seq)
    ) WITHOUT ROWID
    """, postgres=""),
    PerDialect(sqlite=f"""
    INSERT INTO match_log_new (match_id, seq, seat, kind, action, created_at)
    SELECT match_id, seq, {_SIDE_SEAT.format(col="side")}, kind, action, created_at
    FROM match_log
    """, postgres=""),
    PerDialect(sqlite="DROP TABLE match_log", postgres=""),
    PerDialect(sqlite="ALTER TABLE match_log_new RENAME TO match_log", postgres=""),
    PerDialect(sqlite="", postgres="""
    ALTER TABLE match_log DROP CONSTRAINT match_log_side_check,
        DROP CONSTRAINT match_log_kind_check;
    ALTER TABLE match_log ALTER COLUMN side TYPE BIGINT
        USING """ + _SIDE_SEAT.format(col="side") + """;
    ALTER TABLE match_log RENAME COLUMN side TO seat;
    ALTER TABLE match_log ADD CONSTRAINT match_log_seat_check CHECK (seat >= 0),
        ADD CONSTRAINT match_log_kind_check CHECK (kind IN ('action', 'undo', 'forfeit'))
    """),
    *_MATCHES_LOG_TRIGGERS,
    PerDialect(sqlite="""
    CREATE TRIGGER match_log_no_update BEFORE UPDATE ON match_log
    BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END
    """, postgres=""),
    PerDialect(sqlite="""
    CREATE TRIGGER match_log_no_delete BEFORE DELETE ON match_log
    BEGIN SELECT RAISE(ABORT, 'match_log is append-only'); END
    """, postgres=""),
    # challenges: the game, its options, the challenger's seat (NULL: drawn on acceptance)
    PerDialect(sqlite="""
    CREATE TABLE challenges_new (
        id            INTEGER PRIMARY KEY,
        game          TEXT NOT NULL,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL,
        challenged_id INTEGER NOT NULL CHECK (challenged_id <> challenger_id),
        seat          INTEGER CHECK (seat >= 0),
        options       TEXT NOT NULL,
        status        TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
                      ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
        created_at    REAL NOT NULL,
        expires_at    REAL NOT NULL,
        match_id      INTEGER REFERENCES matches(id),
        rematch_of    INTEGER REFERENCES matches(id),
        message_id    INTEGER,
        claimed_by    TEXT,
        claim_until   REAL
    )
    """, postgres=""),
    PerDialect(sqlite=f"""
    INSERT INTO challenges_new (id, game, guild_id, channel_id, challenger_id, challenged_id,
        seat, options, status, created_at, expires_at, match_id, rematch_of, message_id,
        claimed_by, claim_until)
    SELECT id, 'raptor', guild_id, channel_id, challenger_id, challenged_id,
        {_SIDE_SEAT.format(col="side")},
        '{{"environment": "' || environment || '", "setup": "' || setup || '"}}',
        status, created_at, expires_at, match_id, rematch_of, message_id, claimed_by,
        claim_until
    FROM challenges
    """, postgres=""),
    PerDialect(sqlite="DROP TABLE challenges", postgres=""),
    PerDialect(sqlite="ALTER TABLE challenges_new RENAME TO challenges", postgres=""),
    PerDialect(sqlite="", postgres="""
    ALTER TABLE challenges ADD COLUMN game TEXT, ADD COLUMN seat BIGINT,
        ADD COLUMN options TEXT;
    UPDATE challenges SET game = 'raptor', seat = """ + _SIDE_SEAT.format(col="side") + """,
        options = '{"environment": "' || environment || '", "setup": "' || setup || '"}';
    ALTER TABLE challenges ALTER COLUMN game SET NOT NULL,
        ALTER COLUMN options SET NOT NULL,
        ADD CONSTRAINT challenges_seat_check CHECK (seat >= 0),
        DROP COLUMN side, DROP COLUMN environment, DROP COLUMN setup
    """),
    "CREATE UNIQUE INDEX IF NOT EXISTS challenges_one_pending ON challenges(channel_id, "
    "challenger_id) WHERE status = 'pending'",
    "CREATE INDEX IF NOT EXISTS challenges_expiry ON challenges(expires_at) "
    "WHERE status = 'pending'",
    # results: one row per finished match; the players' places and ratings are theirs
    PerDialect(sqlite="""
    CREATE TABLE results_new (
        match_id    INTEGER PRIMARY KEY REFERENCES matches(id),
        game        TEXT NOT NULL,
        guild_id    INTEGER NOT NULL,
        reason      TEXT NOT NULL,
        rated       INTEGER NOT NULL,
        rating      TEXT CHECK (rating IN ('elo', 'openskill')),
        finished_at REAL NOT NULL
    )
    """, postgres=""),
    PerDialect(sqlite="""
    INSERT INTO results_new (match_id, game, guild_id, reason, rated, rating, finished_at)
    SELECT match_id, 'raptor', guild_id, reason, rated, CASE WHEN rated = 1 THEN 'elo' END,
        finished_at
    FROM results
    """, postgres=""),
    PerDialect(sqlite="DROP TABLE results", postgres=""),
    PerDialect(sqlite="ALTER TABLE results_new RENAME TO results", postgres=""),
    PerDialect(sqlite="", postgres="""
    ALTER TABLE results ADD COLUMN game TEXT, ADD COLUMN rating TEXT;
    UPDATE results SET game = 'raptor', rating = CASE WHEN rated = 1 THEN 'elo' END;
    ALTER TABLE results ALTER COLUMN game SET NOT NULL,
        ADD CONSTRAINT results_rating_check CHECK (rating IN ('elo', 'openskill')),
        DROP COLUMN raptor_user_id, DROP COLUMN scientist_user_id,
        DROP COLUMN result, DROP COLUMN raptor_rating_before,
        DROP COLUMN raptor_rating_after, DROP COLUMN scientist_rating_before,
        DROP COLUMN scientist_rating_after
    """),
    # ratings per game (OpenSkill); Raptor's Elo table is kept as its history
    "DROP INDEX ratings_leaderboard",
    "ALTER TABLE ratings RENAME TO elo_ratings",
    PerDialect(sqlite="",
               postgres="ALTER TABLE elo_ratings RENAME CONSTRAINT ratings_pkey TO "
                        "elo_ratings_pkey"),
    """
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL NOT NULL,
        sigma      REAL NOT NULL,
        rating     REAL NOT NULL,
        games      INTEGER NOT NULL DEFAULT 0,
        wins       INTEGER NOT NULL DEFAULT 0,
        draws      INTEGER NOT NULL DEFAULT 0,
        losses     INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    )
    """,
    "CREATE INDEX ratings_leaderboard ON ratings(guild_id, game, rating DESC)",
)


async def _rate_history(tx: Transaction) -> None:
    """Rate again with OpenSkill every match Elo rated, in the order they finished, so that
    a server's ranking goes on from its history (:func:`bot.match.ratings.rate_history`)."""
    from ..match.ratings import rate_history  # the rating model, above the storage

    await rate_history(tx)



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
    Migration(10, "seats instead of sides: every game on the same tables (the game of each "
                  "match and challenge, its players by seat with their places, the log by "
                  "seat, results per seat, ratings per game with Raptor's Elo history kept "
                  "and converted)", _SEATS_STEP, rebuilds=True,
              then=_rate_history),
    Migration(11, "tables: the lobby where the players of a match of any game gather (its "
                  "host, seats, options and the people and AI levels seated so far)", (
        """
        CREATE TABLE game_tables (
            id          INTEGER PRIMARY KEY,
            game        TEXT NOT NULL,
            guild_id    INTEGER NOT NULL,
            channel_id  INTEGER NOT NULL,
            host_id     INTEGER NOT NULL,
            seats       INTEGER NOT NULL CHECK (seats >= 1),
            options     TEXT NOT NULL,
            status      TEXT NOT NULL DEFAULT 'open'
                        CHECK (status IN ('open', 'started', 'cancelled', 'expired')),
            created_at  REAL NOT NULL,
            expires_at  REAL NOT NULL,
            match_id    INTEGER REFERENCES matches(id),
            message_id  INTEGER,
            version     INTEGER NOT NULL DEFAULT 0
        )
        """,
        "CREATE UNIQUE INDEX game_tables_one_open ON game_tables(channel_id, host_id) "
        "WHERE status = 'open'",
        "CREATE INDEX game_tables_expiry ON game_tables(expires_at) WHERE status = 'open'",
        """
        CREATE TABLE table_players (
            table_id  INTEGER NOT NULL REFERENCES game_tables(id),
            position  INTEGER NOT NULL CHECK (position >= 0),
            user_id   INTEGER,
            ai        TEXT,
            joined_at REAL NOT NULL,
            PRIMARY KEY (table_id, position),
            CHECK ((user_id IS NULL) <> (ai IS NULL))
        )
        """,
        "CREATE UNIQUE INDEX table_players_once ON table_players(table_id, user_id) "
        "WHERE user_id IS NOT NULL",
    )),
)

SCHEMA_VERSION = MIGRATIONS[-1].version
