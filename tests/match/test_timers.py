"""Timers: reminders at half time, forfeits at the deadline, abandoned simultaneous picks,
per-server timeouts and resuming every timer from the database after a restart."""

from __future__ import annotations

import random

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import EndReason, InvalidRequestError, MatchService, Player
from bot.storage.db import SqliteDatabase
from tests.clock import T0
from tests.match.conftest import (
    ALICE,
    BOB,
    BOT_USER,
    CAROL,
    CHANNEL,
    GUILD,
    pick_random,
    random_chooser,
    start_match,
)
from tests.match.nim_table import nim, play_out, take_one
from tests.match.rating_model import after as rated_after
from tests.match.rating_model import shown_after
from tests.toy_game import NIM, Take

__all__ = ["nim"]  # a fixture

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST


async def test_new_match_deadline_and_reminder(svc):
    m = await start_match(svc)
    assert m.deadline_at == T0 + 3600 and m.remind_at == T0 + 1800 and not m.reminded
    assert await svc.next_timer_at() == T0 + 1800


async def test_reminder_once_at_half_time_then_forfeit(svc, db, clock):
    m = await start_match(svc)
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))  # Bob is idle
    assert await svc.process_timers(T0 + 1799) == []
    events = await svc.process_timers(T0 + 1800)
    assert [(e.kind, e.match_id, e.channel_id, e.user_ids, e.seats) for e in events] == [
        ("reminder", m.id, CHANNEL, (BOB,), (1,))]
    assert events[0].match.reminded
    assert await svc.process_timers(T0 + 1900) == []  # once per decision
    assert await svc.next_timer_at() == T0 + 3600
    version = (await svc.get_match(m.id)).version
    assert version == 1  # a reminder does not make buttons stale

    events = await svc.process_timers(T0 + 3600)
    assert [(e.kind, e.match_id, e.user_ids, e.seats) for e in events] == [
        ("forfeit", m.id, (BOB,), (1,))]
    after = events[0].match
    assert (after.status, rs.result(after), after.reason) == ("finished", "raptor", "timeout")
    assert after.winners == {0}
    won, lost = shown_after([1, 2])  # OpenSkill from two new players
    assert (await svc.stats(GUILD, "raptor", ALICE)).rating == pytest.approx(won)
    assert (await svc.stats(GUILD, "raptor", BOB)).rating == pytest.approx(lost)
    assert (await svc.stats(GUILD, "raptor", BOB)).losses == 1
    [bob_as] = await svc.seat_records(GUILD, "raptor", BOB)
    assert (bob_as.seat, bob_as.losses) == (rs.seat_wish("scientist"), 1)
    assert await svc.process_timers(T0 + 99999) == []  # idempotent
    # the forfeit's post is still owed (the Discord layer posts it, then marks it): the
    # loop wakes for the sweep a lease after the end, and for nothing once it is posted
    assert await svc.next_timer_at() == after.updated_at + svc.ctx.claim_lease
    await svc.end_announced(m.id)
    assert await svc.next_timer_at() is None
    assert (await db.fetchone("SELECT COUNT(*) FROM results"))[0] == 1


async def test_one_pick_does_not_restart_the_other_sides_clock(svc, clock):
    m = await start_match(svc)
    clock.advance(1000)
    r = await svc.act(m.id, BOB, engine.Pick(m.state.hands[SCIENTIST][0]))
    assert r.match.deadline_at == T0 + 3600  # Alice's decision started at T0
    events = await svc.process_timers(T0 + 3600)
    assert [(e.kind, e.user_ids) for e in events] == [("forfeit", (ALICE,))]
    assert rs.result(events[0].match) == "scientist"


async def test_a_reminder_is_not_repeated_when_the_other_side_picks(svc, clock):
    m = await start_match(svc)
    events = await svc.process_timers(T0 + 1800)
    assert [(e.kind, e.user_ids) for e in events] == [("reminder", (ALICE, BOB))]
    clock.now = T0 + 1900
    r = await svc.act(m.id, BOB, engine.Pick(m.state.hands[SCIENTIST][0]))
    assert r.match.reminded and r.match.deadline_at == T0 + 3600
    assert await svc.process_timers(T0 + 2000) == []


