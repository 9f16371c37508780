"""Self-test of the fake Discord's threads, edits with attachments and Components V2,
driven by the real discord.py client: what the fake accepts and refuses is what Discord
documents (thread creation from a message, thread channels, 403 50013 without the thread
permission, 400 50024 in a channel without threads; V2's limits answered 400 50035)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord.ext import commands
from PIL import Image

from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import FLAG_COMPONENTS_V2, validate_message


def png(colour: str) -> discord.File:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), colour).save(buf, format="PNG")
    return discord.File(io.BytesIO(buf.getvalue()), filename=f"{colour}.png")


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(strict=False, require_synced_commands=False) as fk:
        fk.add_user("alice")
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        await fk.start_client(bot)
        yield fk


def channel(fake: FakeDiscord) -> discord.abc.Messageable:
    assert fake.client is not None
    return fake.client.get_partial_messageable(fake.channel.id, guild_id=fake.guild_id)


async def test_a_thread_from_a_message(fake: FakeDiscord) -> None:
    start = await channel(fake).send("a challenge")
    thread = await start.create_thread(name="Raptor match #1", auto_archive_duration=10080)
    assert thread.id == start.id and thread.parent_id == fake.channel.id
    assert thread.type is discord.ChannelType.public_thread and thread.name == "Raptor match #1"
    (info,) = fake.threads(fake.channel)
    assert info.id == thread.id and info.parent_id == fake.channel.id
    posted = await thread.send("the card")
    assert fake.message(posted.id).channel_id == thread.id
    assert fake.public_messages(info)[0].content == "the card"
    with pytest.raises(discord.HTTPException) as twice:  # one thread per message
        await start.create_thread(name="again")
    assert (twice.value.status, twice.value.code) == (400, 160004)
    with pytest.raises(discord.HTTPException) as nested:  # no thread inside a thread
        await posted.create_thread(name="inner")
    assert (nested.value.status, nested.value.code) == (400, 50024)
    with pytest.raises(discord.HTTPException) as bad:
        await (await channel(fake).send("x")).create_thread(name="t", auto_archive_duration=5)
    assert (bad.value.status, bad.value.code) == (400, 50035)


async def test_threads_need_their_permissions(fake: FakeDiscord) -> None:
    start = await channel(fake).send("a challenge")
    fake.set_bot_can_create_threads(fake.channel, False)
    with pytest.raises(discord.Forbidden) as refused:
        await start.create_thread(name="Raptor match #1")
    assert refused.value.code == 50013
    assert fake.threads() == []
    fake.set_bot_can_create_threads(fake.channel, True)
    thread = await start.create_thread(name="Raptor match #1")
    # posting in a thread needs Send Messages in Threads (the parent's permissions apply)
    server = fake.server
    bot_id = server.bot.id
    t, allow, deny = server.channels[fake.channel.id].overwrites.get(bot_id, (1, 0, 0))
    server.channels[fake.channel.id].overwrites[bot_id] = (t, allow, deny | (1 << 38))
    with pytest.raises(discord.Forbidden) as mute:
        await thread.send("the card")
    assert mute.value.code == 50013
    await channel(fake).send("the channel itself still works")


async def test_an_edit_keeps_replaces_or_drops_the_attachments(fake: FakeDiscord) -> None:
    msg = await channel(fake).send("card", file=png("red"))
    assert [a.filename for a in fake.message(msg.id).attachments] == ["red.png"]
    await msg.edit(content="card, edited")  # no attachments given: kept
    assert [a.filename for a in fake.message(msg.id).attachments] == ["red.png"]
    await msg.edit(attachments=[png("blue")])  # a new file: it replaces the old one
    assert [a.filename for a in fake.message(msg.id).attachments] == ["blue.png"]
    await msg.edit(attachments=[])  # none: dropped
    assert fake.message(msg.id).attachments == []


def layout(*, texts: int = 1, text: str = "hello", buttons: int = 2) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container()
    for i in range(texts):
        container.add_item(discord.ui.TextDisplay(f"{text} {i}"))
    container.add_item(discord.ui.MediaGallery(
        discord.MediaGalleryItem("attachment://board.png")))
    row: discord.ui.ActionRow = discord.ui.ActionRow()
    for i in range(buttons):
        row.add_item(discord.ui.Button(label=f"b{i}", custom_id=f"b:{i}"))
    container.add_item(row)
    view.add_item(container)
    return view


def v2(components: list[dict], **extra: object) -> dict:
    return {"flags": FLAG_COMPONENTS_V2, "components": components, **extra}


async def test_a_layout_view_is_accepted_and_its_limits_refused(fake: FakeDiscord) -> None:
    view = layout()
    msg = await channel(fake).send(view=view, file=png("red"))
    record = fake.message(msg.id)
    assert record.flags & FLAG_COMPONENTS_V2 and record.content == ""
    assert [c["type"] for c in record.components] == [17]
    assert [c["type"] for c in record.components[0]["components"]] == [10, 12, 1]
    # discord.py itself stops at 40 components; the fake answers what Discord answers
    payload = view.to_components()
    assert validate_message(v2(payload), n_attachments=1, edit=False) == []
    many = [{"type": 10, "content": f"line {i}"} for i in range(41)]
    assert any("40 or fewer" in e for e in validate_message(v2(many), n_attachments=0,
                                                            edit=False))
    long = [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]
    assert any("4000 or fewer" in e for e in validate_message(v2(long), n_attachments=0,
                                                              edit=False))
    assert validate_message(v2(long[:1]), n_attachments=0, edit=False) == []
    assert any("content" in e for e in validate_message(
        v2(payload, content="hi"), n_attachments=0, edit=False))
    assert any("embeds" in e for e in validate_message(
        v2(payload, embeds=[{"description": "x"}]), n_attachments=0, edit=False))
    six = [{"type": 1, "components": [{"type": 2, "style": 1, "label": str(i),
                                       "custom_id": f"c{i}"} for i in range(6)]}]
    assert any("5 or fewer" in e for e in validate_message(v2(six), n_attachments=0,
                                                           edit=False))
    section = [{"type": 9, "components": [{"type": 10, "content": str(i)} for i in range(4)],
                "accessory": {"type": 2, "style": 1, "label": "go", "custom_id": "go"}}]
    assert any("1 to 3" in e for e in validate_message(v2(section), n_attachments=0,
                                                       edit=False))
    gallery = [{"type": 12, "items": [{"media": {"url": f"https://x/{i}.png"}}
                                      for i in range(11)]}]
    assert any("1 to 10" in e for e in validate_message(v2(gallery), n_attachments=0,
                                                        edit=False))

    # through HTTP, as a bot would hit them: 400 50035, nothing posted
    before = len(fake.public_messages())
    too_long = discord.ui.LayoutView(timeout=None)
    too_long.add_item(discord.ui.TextDisplay("x" * 2001))
    too_long.add_item(discord.ui.TextDisplay("y" * 2000))
    with pytest.raises(discord.HTTPException) as refused:
        await channel(fake).send(view=too_long)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert len(fake.public_messages()) == before
    # an edit of a V2 message may not bring content back, nor drop the flag
    with pytest.raises(discord.HTTPException) as legacy:
        await msg.edit(content="plain text")
    assert (legacy.value.status, legacy.value.code) == (400, 50035)
    assert fake.message(msg.id).content == ""


async def test_an_archived_thread_refuses_edits_and_a_post_unarchives_it(
        fake: FakeDiscord) -> None:
    start = await channel(fake).send("a challenge")
    thread = await start.create_thread(name="Raptor match #1")
    card = await thread.send("the card")
    fake.archive_thread(thread.id)
    info = fake.server.channels[thread.id]
    assert info.archived and not info.locked
    with pytest.raises(discord.HTTPException) as edit:
        await card.edit(content="round 2")
    assert (edit.value.status, edit.value.code) == (400, 50083)
    with pytest.raises(discord.HTTPException) as delete:
        await card.delete()
    assert (delete.value.status, delete.value.code) == (400, 50083)
    assert fake.message(card.id).content == "the card"
    again = await thread.send("a new card")  # a new message unarchives it, as on Discord
    assert not info.archived and fake.message(again.id).channel_id == thread.id
    await card.edit(content="round 2")
    assert fake.message(card.id).content == "round 2"
    # unarchived by an edit of the channel (Send Messages in Threads is enough)
    fake.archive_thread(thread.id)
    unarchived = await fake.client.http.edit_channel(thread.id, archived=False)
    assert unarchived["thread_metadata"]["archived"] is False and not info.archived
    # a locked thread stays archived: the bot's post is refused
    fake.archive_thread(thread.id, locked=True)
    with pytest.raises(discord.HTTPException) as post:
        await thread.send("x")
    assert (post.value.status, post.value.code) == (400, 50083)
    assert info.archived and info.locked
