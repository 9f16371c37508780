"""While the bot stops, a new interaction changes nothing and gets an ephemeral "stopping"
answer; an autocomplete offers nothing (``bot.discord.shutdown.Gate``; through the real
client against the fake Discord, in this process). The drain waits for what was admitted, at
most its time limit, and cancels what outlasts it."""

from __future__ import annotations

import asyncio

from bot import texts
from bot.discord.shutdown import Gate
from bot.games.raptor import sides as rs
from engine import Side
from tests.e2e.players import World


async def test_interactions_during_a_stop_are_answered_and_change_nothing(tmp_path):
    async with World.open(tmp_path) as world:
        table = await world.new_table(raptor="alice", scientist="bob")
        alice, bob = table.raptor, table.scientist
        before = await table.match()
        log_before = await world.observer.action_log(table.match_id)
        round_message = alice.round_message()
        assert round_message is not None
        assert await alice.autocomplete("") != []  # open: suggestions

        world.bot.gate.close()  # what RaptorBot.close does first on SIGTERM

        clicked = await alice.click("Pick your card", message=round_message)
        assert [(r.visibility, r.user_id, r.content) for r in clicked.replies] == [
            ("ephemeral", alice.id, texts.STOPPING)]
        typed = await bob.act("play 1")
        assert [(r.visibility, r.user_id, r.content) for r in typed.replies] == [
            ("ephemeral", bob.id, texts.STOPPING)]
        challenge = await world.user("carol").slash("raptor challenge",
                                                    in_channel=world.fake.add_channel("other"),
                                                    user=world.user("dave"))
        assert [(r.visibility, r.content) for r in challenge.replies] == [
            ("ephemeral", texts.STOPPING)]
        assert await alice.autocomplete("") == []  # nothing offered

        after = await table.match()
        assert (after.version, after.state) == (before.version, before.state)
        assert await world.observer.action_log(table.match_id) == log_before
        assert await world.observer.pending_challenges(world.fake.channel.id) == []
        assert world.bot.gate.in_flight == 0
        assert before.state.phase is not None and rs.user(before, Side.RAPTOR) == alice.id


async def test_drain_waits_for_the_admitted_and_cancels_what_outlasts_it():
    gate = Gate()
    finished: list[str] = []

    async def handler(name: str, seconds: float) -> None:
        assert gate.admit()
        await asyncio.sleep(seconds)
        finished.append(name)

    quick = asyncio.create_task(handler("quick", 0.05))
    stuck = asyncio.create_task(handler("stuck", 60))
    await asyncio.sleep(0)  # both started and admitted
    assert gate.in_flight == 2
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await gate.drain(0.3) == 1  # one cancelled
    assert 0.3 <= loop.time() - began < 2.0
    assert finished == ["quick"] and stuck.cancelled() and quick.done()
    assert gate.stopping and gate.in_flight == 0

    async def late() -> bool:
        return gate.admit()

    assert await asyncio.create_task(late()) is False  # closed for good
    assert await gate.drain(0.3) == 0  # nothing left: returns at once
