"""The two tracks as data (RR2), and spaces.

A space is an ``int``: ``row * 5 + lane`` with lanes ``A``-``E`` = 0-4 and rows from 0, the
start row (RR2.1); :func:`space` reads its name (``"C7"``) and :data:`space_name` writes it.
The row after a track's top row holds the spaces *beyond the finish line* (RR2.2), named
the same way (the Desert's ``C13``, the Jungle's ``C12``; RR2.7).

:data:`TRACKS` holds both layouts: the number of rows, the boosters and the obstacles
(trees and rocks act alike, RR2.5); every rule reads them from there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from ..messages import N_
from .errors import OptionError

#: The lanes, left to right (RR2.1).
LANES = "ABCDE"
LANE_COUNT = 5
#: Rows a space name may have (enough for every track and the row beyond its finish).
MAX_ROWS = 20


def space(name: str) -> int:
    """The space named ``name`` (``"C7"``, case-insensitive), RR2.1.

    Raises:
        OptionError: not a lane A-E followed by a row number.
    """
    m = _SPACE.fullmatch(name.strip())
    if not m or int(m.group(2)) >= MAX_ROWS:
        raise OptionError(f"{name!r} is not a space: a lane A-E and a row, such as 'C7'")
    return int(m.group(2)) * LANE_COUNT + LANES.index(m.group(1).upper())


_SPACE = re.compile(r"([A-Ea-e])(\d{1,2})")


def lane_of(sp: int) -> int:
    """0-4 for lanes A-E."""
    return sp % LANE_COUNT


def row_of(sp: int) -> int:
    return sp // LANE_COUNT


def at(lane: int, row: int) -> int:
    """The space of ``lane`` (0-4) and ``row``."""
    return row * LANE_COUNT + lane


#: Every space's name by index (``space_name[at(2, 7)] == "C7"``).
space_name: tuple[str, ...] = tuple(f"{LANES[i % LANE_COUNT]}{i // LANE_COUNT}"
                                    for i in range(MAX_ROWS * LANE_COUNT))


class Board(StrEnum):
    """The two sides of the board (RR1.1)."""

    DESERT = "desert"
    JUNGLE = "jungle"


class Obstacle(StrEnum):
    """What stands on an obstacle space (RR2.5); both act alike."""

    TREE = "tree"
    ROCK = "rock"


@dataclass(frozen=True)
class Track:
    """One side of the board (RR2).

    Attributes:
        board: which side.
        rows: track rows, 0 (start) .. ``rows - 1`` (top row); row ``rows`` lies beyond
            the finish line (RR2.2).
        boosters: the booster spaces.
        obstacles: obstacle space -> tree or rock.
        arrows: whether the arrows die is in use (RR3.2: the Jungle).
        name: the side's name, a message id.
    """

    board: Board
    rows: int
    boosters: frozenset[int]
    obstacles: dict[int, Obstacle]
    arrows: bool
    name: str

    @property
    def finish_row(self) -> int:
        """The row beyond the finish line (RR2.2)."""
        return self.rows

    def on_track(self, sp: int) -> bool:
        """Whether ``sp`` is a space of the track or beyond its finish line (RR2.2)."""
        return 0 <= sp < (self.rows + 1) * LANE_COUNT

    def crossed(self, sp: int) -> bool:
        """Whether ``sp`` lies beyond the finish line (RR2.2)."""
        return row_of(sp) >= self.rows


def _spaces(names: str) -> frozenset[int]:
    return frozenset(space(n) for n in names.split())


#: Both tracks (RR2.4, RR2.5; layouts ours, RR2.6). Keyed by board side.
TRACKS: dict[Board, Track] = {
    Board.DESERT: Track(
        board=Board.DESERT, rows=13, arrows=False, name=N_("Desert"), obstacles={},
        boosters=_spaces("A2 A6 A10 B3 B7 B11 C4 C8 C12 D3 D7 D11 E2 E6 E10"),
    ),
    Board.JUNGLE: Track(
        board=Board.JUNGLE, rows=12, arrows=True, name=N_("Jungle"),
        obstacles={**{space(n): Obstacle.TREE for n in "A2 B5 E7 C9 D11".split()},
                   **{space(n): Obstacle.ROCK for n in "E2 C3 D5 A7 B11".split()}},
        boosters=_spaces("B1 D1 A4 E4 C6 B8 D8 A10 E10"),
    ),
}


def track(board: Board | str) -> Track:
    """The track of ``board`` (``"desert"`` or ``"jungle"``, RR1.1).

    Raises:
        OptionError: another name.
    """
    try:
        return TRACKS[Board(board)]
    except ValueError:
        raise OptionError(f"the board is 'desert' or 'jungle', not {board!r}") from None
