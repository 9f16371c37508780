"""Practice against the AI, match timers (reminders, forfeits, challenge expiry) and a bot
restart in the middle of a match."""

from __future__ import annotations

import asyncio

import engine
from bot.discord.app import create_bot
from bot.games.raptor import PLUGIN
from bot.games.raptor import sides as rs
from engine import Phase, Side
from tests.discord.conftest import World
from tests.discord.helpers import has_controls, option_values, pick, start_match, turn_message

R, S = Side.RAPTOR, Side.SCIENTIST


def waiting_for_alice(world: World, match) -> None:
    """The match waits for alice, and the channel shows her how to decide."""
    assert match.active
    assert engine.to_act(match.state) == {rs.side_in(match, world.alice.id)}
    public = world.fake.public_messages(world.fake.channel)
    if match.state.phase is Phase.PICK:
        wanted = f"raptor:m:{match.id}:r:{match.state.round}:hand"
        assert any(r.button(custom_id=wanted) for r in public)
    else:
        assert has_controls(public[-1]) and world.alice.mention in public[-1].content


async def test_practice_progresses_to_the_humans_next_decision(world: World) -> None:
    fake, alice = world.fake, world.alice
    bot_id = fake.bot_user.id
    out = await alice.slash("raptor practice", side="raptor", level="easy")
    start = out.reply
    assert start.visibility == "public" and start.content.startswith("**Match #1**")
    assert f"<@{bot_id}> (scientist, AI easy)" in start.content
    match = await world.match()
    assert (rs.ai(match, R), rs.ai(match, S)) == (None, "easy") and rs.user(match, S) == bot_id
    # The AI committed its pick before alice's (it only sees its own view).
    assert match.state.picks[S] is not None and match.state.picks[R] is None
    # the AI's pick shows on the card (nothing asks the AI to pick, no "has picked" message)
    (card,) = [r for r in out if r.visibility == "public" and not r.edit and r.id != start.id]
    assert (f"{alice.mention} (raptor) ⏳ · <@{bot_id}> (scientist, AI easy) ✅ — pick your "
            "card") in card.content
    assert card.pinged == ()  # alice just asked for the game
    assert any(r.path.endswith(f"/channels/{fake.channel.id}/typing") for r in fake.requests)

    rounds = 0
    while rounds < 3 and match.active:
        if match.state.phase is Phase.PICK:
            await pick(alice, R, match.state.hands[R][-1])
            rounds += 1
        else:
            await alice.slash("raptor act", action="end" if any(
                type(a) is engine.End for a in engine.legal_actions(match.state, R))
                else engine.format_action(engine.legal_actions(match.state, R)[0]))
        match = await world.match()
        if match.active:
            waiting_for_alice(world, match)
    assert rounds == 3 or not match.active
    assert any("Round 1 summary" in r.content for r in fake.public_messages())
    assert "has picked" not in "\n".join(r.text for r in fake.records)
    # alice is never pinged: every turn that comes to her comes right after her own action
    assert [r.pinged for r in fake.records if not r.edit and r.pinged] == []
    assert fake.problems() == []


async def test_challenging_the_bot_starts_a_practice_game(world: World) -> None:
    fake, alice = world.fake, world.alice
    out = await alice.slash("raptor challenge", user=fake.bot_user, side="scientist",
                            setup="manual")
    assert out.reply.visibility == "public" and "practice game" in out.reply.content
    match = await world.match()
    assert (rs.ai(match, R), rs.ai(match, S)) == ("easy", None)
    # The AI (raptor) placed its mother and babies; alice places the scientists.
    assert match.state.phase is Phase.SETUP_SCIENTISTS
    turn = turn_message(world)
    assert alice.mention in turn.content and "place a scientist" in turn.content
    for _ in range(4):
        place = option_values(turn_message(world))[0]
        assert place.startswith("S@")
        await alice.select("Choose an action", values=[place])
    match = await world.match()
    assert match.state.round == 1 and match.state.phase is Phase.PICK
    assert match.state.picks[R] is not None  # the AI picked at once
    assert any("setup done" in r.content and "`S@" in r.content for r in fake.public_messages())


