"""Races of people and AI seats gathered at a table (``/race table``, the platform's lobby)
and raced to their scoring through the fake Discord, in English (three people, one AI) and
in Traditional Chinese (two people, two AI): the table's message starts the race, the player
to play is named on each turn's card, every person is rated among the people (the AI seats
are not), and the finished race has its record and replay."""

from __future__ import annotations

import pytest

from bot import games
from bot.discord.tables import table_message
from bot.i18n import tr
from bot.match import TableStatus
from bot.texts import ai_name
from engine.messages import Text
from engine.race import Phase
from tests.discord.conftest import World
from tests.discord.race_helpers import play_decision


@pytest.mark.parametrize(("lang", "humans", "ai"), [("en", 3, 1), ("zh-TW", 2, 2)])
async def test_people_and_the_ai_race_from_a_table_to_the_scoring(world: World, lang: str,
                                                                   humans: int, ai: int) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    locale = "en-US" if lang == "en" else "zh-TW"
    if lang != "en":
        await world.service.set_guild_language(fake.guild_id, lang)
        for user in (alice, bob):
            await user.slash("race settings", language=lang)
    people = [alice, bob, fake.add_user("carol", locale=locale)][:humans]
    out = await alice.slash("race table", players=humans + ai, board="jungle")
    table = out.reply
    assert table.content == tr(table_message(await world.service.get_table(1)), lang)
    if lang == "en":
        assert table.content.startswith(f"**Raptor Race** table of {alice.mention} for "
                                        f"{humans + ai} players (Jungle)")
    else:
        assert table.content.startswith(
            f"{alice.mention} 開的 **迅猛龍競速** 桌，{humans + ai} 人（叢林）")
    for user in people[1:]:
        await user.click(custom_id="race:t:1:join", message=table)
    for _ in range(ai):
        await alice.select("race:t:1:ai", values=["hard"], message=table)
    shown = fake.message(table.message_id)
    seated = tr(Text.joined(", ", [u.mention for u in people] + [ai_name("hard")] * ai), lang)
    assert seated in shown.content
    await alice.click(custom_id="race:t:1:start", message=table)
    assert (await world.service.get_table(1)).status == TableStatus.STARTED
    m = await world.match()
    assert (m.game, m.seats, m.options) == ("race", humans + ai, {"board": "jungle"})
    people = {u.id: u for u in people}
    assert sorted(p.user_id for p in m.players if p.human) == sorted(people)
    assert [p.ai for p in m.players if not p.human] == ["hard"] * ai
    turns = 0
    while m.active:
        seat = m.state.seat
        player = people[m.user_of(seat)]
        if m.state.phase is Phase.ROLL:
            # each turn's card names the player to play, and no other person
            card = next(r for r in reversed(fake.public_messages())
                        if f"race:m:{m.id}:v:{m.version}:keep:all" in
                        [c.get("custom_id") for c in r.walk()])
            assert player.mention in card.content.split("\n")[0]
            others = [u.mention for u in people.values() if u is not player]
            assert not any(mention in card.content.split("\n")[0] for mention in others)
            turns += 1
        m = await play_decision(world, player)
        assert turns < 200
    assert m.reason == "finished"

    assert tuple(p.place for p in m.players) == games.plugin("race").game.outcome(
        m.state).places
    for user_id in people:
        stats = await world.service.stats(fake.guild_id, "race", user_id)
        assert stats.games == 1
    assert (await world.service.stats(fake.guild_id, "race", fake.bot_user.id)).games == 0
    board = await world.service.leaderboard(fake.guild_id, "race")
    assert {s.user_id for s in board} == set(people)

    out = await bob.slash("race record", match=m.id)
    assert out.reply.visibility == "public" and out.reply.files
    out = await alice.slash("race replay", match=m.id)
    assert any(name.endswith(".gif") for r in out.replies for name in r.files)
