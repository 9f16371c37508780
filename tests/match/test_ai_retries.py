"""An AI that fails to decide is tried again by the timer loop, with a stored retry time that
doubles (5, 10, 20 s), and after four failures in a row the match ends without a result; a
match never waits on an AI that is not thinking."""

from __future__ import annotations

import pytest

import engine
from bot.games.raptor import sides as rs
from bot.match import EndReason, MatchService, TimerKind
from bot.match.claim_store import ClaimTarget
from bot.match.deadlines import AI_FAILURE_LIMIT, ai_retry_at
from tests.match.conftest import ALICE, BOT_USER, CHANNEL, GUILD, open_target, random_chooser

RAPTOR = engine.Side.RAPTOR
SCIENTIST = engine.Side.SCIENTIST


class Flaky:
    """A random AI that raises ``RuntimeError`` on its first ``failures`` decisions (all of
    them with None)."""

    def __init__(self, failures: int | None) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self, view, **kwargs):
        self.calls += 1
        if self.failures is None or self.calls <= self.failures:
            raise RuntimeError("the AI broke")
        return random_chooser(view, **kwargs)


async def _practice(db, clock, chooser) -> tuple[MatchService, int]:
    svc = MatchService(db, clock=clock, turn_timeout=3600.0, ai_chooser=chooser,
                       seed_source=lambda: 5150)
    m = await svc.start_practice(GUILD, CHANNEL, ALICE, game="raptor", seat=0, level="easy",
                                 ai_user_id=BOT_USER)
    return svc, m.id


def test_the_retry_waits_longer_after_each_failure_then_ends_the_match():
    assert AI_FAILURE_LIMIT == 4
    assert [ai_retry_at(n, 100.0) for n in range(1, 6)] == [105.0, 110.0, 120.0, 100.0, 100.0]


async def test_an_ai_that_failed_once_is_tried_again_when_its_retry_is_due(db, db_target,
                                                                         clock):
    ai = Flaky(failures=1)
    svc, mid = await _practice(db, clock, ai)
    with pytest.raises(RuntimeError, match="the AI broke"):
        await svc.play_ai(mid)
    m = await svc.get_match(mid)
    assert (m.ai_failures, m.ai_retry_at) == (1, clock() + 5.0)
    assert m.state.picks[SCIENTIST] is None  # nobody is thinking for the AI now ...
    assert await svc.ctx.claims.holder(ClaimTarget.MATCH, mid) is None
    assert await svc.next_timer_at() == clock() + 5.0  # ... but the timer loop will
    assert await svc.ai_retries_due() == []
    clock.advance(5.0)
    assert await svc.ai_retries_due() == [mid]

    # the retry is stored: another process (or the bot after a restart) sees it too
    other_db = await open_target(db_target)
    try:
        other = MatchService(other_db, clock=clock, ai_chooser=ai)
        assert await other.ai_retries_due() == [mid]
        results = await other.play_ai(mid)
    finally:
        await other_db.close()
    assert [rs.acted(r) for r in results] == [SCIENTIST] and ai.calls == 2
    assert (results[0].match.ai_failures, results[0].match.ai_retry_at) == (0, None)
    m = await svc.get_match(mid)
    assert m.state.picks[SCIENTIST] is not None and m.active
    assert (m.ai_failures, m.ai_retry_at) == (0, None)  # a decision resets the count
    assert await svc.ai_retries_due() == []
    assert await svc.next_timer_at() == m.remind_at  # the human's reminder, no retry
    # the match goes on: the human picks, the AI plays on
    await svc.act(mid, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    await svc.play_ai(mid)
    m = await svc.get_match(mid)
    assert m.active and m.log_length >= 2 and m.ai_failures == 0


async def test_an_ai_that_always_fails_ends_the_match_without_a_result(db, clock):
    ai = Flaky(failures=None)
    svc, mid = await _practice(db, clock, ai)
    for failures, delay in ((1, 5.0), (2, 10.0), (3, 20.0)):
        with pytest.raises(RuntimeError):
            await svc.play_ai(mid)
        m = await svc.get_match(mid)
        assert (m.ai_failures, m.ai_retry_at) == (failures, clock() + delay)
        assert await svc.process_timers() == []  # not yet
        clock.advance(delay)
        assert await svc.ai_retries_due() == [mid]
    with pytest.raises(RuntimeError):
        await svc.play_ai(mid)  # the fourth failure in a row
    m = await svc.get_match(mid)
    assert (m.ai_failures, m.ai_retry_at) == (4, clock())  # due now: to be ended
    assert await svc.ai_retries_due() == []  # not tried again
    [event] = await svc.process_timers()
    assert event.kind is TimerKind.AI_FAILED and event.match_id == mid
    assert event.user_ids == (ALICE,) and event.channel_id == CHANNEL
    ended = await svc.get_match(mid)
    assert event.match == ended
    assert not ended.active and (rs.result(ended), ended.reason) == (None, EndReason.AI_FAILED)
    assert [p.place for p in ended.players] == [None, None]
    row = await db.fetchone("SELECT reason, rated, rating FROM results WHERE match_id = ?",
                            (mid,))
    assert tuple(row) == ("ai_failed", 0, None)
    assert ai.calls == AI_FAILURE_LIMIT
    assert await svc.process_timers() == []
    # no retry left: the next timer is the sweep that posts an end nobody posted
    assert await svc.next_timer_at() == ended.updated_at + svc.ctx.claim_lease
    assert await svc.matches_waiting_for_ai() == []


async def test_an_ai_that_decides_before_its_end_is_due_keeps_the_match(db, clock):
    ai = Flaky(failures=AI_FAILURE_LIMIT)
    svc, mid = await _practice(db, clock, ai)
    for _ in range(AI_FAILURE_LIMIT):
        with pytest.raises(RuntimeError):
            await svc.play_ai(mid)
        clock.advance(30.0)
    # the human's pick brings the AI back before the timers looked: it decides now
    m = await svc.get_match(mid)
    await svc.act(mid, ALICE, engine.Pick(m.state.hands[RAPTOR][0]))
    assert [rs.acted(r) for r in await svc.play_ai(mid, max_steps=1)] == [SCIENTIST]
    assert await svc.process_timers() == []
    m = await svc.get_match(mid)
    assert m.active and (m.ai_failures, m.ai_retry_at) == (0, None)
