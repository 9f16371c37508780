"""A thread per match: several matches started from one channel at once, each
played in its own thread, the channel keeping one line per match; and the channel itself
when no thread can be made (the permission missing, the server's setting off), said once."""

from __future__ import annotations

import random

from bot import texts
from bot.games.raptor import sides as rs
from tests.e2e.players import World


async def test_two_matches_at_once_from_one_channel_each_in_its_thread(world: World) -> None:
    rng = random.Random(3)
    general = world.fake.channel
    first = await world.new_table(raptor="alice", scientist="bob")
    second = await world.new_table(raptor="carol", scientist="dave")  # not refused
    assert first.parent is not None and second.parent is not None
    assert first.parent.id == second.parent.id == general.id
    assert first.channel.id != second.channel.id
    threads = world.fake.threads(general)
    assert sorted(t.id for t in threads) == sorted((first.channel.id, second.channel.id))
    assert all(t.parent_id == general.id and t.info.type == 11 for t in threads)
    assert [t.name for t in threads] == ["Raptor match #1", "Raptor match #2"]
    assert await world.observer.active_match(general.id) is None
    for table in (first, second):
        assert (await world.observer.active_match(table.channel.id)).id == table.match_id

    for _ in range(10):  # both matches go on side by side
        await first.play_decision(rng)
        await second.play_decision(rng)

    # the channel holds one line per match, edited: the round, whose move, the card's link
    lines = world.fake.public_messages(general)
    assert len(lines) == 2
    for table, line in zip((first, second), lines, strict=True):
        match = await table.match()
        card = table.newest(table.raptor, lambda r: bool(r.attachments))
        assert card is not None and card.channel_id == table.channel.id
        assert line.content.startswith(
            f"**Match #{match.id}** · {table.raptor.user.mention} (raptor) vs "
            f"{table.scientist.user.mention} (scientist)\nRound {match.state.round} · ")
        assert line.content.endswith(f"/{table.channel.id}/{card.id})")
        assert line.components == [] and line.attachments == [] and line.pinged == (
            table.scientist.id,)  # the challenge's ping, once; its edits ping nobody
    # each thread shows its own match only
    for table, other in ((first, second), (second, first)):
        for r in world.fake.public_messages(table.channel):
            assert f"Match #{other.match_id}" not in r.text
            assert other.raptor.user.mention not in r.text

    # a player typing a command in the channel is sent to their thread
    out = await first.raptor.user.slash("raptor status", in_channel=general)
    assert out.reply.visibility == "ephemeral"
    m = await first.match()
    assert out.content == texts.match_elsewhere_text(f"Match #{m.id}", m.channel_id)
    assert f"<#{first.channel.id}>" in out.content

    # one match per thread: a challenge in a thread with a match running is refused; the
    # channel takes a third one
    erin, frank = world.user("erin"), world.user("frank")
    out = await erin.slash("raptor challenge", user=frank, in_channel=first.channel)
    assert out.reply.visibility == "ephemeral" and out.reply.user_id == erin.id
    out = await erin.slash("raptor challenge", user=frank, in_channel=general)
    assert out.reply.visibility == "public" and out.reply.labels == [
        "Accept", "Decline", "Cancel"]


async def test_without_the_thread_permission_the_match_plays_in_the_channel(
        world: World) -> None:
    general = world.fake.channel
    world.fake.set_bot_can_create_threads(general, False)
    table = await world.new_table()
    assert table.parent is None and table.channel.id == general.id
    assert world.fake.threads() == []
    rng = random.Random(5)
    for _ in range(8):
        await table.play_decision(rng)
    public = world.fake.public_messages(general)
    why = texts.threads_missing_text(["create_public_threads"])
    assert "**Create Public Threads**" in why
    told = [r for r in public if why in r.content]
    assert len(told) == 1  # said once, on the accepted challenge
    assert told[0].content.startswith("Challenge from") and told[0].components == []
    assert any("Pick your card" in r.labels or r.selects for r in public)  # the card, here
    assert (await world.observer.active_match(general.id)).id == table.match_id


