"""The race's animation (render.race.replay): a frame per turn, the end of each turn shown
with its steps and its dice used, captions, the byte limit, and nothing of the cards."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

import engine.race as race
from bot.i18n import translator
from engine.race import Face, Phase
from render.animation import ReplayError
from render.race import image_size
from render.race.replay import (
    frame_caption,
    frame_pngs,
    render_race_replay,
    replay_frame,
    turn_end_view,
)


def _first_legal(state: race.RaceState) -> race.Action:
    return race.legal_actions(state, state.seat)[0]


def turn_views(seed: int = 5, seats: int = 3, board: str = "desert",
               cards: tuple[int, ...] | None = None) -> list[race.RaceView]:
    """The public views of a race played by the first legal action: the start, then the
    start of each next turn, the last one the finish."""
    state = race.new_game(seed, seats, board)
    if cards is not None:
        state = replace(state, cards=cards)
    views = [race.view(state, None)]
    while not state.is_over:
        turn = state.turn
        state = race.apply(state, state.seat, _first_legal(state))
        if state.turn != turn or state.is_over:
            views.append(race.view(state, None))
    return views


@pytest.fixture(scope="module")
def views() -> list[race.RaceView]:
    return turn_views()


def test_the_end_of_a_turn_shows_its_steps_and_its_dice_used(views):
    after = views[3]
    end = turn_end_view(after)
    assert (end.turn, end.seat, end.phase) == (after.turn - 1, after.last_seat, Phase.MOVE)
    assert end.raptors == after.raptors and end.steps == after.last_steps
    dice = [Face(s.by) for s in after.last_steps if s.by != "+"]
    assert list(end.used) == dice and sorted(end.kept) == sorted(dice) and end.left == ()
    assert end.rolled == () and end.pending is None and end.arrow_die is None
    with pytest.raises(ValueError, match="first turn"):
        turn_end_view(views[0])


def test_one_frame_per_turn_from_the_start_to_the_finish(views):
    anim = render_race_replay(views)
    gif = Image.open(io.BytesIO(anim.data))
    assert gif.format == "GIF" and gif.n_frames == anim.frames == len(views)
    assert gif.size == image_size("desert") and anim.note is None
    assert len(views) == views[-1].turn + 1  # the start, then each turn


def test_the_captions_say_the_start_each_turn_and_the_finish(views):
    total = views[-1].turn
    assert frame_caption(views[0], first=True) == f"Start · Seat {views[0].seat + 1} plays first"
    assert frame_caption(views[2], total=total) == (
        f"Turn 2/{total} · Seat {views[2].last_seat + 1}")
    winner = race.RAPTOR_NAMES[views[-1].winner]
    assert frame_caption(views[-1], total=total) == (
        f"Turn {total}/{total} · {winner} crossed the finish line")
    zh = translator("zh-TW").text
    assert frame_caption(views[2], total=total, tr=zh).startswith("第 2/")


def test_a_race_in_progress_needs_a_verdict_and_public_views(views):
    with pytest.raises(ReplayError, match="in progress"):
        render_race_replay(views[:3])
    stopped = render_race_replay(views[:3], verdict="Stopped by its player")
    assert stopped.frames == 3
    with pytest.raises(ReplayError, match="public"):
        render_race_replay([race.view(race.new_game(1, 2), 0)])
    with pytest.raises(ReplayError, match="nothing"):
        render_race_replay([])


def test_the_frames_are_the_same_whatever_the_cards_were():
    a = turn_views(cards=(1, 2, 3))
    b = turn_views(cards=(17, 9, 4))
    assert a[-1].scores != b[-1].scores  # the points differ: the final frame may differ
    assert frame_pngs(a)[:-1] == frame_pngs(b)[:-1]


def test_too_large_for_the_limit_it_scales_down(views):
    full = render_race_replay(views)
    small = render_race_replay(views, byte_limit=len(full.data) - 1)
    assert small.scale < 1.0 and len(small.data) < len(full.data)


def test_a_jungle_frame_in_chinese(tmp_path):
    jungle = turn_views(seed=2, board="jungle")
    im = replay_frame(jungle[1], total=jungle[-1].turn, tr=translator("zh-TW").text)
    assert im.size == image_size("jungle")
    im.save(tmp_path / "frame.png")
