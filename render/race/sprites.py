"""The race's small pictures, drawn supersampled once and cached: a raptor token (colour,
shape and letter, :mod:`render.race.theme`), the booster's footprint, a tree, a rock, a die
face (colour, T-Rex or arrows), the marks of a die set aside or used.

Every function returns an RGBA image of the asked size (pixels at 1x); the same arguments
give the same (cached) image, which callers must not change.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.race import Face, Raptor

from ..text import text_mask
from . import theme as T

S = T.SUPERSAMPLE


def _reduced(big: Image.Image, size: int) -> Image.Image:
    return big.resize((size, size), Image.Resampling.LANCZOS)


def _polygon(kind: str, c: float, r: float) -> list[tuple[float, float]]:
    """The corners of a token shape centred on (c, c) within radius ``r``."""
    if kind == "triangle":
        return [(c + r * math.cos(math.radians(a)),
                 c + 0.16 * r + r * math.sin(math.radians(a))) for a in (-90, 30, 150)]
    if kind == "square":
        k = r * 0.8
        return [(c - k, c - k), (c + k, c - k), (c + k, c + k), (c - k, c + k)]
    if kind == "diamond":
        return [(c, c - r), (c + r, c), (c, c + r), (c - r, c)]
    if kind == "hexagon":
        return [(c + r * math.cos(math.radians(a)), c + r * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]
    raise ValueError(kind)


def _letter(big: Image.Image, letter: str, size: int, ink: tuple[int, int, int],
            dy: float = 0.0) -> None:
    mask = text_mask(letter, size, True)
    w, h = big.size
    big.paste(ink, (int((w - mask.width) / 2), int((h - mask.height) / 2 + dy)), mask)


@lru_cache(maxsize=64)
def raptor(r: Raptor, size: int) -> Image.Image:
    """Raptor ``r``'s token, ``size`` pixels square: its colour filling its shape, a dark
    edge, its letter in the contrasting ink (RR1.2)."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c, rad, edge = n / 2, n * 0.46, max(2, round(n * 0.06))
    kind = T.RAPTOR_SHAPE[r]
    if kind == "disc":
        d.ellipse((c - rad, c - rad, c + rad, c + rad), fill=T.RAPTOR_FILL[r],
                  outline=T.RAPTOR_EDGE, width=edge)
    else:
        pts = _polygon(kind, c, rad * (1.14 if kind == "triangle" else 1.0))
        d.polygon(pts, fill=T.RAPTOR_FILL[r], outline=T.RAPTOR_EDGE, width=edge)
    dy = n * 0.14 if kind == "triangle" else 0.0
    _letter(big, r.value, round(n * (0.44 if kind == "triangle" else 0.5)), T.RAPTOR_INK[r],
            dy)
    return _reduced(big, size)


@lru_cache(maxsize=8)
def booster(size: int) -> Image.Image:
    """The booster mark (RR2.4, RR2.5): a red raptor footprint (three toes and a pad) on a
    pale ring."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = n / 2
    d.ellipse((n * 0.06, n * 0.06, n * 0.94, n * 0.94), outline=T.BOOSTER_RING,
              width=max(2, round(n * 0.06)))
    pad = n * 0.16
    d.ellipse((c - pad, c + n * 0.02, c + pad, c + n * 0.02 + 1.6 * pad), fill=T.BOOSTER)
    for angle in (-125, -90, -55):
        a = math.radians(angle)
        x, y = c + n * 0.27 * math.cos(a), c + n * 0.10 + n * 0.34 * math.sin(a)
        d.line((c, c + n * 0.08, x, y), fill=T.BOOSTER, width=round(n * 0.085))
        k = n * 0.05
        d.ellipse((x - k, y - k, x + k, y + k), fill=T.BOOSTER)
    return _reduced(big, size)


@lru_cache(maxsize=8)
def tree(size: int) -> Image.Image:
    """A tree (RR2.5): a trunk under a round canopy."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rectangle((n * 0.44, n * 0.55, n * 0.56, n * 0.92), fill=T.TREE_TRUNK)
    for x, y, r in ((0.5, 0.36, 0.30), (0.30, 0.50, 0.20), (0.70, 0.50, 0.20)):
        d.ellipse(((x - r) * n, (y - r) * n, (x + r) * n, (y + r) * n), fill=T.TREE_LEAF)
    d.ellipse((0.38 * n, 0.16 * n, 0.56 * n, 0.34 * n), fill=T.TREE_LIGHT)
    return _reduced(big, size)