async def test_both_idle_in_the_pick_is_abandoned_unrated(svc, db):
    m = await start_match(svc)
    events = await svc.process_timers(T0 + 3600)
    assert [(e.kind, e.user_ids) for e in events] == [("forfeit", (ALICE, BOB))]
    after = events[0].match
    assert (after.status, rs.result(after), after.reason) == ("finished", None, "abandoned")
    assert after.winners == frozenset() and [p.place for p in after.players] == [None, None]
    assert (await svc.stats(GUILD, "raptor", ALICE)).games == 0
    assert (await svc.stats(GUILD, "raptor", ALICE)).rating == 1500
    assert await svc.leaderboard(GUILD, "raptor") == []
    row = await db.fetchone("SELECT reason, rated, rating FROM results")
    assert tuple(row) == ("abandoned", 0, None)
    assert [h.id for h in await svc.history(GUILD, ALICE)] == [m.id]


async def test_each_new_decision_gets_a_fresh_deadline_and_reminder(svc, clock):
    m = await start_match(svc)
    await svc.process_timers(T0 + 1800)  # reminder for the first pick
    clock.now = T0 + 2000
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    clock.now = T0 + 2100
    r = await svc.act(m.id, BOB, engine.Pick(m.state.hands[SCIENTIST][0]))
    after = r.match
    assert after.active and after.state.phase is not engine.Phase.PICK  # fixed seed
    assert after.deadline_at == T0 + 2100 + 3600
    assert after.remind_at == T0 + 2100 + 1800
    assert not after.reminded
    events = await svc.process_timers(T0 + 2100 + 1800)
    assert [e.kind for e in events] == ["reminder"]
    waiting = engine.to_act(after.state)
    assert set(events[0].user_ids) == {rs.user(after, s) for s in waiting}


async def test_guild_timeout_applies_to_new_decisions(svc, clock):
    await svc.set_guild_timeout(GUILD, 60)
    assert await svc.guild_timeout(GUILD) == 60
    assert await svc.guild_timeout(GUILD + 1) == 3600
    m = await start_match(svc)
    assert m.deadline_at == T0 + 60 and m.remind_at == T0 + 30
    other = await start_match(svc, guild=GUILD + 1, channel=CHANNEL + 1)
    assert other.deadline_at == T0 + 3600
    await svc.set_guild_timeout(GUILD, 120)  # changed again: from the next change on
    clock.advance(5)
    r = await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    assert r.match.deadline_at == T0 + 60  # the simultaneous pick keeps its clock
    for bad in (0, -5, float("inf"), float("nan")):
        with pytest.raises(InvalidRequestError, match="positive number of seconds"):
            await svc.set_guild_timeout(GUILD, bad)
    assert await svc.guild_timeout(GUILD) == 120
    assert await svc.has_guild_timeout(GUILD) and not await svc.has_guild_timeout(GUILD + 1)
    await svc.reset_guild_timeout(GUILD)  # back to the bot's default
    assert not await svc.has_guild_timeout(GUILD)
    assert await svc.guild_timeout(GUILD) == 3600
    clock.advance(5)
    r = await svc.act(m.id, BOB, engine.Pick(m.state.hands[SCIENTIST][0]))
    assert r.match.deadline_at == T0 + 10 + 3600


