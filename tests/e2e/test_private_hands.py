"""Private hands as a player sees them: the closed-DMs notice once per match, even
across a restart; the hand once per message (image and buttons, no card list); no
``/raptor`` command suggested in a DM; a DM hand's buttons retired when its player picks in
the channel (a button there, or typed, also after a restart); a stale click in a DM answered
with a jump link to the match; jump links in every DM hand.
"""

from __future__ import annotations

import random
import re

import engine
from bot import texts
from bot.discord.links import jump_url
from bot.discord.post_store import PostKind, PostStore
from bot.games.raptor import texts as raptor_texts
from bot.match import Match
from engine import Phase, Side
from tests.e2e.players import Table, World
from tests.fakediscord import Record

R, S = Side.RAPTOR, Side.SCIENTIST
JUMP = re.compile(r"https://discord\.com/channels/([0-9]+)/([0-9]+)/([0-9]+)")


async def play_to_round(table: Table, rng: random.Random, round_no: int) -> engine.GameState:
    """Play decisions with the controls until round ``round_no``'s pick begins."""
    while True:
        m = await table.match()
        assert m.active, "the match ended before the round the test needs"
        if m.state.round >= round_no and m.state.phase is Phase.PICK and not any(
                m.state.picks[s] for s in (R, S)):
            return m.state
        await table.play_decision(rng, match=m, act_share=0.0)


def hand_posts(world: World, user_id: int) -> list:
    """The hand messages created for ``user_id`` (ephemeral or DM), in order."""
    return [r for r in world.fake.records if not r.edit and r.user_id == user_id
            and "· your hand**" in r.content]


async def alice_by_dm(world: World) -> tuple[Table, Match, Record]:
    """alice (hand by DM) challenges bob; the table, the match and alice's round-1 DM hand."""
    alice = world.user("alice")
    await alice.slash("raptor settings", dm_hand=True)
    table = await world.new_table(raptor="alice", scientist="bob")
    return table, await table.match(), world.fake.dms(alice)[-1]


async def test_dms_closed_notice_comes_once_per_match_across_a_restart(world: World) -> None:
    games = world.fake.add_channel("games")
    await world.restart_bot()  # the bot learns #games
    bob = world.user("bob")
    world.fake.set_dms_closed(bob, True)
    await bob.slash("raptor settings", dm_hand=True)
    table = await world.new_table(raptor="alice", scientist="bob")
    rng = random.Random(5)
    await play_to_round(table, rng, 2)
    await world.restart_bot()
    await play_to_round(table, rng, 3)

    hands = hand_posts(world, bob.id)
    assert len(hands) >= 2 and all(h.visibility == "ephemeral" for h in hands)
    told = [h for h in hands if texts.DM_CLOSED in h.content]
    assert told == [hands[0]] and hands[0].content.startswith(texts.DM_CLOSED)
    assert sum(1 for r in world.fake.rejections if r.code == 50007) >= 3  # a DM each round
    assert sum(1 for r in world.fake.records if texts.DM_CLOSED in r.content) == 1

    other = await world.new_table(raptor="carol", scientist="bob", channel=games)
    first = await other.scientist.open_hand()  # another match: told once there too
    again = await other.scientist.open_hand()
    assert first.content.startswith(texts.DM_CLOSED)
    assert texts.DM_CLOSED not in again.content and again.labels == first.labels


