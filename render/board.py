"""The board image (R2 geometry, R11.1 public information) as a PNG.

:func:`render_board` draws a view of a game: the 13 x 6 grid of R2.2 with its tiles, rocks and
exits, the pieces and tokens, the highlights of the last round, a status line above and a
panel below with both players' public counters. It reads only public fields of the view
(R11.1), so a player's view gives the same picture as the public view of the same position.
"""

from __future__ import annotations

import io
import math
import random
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import SIDE_NAMES, Event, Layout, Phase, Reason, Side, View, card_name
from engine.geometry import BOARD_SQUARES, COLS, COLUMN_LETTERS, ROWS, TILE_SQUARES
from engine.messages import Text
from engine.state import (
    BABY,
    BABY_ASLEEP,
    BABY_ASLEEP_NEW,
    FIGURINE_CODES,
    FIRE,
    MOTHER,
    ROCK,
    SCIENTIST_ACTIVE,
    SCIENTIST_FRIGHTENED,
    SCIENTIST_FRIGHTENED_NEW,
    SCIENTIST_USED,
    SLEEP_TOKENS,
)

from . import sprites
from . import theme as T
from .png import palette_png, png_bytes
from .text import draw_text, text_width

#: Pillow's PNG settings for images :func:`render.png.png_bytes` does not write (modes other
#: than RGB, RGBA, L): zlib level 1 without the slow optimize pass.
PNG_OPTIONS = {"compress_level": 1, "optimize": False}

#: Size of a board image in pixels (width, height).
BOARD_IMAGE_SIZE = (T.WIDTH, T.HEIGHT)
#: The grid part of the board image (x0, y0, x1, y1): columns A-M, rows 1-6.
GRID_BOX = (T.BOARD_LEFT, T.BOARD_TOP, T.BOARD_LEFT + 12 * T.CELL, T.BOARD_BOTTOM)
#: The status line above the board and the players' panel below it (x0, y0, x1, y1).
HEADER_BOX = (0, 0, T.WIDTH, T.HEADER_H)
PANEL_BOX = (0, T.PANEL_TOP, T.WIDTH, T.HEIGHT)

_SPRITES = {
    MOTHER: sprites.mother,
    BABY: sprites.baby,
    BABY_ASLEEP: sprites.baby_asleep,
    BABY_ASLEEP_NEW: sprites.baby_asleep,       # asleep this round looks asleep (R7.4)
    SCIENTIST_ACTIVE: sprites.scientist,
    SCIENTIST_USED: sprites.scientist,          # its aggressive action is not shown (R8.6)
    SCIENTIST_FRIGHTENED: sprites.scientist_frightened,
    SCIENTIST_FRIGHTENED_NEW: sprites.scientist_frightened,
    FIRE: sprites.fire,
}

#: Cell codes of figurines (a mother, a baby, a scientist in any state).
_FIGURINES = frozenset(FIGURINE_CODES)

REASON_TEXT = {
    Reason.BABIES_ESCAPED: Text("3 babies escaped"),
    Reason.NO_SCIENTISTS: Text("no scientist left on the board"),
    Reason.MOTHER_ASLEEP: Text("the mother holds 5 sleep tokens"),
    Reason.BABIES_CAPTURED: Text("3 babies captured"),
}
#: The words beside the two marks that the panel explains: the face-down card of a pick not
#: revealed yet, and the dashed amber frame where the mother disappeared (R9.2).
PICKED_FACE_DOWN = Text("face down")
MOTHER_GONE_FROM = Text("disappeared from here")
#: Side of the legend's dashed square in the panel, in pixels.
LEGEND_MARK = 20
#: How an image writes its texts: ``str`` (English) or a catalog's renderer of a
#: :class:`~engine.messages.Text` (``bot.i18n.translator(lang).text``).
Tr = Callable[[Text], str]


# --------------------------------------------------------------------------- geometry
def _col_x(col: int) -> tuple[int, int]:
    if col == 0:
        return T.BOARD_LEFT, T.BOARD_LEFT + T.HALF
    if col == COLS - 1:
        x0 = T.BOARD_LEFT + T.HALF + 11 * T.CELL
        return x0, x0 + T.HALF
    x0 = T.BOARD_LEFT + T.HALF + (col - 1) * T.CELL
    return x0, x0 + T.CELL


def square_box(index: int) -> tuple[int, int, int, int]:
    """Pixel box ``(x0, y0, x1, y1)`` of square ``index`` (``row * 13 + col``) in a board
    image; ``x1``/``y1`` are exclusive, as in Pillow. Columns B-L are ``CELL`` pixels wide;
    columns A and M, which hold only the half-circle exits (R2.2), are half as wide.

    Raises:
        IndexError: ``index`` is not 0-77.
    """
    if not 0 <= index < ROWS * COLS:
        raise IndexError(f"square index {index} is not 0-77")
    row, col = divmod(index, COLS)
    x0, x1 = _col_x(col)
    y0 = T.BOARD_TOP + row * T.CELL
    return x0, y0, x1, y0 + T.CELL


