"""Refusals: every one is ephemeral, to the user who tried, and changes nothing."""

from __future__ import annotations

import asyncio

from bot import texts
from bot.games.raptor import texts as raptor_texts
from engine import Phase, Side
from tests.discord.conftest import World
from tests.discord.helpers import option_values, pick, start_match, turn_message
from tests.fakediscord import FakeUser

R, S = Side.RAPTOR, Side.SCIENTIST


def only_ephemeral_to(out, user: FakeUser) -> None:
    assert out.records, "the bot answered nothing"
    assert all(r.visibility == "ephemeral" and r.user_id == user.id for r in out.records), [
        (r.visibility, r.user_id, r.content) for r in out.records]


async def test_self_challenge_and_bots_are_refused(world: World) -> None:
    fake, alice = world.fake, world.alice
    out = await alice.slash("raptor challenge", user=alice)
    only_ephemeral_to(out, alice)
    assert "can't challenge yourself" in out.content
    other_bot = fake.server.add_user("otherbot", bot=True)
    out = await alice.slash("raptor challenge", user=other_bot.id)
    only_ephemeral_to(out, alice)
    assert "is a bot" in out.content
    assert fake.public_messages() == []
    assert await world.service.pending_challenges(fake.channel.id) == []


async def test_busy_channel_and_third_users(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    carol = fake.add_user("carol")
    await alice.slash("raptor challenge", user=bob, side="raptor")
    out = await carol.click("Accept")
    only_ephemeral_to(out, carol)
    assert "Only the challenged player" in out.content
    out = await carol.click("Cancel")
    only_ephemeral_to(out, carol)
    await bob.click("Accept")
    match = await world.match()

    out = await carol.slash("raptor challenge", user=bob)
    only_ephemeral_to(out, carol)
    assert "already has a match in progress" in out.content
    out = await carol.click("Pick your card")
    only_ephemeral_to(out, carol)
    assert out.content == texts.NOT_YOUR_MATCH
    out = await carol.slash("raptor hand")
    only_ephemeral_to(out, carol)
    assert "not playing" in out.content
    out = await carol.slash("raptor act", action="play 7")
    only_ephemeral_to(out, carol)

    await pick(alice, R, 7)
    await pick(bob, S, 1)
    turn = turn_message(world)
    out = await carol.select("Choose an action", values=["gas D3"], message=turn.id)
    only_ephemeral_to(out, carol)
    assert out.content == texts.NOT_YOUR_MATCH
    out = await alice.select("Choose an action", values=["gas D3"], message=turn.id)
    only_ephemeral_to(out, alice)
    assert out.content == ("It's not your turn: waiting for the scientist player to resolve "
                           "their card's effect.")
    after = await world.match()
    assert after.version == match.version + 2  # the two picks, nothing else
    assert after.state.phase is Phase.EFFECT
    assert fake.message(turn.id).selects  # the controls are still there for bob


async def test_typed_actions_wrong_phase_and_malformed(world: World) -> None:
    alice, bob = world.alice, world.bob
    out = await alice.slash("raptor act", action="play 7")
    only_ephemeral_to(out, alice)
    assert raptor_texts.NO_MATCH_HERE == out.content

    match = await start_match(world)
    out = await alice.slash("raptor act", action="G1-G3")  # a move during the card pick
    only_ephemeral_to(out, alice)
    assert "'G1-G3' is not legal now" in out.content and "play 7" in out.content
    out = await alice.slash("raptor act", action="zz!!")
    only_ephemeral_to(out, alice)
    assert "is not action notation" in out.content

    out = await alice.slash("raptor act", action="play 7")
    assert "You picked **7 · Recovery ×3**" in out.content
    out = await alice.slash("raptor act", action="play 6")
    only_ephemeral_to(out, alice)
    assert "already picked" in out.content
    await pick(bob, S, 1)
    out = await alice.slash("raptor act", action="end")  # the scientist's effect comes first
    only_ephemeral_to(out, alice)
    assert "not your turn" in out.content
    after = await world.match()
    assert after.version == match.version + 2
    assert after.state.phase is Phase.EFFECT and after.state.picks == {R: 7, S: 1}


async def test_stale_controls_change_nothing(world: World) -> None:
    alice, bob = world.alice, world.bob
    await start_match(world)
    out = await alice.click("Pick your card")
    old_hand = out.reply
    await alice.slash("raptor act", action="play 2")
    # The round-1 hand still shows buttons (the pick was typed): a second pick is refused.
    out = await alice.click("6 · Disappearance & Observation", message=old_hand.id)
    only_ephemeral_to(out, alice)
    assert "already picked" in out.content
    await pick(bob, S, 9)

    turn = turn_message(world)
    out = await bob.select("Choose a figurine or an area", values=["B2"])
    group_menu = out.reply
    await bob.slash("raptor act", action="L2-L1")
    version = (await world.match()).version
    out = await bob.select("Scientist on B2: choose an action", values=["B2-C2"],
                           message=group_menu.id)
    only_ephemeral_to(out, bob)
    assert out.content == texts.stale_text(group="raptor")
    assert (await world.match()).version == version
    # the card is edited in place: the same message now carries the new version's controls
    card = turn_message(world)
    assert card.id == turn.id
    assert f":v:{version}:" in str(card.components)

    await bob.click("End turn")
    tiles = option_values(turn_message(world))  # the mother's return: by tile
    assert "T1" in tiles and "X1" in tiles
    out = await alice.select("Choose a figurine or an area", values=["T1"])
    await alice.select(None, values=[option_values(out.reply)[0]], message=out.reply.id)
    assert (await world.match()).state.round == 2
    out = await alice.click("2 · Disappearance & Observation", message=old_hand.id)
    only_ephemeral_to(out, alice)
    assert out.content == texts.stale_text("card button", group="raptor")
    assert (await world.match()).state.picks == {R: None, S: None}


async def test_double_clicks_act_once(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    match = await start_match(world)
    await alice.click("Pick your card")
    first, second = await alice.click_twice("7 · Recovery ×3")
    assert first.acknowledged and second.acknowledged
    after = await world.match()
    assert after.version == match.version + 1 and after.state.picks[R] == 7
    refusals = [r for r in (*first.replies, *second.replies) if r.ephemeral and not r.edit]
    assert len(refusals) == 1 and refusals[0].user_id == alice.id
    # the pick is folded into the card: no new public message, the card says ✅ once
    created = [r for r in (*first.records, *second.records)
               if r.visibility == "public" and not r.edit]
    assert created == []
    card = next(
        r for r in reversed(fake.public_messages()) if "Pick your card" in r.labels)
    assert card.content.count(f"{alice.mention} (raptor) ✅") == 1

    await pick(bob, S, 1)
    turn = turn_message(world)
    await asyncio.gather(bob.select("Choose an action", values=["gas D3"], message=turn.id),
                         bob.select("Choose an action", values=["gas K2"], message=turn.id))
    after = await world.match()
    assert after.version == match.version + 3
    assert after.state.phase is Phase.AP
    assert fake.problems() == []
