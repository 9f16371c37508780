"""Animations of any game's finished match: frames (RGB images of one size) in, an animated
GIF out, fitted to a byte limit (:func:`fit_animation`), and what each command says of one
(:func:`frames`, :attr:`Animation.note`). The games draw their own frames (Raptor's
:mod:`render.replay`, :mod:`render.race.replay`, :mod:`render.ratjack.replay`); this module
knows no game.

Frames are quantized to one shared palette (drawn from the first and last frames, no
dithering: boards are flat colour areas), and Pillow writes each frame as its change from
the one before with only the colours it uses. The arguments and the :class:`Animation` are
small picklable values, made in the render worker processes
(:func:`render.pool.render_executor`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.messages import Text

#: Discord's upload limit for an interaction when it is not known (10 MiB).
DEFAULT_BYTE_LIMIT = 10 * 1024 * 1024
#: How long a round's frame shows, and the final board (milliseconds).
FRAME_MS = 1400
FINAL_MS = 5000
#: Scales tried, in order, when the animation is too large for the byte limit; at the
#: smallest, frames are dropped (evenly, the first and the final ones kept).
SCALES = (1.0, 0.75, 0.5)


class ReplayError(ValueError):
    """An animation that cannot be made: a match in progress, a view that is not the
    public one, nothing to show, or a limit too small even for two small frames."""


@dataclass(frozen=True)
class Animation:
    """An encoded animation and what was done to fit it.

    Attributes:
        data: the GIF bytes.
        rounds: frames asked for (one per view given).
        frames: frames in the GIF (``rounds - dropped``).
        dropped: frames left out to fit the byte limit.
        scale: the size factor of the frames (1.0: their own size, e.g. the board image's
            828 x 756 px).
        size: (width, height) in pixels.
        byte_limit: the limit it was made to fit.
    """

    data: bytes
    rounds: int
    frames: int
    dropped: int
    scale: float
    size: tuple[int, int]
    byte_limit: int

    @property
    def note(self) -> str | None:
        """One sentence saying what was done to fit the limit, or None when nothing was,
        e.g. ``"Scaled to 75 % and 12 of 40 rounds left out to fit 10 MiB."``."""
        parts = []
        if self.scale < 1.0:
            parts.append(f"scaled to {round(self.scale * 100)} %")
        if self.dropped:
            parts.append(f"{self.dropped} of {self.rounds} frames left out")
        if not parts:
            return None
        text = " and ".join(parts)
        return f"{text[0].upper()}{text[1:]} to fit {_mib(self.byte_limit)}."


def _mib(n: int) -> str:
    return f"{n / 1024 / 1024:.3g} MiB" if n >= 1024 * 1024 else f"{n / 1024:.3g} KiB"


def frames(n: int) -> Text:
    """``"1 frame"``, ``"13 frames"``: an animation's length, as the commands report it."""
    return Text.plural("{n} frame", "{n} frames", n)


def fit_animation(frames: Sequence[Image.Image], *, byte_limit: int = DEFAULT_BYTE_LIMIT,
                  frame_ms: int = FRAME_MS, final_ms: int = FINAL_MS) -> Animation:
    """``frames`` (RGB images of one size, the last one the final picture) as an animated
    GIF of at most ``byte_limit`` bytes: each frame shows ``frame_ms``, the last
    ``final_ms``; too large at full size, the frames are scaled down (:data:`SCALES`), then
    frames are dropped evenly (the first and the last kept). Any game's animation is made
    here (Raptor's :func:`render.replay.render_replay`, the race's
    :mod:`render.race.replay`, Ratjack's :mod:`render.ratjack.replay`).

    Raises:
        ReplayError: no frames, or a limit not met even by the first and last frames at
            the smallest scale.
    """
    if not frames:
        raise ReplayError("nothing to animate: no frames")
    palette = _palette(frames)
    n = len(frames)
    for scale in SCALES:
        data = _encode(frames, range(n), scale, palette, frame_ms, final_ms)
        if len(data) <= byte_limit:
            return _animation(data, n, n, scale, frames[0].size, byte_limit)
    # at the smallest scale: keep as many frames as the bytes per frame allow
    per_frame = len(data) / n
    keep = min(n - 1, max(2, int(byte_limit / per_frame * 0.95)))
    while keep >= 2:
        picked = _spread(n, keep)
        data = _encode(frames, picked, scale, palette, frame_ms, final_ms)
        if len(data) <= byte_limit:
            return _animation(data, n, len(picked), scale, frames[0].size, byte_limit)
        keep = min(keep - 1, int(keep * byte_limit / len(data)))
    raise ReplayError(f"the animation does not fit {_mib(byte_limit)} even with only the "
                      f"first and last of its {n} frames at {round(scale * 100)} %")


def _animation(data: bytes, rounds: int, frames: int, scale: float, size: tuple[int, int],
               byte_limit: int) -> Animation:
    w, h = (max(1, round(x * scale)) for x in size)
    return Animation(data=data, rounds=rounds, frames=frames, dropped=rounds - frames,
                     scale=scale, size=(w, h), byte_limit=byte_limit)


def _spread(n: int, keep: int) -> list[int]:
    """``keep`` frame indices out of ``n``, evenly spread, the first and the last kept."""
    if keep >= n:
        return list(range(n))
    return sorted({round(i * (n - 1) / (keep - 1)) for i in range(keep)})


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One palette for every frame (255 colours, from the first and last frames side by
    side, halved: enough for tiles, pieces, tokens, highlights and text)."""
    a, b = frames[0], frames[-1]
    sample = Image.new("RGB", (a.width * 2, a.height))
    sample.paste(a, (0, 0))
    sample.paste(b, (a.width, 0))
    sample = sample.reduce(2)
    return sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def _encode(frames: Sequence[Image.Image], picked: Sequence[int], scale: float,
            palette: Image.Image, frame_ms: int, final_ms: int) -> bytes:
    out = []
    for i in picked:
        im = frames[i]
        if scale != 1.0:
            im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))),
                           Image.Resampling.BOX)
        out.append(im.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * (len(out) - 1) + [final_ms]
    buf = io.BytesIO()
    # optimize: each frame's palette cut to the colours it uses (about 5 times smaller)
    out[0].save(buf, "GIF", save_all=True, append_images=out[1:], duration=durations,
                loop=0, optimize=True, disposal=1)
    return buf.getvalue()


__all__ = ["DEFAULT_BYTE_LIMIT", "FINAL_MS", "FRAME_MS", "SCALES", "Animation", "ReplayError",
           "fit_animation", "frames"]
