"""A Ratjack player's private view by DM (``/ratjack settings dm_hand:True``): sent when
their turn starts, with their decisions; a decision clicked there updates that DM; once the
turn is played, the DM's decisions are retired; no ``/ratjack`` command is suggested there."""

from __future__ import annotations

from bot.match import Player
from tests.discord.conftest import World
from tests.discord.ratjack import begin_table, controls, private_seats


async def test_the_private_view_comes_by_dm_each_turn_and_plays_there(world: World):
    fake, alice, bob = world.fake, world.alice, world.bob
    await bob.slash("ratjack settings", dm_hand=True)
    m = await begin_table(world, [Player(0, alice.id), Player(1, bob.id),
                                  Player(2, fake.bot_user.id, "easy")], by=alice)
    assert m.to_act() == {0} and [r for r in bob.dms() if private_seats(r)] == []
    # alice plays her turn in the channel: draw, then down (no effect to resolve)
    await alice.click("Your cards")
    await alice.click(custom_id=controls(world, alice, m)["draw deck"][1])
    m = await world.match()
    down = next(n for n in controls(world, alice, m) if n.startswith("down "))
    kind, cid = controls(world, alice, m)[down]
    await alice.select(cid, values=[down])
    m = await world.match()
    assert m.to_act() == {1}
    # bob's turn: his view by DM, with his decisions and the link back, no command
    (dm,) = [r for r in fake.server.messages.values()
             if r.visibility != "public" and r.user_id == bob.id and private_seats(r) == {1}]
    assert dm.attachments and dm.attachments[0].filename == "hand.png"
    assert dm.content.startswith("**Ratjack match #1 · your cards** (p2, round 1) · "
                                 "[↪ back to Ratjack match #1](https://discord.com/channels/")
    assert dm.content.endswith("**Your decision**: draw a card: 'draw deck', or 'draw "
                               f"discard' to take {m.state.discard[-1]}. Choose below.")
    assert "/ratjack" not in dm.content
    offered = controls(world, bob, m)
    assert "draw deck" in offered
    await bob.click(custom_id=offered["draw deck"][1], message=dm)
    m = await world.match()
    assert m.to_act() == {1} and m.state.phase.value == "action"
    dm = fake.server.messages[dm.id]
    assert dm.content.startswith("Done: `draw deck`") and dm.attachments
    offered = controls(world, bob, m)
    down = next(n for n in offered if n.startswith("down "))
    kind, cid = offered[down]
    await bob.select(cid, values=[down], message=dm)
    m = await world.service.get_match(m.id)
    assert 1 not in m.to_act()
    dm = fake.server.messages[dm.id]
    assert dm.content.startswith(f"Done: `{down}`") and not dm.walk()  # no decision left
    assert fake.problems() == []
