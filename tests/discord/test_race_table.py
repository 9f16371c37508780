"""A race of three people and the AI gathered at a table (``/race table``, the platform's
lobby) and raced to the finish through the fake Discord: the table's message starts the
race, only the player to play is pinged, every person is rated among the people (the AI
seat is not), and the finished race has its record and replay."""

from __future__ import annotations

from bot.match import TableStatus
from engine.race import Phase
from tests.discord.conftest import World
from tests.discord.race_helpers import play_decision


async def test_three_people_and_the_ai_race_from_a_table(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    carol = fake.add_user("carol")
    out = await alice.slash("race table", players=4, board="jungle")
    table = out.reply
    assert table.content.startswith(f"**Raptor Race** table of {alice.mention} for 4 players "
                                    "(board: jungle)")
    await bob.click("Join", message=table)
    await carol.click("Join", message=table)
    await alice.select("Seat the AI (host)", values=["hard"], message=table)
    shown = fake.message(table.message_id)
    assert (f"At the table (4/4): {alice.mention}, {bob.mention}, {carol.mention}, AI (hard)"
            in shown.content)
    await alice.click("Start match", message=table)
    assert (await world.service.get_table(1)).status == TableStatus.STARTED
    m = await world.match()
    assert (m.game, m.seats, m.options) == ("race", 4, {"board": "jungle"})
    people = {alice.id: alice, bob.id: bob, carol.id: carol}
    assert sorted(p.user_id for p in m.players if p.human) == sorted(people)
    assert [p.ai for p in m.players if not p.human] == ["hard"]

    turns = 0
    while m.active:
        seat = m.state.seat
        player = people[m.user_of(seat)]
        if m.state.phase is Phase.ROLL:
            # the card asks the player to play, and pings that player alone
            card = next(r for r in reversed(fake.public_messages())
                        if f"race:m:{m.id}:v:{m.version}:keep:all" in
                        [c.get("custom_id") for c in r.walk()])
            assert card.content.startswith(f"**Race #{m.id} · turn {m.state.turn}** — "
                                           f"{player.mention}")
            others = [u.mention for u in people.values() if u is not player]
            assert not any(mention in card.content.split("\n")[0] for mention in others)
            turns += 1
        m = await play_decision(world, player)
        assert turns < 200
    assert m.reason == "finished"

    places = {p.user_id: p.place for p in m.players}
    for user_id in people:
        stats = await world.service.stats(fake.guild_id, "race", user_id)
        assert stats.games == 1
    assert (await world.service.stats(fake.guild_id, "race", fake.bot_user.id)).games == 0
    assert sorted(places.values()) == sorted(p.place for p in m.players)
    board = await world.service.leaderboard(fake.guild_id, "race")
    assert {s.user_id for s in board} == set(people)

    out = await bob.slash("race record", match=m.id)
    assert out.reply.visibility == "public" and out.reply.files
    out = await carol.slash("race replay", match=m.id)
    assert any(name.endswith(".gif") for r in out.replies for name in r.files)
