"""A seat's own Top-3 card (RR1.5, RR7.1) as a PNG: its three raptors in their slots, what
each slot scores, the bonus; once the race is over, the points it scored (RR7.2).

:func:`render_card` is a pure function of the seat's own view (the card is private until
the end, RR9.2: show this image to its holder only) and keyword options.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.messages import Text
from engine.race import CARDS, RaceView

from ..png import png_bytes
from ..text import draw_text, wrap
from . import sprites
from . import theme as T
from .track import Tr

#: What each slot scores (RR7.1), and the bonus.
SLOT_TEXTS = (
    Text("10 points if it is first"),
    Text("8 points if it is first or second"),
    Text("5 points if it is in the top three"),
)
BONUS_TEXT = Text("+3 if the three are the top three, in any order")
CARD_IMAGE_SIZE = (T.CARD_W, T.CARD_H)


def card_image(view: RaceView, *, tr: Tr = str) -> Image.Image:
    """The picture of :func:`render_card`, RGB.

    Raises:
        ValueError: the public view (it holds no card).
    """
    if view.viewer is None or view.my_card is None:
        raise ValueError("a Top-3 card is drawn from its holder's own view")
    card = CARDS[view.my_card]
    score = view.scores[view.viewer] if view.scores is not None else None
    im = Image.new("RGB", CARD_IMAGE_SIZE, T.FRAME)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((6, 6, T.CARD_W - 7, T.CARD_H - 7), radius=18, fill=T.CARD_FACE,
                        outline=T.CARD_EDGE, width=4)
    draw_text(im, (24, 18), tr(Text("Your Top-3 card")), T.LABEL_SIZE + 2, T.CARD_INK,
              bold=True)
    draw_text(im, (T.CARD_W - 24, 18), f"#{view.my_card}", T.LABEL_SIZE + 2, T.CARD_INK,
              bold=True, anchor="rt")
    token = 58
    y = 58
    for slot, (raptor, text) in enumerate(zip(card, SLOT_TEXTS, strict=True)):
        d.rounded_rectangle((20, y, T.CARD_W - 21, y + 64), radius=10, fill=T.CARD_SLOT)
        draw_text(im, (34, y + 32), str(slot + 1), T.HEADER_SIZE + 4, T.CARD_INK, bold=True,
                  anchor="lm")
        pic = sprites.raptor(raptor, token)
        im.paste(pic, (62, y + 3), pic)
        lines = wrap(tr(text), T.SMALL_SIZE + 1, T.CARD_W - 150 - (60 if score else 0))[:2]
        ty = y + 32 - (len(lines) * (T.SMALL_SIZE + 5)) / 2
        for line in lines:
            draw_text(im, (132, ty), line, T.SMALL_SIZE + 1, T.CARD_INK)
            ty += T.SMALL_SIZE + 5
        if score is not None:
            draw_text(im, (T.CARD_W - 34, y + 32), str(score.slots[slot]), T.HEADER_SIZE,
                      T.CARD_INK, bold=True, anchor="rm")
        y += 72
    lines = wrap(tr(BONUS_TEXT), T.SMALL_SIZE, T.CARD_W - 60 - (60 if score else 0))[:2]
    for i, line in enumerate(lines):
        draw_text(im, (24, y + 2 + i * (T.SMALL_SIZE + 4)), line, T.SMALL_SIZE, T.CARD_INK)
    if score is not None:
        draw_text(im, (T.CARD_W - 34, y + 12), str(score.bonus), T.HEADER_SIZE, T.CARD_INK,
                  bold=True, anchor="rm")
        ImageDraw.Draw(im).line((20, T.CARD_H - 50, T.CARD_W - 21, T.CARD_H - 50),
                                fill=T.CARD_EDGE, width=2)
        draw_text(im, (T.CARD_W - 34, T.CARD_H - 28), tr(Text("Total: {n} points",
                                                              n=score.total)),
                  T.LABEL_SIZE + 2, T.CARD_INK, bold=True, anchor="rm")
    return im


def render_card(view: RaceView, *, tr: Tr = str) -> bytes:
    """The viewer's Top-3 card as PNG bytes (private to that seat until the race ends).

    Raises:
        ValueError: the public view.
    """
    return png_bytes(card_image(view, tr=tr))
