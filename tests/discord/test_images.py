"""The bot's image cache (bot.discord.images.Images): each board rendered once per match version,
hands by their content and only for their own player, concurrent requests shared, and a
superseded turn message never shown."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

import engine
import render
from bot.discord.images import REPLAY_SLOT, Images, ReplaysBusyError
from bot.discord.presentation import ui_of
from engine import Side
from engine.raptor_game import SIDE_SEATS
from tests.discord.conftest import World
from tests.discord.helpers import pick, start_match, turn_message

R, S = Side.RAPTOR, Side.SCIENTIST


async def test_a_board_is_rendered_once_per_version(world: World) -> None:
    match = await start_match(world)
    images = Images()
    try:
        first = await images.board(match)
        assert first == render.render_board(engine.view(match.state, None))
        assert await images.board(match) is first
        assert (images.renders, images.hits) == (1, 1)
        # the same match at its next version is another picture
        after = await world.service.act(match.id, world.bob.id, "8", seat=SIDE_SEATS[S])
        assert after.match.version == match.version + 1
        second = await images.board(after.match)
        assert images.renders == 2
        assert second == render.render_board(engine.view(after.match.state, None))
    finally:
        images.close()


async def test_concurrent_requests_share_one_render(world: World) -> None:
    match = await start_match(world)
    images = Images()
    try:
        got = await asyncio.gather(*(images.board(match) for _ in range(6)),
                                   *(images.private(match, SIDE_SEATS[R]) for _ in range(3)))
        assert images.renders == 2 and images.hits == 7
        assert len({id(png) for png in got[:6]}) == 1
        assert len({id(png) for png in got[6:]}) == 1
    finally:
        images.close()


async def test_hands_are_keyed_by_their_players_content(world: World) -> None:
    match = await start_match(world)
    images = Images()
    try:
        raptor = await images.private(match, SIDE_SEATS[R])
        scientist = await images.private(match, SIDE_SEATS[S])
        assert raptor == render.render_hand(engine.view(match.state, R))
        assert scientist == render.render_hand(engine.view(match.state, S))
        assert raptor != scientist
        # a later version where the hand picture is unchanged: a hit; the other hand is
        # never served for it
        moved = dataclasses.replace(match, version=match.version + 5)
        assert await images.private(moved, SIDE_SEATS[S]) is scientist
        assert await images.private(moved, SIDE_SEATS[R]) is raptor
        assert images.renders == 2
    finally:
        images.close()


async def test_close_empties_the_caches_and_a_later_request_renders_again(world: World) -> None:
    match = await start_match(world)
    images = Images(boards=1)
    first = await images.board(match)
    images.close()
    again = await images.board(match)
    assert again == first and again is not first and images.renders == 2
    images.close()


async def test_the_board_cache_is_bounded(world: World) -> None:
    match = await start_match(world)
    images = Images(boards=2)
    try:
        for v in range(4):
            await images.board(dataclasses.replace(match, version=match.version + v))
        assert images.renders == 4
        await images.board(dataclasses.replace(match, version=match.version + 3))
        assert images.renders == 4  # the newest are kept
        await images.board(match)
        assert images.renders == 5  # the oldest was dropped
    finally:
        images.close()


async def test_card_refreshes_at_once_show_the_newest_version(world: World) -> None:
    """Two refreshes of the same match's card at once (e.g. a click and the timer loop): no
    second card is posted, and the card ends with the controls of the stored version."""
    await start_match(world)
    await pick(world.alice, R, 7)
    await pick(world.bob, S, 1)
    now = await world.match()
    flow = world.bot.flow
    posted = turn_message(world)
    assert f"v:{now.version}:" in str(posted.components)
    before = len(world.fake.public_messages(world.fake.channel))
    await asyncio.gather(flow.cards.refresh(now.id), flow.cards.refresh(now.id))
    assert len(world.fake.public_messages(world.fake.channel)) == before
    assert turn_message(world).id == posted.id
    assert f"v:{now.version}:" in str(world.fake.message(posted.id).components)


async def test_a_card_edit_sends_the_board_only_when_it_changed(world: World) -> None:
    """Every reader of the channel downloads each board sent: an edit of the card whose board
    is byte for byte the one it shows keeps the message's file (Discord keeps the files of an
    edit without ``attachments``); an edit whose board changed sends the new one."""
    fake, cards = world.fake, world.bot.flow.cards
    match = await start_match(world)
    card = await cards.card(match.id)
    assert card is not None
    (shown,) = fake.message(card.message_id).attachments
    assert shown.data == render.render_board(engine.view(match.state, None))
    records = len(fake.records)
    await cards.refresh(match.id)  # nothing public changed: the same board
    (edit,) = [r for r in fake.records[records:] if r.message_id == card.message_id]
    assert edit.edit and [a.id for a in edit.attachments] == [shown.id]  # nothing uploaded
    assert edit.embeds[0]["image"]["url"] == "attachment://board.png"
    assert fake.problems() == []  # the embed's attachment:// still names a file

    records = len(fake.records)
    await pick(world.alice, R, 7)  # the board shows the raptor's card face down now
    after = await world.match()
    (edit,) = [r for r in fake.records[records:] if r.message_id == card.message_id]
    (new,) = edit.attachments
    assert new.id != shown.id and new.filename == "board.png"
    assert new.data == render.render_board(engine.view(after.state, None)) != shown.data


async def test_renders_run_in_worker_processes_and_survive_a_dead_worker(world: World) -> None:
    import os
    import signal
    from concurrent.futures import ProcessPoolExecutor

    match = await start_match(world)
    images = Images(workers=1)
    try:
        first = await images.board(match)
        (pool,) = images._executors.values()
        assert isinstance(pool, ProcessPoolExecutor)
        for pid in list(pool._processes):  # the worker is another process
            assert pid != os.getpid()
            os.kill(pid, signal.SIGKILL)
        # the pool is broken: the next render falls back to threads and still answers
        later = dataclasses.replace(match, version=match.version + 1)
        assert await images.board(later) == first
        assert images.processes is False
    finally:
        images.close()


async def test_a_match_always_renders_in_the_same_worker(world: World) -> None:
    match = await start_match(world)
    images = Images(workers=2)
    try:
        await images.board(match)
        await images.private(match, SIDE_SEATS[R])
        await images.board(dataclasses.replace(match, version=match.version + 1))
        assert list(images._executors) == [match.id % 2]  # one worker started, used for all
        other = dataclasses.replace(match, id=match.id + 1)
        await images.board(other)
        assert sorted(images._executors) == [0, 1]
    finally:
        images.close()


async def finished(world: World, match_id: int | None = None):
    """A finished match (alice resigns her match at once) and its replay views."""
    from bot.games.raptor.replays import replay_views

    match = await start_match(world) if match_id is None else await world.service.get_match(
        match_id)
    await pick(world.alice, R, match.state.hands[R][0])
    await pick(world.bob, S, match.state.hands[S][0])
    ended = await world.service.resign(match.id, world.alice.id)
    views, verdict, winner = await replay_views(world.service, ended)
    assert views
    return ended, views, verdict, winner


async def test_a_finished_matchs_animation_is_drawn_once_in_its_own_worker(
        world: World) -> None:
    from render.replay import frame_png, render_replay

    ended, views, verdict, winner = await finished(world)
    replay = await ui_of("raptor").replay(world.service, ended)
    assert list(replay.frames) == views
    images = Images(workers=2)
    try:
        got = await asyncio.gather(*(images.replay(ended, replay, byte_limit=8 << 20,
                                                   requester=1000 + i) for i in range(12)))
        assert (images.renders, images.hits) == (1, 11)
        assert len({id(a) for a in got}) == 1
        assert got[0].data == render_replay(views, byte_limit=8 << 20, verdict=str(verdict),
                                            winner=winner).data
        again = await images.replay(ended, replay, byte_limit=8 << 20, requester=1000)
        assert again is got[0] and images.hits == 12
        frame = await images.replay_frame(ended, replay, 0)
        assert frame == frame_png(views[0], total=len(views), final=len(views) == 1,
                                  verdict=str(verdict), winner=winner)
        assert await images.replay_frame(ended, replay, 0) is frame
        # drawn by the replay worker alone: no board worker was started for them
        assert list(images._executors) == [REPLAY_SLOT]
    finally:
        images.close()


async def test_replays_drawn_at_once_are_capped_and_one_per_member(world: World,
                                                                  monkeypatch) -> None:
    import threading

    from render import replay as render_replay_module

    ended, views, verdict, winner = await finished(world)
    replay = await ui_of("raptor").replay(world.service, ended)
    release = threading.Event()
    real = render_replay_module.render_replay

    def slow(views, **kw):
        release.wait(10)
        return real(views, **kw)

    monkeypatch.setattr(render_replay_module, "render_replay", slow)
    images = Images(processes=False, max_replays=2)
    try:
        first = asyncio.ensure_future(images.replay(ended, replay, byte_limit=8 << 20,
                                                    requester=1))
        await asyncio.sleep(0.05)
        with pytest.raises(ReplaysBusyError) as mine:  # the same member, another animation
            await images.replay(ended, replay, byte_limit=4 << 20, requester=1)
        assert mine.value.message == ("Your other replay is still being drawn: ask for this "
                                      "one once it is here.")
        second = asyncio.ensure_future(images.replay(ended, replay, byte_limit=4 << 20,
                                                     requester=2))
        await asyncio.sleep(0.05)
        with pytest.raises(ReplaysBusyError) as full:
            await images.replay(ended, replay, byte_limit=2 << 20, requester=3)
        assert full.value.message == ("I'm drawing 2 replays already, as many as I draw at "
                                      "once: try again in a minute.")
        # joining one being drawn is not a new one
        joined = asyncio.ensure_future(images.replay(ended, replay, byte_limit=8 << 20,
                                                     requester=3))
        release.set()
        assert (await first) is (await joined)
        await second
        await images.replay(ended, replay, byte_limit=2 << 20, requester=3)  # room again
        assert images._drawing == {}
    finally:
        release.set()
        images.close()
