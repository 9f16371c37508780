"""Controls from an earlier round or an earlier decision get a clear ephemeral answer
("out of date") and change nothing: same version, same action log, nothing public."""

from __future__ import annotations

import random

from bot.games.raptor import texts
from engine import Phase, Pick, Side
from tests.e2e.players import GROUP_PLACEHOLDER, Player, Table, World
from tests.fakediscord import Outcome

R, S = Side.RAPTOR, Side.SCIENTIST


async def forget_control_posts(table: Table) -> None:
    """Make the bot lose its record of the match's posts with controls, as a bot from
    before that record existed would have on a restart: those posts stay on screen."""
    await table.world.observer_db.write("DELETE FROM control_posts WHERE match_id = ?",
                                        (table.match_id,))


async def snapshot(table: Table) -> tuple[int, int]:
    match = await table.match()
    return match.version, len(await table.world.observer.action_log(table.match_id))


async def assert_stale(table: Table, who: Player, out: Outcome, before: tuple[int, int]) -> str:
    assert [(r.visibility, r.user_id) for r in out.records] == [("ephemeral", who.id)], [
        (r.visibility, r.user_id, r.content) for r in out.records]
    assert "out of date" in out.content and "nothing was changed" in out.content
    assert await snapshot(table) == before
    return out.content


async def test_last_rounds_controls_are_answered_as_out_of_date(world: World) -> None:
    rng = random.Random(31)
    table = await world.new_table()
    alice, bob = table.raptor, table.scientist
    match = await table.match()
    # round 1: alice opens her hand but types her pick, so the card buttons stay on screen
    hand = await alice.open_hand()
    card = alice.think(match, seed=2)
    assert isinstance(card, Pick)
    await alice.act(f"play {card.card}")
    assert world.fake.message(hand.message_id).labels  # still clickable
    round1 = alice.round_message()
    assert round1 is not None
    # the bot restarts in round 1 without its record of the round message: it cannot tidy it
    await forget_control_posts(table)
    await world.restart_bot()
    await bob.pick_card(bob.think(await table.match(), seed=3).card)
    # a player opens a figurine / area menu at the first decision that has one (kept)
    group_menu = None
    while group_menu is None or match.state.round <= group_menu[2]:
        match = await table.match()
        # (when one comes depends on the easy AI's play: round 15 with today's AI)
        assert match.active and match.state.round < 40, "no figurine menu came up"
        turn = table.turn_message(match)
        if group_menu is None and turn is not None and turn.select_menu(GROUP_PLACEHOLDER):
            who = table.player(next(iter(match.waiting_for())))
            groups = turn.select_menu(GROUP_PLACEHOLDER)
            out = await who.select(groups["custom_id"], groups["options"][0]["value"],
                                   message=turn)
            group_menu = (who, out.reply, match.state.round)
        await table.play_decision(rng, match=match)
        match = await table.match()
    assert match.state.round >= 2 and match.state.phase is Phase.PICK

    before = await snapshot(table)
    # the round-1 card button (alice's private hand message)
    out = await alice.click(texts.card_label(R, card.card), message=hand)
    await assert_stale(table, alice, out, before)
    # the round-1 "Pick your card" that the restarted bot could not retire
    assert "Pick your card" in world.fake.message(round1.message_id).labels
    out = await bob.click("Pick your card", message=round1)
    text = await assert_stale(table, bob, out, before)
    assert "round 1" in text and f"round {match.state.round}" in text
    # the action menu of a figurine from an earlier round
    who, menu, _ = group_menu
    menu = world.fake.message(menu.message_id)
    sel = menu.selects[0]
    out = await who.select(sel["custom_id"], sel["options"][0]["value"], message=menu)
    await assert_stale(table, who, out, before)


async def test_a_turn_message_left_behind_is_answered_as_out_of_date(world: World) -> None:
    """After a restart without a record of it, the new bot cannot retire a turn message; if
    the player types the decision instead, that message's menu is stale and must say so."""
    rng = random.Random(12)
    table = await world.new_table()
    match = await table.match()
    while match.state.phase is Phase.PICK:
        await table.play_decision(rng, act_share=0.0)
        match = await table.match()
    old_turn = table.turn_message(match)
    assert old_turn is not None
    await forget_control_posts(table)
    await world.restart_bot()
    who, action = await table.next_decision(rng, match)
    await who.play(action, via="act")  # typed: the old message is not touched
    assert (await table.match()).version == match.version + 1
    old_turn = world.fake.message(old_turn.message_id)
    before = await snapshot(table)
    if old_turn.selects:
        sel = old_turn.selects[0]
        out = await who.select(sel["custom_id"], sel["options"][0]["value"], message=old_turn)
    else:
        out = await who.click(old_turn.labels[0], message=old_turn)
    await assert_stale(table, who, out, before)
