"""The lobby through the fake Discord: ``/raptor table`` posts a table whose Join, Leave,
Seat the AI, Remove an AI, Start and Cancel act on it alone; its host starts the match on
the table's message; a table nobody starts expires; a forged table id is refused."""

from __future__ import annotations

from bot import texts
from bot.match import TableStatus
from tests.discord.conftest import World

TIMEOUT_S = 30 * 60  # the default RAPTOR_TABLE_TIMEOUT_MINUTES


def _table_message(out):
    return next(r for r in out.records if r.visibility == "public"
                and any(b["custom_id"].endswith(":join") for b in r.buttons))


async def test_a_table_is_joined_and_started_by_its_host(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    carol = fake.add_user("carol")
    out = await alice.slash("raptor table", environment="savannah")
    msg = _table_message(out)
    assert msg.content.startswith(f"**Raptor** table of {alice.mention} for 2 players")
    assert "environment: savannah" in msg.content
    assert f"At the table (1/2): {alice.mention}" in msg.content
    assert "1 seat is free" in msg.content
    assert msg.labels == ["Join", "Leave", "Remove an AI", "Start match", "Cancel"]
    assert [s["placeholder"] for s in msg.selects] == ["Seat the AI (host)"]

    # only the host starts; bob is not at the table yet
    out = await bob.click("Start match", message=msg)
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", bob.id, "Only the host of this table can start it.")]
    out = await bob.click("Join", message=msg)
    now = fake.message(msg.message_id)
    assert f"At the table (2/2): {alice.mention}, {bob.mention}" in now.content
    assert "Every seat is taken." in now.content
    assert now.selects == []  # no free seat for the AI
    out = await carol.click("Join", message=msg)
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", carol.id, "Every seat of this table is taken.")]

    out = await alice.click("Start match", message=msg)
    m = await world.match()
    assert {p.user_id for p in m.players} == {alice.id, bob.id}
    assert all(p.ai is None for p in m.players)
    started = fake.message(msg.message_id)
    assert started.content.startswith(
        f"**Raptor** table of {alice.mention} ({alice.mention}, {bob.mention}): started.")
    assert started.buttons == [] and started.selects == []
    table = await world.service.get_table(1)
    assert (table.status, table.match_id) == (TableStatus.STARTED, m.id)
    # the match's card follows in the channel
    assert any("Pick your card" in r.labels for r in out.records if r.visibility == "public")


async def test_the_host_seats_the_ai_and_a_lone_host_plays_a_practice(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    out = await alice.slash("raptor table")
    msg = _table_message(out)
    await bob.select("Seat the AI (host)", values=["hard"], message=msg)
    refused = fake.message(msg.message_id)
    assert "AI (hard)" not in refused.content
    await alice.select("Seat the AI (host)", values=["hard"], message=msg)
    now = fake.message(msg.message_id)
    assert f"At the table (2/2): {alice.mention}, AI (hard)" in now.content
    await alice.click("Remove an AI", message=msg)
    assert "AI (hard)" not in fake.message(msg.message_id).content
    await alice.select("Seat the AI (host)", values=["medium"], message=msg)
    await alice.click("Start match", message=msg)
    m = await world.match()
    assert m.practice
    assert sorted((p.user_id, p.ai) for p in m.players) == sorted(
        [(alice.id, None), (world.bot.user.id, "medium")])


async def test_leaving_cancelling_and_expiring(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    msg = _table_message(await alice.slash("raptor table"))
    await bob.click("Join", message=msg)
    await bob.click("Leave", message=msg)
    assert f"At the table (1/2): {alice.mention}\n" in fake.message(msg.message_id).content
    out = await bob.click("Cancel", message=msg)
    assert [(r.visibility, r.content) for r in out.records] == [
        ("ephemeral", "Only the host of this table can cancel it.")]
    await alice.click("Cancel", message=msg)
    closed = fake.message(msg.message_id)
    assert closed.content == f"**Raptor** table of {alice.mention} ({alice.mention}): cancelled."
    assert closed.buttons == []

    msg = _table_message(await alice.slash("raptor table"))
    await bob.click("Join", message=msg)
    world.clock.advance(TIMEOUT_S)
    events = await world.bot.flow.timers.run_once()
    assert [e.kind for e in events] == ["table_expired"]
    expired = fake.message(msg.message_id)
    assert expired.content == (f"**Raptor** table of {alice.mention} ({alice.mention}, "
                               f"{bob.mention}): expired: nobody started it in time.")
    assert expired.buttons == [] and expired.selects == []
    assert await world.service.active_match(fake.channel.id) is None


async def test_a_table_control_acts_only_on_its_own_message(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    msg = _table_message(await alice.slash("raptor table"))
    other = fake.add_channel("other")
    second = _table_message(await bob.slash("raptor table", in_channel=other))
    # bob sends his own table's Join id on alice's table message, and alice's Start id on
    # his own table's message: both refused, nothing changes
    for user, custom_id, on in ((bob, "raptor:t:2:join", msg), (alice, "raptor:t:1:start",
                                                                 second)):
        out = await user.forge_click(custom_id, message=on)
        assert [(r.visibility, r.content) for r in out.records] == [
            ("ephemeral", texts.NOT_THIS_MESSAGE)]
    for custom_id in ("raptor:t:99999999999999999999:join", "race:t:1:join",
                      "raptor:t:3:join"):
        out = await bob.forge_click(custom_id, message=msg)
        assert [(r.visibility, r.content) for r in out.records] == [
            ("ephemeral", texts.NOT_THIS_MESSAGE)]
    out = await bob.forge_click("raptor:t:1:ai", message=msg, values=["grandmaster"])
    assert [(r.visibility, r.content) for r in out.records] == [
        ("ephemeral", "Only the host of this table can seat the AI.")]
    assert len((await world.service.get_table(1)).players) == 1
    assert len((await world.service.get_table(2)).players) == 1