async def test_a_server_can_turn_threads_off_and_on(world: World) -> None:
    general = world.fake.channel
    mod = world.fake.add_user("mod", admin=True)
    out = await mod.slash("raptor-admin threads")
    assert out.reply.ephemeral and out.content.startswith("Threads per match: **on**")
    out = await mod.slash("raptor-admin threads", setting="off")
    assert out.content.startswith("Threads per match are now **off**")
    table = await world.new_table()
    assert table.parent is None and world.fake.threads() == []
    told = [r for r in world.fake.public_messages(general) if texts.THREADS_OFF in r.content]
    assert len(told) == 1

    await table.raptor.slash("raptor resign")
    await table.raptor.click("Resign", message=table.raptor.user.ephemerals()[-1])
    out = await mod.slash("raptor-admin threads", setting="on")
    assert out.content.startswith("Threads per match are now **on**")
    again = await world.new_table(raptor="carol", scientist="dave")
    assert again.parent is not None and again.parent.id == general.id


async def test_a_practice_game_gets_its_thread_too(world: World) -> None:
    general = world.fake.channel
    alice = world.user("alice")
    out = await alice.slash("raptor practice", side="raptor")
    start = out.reply
    assert start.visibility == "public" and start.channel_id == general.id
    (thread,) = world.fake.threads(general)
    assert thread.id == start.message_id  # started from the practice's own message
    match = await world.observer.active_match(thread.id)
    assert match is not None and rs.ai(match, rs.side_in(match, alice.id).other) == "easy"
    (card,) = world.fake.public_messages(thread)
    assert card.labels == ["Pick your card"] and card.pinged == ()  # alice just asked
    line = world.fake.message(start.message_id)
    assert line.content.startswith(f"**Match #{match.id}** · {alice.mention} (raptor) vs ")
    assert line.content.endswith(f"/{thread.id}/{card.message_id})")


async def test_a_thread_archived_during_a_long_turn_keeps_one_card_edited_in_place(
        world: World) -> None:
    """Discord archives a match's thread after its auto-archive time without activity: the
    card's edit then fails (400 50083). The bot unarchives the thread and edits the same card
    (no second card beside a stale one), within a round and at a round's end; a thread a
    moderator locked stays as it is, and the match goes on in the database."""
    rng = random.Random(5)
    fake = world.fake
    table = await world.new_table(raptor="alice", scientist="bob")
    thread = fake.server.channels[table.channel.id]

    def cards():
        return [r for r in fake.public_messages(table.channel) if r.attachments]

    def refused() -> int:
        return sum(1 for r in fake.rejections if r.code == 50083)

    while (await table.match()).state.phase.value == "pick":
        await table.play_decision(rng)  # into the round's effect or action points
    (card,) = cards()
    m = await table.match()
    shown = (card.content, repr(card.embeds))
    fake.archive_thread(table.channel)
    await table.play_decision(rng)
    after = await table.match()
    assert after.version > m.version and after.state.round == m.state.round
    assert [c.message_id for c in cards()] == [card.message_id]  # the same card, edited
    edited = fake.message(card.message_id)
    assert (edited.content, repr(edited.embeds)) != shown
    assert not thread.archived and refused() == 1
    assert [r.path for r in fake.server.requests if r.method == "PATCH"
            and r.path.endswith(f"/channels/{thread.id}")] != []

    # archived again before the round's last decision: the card becomes the round's record
    # and the next round's card follows it, one of each
    while (await table.match()).state.round == m.state.round:
        fake.archive_thread(table.channel)
        await table.play_decision(rng)
    (record,) = [r for r in fake.public_messages(table.channel)
                 if r.message_id == card.message_id]
    assert record.attachments == [] and record.components == []
    assert record.content.startswith(f"**Match #{m.id} · Round {m.state.round} summary**")
    (new_card,) = cards()
    assert new_card.message_id != card.message_id and not thread.archived

    # locked by a moderator: nothing can be edited nor posted there; the bot says so in its
    # log and the match still records the decision
    fake.archive_thread(table.channel, locked=True)
    before = await table.match()
    locked = fake.message(new_card.message_id)
    shown = (locked.content, repr(locked.embeds))
    await table.play_decision(rng)
    assert (await table.match()).version > before.version
    assert thread.archived and (locked.content, repr(locked.embeds)) == shown
    assert fake.problems() == []