def square_centre(index: int) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` of square ``index`` (see :func:`square_box`)."""
    x0, y0, x1, y1 = square_box(index)
    return (x0 + x1) / 2, (y0 + y1) / 2


# --------------------------------------------------------------------------- static layer
def _jitter(rng: random.Random, colour: tuple[int, int, int], amount: int) -> tuple[int, ...]:
    d = rng.randint(-amount, amount)
    return tuple(max(0, min(255, v + d)) for v in colour)


def _tile_colour(env: T.Environment, tile: int) -> tuple[int, int, int]:
    # alternate tones so that neighbouring tiles differ (T1 T3 T5 X1 X4 vs T2 T4 T6 X2 X3)
    return env.tile_a if tile in (0, 2, 4, 6, 9) else env.tile_b


def _leaf(d: ImageDraw.ImageDraw, x: float, y: float, length: float, angle: float,
          colour: tuple[int, ...]) -> None:
    pts = []
    for i in range(13):
        t = i / 12
        w = math.sin(math.pi * t) * length * 0.28
        pts.append((t * length, w))
    pts += [(t, -w) for t, w in reversed(pts[1:-1])]
    ca, sa = math.cos(angle), math.sin(angle)
    d.polygon([(x + px * ca - py * sa, y + px * sa + py * ca) for px, py in pts], fill=colour)


def _texture(d: ImageDraw.ImageDraw, env_name: str, env: T.Environment, q: int,
             box: tuple[float, float, float, float], k: int) -> None:
    """A few marks near the edges of a space (the middle stays clear for pieces)."""
    rng = random.Random(f"{env_name}:{q}")
    x0, y0, x1, y1 = box
    size = x1 - x0
    spots = [(0.18, 0.18), (0.82, 0.2), (0.2, 0.82), (0.8, 0.8), (0.5, 0.12), (0.12, 0.5),
             (0.88, 0.52), (0.5, 0.88)]
    rng.shuffle(spots)
    for fx, fy in spots[: rng.randint(2, 4)]:
        x = x0 + (fx + rng.uniform(-0.05, 0.05)) * size
        y = y0 + (fy + rng.uniform(-0.05, 0.05)) * size
        colour = env.mark_dark if rng.random() < 0.6 else env.mark_light
        if env_name == "jungle":
            base = rng.uniform(0, 2 * math.pi)
            for j in range(rng.randint(1, 3)):
                _leaf(d, x, y, size * rng.uniform(0.13, 0.2), base + j * 2.1, colour)
        else:
            for j in range(rng.randint(3, 5)):
                a = -math.pi / 2 + (j - 2) * 0.32 + rng.uniform(-0.1, 0.1)
                ln = size * rng.uniform(0.07, 0.13)
                d.line((x, y, x + ln * math.cos(a), y + ln * math.sin(a)), fill=colour,
                       width=max(1, k))
            if rng.random() < 0.5:
                r = size * 0.025
                px, py = x + size * 0.08, y + size * 0.03
                d.ellipse((px - r, py - r, px + r, py + r), fill=env.mark_light)


def _rock(d: ImageDraw.ImageDraw, q: int, box: tuple[float, float, float, float],
          k: int) -> None:
    rng = random.Random(f"rock:{q}")
    x0, y0, x1, y1 = box
    size = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 0.04 * size

    def boulder(cx: float, cy: float, r: float) -> None:
        n = 9
        off = rng.uniform(0, 2 * math.pi)
        pts = []
        for i in range(n):
            a = off + 2 * math.pi * i / n
            rr = r * rng.uniform(0.82, 1.05)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a) * 0.82))
        d.ellipse((cx - r, cy + r * 0.45, cx + r * 1.05, cy + r * 0.95), fill=(0, 0, 0))
        d.polygon(pts, fill=T.ROCK_DARK)
        inner = [(cx + (x - cx) * 0.86, cy + (y - cy) * 0.86) for x, y in pts]
        d.polygon(inner, fill=T.ROCK)
        hl = [(cx + (x - cx) * 0.55 - r * 0.18, cy + (y - cy) * 0.5 - r * 0.2)
              for x, y in pts[: n // 2 + 1]]
        hl.append((cx - r * 0.1, cy - r * 0.1))
        d.polygon(hl, fill=T.ROCK_LIGHT)

    boulder(cx - 0.06 * size, cy - 0.02 * size, 0.34 * size)
    boulder(cx + 0.24 * size, cy + 0.2 * size, 0.14 * size)


def _exit(d: ImageDraw.ImageDraw, env: T.Environment, q: int, k: int) -> None:
    row, col = divmod(q, COLS)
    x0, y0, x1, y1 = (v * k for v in _rel(square_box(q)))
    r = (T.HALF - 2) * k
    cy = (y0 + y1) / 2
    left = col == 0
    cx = x1 if left else x0  # the flat side touches the L-tile's space
    start, end = (90, 270) if left else (270, 90)
    w = 3 * k
    d.pieslice((cx - r - w, cy - r - w, cx + r + w, cy + r + w), start, end, fill=env.border)
    d.pieslice((cx - r, cy - r, cx + r, cy + r), start, end, fill=env.exit_fill)
    # an outward chevron
    s = 1 if not left else -1
    ax = cx + s * r * 0.32
    pts = [(ax, cy - r * 0.42), (ax + s * r * 0.36, cy), (ax, cy + r * 0.42)]
    d.line(pts, fill=env.exit_mark, width=4 * k, joint="curve")


def _rel(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A square box relative to the grid's top-left corner."""
    x0, y0, x1, y1 = box
    return x0 - GRID_BOX[0], y0 - GRID_BOX[1], x1 - GRID_BOX[0], y1 - GRID_BOX[1]


def _grid_layer(layout: Layout, rocks: tuple[int, ...]) -> Image.Image:
    env = T.ENVIRONMENTS[layout.environment]
    k = T.SUPERSAMPLE
    gw, gh = GRID_BOX[2] - GRID_BOX[0], GRID_BOX[3] - GRID_BOX[1]
    im = Image.new("RGB", (gw * k, gh * k), env.frame)
    d = ImageDraw.Draw(im)
    for tile, squares in enumerate(TILE_SQUARES):
        base = _tile_colour(env, tile)
        for q in squares:
            rng = random.Random(f"shade:{layout.environment}:{q}")
            box = tuple(v * k for v in _rel(square_box(q)))
            d.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=_jitter(rng, base, 4))
            if q not in rocks:
                _texture(d, layout.environment, env, q, box, k)
    # thin lines between spaces
    for q in BOARD_SQUARES:
        x0, y0, x1, y1 = (v * k for v in _rel(square_box(q)))
        d.rectangle((x0, y0, x1 - 1, y1 - 1), outline=env.grid, width=k)
    for q in rocks:
        _rock(d, q, tuple(v * k for v in _rel(square_box(q))), k)
    # thick tile borders
    for squares in TILE_SQUARES:
        boxes = [_rel(square_box(q)) for q in squares]
        x0 = min(b[0] for b in boxes) * k
        y0 = min(b[1] for b in boxes) * k
        x1 = max(b[2] for b in boxes) * k
        y1 = max(b[3] for b in boxes) * k
        w = 2 * k
        d.rectangle((x0 - w, y0 - w, x1 + w - 1, y1 + w - 1), outline=env.border, width=2 * w)
    for q in layout.exits:
        _exit(d, env, q, k)
    return im.reduce(k)  # box filter: each pixel averages k x k samples


#: Static layers also kept zlib-compressed (~70 KB each, ~3 ms to unpack instead of ~25 ms
#: to draw again): nearly every match has its own random layout, so the 16 layers kept as
#: images are far too few for many matches at once.
PACKED_LAYERS = 1024
_packed: OrderedDict[tuple[Layout, tuple[int, ...]], bytes] = OrderedDict()
_packed_lock = threading.Lock()


@lru_cache(maxsize=16)   # about 1.9 MB each
def static_layer(layout: Layout, rocks: tuple[int, ...]) -> Image.Image:
    """The picture without pieces, tokens, highlights or texts that change: frame, tiles with
    the environment's look, tile borders, rocks (on ``rocks``), exits, coordinates. Cached by
    layout and rock squares (the board's rocks normally equal ``layout.rocks()``): the last
    16 as images, the last :data:`PACKED_LAYERS` compressed. The returned image is shared:
    copy it before drawing on it."""
    key = (layout, rocks)
    with _packed_lock:
        packed = _packed.get(key)
        if packed is not None:
            _packed.move_to_end(key)
    if packed is not None:
        return Image.frombytes("RGB", BOARD_IMAGE_SIZE, zlib.decompress(packed))
    im = _draw_static_layer(layout, rocks)
    packed = zlib.compress(im.tobytes(), 1)
    with _packed_lock:
        _packed[key] = packed
        while len(_packed) > PACKED_LAYERS:
            _packed.popitem(last=False)
    return im


def _draw_static_layer(layout: Layout, rocks: tuple[int, ...]) -> Image.Image:
    env = T.ENVIRONMENTS[layout.environment]
    im = Image.new("RGB", BOARD_IMAGE_SIZE, env.frame)
    im.paste(_grid_layer(layout, rocks), GRID_BOX[:2])
    d = ImageDraw.Draw(im)
    for col, letter in enumerate(COLUMN_LETTERS):
        x = (sum(_col_x(col))) / 2
        draw_text(im, (x, T.BOARD_TOP - T.MARGIN / 2), letter, T.COORD_SIZE, env.coord,
                  anchor="mm")
        draw_text(im, (x, T.BOARD_BOTTOM + T.MARGIN / 2), letter, T.COORD_SIZE, env.coord,
                  anchor="mm")
    for row in range(ROWS):
        y = T.BOARD_TOP + row * T.CELL + T.CELL / 2
        draw_text(im, (T.MARGIN / 2, y), str(row + 1), T.COORD_SIZE, env.coord, anchor="mm")
        draw_text(im, (T.WIDTH - T.MARGIN / 2, y), str(row + 1), T.COORD_SIZE, env.coord,
                  anchor="mm")
    d.line((0, T.HEADER_H - 1, T.WIDTH, T.HEADER_H - 1), fill=env.frame_line, width=2)
    d.line((0, T.PANEL_TOP, T.WIDTH, T.PANEL_TOP), fill=env.frame_line, width=2)
    d.line((T.WIDTH // 2, T.PANEL_TOP + 14, T.WIDTH // 2, T.HEIGHT - 14), fill=env.frame_line,
           width=2)
    return im


# --------------------------------------------------------------------------- highlights
def default_events(v: View) -> tuple[Event, ...]:
    """The events highlighted by default: the round that just ended (when the phase is pick)
    followed by the round in progress."""
    last = v.last_round_events if v.phase is Phase.PICK else ()
    return tuple(last) + tuple(v.round_events)


def _shorten(a: tuple[float, float], b: tuple[float, float], start: float,
             end: float) -> tuple[tuple[float, float], tuple[float, float]]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _dashes(a: tuple[float, float], b: tuple[float, float], on: float, off: float):
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy)
    if n == 0:
        return
    ux, uy = dx / n, dy / n
    t = 0.0
    while t < n:
        e = min(n, t + on)
        yield (a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)
        t = e + off


def _arrow(d: ImageDraw.ImageDraw, at: int, to: int, colour: tuple[int, int, int], *,
           dashed: bool = False, width: int = 6, head: bool = True, dot: bool = True
           ) -> None:
    a, b = square_centre(at), square_centre(to)
    if a == b:
        return
    p, q = _shorten(a, b, 0.14 * T.CELL, (0.30 if head else 0.2) * T.CELL)
    hl = 0.30 * T.CELL  # arrowhead length
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    shaft_end = (q[0] - ux * hl * 0.6, q[1] - uy * hl * 0.6) if head else q
    segs = list(_dashes(p, shaft_end, 12, 8)) if dashed else [(p, shaft_end)]
    tri = [(q[0], q[1]),
           (q[0] - ux * hl - uy * hl * 0.55, q[1] - uy * hl + ux * hl * 0.55),
           (q[0] - ux * hl + uy * hl * 0.55, q[1] - uy * hl - ux * hl * 0.55)]
    for s0, s1 in segs:
        d.line((s0, s1), fill=T.HL_EDGE, width=width + 4)
    if head:
        d.polygon(tri, fill=T.HL_EDGE, outline=T.HL_EDGE, width=3)
    for s0, s1 in segs:
        d.line((s0, s1), fill=colour, width=width)
    if head:
        d.polygon(tri, fill=colour)
    if dot:
        r = 0.11 * T.CELL
        d.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), fill=colour, outline=T.HL_EDGE,
                  width=2)


def _walk_arrow(d: ImageDraw.ImageDraw, cells: Sequence[int],
                colour: tuple[int, int, int], width: int = 6, *, dashed: bool = False
                ) -> None:
    """A walk square by square: a line through the centres of its path, the last step an
    arrow, a dot where it started; a scientist's walk (R8.1) solid, a called baby's way
    (R9.1) ``dashed``."""
    pts = [square_centre(q) for q in cells[:-1]]
    if dashed:
        segs = [seg for a, b in zip(pts, pts[1:], strict=False) for seg in _dashes(a, b, 12, 8)]
        for w, c in ((width + 4, T.HL_EDGE), (width, colour)):
            for s0, s1 in segs:
                d.line((s0, s1), fill=c, width=w)
    else:
        for w, c in ((width + 4, T.HL_EDGE), (width, colour)):
            d.line(pts, fill=c, width=w, joint="curve")
    _arrow(d, cells[-2], cells[-1], colour, width=width, dot=False, dashed=dashed)
    a = pts[0]
    r = 0.11 * T.CELL
    d.ellipse((a[0] - r, a[1] - r, a[0] + r, a[1] + r), fill=colour, outline=T.HL_EDGE,
              width=2)


def _frame(d: ImageDraw.ImageDraw, q: int, colour: tuple[int, int, int], *,
           dashed: bool = False) -> None:
    x0, y0, x1, y1 = square_box(q)
    x0, y0, x1, y1 = x0 + 3, y0 + 3, x1 - 4, y1 - 4
    if not dashed:
        d.rounded_rectangle((x0, y0, x1, y1), radius=8, outline=T.HL_EDGE, width=6)
        d.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=7, outline=colour,
                            width=4)
        return
    _dashed_box(d, (x0, y0, x1, y1), colour)


def _dashed_box(d: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
                colour: tuple[int, int, int], on: float = 10, off: float = 7,
                width: int = 3) -> None:
    """A dashed frame (dashes of ``colour`` edged in black) round ``box``: a dashed frame
    of a square, and the same mark in the panel's legend (:func:`_mother_line`)."""
    x0, y0, x1, y1 = box
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    for a, b in zip(corners, corners[1:], strict=False):
        for s0, s1 in _dashes(a, b, on, off):
            d.line((s0, s1), fill=T.HL_EDGE, width=width + 3)
            d.line((s0, s1), fill=colour, width=width)


def _cross_mark(d: ImageDraw.ImageDraw, q: int, colour: tuple[int, int, int] = T.CROSS,
                scale: float = 0.30) -> None:
    cx, cy = square_centre(q)
    r = scale * T.CELL
    for fill, w in ((T.CROSS_EDGE, 12), (colour, 7)):
        d.line((cx - r, cy - r, cx + r, cy + r), fill=fill, width=w)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=fill, width=w)


def _smoke(d: ImageDraw.ImageDraw, q: int) -> None:
    """A fire put out: a grey ring of puffs."""
    cx, cy = square_centre(q)
    for i in range(8):
        a = 2 * math.pi * i / 8
        x, y = cx + 0.26 * T.CELL * math.cos(a), cy + 0.26 * T.CELL * math.sin(a)
        r = 0.08 * T.CELL
        d.ellipse((x - r, y - r, x + r, y + r), fill=(210, 210, 205), outline=T.HL_SMOKE,
                  width=2)


def _target(d: ImageDraw.ImageDraw, q: int) -> None:
    cx, cy = square_centre(q)
    for r, w, colour in ((0.44, 6, T.HL_EDGE), (0.44, 3, T.HL_SHOT)):
        rr = r * T.CELL
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), outline=colour, width=w)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        p0 = (cx + dx * 0.34 * T.CELL, cy + dy * 0.34 * T.CELL)
        p1 = (cx + dx * 0.50 * T.CELL, cy + dy * 0.50 * T.CELL)
        d.line((p0, p1), fill=T.HL_EDGE, width=6)
        d.line((p0, p1), fill=T.HL_SHOT, width=3)


def _put_out_again(events: Sequence[Event]) -> frozenset[int]:
    """Squares where a fire placed during ``events`` was removed later in them (put out by
    the mother, R7.5, or driven over by a jeep, R10.3)."""
    placed: set[int] = set()
    gone: set[int] = set()
    for e in events:
        if e.kind == "fire_placed" and e.at is not None:
            placed.add(e.at)
        elif e.kind in ("fire_out", "jeep"):
            gone.update(q for q in e.cells if q in placed)
    return frozenset(gone)


def _short_lived_fire(im: Image.Image, q: int) -> None:
    """A fire placed and put out in the same round: a small faded flame where it burned
    (the smoke ring goes round it)."""
    size = int(T.CELL * 0.5)
    flame = sprites.fire(size)
    alpha = flame.getchannel("A").point(lambda a: a * 3 // 5)
    x0, y0, x1, y1 = square_box(q)
    im.paste(flame, ((x0 + x1 - size) // 2, (y0 + y1 - size) // 2), alpha)


def _corner_cross(d: ImageDraw.ImageDraw, q: int) -> None:
    """A kill's or capture's cross, small, in the top-right corner of a square a figurine
    has stepped onto since (the big cross under it is hidden)."""
    x0, y0, x1, y1 = square_box(q)
    cx, cy = x1 - 0.17 * T.CELL, y0 + 0.17 * T.CELL
    r = 0.09 * T.CELL
    for fill, w in ((T.CROSS_EDGE, 9), (T.CROSS, 5)):
        d.line((cx - r, cy - r, cx + r, cy + r), fill=fill, width=w)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=fill, width=w)


def _draw_events(im: Image.Image, d: ImageDraw.ImageDraw, events: Sequence[Event],
                 board: Sequence[int], *, over: bool) -> None:
    """Highlights in event order: ``over=False`` draws what goes under the pieces (arrows,
    crosses, smoke), ``over=True`` what goes on top (frames around a space, the target of a
    shot, a small cross where a figurine now stands on a kill's or a capture's square)."""
    short_lived = _put_out_again(events)
    if not over:
        for q in short_lived:
            _short_lived_fire(im, q)
    for e in events:
        if over and e.kind in ("killed", "captured"):
            q = e.at if e.kind == "killed" else e.to
            if q is not None and board[q] in _FIGURINES:
                _corner_cross(d, q)
            continue
        if e.kind not in _BOTH_KINDS and (e.kind in _OVER_KINDS) is not over:
            continue
        k = e.kind
        side_colour = T.HL_RAPTOR if e.side is Side.RAPTOR else T.HL_SCIENTIST
        if k == "moved" and len(e.cells) > 2:  # a scientist's walk of several steps
            _walk_arrow(d, e.cells, side_colour)
        elif k == "moved" and e.at is not None and e.to is not None:
            _arrow(d, e.at, e.to, side_colour)
        elif k == "called" and len(e.cells) > 2:  # the way the baby went (R9.1)
            _walk_arrow(d, e.cells, T.HL_RAPTOR, dashed=True)
        elif k == "called" and e.at is not None and e.to is not None:
            _arrow(d, e.at, e.to, T.HL_RAPTOR, dashed=True)
        elif k == "escaped" and e.at is not None and e.to is not None:
            _arrow(d, e.at, e.to, T.HL_RAPTOR, head=False)
            _exit_glow(d, e.to)
        elif k == "jeep" and e.at is not None and e.to is not None:
            _arrow(d, e.at, e.to, T.HL_SCIENTIST, width=10)
            for q in e.cells:
                _smoke(d, q)
        elif k == "shot" and e.at is not None and e.to is not None:
            if over:
                _target(d, e.to)
            else:
                _arrow(d, e.at, e.to, T.HL_SHOT, dashed=True, head=False)
        elif k == "slept":
            if e.to is not None and e.at is not None:   # a scientist's action (R8.3)
                if over:
                    _frame(d, e.to, T.HL_SLEEP)
                else:
                    _arrow(d, e.at, e.to, T.HL_SLEEP, dashed=True, head=False)
            elif e.at is not None and over:             # sleeping gas (R10.1)
                _frame(d, e.at, T.HL_SLEEP, dashed=True)
        elif k == "killed" and e.at is not None:
            _cross_mark(d, e.at)
        elif k == "captured" and e.to is not None:
            if e.at is not None:
                _arrow(d, e.at, e.to, T.HL_SHOT, head=False)
            _cross_mark(d, e.to)
        elif k == "fire_placed" and e.at is not None:
            _frame(d, e.at, T.HL_FIRE, dashed=e.at in short_lived)
        elif k == "fire_out":
            for q in e.cells:
                _smoke(d, q)
        elif k == "reinforced" and e.to is not None:
            _frame(d, e.to, T.HL_SCIENTIST)
        elif k in ("frightened", "woken") and e.at is not None:
            _frame(d, e.at, T.HL_RAPTOR)
        elif k == "stood" and e.at is not None:
            _frame(d, e.at, T.HL_SCIENTIST)
        elif k == "disappeared" and e.at is not None:
            _frame(d, e.at, T.HL_RAPTOR, dashed=True)
        elif k == "returned" and e.to is not None:
            _frame(d, e.to, T.HL_RAPTOR)


#: Event kinds whose highlight is drawn over the pieces, and kinds drawn in both layers
#: (a line under the pieces, a frame or target over them).
_OVER_KINDS = frozenset({"fire_placed", "reinforced", "frightened", "woken", "stood",
                         "disappeared", "returned"})
_BOTH_KINDS = frozenset({"shot", "slept"})


def _exit_glow(d: ImageDraw.ImageDraw, q: int) -> None:
    x0, y0, x1, y1 = square_box(q)
    cy = (y0 + y1) / 2
    cx = x1 if q % COLS == 0 else x0
    r = T.HALF - 1
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=T.HL_EDGE, width=6)
    d.ellipse((cx - r + 1, cy - r + 1, cx + r - 1, cy + r - 1), outline=T.HL_RAPTOR, width=4)


# --------------------------------------------------------------------------- header, panel
def shown_round(v: View) -> int | None:
    """The round whose highlights a view in a card pick shows by default: the round that
    just ended (its ``round_end`` event), or None (the first pick, or another phase)."""
    if v.phase is not Phase.PICK:
        return None
    for e in reversed(v.last_round_events):
        if e.kind == "round_end" and e.value is not None:
            return e.value
    return None


def _status(v: View, tr: Tr = str) -> tuple[str, str]:
    """(what is happening, who must act) for the status line."""
    ph = v.phase
    board = v.board
    if ph is Phase.OVER:
        winner = SIDE_NAMES[v.winner] if v.winner else Text("Nobody")
        reason = REASON_TEXT.get(v.reason, "") if v.reason else ""
        return tr(Text("{winner} wins: {reason}", winner=winner, reason=reason) if reason
                  else Text("{winner} wins", winner=winner)), ""
    sides = [s for s in (Side.RAPTOR, Side.SCIENTIST) if s in v.to_act]
    who = tr(Text.joined(" & ", [SIDE_NAMES[s] for s in sides]))
    if ph is Phase.SETUP_MOTHER:
        return tr(Text("Setup: the mother goes on T2 or T5")), who
    if ph is Phase.SETUP_BABIES:
        n = sum(1 for q in BOARD_SQUARES if board[q] == BABY)
        return tr(Text("Setup: babies placed {n}/5", n=n)), who
    if ph is Phase.SETUP_SCIENTISTS:
        n = sum(1 for q in BOARD_SQUARES
                if board[q] in (SCIENTIST_ACTIVE, SCIENTIST_USED))
        return tr(Text("Setup: scientists placed {n}/4", n=n)), who
    head = Text("Round {n}", n=v.round)
    if ph is Phase.PICK:
        shown = shown_round(v)
        if shown is not None:  # the image after a round: that round's highlights
            head = Text("After round {n}", n=shown)
        if v.observation:
            return tr(Text("{head} · Observation: the scientist picks first", head=head)), who
        return tr(Text("{head} · Both players pick a card", head=head)), who
    if ph is Phase.EFFECT and v.effect is not None:
        e = v.effect
        name = card_name(e.side, e.card)  # "card 2 (Reinforcements)": a card, not a count
        return tr(Text("{head} · {side} resolves card {card} ({name})", head=head,
                       side=SIDE_NAMES[e.side], card=e.card, name=name)), who
    if ph is Phase.AP and v.ap is not None:
        return tr(Text("{head} · {side} spends action points", head=head,
                       side=SIDE_NAMES[v.ap.side])), who
    if ph is Phase.MOTHER_RETURN:
        return tr(Text("{head} · The mother comes back", head=head)), who
    return tr(head), who


def _fit(text: str, sizes: Sequence[int], width: int, bold: bool = False) -> int:
    for s in sizes:
        if text_width(text, s, bold) <= width:
            return s
    return sizes[-1]


def _header(im: Image.Image, d: ImageDraw.ImageDraw, v: View, verdict: str | None = None,
            caption: str | None = None, tr: Tr = str) -> None:
    left, who = (verdict, "") if verdict else _status(v, tr)
    if caption is not None and not verdict and v.phase is not Phase.OVER:
        left, who = caption, ""
    y = T.HEADER_H / 2
    if v.phase is Phase.OVER or verdict:
        d.rectangle((0, 0, T.WIDTH, T.HEADER_H - 2), fill=T.WIN_BG)
        size = _fit(left, (30, 28, 26, 24, 22), T.WIDTH - 2 * T.MARGIN, True)
        draw_text(im, (T.WIDTH / 2, y), left, size, T.WIN_TEXT, bold=True, anchor="mm")
        return
    right = ""
    if who:
        if v.phase is Phase.AP and v.ap is not None:
            right = tr(Text("To act: {who} ({n} AP)", who=who, n=v.ap.remaining))
        else:
            right = tr(Text("To act: {who}", who=who))
    rw = text_width(right, T.PANEL_SIZE, True) if right else 0
    avail = T.WIDTH - 2 * 16 - rw - 24
    size = _fit(left, (T.HEADER_SIZE, 26, 24, 22, 20, 18), avail, True)
    draw_text(im, (16, y), left, size, T.TEXT, bold=True, anchor="lm")
    if right:
        x1 = T.WIDTH - 16
        pad = 10
        d.rounded_rectangle((x1 - rw - 2 * pad, y - 19, x1, y + 19), radius=10,
                            fill=(250, 250, 240))
        draw_text(im, (x1 - pad, y), right, T.PANEL_SIZE, (20, 20, 20), bold=True, anchor="rm")


def _chip(im: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, value: int | None, *,
          dim: bool = False) -> int:
    """A small card showing ``value`` (None: face down, a card's back with a "?", beside the
    words "face down") at (x, middle y); returns its width."""
    w, h = 26, 32
    if value is None:
        d.rounded_rectangle((x, y - h / 2, x + w, y + h / 2), radius=4, fill=T.CARD_BACK,
                            outline=T.CARD_EDGE, width=2)
        d.rounded_rectangle((x + 4, y - h / 2 + 4, x + w - 4, y + h / 2 - 4), radius=2,
                            outline=T.CARD_BACK_MARK, width=1)
        draw_text(im, (x + w / 2, y), "?", 20, T.CARD_BACK_MARK, bold=True, anchor="mm")
        return w
    face = (196, 192, 180) if dim else T.CARD_FACE
    d.rounded_rectangle((x, y - h / 2, x + w, y + h / 2), radius=4, fill=face,
                        outline=T.CARD_EDGE, width=2)
    draw_text(im, (x + w / 2, y), str(value), T.PANEL_SIZE, (20, 20, 20), bold=True,
              anchor="mm")
    return w


def _pips(d: ImageDraw.ImageDraw, x: float, y: float, filled: int, total: int,
          colour: tuple[int, int, int]) -> float:
    r = 8
    for i in range(total):
        cx = x + r + i * (2 * r + 6)
        if i < filled:
            d.ellipse((cx - r, y - r, cx + r, y + r), fill=colour, outline=T.TEXT, width=2)
        else:
            d.ellipse((cx - r, y - r, cx + r, y + r), outline=T.TEXT_DIM, width=2)
    return x + total * (2 * r + 6)


def _last_revealed(v: View) -> tuple[int, int] | None:
    for e in reversed(v.last_round_events):
        if e.kind == "revealed" and e.value is not None and e.value2 is not None:
            return e.value, e.value2
    return None


def _card_line(im: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, v: View,
               side: Side, width: float, ended: bool = False, tr: Tr = str) -> None:
    label_w = draw_text(im, (x, y), tr(Text("Card")), T.PANEL_SIZE, T.TEXT_DIM, anchor="lm")
    cx = x + label_w + 12
    idx = 0 if side is Side.RAPTOR else 1
    if v.revealed is not None:
        value = v.revealed[idx]
        cx += _chip(im, d, cx, y, value) + 8
        name = tr(card_name(side, value))
        draw_text(im, (cx, y), name, _fit(name, (T.PANEL_SIZE, 20, 18), int(x + width - cx)),
                  T.TEXT, anchor="lm")
        return
    if v.picked.get(side):  # picked, not shown yet: a card's back, and its legend
        cx += _chip(im, d, cx, y, None) + 8
        cx += draw_text(im, (cx, y), tr(PICKED_FACE_DOWN), T.PANEL_SIZE, T.TEXT, anchor="lm")
    elif v.phase is Phase.PICK and side in v.to_act and not ended:
        cx += draw_text(im, (cx, y), tr(Text("choosing...")), T.PANEL_SIZE, T.TEXT,
                        anchor="lm")
    else:
        cx += draw_text(im, (cx, y), "-", T.PANEL_SIZE, T.TEXT_DIM, anchor="lm")
    last = _last_revealed(v) if v.phase is Phase.PICK else None
    if last is not None:
        cx += 20
        cx += draw_text(im, (cx, y), tr(Text("last round")), T.PANEL_SIZE, T.TEXT_DIM,
                        anchor="lm") + 8
        _chip(im, d, cx, y, last[idx], dim=True)


def mother_status(v: View, gone_from: int | None = None) -> Text:
    """The mother's row of the panel: where she is, or, while the board shows where she
    disappeared (``gone_from``, the square of a shown ``disappeared`` event, R9.2), the
    legend of that dashed amber frame, which it follows."""
    if gone_from is not None:
        return MOTHER_GONE_FROM
    if v.mother_off:
        return Text("hidden (Disappearance)")
    if MOTHER in v.board:
        return Text("on the board")
    return Text("not placed yet")


def _mother_line(im: Image.Image, d: ImageDraw.ImageDraw, x: float, y: float, v: View,
                 gone_from: int | None, tr: Tr) -> None:
    w = draw_text(im, (x, y), tr(Text("Mother")), T.PANEL_SIZE, T.TEXT_DIM, anchor="lm")
    x += w + 12
    if gone_from is not None:  # the legend: the mark as the board draws it, then its words
        size = LEGEND_MARK
        _dashed_box(d, (x + 2, y - size / 2, x + 2 + size, y + size / 2), T.HL_RAPTOR,
                    on=5, off=3, width=2)
        x += size + 12
    draw_text(im, (x, y), tr(mother_status(v, gone_from)), T.PANEL_SIZE, T.TEXT,
              bold=v.mother_off, anchor="lm")


def _panel(im: Image.Image, d: ImageDraw.ImageDraw, v: View, ended: bool = False,
           winner: Side | None = None, tr: Tr = str, gone_from: int | None = None) -> None:
    """Both sides' counters; ``ended``: the match ended outside the game (nobody is to act,
    ``winner`` if any is marked as at a game's end); ``gone_from``: the square of the
    mother's disappearance that the board shows (see :func:`mother_status`)."""
    winner = v.winner if not ended else winner
    colw = T.WIDTH / 2
    top = T.PANEL_TOP + 12
    step = 32
    title_y = top + 16
    for i, side in enumerate((Side.RAPTOR, Side.SCIENTIST)):
        x = 24 + i * colw
        width = colw - 40
        colour = T.RAPTOR_TEXT if side is Side.RAPTOR else T.SCIENTIST_TEXT
        icon = sprites.mother(40) if side is Side.RAPTOR else sprites.scientist(40)
        im.paste(icon, (int(x), int(title_y - 20)), icon)
        tx = x + 48
        tx += draw_text(im, (tx, title_y), tr(SIDE_NAMES[side]).upper(), T.PANEL_TITLE_SIZE,
                        colour, bold=True, anchor="lm")
        if side in v.to_act and v.phase is not Phase.OVER and not ended:
            tx += 12
            d.polygon([(tx, title_y - 9), (tx + 14, title_y), (tx, title_y + 9)], fill=colour)
            draw_text(im, (tx + 22, title_y), tr(Text("to act")), T.PANEL_SIZE, colour,
                      anchor="lm")
        if winner is side:
            draw_text(im, (tx + 14, title_y), tr(Text("WINNER")), T.PANEL_SIZE, T.WIN_BG,
                      bold=True, anchor="lm")
        y = title_y + 40
        if side is Side.RAPTOR:
            w = draw_text(im, (x, y), tr(Text("Sleep tokens")), T.PANEL_SIZE, T.TEXT_DIM,
                          anchor="lm")
            px = _pips(d, x + w + 12, y, v.sleep_tokens, SLEEP_TOKENS, T.SLEEP_PIP)
            draw_text(im, (px + 6, y), f"{v.sleep_tokens}/5", T.PANEL_SIZE, T.TEXT, bold=True,
                      anchor="lm")
            y += step
            w = draw_text(im, (x, y), tr(Text("Escaped")), T.PANEL_SIZE, T.TEXT_DIM,
                          anchor="lm")
            px = _pips(d, x + w + 12, y, v.escaped, 3, T.RAPTOR_TEXT)
            draw_text(im, (px + 6, y), f"{v.escaped}/3", T.PANEL_SIZE, T.TEXT, bold=True,
                      anchor="lm")
            y += step
            _mother_line(im, d, x, y, v, gone_from, tr)
        else:
            w = draw_text(im, (x, y), tr(Text("Captured")), T.PANEL_SIZE, T.TEXT_DIM,
                          anchor="lm")
            px = _pips(d, x + w + 12, y, v.captured, 3, T.SCIENTIST_TEXT)
            draw_text(im, (px + 6, y), f"{v.captured}/3", T.PANEL_SIZE, T.TEXT, bold=True,
                      anchor="lm")
            y += step
            _pairs(im, x, y, ((tr(Text("Reserve")), v.reserve),
                              (tr(Text("Killed")), v.killed)))
            y += step
            _pairs(im, x, y, ((tr(Text("Fire supply")), f"{v.fire_supply}/10"),))
        y += step
        _pairs(im, x, y, ((tr(Text("Hand")), v.hand_sizes.get(side, 0)),
                          (tr(Text("Deck")), v.deck_sizes.get(side, 0))))
        y += step
        w = draw_text(im, (x, y), tr(Text("Discard")), T.PANEL_SIZE, T.TEXT_DIM, anchor="lm")
        cx = x + w + 12
        pile = v.discards.get(side, ())
        if not pile:
            draw_text(im, (cx, y), "-", T.PANEL_SIZE, T.TEXT_DIM, anchor="lm")
        for value in pile:
            cx += _chip(im, d, cx, y, value) + 4
        y += step + 4
        _card_line(im, d, x, y, v, side, width, ended, tr)


def _pairs(im: Image.Image, x: float, y: float, pairs) -> None:
    for label, value in pairs:
        x += draw_text(im, (x, y), label, T.PANEL_SIZE, T.TEXT_DIM, anchor="lm") + 8
        x += draw_text(im, (x, y), str(value), T.PANEL_SIZE, T.TEXT, bold=True, anchor="lm")
        x += 26


# --------------------------------------------------------------------------- entry points
def board_image(v: View, *, highlight: bool = True,
                events: Sequence[Event] | None = None, verdict: str | None = None,
                winner: Side | None = None, caption: str | None = None,
                tr: Tr = str) -> Image.Image:
    """The board picture of :func:`render_board` as a Pillow RGB image (not encoded).
    ``caption``: a status line of the caller's instead of the phase and who is to act
    (a replay frame's round and cards); a game's end or a ``verdict`` keeps its banner.
    ``tr``: how its texts are written (:data:`Tr`; ``str``, the default, is English);
    ``verdict`` and ``caption`` are written by the caller."""
    board = v.board
    rocks = tuple(q for q in BOARD_SQUARES if board[q] == ROCK)
    im = static_layer(v.layout, rocks).copy()
    d = ImageDraw.Draw(im)
    shown = (default_events(v) if events is None else tuple(events)) if highlight else ()
    _draw_events(im, d, shown, board, over=False)
    for q in BOARD_SQUARES:
        make = _SPRITES.get(board[q])
        if make is not None:
            sprite = make()
            x0, y0, _, _ = square_box(q)
            im.paste(sprite, (x0, y0), sprite)
    _draw_events(im, d, shown, board, over=True)
    mother = v.mother
    if mother is not None and v.sleep_tokens:
        badge = sprites.sleep_badge(v.sleep_tokens)
        im.paste(badge, square_box(mother)[:2], badge)
    _header(im, d, v, verdict, caption, tr)
    gone_from = next((e.at for e in shown if e.kind == "disappeared"), None)
    _panel(im, d, v, bool(verdict) or (caption is not None and v.phase is not Phase.OVER),
           winner, tr, gone_from)
    return im


def encode_png(im: Image.Image) -> bytes:
    """``im`` as lossless PNG bytes: :func:`render.png.png_bytes` (fast, mostly without the
    GIL) for RGB / RGBA / L images, else Pillow with :data:`PNG_OPTIONS`."""
    if im.mode in ("RGB", "RGBA", "L"):
        return png_bytes(im)
    buf = io.BytesIO()
    im.save(buf, "PNG", **PNG_OPTIONS)
    return buf.getvalue()


def render_board(v: View, *, highlight: bool = True,
                 events: Sequence[Event] | None = None, verdict: str | None = None,
                 winner: Side | None = None, tr: Tr = str) -> bytes:
    """The board of a view as palette PNG bytes (:func:`render.png.palette_png`: 256 colours,
    less than half the bytes of RGB), ``BOARD_IMAGE_SIZE`` pixels (828 x 756).

    Draws the grid of R2.2 (tiles in the environment's look, rocks, the four exits, the
    coordinates), the pieces and tokens (R1), the highlights of ``events`` (by default
    :func:`default_events`: the round that just ended when the phase is pick, plus the
    round in progress; ``highlight=False`` draws none), a status line (round, phase, who must
    act) and a panel with both players' public counters, discard piles and the cards revealed
    this round. Only public fields of ``v`` are read (R11.1): the hand, deck and picks of a
    player's view never show, so every view of a position gives the same bytes.
    ``verdict``: the end of a match that ended outside the game (a resignation, a timeout, a
    draw, a moderator), e.g. ``"Scientist wins: the raptor resigned"``, shown in the status
    line's banner as a game's end is; nobody is then marked as to act, and ``winner`` (if
    any) is marked in the panel. ``tr``: the language of its texts (see :func:`board_image`).
    """
    return palette_png(board_image(v, highlight=highlight, events=events, verdict=verdict,
                                   winner=winner, tr=tr))
