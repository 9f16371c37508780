"""The pieces of the Ratjack images: card faces (small for a display, large with the effect's
text), the card back, the bonus chips. Every piece that does not depend on the language is
drawn once per size and cached; faces and shapes are drawn three times larger and reduced,
so their edges are smooth.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.messages import Text
from engine.ratjack.cards import deck_of, effect_of, effect_title, format_face, value_of

from ..board import Tr
from ..text import draw_text, text_width, wrap
from . import theme as T

SS = 3  #: supersampling of the cached pieces


def _shape(d: ImageDraw.ImageDraw, shape: str, box: tuple[float, float, float, float],
           fill: tuple[int, int, int]) -> None:
    """The deck's shape (circle, square, triangle or diamond) filling ``box``."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if shape == "circle":
        d.ellipse(box, fill=fill)
    elif shape == "square":
        inset = (x1 - x0) * 0.08
        d.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), fill=fill)
    elif shape == "triangle":
        d.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=fill)
    else:
        d.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=fill)


def shape_icon(letter: str, size: int, colour: tuple[int, int, int] | None = None
               ) -> Image.Image:
    """The deck's shape alone, ``size`` pixels square (RGBA, transparent around it)."""
    return _shape_icon(letter, size, colour or T.DECK_LOOKS[letter].ink)


@lru_cache(maxsize=64)
def _shape_icon(letter: str, size: int, colour: tuple[int, int, int]) -> Image.Image:
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    _shape(ImageDraw.Draw(big), T.DECK_LOOKS[letter].shape, (0, 0, size * SS - 1,
                                                              size * SS - 1), colour)
    return big.resize((size, size), Image.LANCZOS)


#: Below this width a face shows its letter, shape and value only (no corner shape).
SMALL_FACE = 56


