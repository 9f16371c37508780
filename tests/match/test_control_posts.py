"""Storage of the bot's posts with controls (challenge, turn and round messages), so that a
restarted bot can still retire them; on real SQLite."""

from __future__ import annotations

import asyncio

import pytest

from bot.match.service import ControlPost, NotFoundError
from tests.match.conftest import ALICE, BOB, CHANNEL, GUILD, start_match


async def test_posts_are_taken_once_oldest_first_per_kind(svc):
    m = await start_match(svc)
    other = await start_match(svc, channel=CHANNEL + 1)
    await svc.remember_post(m.id, "round", CHANNEL, 502, "Round 1 (reminder)")
    await svc.remember_post(m.id, "round", CHANNEL, 501, "Round 1")
    await svc.remember_post(m.id, "turn", CHANNEL, 503, "Match #1 · Round 1 · Effect")
    await svc.remember_post(other.id, "round", CHANNEL + 1, 601, "Round 1 elsewhere")
    assert await svc.has_post(m.id, "turn") and await svc.has_post(m.id, "round")

    assert await svc.take_posts(m.id, "round") == [
        ControlPost(m.id, "round", CHANNEL, 501, "Round 1"),
        ControlPost(m.id, "round", CHANNEL, 502, "Round 1 (reminder)")]
    assert await svc.take_posts(m.id, "round") == []  # each post goes to one caller
    assert not await svc.has_post(m.id, "round")
    assert await svc.has_post(m.id, "turn")  # other kinds and matches are kept
    assert await svc.take_posts(other.id, "round") == [
        ControlPost(other.id, "round", CHANNEL + 1, 601, "Round 1 elsewhere")]


async def test_forget_post_says_whether_the_post_was_still_recorded(svc):
    m = await start_match(svc)
    await svc.remember_post(m.id, "turn", CHANNEL, 700, "Match #1 · Round 2 · Action points")
    assert await svc.forget_post(700) is True
    assert await svc.forget_post(700) is False
    assert await svc.take_posts(m.id, "turn") == []


async def test_concurrent_takes_share_out_the_posts(svc):
    m = await start_match(svc)
    await svc.remember_post(m.id, "turn", CHANNEL, 800, "head")
    results = await asyncio.gather(*(svc.take_posts(m.id, "turn") for _ in range(5)))
    assert sorted(len(r) for r in results) == [0, 0, 0, 0, 1]


async def test_posts_survive_a_new_connection(db_path, svc, clock):
    from bot.db import Database
    from bot.match.service import MatchService

    m = await start_match(svc)
    await svc.remember_post(m.id, "turn", CHANNEL, 900, "head")
    db2 = await Database.open(db_path)
    try:
        assert await MatchService(db2, clock=clock).take_posts(m.id, "turn") == [
            ControlPost(m.id, "turn", CHANNEL, 900, "head")]
    finally:
        await db2.close()
    assert await svc.take_posts(m.id, "turn") == []


async def test_bad_posts_are_refused(svc):
    m = await start_match(svc)
    with pytest.raises(ValueError, match="'turn', 'round' or 'draw'"):
        await svc.remember_post(m.id, "result", CHANNEL, 1, "x")
    with pytest.raises(NotFoundError, match="no match #999"):
        await svc.remember_post(999, "turn", CHANNEL, 1, "x")
    assert not await svc.has_post(m.id, "turn")


async def test_a_challenge_records_its_message(svc):
    ch = await svc.create_challenge(GUILD, CHANNEL, ALICE, BOB)
    assert ch.message_id is None
    await svc.set_challenge_message(ch.id, 4242)
    assert (await svc.get_challenge(ch.id)).message_id == 4242
    with pytest.raises(NotFoundError):
        await svc.set_challenge_message(ch.id + 1, 4243)
