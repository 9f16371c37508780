"""Migration 10 (sides to seats) on a database written by the bot before it: the file
``tests/match/data/v8.sqlite3``, made by the code of commit 97a1901 (schema version 8;
``make_v8.py`` beside it says how), upgraded in place on SQLite, and copied row by row into
a PostgreSQL database at schema version 8 then upgraded there. Afterwards every match, log,
result, rating, challenge, setting, post and timer reads back as ``v8_expected.json`` (read
from the file before the upgrade) says, and the matches in progress play on.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

import engine
from bot.games.raptor import sides as rs
from bot.match import EndReason, MatchService, TimerKind
from bot.match.ratings import shown
from bot.storage.schema import SCHEMA_VERSION
from tests.clock import FakeClock
from tests.databases import database_target, open_target

DATA = Path(__file__).parent / "data"
EXPECTED = json.loads((DATA / "v8_expected.json").read_text(encoding="utf-8"))
#: The tables of schema 8 in an order their rows can be inserted.
V8_TABLES = ("matches", "match_log", "challenges", "ratings", "results", "guild_settings",
             "guild_languages", "user_settings", "control_posts", "private_posts",
             "match_notices")
SEAT = {"raptor": 0, "scientist": 1}
PLACES = {"raptor": (1, 2), "scientist": (2, 1), "draw": (1, 1), None: (None, None)}


async def _v8_database(backend: str, target: str, tmp_path: Path) -> str:
    """The schema-8 database of the fixture at ``target``: the file copied (SQLite), or its
    rows copied into a PostgreSQL schema migrated to version 8; returns ``target``."""
    if backend == "sqlite":
        shutil.copy(DATA / "v8.sqlite3", target)
        return target
    db = await open_target(target, upto=8)
    source = sqlite3.connect(DATA / "v8.sqlite3")
    source.row_factory = sqlite3.Row
    try:
        async with db.transaction() as tx:
            for table in V8_TABLES:
                rows = source.execute(f"SELECT * FROM {table}").fetchall()
                if rows:
                    columns = list(rows[0].keys())
                    await tx.executemany(
                        f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                        f"({', '.join('?' for _ in columns)})",
                        [tuple(_pg_value(table, c, r[c]) for c in columns) for r in rows])
            for table in ("matches", "challenges"):
                await tx.fetchone(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                                  f"(SELECT MAX(id) FROM {table}))")
    finally:
        source.close()
        await db.close()
    return target


def _pg_value(table: str, column: str, value):
    """A schema-8 SQLite value as PostgreSQL's column holds it (SQLite keeps whole REALs of
    the fixture as floats, PostgreSQL's BIGINT columns want ints)."""
    if isinstance(value, float) and value.is_integer() and column.endswith("_id"):
        return int(value)
    return value


def _position(state: engine.GameState) -> dict:
    """A state's JSON without its lists of events: what a replay must rebuild exactly. (The
    engine has learnt to tell more since 97a1901 wrote the fixture, e.g. ``effect_lost``
    when a card's effect ends early: a replay's events may hold more than the stored ones.)"""
    data = json.loads(state.to_json())
    for key in ("events", "round_events", "last_round_events"):
        data.pop(key, None)
    return data


@pytest.fixture
async def upgraded(backend, tmp_path):
    """A match service on the fixture's database upgraded to the current schema, and a clock
    at the fixture's last moment."""
    async with database_target(backend, tmp_path) as target:
        await _v8_database(backend, target, tmp_path)
        db = await open_target(target)
        last = max(m["updated_at"] for m in EXPECTED["matches"])
        clock = FakeClock(last + 1)
        try:
            yield MatchService(db, clock=clock, turn_timeout=3600.0), clock
        finally:
            await db.close()


