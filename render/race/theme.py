"""Sizes and colours of the Raptor Race images (one place to tune their look).

The five raptors are told apart three ways (RR1.2): colour (the Okabe-Ito palette, which
stays distinct under the common colour-vision deficiencies), shape (blue a disc, green a
triangle, orange a square, purple a diamond, yellow a hexagon) and letter (B G O P Y),
each letter in the ink that contrasts with its colour.
"""

from __future__ import annotations

from engine.race import Raptor

# --- the track image (pixels)
CELL = 60           #: side of one space
MARGIN = 34         #: the strips with lane letters and row numbers
HEADER_H = 56       #: the status line above the track
BEYOND_H = 50       #: the strip beyond the finish line (a crossed raptor stands there)
FINISH_H = 16       #: the chequered finish line
PANEL_W = 300       #: the panel right of the track: the dice and the legend
SUPERSAMPLE = 3     #: sprites are drawn this much larger, then reduced

# --- text sizes
HEADER_SIZE = 24
LABEL_SIZE = 18
SMALL_SIZE = 15
TOKEN_SIZE = 26     #: the letter on a raptor (at 1x)
DIE = 46            #: side of a die
DIE_GAP = 10

# --- colours (RGB)
FRAME = (34, 30, 26)
FRAME_LINE = (74, 66, 56)
TEXT = (244, 240, 228)
TEXT_DIM = (176, 170, 156)
HIGHLIGHT = (255, 214, 64)    #: this turn's steps; a pending booster's ring
BOARDS = {
    "desert": {"lane_a": (226, 194, 130), "lane_b": (214, 178, 110), "grid": (186, 148, 86),
               "start": (240, 222, 178), "mark": (196, 160, 96)},
    "jungle": {"lane_a": (104, 156, 84), "lane_b": (90, 142, 72), "grid": (62, 108, 52),
               "start": (170, 204, 140), "mark": (70, 120, 58)},
}
BOOSTER = (200, 40, 36)       #: the booster's footprint mark
BOOSTER_RING = (255, 244, 214)
TREE_LEAF = (28, 94, 40)
TREE_LIGHT = (70, 150, 70)
TREE_TRUNK = (96, 62, 30)
ROCK = (128, 126, 120)
ROCK_LIGHT = (182, 180, 172)
ROCK_DARK = (60, 58, 54)
CHEQUER = ((250, 250, 250), (24, 24, 24))

RAPTOR_FILL = {
    Raptor.BLUE: (0, 114, 178), Raptor.GREEN: (0, 158, 115), Raptor.ORANGE: (230, 159, 0),
    Raptor.PURPLE: (204, 121, 167), Raptor.YELLOW: (240, 228, 66),
}
RAPTOR_INK = {
    Raptor.BLUE: (255, 255, 255), Raptor.GREEN: (255, 255, 255), Raptor.ORANGE: (20, 20, 20),
    Raptor.PURPLE: (20, 20, 20), Raptor.YELLOW: (20, 20, 20),
}
RAPTOR_EDGE = (16, 16, 16)
#: Each raptor's shape (render.race.sprites draws them).
RAPTOR_SHAPE = {
    Raptor.BLUE: "disc", Raptor.GREEN: "triangle", Raptor.ORANGE: "square",
    Raptor.PURPLE: "diamond", Raptor.YELLOW: "hexagon",
}

# --- dice
DIE_FACE = (248, 246, 238)
DIE_EDGE = (30, 30, 30)
TREX = (196, 28, 28)          #: the T-Rex face
TREX_INK = (255, 255, 255)
USED_VEIL = (34, 30, 26, 150)  #: laid over a used die
KEPT_RING = (255, 214, 64)     #: round a die set aside

# --- the Top-3 card
CARD_W, CARD_H = 460, 370
CARD_FACE = (250, 244, 226)
CARD_EDGE = (70, 54, 36)
CARD_INK = (40, 32, 24)
CARD_SLOT = (232, 220, 192)
