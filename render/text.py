"""Text for the images: Pillow's bundled scalable font, cached glyph masks, wrapping.

No system font is assumed: :func:`font` is ``ImageFont.load_default(size=N)`` (Pillow ≥ 10.1
ships a scalable font inside the package). A line holding Chinese (any character from
U+2E80 on, :func:`is_cjk`) is drawn whole with the package's own CJK font instead,
:data:`CJK_FONT`, a subset of Noto Sans CJK TC made by ``python -m bot.i18n.fontsubset``
(SIL Open Font License, ``render/fonts/OFL.txt``); :func:`wrap` then breaks between any two
Chinese characters, never before closing punctuation nor after an opening bracket
(:func:`break_cjk`, which the terminal's wrapping uses too). The
bundled font has no glyphs for a few characters the card texts use (``×``, dashes, arrows);
:func:`safe_text` replaces them with ones it has, and the multiplication sign
(:data:`TIMES`, in "Fear ×2") is drawn as two strokes the size of an ``x`` instead, so that
the images write the cards' names as the texts do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

#: The CJK fonts, regular and bold (subsets: only the characters the catalog uses, see the
#: module's note).
CJK_FONT = Path(__file__).resolve().parent / "fonts" / "RaptorCJK-Regular.otf"
CJK_BOLD_FONT = CJK_FONT.with_name("RaptorCJK-Bold.otf")
_CJK = re.compile(r"[\u2e80-\uffff]")
#: Chinese punctuation that never starts a line (the terminal's wrapping keeps it too).
NO_BREAK_BEFORE = frozenset("，。、；：！？）」』》〉%")
#: Opening brackets, which never end a line: a break there moves them to the next one (and
#: so does an opening quote ``'``, :func:`without_openers`).
_NO_BREAK_AFTER = frozenset("（「『《〈(")
_CJK_TOKEN = re.compile(r"[\u2e80-\uffff]|[^\s\u2e80-\uffff]+|\s+")


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (then the CJK font draws the line)."""
    return _CJK.search(text) is not None

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
    if is_cjk(text):
        return text  # the CJK font has them all
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


@lru_cache(maxsize=32)
def cjk_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The package's CJK font (:data:`CJK_FONT`, :data:`CJK_BOLD_FONT`) at ``size`` pixels
    (em size)."""
    return ImageFont.truetype(str(CJK_BOLD_FONT if bold else CJK_FONT), size)


@lru_cache(maxsize=2048)
def text_mask(text: str, size: int, bold: bool = False) -> Image.Image:
    """A grey-scale ("L") mask of one line of ``text``: width = the advance of the text,
    height = the font's ascent + descent, so lines of one size align whatever their letters.
    ``bold`` thickens the strokes by one pixel. A line with Chinese is drawn with the CJK
    font (which has its own multiplication sign)."""
    if is_cjk(text):
        return _cjk_mask(text, size, bold)
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


def _cjk_mask(text: str, size: int, bold: bool) -> Image.Image:
    """A line with Chinese: the bold face draws bold (a stroke would fill dense characters),
    with the regular face's line box, so both weights of a size align."""
    f = cjk_font(size, bold)
    ascent, descent = cjk_font(size).getmetrics()
    width = max(1, int(round(f.getlength(text))) + 2)
    im = Image.new("L", (width, ascent + descent + 2), 0)
    ImageDraw.Draw(im).text((1, 1), text, font=f, fill=255, anchor="la")
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


@lru_cache(maxsize=4096)
def _has_glyph(ch: str, cjk: bool) -> bool:
    """Whether the font that draws a line of this kind (CJK or not) has a glyph for ``ch``
    (a missing one draws as the font's empty box, the glyph of a private-use character)."""
    f = cjk_font(20) if cjk else font(20)
    def signature(c: str) -> tuple:
        mask = f.getmask(c)
        return mask.size, bytes(mask)
    return ch.isspace() or signature(ch) != signature("\ue000")


