"""Ends that a stopped bot did not post (``bot.match.announcements``): a timer's forfeit
committed by a bot that stopped before posting it is posted once by the restarted bot, with
the card's controls retired; an end its own flow posted is never posted again.

A bot "stops between the commit and the post" here by its narrator failing right there (as
the process would, dying at that point); the restarted bot is a new instance with a new
service (another owner name in claims) on the same database file and the same fake clock.
"""

from __future__ import annotations

import asyncio

from bot.discord.app import build_service, create_bot
from bot.games.raptor import sides as rs
from engine import Side
from tests.discord.conftest import SEED, World
from tests.discord.helpers import pick, start_match

R, S = Side.RAPTOR, Side.SCIENTIST
LEASE = 60.0  # the default claim lease (seconds): ends younger than that are left to their flow


class _Stopped(Exception):
    """The process stopping right after it committed a match's end."""


async def _restart_with_a_new_service(world: World) -> None:
    await world.fake.stop_client()
    service = build_service(world.bot.settings, world.db, clock=world.clock,
                            seed_source=lambda: SEED)
    assert service.ctx.owner != world.bot.service.ctx.owner and service.ctx.claim_lease == LEASE
    world.bot = await create_bot(world.bot.settings, world.db, service=service)
    await world.fake.start_client(world.bot)  # returns once the start-up timer pass is done


def _results(world: World) -> list:
    return [r for r in world.fake.public_messages(world.fake.channel)
            if not r.edit and r.labels == ["Rematch"]]


async def test_a_forfeit_committed_before_a_stop_is_posted_once_after_the_restart(
        world: World, monkeypatch) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await start_match(world)
    await pick(alice, R, 7)
    card = next(r for r in fake.public_messages(fake.channel) if "Pick your card" in r.labels)

    async def stopped(*args: object, **kwargs: object) -> None:
        raise _Stopped

    monkeypatch.setattr(world.bot.flow.narrator, "finish", stopped)
    world.clock.advance(24 * 3600)  # bob's turn runs out
    events = await world.bot.flow.timers.run_once()
    assert [(e.kind, e.match_id) for e in events] == [("forfeit", m.id)]
    fake.errors.clear()  # the stop was logged as an error: expected here
    ended = await world.service.get_match(m.id)
    assert (ended.reason, rs.result(ended), ended.end_announced_at) == ("timeout", "raptor", None)
    assert _results(world) == [] and "Pick your card" in fake.message(card.id).labels
    monkeypatch.undo()

    world.clock.advance(LEASE)  # the bot comes back a minute later
    await _restart_with_a_new_service(world)
    [result] = _results(world)
    assert f"{alice.mention} (raptor) wins" in result.content
    assert f"{bob.mention} (scientist) ran out of time" in result.content
    assert {alice.id, bob.id} <= set(result.pinged)
    now = fake.message(card.id)  # the live card: the final board, no controls
    assert now.components == [] and "the match is over" in now.content and now.attachments
    assert (await world.service.get_match(m.id)).end_announced_at == world.clock.now

    world.clock.advance(10 * LEASE)
    seen = len(fake.records)
    assert await world.bot.flow.timers.run_once() == []
    assert await world.bot.flow.timers.announce_endings() == []
    assert len(fake.records) == seen and len(_results(world)) == 1  # posted once
    assert fake.problems() == []


async def test_an_end_its_flow_posted_is_not_posted_again(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await start_match(world)
    await alice.slash("raptor resign")
    await alice.click("Resign")
    [result] = _results(world)
    assert f"{bob.mention} (scientist) wins" in result.content
    assert (await world.service.get_match(m.id)).end_announced_at == world.clock.now

    world.clock.advance(10 * LEASE)
    seen = len(fake.records)
    assert await world.bot.flow.timers.announce_endings() == []
    await _restart_with_a_new_service(world)
    assert await world.bot.flow.timers.announce_endings() == []
    assert len([r for r in fake.records[seen:] if r.visibility == "public"]) == 0
    assert len(_results(world)) == 1
    assert fake.problems() == []


async def test_an_end_its_flow_is_still_posting_is_left_to_it(world: World,
                                                              monkeypatch) -> None:
    """A timer pass while the flow that ended a match is still posting it (Discord slow)
    leaves it to that flow: one result, not two."""
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await start_match(world)
    narrator = world.bot.flow.narrator
    real_finish = narrator.finish
    slow_discord = asyncio.Event()

    calls = []

    async def slow_finish(*args: object, **kwargs: object) -> None:
        calls.append(args)
        if len(calls) == 1:  # the resignation's own flow
            await slow_discord.wait()
        await real_finish(*args, **kwargs)

    monkeypatch.setattr(narrator, "finish", slow_finish)
    await alice.slash("raptor resign")
    await alice.click("Resign")  # returns while the flow waits for Discord
    assert not (await world.service.get_match(m.id)).active and _results(world) == []
    world.clock.advance(LEASE - 1)  # the end is less than a lease old
    assert await world.bot.flow.timers.announce_endings() == []
    assert await world.bot.flow.timers.run_once() == []
    slow_discord.set()
    for _ in range(250):
        if (await world.service.get_match(m.id)).end_announced_at is not None:
            break
        await asyncio.sleep(0.02)
    [result] = _results(world)
    assert f"{bob.mention} (scientist) wins" in result.content and len(calls) == 1
    world.clock.advance(10 * LEASE)
    assert await world.bot.flow.timers.announce_endings() == []
    assert len(_results(world)) == 1
    assert fake.problems() == []
