"""Text for the images: Pillow's bundled scalable font, cached glyph masks, wrapping.

No system font is assumed: :func:`font` is ``ImageFont.load_default(size=N)`` (Pillow ≥ 10.1
ships a scalable font inside the package). That font has no glyphs for a few characters the
card texts use (``×``, dashes, arrows); :func:`safe_text` replaces them with ones it has, and
the multiplication sign (:data:`TIMES`, in "Fear ×2") is drawn as two strokes the size of an
``x`` instead, so that the images write the cards' names as the texts do.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

#: Characters the bundled font lacks, and what to draw instead.
REPLACEMENTS = {
    "–": "-", "—": "-", "−": "-", "→": "->", "←": "<-", "½": "1/2", "…": "...",
    "‘": "'", "’": "'", "“": '"', "”": '"',
}


#: The multiplication sign: not in the bundled font, drawn by :func:`text_mask` itself.
TIMES = "×"


def safe_text(text: str) -> str:
    """``text`` with the characters the bundled font lacks replaced (see REPLACEMENTS); the
    multiplication sign :data:`TIMES` stays (:func:`text_mask` draws it)."""
    return "".join(REPLACEMENTS.get(ch, ch) for ch in text)


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels (em size).

    Raises:
        RuntimeError: this Pillow has no FreeType support (then ``load_default`` cannot scale).
    """
    f = ImageFont.load_default(size=size)
    if not isinstance(f, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow without FreeType
        raise RuntimeError("Pillow was built without FreeType; the renderer needs it")
    return f


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """A grey-scale ("L") mask of one line of ``text``: width = the advance of the text,
    height = the font's ascent + descent, so lines of one size align whatever their letters.
    ``bold`` thickens the strokes by one pixel."""
    f = font(size)
    parts = safe_text(text).split(TIMES)
    ascent, descent = f.getmetrics()
    stroke = 1 if bold else 0
    sign = f.getlength("x")  # the multiplication sign takes an x's advance
    advance = sum(f.getlength(p) for p in parts) + sign * (len(parts) - 1)
    width = max(1, int(round(advance)) + 2 * stroke)
    im = Image.new("L", (width, ascent + descent + 2 * stroke), 0)
    d = ImageDraw.Draw(im)
    x = float(stroke)
    for i, part in enumerate(parts):
        if i:
            _times(d, f, x, stroke)
            x += sign
        d.text((x, stroke), part, font=f, fill=255, anchor="la", stroke_width=stroke,
               stroke_fill=255)
        x += f.getlength(part)
    return im


def _times(d: ImageDraw.ImageDraw, f: ImageFont.FreeTypeFont, x: float, stroke: int) -> None:
    """A multiplication sign at ``x``: two crossing strokes centred in an ``x``'s box, a
    little smaller than the letter, as fonts draw the sign."""
    left, top, right, bottom = f.getbbox("x", anchor="la")
    cx = x + f.getlength("x") / 2
    cy = stroke + (top + bottom) / 2
    half = (bottom - top) * 0.36
    width = max(1, round(f.size / 12)) + 2 * stroke
    for dy in (-half, half):
        d.line((cx - half, cy - dy, cx + half, cy + dy), fill=255, width=width)


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Width in pixels of ``text`` as :func:`draw_text` draws it."""
    return text_mask(text, size, bold).width


def draw_text(im: Image.Image, xy: tuple[float, float], text: str, size: int,
              fill: tuple[int, int, int], *, bold: bool = False, anchor: str = "lt") -> int:
    """Paste ``text`` onto ``im`` in colour ``fill``; returns the text's width.

    ``anchor``: two letters, horizontal ``l``/``m``/``r`` then vertical ``t``/``m``/``b`` of
    the line box (ascent + descent), e.g. ``"mm"`` centres the text on ``xy``.
    """
    mask = text_mask(text, size, bold)
    x, y = xy
    w, h = mask.size
    if anchor[0] == "m":
        x -= w / 2
    elif anchor[0] == "r":
        x -= w
    if anchor[1] == "m":
        y -= h / 2
    elif anchor[1] == "b":
        y -= h
    im.paste(fill, (int(round(x)), int(round(y))), mask)
    return w


def wrap(text: str, size: int, width: int) -> list[str]:
    """Split ``text`` into lines no wider than ``width`` pixels (words are never cut)."""
    lines: list[str] = []
    for para in safe_text(text).split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and text_width(trial, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines
