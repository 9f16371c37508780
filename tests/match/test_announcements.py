"""The ends still to announce (``bot.match.announcements``, migration 8's
``matches.end_announced_at``): an upgrade counts the matches finished before it as announced;
the store lists the unannounced ends by age and marks one once; the service gives a match
ended by a process that stopped before posting it to one process, only once a claim lease
has passed since the end, and to another once the first one's claim ran out. On SQLite and
PostgreSQL; each "process" has its own connections and owner name."""

from __future__ import annotations

import asyncio

import engine
from bot.games.raptor import sides as rs
from bot.match import MatchService
from bot.match.claim_store import ClaimTarget
from engine import Side
from tests.clock import T0
from tests.match.conftest import ALICE, BOB, CHANNEL, GUILD, LEASE, open_target, start_match


async def _announced_at(svc: MatchService, match_id: int) -> float | None:
    row = await svc.db.fetchone("SELECT end_announced_at FROM matches WHERE id = ?",
                                (match_id,))
    return row[0]


async def _old_match(db, channel: int, now: float, *, finished: bool) -> int:
    """A match stored on a database of schema 7 by the statements the store used then
    (Alice the raptor, Bob the scientist), finished at ``now`` (the raptor won by a
    timeout) or still active."""
    state = engine.new_game(5, environment="jungle", layout="random", setup="quick")
    options = '{"environment": "jungle", "layout": "random", "setup": "quick"}'
    async with db.transaction() as tx:
        match_id = await tx.insert(
            "INSERT INTO matches (guild_id, channel_id, raptor_user_id, "
            "scientist_user_id, raptor_ai, scientist_ai, seed, options, status, state, "
            "version, log_length, created_at, updated_at, last_activity, deadline_at, "
            "remind_at, reminded, rematch_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'active', "
            "?, 0, 0, ?, ?, ?, ?, ?, 0, ?)",
            (GUILD, channel, ALICE, BOB, None, None, 5, options, state.to_json(), now - 60,
             now - 60, now - 60, now, None, None))
        if finished:
            assert await tx.execute(
                "UPDATE matches SET status = 'finished', result = ?, reason = ?, "
                "version = version + 1, updated_at = ?, deadline_at = NULL, "
                "remind_at = NULL, draw_offered_by = NULL WHERE id = ? AND "
                "status = 'active'", ("raptor", "timeout", now, match_id)) == 1
    return match_id


async def test_an_upgrade_counts_the_finished_matches_as_announced(db_target, clock):
    old = await open_target(db_target, upto=7)
    done = await _old_match(old, CHANNEL, T0 - 500, finished=True)
    later = await _old_match(old, CHANNEL + 1, T0 - 200, finished=True)
    playing = await _old_match(old, CHANNEL + 2, T0 - 100, finished=False)
    await old.close()

    db = await open_target(db_target)  # migration 8 runs
    try:
        svc = MatchService(db, clock=clock, owner="a", claim_lease=LEASE)
        assert [await _announced_at(svc, i) for i in (done, later, playing)] == [
            T0 - 500, T0 - 200, None]  # announced at their end; the active one not yet
        old_done = await svc.get_match(done)
        assert old_done.end_announced_at == T0 - 500
        assert (rs.result(old_done), old_done.reason) == ("raptor", "timeout")
        assert (await svc.get_match(playing)).active
        clock.advance(10 * LEASE)
        assert await svc.endings_to_announce() == []  # nothing old is posted again
        # the active one, once it ends, is due (a lease after its end)
        await svc.resign(playing, BOB)
        clock.advance(LEASE)
        assert [m.id for m in await svc.endings_to_announce()] == [playing]
    finally:
        await db.close()


async def test_the_timer_loop_wakes_when_an_unannounced_end_falls_due(svc, clock):
    lease = svc.ctx.claim_lease
    first = await start_match(svc, channel=CHANNEL)
    second = await start_match(svc, channel=CHANNEL + 1)
    assert await svc.next_timer_at() == first.remind_at  # the reminders and deadlines only
    clock.advance(10)
    await svc.resign(first.id, ALICE)  # ends at T0 + 10, not announced (its post was lost)
    clock.advance(5)
    await svc.resign(second.id, BOB)  # T0 + 15
    assert await svc.next_timer_at() == T0 + 10 + lease  # the sweep's moment for the first
    await svc.end_announced(first.id)
    assert await svc.next_timer_at() == T0 + 15 + lease
    clock.advance(lease + 20)  # past due and still not announced: left to the loop's passes
    assert await svc.next_timer_at() is None