async def test_the_schema_is_current_and_every_match_reads_back(upgraded):
    svc, _ = upgraded
    assert EXPECTED["schema_version"] == 8
    assert await svc.db.schema_version() == SCHEMA_VERSION
    for want in EXPECTED["matches"]:
        m = await svc.get_match(want["id"])
        assert m.game == "raptor" and m.seats == 2
        assert (m.guild_id, m.channel_id, m.status.value) == (want["guild_id"],
                                                              want["channel_id"],
                                                              want["status"])
        assert m.reason == want["reason"]
        assert (m.version, m.log_length) == (want["version"], want["log_length"])
        for side in ("raptor", "scientist"):
            player = m.players[SEAT[side]]
            assert player.user_id == want["players"][side]["user_id"]
            assert player.ai == want["players"][side]["ai"]
        assert rs.result(m) == want["result"]
        assert tuple(p.place for p in m.players) == PLACES[want["result"]]
        assert m.options == want["options"]
        for key in ("deadline_at", "remind_at", "draw_offered_by", "rematch_of",
                    "created_at", "updated_at", "last_activity", "end_announced_at"):
            assert getattr(m, key) == want[key], (want["id"], key)
        assert m.reminded is want["reminded"]
        log = await svc.raw_log(m.id)
        assert [(e.seq, e.seat, e.kind.value, json.dumps(e.action.to_dict()))
                for e in log] == [(seq, SEAT[side], kind, action)
                                  for seq, side, kind, action in want["log"]]
        # the seed and the log, read in seats, still rebuild the stored position
        assert _position(await svc.replayed_state(m.id)) == _position(m.state)


async def test_results_keep_their_elo_figures_and_ratings_continue_from_them(upgraded):
    svc, _ = upgraded
    for want in EXPECTED["results"]:
        row = await svc.db.fetchone("SELECT * FROM results WHERE match_id = ?",
                                    (want["match_id"],))
        assert (row["game"], row["guild_id"], row["reason"], bool(row["rated"]),
                row["finished_at"]) == ("raptor", want["guild_id"], want["reason"],
                                        want["rated"], want["finished_at"])
        assert row["rating"] == ("elo" if want["rated"] else None)
        m = await svc.get_match(want["match_id"])
        for side, seat in SEAT.items():
            assert m.players[seat].rating_before == want["players"][side]["rating_before"]
            assert m.players[seat].rating_after == want["players"][side]["rating_after"]
    # the Elo table is kept as history, row for row
    rows = await svc.db.fetchall("SELECT * FROM elo_ratings ORDER BY guild_id, user_id")
    assert [{k: row[k] for k in EXPECTED["ratings"][0]} for row in rows] == sorted(
        EXPECTED["ratings"], key=lambda r: (r["guild_id"], r["user_id"]))
    # the new ratings: the Elo-rated matches rated again with OpenSkill, in the order they
    # finished, per server (computed here independently of bot.match.ratings)
    model = PlackettLuce()
    skills: dict[tuple[int, int], object] = {}
    tallies: dict[tuple[int, int], list[int]] = {}
    for res in sorted((r for r in EXPECTED["results"] if r["rated"]),
                      key=lambda r: (r["finished_at"], r["match_id"])):
        places = PLACES[res["result"]]
        keys = [(res["guild_id"], res["players"][side]["user_id"]) for side in SEAT]
        teams = [[skills.get(k) or model.rating()] for k in keys]
        after = model.rate(teams, ranks=list(places))
        for k, team, place in zip(keys, after, places, strict=True):
            skills[k] = team[0]
            games_wins_draws_losses = tallies.setdefault(k, [0, 0, 0, 0])
            games_wins_draws_losses[0] += 1
            games_wins_draws_losses[2 if places == (1, 1) else 1 if place == 1 else 3] += 1
    for (guild, user), skill in skills.items():
        st = await svc.stats(guild, "raptor", user)
        assert st.mu == pytest.approx(skill.mu) and st.sigma == pytest.approx(skill.sigma)
        assert st.rating == pytest.approx(shown(skill.mu, skill.sigma))
        assert (st.games, st.wins, st.draws, st.losses) == tuple(tallies[(guild, user)])
    board = await svc.leaderboard(7001, "raptor")
    assert [s.rating for s in board] == sorted((s.rating for s in board), reverse=True)
    assert {s.user_id for s in board} == {u for g, u in skills if g == 7001}
    # and the old Elo is what /raptor stats shows beside the new rating
    alice = await svc.elo(7001, 1001)
    want = next(r for r in EXPECTED["ratings"] if (r["guild_id"], r["user_id"]) ==
                (7001, 1001))
    assert alice is not None and alice.rating == want["rating"]


