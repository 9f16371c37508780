"""The animation of a finished match: one frame per round, as a GIF (:func:`render_replay`).

Each frame is the public board after a round (:func:`render.board_image`) with that round's
highlights, its number and both revealed cards in the status line; the last frame is the
final board with the result. GIF animates inline in Discord's clients. Frames are
quantized to one shared palette (drawn from the first and last frames, no dithering: the
boards are flat colour areas), and Pillow writes each frame as its change from the one
before with only the colours it uses, so a 30-round match is about half a MiB.

Pure like the rest of :mod:`render`: public views in, bytes out, nothing hidden read
(R11.1), so the animation of a match is the same whatever the hands were. The arguments
and the :class:`Animation` are small picklable values: the bot runs it in the render
worker processes (:func:`render.pool.render_executor`), never on its event loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine import Phase, Side, View, card_name
from engine.messages import Text

from .animation import (
    DEFAULT_BYTE_LIMIT,
    FINAL_MS,
    FRAME_MS,
    SCALES,
    Animation,
    ReplayError,
    fit_animation,
)
from .board import REASON_TEXT, SIDE_NAMES, Tr, board_image, encode_png, shown_round


def frame_caption(v: View, total: int | None = None, tr: Tr = str) -> str:
    """The status line of a replay frame of ``v`` (a public view after a round, in the
    next round's card pick, or one during a round): the round shown and the two revealed
    cards, e.g. ``"Round 7/23 · Raptor 5 Recovery ×2 vs Scientist 3 Jeep ×2"``."""
    number = shown_round(v)
    events = v.last_round_events if number is not None else v.round_events
    if number is None:
        number = v.round
    head = (Text("Round {n}/{total}", n=number, total=total) if total
            else Text("Round {n}", n=number))
    revealed = next((e for e in events if e.kind == "revealed"), None)
    if revealed is None:
        return tr(Text("{head} · no cards revealed", head=head))
    rv, sv = revealed.value, revealed.value2
    if rv == sv:
        return tr(Text("{head} · Raptor {raptor} vs Scientist {scientist}: a tie, nothing "
                       "happens", head=head, raptor=rv, scientist=sv))
    return tr(Text("{head} · Raptor {raptor} {raptor_card} vs Scientist {scientist} "
                   "{scientist_card}", head=head, raptor=rv,
                   raptor_card=card_name(Side.RAPTOR, rv), scientist=sv,
                   scientist_card=card_name(Side.SCIENTIST, sv)))


def final_verdict(v: View, tr: Tr = str) -> str:
    """The banner of the last frame of a game won under R6: who won, in which round, why."""
    reason = REASON_TEXT.get(v.reason, "") if v.reason else ""
    return tr(Text("Round {n} · {winner} wins: {reason}", n=v.round,
                   winner=SIDE_NAMES[v.winner], reason=reason))


def replay_frame(v: View, *, total: int | None = None, final: bool = False,
                 verdict: str | None = None, winner: Side | None = None,
                 tr: Tr = str) -> Image.Image:
    """One frame (RGB, the board image's size): ``v`` with its round's highlights and
    :func:`frame_caption`; ``final``: the last frame (the game's result, or ``verdict`` /
    ``winner`` for a match that ended outside the game, as :func:`render.render_board`
    takes them)."""
    if final and v.phase is Phase.OVER:
        return board_image(v, verdict=final_verdict(v, tr), winner=v.winner, tr=tr)
    if final and verdict:
        return board_image(v, verdict=verdict, winner=winner, tr=tr)
    return board_image(v, caption=frame_caption(v, total, tr), tr=tr)


def replay_frames(views: Sequence[View], *, verdict: str | None = None,
                  winner: Side | None = None, tr: Tr = str) -> list[Image.Image]:
    """Every frame of the animation of ``views`` (see :func:`render_replay`), unencoded.

    Raises:
        ReplayError: see :func:`render_replay`.
    """
    _check(views, verdict)
    total = len(views)
    last = total - 1
    return [replay_frame(v, total=total, final=i == last, verdict=verdict, winner=winner,
                         tr=tr)
            for i, v in enumerate(views)]


def _check(views: Sequence[View], verdict: str | None) -> None:
    if not views:
        raise ReplayError("nothing to replay: the match ended before its first round")
    if any(v.viewer is not None for v in views):
        raise ReplayError("a replay shows the public view only (engine.view(state, None))")
    if views[-1].phase is not Phase.OVER and not verdict:
        raise ReplayError("a match in progress cannot be replayed: its last view is not over "
                          "and no verdict says how it ended")


def render_replay(views: Sequence[View], *, byte_limit: int = DEFAULT_BYTE_LIMIT,
                  verdict: str | None = None, winner: Side | None = None,
                  frame_ms: int = FRAME_MS, final_ms: int = FINAL_MS,
                  tr: Tr = str) -> Animation:
    """The animated GIF of a finished match.

    Args:
        views: the public view (``engine.view(state, None)``) after each round, the last
            one the final position: :meth:`engine.MatchRecord.round_states`, viewed.
        byte_limit: the largest GIF allowed, in bytes (Discord's upload limit for the
            interaction; :data:`DEFAULT_BYTE_LIMIT` when unknown). Too large at full size,
            the frames are scaled down (:data:`SCALES`), then frames are dropped evenly.
        verdict, winner: the end of a match that ended outside the game (a resignation, a
            timeout, a draw, a moderator), shown on the last frame; not needed for a game
            that ended under R6.
        frame_ms, final_ms: how long each round's frame and the last one show.
        tr: the language of the frames' texts (:data:`render.board.Tr`; ``str``: English).

    Returns:
        The :class:`Animation` (its ``note`` says what was done to fit).

    Raises:
        ReplayError: no views, a view that is not public, a last view not over without a
            ``verdict`` (a match in progress), or a limit not met even by the first and
            last frames at the smallest scale.
    """
    frames = replay_frames(views, verdict=verdict, winner=winner, tr=tr)
    return fit_animation(frames, byte_limit=byte_limit, frame_ms=frame_ms, final_ms=final_ms)


def frame_png(v: View, *, total: int | None = None, final: bool = False,
              verdict: str | None = None, winner: Side | None = None,
              tr: Tr = str) -> bytes:
    """One frame of :func:`replay_frame` as PNG bytes (the step-through viewer's picture),
    its texts in ``tr``'s language."""
    return encode_png(replay_frame(v, total=total, final=final, verdict=verdict,
                                   winner=winner, tr=tr))


def frame_pngs(views: Sequence[View], *, verdict: str | None = None,
               winner: Side | None = None) -> list[bytes]:
    """The frames of :func:`render_replay` as PNG bytes, one per view (for the images after
    each round that ``python -m render replay`` writes).

    Raises:
        ReplayError: see :func:`render_replay`.
    """
    return [encode_png(im) for im in replay_frames(views, verdict=verdict, winner=winner)]


__all__ = [
    "DEFAULT_BYTE_LIMIT", "FINAL_MS", "FRAME_MS", "SCALES", "Animation", "ReplayError",
    "final_verdict", "fit_animation", "frame_caption", "frame_png", "frame_pngs",
    "render_replay", "replay_frame", "replay_frames",
]
