# ruff: noqa: F811 - the fixtures of tests/match/conftest.py, imported by name
"""Storage of the bot's posts with controls (challenge, turn and round messages), so that a
restarted bot can still retire them; on real SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.discord.post_store import ControlPost, PostStore
from bot.match.models import NotFoundError
from tests.databases import open_target
from tests.match.conftest import (  # noqa: F401 - fixtures
    CHANNEL,
    backend,
    clock,
    db,
    db_path,
    db_target,
    start_match,
    svc,
)


@pytest.fixture
def posts(svc):
    return PostStore(svc.db)


async def test_posts_are_taken_once_oldest_first_per_kind(posts, svc):
    m = await start_match(svc)
    other = await start_match(svc, channel=CHANNEL + 1)
    await posts.remember(m.id, "round", CHANNEL, 502, "Round 1 (reminder)")
    await posts.remember(m.id, "round", CHANNEL, 501, "Round 1")
    await posts.remember(m.id, "turn", CHANNEL, 503, "Match #1 · Round 1 · Effect")
    await posts.remember(other.id, "round", CHANNEL + 1, 601, "Round 1 elsewhere")
    assert await posts.has(m.id, "turn") and await posts.has(m.id, "round")

    assert await posts.take(m.id, "round") == [
        ControlPost(m.id, "round", CHANNEL, 501, "Round 1"),
        ControlPost(m.id, "round", CHANNEL, 502, "Round 1 (reminder)")]
    assert await posts.take(m.id, "round") == []  # each post goes to one caller
    assert not await posts.has(m.id, "round")
    assert await posts.has(m.id, "turn")  # other kinds and matches are kept
    assert await posts.take(other.id, "round") == [
        ControlPost(other.id, "round", CHANNEL + 1, 601, "Round 1 elsewhere")]


async def test_forget_post_says_whether_the_post_was_still_recorded(posts, svc):
    m = await start_match(svc)
    await posts.remember(m.id, "turn", CHANNEL, 700, "Match #1 · Round 2 · Action points")
    assert await posts.forget(700) is True
    assert await posts.forget(700) is False
    assert await posts.take(m.id, "turn") == []


async def test_concurrent_takes_share_out_the_posts(posts, svc):
    m = await start_match(svc)
    await posts.remember(m.id, "turn", CHANNEL, 800, "head")
    results = await asyncio.gather(*(posts.take(m.id, "turn") for _ in range(5)))
    assert sorted(len(r) for r in results) == [0, 0, 0, 0, 1]


async def test_posts_survive_a_new_connection(posts, db_target, svc, clock):
    m = await start_match(svc)
    await posts.remember(m.id, "turn", CHANNEL, 900, "head")
    db2 = await open_target(db_target)
    try:
        assert await PostStore(db2).take(m.id, "turn") == [
            ControlPost(m.id, "turn", CHANNEL, 900, "head")]
    finally:
        await db2.close()
    assert await posts.take(m.id, "turn") == []


async def test_bad_posts_are_refused(posts, svc):
    m = await start_match(svc)
    with pytest.raises(ValueError, match="'turn', 'round', 'draw', 'card', 'line'"):
        await posts.remember(m.id, "result", CHANNEL, 1, "x")
    with pytest.raises(NotFoundError, match="no match #999"):
        await posts.remember(999, "turn", CHANNEL, 1, "x")
    assert not await posts.has(m.id, "turn")



async def test_latest_post_prefers_the_kinds_in_order(posts, svc):
    from bot.discord.post_store import PostKind

    m = await start_match(svc)
    kinds = (PostKind.TURN, PostKind.ROUND)
    assert await posts.latest(m.id, kinds) is None
    await posts.remember(m.id, "round", CHANNEL, 801, "Round 1")
    await posts.remember(m.id, "round", CHANNEL, 802, "Round 1 (reminder)")
    assert await posts.latest(m.id, kinds) == ControlPost(m.id, "round", CHANNEL, 802,
                                                          "Round 1 (reminder)")
    await posts.remember(m.id, "turn", CHANNEL, 790, "Match #1 · Round 1 · Effect")
    assert (await posts.latest(m.id, kinds)).message_id == 790  # a turn post goes first
    await posts.remember(m.id, "draw", CHANNEL, 900, "draw offer")
    assert (await posts.latest(m.id, kinds)).message_id == 790  # a draw offer never


async def test_private_posts_are_taken_per_player_once(posts, svc):
    from bot.discord.post_store import PrivatePost

    m = await start_match(svc)
    await posts.remember_private(m.id, 41, 5001, 902, "hand r1 (again)")
    await posts.remember_private(m.id, 41, 5001, 901, "hand r1")
    await posts.remember_private(m.id, 42, 5002, 903, "bob's hand r1")
    assert await posts.take_private(m.id, 41) == [PrivatePost(m.id, 41, 5001, 901, "hand r1"),
                                                  PrivatePost(m.id, 41, 5001, 902,
                                                              "hand r1 (again)")]
    assert await posts.take_private(m.id, 41) == []
    await posts.remember_private(m.id, 41, 5001, 904, "hand r2")
    assert await posts.forget_private(904) is True
    assert await posts.forget_private(904) is False
    assert await posts.take_private(m.id) == [PrivatePost(m.id, 42, 5002, 903,
                                                          "bob's hand r1")]
    with pytest.raises(NotFoundError):
        await posts.remember_private(m.id + 99, 41, 5001, 905, "no such match")


async def test_a_notice_is_noted_once_per_match_and_player(posts, svc):
    from bot.discord.post_store import Notice

    m = await start_match(svc)
    other = await start_match(svc, channel=CHANNEL + 1)
    assert not await posts.noted(m.id, 41, Notice.DM_FAILED)
    assert await posts.note(m.id, 41, Notice.DM_FAILED) is True
    assert await posts.note(m.id, 41, Notice.DM_FAILED) is False  # already noted
    assert await posts.noted(m.id, 41, Notice.DM_FAILED)
    assert not await posts.noted(m.id, 42, Notice.DM_FAILED)  # per player
    assert not await posts.noted(other.id, 41, Notice.DM_FAILED)  # per match
    assert not await posts.noted(m.id, 41, Notice.DM_CLOSED_TOLD)  # per notice
    await posts.unnote(m.id, 41, Notice.DM_FAILED)
    assert not await posts.noted(m.id, 41, Notice.DM_FAILED)
    await posts.unnote(m.id, 41, Notice.DM_FAILED)  # not recorded: no error
