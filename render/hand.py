"""The private hand image of one player (R11.2: only that player may see it).

:func:`render_hand` lists the player's cards as wide rows (value, name and what the effect
does), so that the text stays readable when Discord shows the image about 400 px wide.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image, ImageDraw

from engine import Phase, Side, View, card_name, effect_text
from engine.messages import Text

from . import theme as T
from .board import SIDE_NAMES, Tr, encode_png
from .text import draw_text, text_width, wrap

WIDTH = T.WIDTH            #: the same width as the board image
PAD = 24
TITLE_H = 64
ROW_GAP = 14
VALUE_W = 84               #: the coloured value box at the left of a card
NAME_SIZE = 26
BODY_SIZE = 22
LINE_H = 28
LABEL_SIZE = 22
#: Width of a card's effect text: the card less its value box and paddings.
BODY_WIDTH = WIDTH - 2 * PAD - VALUE_W - 36

SIDE_COLOUR = {Side.RAPTOR: T.RAPTOR, Side.SCIENTIST: T.SCIENTIST_DARK}
PICK_COLOUR = (255, 196, 40)   # frame of the card picked this round


def body_lines(side: Side, value: int, tr: Tr = str) -> list[str]:
    """The lines of a card's effect text as its row draws them (:func:`render.text.wrap`
    to :data:`BODY_WIDTH`)."""
    return wrap(tr(effect_text(side, value)), BODY_SIZE, BODY_WIDTH)


def _card_height(side: Side, value: int, tr: Tr = str) -> int:
    return max(VALUE_W + 16, 14 + 34 + len(body_lines(side, value, tr)) * LINE_H + 12)


def _card(im: Image.Image, d: ImageDraw.ImageDraw, y: int, side: Side, value: int, *,
          tag: str | None = None, frame: tuple[int, int, int] | None = None,
          tr: Tr = str) -> int:
    """Draw one card row at ``y``; returns its height."""
    h = _card_height(side, value, tr)
    x0, x1 = PAD, WIDTH - PAD
    if frame is not None:
        d.rounded_rectangle((x0 - 6, y - 6, x1 + 6, y + h + 6), radius=16, fill=frame)
    d.rounded_rectangle((x0, y, x1, y + h), radius=12, fill=T.CARD_FACE, outline=T.CARD_EDGE,
                        width=2)
    colour = SIDE_COLOUR[side]
    d.rounded_rectangle((x0 + 8, y + 8, x0 + 8 + VALUE_W - 8, y + h - 8), radius=8,
                        fill=colour)
    draw_text(im, (x0 + 4 + VALUE_W / 2, y + h / 2), str(value), 52, (255, 255, 255),
              bold=True, anchor="mm")
    tx = x0 + VALUE_W + 18
    name_w = draw_text(im, (tx, y + 12), tr(card_name(side, value)), NAME_SIZE, (24, 20, 16),
                       bold=True)
    if tag:
        tw = text_width(tag, 18, True)
        bx = min(tx + name_w + 14, x1 - tw - 24)
        d.rounded_rectangle((bx, y + 14, bx + tw + 16, y + 42), radius=8,
                            fill=frame or colour)
        draw_text(im, (bx + 8, y + 28), tag, 18, (24, 20, 16) if frame else (255, 255, 255),
                  bold=True, anchor="lm")
    ty = y + 14 + 34
    for line in body_lines(side, value, tr):
        draw_text(im, (tx, ty), line, BODY_SIZE, (60, 54, 48))
        ty += LINE_H
    return h


class HandContent(NamedTuple):
    """Everything :func:`hand_image` draws, taken from a player's view — so two views with
    equal contents give the same picture, and a cache of hand images may be keyed by it. It
    holds private information (the hand, the pick, the card shown under observation): a key
    for ``viewer`` only, never for the other player or the public."""

    viewer: Side
    environment: str
    hand: tuple[int, ...]
    my_pick: int | None
    shown_pick: int | None   # only for the raptor (observation, R5.2)
    revealed: tuple[int, int] | None
    phase: Phase
    round: int
    to_act: bool             # the viewer must decide now
    deck: tuple[int, ...]
    deck_size: int
    discards: tuple[int, ...]


def hand_content(v: View) -> HandContent:
    """What the hand image of ``v`` shows (see :class:`HandContent`).

    Raises:
        ValueError: ``v`` is the public view (``v.viewer is None``).
    """
    if v.viewer is None:
        raise ValueError("render_hand needs a player's view (view(state, side)), not the "
                         "public one")
    me = v.viewer
    return HandContent(
        viewer=me, environment=v.layout.environment, hand=tuple(v.hand or ()),
        my_pick=v.my_pick, shown_pick=v.shown_pick if me is Side.RAPTOR else None,
        revealed=v.revealed, phase=v.phase, round=v.round, to_act=me in v.to_act,
        deck=tuple(v.deck or ()), deck_size=v.deck_sizes.get(me, 0),
        discards=tuple(v.discards.get(me, ())))


def _status(c: HandContent) -> Text:
    if c.phase is Phase.OVER:
        return Text("Game over")
    if c.phase is Phase.PICK:
        if c.my_pick is not None:
            return Text("Round {n} · card picked", n=c.round)
        if c.to_act:
            return Text("Round {n} · pick a card", n=c.round)
        return Text("Round {n} · the scientist picks first", n=c.round)
    if c.revealed is not None:
        return Text("Round {n} · Raptor {raptor} vs Scientist {scientist}", n=c.round,
                    raptor=c.revealed[0], scientist=c.revealed[1])
    return Text("Round {n}", n=c.round) if c.round else Text("Setup")


def hand_image(v: View | HandContent, *, tr: Tr = str) -> Image.Image:
    """The picture of :func:`render_hand` as a Pillow RGB image (not encoded), drawn from
    ``hand_content(v)`` only (or from ``v`` when it already is a :class:`HandContent`);
    ``tr`` writes its texts (:data:`render.board.Tr`; ``str``: English)."""
    c = v if isinstance(v, HandContent) else hand_content(v)
    me = c.viewer
    env = T.ENVIRONMENTS[c.environment]
    hand = c.hand
    rows: list[tuple[str, Side, int, str | None, tuple[int, int, int] | None]] = []
    for value in hand:
        rows.append(("card", me, value, None, None))
    sections: list[tuple[str, list]] = [(tr(Text("Your hand")), rows)]
    if c.my_pick is not None:
        label = (Text("Your card this round (revealed)") if c.revealed is not None
                 else Text("Your pick (face down until both are revealed)"))
        sections.append((tr(label),
                         [("card", me, c.my_pick, tr(Text("PICKED")), PICK_COLOUR)]))
    if c.shown_pick is not None:
        sections.append((tr(Text("The scientist's card, shown to you (observation)")),
                         [("card", Side.SCIENTIST, c.shown_pick, tr(Text("SHOWN")), None)]))
    height = TITLE_H + 16
    for _, items in sections:
        height += 40
        height += sum(_card_height(s, val, tr) + ROW_GAP for _, s, val, _, _ in items) or 40
    height += 76
    im = Image.new("RGB", (WIDTH, height), env.frame)
    d = ImageDraw.Draw(im)
    d.line((0, TITLE_H - 1, WIDTH, TITLE_H - 1), fill=env.frame_line, width=2)
    colour = T.RAPTOR_TEXT if me is Side.RAPTOR else T.SCIENTIST_TEXT
    w = draw_text(im, (PAD, TITLE_H / 2), tr(Text("{side}'s hand", side=SIDE_NAMES[me])),
                  T.HEADER_SIZE, colour, bold=True, anchor="lm")
    draw_text(im, (PAD + w + 16, TITLE_H / 2), tr(Text("private")), T.PANEL_SIZE, T.TEXT_DIM,
              anchor="lm")
    draw_text(im, (WIDTH - PAD, TITLE_H / 2), tr(_status(c)), T.PANEL_SIZE, T.TEXT, bold=True,
              anchor="rm")
    y = TITLE_H + 16
    for label, items in sections:
        draw_text(im, (PAD, y + 18), label, LABEL_SIZE, T.TEXT_DIM, anchor="lm")
        y += 40
        if not items:
            draw_text(im, (PAD, y + 16), tr(Text("(no cards)")), T.PANEL_SIZE, T.TEXT_DIM,
                      anchor="lm")
            y += 40
        for _, side, value, tag, frame in items:
            y += _card(im, d, y, side, value, tag=tag, frame=frame, tr=tr) + ROW_GAP
    # what the player knows of their own deck (contents, not order) and discard pile
    y += 12
    deck = " ".join(str(n) for n in c.deck) or "-"
    pile = " ".join(str(n) for n in c.discards) or "-"
    line = Text("Deck ({n}, order unknown): {deck}   ·   Discard: {pile}", n=c.deck_size,
                deck=deck, pile=pile)
    draw_text(im, (PAD, y + 12), tr(line), T.PANEL_SIZE, T.TEXT, anchor="lm")
    draw_text(im, (PAD, y + 42),
              tr(Text("Lower card: its effect.  Higher card: the difference in AP.")),
              20, T.TEXT_DIM, anchor="lm")
    return im


def render_hand(v: View | HandContent, *, tr: Tr = str) -> bytes:
    """A player's private hand as PNG bytes (828 px wide; the height grows with the cards).

    Shows each card of ``v.hand`` with its value, name and effect (R9 for the raptor, R10 for
    the scientist), the card picked this round (``v.my_pick``) framed, and, for the raptor
    under observation (R5.2), the scientist's card shown to them (``v.shown_pick``). This
    image is private to ``v.viewer`` (R11.2): send it only to that player (ephemeral).
    ``v`` may also be its :func:`hand_content` (the same picture).

    Raises:
        ValueError: ``v`` is the public view (``v.viewer is None``).
    """
    return encode_png(hand_image(v, tr=tr))
