"""The animation of a finished race: a frame per turn, as a GIF (:func:`render_race_replay`).

The frames are track images (:func:`render.race.track_image`) with a caption in place of the
status line: the start (the first roll, before any step), then the end of each turn, the
raptors where it left them, its steps drawn as arrows and its dice shown used
(:func:`turn_end_view`), captioned ``Turn 3/11 · Seat 2``; the last frame is the finish with
the placing and the points (RR6, RR7), or, for a race ended outside the game, its last
position under a verdict. The GIF is made by :func:`render.animation.fit_animation`, as
Raptor's is.

Public views in, bytes out (RR9.1, RR9.2): nothing here reads a card, and the points show
only on the final frame of a finished race.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PIL import Image

from engine.messages import Text
from engine.race import Face, Phase, RaceView
from engine.race.components import sorted_faces
from engine.race.state import BOOSTER

from ..animation import (
    DEFAULT_BYTE_LIMIT,
    FINAL_MS,
    FRAME_MS,
    Animation,
    ReplayError,
    fit_animation,
)
from ..png import png_bytes
from .track import Tr, seat_label, status_line, track_image


def turn_end_view(after: RaceView) -> RaceView:
    """The public view of the end of the turn before ``after``, a view at the start of the
    next turn (nothing decided in it yet): the raptors where they stand, that turn's steps
    (``after.last_steps``), its dice all used (the faces that moved or were used up, in
    the order used; boosters are no dice), nothing rolled, no arrows die shown.

    Raises:
        ValueError: ``after`` has no turn before it (the first turn).
    """
    if after.last_seat is None:
        raise ValueError("the first turn has no turn before it")
    used = tuple(Face(step.by) for step in after.last_steps if step.by != BOOSTER)
    return replace(after, turn=after.turn - 1, seat=after.last_seat, phase=Phase.MOVE,
                   to_act=frozenset(), rolled=(), kept=sorted_faces(used), used=used,
                   arrow_die=None, arrow_aside=False, arrows_used=0, pending=None,
                   steps=after.last_steps, last_steps=(), last_seat=None)


def frame_caption(view: RaceView, *, first: bool = False, total: int | None = None,
                  tr: Tr = str, names: Sequence[str] | None = None) -> str:
    """The caption of a frame: ``first`` the start (``Start · Seat 2 plays first``); the
    finish (``Turn 11/11 · Green crossed the finish line``); else the end of the turn
    before ``view`` (``Turn 3/11 · Seat 2``)."""
    if first:
        return tr(Text("Start · {player} plays first", player=seat_label(view.seat, names, tr)))
    number = view.turn if view.is_over else view.turn - 1
    head = (Text("Turn {n}/{total}", n=number, total=total) if total
            else Text("Turn {n}", n=number))
    if view.is_over:
        return tr(Text("{head} · {what}", head=head, what=status_line(view, tr=tr)))
    player = seat_label(view.last_seat if view.last_seat is not None else view.seat, names, tr)
    return tr(Text("{head} · {player}", head=head, player=player))


def replay_frame(view: RaceView, *, first: bool = False, total: int | None = None,
                 final: bool = False, verdict: str | None = None,
                 names: Sequence[str] | None = None, tr: Tr = str) -> Image.Image:
    """One frame (RGB, the track image's size) of the public ``view``: ``first`` the start
    as it is; ``final`` with a ``verdict`` (a race ended outside the game) the position as
    it is under the verdict; else the end of the turn before ``view``
    (:func:`turn_end_view`), or the finish when ``view`` is over."""
    if final and verdict and not view.is_over:
        return track_image(view, tr=tr, names=names, caption=verdict)
    caption = frame_caption(view, first=first, total=total, tr=tr, names=names)
    shown = view if first or view.is_over else turn_end_view(view)
    return track_image(shown, tr=tr, names=names, caption=caption)


def replay_frames(views: Sequence[RaceView], *, verdict: str | None = None,
                  names: Sequence[str] | None = None, tr: Tr = str) -> list[Image.Image]:
    """Every frame of the animation of ``views`` (see :func:`render_race_replay`).

    Raises:
        ReplayError: see :func:`render_race_replay`.
    """
    if not views:
        raise ReplayError("nothing to replay: no position of the race was given")
    if any(v.viewer is not None for v in views):
        raise ReplayError("a replay shows the public view only (engine.race.view(state, "
                          "None))")
    if not views[-1].is_over and not verdict:
        raise ReplayError("a race in progress cannot be replayed: its last view is not over "
                          "and no verdict says how it ended")
    last = len(views) - 1
    total = views[-1].turn
    return [replay_frame(v, first=i == 0, total=total, final=i == last, verdict=verdict,
                         names=names, tr=tr)
            for i, v in enumerate(views)]


def frame_pngs(views: Sequence[RaceView], *, verdict: str | None = None,
               names: Sequence[str] | None = None, tr: Tr = str) -> list[bytes]:
    """The frames of :func:`render_race_replay` as PNG bytes, one per view.

    Raises:
        ReplayError: see :func:`render_race_replay`.
    """
    return [png_bytes(im) for im in replay_frames(views, verdict=verdict, names=names, tr=tr)]


def render_race_replay(views: Sequence[RaceView], *, byte_limit: int = DEFAULT_BYTE_LIMIT,
                       verdict: str | None = None, names: Sequence[str] | None = None,
                       frame_ms: int = FRAME_MS, final_ms: int = FINAL_MS,
                       tr: Tr = str) -> Animation:
    """The animated GIF of a finished race.

    Args:
        views: the public views of the race: the start (after the first roll), then one at
            the start of each next turn, the last one the final position (the finish, or
            where a race ended outside the game stopped).
        byte_limit: the largest GIF allowed, in bytes (frames scaled down, then dropped,
            to fit: :func:`render.animation.fit_animation`).
        verdict: the caption of the last frame of a race ended outside the game (already
            written in its language); not needed for a finished race.
        names: the players by seat (default "Seat N").
        frame_ms, final_ms: how long each turn's frame and the last one show.
        tr: the language of the frames' texts (``str``: English).

    Raises:
        ReplayError: no views, a view that is not public, a last view not over without a
            ``verdict`` (a race in progress), or a limit not met even by the first and
            last frames at the smallest scale.
    """
    frames = replay_frames(views, verdict=verdict, names=names, tr=tr)
    return fit_animation(frames, byte_limit=byte_limit, frame_ms=frame_ms, final_ms=final_ms)


__all__ = ["frame_caption", "frame_pngs", "render_race_replay", "replay_frame",
           "replay_frames", "turn_end_view"]