async def test_challenges_settings_and_posts_read_back(upgraded):
    svc, _ = upgraded
    for want in EXPECTED["challenges"]:
        ch = await svc.get_challenge(want["id"])
        assert ch.game == "raptor"
        assert (ch.status.value, ch.challenger_id, ch.challenged_id, ch.message_id,
                ch.expires_at, ch.match_id, ch.rematch_of) == (
            want["status"], want["challenger_id"], want["challenged_id"], want["message_id"],
            want["expires_at"], want["match_id"], want["rematch_of"])
        assert rs.wish_word(ch.seat) == want["side"]
        assert ch.options == {"environment": want["environment"], "setup": want["setup"]}
    for want in EXPECTED["guild_settings"]:
        assert await svc.guild_timeout(want["guild_id"]) == (want["turn_timeout"] or 3600.0)
        assert await svc.guild_threads(want["guild_id"]) is (want["threads"] is not False)
    for want in EXPECTED["guild_languages"]:
        assert await svc.guild_language(want["guild_id"]) == want["language"]
    for want in EXPECTED["user_settings"]:
        assert await svc.get_user_setting(want["user_id"], want["key"]) == want["value"]
    for table in ("control_posts", "private_posts", "match_notices"):
        rows = await svc.db.fetchall(f"SELECT * FROM {table}")
        got = sorted((tuple(r[k] for k in EXPECTED[table][0]) for r in rows), key=str)
        assert got == sorted((tuple(w.values()) for w in EXPECTED[table]), key=str), table


async def test_the_timers_and_matches_in_progress_go_on(upgraded):
    svc, clock = upgraded
    pending = [c["expires_at"] for c in EXPECTED["challenges"] if c["status"] == "pending"]
    active = [m for m in EXPECTED["matches"] if m["status"] == "active"]
    due = pending + [t for m in active for t in (m["deadline_at"], m["remind_at"])
                     if t is not None]
    lease = svc.ctx.claim_lease  # an end nobody announced is swept a lease after it
    unannounced = [m["updated_at"] + lease for m in EXPECTED["matches"]
                   if m["status"] == "finished" and m["end_announced_at"] is None
                   and m["updated_at"] > clock() - lease]
    assert await svc.next_timer_at() == min(due + unannounced)
    # a match in progress takes a decision (a random legal one of a player who must decide)
    m8 = await svc.get_match(8)
    side = sorted(engine.to_act(m8.state))[0]
    action = random.Random(8).choice(engine.legal_actions(m8.state, side))
    after = (await svc.act(8, rs.user(m8, side), action, expected_version=m8.version)).match
    assert after.version == m8.version + 1 and after.draw_offered_by is None
    assert (await svc.replayed_state(8)).to_json() == after.state.to_json()
    # past every deadline, the timers end the matches in progress as before: the idle
    # player forfeits and the other wins
    clock.now = max(t for t in due if t is not None) + 10_000
    events = await svc.process_timers()
    ended = {e.match_id: e for e in events if e.kind is TimerKind.FORFEIT}
    assert set(ended) == {m["id"] for m in active}
    for match_id, event in ended.items():
        m = await svc.get_match(match_id)
        assert m.reason in (EndReason.TIMEOUT, EndReason.ABANDONED)
        if m.reason is EndReason.TIMEOUT:
            idle = rs.side_in(m, event.user_ids[0])
            assert rs.result(m) == idle.other.value
