"""Board geometry, coordinates, tiles and layouts.

Implements R2 (geometry and coordinates) and R2.6/R2.7 (layouts and tile faces).

Squares are plain ``int`` indices ``row * 13 + col`` on a 6-row x 13-column grid
(``row`` 0-5 for rows ``1``-``6`` top to bottom, ``col`` 0-12 for columns ``A``-``M``).
Use :func:`square` / :func:`square_name` to convert to and from the ``"E4"`` form.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import NotationError, OptionError

ROWS = 6
COLS = 13
CELLS = ROWS * COLS
COLUMN_LETTERS = "ABCDEFGHIJKLM"

#: Tile names by index: 0-5 are the square tiles T1-T6, 6-9 the L-tiles X1-X4 (R2.3).
TILE_NAMES = ("T1", "T2", "T3", "T4", "T5", "T6", "X1", "X2", "X3", "X4")
CENTRAL_TILES = (1, 4)  # T2 and T5
SQUARE_TILES = (0, 1, 2, 3, 4, 5)
L_TILES = (6, 7, 8, 9)

ENVIRONMENTS = ("jungle", "savannah")

#: R2.7: rock positions in tile-local (row, col) before turning, per face.
FACES: dict[str, dict[str, tuple[tuple[int, int], ...]]] = {
    "jungle": {
        "J1": ((1, 1),),
        "J2": ((0, 0),),
        "J3": ((0, 2), (2, 0)),
        "J4": ((1, 0), (1, 2)),
        "J5": ((0, 1),),
        "J6": ((0, 0), (1, 1)),
    },
    "savannah": {
        "S1": (),
        "S2": ((1, 1),),
        "S3": ((2, 1),),
        "S4": ((0, 0), (0, 1)),
        "S5": ((1, 2), (2, 2)),
        "S6": ((0, 2), (1, 0), (2, 1)),
    },
}


def sq(row: int, col: int) -> int:
    """Square index of grid ``(row, col)``, both 0-based."""
    return row * COLS + col


def square(name: str) -> int:
    """Parse ``"E4"`` (case-insensitive) into a square index.

    Raises:
        NotationError: not a column ``A``-``M`` followed by a row ``1``-``6``.
    """
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in COLUMN_LETTERS or text[1] not in "123456":
        raise NotationError(f"{name!r} is not a square: use a column A-M and a row 1-6, like E4")
    return sq(int(text[1]) - 1, COLUMN_LETTERS.index(text[0]))


def square_name(index: int) -> str:
    """The ``"E4"`` name of a square index (inverse of :func:`square`)."""
    row, col = divmod(index, COLS)
    return f"{COLUMN_LETTERS[col]}{row + 1}"


SQUARE_NAMES = tuple(square_name(i) for i in range(CELLS))


def tile_of(index: int) -> int | None:
    """Tile index (0-9) of a board square or exit, ``None`` off the board (R2.3)."""
    row, col = divmod(index, COLS)
    if 2 <= col <= 10:
        return (row // 3) * 3 + (col - 2) // 3
    if col in (0, 1):
        return 6 if row < 3 else 7
    return 8 if row < 3 else 9


#: Squares that are always part of the board (columns B-L), R2.2.
BOARD_SQUARES = tuple(sq(r, c) for r in range(ROWS) for c in range(1, 12))
#: Square indices of each tile's spaces (exits excluded).
TILE_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in BOARD_SQUARES if tile_of(s) == t) for t in range(10)
)
#: Tile index of every square (``-1`` for squares of columns A and M).
TILE_OF = tuple(
    (tile_of(i) if 1 <= i % COLS <= 11 else -1) for i in range(CELLS)
)
def column_span(tiles: tuple[int, ...]) -> str:
    """The columns the squares of ``tiles`` (tile indices) cover, as ``"F-H"`` (R2.3)."""
    cols = sorted({s % COLS for t in tiles for s in TILE_SQUARES[t]})
    return f"{COLUMN_LETTERS[cols[0]]}-{COLUMN_LETTERS[cols[-1]]}"


#: Columns of the central tiles T2 and T5, where the mother starts (R4.1): ``"F-H"``.
CENTRAL_COLUMNS = column_span(CENTRAL_TILES)

#: Long edges (R2.5): rows 1 and 6 of columns C-K.
LONG_EDGE = tuple(sq(r, c) for r in (0, 5) for c in range(2, 11))

#: Possible exit squares of each L-tile (top, bottom), R2.1.
EXIT_CHOICES = {6: (sq(0, 0), sq(2, 0)), 7: (sq(3, 0), sq(5, 0)),
                8: (sq(0, 12), sq(2, 12)), 9: (sq(3, 12), sq(5, 12))}
ALL_EXIT_SQUARES = frozenset(s for pair in EXIT_CHOICES.values() for s in pair)

# Orthogonal steps as (drow, dcol); order N, E, S, W is the stable order of lines.
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _neighbours(index: int) -> tuple[int, ...]:
    row, col = divmod(index, COLS)
    out = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        if 0 <= r < ROWS and 0 <= c < COLS:
            n = sq(r, c)
            if n in ALL_EXIT_SQUARES or 1 <= c <= 11:
                out.append(n)
    return tuple(out)


#: Orthogonal neighbours among board squares and possible exits (R2.4). Exits are only
#: adjacent to the L-tile square beside them.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    (tuple(n for n in _neighbours(i) if n not in ALL_EXIT_SQUARES or i % COLS in (1, 11))
     if (1 <= i % COLS <= 11) else
     (tuple(n for n in _neighbours(i) if 1 <= n % COLS <= 11) if i in ALL_EXIT_SQUARES else ()))
    for i in range(CELLS)
)


def _rays(index: int) -> tuple[tuple[int, ...], ...]:
    row, col = divmod(index, COLS)
    rays = []
    for dr, dc in DIRECTIONS:
        ray = []
        r, c = row + dr, col + dc
        while 0 <= r < ROWS and 0 <= c < COLS:
            ray.append(sq(r, c))
            r, c = r + dr, c + dc
        rays.append(tuple(ray))
    return tuple(rays)


#: For each square, the four straight lines of squares leaving it (N, E, S, W), to the grid
#: edge. Callers stop at the first square that is off the board (R7.2, R8.5, R10.3).
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(_rays(i) for i in range(CELLS))


def _tile_adjacency() -> tuple[frozenset[int], ...]:
    adj: list[set[int]] = [set() for _ in range(10)]
    for s in BOARD_SQUARES:
        for n in NEIGHBOURS[s]:
            if n in ALL_EXIT_SQUARES:
                continue
            a, b = TILE_OF[s], TILE_OF[n]
            if a != b:
                adj[a].add(b)
    return tuple(frozenset(x) for x in adj)


#: Tiles sharing an edge with each tile (R2.4).
TILE_NEIGHBOURS = _tile_adjacency()


def turn(local: tuple[int, int], quarter_turns: int) -> tuple[int, int]:
    """Turn a tile-local ``(row, col)`` clockwise by ``quarter_turns`` x 90 degrees (R2.6)."""
    r, c = local
    for _ in range(quarter_turns % 4):
        r, c = c, 2 - r
    return r, c


@dataclass(frozen=True, slots=True)
class Layout:
    """One game's board: the face and turn on each square tile and the four exits (R2.6).

    ``tiles[i]`` is ``(face_name, quarter_turns)`` for square tile ``T{i+1}``;
    ``exits`` holds the four exit squares in L-tile order X1-X4.
    """

    environment: str
    tiles: tuple[tuple[str, int], ...]
    exits: tuple[int, int, int, int]

    def rocks(self) -> tuple[int, ...]:
        """Squares holding a rock, sorted (R2.7)."""
        faces = FACES[self.environment]
        out = []
        for t, (face, turns) in enumerate(self.tiles):
            top, left = (t // 3) * 3, 2 + (t % 3) * 3
            for local in faces[face]:
                r, c = turn(local, turns)
                out.append(sq(top + r, left + c))
        return tuple(sorted(out))


def standard_layout(environment: str = "jungle") -> Layout:
    """The fixed layout: faces 1..6 in order, unturned, exits at A1, A6, M1, M6 (R2.6)."""
    check_environment(environment)
    prefix = "J" if environment == "jungle" else "S"
    return Layout(environment, tuple((f"{prefix}{i}", 0) for i in range(1, 7)),
                  (sq(0, 0), sq(5, 0), sq(0, 12), sq(5, 12)))


def random_layout(seed: int, environment: str = "jungle") -> Layout:
    """The seeded random layout of R2.6: faces shuffled, turned, exits top or bottom."""
    check_environment(environment)
    rng = random.Random(f"raptor:{seed}:layout")
    faces = sorted(FACES[environment])
    rng.shuffle(faces)
    tiles = tuple((f, rng.randrange(4)) for f in faces)
    exits = tuple(EXIT_CHOICES[t][rng.randrange(2)] for t in L_TILES)
    return Layout(environment, tiles, exits)  # type: ignore[arg-type]


def check_environment(environment: str) -> None:
    """Refuse an environment other than those of R1.3 (``"jungle"``, ``"savannah"``).

    Raises:
        OptionError: an unknown environment (the message quotes it).
    """
    if environment not in ENVIRONMENTS:
        raise OptionError(f"environment must be 'jungle' or 'savannah', got {environment!r}")
