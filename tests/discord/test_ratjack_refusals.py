"""Forged clicks on Ratjack's controls: a custom id is input from the client, so every
click is checked against storage (the match, its server, channel and message, the
clicker's seat, the version, the legal actions) and a bad one gets an ephemeral answer and
changes nothing."""

from __future__ import annotations

import random

import pytest

from bot import texts as platform_texts
from bot.match import Player
from engine.ratjack import Phase, format_action, view
from tests.discord.conftest import World
from tests.discord.ratjack import begin_table, controls
from tests.fakediscord import FakeUser, Outcome


def answer(out: Outcome, user: FakeUser) -> str:
    """The one ephemeral answer ``user`` got."""
    (said,) = [r for r in out.visible_to(user) if r.ephemeral and r.content]
    return said.content


async def practice(world: World):
    random.seed(1)
    await world.alice.slash("ratjack practice", players=2, level="easy")
    m = await world.match()
    card = next(r for r in reversed(world.fake.public_messages(world.fake.channel))
                if r.buttons)
    view_msg = (await world.alice.click("Your cards")).reply
    return m, card, view_msg


async def unchanged(world: World, m) -> None:
    after = await world.service.get_match(m.id)
    assert (after.version, after.state) == (m.version, m.state)


async def test_a_forged_decision_on_the_public_card_is_refused(world: World):
    m, card, _ = await practice(world)
    forged = f"ratjack:m:{m.id}:v:{m.version}:play:draw deck"
    for user in (world.alice, world.bob):
        out = await user.forge_click(forged, message=card)
        assert answer(out, user) == platform_texts.NOT_THIS_MESSAGE
    await unchanged(world, m)


async def test_a_decision_that_is_not_legal_is_refused_with_what_is(world: World):
    m, _, view_msg = await practice(world)
    me = m.seat_of(world.alice.id)
    legal = ", ".join(f"`{format_action(a)}`" for a in view(m.state, me).legal)
    for notation in ("up R1", "discard B12", "p2@1", "flip @1", "-10", "no flip"):
        out = await world.alice.forge_click(f"ratjack:m:{m.id}:v:{m.version}:play:{notation}",
                                            message=view_msg)
        assert answer(out, world.alice) == (
            f"That is not one of your decisions now. You may: {legal}.")
    # a menu's value is input too
    out = await world.alice.forge_click(f"ratjack:m:{m.id}:v:{m.version}:menu:0",
                                        message=view_msg, values=["up R1; drop table"])
    assert answer(out, world.alice).startswith("That is not one of your decisions now.")
    await unchanged(world, m)


async def test_a_control_of_an_older_version_is_out_of_date(world: World):
    old, _, view_msg = await practice(world)
    await world.alice.slash("ratjack act", action="draw deck")
    m = await world.match()
    assert m.version > old.version
    out = await world.alice.forge_click(f"ratjack:m:{m.id}:v:{old.version}:play:draw deck",
                                        message=view_msg)
    assert "out of date" in answer(out, world.alice)
    await unchanged(world, m)


@pytest.mark.parametrize("custom_id", [
    "ratjack:m:2:v:1:play:draw deck",                      # no such match
    "ratjack:m:99999999999999999999:v:1:play:draw deck",   # no id storage can hold
    "ratjack:m:0:v:0:menu:0",
])
async def test_a_click_naming_another_match_is_refused(world: World, custom_id: str):
    m, _, view_msg = await practice(world)
    out = await world.alice.forge_click(custom_id, message=view_msg, values=(
        ["draw deck"] if ":menu:" in custom_id else None))
    assert answer(out, world.alice) == platform_texts.NOT_THIS_MESSAGE
    await unchanged(world, m)


async def test_another_player_cannot_decide_for_the_seat_to_act(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    m = await begin_table(world, [Player(0, alice.id), Player(1, bob.id),
                                  Player(2, fake.bot_user.id, "easy")], by=alice)
    assert m.to_act() == {0} and m.state.phase is Phase.DRAW
    # bob opens his own cards: no decision for him, and alice's are not shown to him
    out = await bob.click("Your cards")
    bob_view = out.reply
    assert bob_view.ephemeral and "your cards** (p2, round 1)" in bob_view.content
    assert "Waiting for p1" in bob_view.content and not controls(world, bob, m)
    out = await bob.forge_click(f"ratjack:m:{m.id}:v:{m.version}:play:draw deck",
                                message=bob_view)
    assert answer(out, bob) == ("It's not your turn: waiting for player 1 to draw a card.")
    # nor can he click on alice's private view, which he cannot see, nor on a DM of his
    alice_view = (await alice.click("Your cards")).reply
    with pytest.raises(Exception, match="cannot see"):
        await bob.forge_click(f"ratjack:m:{m.id}:v:{m.version}:play:draw deck",
                              message=alice_view)
    await unchanged(world, m)
    # a carol outside the match
    carol = fake.add_user("carol")
    card = next(r for r in reversed(fake.public_messages(fake.channel)) if r.buttons)
    out = await carol.click(custom_id=f"ratjack:m:{m.id}:r:1:hand", message=card)
    assert answer(out, carol) == platform_texts.NOT_YOUR_MATCH
    assert fake.problems() == []


async def test_a_decision_sent_from_another_channel_or_a_dm_is_refused(world: World):
    m, _, _ = await practice(world)
    alice = world.alice
    elsewhere = world.fake.add_channel("elsewhere")
    there = (await alice.slash("ratjack rules", in_channel=elsewhere)).reply
    assert there.ephemeral and there.channel_id == elsewhere.id
    forged = f"ratjack:m:{m.id}:v:{m.version}:play:draw deck"
    out = await alice.forge_click(forged, message=there)
    assert answer(out, alice) == platform_texts.NOT_THIS_MESSAGE
    # in her DM with the bot, on a message that is no private view of the match
    await alice.slash("ratjack settings", dm_hand=True)
    note = world.fake.dms(alice)[-1]
    out = await alice.forge_click(forged, message=note)
    assert "out of date" in answer(out, alice)
    # and by bob, who does not play it
    out = await world.bob.forge_click(forged, message=(
        await world.bob.slash("ratjack rules")).reply)
    assert answer(out, world.bob) == platform_texts.NOT_YOUR_MATCH
    await unchanged(world, m)
