"""Sizes and colours of the Ratjack images (one place to tune their look).

The four decks differ by letter and shape as well as by colour (colour-blind safe): Red Rats
``R`` a circle, Blue Rats ``B`` a square, Raccoons ``C`` a triangle, Weasels ``W`` a diamond.
A chip shows its face in writing (``+3``, ``-10``); positive chips are light, negative ones
dark. Face-down cards are a patterned back in every deck.
"""

from __future__ import annotations

from typing import NamedTuple


class DeckLook(NamedTuple):
    """How one deck's cards look: ``ink`` (the letter, value and shape), ``tint`` (the face)
    and the ``shape`` drawn beside the letter."""

    ink: tuple[int, int, int]
    tint: tuple[int, int, int]
    shape: str


DECK_LOOKS = {
    "R": DeckLook((176, 30, 36), (252, 226, 222), "circle"),
    "B": DeckLook((26, 78, 178), (222, 232, 252), "square"),
    "C": DeckLook((70, 70, 84), (226, 226, 230), "triangle"),
    "W": DeckLook((168, 102, 0), (252, 238, 204), "diamond"),
}

# --- the table image
WIDTH = 960                 #: both images' width
PAD = 18
HEADER_H = 64               #: the status line
CENTRE_H = 148              #: deck, discard pile and reserve
ROW_H = 172                 #: one player's row
LEFT_W = 210                #: a row's label column (name, VP, total, hand)
CARD_W, CARD_H = 74, 102    #: a display card at full size
CARD_GAP = 8
MIN_CARD_W = 40             #: cards shrink down to this width when a display is long
CHIP_D = 34                 #: a chip's diameter
FOOTER_H = 44               #: the last round's result / the legend

# --- text sizes
TITLE_SIZE = 28
NAME_SIZE = 26
LABEL_SIZE = 20
SMALL_SIZE = 17
VALUE_SIZE = 46
CHIP_SIZE = 17

# --- colours
FRAME = (30, 36, 44)
FRAME_LINE = (62, 72, 86)
ROW_BG = (38, 46, 56)
TURN_BG = (58, 70, 46)      #: the row of the player to act
OUT_BG = (34, 34, 36)       #: the row of an eliminated player
TEXT = (242, 240, 230)
TEXT_DIM = (170, 174, 180)
TEXT_DARK = (24, 22, 20)
CARD_EDGE = (40, 36, 32)
BACK = (84, 62, 120)
BACK_MARK = (150, 124, 196)
CHIP_PLUS = (246, 242, 222)
CHIP_PLUS_INK = (20, 60, 20)
CHIP_MINUS = (36, 34, 40)
CHIP_MINUS_INK = (255, 214, 214)
CHIP_EDGE = (10, 10, 10)
TURN_MARK = (255, 200, 40)  #: the arrow and frame of the player to act
VP_ON = (255, 200, 40)
VP_OFF = (78, 84, 94)
OVER_BG = (214, 168, 40)    #: the banner of a finished game
OVER_TEXT = (30, 22, 6)
BANNER = (250, 250, 240)
LIMIT_WARN = (240, 90, 60)  #: a total over 25
EXACT = (110, 220, 120)     #: a total of exactly 25