async def test_the_store_lists_unannounced_ends_by_age_and_marks_once(svc, clock):
    store = svc.ctx.matches
    first = await start_match(svc, channel=CHANNEL)
    second = await start_match(svc, channel=CHANNEL + 1)
    third = await start_match(svc, channel=CHANNEL + 2)
    still = await start_match(svc, channel=CHANNEL + 3)
    clock.advance(10)
    await svc.resign(second.id, ALICE)  # ends at T0 + 10
    clock.advance(10)
    await svc.resign(first.id, BOB)  # T0 + 20
    clock.advance(10)
    await svc.resign(third.id, ALICE)  # T0 + 30
    assert await store.ids_unannounced(T0 + 9) == []
    assert await store.ids_unannounced(T0 + 20) == [second.id, first.id]  # earliest first
    assert await store.ids_unannounced(T0 + 99) == [second.id, first.id, third.id]

    assert await store.mark_announced(first.id, T0 + 40) is True
    assert await store.mark_announced(first.id, T0 + 50) is False  # once
    assert await store.mark_announced(still.id, T0 + 50) is False  # still active
    assert await _announced_at(svc, first.id) == T0 + 40
    assert await _announced_at(svc, still.id) is None
    assert await store.ids_unannounced(T0 + 99) == [second.id, third.id]


async def test_an_end_is_due_a_lease_after_it_and_announced_once(pair, clock):
    a, b = pair
    m = await start_match(a)
    ended = await a.resign(m.id, ALICE)  # committed by "a", which then stops: nothing posted
    assert ended.end_announced_at is None and not ended.active
    clock.advance(LEASE - 1)  # a live process posts its own ends: a recent one is left to it
    assert await a.endings_to_announce() == [] and await b.endings_to_announce() == []
    clock.advance(1)
    [due] = await b.endings_to_announce()
    assert (due.id, due.reason, rs.result(due)) == (m.id, "resigned", "scientist")
    assert await b.ctx.claims.holder(ClaimTarget.MATCH, m.id) == ("b", T0 + 2 * LEASE)
    assert await a.endings_to_announce() == []  # "b" is announcing it
    assert await b.end_announced(m.id) is True
    assert await a.ctx.claims.holder(ClaimTarget.MATCH, m.id) is None  # given up
    assert (await a.get_match(m.id)).end_announced_at == T0 + LEASE
    clock.advance(10 * LEASE)
    assert await a.endings_to_announce() == [] and await b.endings_to_announce() == []
    assert await b.end_announced(m.id) is False


async def test_two_processes_looking_at_once_get_an_end_once(pair, clock):
    a, b = pair
    ids = []
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        m = await start_match(a, channel=channel)
        await a.resign(m.id, BOB)
        ids.append(m.id)
    clock.advance(LEASE)
    got = await asyncio.gather(a.endings_to_announce(), b.endings_to_announce(),
                               a.endings_to_announce(), b.endings_to_announce())
    assert sorted(m.id for batch in got for m in batch) == ids


async def test_a_dead_announcer_s_end_is_taken_over_after_its_lease(pair, clock):
    a, b = pair
    m = await start_match(a)
    await a.resign(m.id, ALICE)
    clock.advance(LEASE)
    assert [x.id for x in await a.endings_to_announce()] == [m.id]  # then "a" dies
    clock.advance(LEASE - 1)
    assert await b.endings_to_announce() == []  # its claim still holds
    clock.advance(1)
    assert [x.id for x in await b.endings_to_announce()] == [m.id]
    assert await b.end_announced(m.id) is True


async def test_a_timer_s_forfeit_is_due_when_its_post_was_lost(pair, clock):
    a, b = pair
    m = await start_match(a)
    await a.act(m.id, ALICE, engine.Pick(m.state.hands[Side.RAPTOR][0]))
    clock.advance(3600)
    [event] = await a.process_timers()  # committed; the process stops before posting it
    assert (event.kind, event.match_id) == ("forfeit", m.id)
    clock.advance(LEASE)
    [due] = await b.endings_to_announce()
    assert (due.id, due.reason, rs.result(due)) == (m.id, "timeout", "raptor")
    await b.end_announced(due.id)
    assert await a.process_timers() == [] and await a.endings_to_announce() == []
