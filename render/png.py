"""A fast lossless PNG writer for the renderer's images, and palette images for smaller files.

Pillow's PNG encoder spends most of its time choosing a row filter (adaptive filtering) and
holds the GIL throughout, so a render in a worker thread stalls the event loop of the bot.
:func:`png_bytes` writes the same pixels with filter type 0 ("None") on every row and one
zlib stream: about half of Pillow's time at ``compress_level=1`` on a board image, a file
of about the same size (the boards are flat colour areas that deflate well without
filtering), and the compression — most of the work — runs in :func:`zlib.compress`, which
releases the GIL. Decoders see exactly the pixels of the image (tests/render checks it).

A board sent to Discord is downloaded by every reader of its thread at every change, so it
goes as a palette PNG (:func:`palette_png`): one byte per pixel instead of three, less than
half the bytes (about 50 KiB for a board against 140 KiB in RGB). A board has thousands of
colours, nearly all of them the antialiased edges of a few dozen flat ones, so 256 colours
keep its look: :func:`palette_image` moves most pixels by a few levels of 255 and only rare
edge pixels further (tests/render/test_png.py states the bounds).
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

#: The 8-byte PNG signature.
SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: zlib level of the image data (1: fastest; 2 is ~6 % smaller and as fast on boards).
ZLIB_LEVEL = 2
#: Colours of a palette image: all that an 8-bit PNG palette holds.
PALETTE_COLOURS = 256
#: zlib level of a palette image's data (zlib's default): on a board about 18 % fewer bytes
#: than level 2 for about 5 ms more CPU time (benchmarks/RESULTS.md).
PALETTE_ZLIB_LEVEL = 6

# mode -> (PNG colour type, bytes per pixel)
_COLOUR_TYPE = {"RGB": (2, 3), "L": (0, 1), "RGBA": (6, 4), "P": (3, 1)}


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))))


def png_bytes(im: Image.Image, *, level: int = ZLIB_LEVEL) -> bytes:
    """``im`` (mode RGB, RGBA, L, or P with an RGB palette) as PNG bytes: 8-bit samples (P:
    8-bit indices and a PLTE chunk of the palette's colours), no interlace, filter type 0 on
    every row, no ancillary chunks (a P image's transparency is not written).

    Raises:
        ValueError: ``im`` has another mode (e.g. 1 or CMYK) or, in mode P, a palette that
            is not RGB or holds fewer colours than its indices need.
    """
    if im.mode not in _COLOUR_TYPE:
        raise ValueError(f"png_bytes writes RGB, RGBA, L or P images, not {im.mode}")
    colour_type, depth = _COLOUR_TYPE[im.mode]
    width, height = im.size
    stride = width * depth
    data = im.tobytes()
    palette = b""
    if im.mode == "P":
        if im.palette is None or im.palette.mode != "RGB":
            raise ValueError("png_bytes writes P images with an RGB palette")
        palette = bytes(im.getpalette("RGB") or ())
        used = im.getextrema()[1] + 1
        if len(palette) < 3 * used:
            raise ValueError(f"the palette holds {len(palette) // 3} colours, the image "
                             f"uses index {used - 1}")
        palette = palette[:3 * used]
    rows = bytearray(height * (stride + 1))  # zero-filled: each row starts with filter 0
    view = memoryview(data)
    for y in range(height):
        start = y * (stride + 1) + 1
        rows[start:start + stride] = view[y * stride:(y + 1) * stride]
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header)
            + (_chunk(b"PLTE", palette) if palette else b"")
            + _chunk(b"IDAT", zlib.compress(rows, level)) + _chunk(b"IEND", b""))


def palette_image(im: Image.Image, colours: int = PALETTE_COLOURS) -> Image.Image:
    """``im`` (mode RGB) with at most ``colours`` colours, as a P image with an RGB palette,
    without dithering (flat areas stay flat): its own colours when it has no more (median
    cut, exact), else Pillow's fast octree (about 10 ms for a board; each colour becomes the
    mean of the colours of its cell of the RGB cube, so flat areas move by a few levels)."""
    if im.getcolors(colours) is not None:
        return im.quantize(colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    return im.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def palette_png(im: Image.Image) -> bytes:
    """``im`` (mode RGB) as a palette PNG: :func:`palette_image`, written by
    :func:`png_bytes` at :data:`PALETTE_ZLIB_LEVEL`."""
    return png_bytes(palette_image(im), level=PALETTE_ZLIB_LEVEL)
