"""The animation of a Ratjack match: a frame per turn, as a GIF (:func:`render_animation`).

Each frame is the public table (:func:`~.table.table_image`) at the start of the match, then
after each turn (a round's last turn shows the next round begun, with the round's result in
the footer), the last frame the final table: the winners in the game-over banner, or, for a
match that ended outside the game, its last position under a verdict. The GIF is made by
:func:`render.animation.fit_animation`, as every game's is.

Public views in, bytes out (RJ11.1): the table shows no hidden card, so the animation of a
match is the same whatever the hands, hidden cards and deck order were.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.ratjack import Phase, View

from ..animation import DEFAULT_BYTE_LIMIT, FINAL_MS, Animation, ReplayError, fit_animation
from ..board import Tr
from .table import table_image

#: How long each turn's frame shows (milliseconds); the final one shows ``FINAL_MS``.
TURN_MS = 900


def animation_frames(views: Sequence[View], *, names: Sequence[str] | None = None,
                     verdict: str | None = None, tr: Tr = str) -> list[Image.Image]:
    """The frames of :func:`render_animation`, unencoded (RGB, the table image's size).

    Raises:
        ReplayError: see :func:`render_animation`.
    """
    if not views:
        raise ReplayError("nothing to replay: no position given")
    if any(v.viewer is not None for v in views):
        raise ReplayError("an animation shows the public view only (view(state, None))")
    if views[-1].phase is not Phase.OVER and not verdict:
        raise ReplayError("a match in progress cannot be replayed: its last view is not over "
                          "and no verdict says how it ended")
    last = len(views) - 1
    return [table_image(v, names=names, tr=tr, verdict=verdict if i == last else None)
            for i, v in enumerate(views)]


def render_animation(views: Sequence[View], *, names: Sequence[str] | None = None,
                     verdict: str | None = None, byte_limit: int = DEFAULT_BYTE_LIMIT,
                     frame_ms: int = TURN_MS, final_ms: int = FINAL_MS,
                     tr: Tr = str) -> Animation:
    """The animated GIF of a finished match.

    Args:
        views: the public views (``view(state, None)``) at the start and after each turn,
            the last one the final position.
        names: the players' names by seat, as on the table (default ``p1`` .. ``p4``).
        verdict: how a match that ended outside the game ended (a resignation that left
            the others playing, a stop), shown on the last frame; not needed for a game over.
        byte_limit: the largest GIF allowed, in bytes; frames are scaled down, then dropped
            evenly, to fit (:func:`render.animation.fit_animation`).
        frame_ms, final_ms: how long each frame and the last one show.
        tr: the language of the texts (``str``: English).

    Raises:
        ReplayError: no views, a view that is not public, a last view not over without a
            ``verdict``, or a limit not met even by the first and last frames.
    """
    frames = animation_frames(views, names=names, verdict=verdict, tr=tr)
    return fit_animation(frames, byte_limit=byte_limit, frame_ms=frame_ms, final_ms=final_ms)


__all__ = ["TURN_MS", "animation_frames", "render_animation"]
