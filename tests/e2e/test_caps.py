"""The caps per member, through Discord: practice games in progress, open challenges, and
replays drawn at once (``RAPTOR_MAX_PRACTICES_PER_MEMBER``, ``RAPTOR_MAX_CHALLENGES_PER_MEMBER``,
``RAPTOR_MAX_REPLAYS``; docs/COMMANDS.md, Caps). A refusal is one ephemeral answer and starts
nothing; a finished match's animation is drawn once for everyone who asks."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from tests.e2e.conftest import check_acks
from tests.e2e.players import World
from tests.e2e.test_forged_clicks import finished_table
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def world(tmp_path) -> AsyncIterator[World]:
    """The e2e world with seven more text channels (``#c1`` … ``#c7``)."""
    fake = FakeDiscord()
    for n in range(1, 8):
        fake.add_channel(f"c{n}")
    async with World.open(tmp_path, fake=fake) as w:
        yield w
        check_acks(w)
        w.fake.assert_clean()


async def test_a_fourth_practice_game_is_refused(world: World) -> None:
    alice = world.user("alice")
    for _ in range(3):  # each moves into its own thread, so #general is free again
        out = await alice.slash("raptor practice", side="raptor")
        assert out.reply.visibility == "public"
    assert len(world.fake.threads()) == 3
    out = await alice.slash("raptor practice", side="raptor")
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", alice.id, "You have 3 practice games in progress, as many as a member "
                                "may have at once: finish or resign one first.")]
    assert len(world.fake.threads()) == 3
    assert await world.observer.active_match(world.fake.channel.id) is None
    assert len(await world.observer.active_matches(world.fake.guild_id)) == 3
    # challenging the bot is a practice game too
    out = await alice.slash("raptor challenge", user=world.fake.bot_user)
    assert out.reply.visibility == "ephemeral" and "3 practice games" in out.content


async def test_a_sixth_open_challenge_is_refused(world: World) -> None:
    alice = world.user("alice")
    channels = [c for c in world.fake.server.channels.values() if c.name.startswith("c")]
    for n, channel in enumerate(channels[:5]):
        out = await alice.slash("raptor challenge", user=world.user(f"rival{n}"),
                                in_channel=channel.id)
        assert out.reply.labels == ["Accept", "Decline", "Cancel"]
    out = await alice.slash("raptor challenge", user=world.user("bob"),
                            in_channel=channels[5].id)
    assert [(r.visibility, r.user_id, r.content) for r in out.records] == [
        ("ephemeral", alice.id, "You have 5 open challenges, as many as a member may have "
                                "at once: cancel one or wait for answers.")]
    assert await world.observer.pending_challenges(channels[5].id) == []
    # once one is cancelled, there is room for one more
    first = world.fake.messages(channel=channels[0].id)[0]
    await alice.click("Cancel", message=first)
    out = await alice.slash("raptor challenge", user=world.user("bob"),
                            in_channel=channels[5].id)
    assert out.reply.labels == ["Accept", "Decline", "Cancel"]


async def test_twelve_replays_at_once_draw_one_animation(world: World, monkeypatch) -> None:
    table = await finished_table(world, random.Random(5))
    images = world.bot.flow.images
    drawn = []
    real = images._render

    async def counted(fn, arg, slot):
        drawn.append(slot)
        return await real(fn, arg, slot)

    monkeypatch.setattr(images, "_render", counted)
    viewers = [world.user(f"viewer{n}") for n in range(12)]
    outs = await asyncio.gather(*(v.slash("raptor replay", match=table.match_id)
                                  for v in viewers))
    gifs = [next(r.attachments[0].data for r in out.replies
                 if r.visibility == "public" and r.attachments) for out in outs]
    assert len(gifs) == 12 and len(set(gifs)) == 1
    assert len(drawn) == 2  # the animation and the viewer's first frame, once each