@lru_cache(maxsize=8)
def rock(size: int) -> Image.Image:
    """A rock (RR2.5): a grey boulder with a light face and a dark side."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    outline = [(0.12, 0.78), (0.2, 0.42), (0.42, 0.2), (0.7, 0.26), (0.88, 0.52),
               (0.84, 0.8)]
    d.polygon([(x * n, y * n) for x, y in outline], fill=T.ROCK, outline=T.ROCK_DARK,
              width=max(2, round(n * 0.04)))
    d.polygon([(0.26 * n, 0.46 * n), (0.43 * n, 0.28 * n), (0.6 * n, 0.34 * n),
               (0.42 * n, 0.5 * n)], fill=T.ROCK_LIGHT)
    return _reduced(big, size)


def _die_base(n: int, fill: tuple[int, int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((n * 0.04, n * 0.04, n * 0.96, n * 0.96), radius=n * 0.18,
                        fill=fill, outline=T.DIE_EDGE, width=max(2, round(n * 0.05)))
    return big, d


@lru_cache(maxsize=32)
def die(face: Face, size: int) -> Image.Image:
    """A footprint die showing ``face`` (RR1.3): a colour face carries that raptor's token
    (shape and letter), the T-Rex face is red with a white three-toed print and a ``T``."""
    n = size * S
    if face is Face.T:
        big, d = _die_base(n, T.TREX)
        c, heel = n / 2, n * 0.5
        for angle in (-135, -90, -45):  # three toes above the heel, the letter below
            a = math.radians(angle)
            x, y = c + n * 0.26 * math.cos(a), heel + n * 0.3 * math.sin(a)
            d.line((c, heel, x, y), fill=T.TREX_INK, width=round(n * 0.08))
        k = n * 0.06
        d.ellipse((c - k, heel - k, c + k, heel + k), fill=T.TREX_INK)
        _letter(big, "T", round(n * 0.3), T.TREX_INK, n * 0.26)
        return _reduced(big, size)
    big, _ = _die_base(n, T.DIE_FACE)
    token = raptor(face.raptor, round(size * 0.78)).resize((round(n * 0.78),) * 2,
                                                         Image.Resampling.LANCZOS)
    big.alpha_composite(token, (round(n * 0.11), round(n * 0.11)))
    return _reduced(big, size)


@lru_cache(maxsize=8)
def arrows_die(arrows: int, size: int) -> Image.Image:
    """The arrows die (RR1.4) showing ``arrows`` diagonal arrows (0-2) and the number."""
    n = size * S
    big, d = _die_base(n, T.DIE_FACE)
    ink = T.DIE_EDGE
    spots = {0: [], 1: [(0.5, 0.5)], 2: [(0.33, 0.5), (0.67, 0.5)]}[arrows]
    for x, y in spots:
        x0, y0, x1, y1 = (x - 0.13) * n, (y + 0.16) * n, (x + 0.13) * n, (y - 0.16) * n
        d.line((x0, y0, x1, y1), fill=ink, width=round(n * 0.07))
        head = n * 0.12
        d.polygon([(x1, y1), (x1 - head, y1 + head * 0.15), (x1 - head * 0.25, y1 + head)],
                  fill=ink)
    if arrows == 0:
        d.ellipse((n * 0.36, n * 0.36, n * 0.64, n * 0.64), outline=ink,
                  width=round(n * 0.06))
    return _reduced(big, size)


@lru_cache(maxsize=8)
def used_mark(size: int) -> Image.Image:
    """Laid over a die of the result already used (RR5.1): a dark veil and a slash."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((n * 0.04, n * 0.04, n * 0.96, n * 0.96), radius=n * 0.18,
                        fill=T.USED_VEIL)
    d.line((n * 0.2, n * 0.8, n * 0.8, n * 0.2), fill=(250, 250, 250, 230),
           width=round(n * 0.07))
    return _reduced(big, size)


@lru_cache(maxsize=8)
def kept_ring(size: int) -> Image.Image:
    """Round a die set aside (RR4.2): a yellow frame, ``size`` pixels square (a die fits
    inside with a margin of a tenth)."""
    n = size * S
    big = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    ImageDraw.Draw(big).rounded_rectangle((n * 0.02, n * 0.02, n * 0.98, n * 0.98),
                                          radius=n * 0.2, outline=T.KEPT_RING,
                                          width=max(3, round(n * 0.06)))
    return _reduced(big, size)
