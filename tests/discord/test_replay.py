"""``/raptor replay`` and ``/raptor record`` through the fake Discord: a finished
match's animation and text record, the refusals (in progress, another server's match, an
unknown number), and an animation over the upload limit."""

from __future__ import annotations

import io
import random

from PIL import Image

import engine
from bot.games.raptor import sides as rs
from bot.games.raptor.replays import replay_views
from engine import Side
from engine.raptor_game import SIDE_SEATS
from tests.discord.conftest import World
from tests.discord.helpers import start_match
from tests.discord.test_refusals import only_ephemeral_to

R, S = Side.RAPTOR, Side.SCIENTIST


async def play_rounds(world: World, rounds: int, seed: int = 1) -> None:
    """Random legal decisions by the match's players until round ``rounds`` is over."""
    rng = random.Random(seed)
    m = await world.match()
    while m.state.round <= rounds and not m.state.is_over:
        side = min(engine.to_act(m.state))
        action = rng.choice(engine.legal_actions(m.state, side))
        await world.service.act(m.id, rs.user(m, side), action, seat=SIDE_SEATS[side])
        m = await world.service.get_match(m.id)


async def finished_after(world: World, rounds: int):
    """alice (raptor) and bob play ``rounds`` rounds, then alice resigns: match #1."""
    await start_match(world)
    await play_rounds(world, rounds)
    m = await world.match()
    await world.service.resign(m.id, world.alice.id)
    return await world.service.get_match(m.id)


async def test_replay_and_record_of_a_finished_match(world: World) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    ended = await finished_after(world, 3)
    assert not ended.active and ended.reason == "resigned"

    out = await bob.slash("raptor replay")            # this channel's last finished match
    post = next(r for r in out if r.visibility == "public" and r.attachments)
    assert post.content.startswith("🎬 **Replay of Match #1**: 3 rounds, a frame per round")
    gif = post.attachments[0]
    assert gif.filename == "raptor-match-1.gif"
    im = Image.open(io.BytesIO(gif.data))
    assert im.format == "GIF" and im.n_frames == 3 and im.size == (828, 756)
    views, verdict, winner = await replay_views(world.service, ended)
    assert verdict == "Scientist wins: the raptor resigned" and winner is S
    from render.replay import render_replay

    assert gif.data == render_replay(views, verdict=verdict, winner=winner,
                                     byte_limit=fake.server.attachment_size_limit
                                     - 64 * 1024).data
    again = await alice.slash("raptor replay", match=1)   # by number, same picture
    assert next(r for r in again if r.attachments).attachments[0].data == gif.data

    out = await alice.slash("raptor record", match=1)
    post = next(r for r in out if r.visibility == "public" and r.attachments)
    assert post.content.startswith("📜 **Record of Match #1**")
    rec = post.attachments[0]
    assert rec.filename == "raptor-match-1.txt"
    text = rec.data.decode("utf-8")
    parsed = engine.read_record(text)                   # it reads back to the stored match
    assert parsed.final.key() == ended.state.key()
    assert "Event: Raptor match #1\n" in text and "Raptor: alice\n" in text
    assert "Scientist: bob\n" in text and "Result: scientist\nReason: resigned\n" in text
    assert f"Server: {fake.server.guild_name}\n" in text
    assert bob.mention not in text


async def test_refusals_in_progress_other_server_unknown_and_none_yet(world: World) -> None:
    fake, bob = world.fake, world.bob
    carol = fake.add_user("carol")
    out = await carol.slash("raptor replay")
    only_ephemeral_to(out, carol)
    assert out.content.startswith("No match has finished in this channel yet")
    assert fake.public_messages() == []

    await start_match(world)
    await play_rounds(world, 1)
    for command in ("raptor replay", "raptor record"):
        out = await bob.slash(command, match=1)        # in progress: its hands are secret
        only_ephemeral_to(out, bob)
        assert out.content == ("Match #1 is still being played: its replay and record come "
                               "once it is over (until then its hands are secret).")
        out = await bob.slash(command, match=99)
        only_ephemeral_to(out, bob)
        assert out.content == ("There is no match #99 in this server: `/raptor history` "
                               "lists yours.")
    # a match of another server is not named
    other = await world.service.start_ai_match(
        777, 778, game="raptor", levels=["easy", "easy"], ai_user_ids=[901, 902], seed=3)
    await world.service.end_by_moderator(other.id)
    out = await bob.slash("raptor record", match=other.id)
    only_ephemeral_to(out, bob)
    assert out.content == (f"There is no match #{other.id} in this server: `/raptor history` "
                           "lists yours.")
    assert not [r for r in fake.public_messages() if r.attachments
                and r.attachments[0].filename.startswith("raptor-match-")]


