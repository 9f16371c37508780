"""Low-level tricks behind the rules: byte-lane board masks, their shifts and floods, cell-code
byte tables, and the memo tables of shared action values.

A *byte-lane mask* is an ``int`` with one byte per square of the 6 x 13 grid: square ``q``
is bit ``8 * q``. A board (a list of cell codes) becomes a mask with :func:`lanes` and a
:func:`byte_table`; shifting a mask by 8 bits moves it one column, by 104 bits (8 x 13) one
row. The rules in :mod:`engine.rules` and :mod:`engine.predicates` say what they compute;
this module holds how. Nothing here is a rule.
"""

from __future__ import annotations

from .geometry import CELLS, COLS, NEIGHBOURS

#: Bits to shift a byte-lane mask by one row (13 squares of 8 bits).
ROW_SHIFT = 8 * COLS
#: The byte-lane mask of each square's neighbours (R2.4).
NEIGHBOUR_MASK = tuple(sum(1 << (8 * n) for n in NEIGHBOURS[q]) for q in range(CELLS))
#: Each square's neighbours in index order.
SORTED_NEIGHBOURS = tuple(tuple(sorted(n)) for n in NEIGHBOURS)


def bit(q: int) -> int:
    """The byte-lane mask of the one square ``q``."""
    return 1 << (8 * q)


def has(mask: int, q: int) -> bool:
    """Whether square ``q`` is in the byte-lane ``mask``."""
    return bool(mask >> (8 * q) & 1)


def rings(start: int, within: int, depth: int = CELLS) -> list[int]:
    """Breadth-first rings around ``start`` (byte-lane masks): ring ``d - 1`` of the list
    holds the squares of ``within`` first reached in ``d`` orthogonal steps, for ``d`` up to
    ``depth``; the list stops early at the first empty ring. Each step is the four-way shift,
    up and down a row, left and right a column.

    ``within`` must hold board squares of columns B-L only (free spaces, passable ones, ...):
    a shift that wraps past the end of a row lands in column A or M, which ``within`` never
    holds, so no guard masks are needed. Exits (columns A and M) are never reached this way;
    callers that need them use :data:`NEIGHBOUR_MASK`."""
    out = []
    seen = frontier = start
    for _ in range(depth):
        frontier = ((frontier >> ROW_SHIFT) | (frontier << ROW_SHIFT) | (frontier << 8)
                    | (frontier >> 8)) & within & ~seen
        if not frontier:
            break
        seen |= frontier
        out.append(frontier)
    return out


def distances(start: int, within: int, marks: int, depth: int) -> int:
    """Breadth-first distances from ``start`` through ``within`` (as for :func:`rings`), at
    most ``depth`` steps: byte ``q`` of the result is the number of steps to square ``q`` if
    ``q`` is in ``marks`` and reached, else 0. The same walk as :func:`rings`, summed on the
    spot rather than listed (the scientists' moves need it on every AP decision)."""
    reach = 0
    seen = frontier = start
    d = 0
    while d < depth:
        d += 1
        frontier = ((frontier >> ROW_SHIFT) | (frontier << ROW_SHIFT) | (frontier << 8)
                    | (frontier >> 8)) & within & ~seen
        if not frontier:
            break
        seen |= frontier
        reach += (frontier & marks) * d
    return reach


def step(x: int, within: int) -> int:
    """The squares of ``within`` one orthogonal step from a square of ``x`` and not in ``x``
    (``within`` as for :func:`rings`)."""
    ring = rings(x, within, 1)
    return ring[0] if ring else 0


def flood(start: int, within: int) -> int:
    """The byte-lane mask of the squares of ``within`` (as for :func:`rings`) orthogonally
    connected to ``start``, ``start`` included."""
    region = start
    for ring in rings(start, within):
        region |= ring
    return region


def squares_of(mask: int) -> list[int]:
    """The squares of the byte-lane ``mask``, in index order."""
    out = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() >> 3)
    return out


def byte_table(*codes: int) -> bytes:
    """A ``bytes.translate`` table mapping the cell codes ``codes`` to 1 and others to 0."""
    return bytes(1 if i in codes else 0 for i in range(256))


def lanes(board: list[int] | bytes, table: bytes) -> int:
    """The byte-lane mask of the squares of ``board`` whose cell code ``table`` marks."""
    cells = board if board.__class__ is bytes else bytes(board)
    return int.from_bytes(cells.translate(table), "little")


def squares_with(board: list[int] | bytes, table: bytes) -> list[int]:
    """The squares, in index order, whose cell code ``table`` (see :func:`byte_table`)
    marks."""
    marks = bytes(board).translate(table)
    out = []
    q = marks.find(1)
    while q >= 0:
        out.append(q)
        q = marks.find(1, q + 1)
    return out


# ----------------------------------------------------------------------------- memo tables
def by_square(cls: type, count: int = CELLS) -> tuple:
    """One shared action per square (or per value below ``count``): actions are immutable
    values, so each distinct one is built once, which makes generating legal actions several
    times faster than constructing frozen dataclasses."""
    return tuple(cls(i) for i in range(count))


def from_row(table: list, cls: type, frm: int) -> list:
    """The shared two-square actions ``cls(frm, to)`` leaving ``frm``, indexed by ``to``
    (built on first use into ``table[frm]``)."""
    row = table[frm]
    if row is None:
        row = table[frm] = [cls(frm, to) for to in range(CELLS)]
    return row
