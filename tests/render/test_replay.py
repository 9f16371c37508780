"""The animation of a finished match (render.replay): frames, size limits, hidden information."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image

import engine
from engine import Phase, Side
from engine.record import round_states
from render import HEADER_BOX
from render.board import board_image
from render.replay import (
    DEFAULT_BYTE_LIMIT,
    FINAL_MS,
    FRAME_MS,
    ReplayError,
    final_verdict,
    frame_caption,
    render_replay,
    replay_frame,
)

from ..engine.test_record import random_game
from .helpers import changed_pixels


@pytest.fixture(scope="module")
def match():
    """A finished random game: (final state, action log, states after each round)."""
    final, log = random_game(11)
    return final, log, round_states(11, final.options, log)


def short_views(states, rounds=4):
    """The views after the first ``rounds - 1`` rounds, then the final one (a short
    animation of a real finished game)."""
    picked = states[: rounds - 1] + [states[-1]]
    return [engine.view(s, None) for s in picked]


def frames_of(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    out = []
    for i in range(im.n_frames):
        im.seek(i)
        out.append(im.convert("RGB"))
    return out


def test_one_frame_per_round_ending_on_the_final_board(match):
    final, _, states = match
    views = short_views(states)
    anim = render_replay(views)
    assert (anim.rounds, anim.frames, anim.dropped, anim.scale) == (4, 4, 0, 1.0)
    assert anim.size == (828, 756) and anim.note is None
    assert anim.byte_limit == DEFAULT_BYTE_LIMIT == 10 * 1024 * 1024
    frames = frames_of(anim.data)
    assert len(frames) == 4 and frames[0].size == (828, 756)
    gif = Image.open(io.BytesIO(anim.data))
    assert gif.info["loop"] == 0
    durations = []
    for i in range(gif.n_frames):
        gif.seek(i)
        durations.append(gif.info["duration"])
    assert durations == [FRAME_MS] * 3 + [FINAL_MS]
    # each frame is its round's picture (quantized: small differences only)
    for frame, v, last in zip(frames, views, (False, False, False, True), strict=True):
        want = replay_frame(v, total=4, final=last)
        assert changed_pixels(frame, want, 48) < 0.01 * 828 * 756
    # the rounds differ from each other
    assert changed_pixels(frames[0], frames[1], 48) > 500


def test_each_frame_says_its_round_and_the_two_cards(match):
    final, _, states = match
    v = engine.view(states[2], None)        # after round 3, in round 4's pick
    assert v.phase is Phase.PICK and v.round == 4
    revealed = next(e for e in v.last_round_events if e.kind == "revealed")
    rv, sv = revealed.value, revealed.value2
    caption = frame_caption(v, 30)
    assert caption.startswith("Round 3/30 · ")
    if rv != sv:
        assert caption == (f"Round 3/30 · Raptor {rv} {engine.card_name(Side.RAPTOR, rv)} vs "
                           f"Scientist {sv} {engine.card_name(Side.SCIENTIST, sv)}")
    last = engine.view(final, None)
    assert final_verdict(last).startswith(f"Round {final.round} · Scientist wins: "
                                          if final.winner is Side.SCIENTIST
                                          else f"Round {final.round} · Raptor wins: ")
    # the caption replaces the status line: frames of two rounds differ there
    a = replay_frame(engine.view(states[0], None), total=30).crop(HEADER_BOX)
    b = replay_frame(engine.view(states[1], None), total=30).crop(HEADER_BOX)
    assert changed_pixels(a, b, 48) > 100
    plain = board_image(v).crop(HEADER_BOX)  # the bot's after-round image: 'After round 3'
    assert changed_pixels(replay_frame(v, total=30).crop(HEADER_BOX), plain, 48) > 100


def test_a_match_in_progress_is_refused(match):
    _, _, states = match
    in_progress = [engine.view(s, None) for s in states[:3]]
    with pytest.raises(ReplayError, match="a match in progress cannot be replayed"):
        render_replay(in_progress)
    with pytest.raises(ReplayError, match="nothing to replay"):
        render_replay([])
    # the same rounds, ended by a resignation: replayable, with the verdict on the last frame
    anim = render_replay(in_progress, verdict="Raptor wins: the scientist resigned",
                         winner=Side.RAPTOR)
    assert anim.frames == 3


def test_a_players_view_is_refused(match):
    _, _, states = match
    views = short_views(states)
    views[1] = engine.view(states[1], Side.RAPTOR)
    with pytest.raises(ReplayError, match="public view only"):
        render_replay(views)


def _hidden_variant(state: engine.GameState, rng: random.Random) -> engine.GameState:
    """``state`` with other hands, deck orders, unrevealed picks and seed: the same public
    position (hand and deck sizes kept)."""
    s = state.copy()
    s.seed = rng.getrandbits(40)
    for side in (Side.RAPTOR, Side.SCIENTIST):
        pool = list(s.hands[side]) + list(s.decks[side])
        rng.shuffle(pool)
        h = len(s.hands[side])
        s.hands[side] = tuple(sorted(pool[:h]))
        s.decks[side] = tuple(pool[h:])
    return s


def test_the_animation_is_the_same_whatever_the_hands_were(match):
    """Non-interference (R11): hidden information changes no byte of the animation."""
    _, _, states = match
    picked = states[:3] + [states[-1]]
    want = render_replay([engine.view(s, None) for s in picked]).data
    for seed in (1, 2):
        rng = random.Random(seed)
        variants = [_hidden_variant(s, rng) for s in picked]
        assert any(v.hands != s.hands for v, s in zip(variants, picked, strict=True))
        assert render_replay([engine.view(s, None) for s in variants]).data == want
    # a public view carrying a hand, a deck and a pick by mistake draws the same frames
    rng = random.Random(3)
    dirty = [dataclasses.replace(engine.view(s, None), hand=(1, 2, 3), deck=(4, 5, 6),
                                 my_pick=rng.randint(1, 9)) for s in picked]
    assert render_replay(dirty).data == want


def test_too_large_for_the_limit_it_scales_down_then_drops_frames(match):
    _, _, states = match
    views = short_views(states, rounds=8)
    full = render_replay(views)
    limit = int(len(full.data) * 0.85)
    scaled = render_replay(views, byte_limit=limit)
    assert scaled.scale == 0.75 and scaled.dropped == 0 and scaled.frames == 8
    assert len(scaled.data) <= limit
    assert frames_of(scaled.data)[0].size == scaled.size == (621, 567)
    assert scaled.note == f"Scaled to 75 % to fit {limit / 1024:.3g} KiB."
    small = render_replay(views, byte_limit=len(full.data) // 3)
    assert small.scale == 0.5 and 2 <= small.frames < 8 and small.dropped == 8 - small.frames
    assert len(small.data) <= len(full.data) // 3
    assert len(frames_of(small.data)) == small.frames
    assert f"{small.dropped} of 8 frames left out" in small.note
    with pytest.raises(ReplayError, match="does not fit"):
        render_replay(views, byte_limit=10_000)


def test_it_runs_in_a_render_worker_process(match):
    from render.pool import render_executor

    _, _, states = match
    views = short_views(states, rounds=2)
    pool = render_executor(1)
    try:
        remote = pool.submit(render_replay, views).result(timeout=120)
    finally:
        pool.shutdown(wait=True)
    assert remote == render_replay(views)