async def test_an_animation_over_the_upload_limit_is_scaled_and_said_so(world: World) -> None:
    fake, bob = world.fake, world.bob
    await finished_after(world, 6)
    full = next(r for r in await bob.slash("raptor replay") if r.attachments).attachments[0]
    fake.server.attachment_size_limit = 64 * 1024 + int(len(full.data) * 0.6)
    out = await bob.slash("raptor replay")
    post = next(r for r in out if r.visibility == "public" and r.attachments)
    assert len(post.attachments[0].data) <= fake.server.attachment_size_limit
    assert "Scaled to " in post.content and "to fit" in post.content
    assert Image.open(io.BytesIO(post.attachments[0].data)).size[0] < 828
    fake.server.attachment_size_limit = 64 * 1024 + 5_000  # not even two small frames
    out = await bob.slash("raptor replay")
    only_ephemeral_to(out, bob)
    assert out.content.startswith("No replay of Match #1: the animation does not fit")


async def test_the_step_through_viewer_works_across_a_restart(world: World) -> None:
    from tests.discord.test_practice_and_timers import restart

    fake, bob = world.fake, world.bob
    ended = await finished_after(world, 3)
    out = await bob.slash("raptor replay")
    viewer = next(r for r in out if r.visibility == "ephemeral" and r.attachments)
    assert viewer.user_id == bob.id
    assert viewer.content.startswith("**Match #1 · round 1 (1/3)**")
    ids = [c["custom_id"] for c in viewer.walk() if c.get("custom_id")]
    assert ids == ["raptor:replay:1:0:first", "raptor:replay:1:0:prev",
                   "raptor:replay:1:1:next", "raptor:replay:1:2:last"]
    views, verdict, winner = await replay_views(world.service, ended)
    from render.replay import frame_png

    assert viewer.attachments[0].data == frame_png(views[0], total=3)
    await restart(world)
    await bob.click(custom_id="raptor:replay:1:1:next", message=viewer.id)
    page = fake.message(viewer.id)
    assert page.content.startswith("**Match #1 · round 2 (2/3)**")
    assert page.attachments[0].data == frame_png(views[1], total=3)
    await bob.click(custom_id="raptor:replay:1:2:last", message=viewer.id)
    page = fake.message(viewer.id)
    assert page.content.startswith("**Match #1 · round 3 (3/3)**")
    assert page.attachments[0].data == frame_png(views[2], total=3, final=True,
                                                 verdict=verdict, winner=winner)
    assert fake.problems() == []


async def test_the_step_through_viewer_is_in_the_viewers_language(world: World) -> None:
    """A zh-TW viewer (their setting) gets the caption and the frame image in Chinese, also
    after a click; the public animation stays in the server's language (English)."""
    from bot.i18n import translator
    from render.replay import frame_png

    fake, bob = world.fake, world.bob
    ended = await finished_after(world, 3)
    await bob.slash("raptor settings", language="zh-TW")
    out = await bob.slash("raptor replay")
    post = next(r for r in out if r.visibility == "public" and r.attachments)
    assert post.content.startswith("🎬 **Replay of Match #1**")
    viewer = next(r for r in out if r.visibility == "ephemeral" and r.attachments)
    lines = viewer.content.split("\n")
    assert lines[0] == "**第 1 局 · 第 1 回合（1/3）**"
    assert lines[-1].startswith("幼龍逃脫 0/3 · 被捕捉 ")
    assert "round" not in viewer.content and "Nothing" not in viewer.content
    views, verdict, winner = await replay_views(world.service, ended)
    zh = translator("zh-TW").text
    assert viewer.attachments[0].data == frame_png(views[0], total=3, tr=zh)
    assert viewer.attachments[0].data != frame_png(views[0], total=3)
    await bob.click(custom_id="raptor:replay:1:2:last", message=viewer.id)
    page = fake.message(viewer.id)
    assert page.content.startswith("**第 1 局 · 第 3 回合（3/3）**")
    assert page.attachments[0].data == frame_png(views[2], total=3, final=True,
                                                 verdict=zh(verdict), winner=winner, tr=zh)
    assert zh(verdict) != verdict  # the last frame's banner is Chinese too
    assert fake.problems() == []
