"""Ratjack on Discord: a match of three players — two people and the AI — begun as the
lobby begins one, played through the private views to 3 VP (RJ9.5), in English and in
Traditional Chinese, without a private card ever shown to another seat (RJ11)."""

from __future__ import annotations

import pytest

from bot.games.ratjack.ui import UI, _draw_table
from bot.i18n import translator
from bot.match import Player
from engine.ratjack import outcome, view
from tests.discord.conftest import World
from tests.discord.ratjack import begin_table, decide, hidden_names, names_in, private_seats

WORDS = {
    "en": {"start": "**Ratjack match #1** — a new match: ",
           "card": "**Ratjack match #1 · round 1, turn 1** — ",
           "ping": "🔔 {mention}, your decision in Ratjack match #1: ",
           "won": "🏆 **Ratjack match #1 is over: ",
           "closed": "**Ratjack match #1 · round 1**\n**Round 1 is over**"},
    "zh-TW": {"start": "**Ratjack 第 1 局** — 新對局：",
              "card": "**Ratjack 第 1 局 · 第 1 回合第 1 輪** — ",
              "ping": "🔔 {mention}，Ratjack 第 1 局輪到你決定：",
              "won": "🏆 **Ratjack 第 1 局結束：",
              "closed": "**Ratjack 第 1 局 · 第 1 回合**\n**第 1 回合結束**"},
}


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
async def test_two_people_and_the_ai_play_a_match_to_three_vp(world: World, lang: str):
    fake, alice, bob = world.fake, world.alice, world.bob
    words = WORDS[lang]
    if lang != "en":
        fake.guild_locale = alice.info.locale = bob.info.locale = lang
    bot_id = fake.bot_user.id
    m = await begin_table(world, [Player(0, alice.id), Player(1, bob.id),
                                  Player(2, bot_id, "easy")], by=alice)
    assert m.seats == 3 and not m.ai_of(0) and not m.ai_of(1) and m.ai_of(2) == "easy"
    start = next(r for r in fake.public_messages(fake.channel)
                 if r.content.startswith(words["start"]))
    assert f"p1 {alice.mention}" in start.content and f"p2 {bob.mention}" in start.content
    card = fake.public_messages(fake.channel)[-1]
    assert card.content.startswith(words["card"]) or m.state.current == 2
    users = {alice.id: alice, bob.id: bob}
    steps = 0
    while m.active:
        (seat,) = m.to_act()
        user = users[m.user_of(seat)]
        hidden, round_no = hidden_names(m), m.state.round
        _, out = await decide(world, user)
        m = await world.service.get_match(m.id)
        if m.state.round == round_no:  # (a round's end shows every card, RJ9.7)
            public = "\n".join(r.text for r in out if r.visibility == "public")
            assert names_in(public, hidden & hidden_names(m)) == set()
        steps += 1
        assert steps < 1500
    assert m.reason == "three_vp" and max(m.state.vp) == 3
    winners = sorted(m.winners)
    assert winners == sorted(m.state.winners)
    assert [p.place for p in m.players] == list(outcome(m.state).places)

    # the result names the winners and pings the people but the last to act
    (result,) = [r for r in fake.public_messages(fake.channel)
                 if r.content.startswith(words["won"]) and not r.edit]
    assert set(result.pinged) <= {alice.id, bob.id} and result.pinged
    # each round's card became that round's record with every card shown (RJ9.7)
    assert any(r.content.startswith(words["closed"]) for r in fake.public_messages())

    # turn pings: to the person whose turn came, from another person's action, only
    pings = [r for r in fake.records if not r.edit and r.pinged and r.id != result.id
             and not r.attachments]
    assert {r.pinged for r in pings} == {(alice.id,), (bob.id,)}
    assert pings, "no turn was pinged"
    for r in pings:
        (uid,) = r.pinged
        assert r.content.startswith(words["ping"].format(mention=f"<@{uid}>"))

    # private views only ever went to their own seat's player; none was public
    seat_of = {alice.id: 0, bob.id: 1}
    for r in fake.records:
        if r.visibility == "public":
            assert not private_seats(r) and all(a.filename != "hand.png"
                                                for a in r.attachments)
        else:
            assert private_seats(r) <= {seat_of[r.user_id]}
    assert any(private_seats(r) == {0} for r in fake.records)
    assert any(private_seats(r) == {1} for r in fake.records)

    # the final table is the public view's picture, in the server's language
    last_card = max((r for r in fake.public_messages(fake.channel) if r.attachments),
                    key=lambda r: r.seq)
    png = fake.server.messages[last_card.id].attachments[0].data
    tr = str if lang == "en" else translator(lang).text
    job = UI.board(m, None)
    assert png == _draw_table(view(m.state, None), **job.kwargs, tr=tr)
    assert fake.problems() == []

