"""Work claimed once (``bot.match.claim_store``): with two processes on one database, a due
timer fires once, an AI turn is played by one of them, and the work a process claimed before
dying is taken over by the other once its lease has run out. On SQLite and PostgreSQL; each
"process" has its own connections (:func:`open_target`) and its own owner name."""

from __future__ import annotations

import asyncio

import engine
from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.match.claim_store import ClaimTarget
from tests.clock import T0
from tests.match.conftest import (
    ALICE,
    BOB,
    BOT_USER,
    CHANNEL,
    GUILD,
    LEASE,
    start_match,
)


async def _idle_bob(svc: MatchService):
    m = await start_match(svc)
    await svc.act(m.id, ALICE, engine.Pick(m.state.hands[engine.Side.RAPTOR][0]))
    return m


async def test_a_due_timer_fires_once_from_two_processes(pair):
    a, b = pair
    m = await _idle_bob(a)
    for when in (T0 + 1800, T0 + 3600):  # the reminder, then the forfeit
        got = await asyncio.gather(a.process_timers(when), b.process_timers(when),
                                   a.process_timers(when), b.process_timers(when))
        events = [e for batch in got for e in batch]
        assert [(e.kind, e.match_id, e.user_ids) for e in events] == [
            ("reminder" if when == T0 + 1800 else "forfeit", m.id, (BOB,))]
    assert (await a.get_match(m.id)).reason == "timeout"
    assert (await a.db.fetchone("SELECT COUNT(*) FROM results"))[0] == 1
    assert await a.ctx.claims.holder(ClaimTarget.MATCH, m.id) is None  # released


async def test_a_challenge_expires_once_from_two_processes(pair):
    a, b = pair
    ch = await a.create_challenge(GUILD, CHANNEL, ALICE, BOB, game="raptor")
    got = await asyncio.gather(a.process_timers(T0 + 600), b.process_timers(T0 + 600))
    assert [(e.kind, e.challenge_id) for batch in got for e in batch] == [
        ("challenge_expired", ch.id)]
    assert (await b.get_challenge(ch.id)).status == "expired"
    assert await a.ctx.claims.holder(ClaimTarget.CHALLENGE, ch.id) is None


async def test_a_dead_process_s_timer_is_taken_over_after_its_lease(pair):
    a, b = pair
    m = await _idle_bob(a)
    # "a" claims the forfeit at the deadline, then dies before firing it
    assert await a.ctx.claim(ClaimTarget.MATCH, m.id, T0 + 3600)
    assert await b.process_timers(T0 + 3600) == []  # held by a live-looking claim
    assert await b.process_timers(T0 + 3600 + LEASE - 1) == []
    assert (await b.get_match(m.id)).active
    events = await b.process_timers(T0 + 3600 + LEASE)
    assert [(e.kind, e.match_id) for e in events] == [("forfeit", m.id)]
    assert await b.process_timers(T0 + 3600 + LEASE) == []
    assert (await a.db.fetchone("SELECT COUNT(*) FROM results"))[0] == 1


async def test_an_ai_turn_is_played_by_one_process_and_taken_over_after_a_death(pair, clock):
    a, b = pair
    m = await a.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1,
                               ai_user_id=BOT_USER)
    assert rs.ai(m, engine.Side.RAPTOR) == "easy"
    # "a" starts thinking for the raptor and dies holding the claim
    assert await a.ctx.claim(ClaimTarget.MATCH, m.id)
    assert await b.play_ai(m.id) == []  # "b" leaves it to "a"
    assert await b.abandoned_ai_matches() == []
    assert (await b.get_match(m.id)).log_length == 0
    clock.advance(LEASE)
    assert await b.abandoned_ai_matches() == [m.id]
    played = await b.play_ai(m.id, max_steps=1)
    assert len(played) == 1 and played[0].match.log_length == 1
    assert await b.abandoned_ai_matches() == []  # released after playing
    assert await a.ctx.claims.holder(ClaimTarget.MATCH, m.id) is None


async def test_two_processes_playing_the_same_ai_turn_apply_it_once(pair):
    a, b = pair
    m = await a.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=1,
                               ai_user_id=BOT_USER)
    got = await asyncio.gather(a.play_ai(m.id, max_steps=1), b.play_ai(m.id, max_steps=1))
    assert sorted(len(r) for r in got) == [0, 1]
    assert len(await a.raw_log(m.id)) == 1