async def test_reminder_forfeit_and_challenge_expiry(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    flow = world.bot.flow
    carol = fake.add_user("carol")
    busy = fake.add_channel("elsewhere")
    await carol.slash("raptor challenge", user=alice, in_channel=busy)
    [challenge] = fake.public_messages(busy)
    assert challenge.labels == ["Accept", "Decline", "Cancel"]
    await start_match(world)
    await pick(alice, R, 7)

    world.clock.advance(11 * 60)  # the challenge in #elsewhere expires after 10 minutes
    events = await flow.timers.run_once()
    assert [e.kind for e in events] == ["challenge_expired"]
    [expired] = fake.public_messages(busy)  # the challenge's own message, without buttons
    assert expired.id == challenge.id and expired.labels == []
    assert "expired" in expired.content and carol.mention in expired.content

    world.clock.advance(12 * 3600)  # half of the 24 h turn timeout: bob is reminded
    events = await flow.timers.run_once()
    assert [e.kind for e in events] == ["reminder"]
    reminder = fake.public_messages(fake.channel)[-1]
    assert reminder.content.startswith(f"⏰ {bob.mention}, Match #1 is waiting")
    assert alice.mention not in reminder.content

    world.clock.advance(12 * 3600)
    events = await flow.timers.run_once()
    assert [e.kind for e in events] == ["forfeit"]
    result = fake.public_messages(fake.channel)[-1]
    assert f"{alice.mention} (raptor) wins" in result.content
    assert f"{bob.mention} (scientist) ran out of time" in result.content
    assert result.labels == ["Rematch"] and result.attachments == []
    card = next(r for r in reversed(fake.public_messages(fake.channel)) if r.attachments)
    assert "the match is over" in card.content and card.components == []  # the final board
    assert await flow.timers.run_once() == []  # each timer fires once


async def test_an_expired_challenge_whose_message_was_deleted_gets_a_new_message(
        world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await alice.slash("raptor challenge", user=bob)
    [challenge] = fake.public_messages(fake.channel)
    fake.server.delete_message(fake.message(challenge.id))
    world.clock.advance(11 * 60)
    events = await world.bot.flow.timers.run_once()
    assert [e.kind for e in events] == ["challenge_expired"]
    [notice] = fake.public_messages(fake.channel)
    assert notice.id != challenge.id and notice.labels == []
    assert notice.content == (f"Challenge from {alice.mention} to {bob.mention}: "
                              "expired.")


async def test_the_timer_loop_wakes_up_by_itself(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await alice.slash("raptor challenge", user=bob)
    world.clock.advance(11 * 60)
    world.bot.flow.poke()
    for _ in range(200):
        await asyncio.sleep(0.02)
        if "expired" in (fake.public_messages()[-1].content or ""):
            break
    assert "expired" in fake.public_messages()[-1].content


async def test_controls_survive_a_restart(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    await pick(alice, R, 7)
    out = await bob.click("Pick your card")
    hand = out.reply
    await fake.stop_client()
    restarted = await create_bot(world.bot.settings, world.db, service=world.service)
    await fake.start_client(restarted)
    world.bot = restarted
    card = next(
        r for r in fake.public_messages(fake.channel) if "Pick your card" in r.labels)
    out = await bob.click("1 · Sleeping Gas & Shuffle", message=hand.id)
    assert any(r.id == card.id and "Cards: raptor" in r.text for r in out)  # in place
    turn = turn_message(world)
    assert turn.id == card.id
    await bob.select("Choose an action", values=["gas D3"], message=turn.id)
    match = await world.match()
    assert match.state.phase is Phase.AP and match.state.ap.side is R
    assert fake.problems() == []


async def restart(world: World) -> None:
    """Stop the bot and start a new one on the same database."""
    await world.fake.stop_client()
    restarted = await create_bot(world.bot.settings, world.db, service=world.service)
    await world.fake.start_client(restarted)
    world.bot = restarted


async def test_a_restarted_bot_edits_the_same_card(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    await start_match(world)
    card = next(r for r in fake.public_messages(fake.channel) if "Pick your card" in r.labels)
    await pick(alice, R, 7)
    await restart(world)
    out = await pick(bob, S, 1)  # the reveal: on the card posted before the restart
    assert [r.id for r in out if r.visibility == "public" and not r.edit] == []
    assert turn_message(world).id == card.id and "Pick your card" not in fake.message(
        card.id).labels
    assert option_values(fake.message(card.id)) and bob.mention in fake.message(card.id).content

    await restart(world)
    # the card's menu, posted before the restart, still works (DynamicItems)
    out = await bob.select("Choose an action", values=["gas D3"], message=card.id)
    now = fake.message(card.id)
    assert "`gas D3`" in now.embeds[0]["description"] and alice.mention in now.content
    assert "6 AP" in now.content and "End turn" in now.labels
    # no new card, and no ping: alice was pinged by this round's card (kept with the card,
    # so a restarted bot knows)
    assert [r.id for r in out if r.visibility == "public" and not r.edit] == []
    assert (await world.match()).state.phase is Phase.AP
    assert fake.problems() == []


async def test_stopping_right_after_a_poke_ends_the_timer_loop(world: World) -> None:
    """A move pokes the timer loop; a shutdown just then must still stop it (on Python
    3.11, asyncio.wait_for dropped that cancellation and the loop ran on)."""
    await asyncio.sleep(0.3)  # the loop is asleep, waiting for a poke or its timeout
    flow = world.bot.flow
    timer_loop = flow.timers._task
    assert timer_loop is not None and not timer_loop.done()
    flow.poke()
    await asyncio.sleep(0)  # the wake-up is under way
    stopping = asyncio.ensure_future(flow.stop())
    done, _ = await asyncio.wait({stopping}, timeout=5)
    assert done, "Flow.stop() was still waiting for the timer loop after 5 s"
    assert timer_loop.done()


async def test_the_narrator_forgets_a_match_once_it_is_over(world: World) -> None:
    alice = world.alice
    narrator = world.bot.flow.narrator
    await alice.slash("raptor practice", side="raptor", level="easy")
    match = await world.match()
    while match.state.phase is Phase.PICK:  # until a turn message is posted for alice
        await pick(alice, R, match.state.hands[R][-1])
        match = await world.match()
    cards = narrator.cards
    assert match.active and match.id in cards._locks and match.id in cards._starter
    await alice.slash("raptor resign")
    await alice.click("Resign")
    assert not (await world.service.get_match(match.id)).active
    assert match.id not in cards._locks and match.id not in cards._starter


class FailingAI:
    """The bot's AI, raising ``RuntimeError`` on its first ``failures`` decisions (on every
    one with None)."""

    def __init__(self, inner, failures: int | None) -> None:
        self.inner = inner
        self.failures = failures
        self.calls = 0

    def __call__(self, view, **kwargs):
        self.calls += 1
        if self.failures is None or self.calls <= self.failures:
            raise RuntimeError("the AI broke")
        return self.inner(view, **kwargs)


def ai_failures_logged(world: World) -> int:
    """How many "the AI failed to act" errors the bot logged (the only errors it logged;
    forgotten then, as expected here)."""
    firsts = [e.splitlines()[0] for e in world.fake.errors]
    assert set(firsts) <= {"bot.discord.narration: match 1: the AI failed to act"}, firsts
    world.fake.errors.clear()
    return len(firsts)


async def _practice_with(world: World, failures: int | None) -> FailingAI:
    """A practice of alice (raptor) against an AI that fails, driven by the timer task's
    ``run_once`` only (its loop is stopped: the test moves the clock)."""
    await world.bot.flow.timers.stop()
    play = world.service.play
    ai = FailingAI(PLUGIN.chooser(), failures)  # the Raptor AI, failing first
    play._ai_chooser = ai
    await world.alice.slash("raptor practice", side="raptor", level="easy")
    return ai


async def test_the_timer_loop_tries_a_failed_ai_again_and_the_practice_goes_on(
        world: World) -> None:
    fake, alice = world.fake, world.alice
    ai = await _practice_with(world, failures=1)
    match = await world.match()
    assert ai.calls == 1 and match.state.picks[S] is None  # the AI's pick failed
    assert ai_failures_logged(world) == 1
    world.clock.advance(4)
    await world.bot.flow.timers.run_once()
    assert ai.calls == 1  # its retry is not due yet
    world.clock.advance(1)
    await world.bot.flow.timers.run_once()  # no restart: the timer task tries again
    match = await world.match()
    assert ai.calls == 2 and match.state.picks[S] is not None and match.active
    card = next(r for r in reversed(fake.public_messages(fake.channel))
                if "pick your card" in r.content)
    assert f"<@{fake.bot_user.id}> (scientist, AI easy) ✅" in card.content
    # and the match goes on as usual: after alice's pick the AI plays on, then waits for her
    await pick(alice, R, match.state.hands[R][-1])
    match = await world.match()
    assert match.active and ai.calls >= 3 and match.log_length >= 3
    waiting_for_alice(world, match)
    assert fake.problems() == []


async def test_an_ai_that_keeps_failing_ends_the_practice_without_a_result(
        world: World) -> None:
    fake = world.fake
    ai = await _practice_with(world, failures=None)
    for delay in (5, 10, 20):  # each failure waits twice as long for the next try
        world.clock.advance(delay)
        await world.bot.flow.timers.run_once()
    assert ai.calls == 4 and ai_failures_logged(world) == 4
    events = await world.bot.flow.timers.run_once()  # the fourth failure ends it
    assert [e.kind for e in events] == ["ai_failed"]
    match = await world.service.get_match(events[0].match_id)
    assert not match.active and rs.result(match) is None and match.reason == "ai_failed"
    result = fake.public_messages(fake.channel)[-1]
    assert result.content.startswith(
        "**Match #1 is over**: the AI failed to make its decision, again after several "
        "tries, so the match ends without a result (not rated).")
    assert result.labels == ["Rematch"]
    world.clock.advance(3600)
    assert await world.bot.flow.timers.run_once() == [] and ai.calls == 4
    assert fake.problems() == []