@lru_cache(maxsize=256)
def card_face(card: str, w: int, h: int) -> Image.Image:
    """A face-up card ``w`` x ``h``: its deck's tint and edge, the deck letter and shape in
    the top left corner, the value large in the middle (lower on a small face), the shape
    again bottom right on a full-size face. Shared: copy before drawing on it."""
    look = T.DECK_LOOKS[card[0]]
    small = w < SMALL_FACE
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    edge = 2 if small else 3
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=(5 if small else 8) * SS,
                        fill=look.tint, outline=look.ink, width=edge * SS)
    if not small:
        corner = max(10, w // 5)
        _shape(d, look.shape, ((w - corner - 6) * SS, (h - corner - 6) * SS, (w - 6) * SS,
                               (h - 6) * SS), look.ink)
    im = big.resize((w, h), Image.LANCZOS)
    letter = max(11, w // 4) if not small else max(10, w // 3)
    pad = 3 if small else 6
    draw_text(im, (pad, pad - 2), card[0], letter, look.ink, bold=True)
    icon = shape_icon(card[0], max(6, letter - 4))
    im.alpha_composite(icon, (pad + 2 + text_width(card[0], letter, True), pad + 1))
    if small:
        size = max(11, min(T.VALUE_SIZE, int(w * 0.5)))
        draw_text(im, (w / 2, h * 0.64), str(value_of(card)), size, look.ink, bold=True,
                  anchor="mm")
    else:
        size = max(18, min(T.VALUE_SIZE, int(w * 0.62)))
        draw_text(im, (w / 2, h / 2 + 4), str(value_of(card)), size, look.ink, bold=True,
                  anchor="mm")
    return im


@lru_cache(maxsize=256)
def name_tag(card: str, size: int) -> Image.Image:
    """A card's name (``B12``) and deck shape on a light tag, for a hidden card everyone
    knows: drawn on its back, so it still reads as face down (RJ11.2)."""
    look = T.DECK_LOOKS[card[0]]
    tw = text_width(card, size, True)
    im = Image.new("RGBA", (tw + size + 14, size + 10), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle((0, 0, im.width - 1, im.height - 1), radius=6,
                                         fill=look.tint, outline=look.ink, width=2)
    draw_text(im, (5, im.height / 2), card, size, look.ink, bold=True, anchor="lm")
    icon = shape_icon(card[0], size - 6)
    im.alpha_composite(icon, (tw + 8, (im.height - icon.height) // 2))
    return im


@lru_cache(maxsize=64)
def card_back(w: int, h: int) -> Image.Image:
    """A face-down card ``w`` x ``h``: the same back for every deck (RJ11.1: a hidden card
    shows nothing). Shared: copy before drawing on it."""
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=8 * SS, fill=T.BACK,
                        outline=T.CARD_EDGE, width=3 * SS)
    step = 12 * SS
    inset = 7 * SS
    for k in range(-h * SS, w * SS, step):
        d.line((inset + k, inset, inset + k + h * SS, inset + h * SS), fill=T.BACK_MARK,
               width=2 * SS)
    mask = Image.new("L", big.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle((inset, inset, w * SS - inset, h * SS - inset),
                                           radius=5 * SS, fill=255)
    plain = Image.new("RGBA", big.size, (0, 0, 0, 0))
    ImageDraw.Draw(plain).rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=8 * SS,
                                            fill=T.BACK, outline=T.CARD_EDGE, width=3 * SS)
    plain.paste(big, (0, 0), mask)
    return plain.resize((w, h), Image.LANCZOS)


@lru_cache(maxsize=64)
def chip(face: int, d: int = T.CHIP_D) -> Image.Image:
    """A bonus chip showing ``face`` (``+3``: light, ``-3``: dark; the sign is written),
    ``d`` pixels across (RGBA)."""
    big = Image.new("RGBA", (d * SS, d * SS), (0, 0, 0, 0))
    fill = T.CHIP_PLUS if face > 0 else T.CHIP_MINUS
    ImageDraw.Draw(big).ellipse((0, 0, d * SS - 1, d * SS - 1), fill=fill, outline=T.CHIP_EDGE,
                                width=2 * SS)
    im = big.resize((d, d), Image.LANCZOS)
    ink = T.CHIP_PLUS_INK if face > 0 else T.CHIP_MINUS_INK
    text = format_face(face)
    size = T.CHIP_SIZE if len(text) < 3 else T.CHIP_SIZE - 2
    draw_text(im, (d / 2, d / 2), text, size, ink, bold=True, anchor="mm")
    return im


def chip_row(faces: tuple[int, ...], width: int) -> Image.Image:
    """Chips side by side within ``width`` pixels (overlapping when they must)."""
    d = T.CHIP_D
    im = Image.new("RGBA", (width, d), (0, 0, 0, 0))
    if not faces:
        return im
    step = min(d + 2, (width - d) / max(1, len(faces) - 1)) if len(faces) > 1 else 0
    x0 = (width - (d + step * (len(faces) - 1))) / 2
    for k, f in enumerate(faces):
        im.alpha_composite(chip(f), (int(round(x0 + k * step)), 0))
    return im


# --------------------------------------------------------------------------- large cards
LARGE_W, LARGE_H = 92, 128   #: the face beside an effect's text


def effect_row(card: str, width: int, *, tr: Tr = str, tag: str | None = None,
               tag_colour: tuple[int, int, int] = T.TURN_MARK) -> Image.Image:
    """One card as a wide row: its face, its effect's name (``Rat 7 · Red Rats``) and the
    effect's text wrapped to ``width``; ``tag`` (a short label such as ``@3`` or ``known``)
    at the right of the title, or under it when it does not fit there (a player's name)."""
    text_x = LARGE_W + 24
    lines = wrap(tr(effect_of(card).text), T.LABEL_SIZE, width - text_x - 14)
    title = tr(Text("{effect} · {deck}", effect=effect_title(card), deck=deck_of(card).name))
    tw = text_width(title, T.NAME_SIZE - 2, bold=True)
    tag_w = text_width(tag, T.LABEL_SIZE) if tag else 0
    below = bool(tag) and text_x + tw + 14 + tag_w + 16 > width - 10
    top = 16 + 34 + (34 if below else 0)  # where the effect's text starts
    h = max(LARGE_H + 16, top + 27 * len(lines) + 12)
    im = Image.new("RGBA", (width, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, width - 1, h - 1), radius=12, fill=(250, 247, 238),
                        outline=T.CARD_EDGE, width=2)
    im.alpha_composite(card_face(card, LARGE_W, LARGE_H), (8, (h - LARGE_H) // 2))
    draw_text(im, (text_x, 12), title, T.NAME_SIZE - 2, T.TEXT_DARK, bold=True)
    if tag:
        x, y0 = (text_x, 47) if below else (min(text_x + tw + 14, width - tag_w - 26), 13)
        d.rounded_rectangle((x, y0, x + tag_w + 16, y0 + 28), radius=8, fill=tag_colour)
        draw_text(im, (x + 8, y0 + 14), tag, T.LABEL_SIZE, T.TEXT_DARK, anchor="lm")
    y = top
    for line in lines:
        draw_text(im, (text_x, y), line, T.LABEL_SIZE, (60, 54, 48))
        y += 27
    return im
