"""Piece and token pictures, drawn large and reduced once (anti-aliased), then cached.

Each sprite is an RGBA image of one space (``CELL`` x ``CELL``) meant to be pasted with its
own alpha at the space's top-left corner; everything it draws stays inside the space.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from . import theme as T
from .text import font

K = 4  # drawing scale of sprites


def _canvas(size: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    big = size * K
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    return im, ImageDraw.Draw(im), big


def _reduce(im: Image.Image, size: int) -> Image.Image:
    return im.resize((size, size), Image.Resampling.LANCZOS)


def _shadow(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float]) -> None:
    d.ellipse(box, fill=(0, 0, 0, 70))


def _letter(d: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int,
            fill: tuple[int, int, int]) -> None:
    d.text(centre, text, font=font(size), fill=fill, anchor="mm",
           stroke_width=max(1, size // 14), stroke_fill=fill)


@lru_cache(maxsize=8)
def mother(size: int = T.CELL) -> Image.Image:
    """The mother: a large spiked disc marked "M" (R1.1)."""
    im, d, b = _canvas(size)
    c = b / 2
    _shadow(d, (c - 0.40 * b, c - 0.30 * b, c + 0.44 * b, c + 0.46 * b))
    pts = []
    spikes = 12
    for i in range(2 * spikes):
        a = math.pi * i / spikes - math.pi / 2
        r = (0.47 if i % 2 == 0 else 0.38) * b
        pts.append((c + r * math.cos(a), c + r * math.sin(a)))
    d.polygon(pts, fill=T.RAPTOR_DARK)
    inner = [(c + (x - c) * 0.86, c + (y - c) * 0.86) for x, y in pts]
    d.polygon(inner, fill=T.RAPTOR)
    _letter(d, (c, c + 0.02 * b), "M", int(0.42 * b), (255, 255, 255))
    return _reduce(im, size)


@lru_cache(maxsize=8)
def baby(size: int = T.CELL) -> Image.Image:
    """An active (standing) baby: a round token marked "B", standing upright (the letter of
    the text diagram and the terminal, where "b" is a sleeping baby; a sleeping baby's
    picture lies flat with "zZ", :func:`baby_asleep`)."""
    im, d, b = _canvas(size)
    c = b / 2
    r = 0.29 * b
    _shadow(d, (c - r, c - r + 0.08 * b, c + r + 0.06 * b, c + r + 0.12 * b))
    w = 0.05 * b
    d.ellipse((c - r, c - r, c + r, c + r), fill=T.RAPTOR_DARK)
    d.ellipse((c - r + w, c - r + w, c + r - w, c + r - w), fill=T.RAPTOR)
    _letter(d, (c, c + 0.01 * b), "B", int(0.34 * b), (255, 255, 255))
    return _reduce(im, size)


@lru_cache(maxsize=8)
def baby_asleep(size: int = T.CELL) -> Image.Image:
    """A sleeping baby (R8.3, R10.1): lying flat, hollow, with "zZ" above it."""
    im, d, b = _canvas(size)
    c = b / 2
    rx, ry = 0.36 * b, 0.17 * b
    cy = c + 0.16 * b
    w = 0.045 * b
    _shadow(d, (c - rx, cy - ry + 0.06 * b, c + rx + 0.05 * b, cy + ry + 0.08 * b))
    d.ellipse((c - rx, cy - ry, c + rx, cy + ry), fill=T.RAPTOR_DARK)
    d.ellipse((c - rx + w, cy - ry + w, c + rx - w, cy + ry - w), fill=T.RAPTOR_PALE)
    # closed eye: a short dark line at the head end
    d.line((c + 0.12 * b, cy - 0.02 * b, c + 0.24 * b, cy - 0.02 * b), fill=T.RAPTOR_DARK,
           width=int(0.035 * b))
    _snore(d, b)
    return _reduce(im, size)


def _snore(d: ImageDraw.ImageDraw, b: int) -> None:
    for x, y, s in ((0.30, 0.30, 0.24), (0.58, 0.17, 0.32)):
        d.text((x * b, y * b), "z", font=font(int(s * b)), anchor="mm", fill=(255, 255, 255),
               stroke_width=int(0.03 * b), stroke_fill=T.SNORE)
        d.text((x * b, y * b), "z", font=font(int(s * b)), anchor="mm", fill=T.SNORE,
               stroke_width=int(0.008 * b) + 1, stroke_fill=T.SNORE)


def _person(d: ImageDraw.ImageDraw, b: int, *, body: tuple[int, int, int],
            head: tuple[int, int, int]) -> None:
    """A standing figure: round head over a coat, centred in the canvas."""
    c = b / 2
    w = 0.05 * b
    # coat: a rounded trapezoid from shoulders to hem
    top, bottom = 0.40 * b, 0.88 * b
    half_top, half_bottom = 0.17 * b, 0.25 * b
    coat = [(c - half_top, top), (c + half_top, top), (c + half_bottom, bottom),
            (c - half_bottom, bottom)]
    d.rounded_rectangle((c - half_top - w, top - w, c + half_top + w, top + 0.2 * b),
                        radius=0.1 * b, fill=T.SCIENTIST_DARK)
    d.polygon([(x + (w if x > c else -w), y + (w if y > c else 0)) for x, y in coat],
              fill=T.SCIENTIST_DARK)
    d.rounded_rectangle((c - half_top, top, c + half_top, top + 0.2 * b), radius=0.08 * b,
                        fill=body)
    d.polygon(coat, fill=body)
    # lapels: a dark V on the coat
    d.line([(c - 0.08 * b, top + 0.01 * b), (c, top + 0.14 * b), (c + 0.08 * b, top + 0.01 * b)],
           fill=T.SCIENTIST_DARK, width=int(0.035 * b), joint="curve")
    d.line([(c, top + 0.14 * b), (c, bottom - 0.02 * b)], fill=T.SCIENTIST_DARK,
           width=int(0.025 * b))
    # head
    hr = 0.135 * b
    hy = 0.245 * b
    d.ellipse((c - hr - w, hy - hr - w, c + hr + w, hy + hr + w), fill=T.SCIENTIST_DARK)
    d.ellipse((c - hr, hy - hr, c + hr, hy + hr), fill=head)


@lru_cache(maxsize=8)
def scientist(size: int = T.CELL) -> Image.Image:
    """An active scientist: a standing figure in a white coat."""
    im, d, b = _canvas(size)
    c = b / 2
    _shadow(d, (c - 0.26 * b, 0.80 * b, c + 0.30 * b, 0.94 * b))
    _person(d, b, body=T.SCIENTIST, head=T.SCIENTIST_DARK)
    return _reduce(im, size)


@lru_cache(maxsize=8)
def scientist_frightened(size: int = T.CELL) -> Image.Image:
    """A frightened scientist (R9.3): the figure lying on its side, greyed, with an amber
    "!" badge (not the red cross of a kill or a capture)."""
    im, d, b = _canvas(size)
    fig = Image.new("RGBA", (b, b), (0, 0, 0, 0))
    _person(ImageDraw.Draw(fig), b, body=T.SCIENTIST_PALE, head=T.SCIENTIST_PALE)
    fig = fig.rotate(90, resample=Image.Resampling.BICUBIC, center=(b / 2, b / 2))
    # lower it so it lies on the bottom part of the space
    im.alpha_composite(fig, (0, int(0.10 * b)))
    _alarm(d, (0.76 * b, 0.24 * b), 0.17 * b)
    return _reduce(im, size)


def _alarm(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    """An amber disc with a dark "!": frightened."""
    x, y = centre
    d.ellipse((x - r, y - r, x + r, y + r), fill=T.FEAR_MARK, outline=T.FEAR_INK,
              width=max(2, int(0.16 * r)))
    w = 0.17 * r
    d.rounded_rectangle((x - w, y - 0.62 * r, x + w, y + 0.18 * r), radius=w, fill=T.FEAR_INK)
    d.ellipse((x - w * 1.1, y + 0.36 * r, x + w * 1.1, y + 0.58 * r), fill=T.FEAR_INK)


def _cross(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float) -> None:
    x, y = centre
    for colour, width in ((T.CROSS_EDGE, 0.30 * r + 0.04 * K * T.CELL), (T.CROSS, 0.30 * r)):
        d.line((x - r, y - r, x + r, y + r), fill=colour, width=int(width))
        d.line((x - r, y + r, x + r, y - r), fill=colour, width=int(width))


@lru_cache(maxsize=8)
def fire(size: int = T.CELL) -> Image.Image:
    """A fire token (R10.5): a flame on a scorched disc."""
    im, d, b = _canvas(size)
    c = b / 2
    d.ellipse((c - 0.40 * b, c - 0.40 * b, c + 0.40 * b, c + 0.40 * b), fill=(60, 24, 10, 150))

    def flame(scale: float, colour: tuple[int, int, int], dy: float = 0.0) -> None:
        pts = []
        n = 48
        for i in range(n):
            t = 2 * math.pi * i / n
            # teardrop: round bottom, pointed top, a small wobble
            x = math.sin(t) * (0.5 - 0.5 * math.cos(t)) ** 0.9 * 0.62
            y = -math.cos(t) * 0.5
            wob = 0.03 * math.sin(5 * t)
            pts.append((c + (x + wob) * scale * b, c + 0.06 * b + dy * b + y * scale * b))
        d.polygon(pts, fill=colour)

    flame(0.86, T.FIRE_DARK, -0.01)
    flame(0.76, T.FIRE)
    flame(0.52, T.FIRE_MID, 0.09)
    flame(0.28, T.FIRE_CORE, 0.17)
    return _reduce(im, size)


@lru_cache(maxsize=16)
def sleep_badge(tokens: int, size: int = T.CELL) -> Image.Image:
    """The number of sleep tokens on the mother (R7.2, R8.5), for the top-right corner."""
    im, d, b = _canvas(size)
    r = 0.21 * b
    cx, cy = b - r - 0.01 * b, r + 0.01 * b
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 255, 255))
    d.ellipse((cx - r + 0.03 * b, cy - r + 0.03 * b, cx + r - 0.03 * b, cy + r - 0.03 * b),
              fill=T.SLEEP)
    _letter(d, (cx, cy), str(tokens), int(0.30 * b), T.SLEEP_TEXT)
    return _reduce(im, size)
