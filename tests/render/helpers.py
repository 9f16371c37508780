"""Shared helpers of the render tests: positions from small grids, decoding, pixel masks."""

from __future__ import annotations

import io

from PIL import Image, ImageChops

import engine
from engine import Side
from engine.geometry import standard_layout
from render import board_image, square_box

EMPTY_GRID = """\
    A B C D E F G H I J K L M
1   o . . . . . . . . . . . o
2     . . . . . . . . . . .
3     . . . . . . . . . . .
4     . . . . . . . . . . .
5     . . . . . . . . . . .
6   o . . . . . . . . . . . o
"""


def position(cells: dict[str, str], extra: str = "", *, env: str = "jungle",
             rocks: bool = False) -> engine.GameState:
    """A state on the standard layout from an empty grid with ``cells`` (square name ->
    diagram character) and extra ``key: value`` lines; ``rocks=True`` adds the layout's
    rocks (R2.7), else the grid has none."""
    lines = EMPTY_GRID.splitlines()
    if rocks:
        cells = {engine.square_name(q): "#" for q in standard_layout(env).rocks()} | cells
    for name, ch in cells.items():
        col = "ABCDEFGHIJKLM".index(name[0].upper())
        row = int(name[1])
        chars = list(lines[row].ljust(4 + 2 * 13))
        chars[4 + 2 * col] = ch
        lines[row] = "".join(chars).rstrip()
    text = "\n".join(lines) + f"\noptions: {env} standard manual\n" + extra
    return engine.from_diagram(text)


def decode(data: bytes) -> Image.Image:
    """PNG bytes -> RGB image (checks the bytes really are a PNG)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    return im.convert("RGB")


def board(state: engine.GameState, side: Side | None = None, **kw) -> Image.Image:
    """The drawn board of ``state`` seen by ``side`` (:func:`render.board_image`, mode RGB):
    the pixels before :func:`render.render_board` turns them into a palette PNG, so that
    comparisons between two boards see only what was drawn differently
    (tests/render/test_png.py checks the palette PNG against these pixels)."""
    return board_image(engine.view(state, side), **kw)


def crop_square(im: Image.Image, name: str) -> Image.Image:
    return im.crop(square_box(engine.square(name)))


def colour_mask(im: Image.Image, colour: tuple[int, int, int], tol: int = 12) -> Image.Image:
    """An "L" mask: 255 where every channel of ``im`` is within ``tol`` of ``colour``."""
    diff = ImageChops.difference(im, Image.new("RGB", im.size, colour))
    bands = [b.point(lambda v: 255 if v <= tol else 0) for b in diff.split()]
    return ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])


def count(im: Image.Image, colour: tuple[int, int, int], tol: int = 12) -> int:
    """How many pixels of ``im`` are ``colour`` (within ``tol`` per channel)."""
    return colour_mask(im, colour, tol).histogram()[255]


def shape(im: Image.Image, colour: tuple[int, int, int], tol: int = 12) -> tuple[int, int]:
    """(width, height) of the bounding box of the ``colour`` pixels of ``im``."""
    box = colour_mask(im, colour, tol).getbbox()
    assert box is not None, f"no pixel of colour {colour}"
    return box[2] - box[0], box[3] - box[1]


def diff_box(a: Image.Image, b: Image.Image,
             region: tuple[int, int, int, int] | None = None) -> tuple[int, int, int, int] | None:
    """Bounding box of the pixels that differ between ``a`` and ``b`` (within ``region`` if
    given, in full-image coordinates), or None when they are equal there."""
    if region is not None:
        a, b = a.crop(region), b.crop(region)
    box = ImageChops.difference(a, b).getbbox()
    if box is None or region is None:
        return box
    return box[0] + region[0], box[1] + region[1], box[2] + region[0], box[3] + region[1]


def changed_pixels(a: Image.Image, b: Image.Image, threshold: int = 0) -> int:
    """Number of pixels whose largest channel difference exceeds ``threshold``."""
    diff = ImageChops.difference(a, b)
    r, g, bb = diff.split()
    m = ImageChops.lighter(ImageChops.lighter(r, g), bb)
    return sum(m.histogram()[threshold + 1:])