def drawable(text: str) -> str:
    """``text`` as the images can draw it: a character its line's font lacks (a name typed
    by a player: an accent the bundled font does not have, a Chinese character outside the
    catalog's subset, an emoji) becomes its base letter when it has one (``é`` → ``e``),
    else ``?``; never the font's empty box."""
    cjk = is_cjk(text)
    out = []
    for ch in safe_text(text):
        if ch == TIMES or _has_glyph(ch, cjk):
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch)[:1]
        out.append(base if base and base != ch and _has_glyph(base, cjk) else "?")
    return "".join(out)


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
    """Split ``text`` into lines no wider than ``width`` pixels (words are never cut; a
    text with Chinese may break between any two Chinese characters). Cached: the cards'
    texts come back in every hand."""
    return list(_wrapped(str(text), size, width))


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    if is_cjk(text):
        return tuple(_wrap_cjk(text, size, width))
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
    return tuple(lines)


def _wrap_cjk(text: str, size: int, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        lines.extend(break_cjk(para, lambda line, _n: text_width(line, size) <= width))
    return lines


def break_cjk(text: str, fits: Callable[[str, int], bool]) -> list[str]:
    """One paragraph with Chinese cut into lines: between any two Chinese characters or at
    a space, never inside a word (notation, numbers, paths), never before closing
    punctuation (:data:`NO_BREAK_BEFORE`) nor after what opens (:func:`without_openers`).
    ``fits(line, n)`` says whether ``line`` fits as line ``n`` (0 the first): the images
    measure pixels, the terminal columns. Where closing punctuation would not fit, the
    character before it goes to the next line with it (nothing hangs past the width); a
    word longer than a line stays whole, on a line of its own. Spaces are collapsed to one,
    and none starts or ends a line."""
    lines: list[str] = []
    cur: list[str] = []
    quotes = 0  # the ' of the lines already cut
    for tok in _CJK_TOKEN.findall(text):
        if tok.isspace():
            if not cur:
                continue
            tok = " "
        cur.append(tok)
        while not fits("".join(cur).rstrip(), len(lines)):
            cut = _cut(cur, fits, len(lines), quotes)
            if cut is None:
                break
            head, cur = cut
            lines.append(head)
            quotes += head.count("'")
    lines.append("".join(cur).rstrip())
    return lines


def _cut(tokens: list[str], fits: Callable[[str, int], bool], n: int, quotes: int
         ) -> tuple[str, list[str]] | None:
    """The latest cut of ``tokens`` whose head fits as line ``n``, does not start the rest
    with a space or closing punctuation and leaves no opener at the head's end (an opener
    goes down with the rest): ``(head, the rest's tokens)``, or None when no cut fits."""
    for i in range(len(tokens) - 1, 0, -1):
        tok = tokens[i]
        if tok == " " or tok[0] in NO_BREAK_BEFORE:
            continue
        head, carried = without_openers("".join(tokens[:i]), quotes)
        if head and fits(head, n):
            return head, ([carried] if carried else []) + tokens[i:]
    return None


def without_openers(line: str, quotes_before: int = 0) -> tuple[str, str]:
    """``line`` (right-stripped) split before what opens at its end and must not end a
    line, which goes to the next line if it breaks here: opening brackets
    (:data:`_NO_BREAK_AFTER`) and an opening quote ``'`` (one that leaves an odd number of
    ``'`` in its paragraph, ``quotes_before`` of them on the paragraph's earlier lines).
    ``without_openers("輸入中文：'", 0) == ("輸入中文：", "'")``."""
    head = line.rstrip()
    cut = len(head)
    while cut and (head[cut - 1] in _NO_BREAK_AFTER or head[cut - 1] == "'" and (
            quotes_before + head.count("'", 0, cut)) % 2):
        cut -= 1
    return head[:cut].rstrip(), head[cut:]
