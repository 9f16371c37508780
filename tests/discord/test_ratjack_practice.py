"""Ratjack on Discord: a practice game against the AI (``/ratjack practice``), played
through the private view's controls, with typed decisions and their autocomplete."""

from __future__ import annotations

import random

from bot.games.ratjack.ui import UI
from engine.ratjack import Phase, effect_title, format_action, read_record, view
from tests.discord.conftest import World
from tests.discord.ratjack import controls, decide, hidden_names, names_in, private_seats


async def test_practice_with_two_ai_seats_plays_on_the_card_and_in_private(world: World):
    fake, alice = world.fake, world.alice
    random.seed(3)  # the person's seat is drawn
    out = await alice.slash("ratjack practice", players=3, level="easy")
    start = out.reply
    assert start.visibility == "public"
    assert start.content.startswith("**Ratjack match #1** — a new practice game: ")
    assert "Red Rats and Blue Rats" in start.content and "Click **Your cards**" in start.content
    m = await world.match()
    assert m.seats == 3 and [p.ai for p in m.players].count("easy") == 2
    me = m.seat_of(alice.id)
    assert m.to_act() == {me}  # the AI played its turns before hers
    card = fake.public_messages(fake.channel)[-1]
    assert card.content.startswith(f"**Ratjack match #1 · round 1, turn {m.state.turn}** — "
                                   f"p{me + 1} {alice.mention}, your decision: draw a card")
    assert [b["custom_id"] for b in card.buttons] == ["ratjack:m:1:r:1:hand"]
    assert card.attachments[0].filename == "board.png"
    assert card.pinged == ()  # she just asked for the game

    # her cards, privately: the image, her decision and the draw as buttons
    out = await alice.click("Your cards")
    view_msg = out.reply
    assert view_msg.ephemeral and view_msg.user_id == alice.id
    assert private_seats(view_msg) == {me}
    assert view_msg.attachments[0].filename == "hand.png"
    assert "**Your decision**: draw a card" in view_msg.content
    assert set(controls(world, alice, m)) == {format_action(a)
                                             for a in view(m.state, me).legal}

    # typed: the autocomplete offers her legal actions, labelled from her view
    choices = await alice.autocomplete("ratjack act", "action", "draw")
    assert [c["value"] for c in choices] == [format_action(a) for a in view(m.state, me).legal]
    assert choices[0]["name"] == "draw the top card of the deck · draw deck"
    out = await alice.slash("ratjack act", action="draw deck")
    m = await world.match()
    held = ", ".join(f"**{h.card}** ({effect_title(h.card)})" for h in m.state.hands[me])
    assert out.reply.ephemeral and out.reply.content.startswith(
        f"Done: `draw deck`\nYour hand: {held}\n**Your decision**: play one of your two cards")
    assert m.state.phase is Phase.ACTION and m.to_act() == {me}

    turns = 0
    while m.active and turns < 12:
        hidden, round_no = hidden_names(m), m.state.round
        before = (m.state.round, m.state.turn)
        notation, out = await decide(world, alice)
        public = "\n".join(r.text for r in out if r.visibility == "public")
        m = await world.service.get_match(m.id)
        if m.state.round == round_no:  # (a round's end shows every card, RJ9.7)
            # a card that stays hidden is never named in public (RJ11.1): not the card
            # she drew nor one played face down, not the AI's
            assert names_in(public, hidden & hidden_names(m)) == set()
        turns += (m.state.round, m.state.turn) != before
        assert not m.active or m.to_act() == {me}  # the AI played its turns
    assert turns == 12 or not m.active
    # every private view went to its own player only, none is public
    for r in fake.records:
        if r.visibility == "public":
            assert not private_seats(r) and all(a.filename != "hand.png"
                                                for a in r.attachments)
        else:
            assert private_seats(r) <= {me}
    # no turn of hers is pinged (each comes right after her own), only the result is
    pinged = [r for r in fake.records if not r.edit and r.pinged]
    assert all(r.pinged == (alice.id,) and r.content.startswith("🏆 **Ratjack match #1 is "
                                                                "over") for r in pinged)
    last_seat = (await world.service.action_log(m.id))[-1][1]
    assert len(pinged) == (0 if m.active or last_seat == me else 1)
    assert UI.card_key(m) == m.state.round
    assert fake.problems() == []


async def test_a_finished_practice_has_its_replay_record_and_final_table(world: World):
    fake, alice = world.fake, world.alice
    random.seed(3)
    await alice.slash("ratjack practice", players=2, level="easy")
    m = await world.match()
    while m.active:
        await decide(world, alice)
        m = await world.service.get_match(m.id)
    assert m.reason == "three_vp" and max(m.state.vp) == 3
    out = await alice.slash("ratjack replay")
    gif, viewer = out.replies
    assert gif.content.startswith("🎬 **Replay of Ratjack match #1**: ")
    assert gif.attachments[0].filename == "ratjack-match-1.gif"
    assert viewer.ephemeral and viewer.content.startswith(
        "**Ratjack match #1 · round 1, turn 1 (1/")
    out = await alice.click(custom_id="ratjack:replay:1:1:next", message=viewer)
    assert out.reply.content.startswith("**Ratjack match #1 · round 1, turn 2 (2/")
    out = await alice.slash("ratjack record")
    assert out.reply.attachments[0].filename == "ratjack-match-1.txt"
    record = read_record(out.reply.attachments[0].data.decode())
    assert record.final.vp == m.state.vp
    out = await alice.slash("ratjack board")
    assert out.reply.content.startswith("🏆 **Ratjack match #1 is over: ")
    out = await alice.slash("ratjack rules")
    assert [e.get("title") for e in out.reply.embeds][0] == "Ratjack — the rules in short"
    assert len(out.reply.embeds) == 5
    assert fake.problems() == []
