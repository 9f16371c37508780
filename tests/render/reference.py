"""Fixed positions whose pictures are stored in ``tests/render/reference/``.

The stored PNGs are only rewritten on purpose, after looking at them::

    python -m tests.render.reference          # writes tests/render/reference/*.png
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

import engine
from engine import Side
from render import board_image, render_hand
from render.board import encode_png

HERE = Path(__file__).resolve().parent / "reference"

JUNGLE = """\
    A B C D E F G H I J K L M
1   o . . . . # . . . . # . o
2     S . # . . * . . b . .
3     . . . M S * . # . . .
4     . . B . . # . # . . .
5     . # . # f . B . # . S
6   o . . . . . . . z . . . o
options: jungle standard manual
phase: ap
round: 6
ap: raptor 5
revealed: 8 3
sleep: 2
escaped: 1
killed: 1
raptor pick: 8
scientist pick: 3
raptor hand: 2 9
raptor discard: 1 4
scientist hand: 2 8
scientist discard: 5 6 7
"""
JUNGLE_MOVES = ["kill F3", "E3-E1", "D4-D5"]

SAVANNAH = """\
    A B C D E F G H I J K L M
1     . . . . . . . S # . . o
2     S . . . . # . . . . .
3   o . . . b . . . . . . .
4   o * . . . M . . . # . .
5     B # . . . . # # * * .
6     . # S . . . # . B # . o
options: savannah standard manual
tiles: S1/0 S2/1 S3/2 S4/3 S5/0 S6/1
phase: pick
round: 9
sleep: 4
escaped: 2
killed: 3
observation: yes
raptor hand: 3 5 7
raptor discard: 2 8 9
scientist hand: 1 6
scientist pick: 4
scientist discard: 3 9
"""


def reference_states() -> dict[str, engine.GameState]:
    """The two fixed positions (rocks as in their layouts, R2.7)."""
    jungle = engine.from_diagram(JUNGLE)
    for text in JUNGLE_MOVES:
        jungle = engine.apply(jungle, Side.RAPTOR, engine.parse_action(text, jungle, Side.RAPTOR))
    return {"jungle": jungle, "savannah": engine.from_diagram(SAVANNAH)}


def reference_images() -> dict[str, bytes]:
    """name -> PNG bytes of each reference picture: the boards as drawn
    (:func:`render.board_image`, lossless: the look, not the palette PNG that
    :func:`render.render_board` sends, which tests/render/test_png.py checks against it)."""
    states = reference_states()
    jungle, savannah = states["jungle"], states["savannah"]
    return {
        "board-jungle-ap": encode_png(board_image(engine.view(jungle, None))),
        "board-savannah-pick": encode_png(board_image(engine.view(savannah, None))),
        "hand-raptor-observation": render_hand(engine.view(savannah, Side.RAPTOR)),
    }


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for name, data in reference_images().items():
        path = HERE / f"{name}.png"
        Image.open(io.BytesIO(data)).save(path, optimize=True)
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)", file=sys.stderr)


if __name__ == "__main__":
    main()
