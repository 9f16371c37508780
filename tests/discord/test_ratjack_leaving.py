"""A seat leaving a Ratjack match of three (RJ8.4): by resignation or when its time runs
out, the seat leaves, the others play on, and the one who left ranks after everyone who
stayed; with two players left, a resignation ends the match."""

from __future__ import annotations

from bot.match import Player
from tests.discord.conftest import World
from tests.discord.ratjack import begin_table, decide


async def table(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    return await begin_table(world, [Player(0, alice.id), Player(1, bob.id),
                                     Player(2, fake.bot_user.id, "easy")], by=alice)


async def play_out(world: World, m):
    users = {world.alice.id: world.alice, world.bob.id: world.bob}
    steps = 0
    while m.active:
        (seat,) = m.to_act()
        await decide(world, users[m.user_of(seat)])
        m = await world.service.get_match(m.id)
        steps += 1
        assert steps < 1500
    return m


async def test_a_resignation_leaves_the_others_playing_and_ranks_last(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await table(world)
    assert m.to_act() == {0}
    out = await bob.slash("ratjack resign")
    assert out.reply.ephemeral and out.reply.content.startswith(
        "Really resign Ratjack match #1? You leave the match and rank after everyone who "
        "stays; the others play on.")
    await bob.click("Resign")
    m = await world.service.get_match(m.id)
    assert m.active and m.state.forfeited == [False, True, False]
    assert m.players[1].left == "resigned"
    said = [r for r in fake.public_messages(fake.channel) if "🏳️" in r.content]
    assert [r.content for r in said] == [
        f"🏳️ p2 {bob.mention} resigned and leaves Ratjack match #1; the game goes on "
        "without them."]
    # the table shows it; alice plays on with the AI
    out = await alice.slash("ratjack status")
    assert f"p2 {bob.mention}: 0 VP · left the match" in out.reply.content
    m = await play_out(world, m)
    assert not m.active and m.reason in ("three_vp", "last_in_match")
    assert m.players[1].place == 3 and m.players[1].left == "resigned"
    result = next(r for r in fake.public_messages(fake.channel)
                  if r.content.startswith("🏆 **Ratjack match #1 is over"))
    assert f"3. p2 {bob.mention} — 0 VP (resigned)" in result.content
    assert fake.problems() == []


async def test_with_two_players_left_a_resignation_ends_the_match(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await table(world)
    await bob.slash("ratjack resign")
    await bob.click("Resign")
    out = await alice.slash("ratjack resign")
    assert out.reply.content.startswith("Really resign Ratjack match #1? The other player "
                                        "wins.")
    await alice.click("Resign")
    m = await world.service.get_match(m.id)
    assert not m.active and m.reason == "last_in_match" and m.winners == {2}
    assert [p.place for p in m.players] == [2, 2, 1]  # both left with 0 VP
    result = next(r for r in fake.public_messages(fake.channel)
                  if r.content.startswith("🏆 **Ratjack match #1 is over: p3 AI (easy) wins**"))
    assert "(resigned)" in result.content
    assert fake.problems() == []


async def test_a_seat_whose_time_runs_out_leaves_and_the_others_play_on(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await table(world)
    assert m.to_act() == {0}
    flow = world.bot.flow
    world.clock.advance(12 * 3600)
    assert [e.kind for e in await flow.timers.run_once()] == ["reminder"]
    reminder = fake.public_messages(fake.channel)[-1]
    assert reminder.content.startswith(f"⏰ {alice.mention}, Ratjack match #1 is waiting for "
                                       "your decision. Time runs out")
    world.clock.advance(12 * 3600)
    assert [e.kind for e in await flow.timers.run_once()] == ["seat_left"]
    m = await world.service.get_match(m.id)
    assert m.active and m.players[0].left == "timeout" and m.state.forfeited[0]
    assert any(r.content == f"⏰ p1 {alice.mention} ran out of time and leaves Ratjack match "
               "#1; the game goes on without them." for r in fake.public_messages())
    # bob is the only person left: his turn comes round, and he is pinged for it
    assert 1 in m.to_act()
    assert any(r.pinged == (bob.id,) for r in fake.records if not r.edit)
    m = await play_out(world, m)
    assert m.players[0].place == 3
    assert fake.problems() == []
