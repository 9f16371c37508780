"""Sizes and colours of the images (one place to tune the look).

Colours are RGB tuples. Pieces of the two sides differ by shape as well as colour (raptors
are round, scientists are standing figures), and every state that matters is told by shape or
a mark (a sleeping baby lies flat with "z", a frightened scientist lies down with a cross), so
the board reads the same without colour vision.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- board geometry (pixels) ---
CELL = 64            #: side of one space
HALF = CELL // 2     #: width of columns A and M (they hold only the half-circle exits)
MARGIN = 30          #: coordinate strips around the board
HEADER_H = 64        #: status line above the board
PANEL_H = 248        #: the two players' columns below the board
WIDTH = 2 * MARGIN + 12 * CELL                     #: 828
BOARD_LEFT = MARGIN                                #: x of column A's left edge
BOARD_TOP = HEADER_H + MARGIN                      #: y of row 1's top edge
BOARD_BOTTOM = BOARD_TOP + 6 * CELL                #: y of row 6's bottom edge
PANEL_TOP = BOARD_BOTTOM + MARGIN                  #: y where the panel starts
HEIGHT = PANEL_TOP + PANEL_H                       #: 756
SUPERSAMPLE = 3      #: static layer and sprites are drawn this much larger, then reduced

# --- text sizes ---
HEADER_SIZE = 28
COORD_SIZE = 20
PANEL_TITLE_SIZE = 24
PANEL_SIZE = 22
BADGE_SIZE = 20


@dataclass(frozen=True, slots=True)
class Environment:
    """The look of one environment's tiles (R1.3)."""

    frame: tuple[int, int, int]          # background around the board, header, panel
    frame_line: tuple[int, int, int]     # separators on the frame
    tile_a: tuple[int, int, int]         # T1 T3 T5 and the L-tiles X1 X4
    tile_b: tuple[int, int, int]         # T2 T4 T6 and X2 X3
    grid: tuple[int, int, int]           # thin lines between spaces
    border: tuple[int, int, int]         # thick tile borders
    mark_dark: tuple[int, int, int]      # texture marks (leaves / grass)
    mark_light: tuple[int, int, int]
    exit_fill: tuple[int, int, int]
    exit_mark: tuple[int, int, int]
    coord: tuple[int, int, int]          # coordinate letters


ENVIRONMENTS = {
    "jungle": Environment(
        frame=(22, 38, 28), frame_line=(52, 80, 58),
        tile_a=(92, 146, 74), tile_b=(78, 130, 64),
        grid=(60, 104, 52), border=(18, 34, 20),
        mark_dark=(52, 102, 46), mark_light=(132, 182, 100),
        exit_fill=(206, 176, 116), exit_mark=(96, 66, 30),
        coord=(200, 226, 190),
    ),
    "savannah": Environment(
        frame=(58, 40, 24), frame_line=(98, 72, 44),
        tile_a=(226, 196, 128), tile_b=(212, 178, 106),
        grid=(186, 150, 86), border=(84, 56, 26),
        mark_dark=(168, 130, 64), mark_light=(242, 220, 160),
        exit_fill=(122, 160, 84), exit_mark=(40, 66, 28),
        coord=(240, 222, 188),
    ),
}

TEXT = (242, 240, 230)
TEXT_DIM = (178, 178, 168)
PANEL_BG_ALPHA = 0

ROCK = (134, 132, 126)
ROCK_LIGHT = (184, 182, 174)
ROCK_DARK = (62, 60, 56)

RAPTOR = (128, 52, 160)        # mother and babies
RAPTOR_DARK = (40, 12, 56)
RAPTOR_PALE = (232, 214, 242)  # a sleeping baby's hollow body
RAPTOR_TEXT = (206, 160, 236)  # raptor's name on the dark frame

SCIENTIST = (250, 250, 246)    # lab coat
SCIENTIST_DARK = (20, 50, 100)
SCIENTIST_PALE = (196, 204, 216)   # a frightened scientist's body
SCIENTIST_TEXT = (150, 196, 255)

FIRE = (220, 50, 30)
FIRE_MID = (252, 140, 60)
FIRE_CORE = (255, 226, 120)
FIRE_DARK = (110, 18, 8)

SLEEP = (30, 60, 140)          # sleep tokens (badge on the mother, pips in the panel)
SLEEP_TEXT = (255, 255, 255)
CROSS = (224, 28, 28)          # kills, captures
CROSS_EDGE = (255, 255, 255)
FEAR_MARK = (250, 178, 20)     # a frightened scientist's "!" badge
FEAR_INK = (40, 28, 10)
SNORE = (20, 40, 110)          # the "z" of a sleeping baby

# highlights of the last round
HL_RAPTOR = (255, 186, 30)     # raptor moves, calls, escapes
HL_SCIENTIST = (70, 210, 255)  # scientist moves, jeep, reinforcements
HL_SHOT = (240, 40, 40)
HL_SLEEP = (160, 170, 255)     # a baby put to sleep (dart or gas)
HL_EDGE = (16, 16, 16)
HL_SMOKE = (90, 90, 90)
HL_FIRE = (255, 120, 0)

WIN_BG = (214, 168, 40)
WIN_TEXT = (30, 22, 6)
CARD_FACE = (250, 246, 234)
CARD_EDGE = (60, 50, 40)
CARD_BACK = (92, 84, 120)
CARD_BACK_MARK = (200, 192, 236)  # the "?" and inner line of a face-down card
SLEEP_PIP = (90, 130, 230)     # filled sleep-token pips on the dark panel