async def test_dm_hand_once_with_a_link_and_retired_after_a_pick_in_the_channel(
        world: World) -> None:
    fake, alice = world.fake, world.user("alice")
    table, match, dm = await alice_by_dm(world)
    round_message = table.raptor.round_message()
    assert round_message is not None and round_message.visibility == "public"
    # the link points at the match's live card, in the match's thread
    card = await PostStore(world.observer_db).latest(match.id, (PostKind.CARD,))
    assert card is not None and card.message_id == round_message.id
    assert table.channel.id == match.channel_id != fake.channel.id
    link = jump_url(fake.guild_id, table.channel.id, round_message.id)
    jump = texts.to_match(raptor_texts.match_title(match), link)
    heading = f"**Match #{match.id} · your hand** (raptor, round 1)"
    hand = match.state.hands[R]
    # the hand once: buttons and image, no card list; a jump link; no /raptor command
    assert dm.content.startswith(f"{heading} · {jump}\n")
    assert dm.labels == [raptor_texts.card_label(R, c) for c in hand]
    assert all(raptor_texts.card_label(R, c) not in dm.content for c in hand)
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    assert dm.content.endswith("\nPick a card with the buttons below.")
    assert "/raptor" not in dm.content

    card = hand[1]
    await table.raptor.pick_card(card)  # with the hand of the round message, in the channel
    retired = fake.message(dm.id)
    assert retired.buttons == [] and retired.attachments == []
    label = raptor_texts.card_label(R, card)
    assert retired.content == (f"{heading}\n✔ You picked **{label}** in the match's channel. "
                               f"{jump}")

    # round 2: the DM hand is recorded, so a restarted bot retires it after a typed pick
    rng = random.Random(3)
    state = await play_to_round(table, rng, 2)
    dm2 = fake.dms(alice)[-1]
    assert dm2.id != dm.id and dm2.labels == [raptor_texts.card_label(R, c) for c in state.hands[R]]
    await world.restart_bot()
    card = state.hands[R][0]
    await table.raptor.act(f"play {card}")
    retired = fake.message(dm2.id)
    assert retired.buttons == [] and retired.attachments == []
    assert f"✔ You picked **{raptor_texts.card_label(R, card)}** in the match's channel." in (
        retired.content)
    assert JUMP.search(retired.content) is not None

    # every DM of the match names no command and links to the match
    for r in fake.records:
        if r.visibility == "dm" and r.user_id == alice.id and "Match #" in r.content:
            assert "/raptor" not in r.content, r.content
            assert JUMP.search(r.content), r.content


async def test_a_stale_click_in_a_dm_links_to_the_match(world: World) -> None:
    fake = world.fake
    table, match, dm = await alice_by_dm(world)
    # a DM hand the bot has no record of (as one sent by an older version): it stays live
    assert await world.observer_db.write("DELETE FROM private_posts WHERE message_id = ?",
                                         (dm.id,)) == 1
    await table.raptor.pick_card(match.state.hands[R][0])
    await table.scientist.pick_card(match.state.hands[S][0])
    assert fake.message(dm.id).labels  # still live: nothing recorded to retire

    after = await table.match()
    assert after.state.phase is not Phase.PICK or after.state.round == 2
    label = fake.message(dm.id).labels[2]
    out = await table.raptor.click(label, message=dm.id)
    answer = out.reply
    assert answer is not None and answer.user_id == table.raptor.id
    assert answer.content.startswith("This card button is out of date")
    assert "/raptor status" not in answer.content
    found = JUMP.search(answer.content)
    assert found is not None, answer.content
    guild, channel, message = (int(x) for x in found.groups())
    assert (guild, channel) == (fake.guild_id, table.channel.id)
    target = fake.message(message)  # the match's current public control post
    assert target.visibility == "public" and (target.buttons or target.selects)
    assert (await table.match()).version == after.version  # the click changed nothing


async def test_dm_hands_are_retired_when_the_match_ends(world: World) -> None:
    fake = world.fake
    for name in ("alice", "bob"):
        await world.user(name).slash("raptor settings", dm_hand=True)
    table = await world.new_table(raptor="alice", scientist="bob")
    dms = {p.name: fake.dms(p.user)[-1] for p in table.players}
    assert all(dm.labels for dm in dms.values())
    out = await table.scientist.slash("raptor resign")
    await table.scientist.click("Resign", message=out.reply)
    assert not (await table.match()).active
    for name, side in (("alice", "raptor"), ("bob", "scientist")):
        dm = fake.message(dms[name].id)
        assert dm.buttons == [] and dm.attachments == []
        # the link: the match's last card, which keeps the final board (bot.discord.card)
        card = table.newest(table.raptor, lambda r: bool(r.attachments))
        assert card is not None and "the match is over" in card.content
        link = jump_url(fake.guild_id, table.channel.id, card.id)
        assert dm.content == (f"**Match #{table.match_id} · your hand** ({side}, round 1)\n"
                              f"✔ {texts.HAND_MATCH_OVER} [↪ back to Match #{table.match_id}]"
                              f"({link})")
