"""The caps per member: practice matches in progress (``max_practices``) and open challenges
(``max_challenges``), counted in the transaction that stores the new one."""

from __future__ import annotations

import asyncio

import pytest

from bot.match import InvalidRequestError, MatchService
from tests.match.conftest import ALICE, BOB, BOT_USER, CAROL, GUILD, random_chooser


@pytest.fixture
def capped(db, clock) -> MatchService:
    return MatchService(db, turn_timeout=3600.0, challenge_timeout=600.0, clock=clock,
                        ai_chooser=random_chooser, max_practices=2, max_challenges=3)


async def practice(svc: MatchService, channel: int, user: int = ALICE):
    return await svc.start_practice(GUILD, channel, user, game="raptor", seat=0,
                                    ai_user_id=BOT_USER)


async def test_a_member_has_at_most_max_practices_in_progress(capped):
    first = await practice(capped, 11)
    await practice(capped, 12)
    with pytest.raises(InvalidRequestError) as refused:
        await practice(capped, 13)
    assert refused.value.message == ("You have 2 practice games in progress, as many as a "
                                     "member may have at once: finish or resign one first.")
    assert await capped.active_match(13) is None
    # in another server too: the cap is the member's
    with pytest.raises(InvalidRequestError):
        await capped.start_practice(GUILD + 1, 21, ALICE, game="raptor", ai_user_id=BOT_USER)
    await practice(capped, 14, user=BOB)  # another member is not held back
    # AI-only matches and human matches do not count
    await capped.start_ai_match(GUILD, 15, game="raptor",
                                levels=["easy" for _ in first.players],
                                ai_user_ids=[BOT_USER for _ in first.players])
    ch = await capped.create_challenge(GUILD, 16, ALICE, CAROL, game="raptor")
    await capped.accept_challenge(ch.id, CAROL)
    await capped.resign(first.id, ALICE)  # one ends: room for one more
    again = await practice(capped, 13)
    assert again.active
    # a practice rematch is a practice as well
    with pytest.raises(InvalidRequestError):
        await capped.rematch_practice(first.id, ALICE, ai_user_id=BOT_USER)


async def test_practices_started_at_once_stop_at_the_cap(capped):
    tries = await asyncio.gather(*(practice(capped, 30 + i) for i in range(8)),
                                 return_exceptions=True)
    started = [m for m in tries if not isinstance(m, BaseException)]
    refused = [e for e in tries if isinstance(e, InvalidRequestError)]
    assert (len(started), len(refused)) == (2, 6)


async def test_a_member_has_at_most_max_challenges_open(capped, clock):
    for channel in (11, 12, 13):
        await capped.create_challenge(GUILD, channel, ALICE, BOB, game="raptor")
    with pytest.raises(InvalidRequestError) as refused:
        await capped.create_challenge(GUILD, 14, ALICE, CAROL, game="raptor")
    assert refused.value.message == ("You have 3 open challenges, as many as a member may "
                                     "have at once: cancel one or wait for answers.")
    assert await capped.pending_challenges(14) == []
    # another member is not held back
    await capped.create_challenge(GUILD, 14, BOB, CAROL, game="raptor")
    # a new challenge in a channel of an old one replaces it (once it may): still 3
    (old,) = await capped.pending_challenges(11)
    await capped.cancel_challenge(old.id, ALICE)
    await capped.create_challenge(GUILD, 14, ALICE, CAROL, game="raptor")
    with pytest.raises(InvalidRequestError):
        await capped.create_challenge(GUILD, 15, ALICE, CAROL, game="raptor")
    # challenges past their expiry no longer count, even before the timers closed them
    clock.advance(601)
    await capped.create_challenge(GUILD, 15, ALICE, CAROL, game="raptor")


async def test_the_defaults_are_three_practices_and_five_challenges(svc):
    assert (svc.ctx.max_practices, svc.ctx.max_challenges) == (3, 5)
    with pytest.raises(ValueError, match="max_practices"):
        MatchService(svc.db, max_practices=0)


async def test_challenges_sent_at_once_stop_at_the_cap(capped):
    tries = await asyncio.gather(*(capped.create_challenge(GUILD, 40 + i, ALICE, BOB,
                                                           game="raptor")
                                   for i in range(8)), return_exceptions=True)
    sent = [c for c in tries if not isinstance(c, BaseException)]
    refused = [e for e in tries if isinstance(e, InvalidRequestError)]
    assert (len(sent), len(refused)) == (3, 5)
