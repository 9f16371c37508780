"""A Ratjack match started from the lobby: ``/ratjack table`` opens a table of 2-4 seats,
people join, the host seats the AI and starts the match, which begins on the table's
message and plays on its card."""

from __future__ import annotations

from tests.discord.conftest import World
from tests.discord.ratjack import decide


async def test_a_table_of_three_with_the_ai_starts_a_ratjack_match(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    out = await alice.slash("ratjack table", players=3, decks="rw")
    msg = next(r for r in out.records if r.visibility == "public"
               and any(b["custom_id"].endswith(":join") for b in r.buttons))
    assert msg.content.startswith(f"**Ratjack** table of {alice.mention} for 3 players "
                                  "(decks: Red Rats and Weasels)")
    assert all(b["custom_id"].startswith("ratjack:t:") for b in msg.buttons)
    await bob.click("Join", message=msg)
    await alice.select("Seat the AI (host)", values=["hard"], message=msg)
    out = await alice.click("Start match", message=msg)
    m = await world.match()
    assert m.game == "ratjack" and m.seats == 3 and m.options == {"decks": "rw"}
    assert sorted(p.ai or "" for p in m.players) == ["", "", "hard"]
    assert {m.user_of(s) for s in range(3) if not m.ai_of(s)} == {alice.id, bob.id}
    started = fake.message(msg.message_id)
    assert "**Ratjack match #1** — a new match: " in started.content
    # the card follows, and both people play on it
    card = next(r for r in reversed(fake.public_messages(fake.channel)) if r.buttons)
    assert [b["custom_id"] for b in card.buttons] == ["ratjack:m:1:r:1:hand"]
    users = {alice.id: alice, bob.id: bob}
    for _ in range(4):
        (seat,) = m.to_act()
        await decide(world, users[m.user_of(seat)])
        m = await world.service.get_match(m.id)
        if not m.active:
            break
    assert m.version >= 4 and fake.problems() == []
