"""A restart in the middle of a round: the card posted by the old bot is edited in place by
the new one, and its controls keep working.

The bot is stopped (client closed, database connection closed) and a brand-new bot instance
is started on the same SQLite file; the fake Discord keeps every message, so the players
click what they saw before the restart.
"""

from __future__ import annotations

import asyncio
import random

from bot import texts
from engine import Phase, Pick, Side
from tests.e2e.players import World

R, S = Side.RAPTOR, Side.SCIENTIST


async def test_a_card_button_and_the_round_message_survive_a_restart(world: World) -> None:
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    match = await table.match()
    round_msg = alice.round_message()
    hand = await alice.open_hand()  # alice looks at her cards ...
    card = alice.think(match, seed=1)
    assert isinstance(card, Pick)
    old_bot = world.bot

    await world.restart_bot()  # ... the bot goes down and comes back
    assert world.bot is not old_bot and world.restarts == 1

    out = await alice.click(texts.card_label(R, card.card), message=hand)  # pre-restart button
    assert "You picked" in out.reply.content and out.reply.user_id == alice.id
    after = await table.match()
    assert after.version == match.version + 1 and after.state.picks[R] == card.card
    # the pick shows on the card the old bot posted, edited in place; no new message, no
    # ping (bob had to pick already, and the restarted bot knows it)
    public = [r for r in out.records if r.visibility == "public"
              and r.channel_id == table.channel.id]  # (the parent's line is edited too)
    assert [r.message_id for r in public] == [round_msg.message_id] and public[0].edit
    assert f"{alice.user.mention} (raptor) ✅" in public[0].content

    # bob uses the round card the old bot posted
    out = await bob.click("Pick your card", message=round_msg)
    assert out.reply.visibility == "ephemeral" and out.reply.user_id == bob.id
    mine = after.state.hands[S]
    assert out.reply.labels == [texts.card_label(S, c) for c in mine]
    out = await bob.click(texts.card_label(S, mine[0]), message=out.reply)
    assert any(r.message_id == round_msg.message_id and "Cards: raptor" in r.text
               for r in out.records if r.visibility == "public")  # the reveal, in place
    revealed = await table.match()
    assert revealed.state.revealed == (card.card, mine[0])
    assert revealed.version == match.version + 2


async def test_a_turn_message_survives_a_restart_and_the_match_goes_on(world: World) -> None:
    rng = random.Random(8)
    table = await world.new_table()
    # play until a decision with a turn message is pending (an effect or action points)
    match = await table.match()
    while match.state.phase is Phase.PICK:
        await table.play_decision(rng, act_share=0.0)
        match = await table.match()
    turn = table.turn_message(match)
    assert turn is not None and turn.selects
    round_no = match.state.round

    await world.restart_bot()

    who, action = await table.next_decision(rng, match)
    assert table.turn_message(match) is turn  # nothing new posted: the old message is used
    out = await who.play(action, via="controls", match=match)
    after = await table.match()
    assert after.version == match.version + 1
    log = await world.observer.action_log(table.match_id)
    assert log[-1][1:] == (who.side, action)
    # the new bot edited the card the old one posted, and carried on
    card = world.fake.message(turn.message_id)
    assert any(r.message_id == card.message_id and r.edit for r in out.records)
    assert f":v:{after.version}:" in str(card.components) or not card.components
    # the match continues to the next round with the new bot
    while (await table.match()).state.round == round_no:
        await table.play_decision(rng)
    assert (await table.match()).state.phase is Phase.PICK or not (await table.match()).active


class _Killed(Exception):
    """The process stopping between saving a challenge and posting it."""


async def test_a_challenge_saved_but_never_posted_blocks_nobody(world: World,
                                                                 monkeypatch) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    channel = world.fake.channel.id

    async def killed(interaction: object, challenge: object) -> None:
        raise _Killed

    monkeypatch.setattr(world.bot.flow.posts, "post_challenge", killed)
    await alice.slash("raptor challenge", user=bob)
    world.fake.errors.clear()  # the stop was logged as an error: expected here
    [unposted] = await world.observer.pending_challenges(channel)
    assert unposted.message_id is None
    assert not any("challenges you" in r.content for r in world.fake.public_messages())

    await world.restart_bot()  # at start-up, the bot withdraws it
    for _ in range(200):
        if (await world.observer.get_challenge(unposted.id)).status != "pending":
            break
        await asyncio.sleep(0.02)
    assert (await world.observer.get_challenge(unposted.id)).status == "cancelled"

    out = await alice.slash("raptor challenge", user=bob)  # not "cancel it first"
    assert out.reply.visibility == "public" and out.reply.labels == [
        "Accept", "Decline", "Cancel"]
    [pending] = await world.observer.pending_challenges(channel)
    assert pending.id != unposted.id and pending.message_id == out.reply.message_id