async def test_ai_sides_never_time_out(svc):
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0,
                                 ai_user_id=BOT_USER)
    # Alice picks; only the AI is left to decide in this pick: no clock runs.
    r = await svc.act(m.id, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    assert engine.to_act(r.match.state) == {SCIENTIST}
    assert r.match.deadline_at is None and r.match.remind_at is None
    assert await svc.process_timers(T0 + 10**9) == []
    assert (await svc.get_match(m.id)).active
    assert await svc.matches_waiting_for_ai() == [m.id]


async def test_restart_resumes_matches_and_timers(db_path, clock):
    db = await SqliteDatabase.open(db_path)
    svc = MatchService(db, turn_timeout=3600, clock=clock, ai_chooser=random_chooser,
                       seed_source=lambda: 4242)
    m1 = await start_match(svc, channel=CHANNEL)
    m2 = await start_match(svc, channel=CHANNEL + 1)
    rng = random.Random(9)
    for _ in range(30):
        side, action = pick_random(m2, rng)
        m2 = (await svc.act(m2.id, rs.user(m2, side), action)).match
    await svc.act(m1.id, ALICE, engine.Pick(m1.state.hands[RAPTOR][0]))
    ch = await svc.create_challenge(GUILD, CHANNEL + 2, ALICE, BOB, game="raptor")
    state2, deadline2 = m2.state, m2.deadline_at
    await db.close()

    # A new process: nothing was kept in memory.
    clock.now = T0 + 5
    db = await SqliteDatabase.open(db_path)
    try:
        svc = MatchService(db, turn_timeout=3600, clock=clock, ai_chooser=random_chooser)
        assert {m.id for m in await svc.active_matches()} == {m1.id, m2.id}
        again = await svc.get_match(m2.id)
        assert again.state == state2 and again.deadline_at == deadline2
        assert (await svc.replayed_state(m2.id)) == state2
        assert await svc.next_timer_at() == ch.expires_at  # T0 + 600
        events = await svc.process_timers(T0 + 4000)
        kinds = sorted((e.kind, e.match_id or e.challenge_id) for e in events)
        assert ("challenge_expired", ch.id) in kinds
        assert ("forfeit", m1.id) in kinds
        forfeit = next(e for e in events if e.match_id == m1.id)
        assert forfeit.user_ids == (BOB,) and rs.result(forfeit.match) == "raptor"
        assert ("forfeit", m2.id) in kinds  # its deadline was T0 + ~3600 as well
        assert (await svc.stats(GUILD, "raptor", ALICE)).games == 2
        # the play goes on in the freed channel
        m3 = await start_match(svc, channel=CHANNEL)
        assert m3.active
    finally:
        await db.close()


async def test_an_idle_seat_of_a_table_leaves_and_the_others_play_on(db, clock, nim):
    """Three people at a table of the toy game: the idle one forfeits their seat at the
    deadline (:attr:`TimerKind.SEAT_LEFT`), the game goes on with a fresh clock for the
    next seat, and the match is rated at its end with the seat that left in its place."""
    svc = MatchService(db, turn_timeout=3600.0, clock=clock, ai_chooser=take_one,
                       seed_source=lambda: 7)
    players = [Player(0, ALICE), Player(1, BOB), Player(2, CAROL)]
    m = await svc.starter.create("nim", GUILD, CHANNEL, players, {"pile": "10"})
    assert m.to_act() == {0} and m.deadline_at == T0 + 3600
    clock.now = T0 + 1800
    events = await svc.process_timers()
    assert [(e.kind, e.user_ids, e.seats) for e in events] == [("reminder", (ALICE,), (0,))]
    clock.now = T0 + 3600
    [event] = await svc.process_timers()
    assert (event.kind, event.match_id, event.user_ids, event.seats) == (
        "seat_left", m.id, (ALICE,), (0,))
    after = event.match
    assert after == await svc.get_match(m.id)
    assert after.active and after.reason is None
    assert [p.left for p in after.players] == [EndReason.TIMEOUT, None, None]
    assert after.to_act() == {1}
    # the next seat's turn has its own clock: nothing more is due now
    assert (after.deadline_at, after.remind_at, after.reminded) == (
        T0 + 3600 + 3600, T0 + 3600 + 1800, False)
    assert await svc.process_timers() == []
    assert await svc.action_log(m.id) == [(1, 0, None)]  # the forfeit, a step of the log
    assert after.version == m.version + 1
    await svc.act(m.id, BOB, "take 3")
    ended = await play_out(svc, m.id, {BOB: 3, CAROL: 2})
    assert not ended.active and ended.reason == "pile_empty"
    assert [(seat, a) for _, seat, a in (await svc.action_log(m.id))[:2]] == [
        (0, None), (1, Take(3))]
    places = [p.place for p in ended.players]
    assert tuple(places) == NIM.outcome(ended.state).places and places[0] == 3
    assert [p.left for p in ended.players] == [EndReason.TIMEOUT, None, None]
    want = rated_after(places)
    got = [await svc.stats(GUILD, "nim", u) for u in (ALICE, BOB, CAROL)]
    assert [(s.mu, s.sigma) for s in got] == [pytest.approx(w) for w in want]
    assert got[0].losses == 1 and got[0].rating < 1500
